"""``corefkit stats``: counts against the shared corpora's READMEs, table and JSON output."""

from __future__ import annotations

import json
import re

import pytest

import corefkit
from corefkit.analysis.stats import corpus_stats
from corefkit.cli.main import main
from tests.conftest import CORPORA

# LitBank README: tokens, sentences, mentions, entities, singletons per file
LITBANK = {
    "1064_the_masque_of_the_red_death_brat": (2094, 84, 131, 45, 30),
    "2891_howards_end_brat": (2022, 117, 332, 95, 63),
    "8867_the_magnificent_ambersons_brat": (2143, 58, 233, 127, 94),
    "940_the_last_of_the_mohicans_a_narrative_of_1757_brat": (2247, 52, 311, 199, 157),
    "78_tarzan_of_the_apes_brat": (2025, 56, 317, 95, 66),
    "541_the_age_of_innocence_brat": (2011, 52, 231, 87, 69),
    "1661_the_adventures_of_sherlock_holmes_brat": (2095, 113, 287, 53, 36),
    "1400_great_expectations_brat": (2045, 103, 354, 47, 26),
    "105_persuasion_brat": (2088, 45, 286, 72, 52),
    "4300_ulysses_brat": (2034, 179, 361, 66, 44),
}


def run(args, capsys) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_litbank_counts_equal_the_readme():
    total, each = corpus_stats(corefkit.read(CORPORA / "litbank"), per_document=True)
    for stats in each:
        c = stats.counts
        assert (c["tokens"], c["sentences"], c["mentions"], c["entities"], c["singletons"]) == \
            LITBANK[stats.name], stats.name
    assert total.counts["documents"] == 10
    assert total.counts["mentions"] == sum(v[2] for v in LITBANK.values())


def test_codi_crac_counts_equal_the_readme(capsys):
    code, out, _ = run(["stats", str(CORPORA / "codi-crac22"), "-f", "json", "-q"], capsys)
    assert code == 0
    data = json.loads(out)
    # README: identity markables 1,266 + 2,009 + 887, bridging 120 + 195 + 111, DD 87 + 62 + 50,
    # 530 Pseudo markables, 13,507 token lines, 1,253 sentences
    assert data["documents"] == 21 and data["sentences"] == 1253 and data["tokens"] == 13507
    assert data["mentions"] == 4162 and data["non_referring"] == 530
    assert data["bridging"] == 426 and data["discourse_deixis"]["mentions"] == 199
    assert data["split_antecedents"]["sets"] > 0
    assert sum(data["mention_types"].values()) == 4162
    assert data["mention_type_sources"] == {"form": 4162}


def test_table_output_for_an_mmax2_project(capsys):
    code, out, err = run(["stats", str(CORPORA / "mmax2" / "htc")], capsys)
    assert code == 0 and "mmax2.sentence-overlap" in err
    lines = {m.group(1): line for line in out.splitlines()
             if (m := re.match(r"\s*(\S.*?)\s{2,}\S", line))}
    assert lines["mentions"].split()[-1] == "32"       # README: 32 coref markables
    assert lines["entities"].split()[-1] == "28"       # set_12 (5 markables) + 27 singletons
    assert lines["singletons"].split()[-1] == "27"
    assert lines["bridging"].split()[-1] == "2"
    assert "name           6" in out and "(attribute 6)" in out
    assert "attribute: an explicit mention attribute" in out


def test_per_document_json_and_type_sources(capsys):
    code, out, _ = run(["stats", str(CORPORA / "lcc"), "-f", "json", "--per-document", "-q"],
                       capsys)
    data = json.loads(out)
    assert code == 0 and len(data["per_document"]) == 30
    assert sum(d["mentions"] for d in data["per_document"]) == data["mentions"]
    assert data["mention_types_by_source"]["attribute"] == {"pronoun": 254, "zero": 7}
    assert data["type_table"] == "default"


def test_gum_table(capsys):
    code, out, _ = run(["stats", str(CORPORA / "gum" / "dep")], capsys)
    assert code == 0
    assert "documents          46" in out and "split antecedents  33 sets, 75 members" in out
    assert "name        1945   15.6%  (upos 1945)" in out


@pytest.mark.parametrize("args,message", [
    (["stats", "/nonexistent/x.conll"], "no such file"),
    (["stats", str(CORPORA / "litbank"), "--type-table", "nonsense"], "unknown mention-type table"),
    (["stats", str(CORPORA / "litbank"), "--mmax-map", "arrau"], "--mmax-map applies to mmax2 input only"),
])
def test_usage_errors_are_one_line(args, message, capsys):
    code, _, err = run(args, capsys)
    assert code in (1, 2) and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
