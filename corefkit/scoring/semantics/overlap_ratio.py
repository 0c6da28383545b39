"""MOR, the mention overlap ratio of the CRAC 2022 shared-task findings, in O(n log n + pairs).

Key and response mentions are paired one to one so that the total number of shared nodes is
maximal; the CorefUD scorer fills a dense matrix over every group of mentions whose extents
chain together, which for n mentions on one token, or nested in each other, is n² cells
(issue 22). Here identical mentions are counted as classes, only the pairs that share nodes
are weighed, and a group with more overlapping pairs than a linear budget allows is refused.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from corefkit.errors import CorefkitError
from corefkit.scoring.assignment import DENSE_CELLS, linear_assignment, sparse_max_assignment
from corefkit.scoring.ceaf_alignment import OVERLAP_BUDGET
from corefkit.scoring.metrics.standard import Counts

if TYPE_CHECKING:
    from corefkit.scoring.semantics.corefud_model import Position, UDMention


def mention_overlap(keys: list[UDMention], responses: list[UDMention]) -> Counts:
    """MOR, the mention overlap ratio (CRAC 2022 shared-task findings).

    Key and response mentions are paired one to one so that the total number of shared nodes
    is maximal (whatever the matching method); recall = shared / Σ|K|, precision =
    shared / Σ|R|. The maximum splits over groups of mentions whose extents chain together,
    each solved exactly with the Hungarian algorithm on integer weights.
    """
    key_total = sum(len(m.words) for m in keys)
    response_total = sum(len(m.words) for m in responses)
    items = sorted([(m.order, 0, i) for i, m in enumerate(keys)]
                   + [(m.order, 1, j) for j, m in enumerate(responses)])
    shared = 0
    group: list[tuple[int, int]] = []
    reach: Position | None = None
    for order, side, n in items:
        first, last, _ = order
        if reach is not None and first > reach:
            shared += _group_overlap(group, keys, responses)
            group = []
            reach = None
        group.append((side, n))
        reach = last if reach is None or last > reach else reach
    shared += _group_overlap(group, keys, responses)
    return Counts(shared, key_total, shared, response_total)


def _group_overlap(group: list[tuple[int, int]], keys: list[UDMention],
                   responses: list[UDMention]) -> int:
    """The largest total of shared nodes of a one-to-one pairing of a group's mentions.

    Identical mentions are counted as classes: a star (one distinct mention on a side, as
    40,000 repeats on one token are) takes the best partners greedily. Otherwise only the pairs
    that share nodes are weighed, found by a sweep over extents (O(n log n + pairs)), and a
    group with more than :data:`OVERLAP_BUDGET` such pairs is refused with a clear error
    instead of filling a quadratic matrix; a weight is a difference of ranks where both
    mentions are runs of the group's nodes (contiguous), a set intersection otherwise.
    """
    ks = [keys[n] for side, n in group if side == 0]
    rs = [responses[n] for side, n in group if side == 1]
    if not ks or not rs:
        return 0
    key_kinds = Counter(k.words for k in ks)
    response_kinds = Counter(r.words for r in rs)
    if len(key_kinds) == 1 or len(response_kinds) == 1:
        return _star_overlap(key_kinds, response_kinds)
    if _overlapping_pairs(ks, rs) > OVERLAP_BUDGET:
        raise CorefkitError(
            f"MOR cannot pair {len(ks)} key and {len(rs)} response mentions that overlap each "
            f"other (more than {OVERLAP_BUDGET:,} overlapping pairs); score without mor "
            "(-m ...) or remove the nested or repeated mentions")
    rank = {w: i for i, w in enumerate(sorted({w for m in (*ks, *rs) for w in m.words}))}
    spans = [_rank_span(m, rank) for m in (*ks, *rs)]
    weights: dict[tuple[int, int], int] = {}
    for i, j in _overlap_pairs(spans[:len(ks)], spans[len(ks):]):
        (a, b, run_k), (c, d, run_r) = spans[i], spans[len(ks) + j]
        shared = min(b, d) - max(a, c) + 1 if run_k and run_r else \
            len(set(ks[i].words) & set(rs[j].words))
        if shared > 0:
            weights[(i, j)] = shared
    if not weights:
        return 0
    if len(ks) * len(rs) > DENSE_CELLS:
        cells = list(weights)
        chosen = sparse_max_assignment(len(ks), len(rs), [i for i, _ in cells],
                                       [j for _, j in cells], [weights[c] for c in cells])
        return sum(weights[c] for c in chosen)
    dense = [[0] * len(rs) for _ in ks]
    for (i, j), w in weights.items():
        dense[i][j] = w
    rows, cols = linear_assignment(dense, maximize=True)
    return sum(dense[r][c] for r, c in zip(rows, cols))


def _star_overlap(key_kinds: Counter, response_kinds: Counter) -> int:
    """One distinct mention on a side (repeated ``m`` times): its copies take the ``m`` best
    mentions of the other side."""
    (alone, copies), others = (next(iter(key_kinds.items())), response_kinds) \
        if len(key_kinds) == 1 else (next(iter(response_kinds.items())), key_kinds)
    nodes = set(alone)
    shared = sorted(((len(nodes.intersection(words)), count) for words, count in others.items()),
                    reverse=True)
    total = 0
    for weight, count in shared:
        taken = min(count, copies)
        total += weight * taken
        copies -= taken
        if not copies:
            break
    return total


def _rank_span(mention: UDMention, rank: dict[Position, int]) -> tuple[int, int, bool]:
    """First and last rank of a mention's nodes among the group's, and whether it holds every
    node of the group between them (a run: then overlaps are differences of ranks)."""
    first, last = rank[mention.words[0]], rank[mention.words[-1]]
    return first, last, last - first + 1 == len(mention.words)


def _overlapping_pairs(ks: list[UDMention], rs: list[UDMention]) -> int:
    """How many (key, response) pairs have overlapping extents, in O(n log n): for each key,
    the responses that start before it ends minus those that end before it starts."""
    starts = sorted(r.words[0] for r in rs)
    ends = sorted(r.words[-1] for r in rs)
    return sum(bisect.bisect_right(starts, k.words[-1]) - bisect.bisect_left(ends, k.words[0])
               for k in ks)


def _overlap_pairs(key_spans: list[tuple[int, int, bool]],
                   response_spans: list[tuple[int, int, bool]]) -> Iterator[tuple[int, int]]:
    """The (key, response) index pairs whose extents overlap, each once: a sweep over starts
    in which a starting mention meets every mention of the other side still open."""
    events = sorted([(a, 0, i) for i, (a, _, _) in enumerate(key_spans)]
                    + [(a, 1, j) for j, (a, _, _) in enumerate(response_spans)])
    open_keys: dict[int, int] = {}       # index -> last rank
    open_responses: dict[int, int] = {}
    for start, side, n in events:
        if side == 0:
            for j in [j for j, end in open_responses.items() if end < start]:
                del open_responses[j]
            for j in open_responses:
                yield n, j
            open_keys[n] = key_spans[n][1]
        else:
            for i in [i for i, end in open_keys.items() if end < start]:
                del open_keys[i]
            for i in open_keys:
                yield i, n
            open_responses[n] = response_spans[n][1]
