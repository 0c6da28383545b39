"""Every case of the CorefUD scorer 1.2 conformance suites, against the expected numbers.

``corefud-exact.json``, ``corefud-partial.json``, ``corefud-head.json`` and
``corefud-zeros.json`` hold the CorefUD test files with the values stated by the scorer's
unit tests or, where those state nothing, its output. Each case is scored through the public
API with the case's options (matching, singletons, zeros, zero matching); values are compared
as exact fractions where the suite says they are exact, else within 1e-4.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

import corefkit
from tests.conftest import CONFORMANCE

SUITES = {"corefud-exact.json": 35, "corefud-partial.json": 36, "corefud-head.json": 5,
          "corefud-zeros.json": 35}
MATCH = {"exact": "exact", "partial-corefud": "partial", "head": "head"}


def _cases():
    for suite in SUITES:
        data = json.loads((CONFORMANCE / suite).read_text())
        for case in data["cases"]:
            yield pytest.param(case, id=f"{suite.removesuffix('.json')}:{case['id']}")


CASES = list(_cases())


def test_suites_are_complete():
    for suite, n in SUITES.items():
        assert len([c for c in CASES if c.id.startswith(suite.removesuffix(".json") + ":")]) == n


def score_case(case: dict) -> corefkit.scoring.report.ScoreReport:
    options = case["options"]
    assert options["format"] == "corefud"
    # lenient: the CorefUD scorer's test files have no syntax (UPOS, HEAD and DEPREL '_', which
    # the UD validator refuses) and some repeat mentions on purpose
    return corefkit.score(
        CONFORMANCE / case["key"], CONFORMANCE / case["response"], lenient=True,
        match=MATCH[options["match"]],
        remove_singletons=not options["keep_singletons"],
        keep_zeros=options["keep_zeros"],
        zero_match=options["zero_match_method"],
    )


@pytest.mark.parametrize("case", CASES)
def test_expected_values(case):
    report = score_case(case)
    assert report.options["semantics"] == "corefud-scorer-1.2"
    checked = 0
    for metric, components in case["expected"].items():
        for component, value in components.items():
            got = getattr(report.metrics[metric], component)
            if value["exact"]:
                assert got == Fraction(value["value"]), (metric, component, value, got)
            else:
                assert abs(float(got) - float(value["value"])) < 1e-4, (metric, component, value)
            checked += 1
    assert checked >= 3 * 7 + 1  # muc bcub ceafm ceafe blanc lea mor (+ zero) and conll


def test_corefud_json_report_has_mor_and_zero():
    case = next(c.values[0] for c in CASES if c.values[0]["id"] == "003-TC-A-12")
    data = score_case(case).to_json()
    assert data["metrics"]["mor"]["exact"]["recall"] == "9/13"
    assert data["metrics"]["mor"]["exact"]["precision"] == "9/10"
    assert {"mor", "zero", "muc", "blanc", "conll"} <= set(data["metrics"])
    assert data["options"]["match"] == "exact" and data["options"]["zero_match"] == "linear"
