"""Mentions that cross or nest, found in O(n log n) and reported once per mention.

The checks for crossing mentions (``mention.crossing-same-entity``, CorefUD's
``ill-nested-entities``, LCC's ``overlapping``) once walked every pair of overlapping mentions:
n mentions nested in each other, or each crossing n/2 others, made n²/2 pairs and as many
findings. Here each mention that crosses an earlier-starting one is reported once, with one
such mention and the number of the others, by a sweep over starts with a Fenwick tree
(binary indexed tree; Fenwick 1994) of the ends seen so far:

* ``a`` (start ``s_a``, end ``e_a``) is crossed by a later ``b`` when ``s_a < s_b <= e_a <
  e_b``: among the mentions that start before ``b``, those whose end lies in ``[s_b, e_b -
  1]``; the tree counts them in O(log n), and finds the first such end in O(log n);
* "of another entity" counts them minus those of ``b``'s own entity (one tree per entity,
  over that entity's ends only, so all trees together hold n positions).

Discontinuous mentions (token sets with gaps) cross when they share a token and neither holds
the other: they are compared with the mentions that share their tokens, at most
:data:`DISCONTINUOUS_CANDIDATES` candidates each (a gap-aware sweep is not worth it for the
few discontinuous mentions corpora have; an adversarial file gets bounded work and possibly
one report fewer, never a quadratic run).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass

from corefkit.model.anaphora import Mention

DISCONTINUOUS_CANDIDATES = 256


class Fenwick:
    """Counts at positions ``0 .. size - 1``: add one, count a prefix, find a rank."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.tree = [0] * (size + 1)
        self.top = 1 << max(0, size.bit_length() - 1) if size else 0

    def add(self, position: int) -> None:
        i = position + 1
        while i <= self.size:
            self.tree[i] += 1
            i += i & -i

    def prefix(self, position: int) -> int:
        """How many were added at positions ``<= position``."""
        i, total = min(position, self.size - 1) + 1, 0
        while i > 0:
            total += self.tree[i]
            i -= i & -i
        return total

    def between(self, low: int, high: int) -> int:
        return 0 if high < low else self.prefix(high) - self.prefix(low - 1)

    def first_after(self, count: int) -> int:
        """The smallest position whose prefix count exceeds ``count`` (``size`` if none)."""
        position, step = 0, self.top
        while step:
            nxt = position + step
            if nxt <= self.size and self.tree[nxt] <= count:
                position = nxt
                count -= self.tree[nxt]
            step >>= 1
        return position


@dataclass(frozen=True)
class Crossing:
    """``mention`` crosses ``other`` (which starts before it) and ``more`` mentions besides."""

    mention: Mention
    other: Mention
    more: int


Group = Callable[[Mention], Hashable]


def more(count: int) -> str:
    """`` (and 3 more)`` after the one mention a message names, or nothing."""
    return f" (and {count} more)" if count > 0 else ""


def crossings(mentions: Iterable[Mention], group: Group | None = None, *,
              touching: bool = True, extents: bool = False) -> Iterator[Crossing]:
    """Each mention crossing an earlier-starting one, once, in start order.

    With ``group`` (a mention's entity, say), only mentions of another group count.
    ``touching=False``: mentions that share only their boundary token (``X)|(X`` in a bracket
    format) do not cross. ``extents``: a discontinuous mention counts as its extent.
    """
    contiguous: list[Mention] = []
    gapped: list[Mention] = []
    for mention in mentions:
        if mention.tokens:
            (contiguous if extents or mention.is_contiguous else gapped).append(mention)
    found = dict(_contiguous_crossings(contiguous, group, 0 if touching else 1))
    for mention, other, more in _gapped_crossings(contiguous, gapped, group):
        found.setdefault(mention, (other, more))
    order = sorted(found, key=lambda m: (m.start, -m.end, m.id))
    for mention in order:
        other, more = found[mention]
        yield Crossing(mention, other, more)


class _Ends:
    """The ends of the mentions seen so far, over a fixed set of end positions."""

    def __init__(self, ends: list[int]) -> None:
        self.positions = sorted(set(ends))
        self.tree = Fenwick(len(self.positions))
        # per end position: the first mention of each of two groups ending there (enough to
        # name one of another group than any given mention's)
        self.examples: dict[int, list[Mention]] = {}

    def index(self, end: int) -> int:
        return bisect.bisect_left(self.positions, end)

    def add(self, mention: Mention, group: Group | None) -> None:
        i = self.index(mention.end)
        self.tree.add(i)
        kept = self.examples.setdefault(i, [])
        if not kept or (len(kept) == 1 and group is not None and group(kept[0]) != group(mention)):
            kept.append(mention)

    def count(self, low: int, high: int) -> int:
        """How many seen mentions end in ``[low, high]`` (token positions)."""
        return self.tree.between(self.index(low), bisect.bisect_right(self.positions, high) - 1)

    def range(self, low: int, high: int) -> tuple[int, int]:
        return self.index(low), bisect.bisect_right(self.positions, high) - 1


def _contiguous_crossings(mentions: list[Mention], group: Group | None, inset: int
                          ) -> Iterator[tuple[Mention, tuple[Mention, int]]]:
    """Crossings by extents: ``a`` before ``b`` with ``s_a < s_b`` and ``e_a`` in
    ``[s_b + inset, e_b - 1]``."""
    everyone = _Ends([m.end for m in mentions])
    own: dict[Hashable, _Ends] = {}
    if group is not None:
        ends: dict[Hashable, list[int]] = {}
        for mention in mentions:
            ends.setdefault(group(mention), []).append(mention.end)
        own = {key: _Ends(values) for key, values in ends.items()}
    ordered = sorted(mentions, key=lambda m: (m.start, -m.end, m.id))
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and ordered[j].start == ordered[i].start:
            j += 1
        batch = ordered[i:j]  # a crossing needs a strictly earlier start
        for mention in batch:
            found = _crossed(mention, everyone, own, group, inset)
            if found is not None:
                yield mention, found
        for mention in batch:
            everyone.add(mention, group)
            if group is not None:
                own[group(mention)].add(mention, group)
        i = j


def _crossed(mention: Mention, everyone: _Ends, own: dict[Hashable, _Ends],
             group: Group | None, inset: int) -> tuple[Mention, int] | None:
    low, high = mention.start + inset, mention.end - 1
    if high < low:
        return None
    total = everyone.count(low, high)
    mine = own[group(mention)] if group is not None else None
    if mine is not None:
        total -= mine.count(low, high)
    if total <= 0:
        return None
    first, last = everyone.range(low, high)
    if mine is None:
        position = everyone.tree.first_after(everyone.tree.prefix(first - 1))
    else:  # the first end position where the others' count becomes positive
        lo, hi = first, last
        while lo < hi:
            middle = (lo + hi) // 2
            end = everyone.positions[middle]
            if everyone.tree.between(first, middle) - mine.count(low, end) > 0:
                hi = middle
            else:
                lo = middle + 1
        position = lo
    assert group is not None or mine is None
    for other in everyone.examples[position]:
        if group is None or group(other) != group(mention):
            return other, total - 1
    raise AssertionError("a counted end has no example")  # pragma: no cover


def _gapped_crossings(contiguous: list[Mention], gapped: list[Mention], group: Group | None
                      ) -> Iterator[tuple[Mention, Mention, int]]:
    """Crossings in which a discontinuous mention takes part (bounded work per mention)."""
    if not gapped:
        return
    by_token: dict[int, list[Mention]] = {}
    for mention in (*contiguous, *gapped):
        for token in mention.tokens:
            bucket = by_token.setdefault(token, [])
            if len(bucket) < DISCONTINUOUS_CANDIDATES:
                bucket.append(mention)
    for mention in gapped:
        tokens = set(mention.tokens)
        seen: set[int] = set()
        for token in mention.tokens:
            for other in by_token.get(token, ()):
                if other is mention or id(other) in seen or len(seen) >= DISCONTINUOUS_CANDIDATES:
                    continue
                seen.add(id(other))
                if group is not None and group(other) == group(mention):
                    continue
                theirs = set(other.tokens)
                if not (tokens <= theirs or theirs <= tokens):
                    earlier, later = sorted((mention, other), key=lambda m: (m.start, -m.end, m.id))
                    yield later, earlier, 0


def nested_in_own_group(mentions: Iterable[Mention], group: Group) -> Iterator[Crossing]:
    """Each mention that lies inside (or holds) another mention of its own group with other
    tokens, once, with the latest-ending such mention that starts no later; contiguous
    extents (LCC's overlap check)."""
    by_group: dict[Hashable, list[Mention]] = {}
    for mention in mentions:
        if mention.tokens:
            by_group.setdefault(group(mention), []).append(mention)
    found: list[Crossing] = []
    for members in by_group.values():
        best: Mention | None = None      # the latest-ending mention so far
        second: Mention | None = None    # the latest-ending one with other tokens than best
        for mention in sorted(members, key=lambda m: (m.start, -m.end, m.id)):
            for other in (best, second):
                if other is not None and other.end >= mention.end and \
                        other.tokens != mention.tokens:
                    found.append(Crossing(mention, other, 0))
                    break
            if best is None or mention.end > best.end:
                if best is not None and best.tokens != mention.tokens:
                    second = best
                best = mention
            elif mention.tokens != best.tokens and (second is None or mention.end > second.end):
                second = mention
    yield from sorted(found, key=lambda c: (c.mention.start, -c.mention.end, c.mention.id))
