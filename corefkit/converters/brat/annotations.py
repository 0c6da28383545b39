"""brat standoff: the lines of an ``.ann`` file, parsed into records.

The annotation kinds of the brat standoff format (brat.nlplab.org/standoff.html), one per
line, the id first and separated from the rest by a TAB:

* ``T1<TAB>TYPE START END[;START END...]<TAB>TEXT`` text-bound annotation; offsets in code
  points, end exclusive; fragments of a discontinuous span joined by ``;`` (the text column
  then holds the fragments' texts joined by a space);
* ``R1<TAB>TYPE Arg1:T1 Arg2:T2`` relation (any two role names);
* ``*<TAB>TYPE T1 T2 ...`` equivalence (no id of its own);
* ``A1<TAB>NAME T1 [VALUE]`` attribute (``M`` in the older modifier spelling);
* ``N1<TAB>TYPE T1 DB:ID<TAB>TEXT`` normalisation; ``#1<TAB>TYPE T1<TAB>NOTE`` note;
* ``E1<TAB>TYPE:T1 ROLE:T2 ...`` event: not read (reported, ``brat.unsupported-annotation``).

Blank lines are accepted. A line of no kind above is a ``brat.bad-line`` and an id used twice a
``brat.duplicate-id``; both are refused unless reading leniently (the line is then skipped).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from corefkit.errors import Repair

TEXTBOUND_RE = re.compile(r"^(T\S*)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t(.*)$")
RELATION_RE = re.compile(r"^(R\S*)\t(\S+) (\S+?):(\S+) (\S+?):(\S+)\s*$")
EQUIV_RE = re.compile(r"^\*\t(\S+)((?: \S+)+)\s*$")
ATTRIBUTE_RE = re.compile(r"^([AM]\S*)\t(\S+) (\S+)(?: (\S+))?\s*$")
NORMALIZATION_RE = re.compile(r"^(N\S*)\t(\S+) (\S+) (\S+)(?:\t(.*))?$")
NOTE_RE = re.compile(r"^(#\S*)\t(\S+) (\S+)(?:\t(.*))?$")
EVENT_RE = re.compile(r"^E\S*\t")

Fragments = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class TextBound:
    id: str
    type: str
    fragments: Fragments
    text: str
    line: int


@dataclass(frozen=True)
class Relation:
    id: str
    type: str
    args: tuple[tuple[str, str], ...]  # (role, annotation id)
    line: int


@dataclass(frozen=True)
class Equivalence:
    type: str
    ids: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Attribute:
    """An attribute (``A``/``M``), a normalisation (``N``: value ``DB:ID``) or a note (``#``)."""

    id: str
    name: str
    target: str
    value: str
    line: int


@dataclass
class AnnFile:
    textbounds: list[TextBound] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    equivalences: list[Equivalence] = field(default_factory=list)
    attributes: list[Attribute] = field(default_factory=list)
    repairs: list[Repair] = field(default_factory=list)


class _Parser:
    def __init__(self, file: str, document: str) -> None:
        self.file = file
        self.document = document
        self.result = AnnFile()
        self.ids: dict[str, int] = {}

    def repair(self, check: str, line: int, message: str, action: str = "kept") -> None:
        self.result.repairs.append(Repair(check, message, file=self.file, line=line,
                                          document=self.document, action=action))

    def new_id(self, ident: str, line: int) -> bool:
        """Record an id; False (and a repair) when it was used before."""
        if ident in self.ids:
            self.repair("brat.duplicate-id", line,
                        f"annotation id {ident!r} is used a second time (first on line "
                        f"{self.ids[ident]}); this line was skipped", action="dropped")
            return False
        self.ids[ident] = line
        return True

    def line(self, number: int, text: str) -> None:
        if not text.strip():
            return
        head = text[:1]
        if head == "T":
            self.textbound(number, text)
        elif head == "R":
            self.relation(number, text)
        elif head == "*":
            found = EQUIV_RE.match(text)
            if found is None:
                self.bad(number, text, "*<TAB>TYPE T1 T2 ...")
            else:
                self.result.equivalences.append(
                    Equivalence(found.group(1), tuple(found.group(2).split()), number))
        elif head in "AMN#":
            self.attribute(number, text, head)
        elif EVENT_RE.match(text):
            self.repair("brat.unsupported-annotation", number,
                        f"event {text.split(chr(9), 1)[0]!r}: corefkit reads no brat events; "
                        "the line was left out (its trigger is read as a mention)",
                        action="dropped")
        else:
            self.bad(number, text, "a T, R, *, A, M, N, # or E line")

    def bad(self, number: int, text: str, expected: str) -> None:
        shown = text if len(text) <= 60 else text[:57] + "..."
        self.repair("brat.bad-line", number,
                    f"{shown!r} is not a brat annotation line (expected {expected}); "
                    "the line was skipped", action="dropped")

    def textbound(self, number: int, text: str) -> None:
        found = TEXTBOUND_RE.match(text)
        if found is None:
            self.bad(number, text, "T<n><TAB>TYPE START END<TAB>TEXT")
            return
        fragments = tuple((int(a), int(b)) for a, b in (
            part.split(" ") for part in found.group(3).split(";")))
        if any(b < a for a, b in fragments):
            self.bad(number, text, "fragments whose end is not before their start")
            return
        if self.new_id(found.group(1), number):
            self.result.textbounds.append(TextBound(found.group(1), found.group(2), fragments,
                                                    found.group(4), number))

    def relation(self, number: int, text: str) -> None:
        found = RELATION_RE.match(text)
        if found is None:
            self.bad(number, text, "R<n><TAB>TYPE Arg1:T<a> Arg2:T<b>")
            return
        if self.new_id(found.group(1), number):
            args = ((found.group(3), found.group(4)), (found.group(5), found.group(6)))
            self.result.relations.append(Relation(found.group(1), found.group(2), args, number))

    def attribute(self, number: int, text: str, head: str) -> None:
        if head in "AM":
            found = ATTRIBUTE_RE.match(text)
            expected = "A<n><TAB>NAME T<n> [VALUE]"
        elif head == "N":
            found = NORMALIZATION_RE.match(text)
            expected = "N<n><TAB>TYPE T<n> DB:ID<TAB>TEXT"
        else:
            found = NOTE_RE.match(text)
            expected = "#<n><TAB>TYPE T<n><TAB>NOTE"
        if found is None:
            self.bad(number, text, expected)
            return
        if not self.new_id(found.group(1), number):
            return
        if head in "AM":
            name, value = found.group(2), found.group(4) or "true"
        elif head == "N":
            name, value = "norm", found.group(4)
        else:
            name, value = "note", found.group(4) or ""
        self.result.attributes.append(Attribute(found.group(1), name, found.group(3), value,
                                                number))


def parse_ann(lines: Iterable[tuple[int, str]], file: str, document: str) -> AnnFile:
    """The records of an ``.ann`` file given as (line number, text) pairs."""
    parser = _Parser(file, document)
    for number, text in lines:
        parser.line(number, text)
    return parser.result
