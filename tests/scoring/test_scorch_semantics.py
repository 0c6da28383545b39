"""``--semantics scorch``: the numbers of scorch's command line (scorch 0.2.0), reproduced.

scorch's library functions equal the reference scorer; its command line first adds every
response mention the key lacks to the key as a singleton and averages documents weighted by
their mention counts (DISAGREEMENTS.md item 4). The conformance suites hold the command line's
output for all 113 cases; a two-document pair recorded from the peer checks the averaging.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import corefkit
from corefkit.errors import UsageError
from tests.conftest import CONFORMANCE, peer_cases

SCORCH_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "scorch"


CASES = peer_cases("scorch(cli)")


def test_every_case_has_scorch_output():
    assert len(CASES) == 113


@pytest.mark.parametrize("case", CASES)
def test_scorch_semantics_equals_scorchs_command_line_on_the_conformance_suites(case):
    report = corefkit.score(CONFORMANCE / case["key"], CONFORMANCE / case["response"],
                            list(SCORCH_METRICS), format="conll2012", semantics="scorch",
                            lenient=True)
    expected = case["peer_output"]["scorch(cli)"]
    for metric in SCORCH_METRICS:  # scorch's doubles (its BLANC F averages two rounded F's)
        got = report.metrics[metric]
        assert [float(got.recall), float(got.precision), float(got.f1)] == pytest.approx(
            expected[metric]["rpf_float"], abs=1e-9), metric


def test_documents_are_averaged_by_their_mention_counts():
    """Two GUM documents with perturbed responses: scorch's corpus figures are weighted
    averages of the documents' (its F1 is not the harmonic mean of its R and P)."""
    expected = json.loads((FIXTURES / "expected.json").read_text())
    report = corefkit.score(FIXTURES / "two-docs.key.conll", FIXTURES / "two-docs.response.conll",
                            list(SCORCH_METRICS), format="conll2012", semantics="scorch",
                            lenient=True)
    for metric in SCORCH_METRICS:
        got = report.metrics[metric]
        assert [float(got.recall), float(got.precision), float(got.f1)] == pytest.approx(
            expected["values"][metric], abs=1e-12), metric
    muc = report.metrics["muc"]
    assert muc.f1 != 2 * muc.recall * muc.precision / (muc.recall + muc.precision)


def test_lea_and_singleton_removal_are_refused():
    case = CASES[0].values[0]
    args = (CONFORMANCE / case["key"], CONFORMANCE / case["response"])
    with pytest.raises(UsageError, match="lea is not defined for scorch"):
        corefkit.score(*args, ["lea"], format="conll2012", semantics="scorch")
    with pytest.raises(UsageError, match="cannot remove singletons"):
        corefkit.score(*args, ["muc"], format="conll2012", semantics="scorch",
                       remove_singletons=True)
