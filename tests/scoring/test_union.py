"""The union of in-memory documents (``corefkit.scoring.union``): the counts the scorer takes
by its fast route (one dictionary per document, flat arrays, NumPy for large unions) are
exactly those of the per-document route (each document aligned and scored by the engine,
as ``corefkit score`` does), on real documents and on generated ones with every kind of
repeat, empty cluster and singleton."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefkit
from corefkit.scoring import union
from tests.conftest import CORPORA
from tests.scoring.test_clusters import as_clusters, assert_same, perturb

ALL = ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"]


def per_document(key, response, **options):
    """The reference: every document through the engine's DocumentScorer, one by one."""
    scorer = corefkit.Scorer(ALL, **options)
    scorer._union = False
    for k, r in zip(key, response):
        scorer.update(k, r)
    return scorer.compute()


def by_union(key, response, monkeypatch, numpy_from, **options):
    monkeypatch.setattr(union, "NUMPY_MENTIONS", numpy_from)
    scorer = corefkit.Scorer(ALL, **options)
    for k, r in zip(key, response):
        scorer.update(k, r)
    return scorer.compute()


def real_pairs(folder, seed):
    keys = list(corefkit.read(folder))
    rng = random.Random(seed)
    return [as_clusters(d) for d in keys], [as_clusters(perturb(d, rng)) for d in keys]


@pytest.mark.parametrize("corpus", ["gum/coref-ontogum-conll", "litbank"])
@pytest.mark.parametrize("numpy_from", [1, 10**9])
def test_real_documents(corpus, numpy_from, monkeypatch):
    key, response = real_pairs(CORPORA / corpus, 27)
    expected = per_document(key, response)
    assert expected.repeated_response_mentions > 0  # both the fast and the aligned routes
    assert_same(by_union(key, response, monkeypatch, numpy_from), expected)
    assert_same(by_union(key, response, monkeypatch, numpy_from, remove_singletons=True),
                per_document(key, response, remove_singletons=True))


def test_equals_corefkit_score_on_files(monkeypatch):
    """The union's NumPy route against ``corefkit score`` on the same documents."""
    keys = list(corefkit.read(CORPORA / "litbank"))
    rng = random.Random(5)
    responses = [perturb(d, rng) for d in keys]
    expected = corefkit.score(keys, responses, ALL)
    assert_same(by_union([as_clusters(d) for d in keys], [as_clusters(d) for d in responses],
                         monkeypatch, 1), expected)


mention = st.integers(0, 12)
document = st.lists(st.lists(mention, max_size=6), max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(document, document), min_size=1, max_size=5), st.booleans(),
       st.booleans())
def test_generated_documents(pairs, numpy_route, singletons):
    """Repeats within and across entities on both sides, empty clusters, empty documents."""
    key = [k for k, _ in pairs]
    response = [r for _, r in pairs]
    expected = per_document(key, response, remove_singletons=singletons)
    with pytest.MonkeyPatch.context() as patch:
        got = by_union(key, response, patch, 1 if numpy_route else 10**9,
                       remove_singletons=singletons)
    assert_same(got, expected)


@pytest.mark.parametrize("top", [10, 2**40])
def test_grouped_sums_exact_beyond_floats(top):
    """Numerators too large for float64 sums fall back to Python integers, exactly."""
    rng = np.random.default_rng(top)
    nums = rng.integers(0, top, 500, dtype=np.int64)
    dens = rng.integers(1, 40, 500, dtype=np.int64)
    expected = sum((Fraction(int(n), int(d)) for n, d in zip(nums, dens)), Fraction(0))
    assert union._Arrays._grouped(nums, dens) == expected
