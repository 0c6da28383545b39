"""CoNLL-2012 (OntoNotes coreference column): the reader.

Specification: ``formats/conll2012.md``. Documents are ``#begin document (name); part N`` …
``#end document``; the coreference field is the last column, a sequence of chunks ``(7``,
``7)`` and ``(7)`` with or without ``|`` between them. The reader accepts the LitBank, GUM,
OntoGUM and reference-test-suite dialects; the writer emits the 5-column OntoNotes layout
that every scorer reads, or the source layout, or GUM's 3-column layout.

Decision on ``(12+3)`` cells (SemEval-2010 style "double antecedent"): an id made of
numbers joined by ``+`` names the split-antecedent set of those entities. The reader keeps
the mention, gives it an entity of its own (original id ``12+3``) and records that entity as
the accommodated set of entities ``12`` and ``3``, with a ``conll.split-antecedent-id``
warning, because the reference scorer (v8.01) silently discards such mentions. CoNLL-2012
cannot hold split antecedents, so writing the document back reports the set as lost and
keeps the mention in its own chain.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from itertools import compress, count, repeat
from operator import add, itemgetter, not_
from typing import BinaryIO

from corefkit.converters.io import iter_line_chunks
from corefkit.converters.same_span import SpanOwners
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Entity, Sentence, Token
from corefkit.model.words import TokenLines, Words

BEGIN_RE = re.compile(r"^#\s*begin document\b(.*)$")
END_RE = re.compile(r"^#\s*end document\b")
PART_RE = re.compile(r"^part\s+(\S+)$")
# One chunk, or a "|" separator; group 1 = one-token id, 2 = opener id, 3 = closer id.
CHUNK_RE = re.compile(r"\(([^()|\s]+)\)|\(([^()|\s]+)|([^()|\s]+)\)|\|")
CELL_RE = re.compile(r"(?:\([^()|\s]+\)?|[^()|\s]+\)|\|)+")
# the chunks of a document's coreference cells joined by newlines; groups: 1 one-token id,
# 2 opener id, 3 closer id, 4 a cell end, 5 a character no chunk reads
LINE_CHUNK_RE = re.compile(r"\(([^()|\s]+)\)|\(([^()|\s]+)|([^()|\s]+)\)|(\n)|\||(.)")
SPLIT_ID_RE = re.compile(r"^\d+(?:\+\d+)+$")
GUM_ID_RE = re.compile(r"^([^-]+)-(\d+)(?:-(.*))?$")
EMPTY_CELLS = ("-", "_", "")
WHITESPACE_RE = re.compile(r"\s+")

def read_stream(stream: BinaryIO, file: str, *, parse_gum_ids: bool = False,
                first_line: int = 1) -> Iterator[Document]:
    """Documents of a CoNLL-2012 file, one at a time.

    The lines of one document are collected and then parsed as a block with list
    comprehensions, which is several times faster than a Python call per line; memory stays
    bounded by the largest document. ``parse_gum_ids`` splits GUM-style ids
    ``etype-GRP[-identity]`` into the entity attributes ``etype``, ``group`` and a
    percent-decoded ``identity``. ``first_line`` numbers the stream's first line (a stream that
    starts inside a file: :mod:`corefkit.scoring.shards`).
    """
    stem = os.path.splitext(os.path.basename(file))[0] or os.path.basename(file)
    block: list[str] | None = None
    begin_line = 0
    begin_text = ""
    unnamed = 0

    def build(end_line: int | None, missing_end: bool) -> Document:
        nonlocal unnamed
        assert block is not None
        begin = BEGIN_RE.match(begin_text)
        assert begin is not None  # a block starts at a begin line
        name, part = parse_begin(begin.group(1))
        builder = _DocumentBuilder(file, begin_line, name, part, begin_text, parse_gum_ids)
        if not name:
            unnamed += 1
            builder.doc.id = stem if unnamed == 1 else f"{stem}-{unnamed}"
            builder.repair("conll.empty-name", begin_line,
                           f"document without a name; named it {builder.doc.id!r} after the file")
        if missing_end:
            where = "the end of the file" if end_line is None else f"line {end_line}"
            builder.repair("conll.missing-end", begin_line,
                           f"the document opened here has no '#end document' before {where}; "
                           "closed it there")
        return builder.parse(block, end_line)

    number = first_line - 1  # lines before the current chunk
    for chunk in iter_line_chunks(stream, file):
        # Only lines starting with "#" need a look of their own; the lines between them are
        # moved into the current block in one slice.
        marks = list(compress(count(), map(str.startswith, chunk, repeat("#"))))
        marks.append(len(chunk))
        position = 0
        for mark in marks:
            if mark > position:
                if block is not None:
                    block.extend(chunk[position:mark])
                else:
                    for offset, line in enumerate(chunk[position:mark]):
                        if line and not line.isspace():
                            raise FormatError(
                                "token line outside a document; the file must start with "
                                "'#begin document'", file=file,
                                line=number + position + offset + 1,
                                check="conll.outside-document",
                            )
            if mark == len(chunk):
                break
            line = chunk[mark]
            line_number = number + mark + 1
            position = mark + 1
            if BEGIN_RE.match(line):
                if block is not None:
                    yield build(line_number, missing_end=True)
                block, begin_line, begin_text = [], line_number, line
            elif END_RE.match(line):
                if block is None:
                    raise FormatError("'#end document' without '#begin document'",
                                      file=file, line=line_number, check="conll.outside-document")
                doc = build(line_number, missing_end=False)
                doc.attrs["conll_end"] = line
                block = None
                yield doc
            elif block is not None:
                block.append(line)  # a comment inside a document
        number += len(chunk)
    if block is not None:
        yield build(None, missing_end=True)


def parse_begin(rest: str) -> tuple[str, str | None]:
    """(name, part spelling) from what follows ``begin document``."""
    rest = rest.strip()
    part = None
    if ";" in rest:
        rest, tail = rest.split(";", 1)
        tail = tail.strip()
        found = PART_RE.match(tail)
        if found:
            part = found.group(1)
        rest = rest.strip()
    if len(rest) >= 2 and rest[0] == "(" and rest[-1] == ")":
        rest = rest[1:-1]
    return rest, part


EMPTY_SET = frozenset(EMPTY_CELLS)


def _other_lines(lines: list[str]) -> list[int]:
    """Positions of the lines that are blank or comments (not token lines), ascending."""
    return [k for k, line in enumerate(lines) if not line or line[0] == "#" or line.isspace()]


def _tokens(rows: list[list[str]], bounds: list[tuple[int, int]]) -> list[Token]:
    """The token objects of a document: form, position, sentence, the other columns."""
    forms = [row[3] if len(row) >= 4 else (row[1] if len(row) == 2 else "_") for row in rows]
    tokens: list[Token] = []
    for index, (start, stop) in enumerate(bounds):
        tokens.extend([Token(forms[i], i, index, {"conll_columns": rows[i]})
                       for i in range(start, stop)])
    for row, token in zip(rows, tokens):
        if len(row) >= 11:  # the OntoNotes 12+N layout: POS, lemma, speaker
            token.xpos = row[4]
            if row[6] not in ("-", "_"):
                token.lemma = row[6]
            if row[9] not in ("-", "_"):
                token.speaker = row[9]
    return tokens


class _DocumentBuilder:
    """Turns the lines of one document into a :class:`Document`."""

    def __init__(self, file: str, line: int, name: str, part: str | None, begin: str,
                 parse_gum_ids: bool) -> None:
        self.file = file
        self.doc = Document(name, part, file=file)
        self.doc.line = line
        self.doc.attrs["conll_begin"] = begin
        self.first = line + 1  # file line number of the block's first line
        self.parse_gum_ids = parse_gum_ids
        self.open: dict[str, list[tuple[int, int]]] = {}
        self.entities: dict[str, Entity] = {}
        # the mentions read, in file order: (entity, first token, last token, line)
        self.mentions: list[tuple[Entity, int, int, int]] = []

    def repair(self, check: str, line: int | None, message: str, action: str = "kept") -> None:
        self.doc.repairs.append(Repair(check, message, self.file, line, None, self.doc.id, action))

    # ------------------------------------------------------------------ the block
    def parse(self, lines: list[str], end_line: int | None) -> Document:
        doc = self.doc
        first = self.first
        # the lines that are blank or comments (few); every other line is a token line, and the
        # token lines are the runs between them
        others = _other_lines(lines)
        rows_at: list[int] = []
        texts: list[str] = []
        for a, b in zip([-1, *others], [*others, len(lines)]):
            rows_at.extend(range(a + 1, b))
            texts.extend(lines[a + 1:b])
        cells, widths, distinct, split = self._fields(texts, rows_at)
        if texts and min(distinct) < 2:
            bad = next(i for i, w in enumerate(widths) if w < 2)
            raise FormatError(
                f"expected at least 2 columns (document and coreference), found {widths[bad]}",
                file=self.file, line=first + rows_at[bad], check="conll.too-few-columns",
            )
        if 2 in distinct or 4 in distinct:
            short = next(i for i, w in enumerate(widths) if w in (2, 4))
            self.repair("conll.no-word-column", first + rows_at[short],
                        f"{widths[short]}-column layout without a word column; forms set to '_'")
        bounds = self._sentences(lines, rows_at, others)

        def columns() -> list[list[str]]:  # every column but the coreference one, per line
            return split if split is not None else [text.split("\t")[:-1] for text in texts]

        def words() -> Words:  # what scoring compares, without building tokens
            starts = [start for start, _ in bounds]
            if split is None and min(distinct) >= 5:
                # the token lines are the signature (lines equal but for their coreference
                # cell have equal forms); the forms (4th column) are split out only if needed
                return Words(len(texts), lambda: list(map(itemgetter(3), map(
                    str.split, texts, repeat("\t"), repeat(4)))), starts, None,
                    TokenLines(texts))
            return Words(len(texts), lambda: [
                row[3] if len(row) >= 4 else (row[1] if len(row) == 2 else "_")
                for row in columns()], starts)

        # Token objects are built only when someone asks for them (scoring never does).
        doc.defer_tokens(len(texts), lambda: _tokens(columns(), bounds), words)
        if texts and max(distinct) >= 12:
            self._ontonotes_columns(columns(), widths, bounds, rows_at)
        marked = list(compress(count(), map(not_, map(EMPTY_SET.__contains__, cells))))
        self._coreference(marked, cells, texts, rows_at)
        self._finish(end_line)
        doc.attrs["conll_empty"] = next((c for c in cells if c in EMPTY_SET), "-")
        # token lines are contiguous when no line is blank or a comment
        doc.attrs["conll_blank_lines"] = bool(others) and (len(bounds) > 1 or any(
            lines[k][:1] != "#" for k in others))
        doc.attrs["conll_columns"] = widths[0] if widths else None
        return doc

    def _fields(self, texts: list[str], rows_at: list[int]
                ) -> tuple[list[str], list[int], set[int], list[list[str]] | None]:
        """The coreference cell and the width (number of columns) of every token line, the
        distinct widths, and the lines split into columns unless all are TAB-separated (their
        other columns are then split only when tokens or OntoNotes columns are asked for)."""
        tab_counts = set(map(str.count, texts, repeat("\t")))
        if 0 not in tab_counts:  # every line TAB-separated: the last field, no splitting
            cells = list(map(itemgetter(2), map(str.rpartition, texts, repeat("\t"))))
            if len(tab_counts) == 1:  # the hot path: one layout, no per-line widths to count
                width = tab_counts.pop() + 1
                return cells, [width] * len(texts), {width}, None
            widths = list(map(add, map(str.count, texts, repeat("\t")), repeat(1)))
            return cells, widths, set(widths), None
        tabs = list(map(str.count, texts, repeat("\t")))  # some are 0: spaces separate there
        if max(tabs) > 0:
            odd = next(i for i, n in enumerate(tabs) if (n > 0) != (tabs[0] > 0))
            self.repair("conll.mixed-separators", self.first + rows_at[odd],
                        "the document mixes TAB- and space-separated lines")
        split = [text.split("\t") if tab else text.split() for text, tab in zip(texts, tabs)]
        widths = [len(row) for row in split]
        cells = [row.pop() if row else "" for row in split]
        return cells, widths, set(widths), split

    def _sentences(self, lines: list[str], rows_at: list[int],
                   others: list[int]) -> list[tuple[int, int]]:
        """Sentence token ranges (a blank line ends a sentence) and comment placement.

        Only the lines between token lines (``others``: blank lines and comments, ascending)
        are looked at, run by run; a comment goes to the sentence of the next token (the last
        sentence for comments after the last token).
        """
        n = len(rows_at)
        bounds: list[tuple[int, int]] = []
        comments: dict[int, list[str]] = {}
        start = 0
        run = 0
        while run < len(others):
            end = run
            while end + 1 < len(others) and others[end + 1] == others[end] + 1:
                end += 1
            first_line, last_line = others[run], others[end]
            i = first_line - run  # the token lines before this run
            between = lines[first_line:last_line + 1]
            if 0 < i < n and any(not line or line.isspace() for line in between):
                bounds.append((start, i))
                start = i
            for offset, line in enumerate(between):
                if line[:1] == "#":
                    self.repair("conll.comment-in-document", self.first + first_line + offset,
                                "comment line inside a document (the reference scorer reads "
                                "it as a token); kept it as a comment of the next sentence")
                    comments.setdefault(len(bounds), []).append(line)
            run = end + 1
        if n:
            bounds.append((start, n))
        for index, (a, b) in enumerate(bounds):
            self.doc.sentences.append(Sentence(index, a, b, comments=comments.pop(index, [])))
        if comments:  # after the last token, or in a document without tokens
            trailing = [line for index in sorted(comments) for line in comments[index]]
            if self.doc.sentences:
                self.doc.sentences[-1].comments.extend(trailing)
            else:
                self.doc.attrs["conll_comments"] = trailing
        return bounds

    def _ontonotes_columns(self, rows: list[list[str]], widths: list[int],
                           bounds: list[tuple[int, int]], rows_at: list[int]) -> None:
        """The 12+N OntoNotes layout: sentence speakers; word numbers are checked."""
        for start, stop in bounds:
            for i in range(start, stop):
                word = rows[i][2] if widths[i] >= 12 else None
                if word is not None and word.isdecimal() and int(word) != i - start:
                    self.repair("conll.word-number", self.first + rows_at[i],
                                f"word number {word} where {i - start} was expected; word "
                                "numbers are ignored, lines are counted")
                    break
            else:
                continue
            break
        for sentence, (start, stop) in zip(self.doc.sentences, bounds):
            speakers = {rows[i][9] for i in range(start, stop) if widths[i] >= 12}
            if len(speakers) == 1:
                speaker = speakers.pop()
                if speaker not in ("-", "_"):
                    sentence.speaker = speaker

    # ------------------------------------------------------------------ coreference
    def _coreference(self, marked: list[int], cells: list[str], texts: list[str],
                     rows_at: list[int]) -> None:
        """The mentions of the coreference cells ``marked`` (token indices), in file order.

        The cells are cut into chunks by one regular expression over all of them (a newline
        between cells); a character no chunk reads sends the cells to :meth:`_bad_cell`, which
        finds and reports the first cell that does not read.
        """
        if not marked:
            return
        joined = "\n".join([cells[i] for i in marked])
        found = LINE_CHUNK_RE.findall(joined + "\n")
        if any(map(itemgetter(4), found)):
            for i in marked:
                if CELL_RE.fullmatch(cells[i]) is None:
                    raise self._bad_cell(self.first + rows_at[i], texts[i], cells[i])
        first = self.first
        mention = self.mentions.append
        entities = self.entities
        opened = self.open
        cell = 0
        chunks: list[tuple[str, str, str]] = []
        for single, opener, closer, end, _ in found:
            if not end:
                if single or opener or closer:
                    chunks.append((single, opener, closer))
                continue
            i = marked[cell]
            cell += 1
            # the common cells, one chunk each, inline; the others in file order by _chunks
            if len(chunks) != 1:
                self._chunks(first + rows_at[i], texts[i], cells[i], i, chunks)
                chunks = []
                continue
            single, opener, closer = chunks[0]
            if single:
                mention((entities.get(single) or self._entity(single), i, i, first + rows_at[i]))
            elif opener:
                self._entity(opener)
                opened.setdefault(opener, []).append((i, first + rows_at[i]))
            elif opened.get(closer):
                start, start_line = opened[closer].pop()
                mention((entities[closer], start, i, start_line))
            else:
                self._chunks(first + rows_at[i], texts[i], cells[i], i, chunks)
            chunks = []

    def _bad_cell(self, number: int, line: str, cell: str) -> FormatError:
        covered = 0
        for match in CHUNK_RE.finditer(cell):
            if match.start() != covered:
                break
            covered = match.end()
        return FormatError(
            f"cannot read the coreference field {cell!r} at character {covered + 1}; "
            "expected chunks like (7, 7) or (7) separated by nothing or '|'",
            file=self.file, line=number, column=len(line) - len(cell) + covered + 1,
            check="conll.bad-chunk",
        )

    def _chunks(self, number: int, line: str, cell: str, index: int,
                chunks: list[tuple[str, str, str]]) -> None:
        """The mentions a cell's chunks (single, opener, closer) open and close."""
        # Entities are created in the order the reference scorer indexes them: a line's one-token
        # mentions before its opening brackets. Its repeated-mention rule keeps a response extent
        # in the first entity in that order (see corefkit.scoring.align), so the order matters.
        for cid in [s for s, _, _ in chunks if s] + [o for _, o, _ in chunks if o]:
            self._entity(cid)
        for single, opener, closer in chunks:
            if single:
                self._mention(single, index, index, number)
            elif opener:
                self.open.setdefault(opener, []).append((index, number))
            elif closer:
                stack = self.open.get(closer)
                if not stack:
                    raise FormatError(
                        f"closing chunk '{closer})' but no mention of {closer!r} is open; "
                        "check the lines above for a missing opening bracket",
                        file=self.file, line=number,
                        column=len(line) - len(cell) + cell.find(closer + ")") + 1,
                        check="conll.unbalanced-close",
                    )
                start, start_line = stack.pop()
                self._mention(closer, start, index, start_line)

    def _entity(self, cid: str) -> Entity:
        entity = self.entities.get(cid)
        if entity is None:
            attrs: dict[str, str] = {"original_id": cid}
            if self.parse_gum_ids:
                found = GUM_ID_RE.match(cid)
                if found:
                    attrs["etype"] = found.group(1)
                    attrs["group"] = found.group(2)
                    if found.group(3):
                        attrs["identity"] = _percent_decode(found.group(3))
            entity = self.doc.new_entity(attrs=attrs)
            self.entities[cid] = entity
        return entity

    def _mention(self, cid: str, start: int, end: int, line: int) -> None:
        self.mentions.append((self._entity(cid), start, end, line))

    def _repeated_spans(self) -> None:
        """Report spans annotated more than once (rare, so looked for only when the number of
        distinct spans says there are some): a second mention of the same id is dropped, a
        mention of another id kept (the merge-same-span pass resolves them)."""
        mentions = self.mentions
        if len(set(map(itemgetter(1, 2), mentions))) == len(mentions):
            return
        seen = SpanOwners()
        kept = []
        for found in mentions:
            entity, start, end, line = found
            cid = entity.attrs["original_id"]
            repeat = seen.add((start, end), cid)
            if repeat is not None and repeat.duplicate:
                self.repair("conll.duplicate-mention", line,
                            f"mention {start}-{end} of {cid!r} is annotated twice; kept one",
                            action="dropped")
                continue
            if repeat is not None:
                self.repair("conll.same-span-mentions", line,
                            f"tokens {start}-{end} are a mention of {cid!r} and of "
                            f"{repeat.others}; kept both (the merge-same-span pass resolves them)")
            kept.append(found)
        self.mentions = kept

    def _finish(self, end_line: int | None) -> None:
        doc = self.doc
        self._repeated_spans()
        # the reader's spans are inside the document and its entities are the document's own
        doc.defer_mentions(self.mentions)
        unclosed = [(cid, line) for cid, stack in self.open.items() for _, line in stack]
        if unclosed:
            listed = ", ".join(f"{cid!r} opened on line {line}" for cid, line in sorted(
                unclosed, key=lambda x: x[1]))
            raise FormatError(
                f"document {doc.name!r} ends with mentions still open: {listed}",
                file=self.file, line=end_line if end_line is not None else unclosed[0][1],
                check="conll.unclosed",
            )
        for cid, entity in list(self.entities.items()):
            if SPLIT_ID_RE.match(cid):
                self._split_antecedent(cid, entity)

    def _split_antecedent(self, cid: str, set_entity: Entity) -> None:
        members = []
        for part in cid.split("+"):
            member = self.entities.get(part)
            if member is None:
                self.repair("conll.split-antecedent-id", self.doc.line,
                            f"{cid!r} names entity {part!r}, which has no mention; "
                            "that member is left out", action="dropped")
            elif member not in members:
                members.append(member)
        for member in members:
            self.doc.add_to_set(member, set_entity, evidence=self.doc.mentions_of(set_entity))
        self.repair("conll.split-antecedent-id", self.doc.line,
                    f"id {cid!r} read as the split-antecedent set of entities "
                    f"{', '.join(repr(p) for p in cid.split('+'))} (the reference scorer discards "
                    "such mentions)")


def _percent_decode(text: str) -> str:
    return re.sub(r"%([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)
