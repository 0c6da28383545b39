"""GAP TSV: the examples of a GAP file and the predictions of a system file.

A GAP file (Webster et al. 2018, github ``google-research-datasets/gap-coreference``) is a
header line and one example per line, 11 TAB-separated columns: ``ID``, ``Text``, ``Pronoun``,
``Pronoun-offset``, ``A``, ``A-offset``, ``A-coref``, ``B``, ``B-offset``, ``B-coref``,
``URL``. Offsets are the character offsets of the *start* of a string in ``Text`` (the end is
``offset + len(string)``); ``A-coref``/``B-coref`` say whether the name corefers with the
pronoun (``TRUE``/``FALSE``, read case-insensitively as the official scorer reads them). The
gender of an example is its pronoun's (the official scorer's list: she, her, hers; he, his,
him).

A system (prediction) file, as the official scorer reads it, has no header and the columns
``ID``, ``A-coref``, ``B-coref`` (further columns are ignored); corefkit also skips a header
line ``ID<TAB>A-coref<TAB>B-coref`` and reads a file in the GAP layout (with its header) by its
``A-coref`` and ``B-coref`` columns.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from corefkit.converters.gap.spec import HEADER
from corefkit.converters.io import iter_lines
from corefkit.errors import FormatError, Repair

FEMININE = "feminine"
MASCULINE = "masculine"
GENDERS = {"she": FEMININE, "her": FEMININE, "hers": FEMININE,
           "he": MASCULINE, "his": MASCULINE, "him": MASCULINE}
PREDICTION_HEADER = ("ID", "A-coref", "B-coref")


@dataclass(frozen=True)
class GapExample:
    """One row of a GAP file."""

    id: str
    text: str
    pronoun: str
    pronoun_offset: int
    a: str
    a_offset: int
    a_coref: bool
    b: str
    b_offset: int
    b_coref: bool
    url: str
    line: int | None = None

    @property
    def gender(self) -> str | None:
        """``feminine`` or ``masculine`` from the pronoun; None for a pronoun not in GAP's list."""
        return GENDERS.get(self.pronoun.lower())

    def span(self, role: str) -> tuple[int, int]:
        """(start, end) of ``pronoun``, ``A`` or ``B`` in the text (end exclusive)."""
        if role == "pronoun":
            return self.pronoun_offset, self.pronoun_offset + len(self.pronoun)
        if role == "A":
            return self.a_offset, self.a_offset + len(self.a)
        return self.b_offset, self.b_offset + len(self.b)

    def to_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in self.__dataclass_fields__ if key != "line"}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GapExample:
        return cls(**{key: data[key] for key in cls.__dataclass_fields__ if key in data})


def _label(value: str, column: str, file: str, line: int) -> bool:
    lowered = value.lower()  # no stripping: the official scorer reads 'TRUE ' as no label
    if lowered not in ("true", "false"):
        raise FormatError(f"{column} is {value!r}; expected TRUE or FALSE", file=file, line=line,
                          check="gap.bad-label")
    return lowered == "true"


def _offset(fields: list[str], index: int, string_index: int, file: str, line: int) -> int:
    value, string, text = fields[index], fields[string_index], fields[1]
    column = HEADER[index]
    if not string:
        raise FormatError(f"{HEADER[string_index]} is empty", file=file, line=line,
                          check="gap.bad-columns")
    if not value.strip().isdigit():
        raise FormatError(f"{column} is {value!r}; expected a character offset (a number)",
                          file=file, line=line, check="gap.bad-offset")
    offset = int(value)
    if text[offset:offset + len(string)] != string:
        raise FormatError(f"{column} {offset} does not point at {string!r} in the text (it holds "
                          f"{text[offset:offset + len(string)]!r}); offsets count characters",
                          file=file, line=line, check="gap.bad-offset")
    return offset


def parse_example(fields: list[str], file: str, line: int) -> GapExample:
    """An example from the 11 fields of a row; malformed rows are refused."""
    if len(fields) != len(HEADER):
        raise FormatError(f"the row has {len(fields)} TAB-separated fields; a GAP row has "
                          f"{len(HEADER)} ({', '.join(HEADER)})", file=file, line=line,
                          check="gap.bad-columns")
    if not fields[0].strip():
        raise FormatError("the row has no ID", file=file, line=line, check="gap.bad-columns")
    return GapExample(
        fields[0], fields[1], fields[2], _offset(fields, 3, 2, file, line),
        fields[4], _offset(fields, 5, 4, file, line), _label(fields[6], "A-coref", file, line),
        fields[7], _offset(fields, 8, 7, file, line), _label(fields[9], "B-coref", file, line),
        fields[10], line)


def example_repairs(example: GapExample, file: str) -> list[Repair]:
    """What is odd about a well-formed example (kept as read)."""
    found = []
    if example.a_coref and example.b_coref:
        found.append(Repair("gap.both-true", "A-coref and B-coref are both TRUE: the pronoun "
                            "corefers with both names (GAP never labels a row so); read as one "
                            "entity of three mentions", file=file, line=example.line,
                            document=example.id))
    if example.gender is None:
        found.append(Repair("gap.unknown-pronoun", f"pronoun {example.pronoun!r} is not one of "
                            "GAP's (she, her, hers, he, his, him): the example has no gender and "
                            "counts in the overall score only", file=file, line=example.line,
                            document=example.id))
    return found


def read_examples(stream: BinaryIO, file: str) -> Iterator[GapExample]:
    """The examples of a GAP file, in order (repeated ids included)."""
    header_seen = False
    for number, text in iter_lines(stream, file):
        if not header_seen:
            if tuple(text.split("\t")) != HEADER:
                raise FormatError(f"the first line is not the GAP header ({' '.join(HEADER)}, "
                                  "TAB-separated)", file=file, line=number,
                                  check="gap.bad-header")
            header_seen = True
            continue
        if not text.strip():
            continue
        yield parse_example(text.split("\t"), file, number)


@dataclass(frozen=True)
class Prediction:
    """A system's decisions for one example; None where the label was not TRUE/FALSE."""

    id: str
    a_coref: bool | None
    b_coref: bool | None
    line: int


def _system_label(value: str) -> bool | None:
    lowered = value.lower()
    return True if lowered == "true" else False if lowered == "false" else None


def read_predictions(stream: BinaryIO, file: str) -> tuple[dict[str, Prediction], list[Repair]]:
    """The predictions of a system file by ID (the first of a repeated ID, as the official
    scorer keeps it), and warnings: repeated IDs, labels that are not TRUE/FALSE."""
    found: dict[str, Prediction] = {}
    warnings: list[Repair] = []
    columns = (0, 1, 2)
    for number, text in iter_lines(stream, file):
        fields = text.split("\t")
        if number == 1 and tuple(fields) == HEADER:
            columns = (0, 6, 9)
            continue
        if not text.strip() or (number == 1 and tuple(fields[:3]) == PREDICTION_HEADER):
            continue
        if len(fields) <= max(columns):
            raise FormatError(f"the row has {len(fields)} TAB-separated fields; a prediction "
                              "row has 3: ID, A-coref, B-coref", file=file, line=number,
                              check="gap.bad-columns")
        ident, a, b = (fields[i] for i in columns)
        if ident in found:
            warnings.append(Repair("gap.duplicate-id", f"ID {ident!r} was given on line "
                                   f"{found[ident].line} already; the first is scored",
                                   file=file, line=number, action="dropped"))
            continue
        prediction = Prediction(ident, _system_label(a), _system_label(b), number)
        if prediction.a_coref is None or prediction.b_coref is None:
            warnings.append(Repair("gap.bad-label", f"{ident}: A-coref {a!r}, B-coref {b!r}; "
                                   "a label other than TRUE/FALSE counts as a missed link, as "
                                   "the official scorer counts it", file=file, line=number))
        found[ident] = prediction
    return found, warnings
