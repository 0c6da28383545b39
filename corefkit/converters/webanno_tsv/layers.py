"""The annotations of each layer, assembled from the cells of the rows.

Span layers: the values of a cell are its stacked annotations (``|``-separated); a value's
``[N]`` suffix is its disambiguation id, shared by every row of a multi-unit annotation and by
the cells of its other features; a value without one belongs to the annotation at the same
stacking position of the row (INCEpTION's reading), so that sparse columns such as GUM's
``identity`` — values only for the spans that have one, each with its ``[N]`` — are read by
id. ``*`` is a null value, ``_`` an empty cell. Chain layers: ``TYPE[N]`` and ``REL->N-K``
(link ``K`` of chain ``N``); the rows of a link repeat its ``N-K``. Relation layers: one
relation per stacked value, written on the first row of its target; the last column is the
address of the source, with ``[a_b]`` (source and target ids, ``0`` for an unambiguous one)
when either end needs one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from corefkit.converters.webanno_tsv.body import BodyError, Unit
from corefkit.converters.webanno_tsv.escaping import escaped_at, split_unescaped, unescape_value
from corefkit.converters.webanno_tsv.header import (
    CHAIN_LINK,
    CHAIN_TYPE,
    FEATURE,
    PLACEHOLDER,
    REL_FEATURE,
    REL_SOURCE,
    ROLE,
    SLOT,
    Column,
    Header,
)

LINK_RE = re.compile(r"^(?P<value>.*)->(?P<chain>[0-9]+)-(?P<link>[0-9]+)$", re.DOTALL)
SOURCE_RE = re.compile(r"^(?P<address>[0-9]+-[0-9]+(?:\.[0-9]+)?)"
                       r"(?:\[(?P<a>[0-9]+)_(?P<b>[0-9]+)\])?$")
# a reserved character without the backslash before it
UNESCAPED_RE = re.compile(r"(?<!\\)(?:[_*;\[\]]|->)")
NULL = "*"
EMPTY = "_"


@dataclass(eq=False)
class Annotation:
    """A span annotation (or a chain link) and the units it covers."""

    layer: str
    key: str | None
    units: list[Unit] = field(default_factory=list)
    features: dict[str, str] = field(default_factory=dict)
    line: int = 0
    unit_ids: set[int] = field(default_factory=set)   # id() of each unit, for lookups

    def add(self, unit: Unit) -> None:
        if not self.units or self.units[-1] is not unit:
            self.units.append(unit)
            self.unit_ids.add(id(unit))


@dataclass(eq=False)
class RelationRecord:
    layer: str
    features: dict[str, str]
    target_unit: Unit
    source: str           # address of the source unit
    source_id: str | None
    target_id: str | None
    line: int
    column: int


def split_id(value: str) -> tuple[str, str | None]:
    """``value[N]`` as (value, N); a value without an unescaped ``[N]`` suffix as (value, None)."""
    if value.endswith("]") and not escaped_at(value, len(value) - 1):
        start = value.rfind("[")
        while start > 0 and escaped_at(value, start):
            start = value.rfind("[", 0, start)
        number = value[start + 1:-1]
        if start >= 0 and number.isascii() and number.isdigit():
            return value[:start], value[start + 1:-1]
    return value, None


def feature_value(raw: str) -> str | None:
    return None if raw == NULL else unescape_value(raw)


class LayerAssembler:
    """Collects the annotations of every layer as the rows come."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.by_id: dict[tuple[str, str], Annotation] = {}
        self.on_unit: dict[tuple[str, int], list[Annotation]] = {}   # (layer, id(unit))
        self.spans: dict[str, list[Annotation]] = {}
        self.links: dict[str, dict[tuple[int, int], Annotation]] = {}
        self.chain_ids: dict[str, dict[tuple[int, int], str]] = {}
        self.relations: dict[str, list[RelationRecord]] = {}
        self.layer_columns: dict[str, list[tuple[int, Column]]] = {}
        for index, column in enumerate(header.columns):
            self.layer_columns.setdefault(column.layer, []).append((index, column))
        # how the file was written, for a writer that gives it back: feature columns that list
        # only the non-null values (GUM's identity), and values with reserved characters left
        # unescaped (GUM's salience 'n____', identities 'Chatham_Islands')
        self.sparse: set[tuple[str, str]] = set()
        self.unescaped = False

    def row(self, unit: Unit) -> None:
        for layer in self.header.layers:
            columns = self.layer_columns[layer.name]
            if layer.kind == "span":
                self.span_row(layer.name, unit, columns)
            elif layer.kind == "chain":
                self.chain_row(layer.name, unit, columns)
            else:
                self.relation_row(layer.name, unit, columns)

    def column_of(self, unit: Unit, index: int) -> int:
        """The 1-based character column where cell ``index`` of a row starts."""
        return len(unit.address) + len(f"{unit.begin}-{unit.end}") + len(unit.form) + 4 + sum(
            len(c) + 1 for c in unit.cells[:index])

    def span_row(self, layer: str, unit: Unit, columns: list[tuple[int, Column]]) -> None:
        here = self.on_unit.setdefault((layer, id(unit)), [])
        for index, column in columns:
            raw = unit.cells[index]
            if raw == EMPTY:
                if column.kind == FEATURE and column.feature is not None and here:
                    self.sparse.add((layer, column.feature))
                continue
            if column.kind == SLOT:
                continue  # slot targets stay in the row's cells
            values = split_unescaped(raw, "|")
            for position, value in enumerate(values):
                body, key = split_id(value) if column.kind != ROLE else (value, None)
                annotation = self.span_annotation(layer, unit, here, position, key)
                if column.kind == FEATURE and column.feature is not None:
                    found = feature_value(body)
                    if found is not None:
                        annotation.features[column.feature] = found
                        if not self.unescaped and len(body) > 1 and UNESCAPED_RE.search(body):
                            self.unescaped = True
                elif column.kind == PLACEHOLDER and body not in (NULL, ""):
                    raise BodyError(
                        "webanno-tsv.bad-value",
                        f"the placeholder column of {layer} holds "
                        f"{body!r}; it holds '*' (with an id) or '_'", unit.line,
                        self.column_of(unit, index))
            if column.kind == FEATURE and column.feature is not None and len(values) < len(here):
                self.sparse.add((layer, column.feature))

    def span_annotation(self, layer: str, unit: Unit, here: list[Annotation], position: int,
                        key: str | None) -> Annotation:
        if key is not None:
            annotation = self.by_id.get((layer, key))
            if annotation is None:
                annotation = Annotation(layer, key, line=unit.line)
                self.by_id[(layer, key)] = annotation
                self.spans.setdefault(layer, []).append(annotation)
        elif position < len(here):
            annotation = here[position]
        else:
            annotation = Annotation(layer, None, line=unit.line)
            self.spans.setdefault(layer, []).append(annotation)
        if annotation not in here:
            here.append(annotation)
        annotation.add(unit)
        return annotation

    def chain_row(self, layer: str, unit: Unit, columns: list[tuple[int, Column]]) -> None:
        cells = {column.kind: (index, unit.cells[index]) for index, column in columns}
        link_index, link_cell = cells[CHAIN_LINK]
        type_index, type_cell = cells[CHAIN_TYPE]
        if (link_cell == EMPTY) != (type_cell == EMPTY):
            raise BodyError("webanno-tsv.bad-chain", f"the chain columns of {layer} disagree: "
                            f"{type_cell!r} and {link_cell!r}", unit.line,
                            self.column_of(unit, link_index))
        if link_cell == EMPTY:
            return
        links = split_unescaped(link_cell, "|")
        types = split_unescaped(type_cell, "|")
        if len(links) != len(types):
            raise BodyError(
                "webanno-tsv.bad-chain",
                f"{len(types)} referenceType values but {len(links)} "
                f"referenceRelation values in the chain columns of {layer}",
                unit.line, self.column_of(unit, link_index))
        chains = self.links.setdefault(layer, {})
        for value, type_value in zip(links, types):
            found = LINK_RE.match(value)
            if found is None or escaped_at(value, found.start("chain") - 2):
                raise BodyError(
                    "webanno-tsv.bad-chain",
                    f"{value!r} is not 'RELATION->CHAIN-LINK'", unit.line,
                    self.column_of(unit, link_index))
            type_body, chain_id = split_id(type_value)
            number = (int(found.group("chain")), int(found.group("link")))
            if chain_id is not None and int(chain_id) != number[0]:
                raise BodyError(
                    "webanno-tsv.bad-chain",
                    f"the referenceType {type_value!r} names chain "
                    f"{chain_id} but the referenceRelation {value!r} chain "
                    f"{number[0]}", unit.line, self.column_of(unit, type_index))
            annotation = chains.get(number)
            if annotation is None:
                annotation = chains[number] = Annotation(layer, f"{number[0]}-{number[1]}",
                                                         line=unit.line)
                relation = feature_value(found.group("value"))
                kind = feature_value(type_body)
                if relation is not None:
                    annotation.features["referenceRelation"] = relation
                if kind is not None:
                    annotation.features["referenceType"] = kind
            annotation.add(unit)

    def relation_row(self, layer: str, unit: Unit, columns: list[tuple[int, Column]]) -> None:
        source_index = next(i for i, c in columns if c.kind == REL_SOURCE)
        raw = unit.cells[source_index]
        if raw == EMPTY:
            return
        sources = split_unescaped(raw, "|")
        values = {c.feature: split_unescaped(unit.cells[i], "|") for i, c in columns
                  if c.kind == REL_FEATURE and unit.cells[i] != EMPTY}
        for position, source in enumerate(sources):
            found = SOURCE_RE.match(source)
            if found is None:
                raise BodyError(
                    "webanno-tsv.bad-relation",
                    f"{source!r} is not a source address 's-t' or "
                    "'s-t[a_b]'", unit.line, self.column_of(unit, source_index))
            features: dict[str, str] = {}
            for feature, stacked in values.items():
                if feature is None:
                    continue
                if len(stacked) != len(sources):
                    raise BodyError(
                        "webanno-tsv.bad-relation",
                        f"{len(stacked)} values of {feature} but "
                        f"{len(sources)} relations of {layer} on the row", unit.line,
                        self.column_of(unit, source_index))
                value = feature_value(stacked[position])
                if value is not None:
                    features[feature] = value
            a, b = found.group("a"), found.group("b")
            self.relations.setdefault(layer, []).append(RelationRecord(
                layer, features, unit, found.group("address"), a if a not in (None, "0") else None,
                b if b not in (None, "0") else None, unit.line,
                self.column_of(unit, source_index)))
