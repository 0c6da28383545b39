"""SpanBERT / e2e-coref "minimized" jsonlines: subword segments mapped back to words.

``sentences`` holds model segments of subtokens, each starting with ``[CLS]`` and ending with
``[SEP]`` (``<s>``/``</s>`` for RoBERTa-style vocabularies); ``subtoken_map`` gives each
subtoken's word and ``sentence_map`` its sentence. Words are rebuilt from the subtokens of
each word (special tokens skipped): the first piece loses a leading ``▁`` or ``Ġ``, the others
a leading ``##``, and the pieces are concatenated (``E ##hu ##d`` → ``Ehud``, ``' s`` →
``'s``). A word's sentence is its first subtoken's; a word's speaker likewise.

Cluster mentions are ``[start, end]`` inclusive subtoken indices (specials counted). A mention
that does not start at a word's first subtoken and end at a word's last one is an error
(``jsonlines.subword-span``, naming document and span) unless reading is lenient, which
snaps it to the words it touches. ``predicted_clusters``, ``constituents``, ``ner`` (``[start,
end, label]``) and ``pronouns`` (indices) are mapped to words as well and kept as metadata.
"""

from __future__ import annotations

import json
from typing import Any

from corefkit.converters.jsonlines.build import LENGTH_MISMATCH, Builder, is_int, shown

SPECIALS = frozenset({"[CLS]", "[SEP]", "<s>", "</s>"})
SUBWORD_SPAN = "jsonlines.subword-span"
WORD_MAP = "jsonlines.word-map"
CORE = ("doc_key", "sentences", "speakers", "clusters", "sentence_map", "subtoken_map")
MAPPED_SPANS = ("constituents", "ner")


class _Words:
    """The word grid of a minimized record: which subtokens are special, the first and last
    subtoken of every word, and each word's sentence."""

    def __init__(self, b: Builder, segments: list[list[str]]) -> None:
        self.b = b
        self.pieces = [piece for segment in segments for piece in segment]
        count = len(self.pieces)
        self.special = [False] * count
        position = 0
        for segment in segments:
            if segment and segment[0] in SPECIALS:
                self.special[position] = True
            if segment and segment[-1] in SPECIALS:
                self.special[position + len(segment) - 1] = True
            position += len(segment)
        self.word_of = self._map("subtoken_map", count)
        self.sentence_of = self._map("sentence_map", count)
        self.first: list[int] = []
        self.last: list[int] = []
        self.sentence: list[int] = []
        self._group()

    def _map(self, key: str, count: int) -> list[int]:
        values = self.b.ints(self.b.require(key), key)
        if len(values) != count:
            raise self.b.fail(LENGTH_MISMATCH, f"{key} has {len(values)} values for {count} "
                              "subtokens")
        return values

    def _group(self) -> None:
        for i, word in enumerate(self.word_of):
            if self.special[i]:
                continue
            if word == len(self.first):
                self.first.append(i)
                self.last.append(i)
                self.sentence.append(self.sentence_of[i])
            elif word == len(self.first) - 1:
                self.last[-1] = i
                if self.sentence_of[i] != self.sentence[-1]:
                    raise self.b.fail(WORD_MAP, f"word {word} has subtokens in sentences "
                                      f"{self.sentence[-1]} and {self.sentence_of[i]} "
                                      f"(sentence_map[{i}])")
            else:
                expected = f"{len(self.first) - 1} or {len(self.first)}" if self.first else "0"
                raise self.b.fail(WORD_MAP, f"subtoken_map[{i}] = {word} where {expected} was "
                                  "expected: words must be numbered in order, every number used")
        for k in range(1, len(self.sentence)):
            if self.sentence[k] < self.sentence[k - 1]:
                raise self.b.fail(WORD_MAP, f"word {k} is in sentence {self.sentence[k]} after "
                                  f"a word of sentence {self.sentence[k - 1]} (sentence_map "
                                  "must not decrease)")

    def form(self, word: int) -> str:
        pieces = self.pieces[self.first[word]:self.last[word] + 1]
        pieces = [p for i, p in zip(range(self.first[word], self.last[word] + 1), pieces)
                  if not self.special[i]]
        head = pieces[0][1:] if pieces[0][:1] in ("\u2581", "\u0120") and len(pieces[0]) > 1 \
            else pieces[0]
        return head + "".join(p[2:] if p.startswith("##") and len(p) > 2 else p
                              for p in pieces[1:])

    def sentences(self) -> list[list[str]]:
        grouped: list[list[str]] = []
        for word in range(len(self.first)):
            if word == 0 or self.sentence[word] != self.sentence[word - 1]:
                grouped.append([])
            grouped[-1].append(self.form(word))
        return grouped

    def span(self, value: Any, where: str) -> tuple[int, int] | None:
        """Subtoken ``[start, end]`` → word span; a span that cuts words is reported and
        snapped (refused unless lenient)."""
        b = self.b
        start, end = b.pair(value, where)
        b.within(start, end, where, value, len(self.pieces), "the subtoken list")
        first, last = start, end
        while first <= last and self.special[first]:
            first += 1
        while last >= first and self.special[last]:
            last -= 1
        quoted = " ".join(self.pieces[start:end + 1])
        if first > last:
            b.repair(SUBWORD_SPAN, f"{where} = [{start}, {end}] ({quoted!r}) covers special "
                     "subtokens only; dropped it", action="dropped")
            return None
        words = self.word_of[first], self.word_of[last]
        if (first, last) != (start, end) or self.first[words[0]] != first \
                or self.last[words[1]] != last:
            text = " ".join(self.form(w) for w in range(words[0], words[1] + 1))
            b.repair(SUBWORD_SPAN, f"{where} = [{start}, {end}] ({quoted!r}) does not cover "
                     f"whole words; snapped to words {words[0]}-{words[1]} ({text!r})",
                     action="snapped")
        return words


def read_minimized(b: Builder) -> None:
    segments = b.token_lists("sentences")
    grid = _Words(b, segments)
    b.set_sentences(grid.sentences())
    if "speakers" in b.record:
        speakers = b.like_sentences("speakers", segments)
        b.set_speakers([speakers[i] for i in grid.first], "speakers")
    b.add_clusters("clusters", b.clusters("clusters"), grid.span)
    mapped = _mapped_extras(b, grid)
    b.keep_extras([*CORE, *mapped])
    json_keys = b.doc.attrs.setdefault("jsonlines_json_meta", [])
    for key, value in mapped.items():
        b.doc.meta[key] = json.dumps(value, ensure_ascii=False)
        json_keys.append(key)


def _mapped_extras(b: Builder, grid: _Words) -> dict[str, Any]:
    """Subtoken-level extras of known shape, at word level."""
    mapped: dict[str, Any] = {}
    predicted = b.record.get("predicted_clusters")
    if isinstance(predicted, list):
        clusters = []
        for k, cluster in enumerate(b.list_of(predicted, "predicted_clusters")):
            spans = [grid.span(m, f"predicted_clusters[{k}][{j}]")
                     for j, m in enumerate(b.list_of(cluster, f"predicted_clusters[{k}]"))]
            clusters.append([list(s) for s in spans if s is not None])
        mapped["predicted_clusters"] = clusters
    for key in MAPPED_SPANS:
        value = b.record.get(key)
        if isinstance(value, list) and all(
                isinstance(v, list) and len(v) == 3 and is_int(v[0]) and is_int(v[1])
                for v in value):
            rows = []
            for j, (start, end, label) in enumerate(value):
                span = grid.span([start, end], f"{key}[{j}]")
                if span is not None:
                    rows.append([span[0], span[1], label])
            mapped[key] = rows
    pronouns = b.record.get("pronouns")
    if isinstance(pronouns, list) and all(is_int(p) for p in pronouns):
        count = len(grid.word_of)
        bad = [p for p in pronouns if not 0 <= p < count]
        if bad:
            raise b.fail("jsonlines.bad-span", f"pronouns has the subtoken index "
                         f"{shown(bad[0])} outside the document ({count} subtokens)")
        mapped["pronouns"] = sorted({grid.word_of[p] for p in pronouns
                                     if not grid.special[p]})
    return mapped
