"""Small promises of issue 22: no silent empty output, exact counts, one-line messages, plural
agreement."""

from __future__ import annotations

import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.scoring.report import _short
from tests.conftest import CONFORMANCE, CORPORA, ROOT

DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"
KEY, RESPONSE = ROOT / "examples/conll2012/key.conll", ROOT / "examples/conll2012/response.conll"
LITBANK = CORPORA / "litbank/105_persuasion_brat.conll"


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- -f reference
@pytest.mark.parametrize("metrics", ["conll", "mentions", "mentions,conll"])
def test_reference_format_without_a_block_is_a_usage_error(metrics, capsys):
    code, out, err = run(capsys, "score", KEY, RESPONSE, "-f", "reference", "-m", metrics)
    assert code == 2 and out == "" and "-f reference" in err and "muc, bcub and ceafe" in err


def test_reference_format_says_what_it_leaves_out(capsys):
    code, out, err = run(capsys, "score", KEY, RESPONSE, "-f", "reference", "-m", "muc,conll")
    assert code == 0 and out.count("====== TOTALS =======") == 1
    assert "conll has no block in the reference scorer's output; left out" in err
    code, out, err = run(capsys, "score", KEY, RESPONSE, "-f", "reference", "-m", "muc,bcub")
    assert code == 0 and out.count("====== TOTALS =======") == 2 and err == ""


def test_reference_format_refuses_per_document(capsys):
    code, out, err = run(capsys, "score", KEY, RESPONSE, "-f", "reference", "--per-document")
    assert code == 2 and out == "" and "--per-document" in err


# ---------------------------------------------------------------------------- conll_score
def test_conll_alone_gives_conll_score():
    key = [[(0, 1), (4, 4)], [(6, 6), (8, 8)]]
    response = [[(0, 1)], [(4, 4), (6, 6), (8, 8)]]
    full = corefkit.score_clusters(key, response).as_dict(exact=True)
    alone = corefkit.score_clusters(key, response, metrics="conll").as_dict(exact=True)
    assert alone["conll_score"] == full["conll_score"] and 0 < alone["conll_score"] < 100
    scorer = corefkit.Scorer(metrics="conll")
    scorer.update(key, response)
    assert scorer.compute().as_dict(exact=True)["conll_score"] == full["conll_score"]


# ---------------------------------------------------------------------------- counts
def test_counts_are_exact_or_marked_rounded():
    assert _short(12507) == "12507"
    assert _short(Fraction(9, 2)) == "4.5" and _short(Fraction(1, 16)) == "0.0625"
    assert _short(Fraction(70171, 3)) == "~23390.33"
    assert _short(Fraction(1, 3)) == "~0.33" and _short(Fraction(-2, 3)) == "~-0.67"


def test_the_table_shows_no_exponent_and_no_rounded_integer(capsys):
    code, out, _ = run(capsys, "score", LITBANK, LITBANK, "-m", "bcub,lea")
    assert code == 0 and "e+" not in out
    report = corefkit.score(LITBANK, LITBANK, "bcub")
    for value in (report.metrics["bcub"].counts.recall_num,):
        shown = _short(value)
        assert shown == str(value) if Fraction(value).denominator == 1 else \
            shown.startswith("~") or Fraction(shown) == value


# ---------------------------------------------------------------------------- one line
def test_a_newline_in_a_file_name_does_not_split_the_error(tmp_path, capsys):
    odd = tmp_path / "two\nlines.conll"
    shutil.copy(LITBANK, odd)
    broken = odd.read_text(encoding="utf-8").replace("#end document", "")
    odd.write_text(broken, encoding="utf-8")
    for args in (["stats", odd], ["score", odd, odd], ["convert", odd, tmp_path / "o.conll"]):
        code, _, err = run(capsys, *args)
        assert code == 1 and err.count("\n") == 1, err
        assert "two\\nlines.conll" in err
    code, out, _ = run(capsys, "validate", odd)
    lines = [line for line in out.splitlines() if "[ERROR]" in line]
    assert code == 1 and lines and all("two\\nlines.conll:" in line for line in lines)


def test_a_warning_with_a_control_character_stays_one_line(tmp_path, capsys):
    odd = tmp_path / "tab\there.conll"
    key = tmp_path / "k.conll"
    shutil.copy(KEY, key)
    odd.write_text(KEY.read_text().replace("\tBoston\t", "\tParis\t"), encoding="utf-8")
    code, _, err = run(capsys, "score", key, odd, "--lenient", "-m", "muc")
    warning = [line for line in err.splitlines() if "pair.tokens" in line]
    assert code == 0 and len(warning) == 1 and "tab\\there.conll" in warning[0]


# ---------------------------------------------------------------------------- plurals
def test_plural_agreement(tmp_path, capsys):
    one = tmp_path / "one.conll"
    one.write_text(KEY.read_text().split("#end document")[0] + "#end document\n")
    code, _, err = run(capsys, "convert", one, tmp_path / "one.jsonlines")
    assert code == 0 and "wrote 1 document\n" in err, err
    code, _, err = run(capsys, "convert", KEY, tmp_path / "two.jsonlines")
    assert code == 0 and "wrote 2 documents\n" in err, err
    code, out, _ = run(capsys, "stats", one)
    assert not re.search(r"\b1 (sets|members|entities|mentions)\b", out)
