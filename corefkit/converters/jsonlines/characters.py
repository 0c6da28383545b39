"""fastcoref output: a raw ``text`` with ``clusters`` of character offsets (end exclusive).

The text is tokenised by one simple rule: a token is a run of word characters (``\\w+``) or a
single other non-space character (``dog's`` → ``dog`` ``'`` ``s``). A sentence ends after a
run of ``.``, ``!`` or ``?`` tokens and the closing quotes or brackets that follow it. A
mention boundary that falls inside a token splits that token there (warning
``jsonlines.split-token``, one per document, with the count), so every mention is exactly its
characters; leading or trailing spaces inside a mention's offsets are not part of any token.
Tokens keep their character offsets and the document its text as
:mod:`corefkit.converters.offsets` keeps them (``token.attrs[CHARS]``, ``doc.attrs[TEXT]``),
so writing the fastcoref shape (or brat) back gives the same text and offsets.
``clusters_strings`` is compared with the text the offsets give (warning
``jsonlines.mention-text`` at the first difference).
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from corefkit.converters.jsonlines.build import BAD_SPAN, Builder, shown
from corefkit.converters.offsets import CHARS, TEXT

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
SENTENCE_END = frozenset(".!?")
CLOSING = frozenset("\"')]}\u00bb\u201d\u2019")
SPLIT_TOKEN = "jsonlines.split-token"


def tokenize(text: str, cuts: set[int]) -> tuple[list[tuple[int, int]], list[int]]:
    """Token character ranges (end exclusive) of ``text``, split at every offset of ``cuts``
    that falls inside a token; and the offsets that did."""
    ranges: list[tuple[int, int]] = []
    split: list[int] = []
    ordered = sorted(cuts)
    for match in TOKEN_RE.finditer(text):
        start, end = match.span()
        k = bisect.bisect_right(ordered, start)
        while k < len(ordered) and ordered[k] < end:
            cut = ordered[k]
            k += 1
            ranges.append((start, cut))
            split.append(cut)
            start = cut
        ranges.append((start, end))
    return ranges, split


def sentence_bounds(text: str, ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sentences as token index ranges (see the module's rule)."""
    bounds: list[tuple[int, int]] = []
    start = 0
    i = 0
    while i < len(ranges):
        if text[ranges[i][0]:ranges[i][1]] in SENTENCE_END:
            while i + 1 < len(ranges) and text[ranges[i + 1][0]:ranges[i + 1][1]] in SENTENCE_END:
                i += 1
            while i + 1 < len(ranges) and text[ranges[i + 1][0]:ranges[i + 1][1]] in CLOSING:
                i += 1
            bounds.append((start, i + 1))
            start = i + 1
        i += 1
    if start < len(ranges):
        bounds.append((start, len(ranges)))
    return bounds


def read_fastcoref(b: Builder) -> None:
    text = b.require("text")
    if not isinstance(text, str):
        raise b.fail("jsonlines.bad-field", f"text should be a string, not {shown(text)}")
    clusters = b.clusters("clusters")
    offsets = _offsets(b, clusters, len(text))
    ranges, split = tokenize(text, {c for span in offsets.values() for c in span})
    bounds = sentence_bounds(text, ranges)
    b.set_sentences([[text[s:e] for s, e in ranges[a:z]] for a, z in bounds])
    for token, span in zip(b.doc.tokens, ranges):
        token.attrs[CHARS] = span
    b.doc.attrs[TEXT] = text
    if split:
        many = len(split) > 1
        b.repair(SPLIT_TOKEN, f"{len(split)} mention boundar{'ies fall' if many else 'y falls'} "
                 f"inside a token of the tokenisation rule (the first at character {split[0]}: "
                 f"{text[max(0, split[0] - 10):split[0] + 10]!r}); split "
                 f"{'those tokens' if many else 'it'} there")
    starts = {s: i for i, (s, _) in enumerate(ranges)}
    ends = {e: i for i, (_, e) in enumerate(ranges)}

    def read(value: Any, where: str) -> tuple[int, int]:
        start, end = offsets[where]
        first = next((starts[c] for c in range(start, end) if c in starts), None)
        last = next((ends[c] for c in range(end, start, -1) if c in ends), None)
        if first is None or last is None or last < first:
            raise b.fail(BAD_SPAN, f"{where} = {shown(value)} covers no token "
                         f"({text[start:end]!r})")
        return first, last

    b.add_clusters("clusters", clusters, read)
    b.check_texts("clusters_strings", b.record.get("clusters_strings"),
                  [[text[m[0]:m[1]] for m in cluster] for cluster in clusters])
    b.keep_extras(("doc_key", "text", "clusters", "clusters_strings"))


def _offsets(b: Builder, clusters: Any, length: int) -> dict[str, tuple[int, int]]:
    """Every mention's character offsets by its place (``clusters[k][j]``), checked."""
    found: dict[str, tuple[int, int]] = {}
    for k, cluster in enumerate(b.list_of(clusters, "clusters")):
        for j, value in enumerate(b.list_of(cluster, f"clusters[{k}]")):
            where = f"clusters[{k}][{j}]"
            start, end = b.pair(value, where)
            if not 0 <= start < end <= length:
                raise b.fail(BAD_SPAN, f"{where} = {shown(value)} is not a range of "
                             f"characters of the text ({length} characters; the end is "
                             "exclusive)")
            found[where] = (start, end)
    return found
