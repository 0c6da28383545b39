"""CoNLL-UA "exploded" (Universal Anaphora in CoNLL-U Plus): the reader.

Specification: ``formats/ua-exploded.md`` (format id ``ua-exploded``, alias ``ua``) and
``formats/conversion-notes.md``. A file is CoNLL-U Plus whose ``# global.columns`` adds one
column per anaphoric layer: IDENTITY, BRIDGING, DISCOURSE_DEIXIS, REFERENCE and NOM_SEM (v1.0
files also have SPLIT). Token ids run through the whole document; markables are bracketed
feature lists ``(EntityID=3|MarkableID=markable_7|Min=12|SemType=dn`` closed by ``)``.

How the format meets the model (decisions that a reader of the code needs):

* **Tokens.** Words and zeros (``14.1``) become document tokens; zeros are empty nodes. The
  token columns (LEMMA … MISC) are kept as the strings of the file (HEAD and DEPS keep their
  document-wide ids). Token ids are checked and regenerated on writing (``N`` document-wide,
  ``N.k`` for zeros), so ``token.id`` stays None.
  Lines with id ``0`` (visual-situation objects of the v1.1 text) are not tokens: their fields
  are kept on the sentence (``attrs["ua_visual_objects"]``) and their REFERENCE values in
  ``doc.attrs["visual_objects"]``.
* **IDENTITY markables** are identity-layer mentions: ``EntityID`` → entity (original id in
  ``entity.attrs["original_id"]``), ``MarkableID`` → ``mention.attrs["markable_id"]``, ``Min``
  (document token ids, ``N`` or the range ``N,M``) → ``min_tokens``, ``SemType`` →
  ``attrs["semtype"]``, any other key → an attribute of that name. A repeated MarkableID is a
  further part of a discontinuous markable.
* **Non-referring** markables (``-Pseudo`` / ``_Pseudo`` ids) are mentions with
  ``nonref`` = their SemType and no entity. They get a one-markable *pseudo* entity only when
  they must take part in a relation (a member of a split-antecedent set, a bridging anchor) or
  share their Pseudo id with another markable (conversion-notes §4).
* **ElementOf** is entity level: ``add_to_set(member, set, evidence=<the markables that say
  so>)``. Nested sets, one-member sets and Pseudo members are kept (the last two reported);
  ``flatten-splits`` is a pass, never done here.
* **DISCOURSE_DEIXIS** is its own entity space on the ``dd`` layer. A DD anaphor that reuses
  the MarkableID of an identity markable takes part in both layers; since a mention refers to
  one entity only, it is read as a *second* mention on the DD layer over the same tokens with
  the same ``markable_id``, and the writer merges the two back into one MarkableID.
* **BRIDGING** → ``add_bridging(anaphor, anchor entity, relation=Rel, anchor_mention=…)``; the
  anaphor is the identity markable with the bridging MarkableID. Other keys → bridging attrs.
* **NOM_SEM** values become mention attributes with lower-cased names (``entity_type``,
  ``genericity``, …); the spelling and order of the keys is kept in ``_ua_nom_sem``.
  **REFERENCE** becomes ``attrs["reference"]`` of the markable opening on that token.

This module reads the lines and collects the markables of each bracket column;
``markables.py`` builds the model from them, ``columns.py`` holds the grammar both share with
the writer (``writer.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.conllu_comments import (
    NEWDOC_RE,
    PART_META_RE,
    SENT_ID_RE,
    SPEAKER_RE,
    restore_part,
)
from corefkit.converters.io import iter_lines
from corefkit.converters.ua_exploded.columns import (
    BRIDGING_COLUMN,
    CLOSER_NAME_RE,
    COLUMNS_RE,
    DD_COLUMN,
    DEFAULT_COLUMNS,
    EMPTY_ID_RE,
    IDENTITY_COLUMN,
    KEYS,
    NOM_SEM_COLUMN,
    SETTING_RE,
)
from corefkit.converters.ua_exploded.markables import (
    Column,
    Markable,
    MarkableModel,
    column_of,
    entity_key,
    field_column,
)
from corefkit.errors import FormatError
from corefkit.model import Document, Sentence, Token


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    """Documents of a CoNLL-UA exploded file, one at a time (``# newdoc id`` starts one)."""
    stem = os.path.basename(file)
    stem = os.path.splitext(stem)[0] or stem
    state = _FileState(file, stem)
    builder: _DocumentBuilder | None = None
    ended = True  # the last line read ended with a line end
    for number, line in iter_lines(stream, file, keep_ends=True):
        ended = line[-1:] == "\n"
        if ended:
            line = line[:-1]
        first = line[:1]
        if first == "#":
            found = COLUMNS_RE.match(line)
            if found is not None:
                state.set_columns(found.group(1), number)
                continue
            if line.startswith("# newdoc") or NEWDOC_RE.match(line):
                found = NEWDOC_RE.match(line)
                if found is not None:
                    previous = builder
                    if previous is not None and not previous.only_comments():
                        yield previous.finish(number)
                        previous = None
                    builder = _DocumentBuilder(state, number, found.group(1))
                    if previous is not None:  # comments above the first newdoc belong to it
                        builder.adopt(previous)
                    continue
            if builder is None:
                builder = _DocumentBuilder(state, number, None)
            builder.comment(number, line)
            continue
        if not first or first.isspace() and not line.strip():
            if builder is not None:
                builder.end_sentence()
            continue
        if builder is None:
            builder = _DocumentBuilder(state, number, None)
        builder.token_line(number, line)
    if builder is not None:
        if not ended:
            builder.check_cut_off(number)
        builder.check_ends_early()
        yield builder.finish(None)


class _FileState:
    """What lives for the whole file: its name and the column map in force."""

    def __init__(self, file: str, stem: str) -> None:
        self.file = file
        self.stem = stem
        self.anonymous = 0
        self.names: tuple[str, ...] = ()
        self.set_columns(" ".join(DEFAULT_COLUMNS), None)

    def set_columns(self, declaration: str, line: int | None) -> None:
        names = tuple(declaration.split())
        upper = [n.upper() for n in names]
        missing = [n for n in ("ID", "FORM", IDENTITY_COLUMN) if n not in upper]
        if missing:
            raise FormatError(
                f"global.columns {declaration!r} does not name {', '.join(missing)}; a CoNLL-UA "
                "file needs at least ID, FORM and IDENTITY (default: " + " ".join(DEFAULT_COLUMNS)
                + ")", file=self.file, line=line, column=1, check="ua.columns")
        repeated = sorted({n for n in upper if upper.count(n) > 1})
        if repeated:
            raise FormatError(f"global.columns names {', '.join(repeated)} twice",
                              file=self.file, line=line, column=1, check="ua.columns")
        self.names = tuple(upper)
        self.index = {n: i for i, n in enumerate(upper)}
        self.width = len(upper)
        # positions of FORM, LEMMA ... MISC (None: not declared), for building tokens
        self.token_fields = [self.index.get(c) for c in DEFAULT_COLUMNS[1:10]]
        known = set(DEFAULT_COLUMNS) | {"SPLIT"}
        self.extra = [(n, i) for i, n in enumerate(upper) if n not in known]


class _DocumentBuilder(MarkableModel):
    """Accumulates one document while its lines are read, then builds the model."""

    def __init__(self, state: _FileState, line: int, doc_id: str | None) -> None:
        self.state = state
        self.file = state.file
        if not doc_id:
            state.anonymous += 1
            doc_id = state.stem if state.anonymous == 1 else f"{state.stem}-{state.anonymous}"
            self.missing_newdoc: int | None = line
        else:
            self.missing_newdoc = None
        self.doc = Document(doc_id, None, file=state.file)
        self.doc.line = line
        self.tokens = self.doc.tokens
        self.words: list[int] = []            # token index of word N at position N-1
        self.comments: list[str] = []
        self.comment_line: int | None = None
        self.part: str | None = None  # from a "# meta::part" line
        self.sentence_start = 0
        self.sentence_line: int | None = None
        self.sentence_visual: list[list[str]] = []
        self.speaker: str | None = None
        self.setting_pending = False
        self.setting_sentence: int | None = None
        self.columns = {name: Column(name) for name in
                        (IDENTITY_COLUMN, DD_COLUMN, BRIDGING_COLUMN, NOM_SEM_COLUMN)}
        self.splits: list[tuple[str, list[str], int, int]] = []  # v1.0 SPLIT items
        self.references: list[tuple[int, str, Markable | None, int]] = []
        self.spellings: set[str] = set()
        self.tab_lines = 0
        self.space_lines = 0
        self.short_lines = 0
        self.last_token_line, self.last_token_fields = 0, 0
        self.no_identity = 0                  # token lines that end before IDENTITY
        self.no_identity_line: int | None = None
        self.extra_values = 0
        if self.missing_newdoc is not None:
            self.repair("ua.missing-newdoc", line,
                        f"document without a '# newdoc id = ...' line; named it {doc_id!r} after "
                        "the file")

    def only_comments(self) -> bool:
        """True for an anonymous document that has seen nothing but comments so far."""
        return self.missing_newdoc is not None and not self.tokens and not self.sentence_visual

    def adopt(self, previous: _DocumentBuilder) -> None:
        """Take over the comments read before this document's ``# newdoc`` line."""
        self.state.anonymous -= 1
        self.comments = previous.comments + self.comments
        self.comment_line = previous.comment_line
        self.setting_pending = previous.setting_pending

    # ------------------------------------------------------------------ comments and sentences
    def comment(self, number: int, line: str) -> None:
        if self.sentence_has_tokens():
            # CoNLL-U puts comments before a sentence only; a comment after token lines
            # without a blank line starts the next sentence.
            self.repair("ua.missing-blank-line", number,
                        "comment line right after token lines; ended the sentence there")
            self.end_sentence()
        part = PART_META_RE.match(line)
        if part is not None and not self.doc.sentences:
            self.part = part.group(1)  # document metadata, written back from Document.part
            return
        if self.comment_line is None:
            self.comment_line = number
        if SETTING_RE.match(line):
            self.setting_pending = True
        self.comments.append(line)

    def sentence_has_tokens(self) -> bool:
        return len(self.tokens) > self.sentence_start

    def end_sentence(self) -> None:
        if not self.sentence_has_tokens():
            return  # comments (and visual objects) wait for the next sentence
        sent_id = None
        for comment in self.comments:
            if "speaker" in comment:
                found = SPEAKER_RE.match(comment)
                if found:
                    self.speaker = found.group(1)
            elif sent_id is None and "sent_id" in comment:
                found = SENT_ID_RE.match(comment)
                if found:
                    sent_id = found.group(1)
        index = len(self.doc.sentences)
        attrs: dict[str, Any] = {"line": self.comment_line or self.sentence_line}
        if self.sentence_visual:
            attrs["ua_visual_objects"] = self.sentence_visual
            self.sentence_visual = []
        sentence = Sentence(index, self.sentence_start, len(self.tokens), sent_id=sent_id,
                            comments=self.comments, speaker=self.speaker, attrs=attrs)
        self.doc.sentences.append(sentence)
        if self.setting_pending and self.setting_sentence is None:
            self.setting_sentence = index
        self.setting_pending = False
        self.comments = []
        self.comment_line = None
        self.sentence_start = len(self.tokens)
        self.sentence_line = None

    # ------------------------------------------------------------------ token lines
    def check_cut_off(self, number: int) -> None:
        """The file ends inside line ``number``: say so if it is a token line that lacks fields.

        A last line without its line end is common and harmless; a last token line that also
        lacks declared columns is a file cut off in the middle of a line (a truncated copy or
        download), which the UA scorers read without a word.
        """
        if self.last_token_line == number and self.last_token_fields < self.state.width:
            self.repair("ua.truncated", number,
                        f"the file ends in the middle of this token line ({self.last_token_fields} "
                        f"of {self.state.width} fields, no line end): the file looks cut off; "
                        "read what is there")

    def check_ends_early(self) -> None:
        """The file ends before a sentence or a document it began: the comments of a sentence
        (its ``# sent_id`` or ``# text``) with no token line after them, or a document with no
        token line at all. Read as they stand, such files gave a document of 0 tokens and a
        score of 0 without a word: a file cut off at a line end (a partial copy)."""
        announced = [c for c in self.comments if SENT_ID_RE.match(c) or c.startswith("# text")]
        if announced and not self.sentence_has_tokens():
            self.repair("ua.truncated", self.comment_line,
                        f"the file ends after the comments of a sentence ({announced[0]!r}) "
                        "without its token lines: the file looks cut off; read what is there")
        elif not self.tokens:
            self.repair("ua.truncated", self.doc.line,
                        f"document {self.doc.id!r} has no token line: the file ends right after "
                        "its start and looks cut off; read as an empty document")

    def token_line(self, number: int, line: str) -> None:
        state = self.state
        fields = self._fields(number, line)
        n = len(fields)
        index = state.index
        tid = fields[0]
        if tid == "0":
            self._visual_object(number, line, fields)
            return
        if self.sentence_line is None:
            self.sentence_line = number
        is_empty = False
        if tid.isdecimal():
            expected = len(self.words) + 1
            if int(tid) != expected:
                raise self.error(self._id_order_message(tid, expected), number,
                                 "ua.token-id-order", 1)
        else:
            found = EMPTY_ID_RE.match(tid)
            if found is None or int(found.group(1)) != len(self.words) or int(found.group(2)) == 0:
                expected = len(self.words) + 1
                raise self.error(self._id_order_message(tid, expected), number,
                                 "ua.token-id-order", 1)
            is_empty = True
        position = len(self.tokens)
        form, lemma, upos, xpos, feats, head, deprel, deps, misc = [
            fields[i] if i is not None and i < n else "_" for i in state.token_fields]
        token = Token(form, position, len(self.doc.sentences), None, None, lemma, upos, xpos,
                      feats, head, deprel, deps, misc, None, is_empty)
        if state.extra:
            values = {name: fields[i] for name, i in state.extra if i < n and fields[i] != "_"}
            if values:
                token.attrs["ua_columns"] = values
                self.extra_values += 1
        self.tokens.append(token)
        if not is_empty:
            self.words.append(position)
        opened: list[Markable] = []
        for name in (IDENTITY_COLUMN, DD_COLUMN, BRIDGING_COLUMN, NOM_SEM_COLUMN):
            i = index.get(name)
            if i is not None and i < n:
                cell = fields[i]
                if cell != "_":
                    self._cell(self.columns[name], cell, position, number, line, i, opened)
        i = index.get("SPLIT")
        if i is not None and i < n and fields[i] != "_":
            self._split_cell(fields[i], position, number, line, i)
        i = index.get("REFERENCE")
        if i is not None and i < n and fields[i] != "_":
            target = next((m for m in opened if m.column in (IDENTITY_COLUMN, DD_COLUMN)), None)
            self.references.append((position, fields[i], target, number))

    def _fields(self, number: int, line: str) -> list[str]:
        """The fields of a token line (TAB-separated or space-aligned), counted for the
        layout repairs; more fields than columns are refused."""
        state = self.state
        if "\t" in line:
            fields = [f.strip() for f in line.rstrip().split("\t")]
            self.tab_lines += 1
            if "" in fields:
                i = fields.index("")
                name = state.names[i] if i < state.width else f"field {i + 1}"
                raise self.error(
                    f"field {i + 1} ({name}) is empty or only white space; the UA scorer splits "
                    "lines at white space, so the columns after it would shift: write '_' for "
                    "an empty value", number, "ua.empty-field", field_column(line, i))
        else:
            fields = line.split()
            self.space_lines += 1
        n = len(fields)
        self.last_token_line, self.last_token_fields = number, n
        if n > state.width:
            raise self.error(
                f"{n} fields but global.columns names {state.width} columns "
                f"({' '.join(state.names)}); check for a space inside a field of a "
                "space-aligned line, or declare the extra columns",
                number, "ua.too-many-fields", field_column(line, state.width))
        if n < state.width:
            self.short_lines += 1  # accepted: missing trailing fields are '_' (§6)
            if n <= state.names.index(IDENTITY_COLUMN):  # ... but not the IDENTITY column
                self.no_identity += 1
                if self.no_identity_line is None:
                    self.no_identity_line = number
        return fields

    def _id_order_message(self, tid: str, expected: int) -> str:
        previous = len(self.words)
        if tid.isdecimal() and int(tid) == 1 and previous > 0:
            return (f"token id 1 after token {previous}: CoNLL-UA token ids run through the whole "
                    "document (not per sentence as in CoNLL-U); renumber the tokens or add a "
                    "'# newdoc id = ...' line if a new document starts here")
        return (f"token id {tid!r} where {expected} (or a zero {previous}.k) was expected; ids "
                "run 1, 2, ... through the document, zeros are N.k after token N")

    def _visual_object(self, number: int, line: str, fields: list[str]) -> None:
        """A line with id 0: an object of the visual situation (v1.1 text), not a token."""
        state = self.state
        n = len(fields)
        values = [fields[state.index[c]] if c in state.index and state.index[c] < n else "_"
                  for c in DEFAULT_COLUMNS]
        bracket = [c for c in (IDENTITY_COLUMN, BRIDGING_COLUMN, DD_COLUMN, NOM_SEM_COLUMN)
                   if values[DEFAULT_COLUMNS.index(c)] != "_"]
        if bracket:
            self.repair("ua.visual-object-markable", number,
                        f"a visual-situation line (id 0) has a {bracket[0]} value; id-0 lines are "
                        "scene objects, not tokens: the value is kept as written but not read "
                        "as a markable")
        self.sentence_visual.append(values)
        reference = values[DEFAULT_COLUMNS.index("REFERENCE")]
        self.doc.attrs.setdefault("visual_objects", []).append(
            {"form": values[1], "reference": None if reference == "_" else reference,
             "line": number})

    # ------------------------------------------------------------------ bracket cells
    def _cell(self, column: Column, cell: str, index: int, number: int, line: str,
              field: int, opened: list[Markable]) -> None:
        if column.name == BRIDGING_COLUMN and "(" not in cell and ")" not in cell and "=" in cell:
            # the v1.1 text writes bridging without brackets; the scorers would skip it
            self.repair("ua.unbracketed-bridging", number,
                        f"bridging value {cell!r} without brackets; read it as a one-token "
                        "bridging markable (the UA scorers ignore unbracketed values)",
                        column=field_column(line, field))
            record = self._open(column, cell, index, number, True, line, field, 0)
            record.bracketed = False  # its extent is unknown: the markable's start only
            opened.append(record)
            return
        pos = 0
        n = len(cell)
        seen_opener = False
        while pos < n:
            ch = cell[pos]
            if ch == "(":
                opens, closes = cell.find("(", pos + 1), cell.find(")", pos + 1)
                end = min(opens if opens >= 0 else n, closes if closes >= 0 else n)
                single = end < n and cell[end] == ")"
                opened.append(self._open(column, cell[pos + 1:end], index, number, single, line,
                                         field, pos + 1))
                seen_opener = True
                pos = end + 1 if single else end
            elif ch == "@":
                self.repair("ua.at-separator", number,
                            "'@' between bracket chunks (the v1.1 examples' separator); ignored",
                            column=field_column(line, field) + pos)
                pos += 1
            else:
                end = cell.find(")", pos)
                name = cell[pos:end] if end >= 0 else cell[pos:]
                if end < 0 or not CLOSER_NAME_RE.match(name):
                    raise self.error(
                        f"cannot read {cell[pos:]!r} in the {column.name} value {cell!r}; expected "
                        "chunks '(Key=value|...', '(...)', ')' or 'markable_N)'",
                        number, "ua.bad-chunk", field_column(line, field) + pos)
                if seen_opener:
                    self.repair("ua.closer-after-opener", number,
                                f"closing bracket after an opening one in {cell!r}; read as a "
                                "one-token markable followed by a closer (the UA scorers read it "
                                "as part of the last value: write closers first)",
                                column=field_column(line, field) + pos)
                self._close(column, name, index, number, line, field, pos)
                pos = end + 1

    def _features(self, text: str, number: int, line: str, field: int,
                  offset: int) -> tuple[dict[str, str], list[tuple[str, str]]]:
        """Known keys (canonical names) and the other keys (as spelled), in order."""
        known: dict[str, str] = {}
        extras: list[tuple[str, str]] = []
        at = offset
        for item in text.split("|"):
            if not item:
                at += 1
                continue
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise self.error(
                    f"feature {item!r} has no 'key=' part; features are 'Key=value' joined by "
                    "'|'", number, "ua.bad-feature", field_column(line, field) + at)
            if value.endswith("@"):
                value = value.rstrip("@")
                self.repair("ua.at-separator", number,
                            f"value {item!r} ends in '@' (the v1.1 examples' separator between "
                            "openers); stripped it", column=field_column(line, field) + at)
            canonical = KEYS.get(key.lower().replace("_", ""))
            if canonical is None:
                extras.append((key, value))
            else:
                if key != canonical and key not in self.spellings:
                    self.spellings.add(key)
                    self.repair("ua.key-spelling", number,
                                f"key {key!r} read as {canonical!r}",
                                column=field_column(line, field) + at)
                if canonical in known:
                    self.repair("ua.duplicate-key", number,
                                f"{canonical} given twice in one opener; kept the first",
                                "dropped", field_column(line, field) + at)
                else:
                    known[canonical] = value
            at += len(item) + 1
        return known, extras

    def _open(self, column: Column, text: str, index: int, number: int, single: bool,
              line: str, field: int, offset: int) -> Markable:
        known, extras = self._features(text, number, line, field, offset)
        source = (line, field, max(offset - 1, 0))  # the '(' of the opener
        name = column.name
        if name in (IDENTITY_COLUMN, DD_COLUMN) and not known.get("EntityID"):
            raise self.error(f"{name} markable without EntityID: {text!r}; every markable names "
                             "its entity (EntityID=N, N-Pseudo for non-referring ones)",
                             number, "ua.missing-key", column_of(source))
        mid = known.get("MarkableID")
        if not mid:
            raise self.error(f"{name} markable without MarkableID: {text!r}; the UA scorers "
                             "need MarkableID=... on every opener", number, "ua.missing-key",
                             column_of(source))
        if name == BRIDGING_COLUMN and "MentionAnchor" not in known and "EntityAnchor" not in known:
            raise self.error(f"bridging markable {mid!r} names no anchor; give MentionAnchor "
                             "and/or EntityAnchor", number, "ua.missing-key", column_of(source))
        record = column.by_id.get(mid)
        if record is None:
            record = Markable(name, mid, known, extras, number, source)
            column.by_id[mid] = record
            column.records.append(record)
        elif name in (IDENTITY_COLUMN, DD_COLUMN) and \
                entity_key(known["EntityID"], name) != entity_key(record.known["EntityID"], name):
            raise self.error(
                f"MarkableID {mid!r} is used for entity {known['EntityID']!r} here and for "
                f"{record.known['EntityID']!r} on line {record.line}; a repeated MarkableID is a "
                "further part of the same markable: give this markable its own id",
                number, "ua.markable-id-clash", column_of(source))
        elif known != record.known or extras != record.extras:
            if name == BRIDGING_COLUMN and (known.get("MentionAnchor"), known.get("EntityAnchor"),
                                            known.get("Rel")) != (
                    record.known.get("MentionAnchor"), record.known.get("EntityAnchor"),
                    record.known.get("Rel")):
                # a second relation of the same anaphor (another anchor)
                record = Markable(name, mid, known, extras, number, source)
                column.records.append(record)
            elif not record.reported:
                record.reported = True
                self.repair("ua.part-features-differ", number,
                            f"a further part of {name} markable {mid!r} has other features "
                            f"than its first part (line {record.line}); kept the first part's",
                            "dropped", column_of(source))
        if single:
            record.parts.append((index, index))
        else:
            column.stack.append((record, index, number))
        return record

    def _close(self, column: Column, name: str, index: int, number: int, line: str,
               field: int, offset: int) -> None:
        stack = column.stack
        if not name:
            if not stack:
                raise self.error(
                    f"closing bracket ')' but no {column.name} markable is open; check the lines "
                    "above for a missing '('", number, "ua.unbalanced-close",
                    field_column(line, field) + offset)
            record, start, _ = stack.pop()
        else:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0].mid == name:
                    record, start, _ = stack.pop(i)
                    break
            else:
                raise self.error(
                    f"closer {name + ')'!r} but no {column.name} markable {name!r} is open; check "
                    "the MarkableID of its opener", number, "ua.unbalanced-close",
                    field_column(line, field) + offset)
        record.parts.append((start, index))

    def _split_cell(self, cell: str, index: int, number: int, line: str, field: int) -> None:
        """A v1.0 SPLIT value ``EntityID=1|ElementOf=3``: that entity is a member of set 3."""
        text = cell.strip("()")
        known, _ = self._features(text, number, line, field, 0)
        if "EntityID" not in known or "ElementOf" not in known:
            raise self.error(f"SPLIT value {cell!r} needs EntityID and ElementOf "
                             "(e.g. EntityID=1|ElementOf=3)", number, "ua.missing-key",
                             field_column(line, field))
        sets = [s for s in known["ElementOf"].split(",") if s]
        self.splits.append((known["EntityID"], sets, index, number))

    # ------------------------------------------------------------------ the end of a document
    def finish(self, end_line: int | None) -> Document:
        self.end_sentence()
        doc = self.doc
        if self.part is not None:
            restore_part(doc, self.part)
        if self.comments or self.sentence_visual:
            doc.attrs["ua_trailing_comments"] = self.comments
            if self.sentence_visual:
                doc.attrs["ua_trailing_visual_objects"] = self.sentence_visual
        for column in self.columns.values():
            if column.stack:
                record, _, line = column.stack[0]
                listed = ", ".join(f"{r.mid!r} (line {ln})" for r, _, ln in column.stack)
                raise self.error(
                    f"document {doc.id!r} ends with {column.name} markables still open: {listed}; "
                    "add the missing ')'", line, "ua.unclosed", record.col)
        doc.attrs["ua_columns"] = self.state.names
        doc.attrs["ua_layout"] = {"tab_lines": self.tab_lines, "space_lines": self.space_lines,
                                  "short_lines": self.short_lines}
        self._layout_repairs()
        self.build_model()
        return doc

    def _layout_repairs(self) -> None:
        """Separators and column counts that differ from the CoNLL-U Plus text."""
        doc = self.doc
        # The CoNLL-U Plus text asks for TABs and a field per declared column; CODI-CRAC files
        # align with spaces and drop an empty last column. Both are read, and said (issue 4).
        if self.space_lines and not self.tab_lines:
            self.repair("ua.space-separated", doc.line,
                        f"{self.space_lines} token lines are aligned with spaces, not TABs; read "
                        "by runs of spaces (a field can hold no space)")
        if self.no_identity:
            # the UA scorers read such lines without markables and score 0.00 without a word
            where = self.state.names.index(IDENTITY_COLUMN) + 1
            self.repair("ua.missing-identity", self.no_identity_line,
                        f"{self.no_identity} token lines end before the IDENTITY column (column "
                        f"{where} of {self.state.width}); read without markables. Is the file "
                        "truncated, or are its columns other than global.columns says?")
        if self.short_lines:
            self.repair("ua.missing-columns", doc.line,
                        f"{self.short_lines} token lines have fewer fields than the declared "
                        "columns; the missing trailing fields are read as '_'")
        if self.tab_lines and self.space_lines:
            self.repair("ua.mixed-separators", doc.line,
                        f"{self.tab_lines} token lines are TAB-separated and {self.space_lines} "
                        "space-aligned in one document")
        if self.extra_values:
            self.repair("ua.extra-columns", doc.line,
                        f"{self.extra_values} token lines have values in columns CoNLL-UA does not "
                        f"define ({', '.join(n for n, _ in self.state.extra)}); kept them as token "
                        "attributes 'ua_columns'")
