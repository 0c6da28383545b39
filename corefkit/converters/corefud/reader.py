"""CoNLL-U with coreference in MISC (CorefUD 1.x and the UA compact format): the reader.

Specification: ``formats/corefud.md`` (profiles ``corefud`` and ``ua-compact``, one codec) and
``formats/conversion-notes.md``. A file is a CoNLL-U file whose MISC column carries
``Entity`` (mention brackets), ``SplitAnte`` (split antecedents) and ``Bridge`` (bridging);
``# newdoc`` starts a document and ``# global.Entity`` names the ``-``-separated fields of
every opening bracket.

Reading keeps every line the model does not interpret verbatim: the ten columns of a token
line are stored as the strings of the file (MISC whole, never through a parser that
normalises it), comments per sentence, multiword-token range lines on the word they precede,
and the raw opening-bracket text of every mention, so that the writer (:mod:`.writer`) can
give an untouched document back byte for byte.

This module reads the lines (comments, token ids, sentences, documents); the coreference
items of MISC are read by :class:`~corefkit.converters.corefud.coreference.CoreferenceReader`,
the base class of the document builder, with the grammar of :mod:`.misc`.

Documents are read one at a time; memory is bounded by the largest document.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import BinaryIO

from corefkit.converters.conllu_comments import (
    NEWDOC_RE,
    PART_META_RE,
    SENT_ID_RE,
    SPEAKER_RE,
    restore_part,
)
from corefkit.converters.corefud.coreference import CoreferenceReader
from corefkit.converters.corefud.misc import DECLARATION_RE, ID_FIELDS, META_RE
from corefkit.converters.io import iter_line_chunks
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Sentence, Token

WORD_ID_RE = re.compile(r"^[1-9][0-9]*$")
EMPTY_ID_RE = re.compile(r"^([0-9]+)\.([1-9][0-9]*)$")
MWT_ID_RE = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")


def read_stream(stream: BinaryIO, file: str, *, entity_fields: str | None = None) -> Iterator[Document]:
    """Documents of a CoNLL-U file, one at a time.

    ``entity_fields`` is the ``global.Entity`` declaration to assume for files that have
    ``Entity`` values but no declaration (e.g. ``eid-etype-head-other``).
    """
    stem = os.path.basename(file)
    stem = os.path.splitext(stem)[0] or stem
    if entity_fields is not None:
        _check_declaration(entity_fields, file, None)
    state = _FileState(file, stem, entity_fields)
    builder: _DocumentBuilder | None = None
    token_class = Token
    number = 0
    for lines in iter_line_chunks(stream, file):
        for line in lines:
            number += 1
            if not line or line.isspace():
                if builder is not None:
                    builder.end_sentence(number)
                continue
            if line[0] == "#":
                if "newdoc" in line:
                    found = NEWDOC_RE.match(line)
                    if found is not None:
                        if builder is not None and builder.tokens:
                            yield builder.finish(number)
                            builder = None
                        if builder is None:
                            builder = _DocumentBuilder(state, number)
                        builder.newdoc(number, line, found.group(1))
                        continue
                if builder is None:
                    builder = _DocumentBuilder(state, number)
                builder.comment(number, line)
                continue
            if builder is None:
                builder = _DocumentBuilder(state, number)
            # ---- token line: the hot path
            fields = line.split("\t")
            if len(fields) != 10:
                raise FormatError(
                    f"a CoNLL-U token line has 10 TAB-separated fields, found {len(fields)}; "
                    "check for spaces used instead of TABs or for a missing column",
                    file=file, line=number, check="corefud.bad-columns")
            tid = fields[0]
            misc = fields[9]
            if tid.isdigit() and tid.isascii():
                builder.word_id(number, tid)
            elif "-" in tid:
                builder.multiword(number, line, fields)
                continue
            else:
                builder.empty_node_id(number, tid)
            tokens = builder.tokens
            token = token_class(fields[1], len(tokens), builder.sentence_index, None, tid,
                                fields[2], fields[3], fields[4], fields[5], fields[6], fields[7],
                                fields[8], misc, None, "." in tid)
            if builder.pending_mwt is not None:
                token.attrs["conllu_mwt"] = builder.pending_mwt
                builder.pending_mwt = None
            tokens.append(token)
            if builder.sentence_first_line is None:
                builder.sentence_first_line = number
            if "=" in misc and ("Entity=" in misc or "Bridge=" in misc or "Split" in misc):
                builder.coreference(number, line, misc, token.index)
    if builder is not None and builder.tokens:
        yield builder.finish(None)


def _check_declaration(declaration: str, file: str | None, line: int | None) -> list[str]:
    names = declaration.split("-")
    if not any(n in ID_FIELDS for n in names):
        raise FormatError(
            f"the global.Entity declaration {declaration!r} has no id field; it must contain "
            "'eid' (CorefUD) or 'GRP' (UA compact), e.g. 'eid-etype-head-other'",
            file=file, line=line, check="corefud.global-entity-no-id")
    if any(not n for n in names):
        raise FormatError(
            f"the global.Entity declaration {declaration!r} has an empty field name",
            file=file, line=line, check="corefud.global-entity-bad")
    return names


class _FileState:
    """What lives for the whole file: its name, the declaration in force, eids of earlier
    documents (an eid must not repeat after a later ``# newdoc``)."""

    def __init__(self, file: str, stem: str, entity_fields: str | None) -> None:
        self.file = file
        self.stem = stem
        self.declaration = entity_fields
        self.declaration_line: int | None = None
        self.assumed = entity_fields is not None
        self.earlier_eids: set[str] = set()
        self.anonymous = 0
        self.reported: set[str] = set()


class _DocumentBuilder(CoreferenceReader):
    """Accumulates one document while its lines are read."""

    def __init__(self, state: _FileState, line: int) -> None:
        self.state = state
        self.file = state.file
        self.doc = Document("", None, file=state.file)
        self.doc.line = line
        self.doc.attrs["conllu"] = True
        self.tokens = self.doc.tokens
        self.sentence_index = 0
        self.sentence_start = 0
        self.sentence_first_line: int | None = None
        self.sentence_comment_line: int | None = None
        self.comments: list[str] = []
        self.doc_comments: list[tuple[int, str, str]] = []  # (position, kind, raw line)
        self.pending_mwt: str | None = None
        self.mwt_end = 0
        self.named = False
        self.part: str | None = None  # from a "# meta::part" line
        self.next_word = 1   # the id the next word line must have
        self.next_empty = 1  # the M of the next empty node N.M
        self.set_declaration(state.declaration)
        self.had_declaration = False
        self.init_coreference()

    # ------------------------------------------------------------------ comments
    def newdoc(self, number: int, line: str, doc_id: str | None) -> None:
        self.doc.line = number
        self.doc_comments.append((len(self.comments), "newdoc", line))
        if doc_id:
            self.doc.id = doc_id
            self.named = True

    def comment(self, number: int, line: str) -> None:
        if self.sentence_comment_line is None:
            self.sentence_comment_line = number
        if line.startswith("# global.") or line.startswith("#global."):
            found = DECLARATION_RE.match(line)
            if self.doc.sentences:  # inside a document: applies from here on, kept in place
                if found is not None:
                    declaration = found.group(1)
                    _check_declaration(declaration, self.file, number)
                    if declaration != self.declaration:
                        self.repair("corefud.global-entity-mismatch", number,
                                    f"global.Entity changes inside document to {declaration!r}; "
                                    "the new fields apply from here on")
                        self.state.declaration = declaration
                        self.set_declaration(declaration)
                self.comments.append(line)
                return
            if found is not None:
                declaration = found.group(1)
                _check_declaration(declaration, self.file, number)
                state = self.state
                if state.declaration is not None and declaration != state.declaration \
                        and not state.assumed and state.declaration_line is not None:
                    self.repair("corefud.global-entity-mismatch", number,
                                f"global.Entity changes from {state.declaration!r} to "
                                f"{declaration!r}; the new fields apply from here on")
                state.declaration = declaration
                state.declaration_line = number
                state.assumed = False
                self.set_declaration(declaration)
                self.had_declaration = True
                self.doc_comments.append((len(self.comments), "global.Entity", line))
                return
            self.doc_comments.append((len(self.comments), "global", line))
            return
        if "meta::" in line:
            part = PART_META_RE.match(line)
            if part is not None and not self.doc.sentences:
                self.part = part.group(1)
                self.doc_comments.append((len(self.comments), "part", line))
                return
            found = META_RE.match(line)
            if found is not None and not self.doc.sentences:
                key = found.group(1)
                self.doc.meta[key] = found.group(2)
                self.doc_comments.append((len(self.comments), "meta:" + key, line))
                return
        self.comments.append(line)

    def tokens_in_sentence(self) -> bool:
        return len(self.tokens) > self.sentence_start

    def word_id(self, number: int, tid: str) -> None:
        """Check a word id: word ids run 1, 2, 3, ... through each sentence."""
        if tid != str(self.next_word):
            self.repair("corefud.word-id-sequence", number,
                        f"word id {tid} where {self.next_word} comes next (word ids run 1, 2, "
                        f"3, ... through each sentence); read as word {self.next_word}",
                        column=1)
        self.next_word += 1
        self.next_empty = 1

    def empty_node_id(self, number: int, tid: str) -> None:
        """Check an id that is not a word's: an empty node N.M after word N, M = 1, 2, ..."""
        found = EMPTY_ID_RE.match(tid)
        if found is None:
            self.repair("corefud.invalid-word-id", number,
                        f"token id {tid!r} is neither a word id (1, 2, ...), a range (4-5) nor an "
                        f"empty node id (3.1); read as word {self.next_word}", column=1)
            self.word_id(number, str(self.next_word))
            return
        word, node = int(found.group(1)), int(found.group(2))
        if word != self.next_word - 1 or node != self.next_empty:
            self.repair("corefud.word-id-sequence", number,
                        f"empty node {tid} where {self.next_word - 1}.{self.next_empty} comes "
                        "next (empty nodes follow their word and are numbered 1, 2, ...); read "
                        "where it stands", column=1)
        self.next_empty += 1

    def multiword(self, number: int, line: str, fields: list[str]) -> None:
        found = MWT_ID_RE.match(fields[0])
        if found is None or int(found.group(2)) < int(found.group(1)):
            raise self.error(f"bad multiword-token id {fields[0]!r}; expected a range like '4-5'",
                             number, "corefud.bad-id", 1)
        if "Entity=" in fields[9]:
            column = len(line) - len(fields[9]) + fields[9].index("Entity=") + 1
            raise self.error(
                "a multiword-token range line carries Entity; mentions attach to the syntactic "
                "words on the lines that follow it: move the brackets there",
                number, "corefud.entity-mwt", column)
        if self.sentence_first_line is None:
            self.sentence_first_line = number
        self.pending_mwt = line

    # ------------------------------------------------------------------ sentences
    def end_sentence(self, number: int) -> None:
        if self.tokens_in_sentence():
            self._close_sentence()
        elif self.comments and self.pending_mwt is None:
            # comments followed by a blank line and no tokens: keep them with the next sentence
            pass

    def _close_sentence(self) -> None:
        doc = self.doc
        self.next_word, self.next_empty = 1, 1
        if self.pending_mwt is not None:
            raise self.error("a multiword-token line is not followed by its words",
                             self.sentence_first_line, "corefud.bad-mwt")
        sent_id = None
        speaker = None
        for comment in self.comments:
            if sent_id is None and "sent_id" in comment:
                found = SENT_ID_RE.match(comment)
                if found:
                    sent_id = found.group(1)
            elif speaker is None and "speaker" in comment:
                found = SPEAKER_RE.match(comment)
                if found:
                    speaker = found.group(1)
        first_line = self.sentence_comment_line or self.sentence_first_line
        sentence = Sentence(self.sentence_index, self.sentence_start, len(self.tokens),
                            sent_id=sent_id, comments=self.comments, speaker=speaker,
                            attrs={"line": first_line})
        doc.sentences.append(sentence)
        self.comments = []
        self.sentence_index += 1
        self.sentence_start = len(self.tokens)
        self.sentence_first_line = None
        self.sentence_comment_line = None

    # ------------------------------------------------------------------ end of document
    def finish(self, end_line: int | None) -> Document:
        doc = self.doc
        if self.tokens_in_sentence() or self.pending_mwt is not None:
            self._close_sentence()
        if self.comments:
            # comments after the last sentence: kept for the writer
            doc.attrs["conllu_trailing_comments"] = self.comments
            self.comments = []
        if not self.named:
            self.state.anonymous += 1
            n = self.state.anonymous
            doc.id = self.state.stem if n == 1 else f"{self.state.stem}-{n}"
            doc.attrs["conllu_anonymous"] = True
        if self.part is not None:
            restore_part(doc, self.part)
        doc.attrs["conllu_doc_comments"] = self.doc_comments
        doc.attrs["conllu_read_id"] = doc.id
        if not self.had_declaration:
            doc.attrs["corefud_declaration_inherited"] = True
        unclosed = [(bid, line, col) for bid, stack in self.open.items() for _, _, line, col in stack]
        if unclosed:
            unclosed.sort(key=lambda x: x[1])
            listed = ", ".join(f"'({bid}' on line {line}" for bid, line, _ in unclosed[:5])
            raise self.error(
                f"document {doc.id!r} ends with mentions still open: {listed}; add the closing "
                "brackets", unclosed[0][1], "corefud.unclosed", unclosed[0][2])
        waiting = [p for ps in self.discontinuous.values() for p in ps]
        if waiting:
            p = min(waiting, key=lambda x: x.line)
            raise self.error(
                f"discontinuous mention of {p.eid!r} has {p.parts_done} of its {p.total} parts at "
                f"the end of document {doc.id!r}", p.line, "corefud.unclosed")
        for i, r in enumerate(doc.repairs):  # repairs made before the id was known
            if r.document is None:
                doc.repairs[i] = Repair(r.check, r.message, r.file, r.line, r.column, doc.id,
                                        r.action)
        if self.splits:
            self._resolve_splits()
        if self.bridges:
            self._resolve_bridges()
        if "GRP" not in self.names:
            self.state.earlier_eids.update(self.entities)
        return doc
