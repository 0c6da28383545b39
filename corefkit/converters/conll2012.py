"""CoNLL-2012 (OntoNotes coreference column): reader and writer.

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
from collections.abc import Iterable, Iterator
from typing import IO, BinaryIO

from corefkit.converters.io import iter_lines
from corefkit.converters.loss import ConversionReport, crossing_same_entity_mentions
from corefkit.errors import FormatError, Repair, UsageError
from corefkit.model import IDENTITY, Document, Entity, Mention, Sentence, Token

BEGIN_RE = re.compile(r"^#\s*begin document\b(.*)$")
END_RE = re.compile(r"^#\s*end document\b")
SNIFF_RE = re.compile(r"^#\s*begin document", re.MULTILINE)
PART_RE = re.compile(r"^part\s+(\S+)$")
# One chunk, or a "|" separator; group 1 = one-token id, 2 = opener id, 3 = closer id.
CHUNK_RE = re.compile(r"\(([^()|\s]+)\)|\(([^()|\s]+)|([^()|\s]+)\)|\|")
SPLIT_ID_RE = re.compile(r"^\d+(?:\+\d+)+$")
GUM_ID_RE = re.compile(r"^([^-]+)-(\d+)(?:-(.*))?$")
EMPTY_CELLS = ("-", "_", "")
WHITESPACE_RE = re.compile(r"\s+")

LAYOUTS = ("default", "source", "gum")


def sniff(head: str) -> bool:
    return SNIFF_RE.search(head) is not None


# ============================================================================ reading
def read_stream(stream: BinaryIO, file: str, *, parse_gum_ids: bool = False) -> Iterator[Document]:
    """Documents of a CoNLL-2012 file, one at a time.

    ``parse_gum_ids`` splits GUM-style ids ``etype-GRP[-identity]`` into the entity
    attributes ``etype``, ``group`` and a percent-decoded ``identity``.
    """
    stem = os.path.basename(file)
    for suffix in (".gz",):
        stem = stem.removesuffix(suffix)
    stem = os.path.splitext(stem)[0] or stem
    builder: _DocumentBuilder | None = None
    unnamed = 0
    for number, line in iter_lines(stream, file):
        if line.startswith("#"):
            begin = BEGIN_RE.match(line)
            if begin:
                if builder is not None:
                    builder.repair("conll.missing-end", number,
                                   "'#begin document' while a document is open; closed it here")
                    yield builder.finish(number)
                name, part = _parse_begin(begin.group(1))
                builder = _DocumentBuilder(file, number, name, part, line, parse_gum_ids)
                if not name:
                    unnamed += 1
                    builder.doc.id = stem if unnamed == 1 else f"{stem}-{unnamed}"
                    builder.repair("conll.empty-name", number,
                                   f"document without a name; named it {builder.doc.id!r} "
                                   "after the file")
                continue
            if END_RE.match(line):
                if builder is None:
                    raise FormatError("'#end document' without '#begin document'",
                                      file=file, line=number, check="conll.outside-document")
                builder.doc.attrs["conll_end"] = line
                yield builder.finish(number)
                builder = None
                continue
            if builder is not None:
                builder.comment(number, line)
            continue  # comments between documents are allowed
        if not line.strip():
            if builder is not None:
                builder.end_sentence()
            continue
        if builder is None:
            raise FormatError(
                "token line outside a document; the file must start with '#begin document'",
                file=file, line=number, check="conll.outside-document",
            )
        builder.token(number, line)
    if builder is not None:
        builder.repair("conll.missing-end", None,
                       "end of file inside a document; closed the document there")
        yield builder.finish(None)


def _parse_begin(rest: str) -> tuple[str, str | None]:
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


class _DocumentBuilder:
    """Accumulates one document while its lines are read."""

    def __init__(self, file: str, line: int, name: str, part: str | None, begin: str,
                 parse_gum_ids: bool) -> None:
        self.file = file
        self.doc = Document(name, part, file=file)
        self.doc.line = line
        self.doc.attrs["conll_begin"] = begin
        self.parse_gum_ids = parse_gum_ids
        self.sentence_start = 0
        self.sentence_word = 0
        self.pending_comments: list[str] = []
        self.open: dict[str, list[tuple[int, int]]] = {}
        self.entities: dict[str, Entity] = {}
        self.spans: dict[tuple[int, int], list[tuple[str, Mention]]] = {}
        self.empty_markers: dict[str, int] = {}
        self.reported: set[str] = set()
        self.blank_lines = False
        self.layout: int | None = None
        self.separator: str | None = None

    def repair(self, check: str, line: int | None, message: str, action: str = "kept",
               once: bool = False) -> None:
        if once:
            if check in self.reported:
                return
            self.reported.add(check)
        self.doc.repairs.append(Repair(check, message, self.file, line, None, self.doc.id, action))

    def comment(self, number: int, line: str) -> None:
        self.repair("conll.comment-in-document", number,
                    "comment line inside a document (the reference scorer reads it as a token); "
                    "kept it as a comment of the next sentence")
        self.pending_comments.append(line)

    def end_sentence(self) -> None:
        self.blank_lines = True
        if len(self.doc.tokens) > self.sentence_start:
            self._close_sentence()

    def _close_sentence(self) -> None:
        doc = self.doc
        sentence = Sentence(len(doc.sentences), self.sentence_start, len(doc.tokens),
                            comments=self.pending_comments)
        doc.sentences.append(sentence)
        self.pending_comments = []
        speakers = {doc.tokens[i].speaker for i in range(sentence.start, sentence.stop)}
        if len(speakers) == 1:
            sentence.speaker = speakers.pop()
        self.sentence_start = len(doc.tokens)
        self.sentence_word = 0

    def token(self, number: int, line: str) -> None:
        doc = self.doc
        if "\t" in line:
            fields = line.split("\t")
            separator = "tab"
        else:
            fields = line.split()
            separator = "space"
        if separator != self.separator:
            if self.separator is not None:
                self.repair("conll.mixed-separators", number,
                            "the document mixes TAB- and space-separated lines", once=True)
            self.separator = separator
        n = len(fields)
        if n >= 5:
            form = fields[3]
            word = fields[2]
            if word.isdigit() and int(word) != self.sentence_word:
                self.repair("conll.word-number", number,
                            f"word number {word} where {self.sentence_word} was expected; "
                            "word numbers are ignored, lines are counted", once=True)
        elif n == 3:
            form = fields[1]
        elif n < 2:
            raise FormatError(
                f"expected at least 2 columns (document and coreference), found {n}",
                file=self.file, line=number, check="conll.too-few-columns",
            )
        else:
            form = "_"
            self.repair("conll.no-word-column", number,
                        f"{n}-column layout without a word column; forms set to '_'", once=True)
        if self.layout is None:
            self.layout = n
        index = len(doc.tokens)
        cell = fields.pop()
        token = Token(form, index, len(doc.sentences), {"conll_columns": fields})
        if n >= 12:  # OntoNotes 12+N layout: POS, lemma, speaker are interpreted
            token.xpos = fields[4]
            if fields[6] not in ("-", "_"):
                token.lemma = fields[6]
            if fields[9] not in ("-", "_"):
                token.speaker = fields[9]
        doc.tokens.append(token)
        self.sentence_word += 1
        if cell in EMPTY_CELLS:
            self.empty_markers[cell] = self.empty_markers.get(cell, 0) + 1
            return
        self._chunks(number, line, cell, index)

    def _chunks(self, number: int, line: str, cell: str, index: int) -> None:
        covered = 0
        for match in CHUNK_RE.finditer(cell):
            if match.start() != covered:
                break
            covered = match.end()
            single, opener, closer = match.group(1), match.group(2), match.group(3)
            if single is not None:
                self._mention(single, index, index, number)
            elif opener is not None:
                self._entity(opener)
                self.open.setdefault(opener, []).append((index, number))
            elif closer is not None:
                stack = self.open.get(closer)
                if not stack:
                    raise FormatError(
                        f"closing chunk '{closer})' but no mention of {closer!r} is open; "
                        "check the lines above for a missing opening bracket",
                        file=self.file, line=number, column=len(line) - len(cell) + match.start() + 1,
                        check="conll.unbalanced-close",
                    )
                start, start_line = stack.pop()
                self._mention(closer, start, index, start_line)
        if covered != len(cell):
            raise FormatError(
                f"cannot read the coreference field {cell!r} at character {covered + 1}; "
                "expected chunks like (7, 7) or (7) separated by nothing or '|'",
                file=self.file, line=number, column=len(line) - len(cell) + covered + 1,
                check="conll.bad-chunk",
            )

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
        same_span = self.spans.setdefault((start, end), [])
        for other_id, _ in same_span:
            if other_id == cid:
                self.repair("conll.duplicate-mention", line,
                            f"mention {start}-{end} of {cid!r} is annotated twice; kept one",
                            action="dropped")
                return
        entity = self._entity(cid)
        mention = self.doc.add_mention(range(start, end + 1), entity, line=line,
                                       attrs={"conll_id": cid})
        if same_span:
            others = ", ".join(repr(o) for o, _ in same_span)
            self.repair("conll.same-span-mentions", line,
                        f"tokens {start}-{end} are a mention of {cid!r} and of {others}; kept both "
                        "(the merge-same-span pass resolves them)")
        same_span.append((cid, mention))

    def finish(self, end_line: int | None) -> Document:
        doc = self.doc
        if len(doc.tokens) > self.sentence_start:
            self._close_sentence()
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
        if self.empty_markers:
            doc.attrs["conll_empty"] = max(self.empty_markers, key=self.empty_markers.get)
        doc.attrs["conll_blank_lines"] = self.blank_lines
        doc.attrs["conll_columns"] = self.layout
        return doc

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


# ============================================================================ writing
def loss_actions(**options: object) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {"split_antecedents": "dropped (set entities stay ordinary chains)"}


def write_stream(
    documents: Iterable[Document],
    out: IO[str],
    report: ConversionReport,
    *,
    layout: str = "default",
    keep_ids: bool = False,
) -> None:
    """Write documents as CoNLL-2012.

    ``layout``: ``default`` (5 TAB-separated columns), ``source`` (the columns, begin line and
    empty-cell marker the document was read with, when it came from CoNLL-2012) or ``gum``
    (GUM's 3 columns). ``keep_ids`` writes the original id strings instead of 0…n-1.
    """
    if layout not in LAYOUTS:
        raise UsageError(f"unknown CoNLL-2012 layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    for doc in documents:
        _write_document(doc, out, report, layout, keep_ids)


def _written_mentions(doc: Document, report: ConversionReport) -> list[tuple[Mention, int, int, Entity]]:
    """The mentions CoNLL-2012 can hold, as (mention, first row, last row, entity).

    Rows count written tokens (empty nodes are not written). Discontinuous mentions, zeros,
    unlinked and non-identity mentions are left out (the loss report counts them); of two
    crossing mentions of one entity the later one is left out.
    """
    crossing = set(crossing_same_entity_mentions(doc))
    row_of = {}
    row = 0
    for token in doc.tokens:
        if not token.is_empty:
            row_of[token.index] = row
            row += 1
    written = []
    for mention in doc.sorted_mentions():
        entity = doc.entity_of(mention)
        if (entity is None or entity.layer != IDENTITY or entity.pseudo
                or not mention.is_contiguous or mention in crossing):
            continue
        rows = [row_of[t] for t in mention.tokens if t in row_of]
        if not rows:
            continue  # a zero mention
        written.append((mention, rows[0], rows[-1], entity))
    return written


def _cells(doc: Document, report: ConversionReport, keep_ids: bool) -> dict[int, list[str]]:
    """Chunk lists per written row, in the canonical order of conversion-notes §5."""
    written = _written_mentions(doc, report)
    ids: dict[Entity, str] = {}
    for _, _, _, entity in written:  # numbered by first mention in canonical order
        if entity not in ids:
            original = str(entity.attrs.get("original_id", ""))
            ids[entity] = original if keep_ids and original else str(len(ids))
    renumbered = {str(e.attrs["original_id"]): i for e, i in ids.items()
                  if "original_id" in e.attrs and str(e.attrs["original_id"]) != i}
    if renumbered:
        report.id_maps[doc.name] = renumbered
    rank = {e: i for i, e in enumerate(ids)}
    openers: dict[int, list[tuple[int, int, Entity]]] = {}
    closers: dict[int, list[tuple[int, int, Entity]]] = {}
    singles: dict[int, list[Entity]] = {}
    for _, first, last, entity in written:
        if first == last:
            singles.setdefault(first, []).append(entity)
        else:
            openers.setdefault(first, []).append((first, last, entity))
            closers.setdefault(last, []).append((first, last, entity))
    cells: dict[int, list[str]] = {}
    touching: set[tuple[int, Entity]] = set()
    for row in sorted(set(openers) | set(closers) | set(singles)):
        # closers: latest start first (inner before outer); equal spans: reverse entity order
        close = sorted(closers.get(row, ()), key=lambda c: (-c[0], -rank[c[2]]))
        # openers: latest end first (outer before inner); equal spans: entity order
        open_ = sorted(openers.get(row, ()), key=lambda o: (-o[1], rank[o[2]]))
        one = sorted(singles.get(row, ()), key=rank.__getitem__)
        close_chunks = [f"{ids[e]})" for _, _, e in close]
        open_chunks = [f"({ids[e]}" for _, _, e in open_]
        one_chunks = [f"({ids[e]})" for e in one]
        if open_:
            cells[row] = close_chunks + open_chunks + one_chunks
        else:
            cells[row] = one_chunks + close_chunks
        closing = {e for _, _, e in close}
        for _, _, e in open_:
            if e in closing and (row, e) not in touching:
                touching.add((row, e))
                report.repairs.append(Repair(
                    "conll.shared-token-same-entity",
                    f"two mentions of entity {ids[e]} share token row {row} ('{ids[e]})|({ids[e]}'); "
                    "the reference scorer reads all openers of a line before its closers and "
                    "misreads this", document=doc.name))
    return cells


def _write_document(doc: Document, out: IO[str], report: ConversionReport, layout: str,
                    keep_ids: bool) -> None:
    cells = _cells(doc, report, keep_ids)
    source = layout == "source" and "conll_begin" in doc.attrs
    if layout == "source" and not source:
        report.repairs.append(Repair(
            "conll.no-source-layout",
            "the document was not read from CoNLL-2012; wrote the default layout instead",
            document=doc.name))
    part = doc.part if doc.part is not None else "0"
    part_number = str(int(part)) if part.isdigit() else part
    if source:
        begin = doc.attrs["conll_begin"]
        if not BEGIN_RE.match(begin) or _parse_begin(BEGIN_RE.match(begin).group(1))[0] != doc.id:
            begin = f"#begin document ({doc.id}); part {part}"
        end = doc.attrs.get("conll_end", "#end document")
        empty = doc.attrs.get("conll_empty", "-")
        separator = "|"
        blank_lines = doc.attrs.get("conll_blank_lines", True)
    elif layout == "gum":
        begin = f"# begin document {doc.id}"
        end = "# end document"
        empty = "_"
        separator = ""
        blank_lines = False
    else:
        padded = part.zfill(3) if part.isdigit() else part
        begin = f"#begin document ({doc.id}); part {padded}"
        end = "#end document"
        empty = "-"
        separator = "|"
        blank_lines = True
    lines = [begin]
    row = 0
    form_fixed = 0
    for sentence in doc.sentences:
        word = 0
        for index in range(sentence.start, sentence.stop):
            token = doc.tokens[index]
            if token.is_empty:
                continue
            chunks = cells.get(row)
            cell = separator.join(chunks) if chunks else empty
            if source and "conll_columns" in token.attrs:
                lines.append("\t".join([*token.attrs["conll_columns"], cell]))
            else:
                form = token.form
                if not form or WHITESPACE_RE.search(form):
                    form = WHITESPACE_RE.sub("_", form) or "_"
                    form_fixed += 1
                if layout == "gum":
                    lines.append(f"{row}\t{form}\t{cell}")
                else:
                    lines.append(f"{doc.id}\t{part_number}\t{word}\t{form}\t{cell}")
            row += 1
            word += 1
        if blank_lines and word:
            lines.append("")
    lines.append(end)
    out.write("\n".join(lines) + "\n")
    if form_fixed:
        report.repairs.append(Repair(
            "conll.form-whitespace",
            f"{form_fixed} word forms were empty or contained whitespace; wrote '_' instead",
            document=doc.name, action="renamed"))
