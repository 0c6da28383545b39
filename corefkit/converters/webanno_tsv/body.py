"""The body of a WebAnno TSV 3.x file: sentences, token and sub-token rows, and the text.

A sentence is its ``#Sentence.id=`` and ``#Text=`` lines followed by its rows; sentences are
separated by one blank line. A row is ``sentence-token`` (``s-t``, or ``s-t.n`` for a
sub-token), ``begin-end`` (UTF-16 code units of the document text, end exclusive), the token
and one cell per annotation column, every field followed by a TAB as INCEpTION writes them.
The document text is rebuilt as INCEpTION rebuilds it: each sentence's ``#Text`` lines, each
followed by a line break, placed at the offset of its first token (a gap is filled with
spaces, a line break in the way is dropped).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from corefkit.converters.webanno_tsv.escaping import unescape_old_text, unescape_text
from corefkit.converters.webanno_tsv.header import Header

ID_RE = re.compile(r"^([0-9]+)-([0-9]+)(?:\.([0-9]+))?$")
OFFSETS_RE = re.compile(r"^([0-9]+)-([0-9]+)$")


class BodyError(Exception):
    """A body line that cannot be read: ``check`` (suffix), ``line`` and ``column``."""

    def __init__(self, check: str, message: str, line: int, column: int | None = None) -> None:
        super().__init__(message)
        self.check, self.message, self.line, self.column = check, message, line, column


@dataclass
class Unit:
    """A token or sub-token row. Offsets are UTF-16 until :func:`to_code_points`."""

    address: str
    sentence: int            # 0-based
    token: int               # 0-based index of the token in the document
    sub: int | None          # the sub-token number, None for a token
    begin: int
    end: int
    form: str
    cells: list[str]
    line: int


@dataclass
class SentenceBlock:
    begin: int
    end: int
    sent_id: str | None
    line: int
    tokens: list[Unit] = field(default_factory=list)   # token rows
    subtokens: list[Unit] = field(default_factory=list)


@dataclass
class Body:
    text: str
    sentences: list[SentenceBlock]
    units: list[Unit]             # every row, in file order
    trailing_tab: bool = True     # every row ended with a TAB
    extra_rows: list[int] = field(default_factory=list)


class BodyReader:
    """Reads the body lines of one file (numbered lines, after the header's blank lines)."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.ncols = len(header.columns)
        self.text: list[str] = []
        self.length = 0               # UTF-16 length of the text so far
        self.sentences: list[SentenceBlock] = []
        self.units: list[Unit] = []
        self.trailing_tab = True
        self.extra_rows: list[int] = []   # lines of rows with fields beyond the declared ones
        self.pending_text: list[str] = []
        self.pending_id: str | None = None
        self.pending_line = 0
        self.current: SentenceBlock | None = None
        self.tokens = 0

    def unescape(self, text: str) -> str:
        return unescape_text(text) if self.header.minor >= 2 else unescape_old_text(text)

    def read(self, lines: Iterator[tuple[int, str]]) -> Body:
        for number, line in lines:
            if not line:
                self.end_sentence()
            elif line.startswith("#"):
                self.sentence_header(number, line)
            else:
                self.row(number, line)
        self.end_sentence()
        return Body("".join(self.text), self.sentences, self.units, self.trailing_tab,
                    self.extra_rows)

    def sentence_header(self, number: int, line: str) -> None:
        if self.current is not None:
            raise BodyError(
                "webanno-tsv.misplaced-line",
                "a '#' line among the token rows of a sentence; "
                "sentences are separated by a blank line", number)
        if not self.pending_text and self.pending_id is None:
            self.pending_line = number
        if line.startswith("#Text="):
            self.pending_text.append(self.unescape(line[6:]))
        elif line.startswith("#Sentence.id="):
            self.pending_id = self.unescape(line[13:])
        # other sentence header lines carry nothing INCEpTION reads

    def end_sentence(self) -> None:
        if self.current is None:
            if self.pending_text:
                raise BodyError(
                    "webanno-tsv.sentence-without-tokens",
                    "a sentence without token rows",
                    self.pending_line)
            return
        self.current = None

    def start_sentence(self, unit_begin: int, number: int) -> SentenceBlock:
        if not self.pending_text:
            raise BodyError(
                "webanno-tsv.missing-text",
                "token rows without a '#Text=' line before them; "
                "every sentence starts with its text", number)
        sentence_text = "".join(t + "\n" for t in self.pending_text)
        if self.length > unit_begin:
            if self.length != unit_begin + 1 or not self.text or not self.text[-1].endswith("\n"):
                raise BodyError(
                    "webanno-tsv.bad-offsets",
                    f"the sentence starts at offset {unit_begin}, "
                    f"inside the text of the sentence before it (which ends at "
                    f"{self.length - 1})", number, 2)
            self.text[-1] = self.text[-1][:-1]
            self.length -= 1
        if self.length < unit_begin:
            self.text.append(" " * (unit_begin - self.length))
            self.length = unit_begin
        begin = self.length
        self.text.append(sentence_text)
        self.length += utf16_length(sentence_text)
        block = SentenceBlock(begin, self.length - 1, self.pending_id, self.pending_line)
        self.sentences.append(block)
        self.pending_text, self.pending_id = [], None
        return block

    def row(self, number: int, line: str) -> None:
        fields = line.split("\t")
        expected = 3 + self.ncols
        if len(fields) == expected + 1 and fields[-1] == "":
            fields.pop()
        elif len(fields) == expected:
            self.trailing_tab = False
        elif len(fields) > expected:
            # INCEpTION reads the declared columns and ignores the rest (GUM_vlog_college has
            # rows with three more empty ones)
            self.extra_rows.append(number)
            fields = fields[:expected]
        else:
            raise BodyError(
                "webanno-tsv.bad-columns",
                f"the row has {len(fields)} TAB-separated fields; the "
                f"header declares {self.ncols} annotation columns, so a row has "
                f"{expected} (each followed by a TAB)", number)
        found = ID_RE.match(fields[0])
        if found is None:
            raise BodyError(
                "webanno-tsv.bad-id",
                f"{fields[0]!r} is not a token id 's-t' or sub-token id "
                "'s-t.n'", number, 1)
        offsets = OFFSETS_RE.match(fields[1])
        if offsets is None:
            raise BodyError("webanno-tsv.bad-offsets", f"{fields[1]!r} is not 'begin-end'", number,
                            len(fields[0]) + 2)
        begin, end = int(offsets.group(1)), int(offsets.group(2))
        if end < begin:
            raise BodyError(
                "webanno-tsv.bad-offsets",
                f"the offsets {fields[1]} end before they begin", number,
                len(fields[0]) + 2)
        sub = found.group(3)
        if self.current is None:
            if sub is not None:
                raise BodyError(
                    "webanno-tsv.bad-id",
                    f"the sentence starts with the sub-token {fields[0]}; a "
                    "sub-token follows its token", number, 1)
            self.current = self.start_sentence(begin, number)
        block = self.current
        s_no, t_no = int(found.group(1)), int(found.group(2))
        if s_no != len(self.sentences):
            raise BodyError(
                "webanno-tsv.bad-id",
                f"the row {fields[0]} is in sentence {len(self.sentences)} of "
                "the file; the first number of a token id is its sentence", number, 1)
        if sub is None:
            if t_no != len(block.tokens) + 1:
                raise BodyError("webanno-tsv.bad-id", f"the row {fields[0]} should be token "
                                f"{len(block.tokens) + 1} of its sentence", number, 1)
            token = self.tokens
            self.tokens += 1
        else:
            if t_no != len(block.tokens) or not block.tokens:
                raise BodyError(
                    "webanno-tsv.bad-id",
                    f"the sub-token {fields[0]} does not follow token "
                    f"{s_no}-{t_no}", number, 1)
            token = self.tokens - 1
            parent = block.tokens[-1]
            if begin < parent.begin or end > parent.end:
                raise BodyError(
                    "webanno-tsv.bad-offsets",
                    f"the sub-token {fields[0]} ({begin}-{end}) is not "
                    f"inside its token ({parent.begin}-{parent.end})", number,
                    len(fields[0]) + 2)
        if end > self.length - 1 or begin < block.begin:
            raise BodyError(
                "webanno-tsv.bad-offsets",
                f"the offsets {fields[1]} are outside the sentence's "
                f"text ({block.begin}-{self.length - 1})", number, len(fields[0]) + 2)
        unit = Unit(fields[0], len(self.sentences) - 1, token, int(sub) if sub else None,
                    begin, end, fields[2], fields[3:], number)
        (block.subtokens if sub else block.tokens).append(unit)
        self.units.append(unit)


def utf16_length(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def code_point_map(text: str) -> list[int] | None:
    """For each UTF-16 offset of ``text`` the code-point offset (None: they are the same)."""
    if text.isascii() or all(ord(ch) <= 0xFFFF for ch in text):
        return None
    found: list[int] = []
    for index, ch in enumerate(text):
        found.append(index)
        if ord(ch) > 0xFFFF:
            found.append(index)  # the low surrogate: inside the character
    found.append(len(text))
    return found


def to_code_points(body: Body) -> None:
    """Turn every UTF-16 offset of the body into a code-point offset."""
    table = code_point_map(body.text)
    if table is None:
        return
    for unit in body.units:
        unit.begin, unit.end = table[unit.begin], table[unit.end]
    for block in body.sentences:
        block.begin, block.end = table[block.begin], table[block.end]
