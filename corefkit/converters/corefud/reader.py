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
from corefkit.converters.corefud.coreference import CoreferenceReader, FileState
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
    state = FileState(file, stem, entity_fields)
    builder: _DocumentBuilder | None = None
    token_class = Token
    number = 0
    line = ""
    seen: dict[str, object] = {}
    for lines in iter_line_chunks(stream, file, seen=seen):
        for line in lines:
            number += 1
            if not line or line.isspace():
                if builder is None:
                    builder = _DocumentBuilder(state, number)
                builder.end_sentence(number, line)
                continue
            if line[0] == "#":
                if "newdoc" in line:
                    found = NEWDOC_RE.match(line)
                    if found is not None and builder is not None and \
                            builder.sentence_first_line is not None:
                        # between the token lines of a sentence: a misplaced comment, as the UD
                        # validator reads it, not the start of a document
                        builder.misplaced_comment(number)
                        builder.comments.append(line)
                        continue
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
                if not line[0].isdigit():
                    raise FormatError(
                        f"a line that is neither a comment (#), a token line (starting with its "
                        f"id) nor blank: {line[:40]!r}", file=file, line=number,
                        check="corefud.invalid-line")
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
        builder.end_of_file(number, line, seen)
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


class _DocumentBuilder(CoreferenceReader):
    """Accumulates one document while its lines are read."""

    def __init__(self, state: FileState, line: int) -> None:
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
        self.mwt_end = 0  # the last word of the sentence's ranges so far
        self.mwt_line = 0
        self.id_trouble = 0  # ids of the sentence reported as invalid or out of sequence
        self.sequence_reported = False
        self.invalid_lines = 0  # token lines of the sentence that start with no digit
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
        if self.sentence_first_line is not None:  # a token line of this sentence came first
            self.misplaced_comment(number)
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

    def misplaced_comment(self, number: int) -> None:
        self.repair("corefud.misplaced-comment", number,
                    "a comment line between the token lines of a sentence; comments come "
                    "before the first token line (read it as a comment of this sentence)")

    def end_of_file(self, number: int, last: str, seen: dict[str, object]) -> None:
        """What only the end of the file tells: a missing last blank line, the line ends."""
        if last and not last.isspace():
            self.repair("corefud.missing-empty-line", number,
                        "the file does not end with a blank line after its last sentence")
        newlines = seen.get("newlines")
        if newlines is not None and newlines != "\n":
            self.repair("corefud.non-unix-newline", number,
                        f"line ends {newlines!r}; CoNLL-U lines end with LF only")
        if seen.get("bom"):
            self.repair("corefud.byte-order-mark", 1,
                        "the file starts with a byte-order mark (U+FEFF), which CoNLL-U "
                        "does not allow; the UD validator reads it as part of the first line")

    def word_id(self, number: int, tid: str) -> None:
        """Check a word id: word ids run 1, 2, 3, ... through each sentence."""
        if tid != str(self.next_word):
            self.id_trouble += 1
            if tid[0] == "0":
                self.repair("corefud.invalid-word-id", number,
                            f"word id {tid!r} starts with 0; word ids are 1, 2, 3, ...; read as "
                            "a word without an id", column=1)
                return
            self.sequence_reported = True
            if self.invalid_lines:  # after a spurious line the UD validator checks no ids
                self.next_word += 1
                self.next_empty = 1
                return
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
            if not tid[:1].isdigit():
                self.repair("corefud.invalid-line", number,
                            f"a line that is neither a comment (#), a token line (starting with "
                            f"its id) nor blank: it starts {tid[:10]!r}; read as a word without "
                            "an id", column=1)
                self.invalid_lines += 1
                self.id_trouble += 1
                return
            self.id_trouble += 1
            self.repair("corefud.invalid-word-id", number,
                        f"token id {tid!r} is neither a word id (1, 2, ...), a range (4-5) nor an "
                        "empty node id (3.1); read as a word without an id", column=1)
            return
        word, node = int(found.group(1)), int(found.group(2))
        if word == self.next_word - 1 and node > self.next_empty:
            # a gap (2.2 without 2.1, as udapi writes a removed node's later siblings): the UD
            # validator refuses it; the CorefUD scorer reads the node as numbered
            expected = f"{word}.{self.next_empty}"
            self.repair("corefud.misplaced-empty-node", number,
                        f"empty node {tid} where {expected} comes next: the empty nodes after "
                        f"word {word} are numbered {word}.1, {word}.2, ... without a gap (UD "
                        f"validator test misplaced-empty-node); renumber it {expected}, with the "
                        "DEPS that name it", "read as numbered, as the CorefUD scorer reads it",
                        column=1)
            self.next_empty = node
        elif word != self.next_word - 1 or node != self.next_empty:
            self.repair("corefud.misplaced-empty-node", number,
                        f"empty node {tid} where {self.next_word - 1}.{self.next_empty} comes "
                        "next (empty nodes follow their word and are numbered 1, 2, ...); read "
                        "where it stands", column=1)
        elif self.pending_mwt is not None:
            self.repair("corefud.misplaced-empty-node", number,
                        f"empty node {tid} between a multiword-token line and its words; it "
                        "comes before the range line", column=1)
        self.next_empty += 1

    def multiword(self, number: int, line: str, fields: list[str]) -> None:
        found = MWT_ID_RE.match(fields[0])
        if found is None:
            raise self.error(f"bad multiword-token id {fields[0]!r}; expected a range like '4-5'",
                             number, "corefud.bad-id", 1)
        first, last = int(found.group(1)), int(found.group(2))
        if last < first:
            raise self.error(f"multiword-token range {fields[0]!r} ends before it starts; "
                             "expected a range like '4-5'", number,
                             "corefud.reversed-word-interval", 1)
        misc = fields[9]
        if "Entity=" in misc or "Bridge=" in misc or "SplitAnte=" in misc:
            key = next(k for k in ("Entity=", "Bridge=", "SplitAnte=") if k in misc)
            column = len(line) - len(misc) + misc.index(key) + 1
            raise self.error(
                f"a multiword-token range line carries {key[:-1]}; mentions attach to the "
                "syntactic words on the lines that follow it: move the annotation there",
                number, "corefud.entity-mwt", column)
        if first < self.next_word and (not self.id_trouble or first <= self._last_word_id()):
            self.repair("corefud.misplaced-word-interval", number,
                        f"multiword-token range {fields[0]} after word {self.next_word - 1}; a "
                        "range line comes right before its first word", column=1)
        elif first <= self.mwt_end:
            self.repair("corefud.overlapping-word-intervals", number,
                        f"multiword-token range {fields[0]} overlaps the range before it "
                        f"(which ends at word {self.mwt_end})", column=1)
        self.mwt_end = max(self.mwt_end, last)
        self.mwt_line = number
        self.next_empty = 1
        if self.sentence_first_line is None:
            self.sentence_first_line = number
        self.pending_mwt = line

    # ------------------------------------------------------------------ sentences
    def end_sentence(self, number: int, line: str = "") -> None:
        if line:
            self.repair("corefud.pseudo-empty-line", number,
                        "a line of white space only; the line between sentences is empty",
                        column=1)
        if self.tokens_in_sentence() or self.pending_mwt is not None:
            self._close_sentence()
        else:
            # a blank line that ends no sentence (comments, if any, go to the next sentence)
            self.repair("corefud.empty-sentence", number,
                        "a blank line that ends no sentence (two blank lines in a row, or "
                        "comments without token lines); one blank line follows each sentence")

    def _close_sentence(self) -> None:
        doc = self.doc
        if self.pending_mwt is not None:
            raise self.error("a multiword-token line is not followed by its words",
                             self.sentence_first_line, "corefud.bad-mwt")
        if self.id_trouble or self.mwt_end:  # only sentences with ranges or bad ids
            self._check_intervals(self.next_word - 1)
        self.next_word, self.next_empty = 1, 1
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
                            attrs={"line": first_line, "token_line": self.sentence_first_line})
        doc.sentences.append(sentence)
        self.comments = []
        self.sentence_index += 1
        self.sentence_start = len(self.tokens)
        self.sentence_first_line = None
        self.sentence_comment_line = None

    def _last_word_id(self) -> int:
        """The id of the sentence's last word line with a valid id (0: none)."""
        for token in reversed(self.tokens[self.sentence_start:]):
            if token.id and WORD_ID_RE.match(token.id):
                return int(token.id)
        return 0

    def _check_intervals(self, words: int) -> None:
        """The ranges and ids of a sentence against its word count (then reset for the next)."""
        if self.id_trouble:
            words = self._recheck_ids()
        if self.mwt_end > words:
            self.repair("corefud.word-interval-out", self.mwt_line,
                        f"a multiword-token range ends at word {self.mwt_end}, but the sentence "
                        f"has {words} words", column=1)
        self.mwt_end = self.id_trouble = self.invalid_lines = 0
        self.sequence_reported = False

    def _recheck_ids(self) -> int:
        """The UD validator's view of a sentence with bad ids: its words are the lines with a
        valid word id, which run 1, 2, ..., n; no word id may pass n. Returns n."""
        ids = [t.id or "" for t in self.tokens[self.sentence_start:]]
        words = [int(i) for i in ids if WORD_ID_RE.match(i)]
        n = len(words)
        line = self.sentence_first_line
        if self.invalid_lines:  # the UD validator checks nothing more of such a sentence
            if self.invalid_lines == len(ids):
                self.repair("corefud.empty-sentence", line,
                            "no line of the sentence is a token line (each starts with no digit)")
            return max(n, self.mwt_end)
        if words != list(range(1, n + 1)) and not self.sequence_reported:
            self.repair("corefud.word-id-sequence", line,
                        f"without the invalid ids, the word ids run {words[:8]}", column=1)
        if words and max(words) > n:
            self.repair("corefud.word-interval-out", line,
                        f"word id {max(words)} in a sentence of {n} words with valid ids",
                        column=1)
        return n

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
