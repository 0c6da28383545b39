"""The header of a WebAnno TSV 3.x file: the format line and the layer declarations.

``#FORMAT=WebAnno TSV 3.x``, then one line per layer — ``#T_SP=`` span layers, ``#T_CH=`` chain
layers, ``#T_RL=`` relation layers — each the layer's type name and its features separated by
``|``; then two blank lines. The columns after the first three of every token line follow the
declarations in order: one per feature; a span layer without features has one placeholder
column; a slot feature (``ROLE_...``) has a role column and a target column (the next field,
a type name); a chain layer has its ``referenceType`` and ``referenceRelation`` columns in the
order declared; a relation layer ends with its ``BT_<base type>`` column (the address of each
relation's source). Other ``#name=value`` lines in the header (GUM writes ``#Summary1=...``)
are kept as document metadata.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from corefkit.converters.tool_layers.schemes import REFERENCE_RELATION, REFERENCE_TYPE, Layer

FORMAT_RE = re.compile(r"^#FORMAT=(?P<name>.*) (?P<version>3\.(?P<minor>\d+))$")
ANY_FORMAT_RE = re.compile(r"^#FORMAT=(?P<name>.*) (?P<version>\d+\.\d+)$")
LAYER_RE = re.compile(r"^#(?P<kind>T_SP|T_CH|T_RL)=(?P<rest>.*)$")
META_RE = re.compile(r"^#(?P<key>[^=\s]+)=(?P<value>.*)$")
KINDS = {"T_SP": "span", "T_CH": "chain", "T_RL": "relation"}

# column kinds
FEATURE, PLACEHOLDER, ROLE, SLOT, CHAIN_TYPE, CHAIN_LINK, REL_FEATURE, REL_SOURCE = (
    "feature", "placeholder", "role", "slot", "chain-type", "chain-link", "relation-feature",
    "relation-source")


class HeaderError(Exception):
    """A header line that cannot be read (``line`` is its number)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass(frozen=True)
class Column:
    """One annotation column: its layer, its kind and the feature it holds."""

    layer: str
    kind: str
    feature: str | None = None


@dataclass
class Header:
    version: str = "3.3"
    minor: int = 3
    declarations: list[str] = field(default_factory=list)   # the layer lines as written
    layers: list[Layer] = field(default_factory=list)
    columns: list[Column] = field(default_factory=list)
    meta: list[tuple[str, str | None]] = field(default_factory=list)  # (key, value) or (line, None)

    def columns_of(self, layer: str) -> list[int]:
        return [i for i, c in enumerate(self.columns) if c.layer == layer]


def parse_format(line: str, number: int) -> Header:
    found = FORMAT_RE.match(line)
    if found is None:
        other = ANY_FORMAT_RE.match(line)
        if other is not None:
            raise HeaderError(f"{other.group('name')} {other.group('version')} is not WebAnno TSV "
                              "3.x; export the document from INCEpTION/WebAnno as 'WebAnno TSV 3'",
                              number)
        raise HeaderError("the first line is not '#FORMAT=WebAnno TSV 3.x'", number)
    return Header(version=found.group("version"), minor=int(found.group("minor")))


def parse_line(header: Header, line: str, number: int) -> None:
    """One header line after the format line (a layer declaration, or metadata)."""
    found = LAYER_RE.match(line)
    if found is None:
        meta = META_RE.match(line)
        if meta is not None:
            header.meta.append((meta.group("key"), meta.group("value")))
        else:
            header.meta.append((line, None))
        return
    kind = KINDS[found.group("kind")]
    fields = [f for f in found.group("rest").split("|") if f]
    if not fields:
        raise HeaderError(f"a layer declaration without a type name: {line!r}", number)
    name = fields[0]
    if any(layer.name == name for layer in header.layers):
        raise HeaderError(f"the layer {name} is declared twice", number)
    columns, features, base = _columns(kind, name, fields[1:], number)
    header.declarations.append(line)
    header.columns.extend(columns)
    header.layers.append(Layer(name, kind, tuple(features), base))


def _columns(kind: str, name: str, fields: list[str],
             number: int) -> tuple[list[Column], list[str], str | None]:
    columns: list[Column] = []
    features: list[str] = []
    base = None
    if kind == "chain":
        wanted = {REFERENCE_TYPE: CHAIN_TYPE, REFERENCE_RELATION: CHAIN_LINK}
        if sorted(fields) != sorted(wanted):
            raise HeaderError(f"the chain layer {name} declares {'|'.join(fields) or 'nothing'}; a "
                              f"chain layer has the features {REFERENCE_TYPE} and "
                              f"{REFERENCE_RELATION}", number)
        return [Column(name, wanted[f], f) for f in fields], list(fields), None
    if kind == "relation":
        if not fields or not fields[-1].startswith("BT_"):
            raise HeaderError(f"the relation layer {name} does not end with its BT_<base type> "
                              "field", number)
        base = fields[-1][3:]
        for f in fields[:-1]:
            columns.append(Column(name, REL_FEATURE, f))
            features.append(f)
        columns.append(Column(name, REL_SOURCE, None))
        return columns, features, base
    i = 0
    while i < len(fields):
        f = fields[i]
        if f.startswith("ROLE_"):
            if i + 1 >= len(fields):
                raise HeaderError(f"the slot feature {f} of {name} has no target type after it",
                                  number)
            columns.append(Column(name, ROLE, f))
            columns.append(Column(name, SLOT, fields[i + 1]))
            i += 2
            continue
        columns.append(Column(name, FEATURE, f))
        features.append(f)
        i += 1
    if not columns:
        columns.append(Column(name, PLACEHOLDER, None))
    return columns, features, None
