"""Every value of the peers' real-data suites (``conformance/real/``), reproduced.

Real documents of ``corpora/`` with perturbed system responses, scored by the peers:

* ``real-ua.json``: the UA scorer 1.x on CODI-CRAC 2022 (AMI, Persuasion, LIGHT) in its seven
  modes — 1305 values, split antecedents, non-referring markables and bridging included;
* ``real-corefud.json``: the CorefUD scorer 1.2 on 46 GUM documents, 3 matchings × singletons
  kept/removed × zero matching — 900 values;
* ``real-corefud-zeros.json``: the CorefUD scorer 1.2 on 119 documents with 3,425 zero mentions
  (Hungarian, Latin, Old Spanish; ``corpora/corefud-zeros``) and responses whose zeros are
  moved, renumbered, re-attached, added and dropped, in the same 12 modes — 2,700 values;
* ``real-reference.json``: the reference scorer v8.01 and its LEA branch on OntoGUM and
  LitBank — 132 values.

Comparison, as the suites record their values: an exact fraction where the peer's counts are
integral (``exact``); within 1e-9 for the other full-precision values (the peers' floats);
``15sig`` values (the reference scorer prints numerators with 15 significant digits) within
1e-9 as well.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

import corefkit
from corefkit.model import Document
from corefkit.scoring import printing
from tests.conftest import CONFORMANCE

REAL = CONFORMANCE / "real"
SUITES = {"real-ua.json": 1305, "real-corefud.json": 900, "real-corefud-zeros.json": 2700,
          "real-reference.json": 132}
COREFUD_SUITES = ("real-corefud.json", "real-corefud-zeros.json")
UA_BRIDGING = {"bridging_anaphora_recognition": "recognition",
               "bridging_full_markable": "mention", "bridging_full_entity": "entity"}
COREFUD_MATCH = {"exact": "exact", "partial-corefud": "partial", "head": "head"}


@cache
def _suite(name: str) -> dict[str, Any]:
    return json.loads((REAL / name).read_text())


def _cases():
    for name in SUITES:
        for case in _suite(name)["cases"]:
            yield pytest.param(name, case, id=f"{name.removesuffix('.json')}:{case['id']}")


# lenient throughout: the perturbed responses repeat spans in two entities, and the CorefUD
# files of corefud-zeros break UD conventions (# text that the forms do not spell); the peers
# score them as they stand, and so does corefkit with lenient


def _ua_report(case: dict[str, Any]) -> corefkit.scoring.report.ScoreReport:
    o = case["options"]
    metrics = ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "conll"]
    metrics += ["non_referring"] * o["keep_non_referring"] + ["bridging"] * o["keep_bridging"]
    return corefkit.score(REAL / case["key"], REAL / case["response"], metrics, semantics="ua",
                          remove_singletons=not o["keep_singletons"],
                          remove_split_antecedents=not o["keep_split_antecedents"],
                          only_split_antecedents=o["only_split_antecedent"],
                          discourse_deixis=o["evaluate_discourse_deixis"], lenient=True)


@cache
def _documents(path: str) -> tuple[Document, ...]:
    """A file's documents, read once for the twelve modes that score it."""
    return tuple(corefkit.read(REAL / path))


def _corefud_report(case: dict[str, Any]) -> corefkit.scoring.report.ScoreReport:
    o = case["options"]
    return corefkit.score(list(_documents(case["key"])), list(_documents(case["response"])),
                          match=COREFUD_MATCH[o["match"]], remove_singletons=not o["keep_singletons"],
                          keep_zeros=o["keep_zeros"], zero_match=o["zero_match_method"],
                          lenient=True, jobs=1)


@cache
def _reference_report(key: str, response: str) -> corefkit.scoring.report.ScoreReport:
    return corefkit.score(REAL / key, REAL / response, "all", lenient=True)


def _value(report: Any, metric: str, component: str) -> Fraction:
    if metric in UA_BRIDGING:
        return getattr(getattr(report.metrics["bridging"].counts, UA_BRIDGING[metric]), component)
    if metric == "mentions":
        return getattr(report.identification, component)
    return getattr(report.metrics[metric], component)


def test_suites_are_complete():
    for name, values in SUITES.items():
        count = sum(len(components) for case in _suite(name)["cases"]
                    for components in case["expected"].values())
        assert count == values, name


@pytest.mark.parametrize("suite, case", list(_cases()))
def test_real_values(suite: str, case: dict[str, Any]):
    if suite == "real-ua.json":
        report = _ua_report(case)
    elif suite in COREFUD_SUITES:
        report = _corefud_report(case)
    else:
        report = _reference_report(case["key"], case["response"])
    for metric, components in case["expected"].items():
        for component, expected in components.items():
            got = _value(report, metric, component)
            if expected["exact"]:
                assert got == Fraction(expected["value"]), (metric, component)
            else:
                assert abs(float(got) - float(expected["value"])) <= 1e-9, (metric, component)
            if suite in COREFUD_SUITES and metric != "conll":
                # printed as the scorer prints it ('%.2f' of its doubles)
                doubles = printing.metric_doubles(report.metrics[metric].counts)
                assert doubles is not None
                at = ("recall", "precision", "f1").index(component)
                assert printing.percent(doubles[at]) == expected["printed"], (metric, component)
