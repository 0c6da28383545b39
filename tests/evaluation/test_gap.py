"""The GAP scorer: gold against itself, a hand-made system with hand-computed figures, the
official scorer's rules (missing output, repeated IDs, odd labels) and the command."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.evaluation.gap import gap_score
from tests.conftest import CORPORA

GAP = CORPORA / "jsonlines" / "gap"
HEADER = "ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB\tB-offset\tB-coref\tURL"


def example(ident: str, pronoun: str, a_coref: str, b_coref: str) -> str:
    text = f"Ann Lee met Bob Ray before {pronoun} left."
    return "\t".join([ident, text, pronoun, str(text.index(f" {pronoun} ") + 1), "Ann Lee", "0",
                      a_coref, "Bob Ray", "12", b_coref, "http://x"])


@pytest.fixture
def gold(tmp_path: Path) -> Path:
    path = tmp_path / "gold.tsv"
    path.write_text("\n".join([HEADER, example("f1", "she", "TRUE", "FALSE"),
                               example("f2", "her", "FALSE", "TRUE"),
                               example("m1", "he", "FALSE", "FALSE"),
                               example("m2", "his", "TRUE", "FALSE")]) + "\n")
    return path


@pytest.mark.parametrize("name", ["gap-validation.tsv", "gap-development.tsv"])
def test_gold_against_itself_is_100(name: str) -> None:
    report = gap_score(GAP / name, GAP / name)
    for group in ("overall", "masculine", "feminine"):
        c = report.counts[group]
        assert (c.precision, c.recall, c.f1, c.fp, c.fn) == (1, 1, 1, 0, 0)
    assert report.bias == 1 and report.missing == 0
    assert report.examples == (454 if "validation" in name else 2000)
    assert report.counts["overall"].tp == (392 if "validation" in name else 1799)


def test_hand_made_system(gold: Path, tmp_path: Path) -> None:
    system = tmp_path / "system.tsv"
    # f1: TP + FP; f2: TN + FN; m1: FP + TN; m2: missing, two FN (whatever the gold says)
    system.write_text("f1\tTRUE\tTRUE\nf2\tFALSE\tFALSE\nm1\tTRUE\tFALSE\n")
    report = gap_score(gold, system)
    overall, masculine, feminine = (report.counts[g] for g in ("overall", "masculine", "feminine"))
    assert (overall.tp, overall.fp, overall.fn, overall.tn) == (1, 2, 3, 2)
    assert (overall.precision, overall.recall, overall.f1) == (Fraction(1, 3), Fraction(1, 4),
                                                               Fraction(2, 7))
    assert (feminine.tp, feminine.fp, feminine.fn, feminine.tn) == (1, 1, 1, 1)
    assert feminine.f1 == Fraction(1, 2)
    assert (masculine.tp, masculine.fp, masculine.fn, masculine.tn) == (0, 1, 2, 1)
    assert masculine.f1 == 0 and report.bias is None and report.missing == 1
    assert report.to_official() == (
        "Overall recall: 25.0 precision: 33.3 f1: 28.6\n\t\ttp 1\tfp 2\n\t\tfn 3\ttn 2\n"
        "Masculine recall: 0.0 precision: 0.0 f1: 0.0\n\t\ttp 0\tfp 1\n\t\tfn 2\ttn 1\n"
        "Feminine recall: 50.0 precision: 50.0 f1: 50.0\n\t\ttp 1\tfp 1\n\t\tfn 1\ttn 1\n"
        "Bias (F/M): -")
    # m2 answered right: masculine P 1/2, R 1, F1 2/3; bias (1/2) / (2/3) = 3/4
    system.write_text("f1\tTRUE\tTRUE\nf2\tFALSE\tFALSE\nm1\tTRUE\tFALSE\nm2\tTRUE\tFALSE\n")
    report = gap_score(gold, system)
    assert report.counts["masculine"].f1 == Fraction(2, 3) and report.bias == Fraction(3, 4)
    assert report.counts["overall"].f1 == Fraction(4, 7)
    assert report.to_json()["bias_exact"] == "3/4"


def test_official_rules_for_odd_system_files(gold: Path, tmp_path: Path) -> None:
    system = tmp_path / "system.tsv"
    system.write_text("ID\tA-coref\tB-coref\nf1\ttrue\tfalse\nf1\tFALSE\tTRUE\nf2\tFALSE\tmaybe\n"
                      "m1\tFALSE\tFALSE\nm2\tTRUE\tFALSE\nzz\tTRUE\tTRUE\n")
    report = gap_score(gold, system)
    c = report.counts["overall"]
    # f1 first line counts (lower case read); f2's B 'maybe' is a missed link; zz is ignored
    assert (c.tp, c.fp, c.fn, c.tn) == (2, 0, 1, 5)
    assert sorted(w.check for w in report.warnings) == ["gap.bad-label", "gap.duplicate-id"]
    # a system file in GAP's own layout is read by its label columns
    assert gap_score(gold, gold).counts["overall"].f1 == 1


def test_clusters_score_like_their_predictions(tmp_path: Path) -> None:
    gold = GAP / "gap-validation.tsv"
    docs = list(corefkit.read(str(gold)))
    for doc in docs[::3]:  # merge B into the pronoun's chain in every third example
        roles = {m.attrs["gap_role"]: m for m in doc.mentions}
        chain, other = doc.entity_of(roles["pronoun"]), doc.entity_of(roles["B"])
        if chain is not other:
            doc.merge_entities(chain, other)
    corefkit.write(docs, str(tmp_path / "system.conll"))
    corefkit.write(docs, str(tmp_path / "system.tsv"), format="gap")
    from_clusters = gap_score(gold, tmp_path / "system.conll")
    from_tsv = gap_score(gold, tmp_path / "system.tsv")
    in_memory = gap_score(gold, docs)
    assert from_clusters.counts == from_tsv.counts == in_memory.counts
    c = from_tsv.counts["overall"]
    assert (c.tp, c.fn) == (392, 0) and c.fp == sum(
        1 for d in docs[::3] if d.attrs["gap_example"]["b_coref"] is False)


def test_unknown_pronoun_counts_overall_only(tmp_path: Path) -> None:
    gold = tmp_path / "gold.tsv"
    gold.write_text("\n".join([HEADER, example("n1", "they", "TRUE", "FALSE"),
                               example("f1", "she", "TRUE", "FALSE")]) + "\n")
    report = gap_score(gold, {"n1": (True, False), "f1": (True, False)})
    assert report.counts["overall"].tp == 2 and report.counts["feminine"].tp == 1
    assert report.counts["masculine"].tp == 0
    assert [w.check for w in report.warnings] == ["gap.unknown-pronoun"]


def test_command(gold: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    system = tmp_path / "system.tsv"
    system.write_text("f1\tTRUE\tTRUE\nf2\tFALSE\tFALSE\nm1\tTRUE\tFALSE\nm2\tTRUE\tFALSE\n")
    assert main(["gap-score", str(gold), str(system)]) == 0
    out = capsys.readouterr().out
    assert "Overall       66.7      50.0   57.1" in out and "Bias (F/M): 0.75" in out
    assert main(["gap-score", str(gold), str(system), "-f", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scores"]["feminine"]["exact"]["f1"] == "1/2" and data["bias"] == 0.75
    assert main(["gap-score", str(gold), str(system), "-f", "official"]) == 0
    assert capsys.readouterr().out.startswith("Overall recall: 66.7 precision: 50.0 f1: 57.1\n")
    assert main(["gap-score", str(gold), str(tmp_path / "none.tsv")]) == 1
    assert "none.tsv" in capsys.readouterr().err
