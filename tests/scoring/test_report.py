"""Score reports: the reference scorer's text byte for byte, JSON against its schema, CSV."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from importlib import resources

import jsonschema
import pytest

import corefkit
from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.report import _show_rpf, perl_number
from tests.conftest import CONFORMANCE, FIXTURES

DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"


def test_show_rpf_matches_perl():
    """400 random lines printed by Perl itself with the reference scorer's formula."""
    cases = json.loads((FIXTURES / "perl_showrpf.json").read_text())["cases"]
    assert len(cases) >= 400
    for case in cases:
        counts = Counts(Fraction(case["recall_num"]), case["recall_den"],
                        Fraction(case["precision_num"]), case["precision_den"])
        line = _show_rpf(counts).split("\n")[0]
        assert line == case["perl"], case


def test_perl_number():
    assert perl_number(6) == "6" and perl_number(6.0) == "6"
    assert perl_number(10 / 3) == "3.33333333333333"
    assert perl_number(55.55) == "55.55"
    assert perl_number(0.1 + 0.2) == "0.3"


def test_reference_totals_block_for_one_metric():
    report = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-4.response", metrics="muc",
                            lenient=True)
    text = report.to_reference()
    rule = "-" * 74
    assert text == (
        "\n====== TOTALS =======\n"
        "Identification of Mentions: Recall: (4 / 6) 66.66%\tPrecision: (4 / 7) 57.14%\tF1: 61.53%\n"
        f"{rule}\n"
        "Coreference: Recall: (1 / 3) 33.33%\tPrecision: (1 / 3) 33.33%\tF1: 33.33%\n"
        f"{rule}\n"
    )


def test_reference_blanc_block():
    report = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-8.response", metrics="blanc",
                            lenient=True)
    lines = report.to_reference().split("\n")
    assert lines[:2] == ["", "====== TOTALS ======="]
    assert lines[4:7] == ["", "Coreference:", "Coreference links: Recall: (1 / 4) 25%\tPrecision: "
                          "(1 / 4) 25%\tF1: 25%"]
    assert lines[8].startswith("Non-coreference links: Recall: (5 / 11) 45.45%")
    assert lines[10] == ("BLANC: Recall: (0.352272727272727 / 1) 35.22%\tPrecision: "
                         "(0.272058823529412 / 1) 27.2%\tF1: 30.35%")


def test_reference_blanc_edge_rule_block():
    """TC-M-3: the key has no non-coreference links, so BLANC is the coreference part."""
    report = corefkit.score(DATA / "TC-M.key", DATA / "TC-M-3.response", metrics="blanc")
    blanc_line = [line for line in report.to_reference().split("\n") if line.startswith("BLANC")][0]
    assert blanc_line.startswith("BLANC: Recall: (0.266666666666667 / 1) 26.66%\tPrecision: (1 / 1) 100%")


def test_reference_several_metrics_like_scorer_all():
    report = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-1.response", metrics="muc,bcub,conll")
    text = report.to_reference()
    assert text.startswith("\nMETRIC muc:\n\n====== TOTALS =======\n")
    assert "\nMETRIC bcub:\n" in text and "conll" not in text


@pytest.fixture(scope="module")
def schema():
    return json.loads(resources.files("corefkit").joinpath("schemas/score-report.schema.json").read_text())


def test_json_report_matches_schema(schema):
    report = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-8.response", per_document=True,
                            lenient=True)
    data = json.loads(json.dumps(report.to_json()))
    jsonschema.validate(data, schema)
    assert data["documents"] == 1
    assert data["metrics"]["bcub"]["exact"]["recall"] == "5/9"
    assert data["metrics"]["bcub"]["recall_num"] == pytest.approx(10 / 3)
    assert data["metrics"]["muc"]["recall_num"] == 1 and data["metrics"]["muc"]["recall_den"] == 3
    assert data["metrics"]["blanc"]["coreference"]["recall_den"] == 4
    assert data["metrics"]["conll"]["f1"] == pytest.approx(2019 / 4235)
    assert data["repeated_mentions_removed"]["response"] == 1
    assert data["per_document"][0]["document"] == "LuoTestCase"


def test_invalid_report_fails_schema(schema):
    bad = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-1.response").to_json()
    bad["metrics"]["muc"]["recall"] = 1.5
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_csv_and_table():
    report = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-4.response", metrics="ceafm,conll",
                            per_document=True, lenient=True)
    rows = list(csv.DictReader(io.StringIO(report.to_csv())))
    assert [(r["document"], r["metric"]) for r in rows] == [
        ("*", "ceafm"), ("*", "conll"), ("LuoTestCase", "ceafm"), ("LuoTestCase", "conll")]
    assert rows[0]["precision_num"] == "4" and rows[0]["precision_den"] == "7"
    assert float(rows[0]["f1"]) == pytest.approx(8 / 13)
    table = report.to_table()
    assert "ceafm" in table and "61.54" in table and "document: LuoTestCase" in table


@pytest.mark.parametrize("key, response, options", [
    ("corpora/gum/dep/GUM_letter_arendt.conllu", "corpora/gum/dep/GUM_letter_arendt.conllu",
     {"metrics": "all,mor,zero,lmuc,lbcub,lceafm,lceafe,by_type"}),
    ("corpora/codi-crac22/AMI_dev_v2.2022.ES2004a.CONLLUA",
     "corpora/codi-crac22/AMI_dev_v2.2022.ES2004a.CONLLUA", {"explain": True}),
    ("corpora/lcc/116363.nkas.json", "corpora/lcc/116363.nkas.json",
     {"metrics": "dominant", "response_read_options": {"layer": "manualCoreferences@2"}}),
])
def test_every_metric_family_matches_the_schema(schema, key, response, options):
    from tests.conftest import SHARED

    report = corefkit.score(SHARED / key, SHARED / response, **options)
    data = json.loads(json.dumps(report.to_json()))
    jsonschema.validate(data, schema)
    assert set(data["metrics"]) <= set(schema["properties"]["metrics"]["properties"])


def test_printed_values_round_as_the_peer_of_the_semantics_prints_them():
    """R = 1, P = 27/37: F1 = 27/32 = 84.375 % exactly. The CorefUD, UA and coval scorers print
    '%.2f' of their own doubles — F1 = 2·p·r / (p + r) of the double p — which lands below the
    tie (84.37); the double nearest the exact F1 is the tie itself, which '%.2f' rounds half to
    even (84.38). Under those scorers' semantics the table prints what they print."""
    from corefkit.scoring.metrics.standard import Counts
    from corefkit.scoring.report import MetricResult, ScoreReport

    metrics = {"muc": MetricResult("muc", Counts(1, 1, 27, 37))}
    assert metrics["muc"].f1 * 100 == Fraction(84375, 1000)

    def f1_printed(semantics: str) -> str:
        table = ScoreReport("k", "r", {"semantics": semantics}, 1, metrics).to_table()
        row = next(line for line in table.splitlines() if line.startswith("muc"))
        return row.split()[3]

    for peer in ("corefud-scorer-1.2", "ua-scorer", "coval-87071a6"):
        assert f1_printed(peer) == "84.37"
    assert f1_printed("reference-scorer-8.01") == "84.38"
