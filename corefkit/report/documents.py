"""One document as the report's browser shows it: compact JSON, rendered in the page only when
the document is opened.

Every side of a document (the key, then each system's response; a corpus report has the key
only) is laid over one sequence of *display tokens*: the union of the sides' token positions
(:func:`corefkit.scoring.semantics.corefud.positions`: words counted through the document,
empty nodes after the word they follow), so that key and response mentions over the same words
stand on the same tokens, and a zero one side has and the other lacks still has its place.

The JSON of a document (short keys: it is the bulk of the file)::

    {"n": name, "t": [forms], "z": [empty-node tokens], "g": [tokens without space after],
     "s": [sentence starts], "sides": [side, ...]}

and of a side::

    {"m": [[entity, type, a1, b1, a2, b2, ...], ...],   # mentions: parts as token ranges
     "e": [[label, colour, layer-flags], ...],           # entities; colour -1: a singleton
     "et": {entity: "person", ...},                       # entity types where annotated
     "nr": {mention: "expletive", ...},                   # non-referring markables
     "sets": [[set entity, [member entities]], ...],      # split antecedents
     "br": [[anaphor mention, anchor entity, relation, anchor mention], ...],
     "err": [[category, line, [[side, mention], ...]], ...]}  # responses: their errors

``entity`` is -1 for a mention without one; ``side`` in an error is 0 for the key and 1 for
the response the error belongs to. A system without the document has no side (``null``), or
only its errors (``"x": 1``, every key mention missed). A response entity takes the colour of the key entity most
of its mentions match exactly, so that a system's chain and the key's look alike.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from corefkit.analysis.mention_types import TYPES, MentionTyper, TypeTable
from corefkit.diagnosis.report import AnalysisError
from corefkit.model import DISCOURSE_DEIXIS, Document, Entity, Mention
from corefkit.scoring.semantics.corefud import positions

TYPE_CODES = {name: n for n, name in enumerate(TYPES)}
DD_FLAG, PSEUDO_FLAG = 1, 2


class Layout:
    """The display tokens of a document's sides and where each side's tokens fall."""

    def __init__(self, docs: Sequence[Document | None]) -> None:
        own = [positions(d) if d is not None else [] for d in docs]
        order = sorted({p for found in own for p in found})
        at = {p: n for n, p in enumerate(order)}
        self.maps = [[at[p] for p in found] for found in own]
        self.forms: list[str] = [""] * len(order)
        self.empty: list[int] = []
        self.glued: list[int] = []
        filled = [False] * len(order)
        for doc, mapping in zip(docs, self.maps):
            if doc is None:
                continue
            for token, n in zip(doc.tokens, mapping):
                if filled[n]:
                    continue
                filled[n] = True
                self.forms[n] = token.form
                if token.is_empty:
                    self.empty.append(n)
                elif token.misc and "SpaceAfter=No" in token.misc:
                    self.glued.append(n)
        self.empty.sort()
        self.glued.sort()
        self.starts: list[int] = []
        for doc, mapping in zip(docs, self.maps):  # the sentences of the first side there is
            if doc is not None:
                self.starts = sorted({mapping[s.start] for s in doc.sentences if s.start < s.stop})
                break

    def tokens(self, side: int, mention: Mention) -> tuple[int, ...]:
        mapping = self.maps[side]
        return tuple(sorted(mapping[t] for t in mention.tokens))


def _parts(tokens: tuple[int, ...]) -> list[int]:
    """Display tokens as flat (first, last) pairs of their contiguous runs."""
    flat: list[int] = []
    for t in tokens:
        if flat and flat[-1] + 1 == t:
            flat[-1] = t
        else:
            flat += [t, t]
    return flat


class SideData:
    """One side's mentions and entities in display tokens, and their JSON."""

    def __init__(self, doc: Document, side: int, layout: Layout, table: TypeTable | None
                 ) -> None:
        self.doc = doc
        self.mentions = [m for m in doc.sorted_mentions() if m.tokens]
        self.entities = doc.entities
        self.entity_index = {e: n for n, e in enumerate(self.entities)}
        self.mention_index = {m: n for n, m in enumerate(self.mentions)}
        self.spans = [layout.tokens(side, m) for m in self.mentions]
        self.by_span: dict[tuple[int, ...], int] = {}
        for n, span in enumerate(self.spans):
            self.by_span.setdefault(span, n)
        self.typer = MentionTyper(doc, table)

    def entity_of(self, n: int) -> int:
        entity = self.doc.entity_of(self.mentions[n])
        return -1 if entity is None else self.entity_index[entity]

    def colours(self, key: SideData | None) -> list[int]:
        """Colour numbers: the key's entities their own index; a response entity the index
        of the key entity most of its mentions match (else one after the key's); -1 for a
        singleton without relations."""
        related = self._related()
        out = []
        offset = len(key.entities) if key is not None else 0
        for n, entity in enumerate(self.entities):
            size = self.doc.size(entity)
            if size <= 1 and n not in related:
                out.append(-1)
            elif key is None:
                out.append(n)
            else:
                votes = Counter(key.entity_of(key.by_span[self.spans[self.mention_index[m]]])
                                for m in self.doc.mentions_of(entity, ordered=False)
                                if self.spans[self.mention_index[m]] in key.by_span)
                votes.pop(-1, None)
                out.append(votes.most_common(1)[0][0] if votes else offset + n)
        return out

    def _related(self) -> set[int]:
        found: set[int] = set()
        for s in self.doc.memberships():
            found.update((self.entity_index[s.member], self.entity_index[s.set_entity]))
        for b in self.doc.bridging():
            found.add(self.entity_index[b.anchor])
            entity = self.doc.entity_of(b.anaphor)
            if entity is not None:
                found.add(self.entity_index[entity])
        return found

    def label(self, n: int, entity: Entity) -> str:
        return str(entity.attrs.get("original_id", n + 1))

    def to_json(self, key: SideData | None) -> dict[str, Any]:
        colours = self.colours(key)
        mentions = []
        for n, m in enumerate(self.mentions):
            kind = TYPE_CODES.get(self.typer(m).type, len(TYPES) - 1)
            mentions.append([self.entity_of(n), kind, *_parts(self.spans[n])])
        entities = [[self.label(n, e), colours[n],
                     (DD_FLAG if e.layer == DISCOURSE_DEIXIS else 0)
                     | (PSEUDO_FLAG if e.pseudo else 0)] for n, e in enumerate(self.entities)]
        out: dict[str, Any] = {"m": mentions, "e": entities}
        types = {n: str(e.attrs["etype"]) for n, e in enumerate(self.entities)
                 if e.attrs.get("etype")}
        if types:
            out["et"] = types
        nonref = {n: m.nonref for n, m in enumerate(self.mentions) if m.nonref is not None}
        if nonref:
            out["nr"] = nonref
        sets = self.doc.accommodated_sets()
        if sets:
            out["sets"] = [[self.entity_index[s], [self.entity_index[m] for m in members]]
                           for s, members in sets.items()]
        bridges = [[self.mention_index[b.anaphor], self.entity_index[b.anchor], b.relation or "",
                    self.mention_index.get(b.anchor_mention, -1)
                    if b.anchor_mention is not None else -1]
                   for b in self.doc.bridging() if b.anaphor in self.mention_index]
        if bridges:
            out["br"] = bridges
        return out


def error_json(errors: Sequence[AnalysisError], categories: Sequence[str], key: SideData,
               response: SideData | None, layout: Layout, side: int) -> list[list[Any]]:
    """A response's errors in one document, their mentions as (0 = key | 1 = response,
    mention index); a mention the side does not hold as such is left out."""
    code = {c: n for n, c in enumerate(categories)}
    out = []
    for e in errors:
        refs = []
        for m in e.mentions:
            which, data, index = (0, key, 0) if m.side == "key" else (1, response, side)
            if data is None:
                continue
            try:
                span = tuple(sorted(layout.maps[index][t] for t in m.tokens))
            except IndexError:
                continue
            found = data.by_span.get(span)
            if found is not None:
                refs.append([which, found])
        out.append([code[e.category], e.line, refs])
    return out


def document_json(docs: Sequence[Document | None], errors: Sequence[Sequence[AnalysisError]],
                  categories: Sequence[str], table: TypeTable | None = None) -> dict[str, Any]:
    """The browser's data of one document: ``docs`` are the key and the responses (None: a
    system without this document), ``errors`` each response's errors in it."""
    layout = Layout(docs)
    sides = [SideData(d, n, layout, table) if d is not None else None
             for n, d in enumerate(docs)]
    key = sides[0]
    out_sides: list[dict[str, Any] | None] = []
    for n, data in enumerate(sides):
        if data is None:  # a system without the document: its errors (all missed) remain
            missed = error_json(errors[n - 1], categories, key, None, layout, n) \
                if n and key is not None and errors[n - 1] else None
            out_sides.append({"m": [], "e": [], "x": 1, "err": missed} if missed else None)
            continue
        found = data.to_json(key if n else None)
        if n and key is not None:
            found["err"] = error_json(errors[n - 1], categories, key, data, layout, n)
        out_sides.append(found)
    first = next(d for d in docs if d is not None)
    return {"n": first.name, "t": layout.forms, "z": layout.empty, "g": layout.glued,
            "s": layout.starts, "sides": out_sides}
