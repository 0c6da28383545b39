"""MMAX2 input: the levels, markables and schemes of a project being read.

A level is one annotation level of a project (its markable file and scheme); a markable is
one ``<markable>`` element, its span resolved to token indices; a record is a mention-level
markable as the level map reads it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from corefkit.converters.mmax2.layout import POINTER_TYPE, SET_TYPE
from corefkit.model import Mention

NO_VALUE = frozenset({"", "empty"})
NOMINAL_TYPES = frozenset({"nominal_list", "nominal_button"})


@dataclass
class SchemeAttribute:
    name: str                       # as spelled in the scheme
    id: str
    type: str                       # lower case
    values: dict[str, list[str]]    # lower-case value name -> ids enabled by it ("next")
    target_domain: str | None


class Scheme:
    """An annotation scheme: attribute declarations and their ``next`` dependencies."""

    def __init__(self, attributes: list[SchemeAttribute]) -> None:
        self.verdicts: dict[tuple, tuple[list, list]] = {}  # see MentionBuilder.check_scheme
        self.attributes = {a.name.lower(): a for a in attributes}
        self.linked = frozenset(n for n, a in self.attributes.items()
                                if a.type in (SET_TYPE, POINTER_TYPE))
        self.by_id = {a.id: a for a in attributes}
        dependent = {i for a in attributes for ids in a.values.values() for i in ids}
        self.dependent = {i for i in dependent if i in self.by_id}
        self.roots = [a.id for a in attributes if a.id not in self.dependent]

    def of_type(self, kind: str) -> list[str]:
        return [name for name, a in self.attributes.items() if a.type == kind]

    def enabled(self, low: dict[str, str]) -> set[str]:
        """Ids of the attributes a markable's values make available (MMAX2 ``next`` links)."""
        on: set[str] = set()
        stack = list(self.roots)
        while stack:
            aid = stack.pop()
            if aid in on:
                continue
            on.add(aid)
            attr = self.by_id[aid]
            value = low.get(attr.name.lower())
            if value is None:
                continue
            value = value.strip().lower()
            if attr.type in (SET_TYPE, POINTER_TYPE):
                filled = value not in NO_VALUE
                if "set" in attr.values or "not_set" in attr.values:
                    nexts = attr.values.get("set" if filled else "not_set", [])
                else:
                    nexts = [i for ids in attr.values.values() for i in ids] if filled else []
            elif value in attr.values:
                nexts = attr.values[value]
            elif value:
                # a value the scheme does not know (reported on its own): it cannot tell which
                # attributes it enables, so none of them is held against the markable
                nexts = [i for ids in attr.values.values() for i in ids]
            else:
                nexts = []
            stack.extend(i for i in nexts if i in self.by_id)
        return on


class Level:
    """One annotation level of a project and, once read, its markables."""

    __slots__ = ("name", "path", "shown", "scheme_path", "source", "line", "scheme", "markables",
                 "by_id", "skipped", "role", "set_names", "pointer_names")

    def __init__(self, name: str, path: str, scheme_path: str | None, source: str,
                 line: int | None) -> None:
        self.name = name
        self.path = path
        self.shown = os.path.normpath(path)  # the name used in messages
        self.scheme_path = scheme_path
        self.source = source        # the file that lists the level, and its line there
        self.line = line
        self.scheme: Scheme | None = None
        self.markables: list[Markable] = []
        self.by_id: dict[str, Markable] = {}
        self.skipped: set[str] = set()
        self.role = "opaque"        # mention | sentence | opaque
        self.set_names: frozenset[str] = frozenset()
        self.pointer_names: frozenset[str] = frozenset()


class Markable:
    __slots__ = ("id", "level", "tokens", "attrs", "low", "line", "order", "overlap")

    def __init__(self, id: str, level: Level, tokens: tuple[int, ...], attrs: dict[str, str],
                 line: int | None, order: int, overlap: bool) -> None:
        self.id = id
        self.level = level
        self.tokens = tokens
        self.attrs = attrs
        self.low = {k.lower(): v for k, v in attrs.items()}
        self.line = line
        self.order = order
        self.overlap = overlap


class Record:
    """A mention-level markable as the level map reads it."""

    __slots__ = ("markable", "sets", "nonref", "identity", "splits", "bridges", "dd",
                 "min_tokens", "head", "kept", "mention")

    def __init__(self, markable: Markable) -> None:
        self.markable = markable
        self.sets: list[str] = []
        self.nonref: str | None = None
        self.identity: list[Markable] = []
        self.splits: list[Markable] = []
        self.bridges: list[tuple[list[Markable], str | None]] = []
        self.dd: list[Markable] = []
        self.min_tokens: tuple[int, ...] | None = None
        self.head: int | None = None
        self.kept: dict[str, str] = {}
        self.mention: Mention | None = None
