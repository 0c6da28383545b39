"""Metric functions against direct, pair-enumerating implementations on random partitions.

The library computes every metric from the contingency table; the reference versions below
follow the papers' definitions literally (mention by mention, pair by pair, all one-to-one
alignments), so agreement on thousands of random cases checks the algebra.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from corefkit.scoring.metrics import standard as metrics
from corefkit.scoring.metrics.standard import BlancCounts, Counts
from corefkit.scoring.partition import Partition, contingency


# ------------------------------------------------------------------ direct definitions
def direct_muc(key, resp):
    def side(a, b):
        num = den = 0
        located = {m: i for i, c in enumerate(b) for m in c}
        for cluster in a:
            parts = {located.get(m, ("missing", m)) for m in cluster}
            num += len(cluster) - len(parts)
            den += len(cluster) - 1
        return num, den
    rn, rd = side(key, resp)
    pn, pd = side(resp, key)
    return Counts(rn, rd, pn, pd)


def direct_bcub(key, resp):
    kof = {m: set(c) for c in key for m in c}
    rof = {m: set(c) for c in resp for m in c}
    rn = sum(Fraction(len(kof[m] & rof.get(m, set())), len(kof[m])) for m in kof)
    pn = sum(Fraction(len(rof[m] & kof.get(m, set())), len(rof[m])) for m in rof)
    return Counts(rn, len(kof), pn, len(rof))


def direct_ceaf(key, resp, entity_based):
    def phi(k, r):
        common = len(set(k) & set(r))
        return Fraction(2 * common, len(k) + len(r)) if entity_based else Fraction(common)
    best = Fraction(0)
    small, large, flip = (key, resp, False) if len(key) <= len(resp) else (resp, key, True)
    for perm in itertools.permutations(range(len(large)), len(small)):
        total = sum((phi(large[j], small[i]) if flip else phi(small[i], large[j]))
                    for i, j in enumerate(perm))
        best = max(best, total)
    if entity_based:
        return Counts(best, len(key), best, len(resp))
    return Counts(best, sum(map(len, key)), best, sum(map(len, resp)))


def direct_blanc(key, resp):
    def links(clusters):
        coref = {frozenset(p) for c in clusters for p in itertools.combinations(c, 2)}
        mentions = [m for c in clusters for m in c]
        everything = {frozenset(p) for p in itertools.combinations(mentions, 2)}
        return coref, everything - coref
    kc, kn = links(key)
    rc, rn = links(resp)
    return BlancCounts(Counts(len(kc & rc), len(kc), len(kc & rc), len(rc)),
                       Counts(len(kn & rn), len(kn), len(kn & rn), len(rn)))


def direct_lea(key, resp):
    def side(a, b):
        located = {m: i for i, c in enumerate(b) for m in c}
        sizes = [len(c) for c in b]
        num = Fraction(0)
        for cluster in a:
            if len(cluster) == 1:
                m = cluster[0]
                resolved = 1 if m in located and sizes[located[m]] == 1 else 0
                num += resolved
                continue
            correct = sum(1 for x, y in itertools.combinations(cluster, 2)
                          if x in located and y in located and located[x] == located[y])
            num += len(cluster) * Fraction(correct, len(cluster) * (len(cluster) - 1) // 2)
        return num, sum(map(len, a))
    rn, rd = side(key, resp)
    pn, pd = side(resp, key)
    return Counts(rn, rd, pn, pd)


# ------------------------------------------------------------------ random partitions
@st.composite
def partitions(draw, max_mentions=9):
    """A key and a response over mention ids 0..n-1, each a partition of a random subset."""
    n = draw(st.integers(1, max_mentions))

    def side():
        present = [m for m in range(n) if draw(st.booleans()) or draw(st.booleans())]
        labels = {m: draw(st.integers(0, 3)) for m in present}
        clusters = {}
        for m in present:
            clusters.setdefault(labels[m], []).append(m)
        return list(clusters.values())

    return side(), side()


def check(name, direct, key, resp):
    got = getattr(metrics, name)(Partition.from_clusters(key), Partition.from_clusters(resp))
    want = direct(key, resp)
    assert got == want, (name, key, resp, got, want)
    assert got.recall == want.recall and got.f1 == want.f1


@settings(max_examples=400, deadline=None)
@given(partitions())
def test_metrics_equal_their_definitions(pair):
    key, resp = pair
    check("muc", direct_muc, key, resp)
    check("bcub", direct_bcub, key, resp)
    check("ceafm", lambda k, r: direct_ceaf(k, r, False), key, resp)
    check("ceafe", lambda k, r: direct_ceaf(k, r, True), key, resp)
    check("blanc", direct_blanc, key, resp)
    check("lea", direct_lea, key, resp)


@settings(max_examples=200, deadline=None)
@given(partitions(max_mentions=12))
def test_perfect_response_scores_one(pair):
    key, _ = pair
    k = Partition.from_clusters(key)
    r = Partition.from_clusters([list(c) for c in key])
    for name in ("mentions", "bcub", "ceafm", "ceafe", "lea"):
        if sum(map(len, key)):
            assert getattr(metrics, name)(k, r).f1 == 1, name
    if any(len(c) > 1 for c in key):
        assert metrics.muc(k, r).f1 == 1
        assert metrics.blanc(k, r).f1 == 1


@settings(max_examples=200, deadline=None)
@given(partitions(), partitions())
def test_counts_are_additive(first, second):
    """Corpus counts are sums of document counts: scoring two documents = adding them.

    (Not BLANC: merging two documents into one would create non-coreference links between
    them, which per-document scoring rightly never counts.)
    """
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
        fn = getattr(metrics, name)
        a = fn(Partition.from_clusters(first[0]), Partition.from_clusters(first[1]))
        b = fn(Partition.from_clusters(second[0]), Partition.from_clusters(second[1]))
        shift = 100
        joint_key = first[0] + [[m + shift for m in c] for c in second[0]]
        joint_resp = first[1] + [[m + shift for m in c] for c in second[1]]
        joint = fn(Partition.from_clusters(joint_key), Partition.from_clusters(joint_resp))
        assert a + b == joint, name


@settings(max_examples=200, deadline=None)
@given(partitions())
def test_recall_and_precision_swap_with_the_sides(pair):
    key, resp = pair
    for name in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
        fn = getattr(metrics, name)
        ab = fn(Partition.from_clusters(key), Partition.from_clusters(resp))
        ba = fn(Partition.from_clusters(resp), Partition.from_clusters(key))
        assert (ab.recall_num, ab.recall_den) == (ba.precision_num, ba.precision_den), name


def test_muc_is_zero_without_key_links():
    k = Partition.from_clusters([[0], [1]])
    r = Partition.from_clusters([[0, 1]])
    c = metrics.muc(k, r)
    assert (c.recall_num, c.recall_den, c.recall, c.f1) == (0, 0, 0, 0)


def test_blanc_edge_rules():
    # the key has no coreference links: only the non-coreference part counts (reference)
    only_noncoref = metrics.blanc(Partition.from_clusters([[0], [1], [2]]),
                                  Partition.from_clusters([[0, 1], [2]]))
    assert only_noncoref.recall == Fraction(2, 3) and only_noncoref.precision == 1
    # the key has no non-coreference links: only the coreference part counts
    only_coref = metrics.blanc(Partition.from_clusters([[0, 1, 2]]),
                               Partition.from_clusters([[0, 1], [2]]))
    assert only_coref.recall == Fraction(1, 3) and only_coref.precision == 1
    # no links at all (one mention): 0
    assert metrics.blanc(Partition.from_clusters([[0]]), Partition.from_clusters([[0]])).f1 == 0


def test_ceaf_uses_the_optimal_alignment_across_components():
    key = [[0, 1, 2], [3, 4], [5], [6, 7, 8, 9]]
    resp = [[0, 1], [2, 3, 4], [5, 6], [7, 8, 9, 10]]
    for entity_based in (False, True):
        fn = metrics.ceafe if entity_based else metrics.ceafm
        assert fn(Partition.from_clusters(key), Partition.from_clusters(resp)) == \
            direct_ceaf(key, resp, entity_based)


def test_contingency_table():
    k = Partition.from_clusters([[0, 1, 2], [3]])
    r = Partition.from_clusters([[1, 2, 3], [4]])
    t = contingency(k, r)
    assert sorted(zip(t.pair_key, t.pair_response, t.pair_common)) == \
        [(0, 0, 2), (1, 0, 1)]
    assert t.key_sizes == [3, 1] and t.response_sizes == [3, 1]
    assert t.key_common == [2, 1] and t.response_common == [3, 0]


def test_partition_without_singletons_and_clusters():
    p = Partition.from_clusters([[3], [0, 1], [2], [4, 5, 6]])
    assert p.without_singletons().clusters() == [[0, 1], [4, 5, 6]]


@st.composite
def chains_with_repeats(draw):
    """Response chains over ids 0..n-1 where an id may sit in several chains (twice in one
    as well): the chains the reference scorer builds when a response repeats an extent."""
    n = draw(st.integers(1, 8))
    chains = [draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=5))
              for _ in range(draw(st.integers(1, 5)))]
    return chains


@settings(max_examples=400, deadline=None)
@given(chains_with_repeats())
def test_distinct_links_equal_the_reference_link_sets(chains):
    """BLANC's response links as the reference scorer's hash sets of id pairs (BLANC_Internal:
    all pairs within a chain; all pairs across two chains, (u, u) included), counted by
    metrics._distinct_links over a partition whose repeats are extra mentions."""
    coref = {tuple(sorted((c[i], c[j]))) for c in chains
             for i in range(len(c)) for j in range(i + 1, len(c))}
    noncoref = {tuple(sorted((u, v))) for a in range(len(chains)) for b in range(a + 1, len(chains))
                for u in chains[a] for v in chains[b]}
    clusters, duplicates, first = [], {}, {}
    for chain in chains:
        members = []
        for u in chain:
            if u in first:
                index = 100 + len(duplicates)
                duplicates[index] = first[u]
            else:
                index = first[u] = u
            members.append(index)
        clusters.append(members)
    got = metrics._distinct_links(Partition.from_clusters(clusters), duplicates)
    assert got == (len(coref), len(noncoref))


# ------------------------------------------------------------------ exact helpers
def test_sum_fractions_equals_adding_one_by_one():
    import random
    from fractions import Fraction

    from corefkit.scoring.metrics.standard import sum_fractions

    rng = random.Random(5)
    for _ in range(300):
        sums = {rng.randint(1, 400): rng.randint(-50, 10**6) for _ in range(rng.randint(0, 30))}
        assert sum_fractions(sums) == sum((Fraction(n, d) for d, n in sums.items()), Fraction(0))


def test_components_equal_the_connected_components_of_networkx():
    import random

    import networkx as nx

    from corefkit.scoring.partition import Contingency

    rng = random.Random(11)
    for _ in range(300):
        n_key, n_response = rng.randint(1, 30), rng.randint(1, 30)
        cells = sorted({(rng.randrange(n_key), rng.randrange(n_response))
                        for _ in range(rng.randint(1, 60))})
        table = Contingency([1] * n_key, [1] * n_response, [k for k, _ in cells],
                            [r for _, r in cells], [1] * len(cells))
        graph = nx.Graph()
        graph.add_edges_from((("k", k), ("r", r)) for k, r in cells)
        expected = sorted(sorted(i for i, (k, _) in enumerate(cells) if ("k", k) in part)
                          for part in nx.connected_components(graph))
        groups = table.components
        assert sorted(groups) == expected
        assert [g[0] for g in groups] == sorted(g[0] for g in groups)  # by first pair
