"""Zero mentions under the CorefUD scorer 1.2's semantics, on constructed pairs.

Each response of ``tests/fixtures/corefud/zeros`` (``make_fixtures.py`` writes them and records
the scorer's numbers in ``expected.json``) isolates one behaviour of the scorer:

* ``twin-other-deps``: a response zero on the key's empty node with other DEPS is paired as an
  identical mention once the dependency assignment has left both unpaired;
* ``tie-swapped`` / ``tie-three``: zeros with equal dependency scores — the assignment breaks
  the tie as SciPy's does on the scorer's matrix (rows and columns in mention order);
* ``repeated-antecedent``: an antecedent span repeated in a second entity (the zero metric
  finds it in the later entity);
* ``lookup-not-alignment``: the scorer's lookup table finds, for a key zero the assignment left
  unpaired, a response zero through another pair;
* ``swapped-nodes``, ``zero-before-first-word`` (an empty node 0.1 after a sentence ending in
  4.1), ``gap-in-empty-nodes`` (3.2 without 3.1, read with ``lenient``).

Every metric, every mode (3 matchings × singletons kept / removed × linear / dependent zeros):
integral counts exactly, the others (B³, CEAF, LEA sums of the scorer's floats) within 1e-9.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

import corefkit
from corefkit.errors import FormatError
from corefkit.scoring.semantics.corefud_align import (
    UDMention,
    assign_by_score,
    zero_dependency_score,
)
from tests.conftest import FIXTURES

ZEROS = FIXTURES / "corefud" / "zeros"
EXPECTED = json.loads((ZEROS / "expected.json").read_text())
MATCH = {"exact": "exact", "partial": "partial", "head": "head"}


def _report(case: dict[str, Any]) -> Any:
    options = case["options"]
    return corefkit.score(ZEROS / "key.conllu", ZEROS / case["response"],
                          match=MATCH[options[options.index("-a") + 1]],
                          zero_match=options[options.index("-z") + 1],
                          remove_singletons="-s" not in options,
                          # (the gap and a span in two entities are errors: read leniently)
                          lenient=case["response"].startswith(("gap", "repeated")), jobs=1)


@pytest.mark.parametrize("case", EXPECTED["cases"],
                         ids=lambda c: f"{c['response'].removesuffix('.conllu')}:{c['mode']}")
def test_zeros_score_as_the_corefud_scorer_scores_them(case: dict[str, Any]):
    report = _report(case)
    for metric, theirs in case["metrics"].items():
        got = report.metrics[metric]
        counts = theirs["counts"]
        if metric != "blanc" and all(float(c[k]).is_integer() for c in counts
                                     for k in ("p_num", "r_num")):
            c = counts[0]
            assert (got.counts.recall_num, got.counts.recall_den, got.counts.precision_num,
                    got.counts.precision_den) == (Fraction(c["r_num"]), Fraction(c["r_den"]),
                                                  Fraction(c["p_num"]), Fraction(c["p_den"])), \
                metric
        for mine, value in zip((got.recall, got.precision, got.f1), theirs["rpf"]):
            assert abs(float(mine) - value) <= 1e-9, metric


def test_the_constructed_cases_differ_where_they_should():
    """The fixture exercises what it claims: on the swapped nodes, dependent matching undoes
    the swap that linear matching scores as errors (B³ 100); on the lookup case, the lookups
    pair what the assignment left unpaired, so that dependent matching scores as linear; the
    twin with other DEPS scores as the key; the zero metric prefers the response zero on the
    same node over the one the assignment chose (swapped nodes: 60 in both modes)."""
    rpf = {(c["response"], c["mode"]): c["metrics"] for c in EXPECTED["cases"]}
    swapped = ("swapped-nodes.conllu", "head+linear"), ("swapped-nodes.conllu", "head+dependent")
    assert rpf[swapped[0]]["bcub"]["rpf"] != rpf[swapped[1]]["bcub"]["rpf"] == [1.0, 1.0, 1.0]
    assert rpf[swapped[0]]["zero"]["rpf"] == rpf[swapped[1]]["zero"]["rpf"] == [0.6, 0.6, 0.6]
    lookup = "lookup-not-alignment.conllu"
    assert rpf[(lookup, "head+linear")] == rpf[(lookup, "head+dependent")]
    assert rpf[("twin-other-deps.conllu", "head+dependent")]["bcub"]["rpf"] == [1.0, 1.0, 1.0]


def test_the_lookup_case_is_counted_on_the_lookups():
    """In ``lookup-not-alignment`` the dependency assignment pairs the key's 0.1 with the
    response's 3.1 and leaves the key's 3.1 unpaired, but the scorer's table looks it up as the
    response's 0.1: the lookups are not the alignment, and the metrics are counted on them."""
    from corefkit.scoring.semantics.corefud import CorefUDScoring

    semantics = CorefUDScoring.resolve(match="head", zero_match="dependent")
    key = semantics.reduce(next(corefkit.read(ZEROS / "key.conllu")))
    response = semantics.reduce(next(corefkit.read(ZEROS / "lookup-not-alignment.conllu")))
    found = semantics.align(key, response)
    assert found.lookups is not None and not found.lookups.consistent
    assert {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea"} <= set(found.extra)


def _zero(k: int, deps: tuple[tuple[int, str], ...]) -> UDMention:
    return UDMention(((1, k),), (1, k), True, tuple(((0, n, 0), r) for n, r in deps), 0)


def test_equal_dependency_scores_fall_as_scipy_breaks_the_tie():
    """Two key zeros and three response zeros, all with the same DEPS: every pairing scores
    the same, and the scorer keeps what SciPy's linear_sum_assignment returns on its matrix
    (rows and columns by position): the first key zero with the first response zero, the
    second with the second. Shuffling the input lists does not change that."""
    keys = [_zero(1, ((1, "nsubj"),)), _zero(2, ((1, "nsubj"),))]
    responses = [_zero(1, ((1, "nsubj"),)), _zero(2, ((1, "nsubj"),)), _zero(3, ((1, "nsubj"),))]
    assert zero_dependency_score(keys[0], responses[2]) == 11.0
    pairs = assign_by_score(keys, responses, zero_dependency_score)
    assert sorted((keys[a].head, responses[b].head) for a, b in pairs) == \
        [((1, 1), (1, 1)), ((1, 2), (1, 2))]
    shuffled = assign_by_score(keys[::-1], responses[::-1], zero_dependency_score)
    assert sorted((keys[::-1][a].head, responses[::-1][b].head) for a, b in shuffled) == \
        [((1, 1), (1, 1)), ((1, 2), (1, 2))]


def test_an_empty_node_gap_is_refused_with_how_to_renumber_it():
    """3.2 without 3.1: the UD validator (udtools 0.2.9, ``--level 1``) reports
    misplaced-empty-node, so corefkit refuses it and says how to renumber; ``lenient`` reads
    it as numbered, where the CorefUD scorer reads it."""
    with pytest.raises(FormatError) as caught:
        corefkit.score(ZEROS / "key.conllu", ZEROS / "gap-in-empty-nodes.conllu")
    assert caught.value.check == "corefud.misplaced-empty-node"
    assert "empty node 3.2 where 3.1 comes next" in caught.value.message
    assert "renumber it 3.1" in caught.value.message
    report = corefkit.score(ZEROS / "key.conllu", ZEROS / "gap-in-empty-nodes.conllu",
                            lenient=True, match="head", zero_match="dependent")
    assert any(w.check == "corefud.misplaced-empty-node" for w in report.warnings)
