"""CoNLL-U with coreference in MISC (CorefUD 1.x and the UA compact format): reader and writer.

Specification: ``formats/corefud.md`` (profiles ``corefud`` and ``ua-compact``, one codec) and
``formats/conversion-notes.md``. A file is a CoNLL-U file whose MISC column carries
``Entity`` (mention brackets), ``SplitAnte`` (split antecedents) and ``Bridge`` (bridging);
``# newdoc`` starts a document and ``# global.Entity`` names the ``-``-separated fields of
every opening bracket.

Reading keeps every line the model does not interpret verbatim: the ten columns of a token
line are stored as the strings of the file (MISC whole, never through a parser that
normalises it), comments per sentence, multiword-token range lines on the word they precede,
and the raw opening-bracket text of every mention. Writing regenerates the coreference items
from the model and falls back to the stored raw text wherever it says the same thing, so an
untouched document is written back byte for byte while a changed one gets canonical brackets
(conversion-notes §5).

Documents are read and written one at a time; memory is bounded by the largest document.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from typing import IO, Any, BinaryIO
from urllib.parse import unquote

from corefkit.converters.conllu_comments import (
    NEWDOC_RE,
    PART_META_RE,
    SENT_ID_RE,
    SPEAKER_RE,
    newdoc_id,
    part_lines,
    restore_part,
    sentence_comments,
)

from corefkit.converters.io import iter_line_chunks
from corefkit.converters.loss import (
    MAX_EXAMPLES,
    ConversionReport,
    LossRecord,
    crossing_same_entity_mentions,
    describe_mention,
    user_attributes,
)
from corefkit.errors import FormatError, Repair, UsageError
from corefkit.model import IDENTITY, Document, Entity, Mention, Sentence, Token

# One chunk of an Entity value: group 1 = one-node mention, 2 = opener, 3 = closer.
CHUNK_RE = re.compile(r"\(([^()\s]+)\)|\(([^()\s]+)|([^()\s]+)\)")
PART_RE = re.compile(r"^(.*)\[(\d+)/(\d+)\]$")
DECLARATION_RE = re.compile(r"^#\s*global\.Entity\s*=\s*(.*?)\s*$")
META_RE = re.compile(r"^#\s*meta::([^=]*?)\s*=\s?(.*)$")
BARE_NUMBER_CHUNKS_RE = re.compile(r"^[0-9()]+$")
WORD_ID_RE = re.compile(r"^[1-9][0-9]*$")
EMPTY_ID_RE = re.compile(r"^([0-9]+)\.([1-9][0-9]*)$")
MWT_ID_RE = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")
SPLIT_ITEM_RE = re.compile(r"^([^<,:|=\s]+)<([^<,:|=\s]+)$")
BRIDGE_ITEM_RE = re.compile(r"^([^<,:|=\s]+)<([^<,:|=\s]+)(?::([^<,|=\s]*))?$")
RELATION_RE = re.compile(r"^[a-z]+$")
EID_FORBIDDEN_RE = re.compile(r"[-=| \t()\[\]<>,:]")

CANONICAL_FIELDS = ("eid", "etype", "head", "other")
COREFUD_ETYPES = ("person", "place", "organization", "animal", "plant", "object", "substance",
                  "time", "number", "abstract", "event", "other")
ID_FIELDS = ("eid", "GRP")
ETYPE_FIELDS = ("etype", "entity")
MIN_FIELDS = ("minspan", "MIN")
COREF_KEYS = ("Entity", "SplitAnte", "Bridge", "Split")
PROFILES = ("auto", "corefud", "ua-compact")
# characters a field value cannot hold; written as %XX (formats/corefud.md §3)
_ENCODE = {c: f"%{ord(c):02X}" for c in "%()-|,="}




def profile_of(declaration: str | None) -> str:
    """``corefud`` for declarations starting ``eid-etype-head``, else ``ua-compact``."""
    if declaration is not None and declaration.split("-")[:3] == ["eid", "etype", "head"]:
        return "corefud"
    return "ua-compact"


def decode_value(value: str) -> str:
    """A field value as the model holds it: ``%XX`` escapes and ``&#45;`` decoded."""
    if "%" in value:
        value = unquote(value)
    if "&#" in value:
        value = value.replace("&#45;", "-")
    return value


def encode_value(value: str, also: str = "") -> str:
    """A value that has no raw form, made safe for a bracket field (``%XX`` escapes of
    ``%()-|,=``, whitespace and the characters in ``also``)."""
    out = []
    for ch in value:
        if ch in _ENCODE or ch in also:
            out.append(f"%{ord(ch):02X}")
        elif ch.isspace():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def parse_other(value: str) -> dict[str, str | bool]:
    """``key:value,key`` (the CorefUD ``other`` field) as a dict; a bare key means True."""
    result: dict[str, str | bool] = {}
    for item in value.split(","):
        if not item:
            continue
        key, sep, val = item.partition(":")
        result[decode_value(key)] = decode_value(val) if sep else True
    return result


def format_other(values: dict[str, Any]) -> str:
    items = []
    for key in sorted(values):
        val = values[key]
        if val is True:
            items.append(encode_value(key, ":"))
        else:
            items.append(f"{encode_value(key, ':')}:{encode_value(str(val))}")
    return ",".join(items)


# ============================================================================ reading
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


class _Pending:
    """A discontinuous mention whose parts are still being read."""

    __slots__ = ("eid", "total", "tokens", "parts_done", "fields", "line", "entity")

    def __init__(self, eid: str, total: int, fields: list[str], line: int, entity: Entity) -> None:
        self.eid = eid
        self.total = total
        self.tokens: list[int] = []
        self.parts_done = 0
        self.fields = fields
        self.line = line
        self.entity = entity


class _DocumentBuilder:
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
        # coreference state
        self.entities: dict[str, Entity] = {}
        self.open: dict[str, list[tuple[int, list[str], int, int]]] = {}
        self.discontinuous: dict[str, list[_Pending]] = {}
        self.starts: dict[tuple[str, int], list[Mention]] = {}  # (eid, start) -> mentions
        self.spans: dict[tuple[int, ...], list[tuple[str, Mention]]] = {}
        self.splits: list[tuple[str, str, int, int, int]] = []
        self.bridges: list[tuple[str, str, str | None, int, int, int]] = []
        self.reported: set[str] = set()

    # ------------------------------------------------------------------ helpers
    def repair(self, check: str, line: int | None, message: str, action: str = "kept",
               column: int | None = None, once: bool = False) -> None:
        if once:
            if check in self.reported:
                return
            self.reported.add(check)
        self.doc.repairs.append(Repair(check, message, self.file, line, column,
                                       self.doc.id or None, action))

    def error(self, message: str, line: int | None, check: str, column: int | None = None) -> FormatError:
        return FormatError(message, file=self.file, line=line, column=column, check=check)

    def set_declaration(self, declaration: str | None) -> None:
        self.declaration = declaration
        if declaration is None:
            self.names: list[str] = []
            self.id_pos = -1
            self.profile = "ua-compact"
            return
        self.names = declaration.split("-")
        self.id_pos = next(i for i, n in enumerate(self.names) if n in ID_FIELDS)
        self.profile = profile_of(declaration)
        self.doc.attrs["corefud_declaration"] = declaration
        self.doc.attrs["corefud_profile"] = self.profile

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

    # ------------------------------------------------------------------ coreference in MISC
    def coreference(self, number: int, line: str, misc: str, index: int) -> None:
        base = len(line) - len(misc)  # 0-based column of the MISC field
        seen: set[str] = set()
        offset = 0
        entity_value = split_value = bridge_value = None
        entity_col = split_col = bridge_col = 0
        for item in misc.split("|"):
            start = offset
            offset += len(item) + 1
            if item[:1] not in ("E", "S", "B"):
                continue
            key, sep, value = item.partition("=")
            if not sep or key not in COREF_KEYS:
                continue
            column = base + start + len(key) + 2  # 1-based column of the value
            canonical = "SplitAnte" if key == "Split" else key
            if canonical in seen:
                self.repair(f"corefud.repeated-{canonical.lower()}", number,
                            f"a second {key} item on one node; kept the first", "dropped", column)
                continue
            seen.add(canonical)
            if key == "Entity":
                entity_value, entity_col = value, column
            elif canonical == "SplitAnte":
                split_value, split_col = value, column
            else:
                bridge_value, bridge_col = value, column
        if entity_value is not None:
            self._entity(number, entity_value, entity_col, index)
        if split_value is not None:
            self._split(number, split_value, split_col, index, entity_value is not None)
        if bridge_value is not None:
            self._bridge(number, bridge_value, bridge_col, index, entity_value is not None)

    def _need_declaration(self, number: int, value: str, column: int) -> None:
        if BARE_NUMBER_CHUNKS_RE.match(value):
            self.set_declaration("GRP")
            self.state.declaration = "GRP"
            self.state.assumed = True
            self.repair("corefud.entity-without-global-entity", number,
                        "Entity values but no '# global.Entity' declaration; every chunk is a bare "
                        "number, so the ids are read as GRP", column=column)
            return
        raise self.error(
            "Entity values but no '# global.Entity' declaration before them; add a line such as "
            "'# global.Entity = eid-etype-head-other' after '# newdoc', or pass entity_fields",
            number, "corefud.entity-without-global-entity", column)

    def _entity(self, number: int, value: str, column: int, index: int) -> None:
        if self.declaration is None:
            self._need_declaration(number, value, column)
        covered = 0
        id_pos = self.id_pos
        for match in CHUNK_RE.finditer(value):
            if match.start() != covered:
                break
            covered = match.end()
            single, opener, closer = match.groups()
            text = single if single is not None else opener
            if text is not None:
                fields = text.split("-")
                if len(fields) <= id_pos or not fields[id_pos]:
                    raise self.error(
                        f"opening bracket '({text}' has no id at field {id_pos + 1} "
                        f"({self.declaration!r}); every opener starts its declared fields with the id",
                        number, "corefud.missing-eid", column + match.start())
                bracket_id = fields[id_pos]
                self._open(number, column + match.start(), index, bracket_id, fields)
                if single is not None:
                    self._close(number, column + match.start(), index, bracket_id)
            else:
                bracket_id = closer
                if "-" in closer:
                    parts = closer.split("-")
                    bracket_id = parts[id_pos] if len(parts) > id_pos else parts[0]
                    self.repair("corefud.too-many-entity-attributes", number,
                                f"closing bracket '{closer})' carries fields; read its id "
                                f"{bracket_id!r}", column=column + match.start(), once=True)
                self._close(number, column + match.start(), index, bracket_id)
        if covered != len(value):
            raise self.error(
                f"cannot read the Entity value {value!r} at character {covered + 1}; expected "
                "chunks like '(e1-person-1', 'e1)' or '(e1-person-1)' with nothing between them",
                number, "corefud.spurious-entity-statement", column + covered)

    def _open(self, number: int, column: int, index: int, bracket_id: str, fields: list[str]) -> None:
        # entities are created in the order their first bracket opens (= first-mention order)
        eid = bracket_id
        if bracket_id[-1] == "]":
            found = PART_RE.match(bracket_id)
            if found is not None:
                eid = found.group(1)
        if eid not in self.entities:
            self._entity_for(eid, fields, number, column)
        self.open.setdefault(bracket_id, []).append((index, fields, number, column))

    def _close(self, number: int, column: int, index: int, bracket_id: str) -> None:
        stack = self.open.get(bracket_id)
        if not stack:
            raise self.error(
                f"closing bracket '{bracket_id})' but no mention of {bracket_id!r} is open; check "
                "the lines above for a missing '(' or a misspelt id",
                number, "corefud.unbalanced-close", column)
        start, fields, start_line, start_column = stack.pop()
        eid = bracket_id
        part = None
        if bracket_id[-1] == "]":
            found = PART_RE.match(bracket_id)
            if found is not None:
                eid = found.group(1)
                part = (int(found.group(2)), int(found.group(3)))
        if part is None:
            entity = self._entity_for(eid, fields, start_line, start_column)
            self._mention(entity, eid, tuple(range(start, index + 1)), fields, start_line,
                          start_column)
            return
        i, n = part
        if n < 2 or i < 1 or i > n:
            raise self.error(
                f"bad discontinuous part '[{i}/{n}]' on {eid!r}; parts are numbered [1/n] … [n/n] "
                "with n ≥ 2", start_line, "corefud.bad-discontinuous", start_column)
        pending_list = self.discontinuous.setdefault(eid, [])
        if i == 1:
            entity = self._entity_for(eid, fields, start_line, start_column)
            pending = _Pending(eid, n, fields, start_line, entity)
            pending_list.append(pending)
        else:
            pending = next((p for p in pending_list if p.parts_done == i - 1 and p.total == n), None)
            if pending is None:
                raise self.error(
                    f"part [{i}/{n}] of a discontinuous mention of {eid!r} without its earlier "
                    "parts; parts must be opened in order [1/n], [2/n], …",
                    start_line, "corefud.bad-discontinuous", start_column)
            if fields[:self.id_pos] + fields[self.id_pos + 1:] != \
                    pending.fields[:self.id_pos] + pending.fields[self.id_pos + 1:]:
                self.repair("corefud.mention-attribute-mismatch", start_line,
                            f"the parts of a discontinuous mention of {eid!r} have different "
                            "fields; kept those of the first part", column=start_column)
        pending.tokens.extend(range(start, index + 1))
        pending.parts_done = i
        if i == n:
            pending_list.remove(pending)
            self._mention(pending.entity, eid, tuple(pending.tokens), pending.fields, pending.line,
                          None)

    def _entity_for(self, eid: str, fields: list[str], line: int, column: int) -> Entity:
        entity = self.entities.get(eid)
        if entity is None:
            if "GRP" not in self.names and eid in self.state.earlier_eids \
                    and ("across:" + eid) not in self.reported:
                self.reported.add("across:" + eid)
                self.repair("corefud.entity-across-newdoc", line,
                            f"eid {eid!r} was used in an earlier document of this file; eids are "
                            "unique per file, read it as a new entity of this document",
                            column=column)
            entity = self.doc.new_entity(attrs={"original_id": eid})
            self.entities[eid] = entity
        return entity

    def _mention(self, entity: Entity, eid: str, tokens: tuple[int, ...], fields: list[str],
                 line: int, column: int | None) -> None:
        doc = self.doc
        names = self.names
        attrs: dict[str, Any] = {"_corefud_fields": fields}
        head = None
        min_tokens = None
        n = len(fields)
        for pos in range(n):
            value = fields[pos]
            if not value or pos == self.id_pos or pos >= len(names):
                if pos >= len(names) and value:
                    self.repair("corefud.too-many-fields", line,
                                f"an opener of {eid!r} has more fields than global.Entity declares; "
                                "the extra ones are kept as they are", column=column, once=True)
                continue
            name = names[pos]
            if name in ETYPE_FIELDS:
                if self.profile == "corefud" and value not in COREFUD_ETYPES:
                    self.repair("corefud.spurious-entity-type", line,
                                f"etype {value!r} is not one of CorefUD's types "
                                f"({', '.join(COREFUD_ETYPES)}); kept it", column=column, once=True)
                self._entity_attr(entity, "etype", value, attrs, line, column, "entity-type-mismatch")
            elif name == "head":
                head = self._head(value, tokens, eid, line, column)
            elif name in MIN_FIELDS:
                min_tokens = self._min_span(value, tokens, eid, line, column)
            elif name == "identity":
                self._entity_attr(entity, "identity", decode_value(value), attrs, line, column,
                                  "entity-identity-mismatch")
            elif name == "other":
                for key, val in parse_other(value).items():
                    attrs.setdefault(key, val)
            else:
                attrs[name] = decode_value(value)
        span = range(tokens[0], tokens[-1] + 1) if tokens[-1] - tokens[0] + 1 == len(tokens) \
            else tokens
        mention = doc.add_mention(span, entity, head=head, min_tokens=min_tokens, attrs=attrs,
                                  line=line)
        self.starts.setdefault((eid, tokens[0]), []).append(mention)
        same = self.spans.get(tokens)
        if same is None:
            self.spans[tokens] = [(eid, mention)]
        else:
            others = ", ".join(repr(e) for e, _ in same)
            self.repair("corefud.same-span-entity-mentions", line,
                        f"{eid!r} and {others} have a mention on the same nodes; kept both",
                        column=column)
            same.append((eid, mention))
        if self.tokens[tokens[0]].sentence != self.tokens[tokens[-1]].sentence:
            self.repair("corefud.cross-sentence-mention", line,
                        f"a mention of {eid!r} crosses a sentence boundary (invalid in CorefUD, "
                        "allowed by the UA compact proposal); kept it", column=column)

    def _entity_attr(self, entity: Entity, key: str, value: str, attrs: dict[str, Any],
                     line: int, column: int | None, check: str) -> None:
        known = entity.attrs.get(key)
        if known is None:
            entity.attrs[key] = value
        elif known != value:
            attrs["orig_" + key] = value
            self.repair(f"corefud.{check}", line,
                        f"{key} {value!r} differs from {known!r} of the same entity's first mention; "
                        f"kept the first, this one is stored as orig_{key}", column=column)

    def _head(self, value: str, tokens: tuple[int, ...], eid: str, line: int,
              column: int | None) -> int | None:
        try:
            position = int(value)
        except ValueError:
            self.repair("corefud.mention-head-not-number", line,
                        f"head {value!r} of a mention of {eid!r} is not a number; ignored",
                        "dropped", column)
            return None
        if 1 <= position <= len(tokens):
            return tokens[position - 1]
        self.repair("corefud.mention-head-out-of-range", line,
                    f"head {position} of a mention of {eid!r} with {len(tokens)} nodes is out of "
                    "range; used its last node", "approximated", column)
        return tokens[-1]

    def _min_span(self, value: str, tokens: tuple[int, ...], eid: str, line: int,
                  column: int | None) -> tuple[int, ...] | None:
        first = tokens[0]
        found = []
        try:
            for item in value.split(","):
                found.append(first + int(item) - 1)
        except ValueError:
            self.repair("corefud.bad-min-span", line,
                        f"minimum span {value!r} of a mention of {eid!r} is not a list of numbers; "
                        "ignored", "dropped", column)
            return None
        inside = set(tokens)
        if not all(t in inside for t in found):
            self.repair("corefud.min-outside-span", line,
                        f"minimum span {value!r} of a mention of {eid!r} lies outside the mention; "
                        "ignored", "dropped", column)
            return None
        return tuple(sorted(set(found)))

    def _split(self, number: int, value: str, column: int, index: int, has_entity: bool) -> None:
        if not has_entity:
            self.repair("corefud.splitante-without-entity", number,
                        "SplitAnte on a node without Entity", column=column)
        offset = 0
        for item in value.split(","):
            found = SPLIT_ITEM_RE.match(item)
            if found is None:
                raise self.error(
                    f"cannot read SplitAnte item {item!r}; expected ANTECEDENT<SET, e.g. "
                    "'SplitAnte=e3<e11,e4<e11'", number, "corefud.bad-splitante", column + offset)
            ante, set_id = found.groups()
            if ante == set_id:
                raise self.error(f"SplitAnte {item!r} makes {set_id!r} its own antecedent",
                                 number, "corefud.splitante-self-reference", column + offset)
            self.splits.append((ante, set_id, index, number, column + offset))
            offset += len(item) + 1

    def _bridge(self, number: int, value: str, column: int, index: int, has_entity: bool) -> None:
        if not has_entity:
            self.repair("corefud.bridge-without-entity", number, "Bridge on a node without Entity",
                        column=column)
        offset = 0
        for item in value.split(","):
            found = BRIDGE_ITEM_RE.match(item)
            if found is None:
                raise self.error(
                    f"cannot read Bridge item {item!r}; expected ANCHOR<ANAPHOR or "
                    "ANCHOR<ANAPHOR:relation, e.g. 'Bridge=e12<e124:part'",
                    number, "corefud.bad-bridge", column + offset)
            target, source, relation = found.groups()
            if target == source:
                # CODI-CRAC annotates such relations (*I* as an element of *our*); the UD
                # validator would reject the file, corefkit keeps the relation and warns
                self.repair("corefud.bridge-self-reference", number,
                            f"Bridge {item!r} links {source!r} to itself (an anaphor bridging to "
                            "its own entity); kept it", column=column + offset)
            if relation is not None and not RELATION_RE.match(relation):
                self.repair("corefud.bridge-relation", number,
                            f"bridging relation {relation!r} is not [a-z]+ as CorefUD requires; "
                            "kept it", column=column + offset)
            self.bridges.append((target, source, relation or None, index, number, column + offset))
            offset += len(item) + 1

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

    def _start_mentions(self, eid: str, index: int) -> list[Mention]:
        return self.starts.get((eid, index), [])

    def _resolve_splits(self) -> None:
        doc = self.doc
        members: dict[str, list[str]] = {}
        first_line: dict[str, tuple[int, int]] = {}
        for ante, set_id, index, line, column in self.splits:
            set_entity = self.entities.get(set_id)
            member = self.entities.get(ante)
            if set_entity is None or member is None:
                missing = set_id if set_entity is None else ante
                self.repair("corefud.splitante-unknown-entity", line,
                            f"SplitAnte {ante}<{set_id} names {missing!r}, which has no mention in "
                            "this document; the relation is dropped", "dropped", column)
                continue
            evidence = self._start_mentions(set_id, index)[:1]
            if not evidence:
                mentions = doc.mentions_of(set_entity)
                nearest = min(mentions, key=lambda m: (abs(m.start - index), m.start))
                evidence = [nearest]
                self.repair("corefud.misplaced-splitante-statement", line,
                            f"SplitAnte {ante}<{set_id} is on a node where no mention of {set_id!r} "
                            "starts; recorded it at the nearest mention start of the set",
                            "moved", column)
            members.setdefault(set_id, [])
            first_line.setdefault(set_id, (line, column))
            if ante not in members[set_id]:
                members[set_id].append(ante)
            doc.add_to_set(member, set_entity, evidence=evidence)
        for set_id, antes in members.items():
            if len(antes) < 2:
                line, column = first_line[set_id]
                self.repair("corefud.only-one-split-antecedent", line,
                            f"the split-antecedent set {set_id!r} has only one member ({antes[0]!r}); "
                            "kept it (CorefUD needs two)", column=column)
        if doc.split_antecedent_cycles():
            raise self.error("SplitAnte statements make a set contain itself (a cycle); "
                             "check the SplitAnte items of this document",
                             self.splits[0][3], "split.cycle", self.splits[0][4])

    def _resolve_bridges(self) -> None:
        doc = self.doc
        seen: dict[tuple[int, int], str | None] = {}
        by_entities: dict[tuple[str, str], str | None] = {}
        for target, source, relation, index, line, column in self.bridges:
            anchor = self.entities.get(target)
            source_entity = self.entities.get(source)
            if anchor is None or source_entity is None:
                missing = target if anchor is None else source
                self.repair("corefud.bridge-unknown-entity", line,
                            f"Bridge {target}<{source} names {missing!r}, which has no mention in "
                            "this document; the relation is dropped", "dropped", column)
                continue
            starting = self._start_mentions(source, index)
            if starting:
                anaphor = starting[0]
            else:
                mentions = doc.mentions_of(source_entity)
                before = [m for m in mentions if m.start <= index]
                anaphor = before[-1] if before else mentions[0]
                self.repair("corefud.misplaced-bridge-statement", line,
                            f"Bridge {target}<{source} is on a node where no mention of {source!r} "
                            "starts; attached it to the nearest earlier mention of the anaphor",
                            "moved", column)
            pair = (anaphor.id, anchor.id)
            if pair in seen:
                check = "repeated-bridge-relation" if seen[pair] == relation else \
                    "bridge-relation-mismatch"
                self.repair(f"corefud.{check}", line,
                            f"Bridge {target}<{source} repeats a relation of the same mention; kept "
                            "the last", column=column)
            elif by_entities.get((source, target), relation) != relation:
                self.repair("corefud.bridge-relation-mismatch", line,
                            f"Bridge {target}<{source} has relation {relation!r} here but "
                            f"{by_entities[(source, target)]!r} elsewhere in the document; kept both",
                            column=column)
            seen[pair] = relation
            by_entities[(source, target)] = relation
            doc.add_bridging(anaphor, anchor, relation=relation)


# ============================================================================ writing
def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {"crossing_same_entity": "later mention dropped"}


def partial_losses(doc: Document, *, profile: str = "auto", keep_min: bool = False) -> list[LossRecord]:
    """Loss records for what the declaration chosen for ``doc`` cannot hold (registry hook).

    The format can hold heads, min spans and cross-sentence mentions, but a given document is
    written with one declaration: heads need a ``head`` field, min spans a ``minspan``/``MIN``
    field, and the ``corefud`` profile drops cross-sentence mentions (CorefUD forbids them).
    Split-antecedent sets with fewer than two members and bridging anchor mentions cannot be
    written in either profile (formats/README.md, loss table).
    """
    chosen, names = _plan_declaration(doc, profile, keep_min)
    records: list[LossRecord] = []

    def record(feature: str, found: list[str], action: str) -> None:
        if found:
            records.append(LossRecord(feature, len(found), action, found[:MAX_EXAMPLES], doc.name))

    mentions = [m for m in doc.sorted_mentions() if m.tokens]
    if "head" not in names:
        record("heads", [describe_mention(doc, m) for m in mentions
                         if m.head is not None and not m.head_derived], "dropped")
    if not any(n in MIN_FIELDS for n in names):
        record("min_spans", [describe_mention(doc, m) for m in mentions
                             if m.min_tokens is not None and not m.min_derived], "dropped")
    if chosen == "corefud":
        tokens = doc.tokens
        record("cross_sentence", [describe_mention(doc, m) for m in mentions
                                  if tokens[m.start].sentence != tokens[m.end].sentence],
               "dropped (CorefUD forbids them)")
    small = {s for s, members in doc.accommodated_sets().items() if len(members) < 2}
    record("split_antecedents", [f"entity {s.member.id} in set {s.set_entity.id}"
                                 for s in doc.memberships() if s.set_entity in small],
           "dropped (a set needs at least two members)")
    record("bridging", [describe_mention(doc, b.anaphor) for b in doc.bridging()
                        if b.anchor_mention is not None],
           "approximated (anchor mention dropped, anchor entity kept)")
    renamed: dict[str, str] = {}
    for bridge in doc.bridging():
        relation = bridge.relation or ""
        mapped = written_relation(relation, chosen)
        if mapped != relation:
            renamed[relation] = mapped
    for relation, mapped in sorted(renamed.items()):
        record("bridging", [describe_mention(doc, b.anaphor) for b in doc.bridging()
                            if b.relation == relation],
               f"changed (relation {relation!r} written {mapped!r}: CorefUD relations are "
               "[a-z]+; ua-compact-decode restores the UA names)")
    return records


def written_relation(relation: str, profile: str) -> str:
    """A bridging relation as the writer puts it in ``Bridge``: CorefUD allows only [a-z]+
    (lower-cased, other characters deleted: ``undersp-rel`` → ``undersprel``, conversion-notes
    §4); the UA compact profile keeps anything but the Bridge separators."""
    if not relation or RELATION_RE.match(relation):
        return relation
    if profile == "corefud" or re.search(r"[,<|=:\s]", relation):
        return re.sub(r"[^a-z]", "", relation.lower())
    return relation


def _plan_declaration(doc: Document, profile: str, keep_min: bool) -> tuple[str, list[str]]:
    """(profile, field names) for writing ``doc``."""
    if profile not in PROFILES:
        raise UsageError(f"unknown CorefUD profile {profile!r}; expected one of {', '.join(PROFILES)}")
    source = doc.attrs.get("corefud_declaration")
    chosen = profile if profile != "auto" else doc.attrs.get("corefud_profile", "corefud")
    if chosen == "corefud":
        names = source.split("-") if source and profile_of(source) == "corefud" \
            else list(CANONICAL_FIELDS)
    elif source:
        names = source.split("-")
    else:
        names = ["GRP", "etype", "head", "other"]
    if (keep_min or (chosen == "ua-compact" and not source)) \
            and not any(n in MIN_FIELDS for n in names) \
            and any(m.min_tokens is not None for m in doc.mentions):
        names.append("minspan")
    return chosen, names


class _FileWriter:
    """Per output file: the eids already written (CorefUD eids are unique per file)."""

    def __init__(self) -> None:
        self.used_eids: set[str] = set()
        self.next_eid = 1
        self.documents = 0
        self.declaration: str | None = None

    def new_eid(self) -> str:
        while f"e{self.next_eid}" in self.used_eids:
            self.next_eid += 1
        eid = f"e{self.next_eid}"
        self.next_eid += 1
        return eid


def write_stream(
    documents: Iterable[Document],
    out: IO[str],
    report: ConversionReport,
    *,
    profile: str = "auto",
    keep_min: bool = False,
) -> None:
    """Write documents as CoNLL-U with coreference in MISC.

    ``profile``: ``auto`` (the profile each document was read with, else ``corefud``),
    ``corefud`` (``# global.Entity = eid-etype-head-other``, heads derived where missing) or
    ``ua-compact`` (the source declaration and fields, e.g. GUM's). ``keep_min`` adds a
    ``minspan`` field so that minimum spans survive in the ``corefud`` profile.
    """
    if profile not in PROFILES:
        raise UsageError(f"unknown CorefUD profile {profile!r}; expected one of {', '.join(PROFILES)}")
    state = _FileWriter()
    for doc in documents:
        out.write(_DocumentWriter(doc, state, report, profile, keep_min).render())
        state.documents += 1


class _DocumentWriter:
    """Renders one document; everything it generates is sorted (conversion-notes §5)."""

    def __init__(self, doc: Document, state: _FileWriter, report: ConversionReport, profile: str,
                 keep_min: bool) -> None:
        self.doc = doc
        self.state = state
        self.report = report
        self.profile, self.names = _plan_declaration(doc, profile, keep_min)
        self.declaration = "-".join(self.names)
        self.id_pos = next((i for i, n in enumerate(self.names) if n in ID_FIELDS), 0)
        self.id_field = self.names[self.id_pos]
        source = doc.attrs.get("corefud_declaration")
        self.same_declaration = source == self.declaration
        self.conllu = bool(doc.attrs.get("conllu"))
        self.derived_heads = 0
        self.dropped_attributes = 0

    def repair(self, check: str, message: str, action: str = "approximated") -> None:
        self.report.repairs.append(Repair(check, message, document=self.doc.name, action=action))

    # ------------------------------------------------------------------ mentions and ids
    def _written(self) -> list[tuple[Mention, Entity]]:
        doc = self.doc
        crossing = set(crossing_same_entity_mentions(doc))
        written = []
        tokens = doc.tokens
        for mention in doc.sorted_mentions():
            entity = doc.entity_of(mention)
            if (entity is None or entity.layer != IDENTITY or entity.pseudo or not mention.tokens
                    or mention in crossing):
                continue
            if self.profile == "corefud" and \
                    tokens[mention.start].sentence != tokens[mention.end].sentence:
                continue
            written.append((mention, entity))
        return written

    def _ids(self, entities: list[Entity]) -> dict[Entity, str]:
        doc = self.doc
        state = self.state
        source = doc.attrs.get("corefud_declaration")
        originals = [str(e.attrs.get("original_id", "")) for e in entities]
        keep = (self.conllu and source is not None
                and source.split("-")[next(i for i, n in enumerate(source.split("-"))
                                           if n in ID_FIELDS)] == self.id_field
                and all(o and not EID_FORBIDDEN_RE.search(o) for o in originals)
                and len(set(originals)) == len(originals))
        if keep and self.id_field == "eid" and any(o in state.used_eids for o in originals):
            keep = False
        if keep:
            ids = dict(zip(entities, originals))
        elif self.id_field == "eid":
            ids = {e: state.new_eid() for e in entities}
        else:
            ids = {e: str(i) for i, e in enumerate(entities, 1)}
        if self.id_field == "eid":
            state.used_eids.update(ids.values())
        renumbered = {o: ids[e] for e, o in zip(entities, originals) if o and o != ids[e]}
        if renumbered:
            self.report.id_maps[doc.name] = renumbered
        return ids

    # ------------------------------------------------------------------ bracket fields
    def _head_index(self, mention: Mention) -> str:
        head = mention.head
        if head is None or head not in mention.tokens:
            if "head" not in self.names or self.profile != "corefud":
                return ""
            head = derive_head(self.doc, mention)
            self.derived_heads += 1
        return str(mention.tokens.index(head) + 1)

    def _values(self, mention: Mention, entity: Entity) -> dict[str, Any]:
        """The decoded value of every declared field (the id excluded) for ``mention``."""
        values: dict[str, Any] = {}
        used_mention = {"orig_etype", "orig_identity"}
        used_entity = {"etype"}
        for name in self.names:
            if name in ID_FIELDS:
                continue
            if name in ETYPE_FIELDS:
                values[name] = str(mention.attrs.get("orig_etype", entity.attrs.get("etype", "")))
            elif name == "head":
                values[name] = self._head_index(mention)
            elif name in MIN_FIELDS:
                if mention.min_tokens:
                    first = mention.tokens[0]
                    values[name] = ",".join(str(t - first + 1) for t in sorted(mention.min_tokens))
                else:
                    values[name] = ""
            elif name == "identity":
                values[name] = str(mention.attrs.get("orig_identity", entity.attrs.get("identity", "")))
                used_entity.add("identity")
            elif name != "other":
                value = mention.attrs.get(name, entity.attrs.get(name, ""))
                values[name] = "" if value is None else str(value)
                used_mention.add(name)
                used_entity.add(name)
        annotation = set(user_attributes(mention.attrs))
        leftover = {k: v for k, v in mention.attrs.items()
                    if k not in used_mention and k in annotation}
        for k in user_attributes(entity.attrs):
            if k not in used_entity and k not in leftover:
                leftover[k] = entity.attrs[k]
        if "other" in self.names:
            values["other"] = {k: v for k, v in leftover.items() if v is not None and v != ""}
        elif leftover:
            self.dropped_attributes += 1
        return values

    def _raw_values(self, raw: list[str], mention: Mention) -> dict[str, Any] | None:
        """The stored raw fields decoded like :meth:`_values`, or None if they cannot be."""
        values: dict[str, Any] = {}
        for pos, name in enumerate(self.names):
            if name in ID_FIELDS:
                continue
            value = raw[pos] if pos < len(raw) else ""
            if name == "other":
                values[name] = parse_other(value)
            elif name in MIN_FIELDS:
                if value:
                    try:
                        first = mention.tokens[0]
                        positions = sorted({int(v) for v in value.split(",")})
                    except ValueError:
                        return None
                    if positions[0] < 1 or first + positions[-1] - 1 > mention.tokens[-1]:
                        return None
                    values[name] = ",".join(str(p) for p in positions)
                else:
                    values[name] = ""
            elif name == "head":
                values[name] = value
            else:
                values[name] = decode_value(value)
        return values

    def _opener(self, mention: Mention, entity: Entity) -> list[str]:
        """The opener's fields (id position left as a placeholder)."""
        values = self._values(mention, entity)
        raw = mention.attrs.get("_corefud_fields")
        if self.same_declaration and raw is not None and self._raw_values(raw, mention) == values:
            return list(raw)
        fields = []
        for name in self.names:
            if name in ID_FIELDS:
                fields.append("")
            elif name == "other":
                fields.append(format_other(values[name]))
            elif name == "head" or name in MIN_FIELDS:
                fields.append(values[name])
            else:
                fields.append(encode_value(values[name]))
        while len(fields) > self.id_pos + 1 and fields[-1] == "":
            fields.pop()
        return fields

    # ------------------------------------------------------------------ per-node MISC items
    def _entity_cells(self, written: list[tuple[Mention, Entity]], ids: dict[Entity, str],
                      rank: dict[Entity, int]) -> dict[int, str]:
        openers: dict[int, list[tuple]] = {}
        closers: dict[int, list[tuple]] = {}
        singles: dict[int, list[tuple]] = {}
        for order, (mention, entity) in enumerate(written):
            fields = self._opener(mention, entity)
            parts = mention.parts()
            n = len(parts)
            size = len(mention.tokens)
            r = rank[entity]
            for k, (a, b) in enumerate(parts, 1):
                bracket = ids[entity] if n == 1 else f"{ids[entity]}[{k}/{n}]"
                fields[self.id_pos] = bracket
                text = "-".join(fields)
                if a == b:
                    singles.setdefault(a, []).append(((r, order), f"({text})"))
                else:
                    openers.setdefault(a, []).append(((-b, -size, r, order), f"({text}"))
                    closers.setdefault(b, []).append(((-a, size, -r, -order), f"{bracket})"))
        cells: dict[int, str] = {}
        for node in set(openers) | set(closers) | set(singles):
            close = [c for _, c in sorted(closers.get(node, ()))]
            open_ = [c for _, c in sorted(openers.get(node, ()))]
            one = [c for _, c in sorted(singles.get(node, ()))]
            cells[node] = "".join(close + open_ + one if open_ else one + close)
        return cells

    def _split_cells(self, ids: dict[Entity, str], rank: dict[Entity, int],
                     first_start: dict[Entity, int], written_starts: set[tuple[int, Entity]]
                     ) -> dict[int, list[tuple[str, str]]]:
        doc = self.doc
        cells: dict[int, list[tuple[tuple[int, int], tuple[str, str]]]] = {}
        sets = doc.accommodated_sets()
        small = [s for s, members in sets.items() if len(members) < 2]
        if small:
            self.repair("corefud.only-one-split-antecedent",
                        f"{len(small)} split-antecedent sets have fewer than 2 members; CorefUD needs "
                        "at least two, so they are not written", "dropped")
        unwritten = 0
        for membership in doc.memberships():
            member, set_entity = membership.member, membership.set_entity
            if set_entity in small:
                continue
            if member not in ids or set_entity not in ids:
                unwritten += 1
                continue
            nodes = sorted({m.start for m in membership.evidence
                            if (m.start, set_entity) in written_starts})
            if not nodes:
                nodes = [first_start[set_entity]]
            for node in nodes:
                cells.setdefault(node, []).append(
                    ((rank[set_entity], rank[member]), (ids[member], ids[set_entity])))
        if unwritten:
            self.repair("corefud.split-antecedent-unwritten",
                        f"{unwritten} split-antecedent memberships name an entity with no written "
                        "mention; they are not written", "dropped")
        return {node: [item for _, item in sorted(items)] for node, items in cells.items()}

    def _bridge_cells(self, ids: dict[Entity, str], rank: dict[Entity, int],
                      written_mentions: set[Mention]) -> dict[int, list[tuple[str, str, str]]]:
        doc = self.doc
        cells: dict[int, list[tuple[tuple[int, int], tuple[str, str, str]]]] = {}
        anchors = unwritten = ambiguous = 0
        changed: dict[str, str] = {}
        for bridge in doc.bridging():
            anaphor_entity = doc.entity_of(bridge.anaphor)
            if (bridge.anaphor not in written_mentions or anaphor_entity not in ids
                    or bridge.anchor not in ids):
                unwritten += 1
                continue
            if bridge.anchor_mention is not None:
                anchors += 1
            # a reader takes the anaphor to be the innermost mention of its entity starting on
            # the node (as udapi does): another choice cannot be told apart in CoNLL-U
            starting = [m for m in doc.mentions_of(anaphor_entity)
                        if m.start == bridge.anaphor.start and m in written_mentions]
            if min(starting, key=lambda m: (len(m.tokens), m.end)) is not bridge.anaphor:
                ambiguous += 1
            relation = bridge.relation or ""
            mapped = written_relation(relation, self.profile)
            if mapped != relation:
                changed[relation] = mapped
                relation = mapped
            cells.setdefault(bridge.anaphor.start, []).append(
                ((rank[anaphor_entity], rank[bridge.anchor]),
                 (ids[bridge.anchor], ids[anaphor_entity], relation)))
        if anchors:
            self.repair("corefud.bridging-anchor-mention",
                        f"{anchors} bridging relations name an anchor mention; CoNLL-U keeps only "
                        "the anchor entity")
        if ambiguous:
            self.repair("corefud.bridge-anaphor-ambiguous",
                        f"{ambiguous} bridging anaphors share their first node with a shorter "
                        "mention of the same entity; CoNLL-U attaches Bridge to a node, so they "
                        "will read back as that shorter mention")
        if unwritten:
            self.repair("corefud.bridging-unwritten",
                        f"{unwritten} bridging relations involve a mention or entity that is not "
                        "written; dropped", "dropped")
        return {node: [item for _, item in sorted(items)] for node, items in cells.items()}

    # ------------------------------------------------------------------ lines
    def render(self) -> str:
        doc = self.doc
        written = self._written()
        entities: list[Entity] = []
        seen: set[Entity] = set()
        first_start: dict[Entity, int] = {}
        for mention, entity in written:
            if entity not in seen:
                seen.add(entity)
                entities.append(entity)
                first_start[entity] = mention.start
        rank = {e: i for i, e in enumerate(entities)}
        ids = self._ids(entities)
        entity_cells = self._entity_cells(written, ids, rank)
        written_starts = {(m.start, e) for m, e in written}
        split_cells = self._split_cells(ids, rank, first_start, written_starts)
        bridge_cells = self._bridge_cells(ids, rank, {m for m, _ in written})
        if self.derived_heads:
            self.repair("corefud.derived-heads",
                        f"{self.derived_heads} mentions had no head; derived one (conversion-notes "
                        "§2), which head-match scores depend on")
        if self.dropped_attributes:
            self.repair("corefud.attributes-dropped",
                        f"{self.dropped_attributes} mentions have attributes the declaration "
                        f"{self.declaration!r} has no field for; not written", "dropped")
        lines: list[str] = []
        for sentence in doc.sentences:
            lines.extend(self._comments(sentence))
            self._tokens(sentence, lines, entity_cells, split_cells, bridge_cells)
            lines.append("")
        trailing = doc.attrs.get("conllu_trailing_comments") if self.conllu else None
        if trailing:
            lines.extend(trailing)
        self.state.declaration = self.declaration
        return "\n".join(lines) + "\n" if lines else ""

    def _comments(self, sentence: Sentence) -> list[str]:
        doc = self.doc
        if self.conllu:
            comments = []
            for line in sentence.comments:
                if line.startswith("# sent_id") and sentence.sent_id is not None:
                    found = SENT_ID_RE.match(line)
                    if found and found.group(1) != sentence.sent_id:
                        line = f"# sent_id = {sentence.sent_id}"
                elif DECLARATION_RE.match(line):
                    continue  # one declaration per written document
                comments.append(line)
        else:
            comments = sentence_comments(doc, sentence, None)
        if sentence.index != 0:
            return comments
        return self._document_header(comments)

    def _document_header(self, comments: list[str]) -> list[str]:
        doc = self.doc
        state = self.state
        items = doc.attrs.get("conllu_doc_comments", []) if self.conllu else []
        entries: list[tuple[int, str]] = []
        meta_done: set[str] = set()
        have_newdoc = have_declaration = part_done = False
        after_meta: int | None = None   # where metadata not in the source goes
        after_header: int | None = None
        for pos, kind, raw in items:
            if kind == "newdoc":
                have_newdoc = True
                same = doc.id == doc.attrs.get("conllu_read_id", doc.id)
                entries.append((pos, raw if same else f"# newdoc id = {newdoc_id(doc)}"))
                after_header = len(entries)
            elif kind == "global.Entity":
                have_declaration = True
                found = DECLARATION_RE.match(raw)
                same = found is not None and found.group(1) == self.declaration
                entries.append((pos, raw if same else f"# global.Entity = {self.declaration}"))
                after_header = len(entries)
            elif kind == "part":
                entries.extend((pos, line) for line in part_lines(doc))
                part_done = True
                after_meta = len(entries)
            elif kind.startswith("meta:"):
                key = kind[5:]
                if key in doc.meta and key not in meta_done:
                    meta_done.add(key)
                    found = META_RE.match(raw)
                    same = found is not None and found.group(2) == doc.meta[key]
                    entries.append((pos, raw if same else f"# meta::{key} = {doc.meta[key]}"))
                after_meta = len(entries)
            else:
                entries.append((pos, raw))
        new_meta = [] if part_done else part_lines(doc)
        new_meta += [f"# meta::{k} = {v}" for k, v in doc.meta.items() if k not in meta_done]
        if new_meta:
            at = after_meta if after_meta is not None else (after_header or 0)
            pos = entries[at - 1][0] if at else 0
            entries[at:at] = [(pos, line) for line in new_meta]
        source_declared = doc.attrs.get("corefud_declaration") is not None
        if not have_declaration and (not self.conllu or (source_declared and (
                state.documents == 0 or state.declaration != self.declaration))):
            at = 1 if have_newdoc and entries and entries[0][1].startswith("# newdoc") else 0
            entries.insert(at, (0, f"# global.Entity = {self.declaration}"))
        if not have_newdoc and (state.documents > 0 or not doc.attrs.get("conllu_anonymous")):
            entries.insert(0, (0, f"# newdoc id = {newdoc_id(doc)}"))
        out: list[str] = []
        i = 0
        for pos in range(len(comments) + 1):
            while i < len(entries) and entries[i][0] <= pos:
                out.append(entries[i][1])
                i += 1
            if pos < len(comments):
                out.append(comments[pos])
        return out

    def _tokens(self, sentence: Sentence, lines: list[str], entity_cells: dict[int, str],
                split_cells: dict[int, list[tuple[str, str]]],
                bridge_cells: dict[int, list[tuple[str, str, str]]]) -> None:
        tokens = self.doc.tokens
        word = 0
        empty = 0
        append = lines.append
        for index in range(sentence.start, sentence.stop):
            token = tokens[index]
            mwt = token.attrs.get("conllu_mwt")
            if mwt is not None:
                append(mwt)
            if token.is_empty:
                empty += 1
                tid = token.id if token.id is not None else f"{word}.{empty}"
            else:
                word += 1
                empty = 0
                tid = token.id if token.id is not None else str(word)
            entity = entity_cells.get(index)
            split = split_cells.get(index)
            bridge = bridge_cells.get(index)
            misc = token.misc
            if entity is not None or split is not None or bridge is not None or (
                    misc is not None and "=" in misc and
                    ("Entity=" in misc or "Bridge=" in misc or "Split" in misc)):
                misc = merge_misc(misc, entity, split, bridge)
            form = token.form
            if "\t" in form or "\n" in form:
                form = form.replace("\t", " ").replace("\n", " ")
            append("\t".join((
                tid, form, _cell(token.lemma), _cell(token.upos), _cell(token.xpos),
                _cell(token.feats), _cell(token.head), _cell(token.deprel), _cell(token.deps),
                misc if misc else "_")))


def _cell(value: str | None) -> str:
    return "_" if value is None or value == "" else value


def _misc_items(misc: str | None) -> list[str]:
    return [] if misc is None or misc in ("", "_") else misc.split("|")


def merge_misc(misc: str | None, entity: str | None, split: list[tuple[str, str]] | None,
               bridge: list[tuple[str, str, str]] | None) -> str:
    """MISC with the coreference items set to the given values (None: absent).

    An item whose value says the same as the one already there keeps its raw text (SplitAnte
    and Bridge lists compare as sets); new items go to their case-insensitive alphabetical
    place, as GUM's MISC is sorted; other items keep their text and order.
    """
    items = _misc_items(misc)
    present: dict[str, tuple[int, str, str]] = {}
    for i, item in enumerate(items):
        key, sep, value = item.partition("=")
        if sep and key in COREF_KEYS:
            canonical = "SplitAnte" if key == "Split" else key
            if canonical not in present:
                present[canonical] = (i, key, value)
    wanted: dict[str, str | None] = {
        "Entity": entity,
        "SplitAnte": None if not split else ",".join(f"{a}<{s}" for a, s in split),
        "Bridge": None if not bridge else ",".join(
            f"{t}<{s}:{r}" if r else f"{t}<{s}" for t, s, r in bridge),
    }
    same = True
    for key, value in wanted.items():
        old = present.get(key)
        if old is None or value is None:
            if (old is None) != (value is None):
                same = False
            continue
        if key == "Entity":
            same = same and old[2] == value
        elif key == "SplitAnte":
            same = same and _split_set(old[2]) == set(split or ())
        else:
            same = same and _bridge_set(old[2]) == set(bridge or ())
    if same and len(present) == sum(1 for item in items if item.partition("=")[0] in COREF_KEYS):
        return misc if misc else "_"
    result = []
    for i, item in enumerate(items):
        key, sep, _ = item.partition("=")
        if sep and key in COREF_KEYS:
            canonical = "SplitAnte" if key == "Split" else key
            old = present.get(canonical)
            if old is None or old[0] != i or wanted[canonical] is None:
                continue
            value = wanted[canonical]
            keep_raw = (canonical == "SplitAnte" and _split_set(old[2]) == set(split or ())) or \
                (canonical == "Bridge" and _bridge_set(old[2]) == set(bridge or ()))
            result.append(item if keep_raw else f"{canonical}={value}")
            continue
        result.append(item)
    for key, value in wanted.items():
        if value is None or key in present:
            continue
        lowered = key.lower()
        at = len(result)
        for i, item in enumerate(result):
            if item.partition("=")[0].lower() > lowered:
                at = i
                break
        result.insert(at, f"{key}={value}")
    return "|".join(result) if result else "_"


def _split_set(value: str) -> set[tuple[str, str]] | None:
    found = set()
    for item in value.split(","):
        match = SPLIT_ITEM_RE.match(item)
        if match is None:
            return None
        found.add((match.group(1), match.group(2)))
    return found


def _bridge_set(value: str) -> set[tuple[str, str, str]] | None:
    found = set()
    for item in value.split(","):
        match = BRIDGE_ITEM_RE.match(item)
        if match is None:
            return None
        found.add((match.group(1), match.group(2), match.group(3) or ""))
    return found


# ============================================================================ heads
def derive_head(doc: Document, mention: Mention) -> int:
    """A head for a mention that has none (conversion-notes §2).

    From a min span: its only token, else (with a dependency tree) the min-span token whose
    parent lies outside it, nearest the root then leftmost, else the last min-span token.
    Without a min span: the mention token whose parent lies outside the mention (same tie
    rule, as udapi's ``corefud.MoveHead``), else the first token.
    """
    candidates = tuple(sorted(mention.min_tokens)) if mention.min_tokens else mention.tokens
    if len(candidates) == 1:
        return candidates[0]
    parents = _parents(doc, doc.tokens[candidates[0]].sentence)
    if parents is not None and all(t in parents for t in candidates):
        inside = set(candidates)
        tops = [t for t in candidates if parents[t] not in inside]
        if tops:
            return min(tops, key=lambda t: (_depth(parents, t), t))
    return candidates[-1] if mention.min_tokens else candidates[0]


def _parents(doc: Document, sentence_index: int) -> dict[int, int | None] | None:
    """token index -> parent token index (None for the root) from the HEAD column."""
    sentence = doc.sentences[sentence_index]
    by_id: dict[str, int] = {}
    for index in range(sentence.start, sentence.stop):
        tid = doc.tokens[index].id
        if tid is not None:
            by_id[tid] = index
    parents: dict[int, int | None] = {}
    for index in range(sentence.start, sentence.stop):
        token = doc.tokens[index]
        if token.head is None or token.head in ("_", ""):
            continue
        if token.head == "0":
            parents[index] = None
        elif token.head in by_id:
            parents[index] = by_id[token.head]
    return parents or None


def _depth(parents: dict[int, int | None], token: int) -> int:
    depth = 0
    seen = {token}
    current: int | None = token
    while current is not None:
        current = parents.get(current)
        if current is None or current in seen:
            break
        seen.add(current)
        depth += 1
    return depth
