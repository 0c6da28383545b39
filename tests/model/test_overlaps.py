"""Crossing and nesting found in O(n log n) (corefkit/model/overlaps.py) equal the pairwise
definitions on random documents, and report each mention once (issue 22: n nested or crossing
mentions were n²/2 pairs and as many findings)."""

from __future__ import annotations

import random

import pytest

from corefkit.model import Document
from corefkit.model.overlaps import Fenwick, crossings, nested_in_own_group


def _key(m):
    return (m.start, -m.end, m.id)


def _crosses(a, b, touching=True, extents=False) -> bool:
    if extents or (a.is_contiguous and b.is_contiguous):
        if touching:
            return a.start < b.start <= a.end < b.end or b.start < a.start <= b.end < a.end
        return a.start < b.start < a.end < b.end or b.start < a.start < b.end < a.end
    sa, sb = set(a.tokens), set(b.tokens)
    return bool(sa & sb) and not sa <= sb and not sb <= sa


def _random_document(rng: random.Random):
    doc = Document("d")
    doc.add_sentence([f"w{i}" for i in range(12)])
    entities = [doc.new_entity() for _ in range(3)]
    mentions = []
    for _ in range(rng.randint(1, 12)):
        a = rng.randint(0, 11)
        b = rng.randint(a, 11)
        tokens = [a, b] if rng.random() < 0.2 and b - a >= 2 else list(range(a, b + 1))
        mentions.append(doc.add_mention(tokens, rng.choice(entities)))
    return doc, mentions


@pytest.mark.parametrize("seed", range(8))
def test_crossings_equal_the_pairwise_definition(seed):
    rng = random.Random(seed)
    for _ in range(60):
        doc, mentions = _random_document(rng)
        for group in (None, doc.entity_of):
            for touching, extents in ((True, False), (False, True), (True, True)):
                def counts(a, b, touching=touching, extents=extents, group=group):
                    return a is not b and (group is None or group(a) != group(b)) and \
                        _crosses(a, b, touching, extents)
                expected = {max(a, b, key=_key) for a in mentions for b in mentions
                            if counts(a, b)}
                found = list(crossings(mentions, group, touching=touching, extents=extents))
                assert {c.mention for c in found} == expected
                assert len(found) == len(expected)  # each mention once
                for c in found:
                    assert counts(c.mention, c.other)
                    if extents or all(m.is_contiguous for m in mentions):
                        earlier = [a for a in mentions if a.start < c.mention.start
                                   and counts(a, c.mention)]
                        assert c.more == len(earlier) - 1


@pytest.mark.parametrize("seed", range(4))
def test_nested_in_own_group_equals_the_pairwise_definition(seed):
    rng = random.Random(100 + seed)
    for _ in range(80):
        doc, mentions = _random_document(rng)
        spans = [m for m in mentions if m.is_contiguous]
        expected = {b for a in spans for b in spans
                    if a is not b and doc.entity_of(a) is doc.entity_of(b)
                    and a.tokens != b.tokens and a.start <= b.start and a.end >= b.end
                    and _key(a) < _key(b)}
        found = [c.mention for c in nested_in_own_group(spans, doc.entity_of)]
        assert set(found) == expected and len(found) == len(expected)


def test_fenwick_counts_and_ranks():
    tree = Fenwick(10)
    for position in (3, 3, 7, 9):
        tree.add(position)
    assert [tree.prefix(p) for p in range(10)] == [0, 0, 0, 2, 2, 2, 2, 3, 3, 4]
    assert tree.between(4, 8) == 1 and tree.between(8, 4) == 0
    assert [tree.first_after(k) for k in range(5)] == [3, 3, 7, 9, 10]


def test_mentions_crossing_each_other_are_one_finding_each():
    n = 3000
    doc = Document("d")
    doc.add_sentence([f"w{i}" for i in range(2 * n)])
    entity = doc.new_entity()
    # mention i spans tokens i .. n + i: each crosses every earlier one
    mentions = [doc.add_mention(range(i, n + i), entity) for i in range(0, n, 10)]
    found = list(crossings(mentions))
    assert len(found) == len(mentions) - 1
    assert found[-1].more == len(mentions) - 2
