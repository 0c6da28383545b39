"""The scoring paths that were quadratic in mentions sharing a span (issue 22) give the numbers
of the direct computation they replace, on random inputs, and refuse with a clear error where
no exact computation fits in linear space."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import permutations

import pytest

from corefkit.errors import CorefkitError
from corefkit.scoring.assignment import sparse_max_assignment
from corefkit.scoring.metrics import split
from corefkit.scoring.semantics import corefud as cu
from corefkit.scoring.semantics import overlap_ratio


def _best(weights: dict[tuple[int, int], Fraction], rows: int, cols: int) -> Fraction:
    """The best one-to-one total by brute force (small sizes)."""
    best = Fraction(0)
    if rows <= cols:
        for chosen in permutations(range(cols), rows):
            best = max(best, sum((weights.get((r, c), Fraction(0))
                                  for r, c in enumerate(chosen)), Fraction(0)))
    else:
        for chosen in permutations(range(rows), cols):
            best = max(best, sum((weights.get((r, c), Fraction(0))
                                  for c, r in enumerate(chosen)), Fraction(0)))
    return best


@pytest.mark.parametrize("seed", range(6))
def test_sparse_assignment_is_optimal(seed):
    rng = random.Random(seed)
    for _ in range(40):
        rows, cols = rng.randint(1, 5), rng.randint(1, 5)
        edges = {(rng.randrange(rows), rng.randrange(cols)): rng.randint(1, 9)
                 for _ in range(rng.randint(1, 10))}
        cells = list(edges)
        chosen = sparse_max_assignment(rows, cols, [r for r, _ in cells], [c for _, c in cells],
                                       [edges[x] for x in cells])
        assert len({r for r, _ in chosen}) == len(chosen) == len({c for _, c in chosen})
        assert sum(edges[x] for x in chosen) == _best(
            {k: Fraction(v) for k, v in edges.items()}, rows, cols)


def _clusters(rng: random.Random, items: list[split.Markable]) -> split.Clusters:
    return [[rng.choice(items) for _ in range(rng.randint(1, 3))] for _ in range(rng.randint(1, 5))]


@pytest.mark.parametrize("entity_based", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_ceaf_over_classes_equals_the_assignment_of_every_cluster(seed, entity_based):
    """Identical clusters aligned as classes give the optimum of aligning them one by one."""
    rng = random.Random(seed)
    for _ in range(25):
        items = [split.Markable((i, i), (i, i)) for i in range(rng.randint(1, 4))]
        key, response = _clusters(rng, items), _clusters(rng, items)
        got = split._ceaf(key, response, {}, entity_based)

        def phi(i: int, j: int) -> Fraction:
            common = Fraction(sum(1 for item in key[i] if item in response[j]))
            return 2 * common / (len(key[i]) + len(response[j])) if entity_based else common

        weights = {(i, j): phi(i, j) for i in range(len(key)) for j in range(len(response))}
        assert got == _best(weights, len(key), len(response))


def test_forty_thousand_repeats_of_one_span_are_one_class():
    """Before: 40,000 one-mention entities on one token compared 40,000² pairs."""
    item = split.Markable((0, 0), (0, 0))
    key = [[item] for _ in range(40_000)]
    response = [[item, item] for _ in range(20_000)]
    assert split._ceaf(key, response, {}, False) == 20_000
    assert split._ceaf(key, response, {}, True) == Fraction(2 * 20_000, 3)


def test_distinct_clusters_sharing_a_mention_past_the_budget_are_refused(monkeypatch):
    monkeypatch.setattr(split, "OVERLAP_BUDGET", 1000)
    shared = split.Markable((0, 0), (0, 0))
    key = [[shared, split.Markable((i + 1, i + 1), (i + 1, i + 1))] for i in range(100)]
    response = [[shared, split.Markable((-i - 1, -i - 1), (-i - 1, -i - 1))]
                for i in range(100)]
    with pytest.raises(CorefkitError, match="merge the repeats first"):
        split._ceaf(key, response, {}, True)


def _mention(words: list[int]) -> cu.UDMention:
    return cu.UDMention(tuple((w, 0) for w in words), (words[0], 0), False)


@pytest.mark.parametrize("seed", range(5))
def test_mor_of_a_group_equals_the_dense_assignment(seed):
    rng = random.Random(seed)
    for _ in range(60):
        sides = []
        for _side in range(2):
            mentions: list[cu.UDMention] = []
            for _ in range(rng.randint(1, 5)):
                if mentions and rng.random() < 0.3:
                    mentions.append(mentions[-1])  # a repeat
                    continue
                a = rng.randint(0, 9)
                b = rng.randint(a, 9)
                words = [a, b] if b - a > 1 and rng.random() < 0.25 else list(range(a, b + 1))
                mentions.append(_mention(words))
            sides.append(mentions)
        keys, responses = sides
        group = [(0, i) for i in range(len(keys))] + [(1, j) for j in range(len(responses))]
        weights = {(i, j): Fraction(len(set(k.words) & set(r.words)))
                   for i, k in enumerate(keys) for j, r in enumerate(responses)}
        assert overlap_ratio._group_overlap(group, keys, responses) == _best(weights, len(keys),
                                                                  len(responses))


def test_mor_of_repeats_on_one_token_is_linear():
    keys = [_mention([0])] * 40_000
    responses = [_mention([0])] * 20_000
    group = [(0, i) for i in range(len(keys))] + [(1, j) for j in range(len(responses))]
    assert overlap_ratio._group_overlap(group, keys, responses) == 20_000


def test_mor_past_the_budget_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(overlap_ratio, "OVERLAP_BUDGET", 100)
    keys = [_mention(list(range(0, 40 - i))) for i in range(20)]
    responses = [_mention(list(range(i, 40))) for i in range(20)]
    group = [(0, i) for i in range(20)] + [(1, j) for j in range(20)]
    with pytest.raises(CorefkitError, match="MOR cannot pair 20 key and 20 response"):
        overlap_ratio._group_overlap(group, keys, responses)


@pytest.mark.parametrize("seed", range(4))
def test_coval_lea_links_are_counted_not_enumerated(seed):
    """coval's LEA walked every pair of an entity's mentions (one entity of n mentions: n²/2);
    the links found in one other entity are now counted."""
    from corefkit.scoring.semantics import coval

    rng = random.Random(seed)
    for _ in range(50):
        items = list(range(rng.randint(1, 6)))
        clusters = [[rng.choice(items) for _ in range(rng.randint(1, 5))]
                    for _ in range(rng.randint(1, 4))]
        others = [[rng.choice(items) for _ in range(rng.randint(1, 4))]
                  for _ in range(rng.randint(1, 4))]
        other = {m: j for j, c in enumerate(others) for m in c}
        found, total = coval._lea(clusters, others, other)
        expected = Fraction(0)
        for c in clusters:
            n = len(c)
            if n == 1:
                expected += c[0] in other and len(others[other[c[0]]]) == 1
                continue
            links = sum(1 for i, m in enumerate(c) if m in other for m2 in c[i + 1:]
                        if m2 in other and other[m] == other[m2])
            expected += Fraction(n * links, n * (n - 1) // 2)
        assert found == expected and total == sum(map(len, clusters))
