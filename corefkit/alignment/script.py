"""A word-level edit script between a key's words and a response's, in near-linear time.

``edit_script(a, b)`` covers both sequences with blocks, in order, each ``equal`` (the same
words) or ``change`` (words replaced, inserted or deleted, merged into one block). It works as
patience diff does, then hands what is left to Levenshtein:

1. words shared at the start and end are equal;
2. words that occur exactly once in ``a`` and once in ``b`` are candidate anchors; the longest
   chain of them in the same order on both sides (longest increasing subsequence,
   O(u log u)) is kept, and the gaps between anchors are aligned the same way, recursively,
   up to :data:`MAX_DEPTH` levels;
3. a gap small enough (``len(a) * len(b) <= SMALL``) is aligned by Levenshtein's edit
   operations (rapidfuzz, bit-parallel C++);
4. a large gap without anchors (a pathological input: a long text from a tiny vocabulary) is
   aligned in windows of :data:`WINDOW` words, each committing the operations of its first
   half: O(n · WINDOW) instead of O(n²), at the price of not seeing a move longer than half
   a window.

At the two ends of a document, a gap whose sides differ much in length (a truncated answer,
prose before or after the document) aligns the shorter side with the nearest words of the
longer one, so that the few words left of a truncated answer align with the words where it
stopped, not anywhere in the missing text.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

EQUAL = "equal"
CHANGE = "change"

Block = tuple[str, int, int, int, int]   # tag, a start, a stop, b start, b stop

SMALL = 4_000_000        # Levenshtein on the whole gap when len(a) * len(b) is at most this
WINDOW = 1000            # words per window when a large gap has no anchors
MAX_DEPTH = 6            # levels of anchoring inside gaps
SLACK = 8                # extra words of the longer side looked at by an end gap


def edit_script(a: Sequence[int], b: Sequence[int]) -> list[Block]:
    """Blocks covering ``a`` and ``b`` in order (see the module's description)."""
    out: list[Block] = []
    _align(a, b, 0, len(a), 0, len(b), 0, out)
    return _merged(out)


def _align(a: Sequence[int], b: Sequence[int], a1: int, a2: int, b1: int, b2: int,
           depth: int, out: list[Block]) -> None:
    start_a, start_b = a1, b1
    while a1 < a2 and b1 < b2 and a[a1] == b[b1]:
        a1 += 1
        b1 += 1
    if a1 > start_a:
        out.append((EQUAL, start_a, a1, start_b, b1))
    end_a, end_b = a2, b2
    while a2 > a1 and b2 > b1 and a[a2 - 1] == b[b2 - 1]:
        a2 -= 1
        b2 -= 1
    _middle(a, b, a1, a2, b1, b2, depth, out)
    if a2 < end_a:
        out.append((EQUAL, a2, end_a, b2, end_b))


def _middle(a: Sequence[int], b: Sequence[int], a1: int, a2: int, b1: int, b2: int,
            depth: int, out: list[Block]) -> None:
    n, m = a2 - a1, b2 - b1
    if n == 0 or m == 0:
        if n or m:
            out.append((CHANGE, a1, a2, b1, b2))
        return
    at_end = a2 == len(a) and b2 == len(b)
    at_start = a1 == 0 and b1 == 0
    if at_end or at_start:
        # one side much longer at a document end: the shorter side meets the nearest words
        if n > 2 * m + SLACK or m > 2 * n + SLACK:
            short = min(n, m)
            width = 2 * short + SLACK
            if at_end and not at_start:
                ea, eb = min(a2, a1 + width), min(b2, b1 + width)
                _middle(a, b, a1, ea, b1, eb, depth, out)
                if ea < a2 or eb < b2:
                    out.append((CHANGE, ea, a2, eb, b2))
                return
            if at_start and not at_end:
                sa, sb = max(a1, a2 - width), max(b1, b2 - width)
                if sa > a1 or sb > b1:
                    out.append((CHANGE, a1, sa, b1, sb))
                _middle(a, b, sa, a2, sb, b2, depth, out)
                return
    if n * m <= SMALL:
        _levenshtein(a, b, a1, a2, b1, b2, out)
        return
    if depth < MAX_DEPTH:
        chain = anchors(a, b, a1, a2, b1, b2)
        if chain:
            pa, pb = a1, b1
            for i, j in chain:
                _align(a, b, pa, i, pb, j, depth + 1, out)
                out.append((EQUAL, i, i + 1, j, j + 1))
                pa, pb = i + 1, j + 1
            _align(a, b, pa, a2, pb, b2, depth + 1, out)
            return
    _windowed(a, b, a1, a2, b1, b2, out)


def anchors(a: Sequence[int], b: Sequence[int], a1: int, a2: int, b1: int,
            b2: int) -> list[tuple[int, int]]:
    """The longest chain of words unique on both sides of the gap, in the same order."""
    seen_a: dict[int, int] = {}
    for i in range(a1, a2):
        word = a[i]
        seen_a[word] = -1 if word in seen_a else i
    seen_b: dict[int, int] = {}
    for j in range(b1, b2):
        word = b[j]
        seen_b[word] = -1 if word in seen_b else j
    pairs = sorted((j, seen_a[w]) for w, j in seen_b.items()
                   if j >= 0 and seen_a.get(w, -1) >= 0)
    return _increasing([(i, j) for j, i in pairs])


def _increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (sorted by their second item) whose first items
    increase (patience sorting)."""
    tails: list[int] = []          # the smallest last first-item of a chain of each length
    tail_index: list[int] = []
    previous = [-1] * len(pairs)
    for k, (i, _) in enumerate(pairs):
        place = bisect_left(tails, i)
        if place == len(tails):
            tails.append(i)
            tail_index.append(k)
        else:
            tails[place] = i
            tail_index[place] = k
        previous[k] = tail_index[place - 1] if place else -1
    chain = []
    k = tail_index[-1] if tail_index else -1
    while k >= 0:
        chain.append(pairs[k])
        k = previous[k]
    chain.reverse()
    return chain


def _levenshtein(a: Sequence[int], b: Sequence[int], a1: int, a2: int, b1: int, b2: int,
                 out: list[Block]) -> None:
    from rapidfuzz.distance import Levenshtein

    for op in Levenshtein.opcodes(a[a1:a2], b[b1:b2]):
        tag = EQUAL if op.tag == "equal" else CHANGE
        out.append((tag, a1 + op.src_start, a1 + op.src_end, b1 + op.dest_start,
                    b1 + op.dest_end))


def _windowed(a: Sequence[int], b: Sequence[int], a1: int, a2: int, b1: int, b2: int,
              out: list[Block]) -> None:
    """Levenshtein in windows of WINDOW words, each committing its first half."""
    from rapidfuzz.distance import Levenshtein

    i, j = a1, b1
    half = WINDOW // 2
    while i < a2 or j < b2:
        ea, eb = min(a2, i + WINDOW), min(b2, j + WINDOW)
        if i == ea or j == eb:
            out.append((CHANGE, i, a2, j, b2))
            return
        ops = Levenshtein.opcodes(a[i:ea], b[j:eb])
        last = ea == a2 and eb == b2
        committed = False
        for op in ops:
            if not last and committed and (op.src_end > half or op.dest_end > half):
                break
            tag = EQUAL if op.tag == "equal" else CHANGE
            out.append((tag, i + op.src_start, i + op.src_end, j + op.dest_start,
                        j + op.dest_end))
            committed = True
        if last:
            return
        i, j = out[-1][2], out[-1][4]


def _merged(blocks: list[Block]) -> list[Block]:
    """Adjacent blocks of the same tag joined, empty ones dropped."""
    merged: list[Block] = []
    for block in blocks:
        tag, a1, a2, b1, b2 = block
        if a1 == a2 and b1 == b2:
            continue
        if merged and merged[-1][0] == tag:
            last = merged[-1]
            merged[-1] = (tag, last[1], a2, last[3], b2)
        else:
            merged.append(block)
    return merged
