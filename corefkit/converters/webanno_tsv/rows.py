"""The rows of a WebAnno TSV file: units, annotation cells, ids (the writer's second half).

Every token is a row; a mention that starts or ends inside a token (its sub-token characters)
gets a sub-token row ``s-t.n`` for the part of the token it covers, numbered with the sub-token
rows the file read had, in order of their offsets. A span annotation is on every row it covers;
it gets an ``[N]`` id when it covers several rows or shares a row with another annotation of its
layer (or always, when the file read had ids everywhere), keeping the number it was read with
when it can. A relation is written on the first row of its target.
"""

from __future__ import annotations

import re

from corefkit.converters.tool_layers.extract import Extracted
from corefkit.converters.tool_layers.records import Relation, Span
from corefkit.converters.tool_layers.schemes import Scheme
from corefkit.converters.webanno_tsv.escaping import (
    escape_text,
    escape_value,
    escape_value_minimal,
)
from corefkit.converters.webanno_tsv.header import (
    CHAIN_LINK,
    CHAIN_TYPE,
    FEATURE,
    PLACEHOLDER,
    REL_FEATURE,
    REL_SOURCE,
)
from corefkit.converters.tool_layers.layout import Layout, utf16_offsets
from corefkit.converters.webanno_tsv.plan import Plan
from corefkit.converters.webanno_tsv.reader import CELLS, SUBTOKENS
from corefkit.model import Document

ID_IN_CELL_RE = re.compile(r"\[(\d+)(?:_(\d+))?\]")

Unit = tuple[int, int | None]   # (token index, sub-token number or None)


class RowWriter:
    def __init__(self, doc: Document, scheme: Scheme, plan: Plan, text: Layout,
                 extracted: Extracted) -> None:
        self.doc, self.scheme, self.plan, self.text = doc, scheme, plan, text
        self.extracted = extracted
        self.subtokens: dict[int, list[tuple[int, int]]] = {}      # token -> sub-token spans
        self.stored_sub: dict[tuple[int, int, int], tuple[str, ...]] = {}
        for token in doc.tokens:
            for begin, end, cells in token.attrs.get(SUBTOKENS, ()) if text.kept else ():
                self.subtokens.setdefault(token.index, []).append((begin, end))
                self.stored_sub[(token.index, begin, end)] = tuple(cells)
        self.span_units: dict[int, list[tuple[int, int, int]]] = {}  # id(span) -> (tok, b, e)
        self.on_unit: dict[tuple[int, int, int], list[Span]] = {}
        self.link_of: dict[int, tuple[int, int]] = {}               # id(span) -> (chain, link)
        spans = list(extracted.layers.spans)
        for chain in extracted.layers.chains:
            for k, link in enumerate(chain.links, 1):
                spans.append(link)
                self.link_of[id(link)] = (int(chain.key or 0), k)
        for span in spans:
            self.place(span)
        for found in self.subtokens.values():
            found.sort()
        self.ids = self.assign_ids(spans)
        self.addresses = self.number_rows()
        self.relations_at: dict[tuple[int, int, int], list[Relation]] = {}
        for relation in extracted.layers.relations:
            first = self.span_units[id(relation.target)][0]
            self.relations_at.setdefault(first, []).append(relation)

    # ----------------------------------------------------------------- placement
    def place(self, span: Span) -> None:
        mention = self.extracted.mention_of[id(span)]
        units: list[tuple[int, int, int]] = []
        for t in mention.tokens:
            tb, te = self.text.offsets[t]
            b, e = max(span.begin, tb), min(span.end, te)
            if (b, e) == (tb, te):
                units.append((t, tb, te))
                continue
            known = self.subtokens.setdefault(t, [])
            if (b, e) not in known:
                known.append((b, e))
            units.append((t, b, e))
        self.span_units[id(span)] = units
        for unit in units:
            self.on_unit.setdefault(unit, []).append(span)

    def assign_ids(self, spans: list[Span]) -> dict[int, str]:
        """The ``[N]`` of every span that needs one (chain links never do)."""
        needs = []
        for span in spans:
            if id(span) in self.link_of:
                continue
            units = self.span_units[id(span)]
            if self.plan.ids_everywhere or len(units) > 1 or any(
                    len(self.on_unit[u]) > 1 for u in units):
                needs.append(span)
        used: set[int] = set()
        opaque = [c.index for c in self.plan.columns if c.kind == "opaque"]
        for token in self.doc.tokens:
            cells = token.attrs.get(CELLS, ()) if self.plan.old_columns else ()
            for cell in (cells[i] for i in opaque if i < len(cells)):
                if "[" in cell:
                    for m in ID_IN_CELL_RE.finditer(cell):
                        used.update(int(g) for g in m.groups() if g)
        ids: dict[int, str] = {}
        own = [s.key for s in needs]
        if all(k is not None and k.isascii() and k.isdigit() and int(k) > 0
               and int(k) not in used for k in own) \
                and len(set(own)) == len(own):
            return {id(s): str(s.key) for s in needs}
        next_id = 1
        for span in needs:
            while next_id in used:
                next_id += 1
            ids[id(span)] = str(next_id)
            used.add(next_id)
        return ids

    def number_rows(self) -> dict[tuple[int, int, int], str]:
        """The address of every row: (token, begin, end) -> ``s-t`` or ``s-t.n``."""
        found: dict[tuple[int, int, int], str] = {}
        number = 0
        for sentence, (begin, _) in zip(self.doc.sentences, self.text.sentences):
            if begin < 0:
                continue
            number += 1
            position = 0
            for index in sentence.token_indices():
                if index not in self.text.offsets:
                    continue
                position += 1
                tb, te = self.text.offsets[index]
                found[(index, tb, te)] = f"{number}-{position}"
                for n, (b, e) in enumerate(self.subtokens.get(index, ()), 1):
                    found.setdefault((index, b, e), f"{number}-{position}.{n}")
        return found

    # ----------------------------------------------------------------- rows
    def render(self) -> str:
        plan = self.plan
        out = [f"#FORMAT=WebAnno TSV {plan.version}\n"]
        out.extend(line + "\n" for line in plan.declarations)
        for key, value in plan.meta:
            if value is None:
                out.append(key + "\n")
            elif key in self.doc.meta:
                out.append(f"#{key}={self.doc.meta[key]}\n")
        out.append("\n")
        utf16 = utf16_offsets(self.text.text)
        for sentence, (begin, end) in zip(self.doc.sentences, self.text.sentences):
            if begin < 0:
                continue
            out.append("\n")
            if sentence.sent_id and int(plan.version.split(".")[1]) >= 3:
                out.append(f"#Sentence.id={escape_text(sentence.sent_id)}\n")
            for line in self.text.text[begin:end].split("\n"):
                out.append(f"#Text={escape_text(line)}\n")
            for index in sentence.token_indices():
                if index not in self.text.offsets:
                    continue
                tb, te = self.text.offsets[index]
                out.append(self.row(index, tb, te, utf16, None))
                for b, e in self.subtokens.get(index, ()):
                    out.append(self.row(index, b, e, utf16, (b, e)))
        return "".join(out)

    def row(self, token: int, begin: int, end: int, utf16: list[int] | None,
            sub: tuple[int, int] | None) -> str:
        b16, e16 = (utf16[begin], utf16[end]) if utf16 is not None else (begin, end)
        unit = (token, begin, end)
        fields = [self.addresses[unit] if sub is None else self.sub_address(unit),
                  f"{b16}-{e16}", self.text.text[begin:end]]
        if sub is None:
            stored = self.doc.tokens[token].attrs.get(CELLS) if self.plan.old_columns else None
        else:
            stored = self.stored_sub.get((token, begin, end))
        for column in self.plan.columns:
            fields.append(self.cell(column.kind, column.feature, column.index, unit, stored))
        return "\t".join(fields) + "\t\n"

    def cell(self, kind: str, feature: str | None, index: int, unit: tuple[int, int, int],
             stored: tuple[str, ...] | None) -> str:
        if kind == "opaque":
            return stored[index] if stored is not None and index < len(stored) else "_"
        if kind in (REL_FEATURE, REL_SOURCE):
            relations = self.relations_at.get(unit, [])
            if not relations:
                return "_"
            if kind == REL_FEATURE:
                return "|".join(self.value(r.features.get(feature or "")) for r in relations)
            return "|".join(self.source_ref(r) for r in relations)
        spans = self.on_unit.get(unit, [])
        if kind in (CHAIN_TYPE, CHAIN_LINK):
            links = sorted((s for s in spans if id(s) in self.link_of),
                           key=lambda s: self.link_of[id(s)])
            if not links:
                return "_"
            if kind == CHAIN_TYPE:
                return "|".join(f"{self.value(s.features.get(feature or ''))}"
                                f"[{self.link_of[id(s)][0]}]"
                                for s in links)
            return "|".join(f"{self.value(s.features.get(feature or ''))}->"
                            f"{self.link_of[id(s)][0]}-{self.link_of[id(s)][1]}" for s in links)
        mentions = [s for s in spans if id(s) not in self.link_of]
        if not mentions:
            return "_"
        mentions.sort(key=lambda s: (s.begin, -s.end, int(self.ids.get(id(s), "0"))))
        if kind == PLACEHOLDER:
            return "|".join("*" + self.suffix(s) for s in mentions)
        assert kind == FEATURE
        values = [(s, s.features.get(feature or "")) for s in mentions]
        if feature in self.plan.sparse:
            values = [(s, v) for s, v in values if v is not None]
            if not values:
                return "_"
        return "|".join(self.value(v) + self.suffix(s) for s, v in values)

    def value(self, value: str | None) -> str:
        if value is None:
            return "*"
        return escape_value_minimal(value) if self.plan.unescaped else escape_value(value)

    def suffix(self, span: Span) -> str:
        found = self.ids.get(id(span))
        return f"[{found}]" if found is not None else ""

    def sub_address(self, unit: tuple[int, int, int]) -> str:
        token = unit[0]
        tb, te = self.text.offsets[token]
        n = self.subtokens[token].index((unit[1], unit[2])) + 1
        return f"{self.addresses[(token, tb, te)]}.{n}"

    def source_ref(self, relation: Relation) -> str:
        a = self.ids.get(id(relation.source), "0")
        b = self.ids.get(id(relation.target), "0")
        unit = self.span_units[id(relation.source)][0]
        tb, te = self.text.offsets[unit[0]]
        address = self.addresses[unit] if (unit[1], unit[2]) == (tb, te) else \
            self.sub_address(unit)
        return address if (a, b) == ("0", "0") else f"{address}[{a}_{b}]"
