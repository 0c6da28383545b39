"""CoNLL-UA "exploded" (Universal Anaphora in CoNLL-U Plus): reader and writer.

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

The writer emits canonical files (ua-exploded §6): the 15 default columns, TAB-separated,
markables and entities renumbered in canonical order (conversion-notes §1, §5; the old→new
table goes to the report), ``ElementOf`` on the recorded member markables (else placed as
conversion-notes §3 says). What it decides beyond the spec:

* Bracket order follows conversion-notes §5 except that a one-token markable is written
  *after* the closers also on a token without openers (``)(…)``): the UA scorers read
  ``(…))`` as a value ending in ``)`` (ua-exploded §3.1 and §7).
* Crossing is judged on bracket parts (the parts of two discontinuous markables may
  interleave without crossing). Without ``allow_id_closers`` the later of two crossing
  markables is left out and reported; with it every closer of that document names its
  markable, as the UA scorer's crossing mode needs — and since the closers name markables,
  not entities, this holds crossing markables of one entity too.
* ``Min`` is one range of word ids: a gapped min span is written as its hull, empty nodes at
  its ends are left out (the scorers read ``Min`` as integers), a head becomes the ``Min`` of
  a markable that has none; each is reported.
* Whitespace inside a token field becomes ``_`` (the UA scorers split lines on any
  whitespace); CorefUD's ``Entity``/``SplitAnte``/``Bridge`` items are not copied from MISC;
  entity attributes and document metadata have no place and are reported lost.

**Compact encoding.** CorefUD cannot hold non-referring markables or a DD layer. The passes
``ua-compact-encode`` and ``ua-compact-decode`` (defined at the end of this module) carry them
through CorefUD as ordinary identity entities whose mentions carry an ``other`` key:
``nonref:<kind>`` on a non-referring markable (a singleton entity, conversion-notes §4) and
``dd:own`` / ``dd:shared`` on the mentions of a DD entity (``shared``: the DD markable shares
its MarkableID with the identity markable on the same tokens).
"""

from __future__ import annotations

import bisect
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import IO, Any, BinaryIO

from corefkit.converters.conllu_comments import (
    NEWDOC_RE,
    PART_META_RE,
    SENT_ID_RE,
    SPEAKER_RE,
    comment_line,
    newdoc_id,
    part_lines,
    restore_part,
    sentence_comments,
)

from corefkit.converters.io import iter_lines
from corefkit.converters.loss import (
    MAX_EXAMPLES,
    ConversionReport,
    LossRecord,
    describe_mention,
    user_attributes,
)
from corefkit.errors import FormatError, Repair
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention, Sentence, Token
from corefkit.passes.registry import register_pass

DEFAULT_COLUMNS = (
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
    "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM",
)
COLUMNS_LINE = "# global.columns = " + " ".join(DEFAULT_COLUMNS)

COLUMNS_RE = re.compile(r"^#\s*global\.columns\s*=\s*(.*?)\s*$")
SETTING_RE = re.compile(r"^#\s*setting\s*$")
EMPTY_ID_RE = re.compile(r"^([0-9]+)\.([0-9]+)$")
PSEUDO_RE = re.compile(r"^(.*?)[-_]pseudo$", re.IGNORECASE)
DD_SUFFIX_RE = re.compile(r"^(.*?)-dd$", re.IGNORECASE)
MIN_RE = re.compile(r"^\s*([0-9]+)(?:\s*[,-]\s*([0-9]+))?")  # only the first two numbers count
CLOSER_NAME_RE = re.compile(r"^[^()|=\s]*$")
ID_NUMBER_RE = re.compile(r"^([0-9]+)")
NOT_IN_VALUE_RE = re.compile(r"[()|=%@\s]")

# Known keys, by their spelling with case and underscores removed (ua-exploded §6: key
# spellings vary between files and the v1.1 text).
KEYS = {
    "entityid": "EntityID", "markableid": "MarkableID", "mentionid": "MarkableID",
    "min": "Min", "semtype": "SemType", "elementof": "ElementOf", "rel": "Rel",
    "mentionanchor": "MentionAnchor", "entityanchor": "EntityAnchor",
}
# NOM_SEM keys whose attribute name has a conventional spelling in the file.
NOM_SEM_SPELLING = {"entity_type": "Entity_Type", "genericity": "Genericity"}
# Mention attributes the writer places itself (not as extra opener keys).
PLACED_ATTRIBUTES = frozenset({"semtype", "reference"})

IDENTITY_COLUMN = "IDENTITY"
DD_COLUMN = "DISCOURSE_DEIXIS"
BRIDGING_COLUMN = "BRIDGING"
NOM_SEM_COLUMN = "NOM_SEM"




# ============================================================================ reading
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


class _Markable:
    """One markable of a bracket column while its document is read (all its parts)."""

    __slots__ = ("column", "mid", "known", "extras", "parts", "line", "source", "reported",
                 "bracketed")

    def __init__(self, column: str, mid: str, known: dict[str, str],
                 extras: list[tuple[str, str]], line: int, source: tuple[str, int, int]) -> None:
        self.column = column
        self.mid = mid
        self.known = known
        self.extras = extras
        self.parts: list[tuple[int, int]] = []
        self.line = line
        self.source = source  # (line text, field, offset of the opener in the field)
        self.reported = False
        self.bracketed = True

    @property
    def col(self) -> int:
        """1-based column of the opener in its line (computed only for messages)."""
        text, field, offset = self.source
        return _field_column(text, field) + offset

    def tokens(self) -> tuple[int, ...]:
        found: set[int] = set()
        for a, b in self.parts:
            found.update(range(a, b + 1))
        return tuple(sorted(found))


class _Column:
    """Bracket state of one column within a document: open parts and markables by id."""

    __slots__ = ("name", "stack", "by_id", "records")

    def __init__(self, name: str) -> None:
        self.name = name
        self.stack: list[tuple[_Markable, int, int]] = []  # (markable, start token, line)
        self.by_id: dict[str, _Markable] = {}
        self.records: list[_Markable] = []


class _DocumentBuilder:
    """Accumulates one document while its lines are read, then builds the model."""

    def __init__(self, state: _FileState, line: int, doc_id: str | None) -> None:
        self.state = state
        self.file = state.file
        if not doc_id:
            state.anonymous += 1
            doc_id = state.stem if state.anonymous == 1 else f"{state.stem}-{state.anonymous}"
            self.missing_newdoc = line
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
        self.columns = {name: _Column(name) for name in
                        (IDENTITY_COLUMN, DD_COLUMN, BRIDGING_COLUMN, NOM_SEM_COLUMN)}
        self.splits: list[tuple[str, list[str], int, int]] = []  # v1.0 SPLIT items
        self.references: list[tuple[int, str, _Markable | None, int]] = []
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

    # ------------------------------------------------------------------ helpers
    def repair(self, check: str, line: int | None, message: str, action: str = "kept",
               column: int | None = None) -> None:
        self.doc.repairs.append(Repair(check, message, self.file, line, column, self.doc.id,
                                       action))

    def error(self, message: str, line: int | None, check: str,
              column: int | None = None) -> FormatError:
        return FormatError(message, file=self.file, line=line, column=column, check=check)

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

    def token_line(self, number: int, line: str) -> None:
        state = self.state
        if "\t" in line:
            fields = [f.strip() for f in line.rstrip().split("\t")]
            self.tab_lines += 1
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
                number, "ua.too-many-fields", _field_column(line, state.width))
        if n < state.width:
            self.short_lines += 1  # accepted: missing trailing fields are '_' (§6)
            if n <= state.names.index(IDENTITY_COLUMN):  # ... but not the IDENTITY column
                self.no_identity += 1
                if self.no_identity_line is None:
                    self.no_identity_line = number
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
        opened: list[_Markable] = []
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
    def _cell(self, column: _Column, cell: str, index: int, number: int, line: str,
              field: int, opened: list[_Markable]) -> None:
        if column.name == BRIDGING_COLUMN and "(" not in cell and ")" not in cell and "=" in cell:
            # the v1.1 text writes bridging without brackets; the scorers would skip it
            self.repair("ua.unbracketed-bridging", number,
                        f"bridging value {cell!r} without brackets; read it as a one-token "
                        "bridging markable (the UA scorers ignore unbracketed values)",
                        column=_field_column(line, field))
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
                end = pos + 1
                while end < n and cell[end] != "(" and cell[end] != ")":
                    end += 1
                single = end < n and cell[end] == ")"
                opened.append(self._open(column, cell[pos + 1:end], index, number, single, line,
                                         field, pos + 1))
                seen_opener = True
                pos = end + 1 if single else end
            elif ch == "@":
                self.repair("ua.at-separator", number,
                            "'@' between bracket chunks (the v1.1 examples' separator); ignored",
                            column=_field_column(line, field) + pos)
                pos += 1
            else:
                end = cell.find(")", pos)
                name = cell[pos:end] if end >= 0 else cell[pos:]
                if end < 0 or not CLOSER_NAME_RE.match(name):
                    raise self.error(
                        f"cannot read {cell[pos:]!r} in the {column.name} value {cell!r}; expected "
                        "chunks '(Key=value|...', '(...)', ')' or 'markable_N)'",
                        number, "ua.bad-chunk", _field_column(line, field) + pos)
                if seen_opener:
                    self.repair("ua.closer-after-opener", number,
                                f"closing bracket after an opening one in {cell!r}; read as a "
                                "one-token markable followed by a closer (the UA scorers read it "
                                "as part of the last value: write closers first)",
                                column=_field_column(line, field) + pos)
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
                    "'|'", number, "ua.bad-feature", _field_column(line, field) + at)
            if value.endswith("@"):
                value = value.rstrip("@")
                self.repair("ua.at-separator", number,
                            f"value {item!r} ends in '@' (the v1.1 examples' separator between "
                            "openers); stripped it", column=_field_column(line, field) + at)
            canonical = KEYS.get(key.lower().replace("_", ""))
            if canonical is None:
                extras.append((key, value))
            else:
                if key != canonical and key not in self.spellings:
                    self.spellings.add(key)
                    self.repair("ua.key-spelling", number,
                                f"key {key!r} read as {canonical!r}",
                                column=_field_column(line, field) + at)
                if canonical in known:
                    self.repair("ua.duplicate-key", number,
                                f"{canonical} given twice in one opener; kept the first",
                                "dropped", _field_column(line, field) + at)
                else:
                    known[canonical] = value
            at += len(item) + 1
        return known, extras

    def _open(self, column: _Column, text: str, index: int, number: int, single: bool,
              line: str, field: int, offset: int) -> _Markable:
        known, extras = self._features(text, number, line, field, offset)
        source = (line, field, max(offset - 1, 0))  # the '(' of the opener
        name = column.name
        if name in (IDENTITY_COLUMN, DD_COLUMN) and not known.get("EntityID"):
            raise self.error(f"{name} markable without EntityID: {text!r}; every markable names "
                             "its entity (EntityID=N, N-Pseudo for non-referring ones)",
                             number, "ua.missing-key", _column_of(source))
        mid = known.get("MarkableID")
        if not mid:
            raise self.error(f"{name} markable without MarkableID: {text!r}; the UA scorers "
                             "need MarkableID=... on every opener", number, "ua.missing-key",
                             _column_of(source))
        if name == BRIDGING_COLUMN and "MentionAnchor" not in known and "EntityAnchor" not in known:
            raise self.error(f"bridging markable {mid!r} names no anchor; give MentionAnchor "
                             "and/or EntityAnchor", number, "ua.missing-key", _column_of(source))
        record = column.by_id.get(mid)
        if record is None:
            record = _Markable(name, mid, known, extras, number, source)
            column.by_id[mid] = record
            column.records.append(record)
        elif name in (IDENTITY_COLUMN, DD_COLUMN) and \
                _entity_key(known["EntityID"], name) != _entity_key(record.known["EntityID"], name):
            raise self.error(
                f"MarkableID {mid!r} is used for entity {known['EntityID']!r} here and for "
                f"{record.known['EntityID']!r} on line {record.line}; a repeated MarkableID is a "
                "further part of the same markable: give this markable its own id",
                number, "ua.markable-id-clash", _column_of(source))
        elif known != record.known or extras != record.extras:
            if name == BRIDGING_COLUMN and (known.get("MentionAnchor"), known.get("EntityAnchor"),
                                            known.get("Rel")) != (
                    record.known.get("MentionAnchor"), record.known.get("EntityAnchor"),
                    record.known.get("Rel")):
                # a second relation of the same anaphor (another anchor)
                record = _Markable(name, mid, known, extras, number, source)
                column.records.append(record)
            elif not record.reported:
                record.reported = True
                self.repair("ua.part-features-differ", number,
                            f"a further part of {name} markable {mid!r} has other features "
                            f"than its first part (line {record.line}); kept the first part's",
                            "dropped", _column_of(source))
        if single:
            record.parts.append((index, index))
        else:
            column.stack.append((record, index, number))
        return record

    def _close(self, column: _Column, name: str, index: int, number: int, line: str,
               field: int, offset: int) -> None:
        stack = column.stack
        if not name:
            if not stack:
                raise self.error(
                    f"closing bracket ')' but no {column.name} markable is open; check the lines "
                    "above for a missing '('", number, "ua.unbalanced-close",
                    _field_column(line, field) + offset)
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
                    _field_column(line, field) + offset)
        record.parts.append((start, index))

    def _split_cell(self, cell: str, index: int, number: int, line: str, field: int) -> None:
        """A v1.0 SPLIT value ``EntityID=1|ElementOf=3``: that entity is a member of set 3."""
        text = cell.strip("()")
        known, _ = self._features(text, number, line, field, 0)
        if "EntityID" not in known or "ElementOf" not in known:
            raise self.error(f"SPLIT value {cell!r} needs EntityID and ElementOf "
                             "(e.g. EntityID=1|ElementOf=3)", number, "ua.missing-key",
                             _field_column(line, field))
        sets = [s for s in known["ElementOf"].split(",") if s]
        self.splits.append((known["EntityID"], sets, index, number))

    # ------------------------------------------------------------------ building the model
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
        self.entities: dict[tuple[str, str], Entity] = {}
        self.pseudo_members: dict[str, list[Mention]] = {}
        self._identity_and_dd()
        self._sets()
        self._bridging()
        self._nom_sem()
        self._references()
        self._pseudo_entities()
        cycles = doc.split_antecedent_cycles()
        if cycles:
            cycle = cycles[0]
            names = " → ".join(str(e.attrs.get("original_id", e.id)) for e in cycle + cycle[:1])
            line = next((m.line for s in doc.memberships() if s.member in cycle
                         and s.set_entity in cycle for m in s.evidence), doc.line)
            raise self.error(f"split antecedents form a cycle: {names}; a set cannot contain "
                             "itself, directly or through other sets: check the ElementOf "
                             "values", line, "split.cycle")
        return doc

    def _entity(self, layer: str, key: str, raw: str) -> Entity:
        entity = self.entities.get((layer, key))
        if entity is None:
            entity = self.doc.new_entity(layer=layer, attrs={"original_id": raw})
            self.entities[(layer, key)] = entity
        return entity

    def _identity_and_dd(self) -> None:
        """Mentions and entities of the IDENTITY and DISCOURSE_DEIXIS columns."""
        doc = self.doc
        self.mention_of: dict[tuple[str, str], Mention] = {}  # (column, MarkableID) -> mention
        self.markable_of: dict[Mention, _Markable] = {}
        setting = self._setting_shift()
        for name, layer in ((IDENTITY_COLUMN, IDENTITY), (DD_COLUMN, DISCOURSE_DEIXIS)):
            for record in self.columns[name].records:
                raw = record.known["EntityID"]
                key = _entity_key(raw, name)
                tokens = record.tokens()
                attrs: dict[str, Any] = {"markable_id": record.mid}
                if "SemType" in record.known:
                    attrs["semtype"] = record.known["SemType"]
                for k, v in record.extras:
                    attrs.setdefault(k, v)
                nonref = None
                entity = None
                if name == IDENTITY_COLUMN and key.endswith("-Pseudo"):
                    nonref = (record.known.get("SemType") or "unknown").lower()
                    self.pseudo_members.setdefault(key, [])
                else:
                    entity = self._entity(layer, key, raw)
                min_tokens = None
                if "Min" in record.known:
                    min_tokens = self._min(record, tokens, setting)
                mention = doc.add_mention(tokens, entity, layer=layer, min_tokens=min_tokens,
                                          nonref=nonref, attrs=attrs, line=record.line)
                if nonref is not None:
                    mention.attrs["_ua_entity_id"] = raw  # for the id map of a later write
                    self.pseudo_members[key].append(mention)
                self.mention_of[(name, record.mid)] = mention
                self.markable_of[mention] = record

    def _setting_shift(self) -> int:
        """Token count of the LIGHT ``# setting`` sentence (0 if the document has none)."""
        if self.setting_sentence is None:
            return 0
        sentence = self.doc.sentences[self.setting_sentence]
        return sum(1 for i in sentence.token_indices() if not self.tokens[i].is_empty)

    def _min(self, record: _Markable, tokens: tuple[int, ...], shift: int) -> tuple[int, ...] | None:
        value = record.known["Min"]
        found = MIN_RE.match(value)
        if found is None:
            self.repair("ua.bad-min", record.line,
                        f"Min={value!r} of {record.mid!r} is not a token id or range N,M; ignored",
                        "dropped", record.col)
            return None
        first = int(found.group(1))
        last = int(found.group(2)) if found.group(2) else first
        inside = set(tokens)
        span = self._min_tokens(first, last)
        if span is not None and inside.issuperset(span):
            return span
        if shift:
            shifted = self._min_tokens(first + shift, last + shift)
            if shifted is not None and inside.issuperset(shifted):
                moved = f"{first + shift}" if first == last else f"{first + shift},{last + shift}"
                self.repair("ua.min-setting-shift", record.line,
                            f"Min={value} of {record.mid!r} lies outside the markable; it counts "
                            f"tokens without the {shift}-token '# setting' sentence: read as "
                            f"Min={moved}", "repaired", record.col)
                return shifted
        self.repair("ua.min-outside-span", record.line,
                    f"Min={value} of {record.mid!r} lies outside the markable (token "
                    f"{_word_range(self, tokens)}); dropped the Min, kept the markable",
                    "dropped", record.col)
        return None

    def _min_tokens(self, first: int, last: int) -> tuple[int, ...] | None:
        words = self.words
        if first < 1 or last < first or last > len(words):
            return None
        return tuple(range(words[first - 1], words[last - 1] + 1))

    def _sets(self) -> None:
        """ElementOf (IDENTITY and DD openers, v1.0 SPLIT column) as accommodated sets."""
        doc = self.doc
        statements: list[tuple[str, str, str, Mention | None, int]] = []
        for (name, _), mention in self.mention_of.items():
            record = self.markable_of[mention]
            value = record.known.get("ElementOf")
            if value:
                for set_id in value.split(","):
                    if set_id.strip():
                        statements.append((name, record.known["EntityID"], set_id.strip(),
                                           mention, record.line))
        for member_id, set_ids, index, line in self.splits:
            evidence = None
            key = _entity_key(member_id, IDENTITY_COLUMN)
            for (name, _), mention in self.mention_of.items():
                if name == IDENTITY_COLUMN and mention.start == index and \
                        _entity_key(self.markable_of[mention].known["EntityID"], name) == key:
                    evidence = mention
                    break
            for set_id in set_ids:
                statements.append((IDENTITY_COLUMN, member_id, set_id, evidence, line))
        missing_reported: set[tuple[str, str]] = set()
        for name, member_id, set_id, evidence, line in statements:
            layer = IDENTITY if name == IDENTITY_COLUMN else DISCOURSE_DEIXIS
            member = self._relation_entity(name, member_id, line)
            if member is None:  # a v1.0 SPLIT value naming an entity without markables
                self.repair("ua.set-without-mentions", line,
                            f"SPLIT names entity {member_id} as a member of {set_id}, but it has no "
                            "markable; ignored", "dropped")
                continue
            set_key = _entity_key(set_id, name)
            set_entity = self.entities.get((layer, set_key))
            if set_entity is None and set_key.endswith("-Pseudo"):
                set_entity = self._pseudo_entity(set_key)
            if set_entity is None:
                set_entity = self._entity(layer, set_key, set_id)
                if (layer, set_key) not in missing_reported:
                    missing_reported.add((layer, set_key))
                    self.repair("ua.set-without-mentions", line,
                                f"ElementOf={set_id} names an entity with no markable in the "
                                f"{name} column; kept the set without mentions")
            doc.add_to_set(member, set_entity, evidence=() if evidence is None else (evidence,))
        for set_entity, members in doc.accommodated_sets().items():
            if len(members) < 2:
                line = next((m.line for s in doc.memberships() if s.set_entity is set_entity
                             for m in s.evidence), doc.line)
                self.repair("ua.set-one-member", line,
                            f"split-antecedent set {set_entity.attrs.get('original_id')} has one "
                            f"member ({members[0].attrs.get('original_id')}); kept it")

    def _relation_entity(self, name: str, raw: str, line: int) -> Entity | None:
        """The entity called ``raw`` in ``name``'s column, for a relation (pseudo if needed)."""
        layer = IDENTITY if name == IDENTITY_COLUMN else DISCOURSE_DEIXIS
        key = _entity_key(raw, name)
        if key.endswith("-Pseudo") and name == IDENTITY_COLUMN:
            return self._pseudo_entity(key)
        return self.entities.get((layer, key))

    def _pseudo_entity(self, key: str) -> Entity | None:
        """The pseudo entity of Pseudo id ``key``, made on first use (conversion-notes §4)."""
        entity = self.entities.get((IDENTITY, key))
        if entity is not None:
            return entity
        mentions = self.pseudo_members.get(key)
        if not mentions:
            return None
        raw = self.markable_of[mentions[0]].known["EntityID"]
        entity = self.doc.new_entity(pseudo=True, attrs={"original_id": raw})
        self.entities[(IDENTITY, key)] = entity
        for mention in mentions:
            self.doc.set_entity(mention, entity)
        return entity

    def _pseudo_entities(self) -> None:
        # several markables sharing one Pseudo id stay together in one pseudo entity
        for key, mentions in self.pseudo_members.items():
            if len(mentions) > 1:
                self._pseudo_entity(key)

    def _find_mention(self, mid: str) -> Mention | None:
        for name in (IDENTITY_COLUMN, DD_COLUMN, BRIDGING_COLUMN, NOM_SEM_COLUMN):
            mention = self.mention_of.get((name, mid))
            if mention is not None:
                return mention
        return None

    def _unlinked_mention(self, record: _Markable, column: str) -> Mention:
        mention = self.doc.add_mention(record.tokens(), None, layer=IDENTITY,
                                       attrs={"markable_id": record.mid}, line=record.line)
        self.mention_of[(column, record.mid)] = mention
        self.markable_of[mention] = record
        return mention

    def _bridging(self) -> None:
        doc = self.doc
        for record in self.columns[BRIDGING_COLUMN].records:
            anaphor = self.mention_of.get((IDENTITY_COLUMN, record.mid)) or \
                self._find_mention(record.mid)
            if anaphor is None:
                self.repair("ua.bridging-without-identity", record.line,
                            f"bridging markable {record.mid!r} has no identity markable; kept it as "
                            "a mention without entity", column=record.col)
                anaphor = self._unlinked_mention(record, BRIDGING_COLUMN)
            elif anaphor.tokens != record.tokens() and (
                    record.bracketed or anaphor.start != record.parts[0][0]):
                self.repair("ua.bridging-span-mismatch", record.line,
                            f"bridging markable {record.mid!r} spans other tokens than the markable "
                            "with that MarkableID; the relation is kept on that markable",
                            column=record.col)
            known = record.known
            anchor_mention = None
            anchor = None
            mention_anchor = known.get("MentionAnchor")
            entity_anchor = known.get("EntityAnchor")
            if mention_anchor:
                anchor_mention = self.mention_of.get((IDENTITY_COLUMN, mention_anchor)) or \
                    self.mention_of.get((DD_COLUMN, mention_anchor))
                if anchor_mention is None:
                    self.repair("ua.unknown-anchor", record.line,
                                f"MentionAnchor={mention_anchor} of bridging markable "
                                f"{record.mid!r} names no markable; dropped the relation",
                                "dropped", record.col)
                    continue
                anchor = doc.entity_of(anchor_mention)
                if anchor is None and anchor_mention.nonref is not None:
                    anchor = self._pseudo_entity(
                        _entity_key(self.markable_of[anchor_mention].known["EntityID"],
                                    IDENTITY_COLUMN))
                if anchor is None:
                    self.repair("ua.unknown-anchor", record.line,
                                f"MentionAnchor={mention_anchor} of bridging markable "
                                f"{record.mid!r} has no entity; dropped the relation", "dropped",
                                record.col)
                    continue
                if entity_anchor and _entity_key(entity_anchor, IDENTITY_COLUMN) != _entity_key(
                        self.markable_of[anchor_mention].known["EntityID"], IDENTITY_COLUMN):
                    self.repair("ua.entity-anchor-mismatch", record.line,
                                f"bridging markable {record.mid!r}: EntityAnchor={entity_anchor} but "
                                f"MentionAnchor {mention_anchor} belongs to entity "
                                f"{self.markable_of[anchor_mention].known['EntityID']}; trusted the "
                                "mention", column=record.col)
            else:
                anchor = self._relation_entity(IDENTITY_COLUMN, entity_anchor or "", record.line)
                if anchor is None:
                    self.repair("ua.unknown-anchor", record.line,
                                f"EntityAnchor={entity_anchor} of bridging markable {record.mid!r} "
                                "names no entity; dropped the relation", "dropped", record.col)
                    continue
            attrs = {k: v for k, v in record.extras}
            doc.add_bridging(anaphor, anchor, relation=known.get("Rel"),
                             anchor_mention=anchor_mention, attrs=attrs)

    def _nom_sem(self) -> None:
        for record in self.columns[NOM_SEM_COLUMN].records:
            mention = self._find_mention(record.mid)
            if mention is None:
                self.repair("ua.nom-sem-without-markable", record.line,
                            f"NOM_SEM markable {record.mid!r} has no identity markable; kept it as "
                            "a mention without entity", column=record.col)
                mention = self._unlinked_mention(record, NOM_SEM_COLUMN)
            keys = []
            for key, value in record.extras:
                mention.attrs.setdefault(key.lower(), value)
                keys.append(key)
            for key, value in record.known.items():  # known UA keys inside NOM_SEM: keep them
                if key != "MarkableID":
                    mention.attrs.setdefault(key.lower(), value)
                    keys.append(key)
            mention.attrs["_ua_nom_sem"] = tuple(keys)

    def _references(self) -> None:
        for index, value, record, line in self.references:
            if record is not None:
                mention = self.mention_of.get((record.column, record.mid))
                if mention is not None:
                    mention.attrs["reference"] = value
                    continue
            self.tokens[index].attrs["ua_reference"] = value
            self.repair("ua.reference-without-markable", line,
                        f"REFERENCE {value!r} on a token where no markable opens; kept it on the "
                        "token")


def _entity_key(raw: str, column: str) -> str:
    """The entity key of an EntityID within its column (``_Pseudo`` = ``-Pseudo``; no ``-DD``)."""
    if column == DD_COLUMN:
        found = DD_SUFFIX_RE.match(raw)
        return found.group(1) if found else raw
    found = PSEUDO_RE.match(raw)
    return found.group(1) + "-Pseudo" if found else raw


def _word_range(builder: _DocumentBuilder, tokens: tuple[int, ...]) -> str:
    ids = [_token_id_text(builder.doc.tokens, builder.words, t) for t in (tokens[0], tokens[-1])]
    return ids[0] if ids[0] == ids[1] else f"{ids[0]}-{ids[1]}"


def _token_id_text(tokens: list[Token], words: list[int], index: int) -> str:
    word = bisect.bisect_right(words, index)
    if tokens[index].is_empty:
        k = index - (words[word - 1] if word else -1)
        return f"{word}.{k}"
    return str(word)


def _column_of(source: tuple[str, int, int]) -> int:
    text, field, offset = source
    return _field_column(text, field) + offset


def _field_column(line: str, field: int) -> int:
    """1-based column where field number ``field`` (0-based) starts in a token line."""
    if "\t" in line:
        parts = line.split("\t")
        position = sum(len(p) + 1 for p in parts[:field])
        if field < len(parts):
            position += len(parts[field]) - len(parts[field].lstrip())
        return position + 1
    found = list(re.finditer(r"\S+", line))
    if field < len(found):
        return found[field].start() + 1
    return len(line.rstrip()) + 2


# ============================================================================ writing
def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {}


def partial_losses(doc: Document, *, allow_zeros: bool = False, allow_id_closers: bool = False,
                   align_spaces: bool = False) -> list[LossRecord]:
    """Loss records for what this document needs that the writer's options cannot hold.

    The format holds zeros only as UA scorer 2.0 ids (``allow_zeros``), crossing markables
    only with closers that name them (``allow_id_closers``), heads only as a Min, min spans
    only as one range, and one bridging anchor per markable (formats/README.md, loss table).
    """
    return _Plan(doc, allow_zeros, allow_id_closers).losses


def write_stream(
    documents: Iterable[Document],
    out: IO[str],
    report: ConversionReport,
    *,
    allow_zeros: bool = False,
    allow_id_closers: bool = False,
    align_spaces: bool = False,
) -> None:
    """Write documents as canonical CoNLL-UA exploded (ua-exploded §6).

    ``allow_zeros`` writes empty nodes as ``N.k`` token lines (UA scorer 2.0); without it
    zero mentions are left out and reported. ``allow_id_closers`` writes documents with
    crossing markables with closers that name them (``markable_3)``, UA scorer 2.0; every
    closer of such a document is named, as the scorer's crossing mode requires); without it
    the later of two crossing markables is left out and reported. ``align_spaces`` pads the
    fields with spaces to columns per sentence (the CODI-CRAC look) instead of TABs.
    """
    out.write(COLUMNS_LINE + "\n")
    for doc in documents:
        plan = _Plan(doc, allow_zeros, allow_id_closers)
        out.write(plan.render(align_spaces))
        report.repairs.extend(plan.repairs)
        if plan.id_map:
            report.id_maps[doc.name] = plan.id_map


class _Plan:
    """What the writer does with one document: which mentions go where, with which ids.

    ``partial_losses`` and ``write_stream`` both build it, so that the loss report and the
    written file always agree.
    """

    def __init__(self, doc: Document, allow_zeros: bool, allow_id_closers: bool) -> None:
        self.doc = doc
        self.allow_zeros = allow_zeros
        self.allow_id_closers = allow_id_closers
        self.losses: list[LossRecord] = []
        self.repairs: list[Repair] = []
        self.notes: dict[tuple[str, str], list[str]] = {}  # (check, action) -> examples
        self.id_map: dict[str, str] = {}
        self._token_ids()
        self._choose_mentions()
        self._number()
        self._relations()

    # ------------------------------------------------------------------ helpers
    def loss(self, feature: str, found: list[str], action: str) -> None:
        if found:
            self.losses.append(LossRecord(feature, len(found), action, found[:MAX_EXAMPLES],
                                          self.doc.name))

    def repair(self, check: str, message: str, action: str = "approximated") -> None:
        self.repairs.append(Repair(check, message, document=self.doc.name, action=action))

    def note(self, check: str, example: str, action: str) -> None:
        """A writer change that may repeat: reported once per document, with a count."""
        self.notes.setdefault((check, action), []).append(example)

    def flush_notes(self) -> None:
        what = {
            "ua.value-escaped": "values contain characters CoNLL-UA values cannot hold "
                                "('(', ')', '|', '=', '%', '@', whitespace); wrote them as %XX",
            "ua.attribute-dropped": "attribute names cannot be written as CoNLL-UA keys",
            "ua.reference-conflict": "REFERENCE values were dropped: another markable starting "
                                     "on the same token has one (only one fits the column)",
        }
        for (check, action), examples in self.notes.items():
            shown = "; ".join(examples[:MAX_EXAMPLES])
            self.repair(check, f"{len(examples)} {what[check]} (first: {shown})", action)
        self.notes = {}

    def describe(self, mention: Mention) -> str:
        return describe_mention(self.doc, mention)

    # ------------------------------------------------------------------ tokens
    def _token_ids(self) -> None:
        """File ids of the written tokens: words 1..n through the document, zeros N.k."""
        self.ids: dict[int, str] = {}
        self.word_number: dict[int, int] = {}
        word = 0
        empty = 0
        for token in self.doc.tokens:
            if token.is_empty:
                empty += 1
                if self.allow_zeros:
                    self.ids[token.index] = f"{word}.{empty}"
            else:
                word += 1
                empty = 0
                self.ids[token.index] = str(word)
                self.word_number[token.index] = word

    def written_tokens(self, mention: Mention) -> tuple[int, ...]:
        ids = self.ids
        return tuple(t for t in mention.tokens if t in ids)

    def parts(self, tokens: tuple[int, ...]) -> list[tuple[int, int]]:
        """Maximal runs of consecutive *written* tokens (left-out zeros do not split a part)."""
        runs: list[tuple[int, int]] = []
        order = self.order
        for t in tokens:
            if runs and order[runs[-1][1]] + 1 == order[t]:
                runs[-1] = (runs[-1][0], t)
            else:
                runs.append((t, t))
        return runs

    # ------------------------------------------------------------------ which mentions
    def _choose_mentions(self) -> None:
        doc = self.doc
        self.order = {t: i for i, t in enumerate(sorted(self.ids))}
        bridging_anaphors = {b.anaphor for b in doc.bridging()}
        self.tokens_of: dict[Mention, tuple[int, ...]] = {}
        identity: list[Mention] = []
        dd: list[Mention] = []
        side: list[Mention] = []  # identity-layer mentions without entity: BRIDGING / NOM_SEM only
        zero_dropped: list[str] = []
        zero_cut: list[str] = []
        unlinked: list[str] = []
        for mention in doc.sorted_mentions():
            if not mention.tokens:
                continue
            tokens = self.written_tokens(mention)
            if not tokens:
                zero_dropped.append(self.describe(mention))
                continue
            if len(tokens) != len(mention.tokens):
                zero_cut.append(self.describe(mention))
            entity = doc.entity_of(mention)
            if mention.layer == IDENTITY:
                if entity is not None or mention.nonref is not None:
                    identity.append(mention)
                elif mention in bridging_anaphors or "_ua_nom_sem" in mention.attrs or \
                        _nom_sem_keys(mention):
                    side.append(mention)
                else:
                    unlinked.append(self.describe(mention))
                    continue
            elif entity is not None:
                dd.append(mention)
            else:
                unlinked.append(self.describe(mention))
                continue
            self.tokens_of[mention] = tokens
        self.loss("zeros", zero_dropped, "dropped (zeros are written only with allow_zeros)")
        self.loss("empty_nodes", zero_cut, "approximated (written without their empty nodes)")
        self.loss("unlinked_mentions", unlinked, "dropped (a markable needs an entity)")
        self.named_closers = False
        same: list[str] = []
        other: list[str] = []
        self.identity = self._uncrossed(identity, same, other)
        self.dd = self._uncrossed(dd, same, other)
        self.side = side
        self.loss("crossing_same_entity", same,
                  "later mention dropped (crossing markables need allow_id_closers)")
        self.loss("crossing_mentions", other,
                  "later mention dropped (crossing markables need allow_id_closers)")

    def _uncrossed(self, mentions: list[Mention], same: list[str],
                   other: list[str]) -> list[Mention]:
        """The mentions whose bracket parts nest; crossing ones kept only with id closers.

        Crossing is decided on bracket parts, not on extents: the parts of two discontinuous
        mentions may interleave without crossing (``tests-ua/discontinuous-craft/TC-Q.key``).
        Bare closers pair last-opened-first, so a part that starts inside another and ends
        after it cannot be written with them. Closers that name their markable (UA scorer
        2.0) can write any crossing, of the same entity or not.
        """
        doc = self.doc
        kept: list[Mention] = []
        starts: list[int] = []   # accepted part intervals in written-token order, by start
        ends: list[int] = []
        owners: list[Entity | None] = []
        longest = 0
        order = self.order
        for mention in mentions:
            parts = [(order[a], order[b]) for a, b in self.parts(self.tokens_of[mention])]
            entity = doc.entity_of(mention)
            crossed: Entity | None | bool = False
            for s, e in parts:
                # accepted parts that could overlap this one start in [s - longest, e]
                lo = bisect.bisect_left(starts, s - longest)
                hi = bisect.bisect_right(starts, e)
                for i in range(lo, hi):
                    a, b = starts[i], ends[i]
                    if a < s < b < e or s < a < e < b:
                        crossed = owners[i]
                        break
                if crossed is not False:
                    break
            if crossed is not False:
                if self.allow_id_closers:
                    self.named_closers = True
                else:
                    found = same if entity is not None and crossed is entity else other
                    found.append(self.describe(mention))
                    continue
            kept.append(mention)
            for s, e in parts:
                i = bisect.bisect_right(starts, s)
                starts.insert(i, s)
                ends.insert(i, e)
                owners.insert(i, entity)
                longest = max(longest, e - s)
        return kept

    # ------------------------------------------------------------------ ids
    def _number(self) -> None:
        doc = self.doc
        self.entity_ids: dict[Entity, str] = {}
        self.nonref_ids: dict[Mention, str] = {}
        counter = 0
        for mention in self.identity:
            entity = doc.entity_of(mention)
            if entity is None:
                counter += 1
                self.nonref_ids[mention] = f"{counter}-Pseudo"
            elif entity not in self.entity_ids:
                counter += 1
                pseudo = entity.pseudo or mention.nonref is not None
                self.entity_ids[entity] = f"{counter}-Pseudo" if pseudo else str(counter)
        dd_counter = 0
        for mention in self.dd:
            entity = doc.entity_of(mention)
            if entity not in self.entity_ids:
                dd_counter += 1
                self.entity_ids[entity] = f"{dd_counter}-DD"
        # set entities with no written mention still need an id for ElementOf (numbered after
        # the others, in entity order)
        for set_entity in doc.accommodated_sets():
            if set_entity not in self.entity_ids:
                if set_entity.layer == IDENTITY:
                    counter += 1
                    self.entity_ids[set_entity] = f"{counter}-Pseudo" if set_entity.pseudo \
                        else str(counter)
                else:
                    dd_counter += 1
                    self.entity_ids[set_entity] = f"{dd_counter}-DD"
        self.markable_ids: dict[Mention, str] = {}
        written_identity = set(self.identity)
        n = 0
        for mention in sorted(self.identity + self.side, key=self.position):
            n += 1
            self.markable_ids[mention] = f"markable_{n}"
        by_span: dict[tuple[tuple[int, ...], Any], Mention] = {}
        for mention in self.identity:
            mid = mention.attrs.get("markable_id")
            if mid is not None:
                by_span.setdefault((mention.tokens, mid), mention)
        k = 0
        self.shared: set[Mention] = set()
        for mention in self.dd:
            mid = mention.attrs.get("markable_id")
            partner = by_span.get((mention.tokens, mid)) if mid is not None else None
            if partner is not None and partner in written_identity:
                self.markable_ids[mention] = self.markable_ids[partner]
                self.shared.add(mention)
            else:
                k += 1
                self.markable_ids[mention] = f"dd_markable_{k}"
        for entity, new in self.entity_ids.items():
            old = entity.attrs.get("original_id")
            if old is not None and str(old) != new:
                self.id_map[str(old)] = new
        for mention, new in self.nonref_ids.items():
            old = mention.attrs.get("_ua_entity_id")
            if old is not None and str(old) != new:
                self.id_map[str(old)] = new
        for mention, new in self.markable_ids.items():
            old = mention.attrs.get("markable_id")
            if old is not None and str(old) != new and mention not in self.shared:
                self.id_map[str(old)] = new

    def position(self, mention: Mention) -> tuple:
        entity = self.doc.entity_of(mention)
        return (mention.start, -mention.end, 0 if mention.layer == IDENTITY else 1,
                entity.id if entity is not None else -1, mention.id)

    def rank(self, mention: Mention) -> int:
        """Entity order of a written mention, for the order of chunks on one token.

        The DD layer counts after the identity layer; mentions without entity (bridging-only
        markables) come last.
        """
        entity = self.doc.entity_of(mention)
        written = self.nonref_ids.get(mention) if entity is None else self.entity_ids.get(entity)
        if written is None:
            return 1 << 40
        number = int(ID_NUMBER_RE.match(written).group(1))
        return number + (1 << 20 if written.endswith("-DD") else 0)

    # ------------------------------------------------------------------ relations
    def _relations(self) -> None:
        doc = self.doc
        # ElementOf: which written markables carry which set ids
        self.element_of: dict[Mention, list[str]] = {}
        written = set(self.identity) | set(self.dd)
        lost_sets: list[str] = []
        for membership in doc.memberships():
            member, set_entity = membership.member, membership.set_entity
            if member.layer != set_entity.layer or set_entity not in self.entity_ids:
                lost_sets.append(f"entity {member.id} in set {set_entity.id}")
                continue
            own = [m for m in doc.mentions_of(member) if m in written]
            if not own:
                lost_sets.append(f"entity {member.id} in set {set_entity.id} (no written mention)")
                continue
            carriers = [m for m in membership.evidence if m in written and doc.entity_of(m) is member]
            if not carriers:
                first_of_set = [m for m in doc.mentions_of(set_entity) if m in written]
                before = [m for m in own if first_of_set and m.start < first_of_set[0].start]
                carriers = [before[-1] if before else own[0]]
            for mention in carriers:
                self.element_of.setdefault(mention, []).append(self.entity_ids[set_entity])
        self.loss("split_antecedents", lost_sets, "dropped")
        # bridging: one relation per anaphor markable
        self.bridges: dict[Mention, tuple[str | None, str, Mention | None, Entity, dict]] = {}
        extra: list[str] = []
        unwritten: list[str] = []
        derived: list[str] = []
        for bridge in doc.bridging():
            anaphor = bridge.anaphor
            if anaphor not in self.markable_ids or bridge.anchor not in self.entity_ids:
                unwritten.append(self.describe(anaphor))
                continue
            if anaphor in self.bridges:
                extra.append(self.describe(anaphor))
                continue
            anchor_mention = bridge.anchor_mention
            if anchor_mention is None or anchor_mention not in self.markable_ids or \
                    doc.entity_of(anchor_mention) is not bridge.anchor:
                candidates = [m for m in doc.mentions_of(bridge.anchor) if m in self.markable_ids]
                before = [m for m in candidates if m.start < anaphor.start]
                after = [m for m in candidates if m.start >= anaphor.start and m is not anaphor]
                anchor_mention = before[-1] if before else (after[0] if after else None)
                if anchor_mention is not None:
                    derived.append(self.describe(anaphor))
            self.bridges[anaphor] = (bridge.relation, self.entity_ids[bridge.anchor],
                                     anchor_mention, bridge.anchor, bridge.attrs)
        self.loss("bridging", extra, "dropped (one bridging anchor per markable)")
        self.loss("bridging", unwritten, "dropped (anaphor or anchor not written)")
        self.loss("bridging", derived,
                  "approximated (anchor mention derived: the anchor entity's closest mention "
                  "before the anaphor, else after)")
        # heads and min spans
        head_as_min: list[str] = []
        head_dropped: list[str] = []
        gapped: list[str] = []
        min_dropped: list[str] = []
        self.min_of: dict[Mention, str] = {}
        for mention in self.identity + self.dd:
            head = mention.head if not mention.head_derived else None
            if mention.min_tokens:
                words = [self.word_number[t] for t in sorted(mention.min_tokens)
                         if t in self.word_number]
                if not words:
                    min_dropped.append(self.describe(mention))
                else:
                    if words[-1] - words[0] + 1 != len(words):
                        gapped.append(self.describe(mention))
                    self.min_of[mention] = _min_text(words[0], words[-1])
                if head is not None:
                    head_dropped.append(self.describe(mention))
            elif head is not None:
                if head in self.word_number:
                    self.min_of[mention] = _min_text(self.word_number[head], self.word_number[head])
                    head_as_min.append(self.describe(mention))
                else:
                    head_dropped.append(self.describe(mention))
        self.loss("heads", head_as_min, "approximated (written as Min)")
        self.loss("heads", head_dropped, "dropped (the markable has a Min, or a zero head)")
        self.loss("min_spans", gapped, "approximated (Min is one range: first to last token)")
        self.loss("min_spans", min_dropped, "dropped (on empty nodes only)")

    # ------------------------------------------------------------------ rendering
    def render(self, align_spaces: bool) -> str:
        doc = self.doc
        identity_cells = self._bracket_cells(self.identity, self._identity_features)
        dd_cells = self._bracket_cells(self.dd, self._dd_features)
        bridging_cells = self._bracket_cells(list(self.bridges), self._bridging_features)
        nom_sem = [m for m in sorted(self.identity + self.side + self.dd, key=self.position)
                   if m not in self.shared and _nom_sem_keys(m)]
        nom_sem_cells = self._bracket_cells(nom_sem, self._nom_sem_features)
        references = self._references()
        lines = [f"# newdoc id = {newdoc_id(doc)}", *part_lines(doc)]
        running_speaker = None
        bad_fields: Counter[str] = Counter()
        tokens = doc.tokens
        ids = self.ids
        for sentence in doc.sentences:
            # UA states a speaker where it changes; a UA source's own lines stay as they were
            lines.extend(sentence_comments(self.doc, sentence, running_speaker,
                                           keep_repeated_speakers="ua_columns" in doc.attrs))
            if sentence.speaker is not None:
                running_speaker = sentence.speaker
            rows: list[list[str]] = [list(v) for v in sentence.attrs.get("ua_visual_objects", [])]
            for index in range(sentence.start, sentence.stop):
                if index not in ids:
                    continue
                token = tokens[index]
                row = [ids[index], token.form, token.lemma, token.upos, token.xpos, token.feats,
                       token.head, token.deprel, token.deps, _misc_without_coreference(token.misc),
                       identity_cells.get(index, "_"), bridging_cells.get(index, "_"),
                       dd_cells.get(index, "_"), references.get(index, "_"),
                       nom_sem_cells.get(index, "_")]
                for k in range(1, 10):
                    value = row[k]
                    if value is None or value == "":
                        row[k] = "_"
                    elif _has_space(value):
                        # the UA scorers split token lines on any whitespace
                        row[k] = "".join("_" if ch.isspace() else ch for ch in value)
                        bad_fields[DEFAULT_COLUMNS[k]] += 1
                rows.append(row)
            lines.extend(_join_rows(rows, align_spaces))
            lines.append("")
        trailing = doc.attrs.get("ua_trailing_comments")
        if trailing:
            lines.extend(comment_line(c) for c in trailing)
        objects = doc.attrs.get("ua_trailing_visual_objects")
        if objects:
            lines.extend(_join_rows([list(v) for v in objects], align_spaces))
            lines.append("")
        self.flush_notes()
        if bad_fields:
            listed = ", ".join(f"{n} {name}" for name, n in sorted(bad_fields.items()))
            self.repair("ua.field-whitespace",
                        f"token fields with whitespace ({listed}): the UA scorers split token "
                        "lines on any whitespace, so each whitespace character became '_'",
                        "renamed")
        mwt = sum(1 for t in tokens if "conllu_mwt" in t.attrs)
        if mwt:
            self.repair("ua.multiword-tokens",
                        f"{mwt} multiword-token range lines are not written (CoNLL-UA has none; "
                        "the UA scorers would count them as words)", "dropped")
        extra = sum(1 for t in tokens if "ua_columns" in t.attrs)
        if extra:
            self.repair("ua.extra-columns",
                        f"{extra} tokens have values in columns beyond the 15 canonical ones; "
                        "not written", "dropped")
        return "\n".join(lines) + "\n"

    def _bracket_cells(self, mentions: list[Mention], features: Any) -> dict[int, str]:
        """The chunks of one column per token, in the order of conversion-notes §5.

        Closers (inner first), then openers (outer first), then one-token markables — also on
        tokens without openers, since the UA scorers misread ``(...))`` (ua-exploded §7).
        """
        order = self.order
        closers: dict[int, list[tuple[tuple, str]]] = {}
        openers: dict[int, list[tuple[tuple, str]]] = {}
        singles: dict[int, list[tuple[tuple, str]]] = {}
        for position, mention in enumerate(mentions):
            text = features(mention)
            mid = self.markable_ids[mention]
            rank = self.rank(mention)
            for a, b in self.parts(self.tokens_of[mention]):
                if a == b:
                    singles.setdefault(a, []).append(((rank, position), f"({text})"))
                else:
                    span = order[b] - order[a]
                    openers.setdefault(a, []).append(((-order[b], -span, rank, position),
                                                      f"({text}"))
                    closer = f"{mid})" if self.named_closers else ")"
                    closers.setdefault(b, []).append(((-order[a], span, -rank, -position),
                                                      closer))
        cells: dict[int, str] = {}
        for token in set(closers) | set(openers) | set(singles):
            chunks = [c for _, c in sorted(closers.get(token, ()))]
            chunks += [c for _, c in sorted(openers.get(token, ()))]
            chunks += [c for _, c in sorted(singles.get(token, ()))]
            cells[token] = "".join(chunks)
        return cells

    def _identity_features(self, mention: Mention) -> str:
        entity = self.doc.entity_of(mention)
        eid = self.nonref_ids[mention] if entity is None else self.entity_ids[entity]
        items = [f"EntityID={eid}", f"MarkableID={self.markable_ids[mention]}"]
        return self._common_features(mention, items)

    def _dd_features(self, mention: Mention) -> str:
        entity = self.doc.entity_of(mention)
        items = [f"EntityID={self.entity_ids[entity]}",
                 f"MarkableID={self.markable_ids[mention]}"]
        return self._common_features(mention, items)

    def _common_features(self, mention: Mention, items: list[str]) -> str:
        if mention in self.min_of:
            items.append(f"Min={self.min_of[mention]}")
        semtype = mention.attrs.get("semtype")
        if semtype is None and mention.nonref is not None:
            semtype = mention.nonref
        if semtype is not None and semtype != "":
            items.append(f"SemType={self._value(semtype)}")
        sets = self.element_of.get(mention)
        if sets:
            items.append("ElementOf=" + ",".join(sorted(set(sets), key=_id_sort_key)))
        taken = PLACED_ATTRIBUTES | {k.lower() for k in _nom_sem_keys(mention)}
        for key in sorted(user_attributes(mention.attrs)):
            value = mention.attrs[key]
            if key in taken or key.lower() in ("entityid", "markableid", "min", "elementof") \
                    or value is None or value == "":  # an empty value says nothing
                continue
            items.append(self._extra(key, value))
        return "|".join(i for i in items if i)

    def _bridging_features(self, anaphor: Mention) -> str:
        relation, anchor_id, anchor_mention, _, attrs = self.bridges[anaphor]
        items = [f"MarkableID={self.markable_ids[anaphor]}"]
        if relation:
            items.append(f"Rel={self._value(relation)}")
        if anchor_mention is not None:
            items.append(f"MentionAnchor={self.markable_ids[anchor_mention]}")
        items.append(f"EntityAnchor={anchor_id}")
        for key in sorted(attrs):
            items.append(self._extra(key, attrs[key]))
        return "|".join(i for i in items if i)

    def _nom_sem_features(self, mention: Mention) -> str:
        items = [f"MarkableID={self.markable_ids[mention]}"]
        for key in _nom_sem_keys(mention):
            value = mention.attrs.get(key.lower())
            if value is not None:
                items.append(f"{key}={self._value(value)}")
        return "|".join(items)

    def _extra(self, key: str, value: Any) -> str:
        if NOT_IN_VALUE_RE.search(key) or not key:
            self.note("ua.attribute-dropped", repr(key), "dropped")
            return ""
        return f"{key}={self._value(value)}"

    def _value(self, value: Any) -> str:
        text = "yes" if value is True else str(value)
        if NOT_IN_VALUE_RE.search(text) or text == "":
            # '(' ')' '|' '=' and whitespace would break the bracket grammar
            escaped = "".join(f"%{ord(c):02X}" if c in "()|=%@" or c.isspace() else c
                              for c in text) or "_"
            self.note("ua.value-escaped", f"{text!r} as {escaped!r}", "approximated")
            return escaped
        return text

    def _references(self) -> dict[int, str]:
        cells: dict[int, str] = {}
        for mention in sorted(self.identity + self.dd, key=self.position):
            value = mention.attrs.get("reference")
            if value is None or value == "":
                continue
            start = self.tokens_of[mention][0]
            if start in cells:
                self.note("ua.reference-conflict", repr(value), "dropped")
                continue
            cells[start] = self._value(value)
        for token in self.doc.tokens:
            value = token.attrs.get("ua_reference")
            if value and token.index in self.ids and token.index not in cells:
                cells[token.index] = value
        return cells


def _min_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first},{last}"


def _id_sort_key(written: str) -> tuple[int, str]:
    found = ID_NUMBER_RE.match(written)
    return (int(found.group(1)) if found else 0, written)


def _nom_sem_keys(mention: Mention) -> tuple[str, ...]:
    """The NOM_SEM keys of a mention, as they are spelled in the file."""
    keys = mention.attrs.get("_ua_nom_sem")
    if keys is not None:
        return tuple(keys)
    return tuple(spelled for name, spelled in NOM_SEM_SPELLING.items() if name in mention.attrs)


def _misc_without_coreference(misc: str | None) -> str | None:
    """MISC without CorefUD's coreference items: read from CoNLL-U, MISC still holds
    ``Entity=``, ``SplitAnte=`` and ``Bridge=``, which the UA columns now say instead."""
    if not misc or "=" not in misc:
        return misc
    items = [item for item in misc.split("|")
             if item.partition("=")[0] not in ("Entity", "SplitAnte", "Bridge", "Split")]
    return "|".join(items) or "_"


def _has_space(value: str) -> bool:
    return any(ch.isspace() for ch in value)


def _join_rows(rows: list[list[str]], align_spaces: bool) -> list[str]:
    if not align_spaces:
        return ["\t".join(row) for row in rows]
    if not rows:
        return []
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]) - 1)]
    widths[0] = max(widths[0], 4)
    return ["".join(value.ljust(width + 2) for value, width in zip(row, widths)) + row[-1]
            for row in rows]


# ============================================================================ compact encoding
# CorefUD / UA compact has no place for non-referring markables or a DD layer (formats/README.md,
# capability matrix). These two passes carry them through CorefUD's ``other`` field:
#
#   non-referring markable → a singleton identity entity, mention attribute nonref=<kind>
#                            (CorefUD: other=nonref:<kind>; conversion-notes §4)
#   DD entity              → an identity entity whose mentions have dd=own or dd=shared
#                            (shared: the DD markable shares its MarkableID with the identity
#                            markable over the same tokens)
#
# ``ua-compact-encode`` before writing CorefUD, ``ua-compact-decode`` after reading it.

NONREF_KEY = "nonref"
DD_KEY = "dd"
# The bridging relations of CODI-CRAC 2022 (ua-exploded.md §5) that CorefUD's [a-z]+ cannot
# hold, by the name the CorefUD writer gives them (undersprel -> undersp-rel)
UA_RELATIONS = ("undersp-rel", "subset-inv", "element-inv", "poss-inv", "other-inv")
SQUASHED_RELATIONS = {re.sub(r"[^a-z]", "", name): name for name in UA_RELATIONS}


@register_pass(
    "ua-compact-encode",
    "carry non-referring markables and the discourse-deixis layer through CorefUD: make them "
    "identity entities marked with the mention attribute nonref=<kind> or dd=own|shared",
)
def compact_encode(doc: Document) -> Document:
    result = doc.copy(text=False)
    nonref = 0
    for mention in result.non_referring():
        entity = result.entity_of(mention)
        if entity is None:
            entity = result.new_entity()
            result.set_entity(mention, entity)
        else:
            entity.pseudo = False  # safe: the copy's entity, no index depends on the flag
        mention.attrs[NONREF_KEY] = mention.nonref
        mention.nonref = None
        nonref += 1
    identity_markables = {(m.tokens, m.attrs.get("markable_id")) for m in result.mentions
                          if m.layer == IDENTITY and m.attrs.get("markable_id") is not None}
    dd = 0
    for entity in result.entities_in(DISCOURSE_DEIXIS, pseudo=True):
        for mention in result.mentions_of(entity, ordered=False):
            key = (mention.tokens, mention.attrs.get("markable_id"))
            mention.attrs[DD_KEY] = "shared" if key in identity_markables else "own"
            mention.layer = IDENTITY  # every mention of the entity moves with it
            dd += 1
        entity.layer = IDENTITY
    if nonref or dd:
        result.repairs.append(Repair(
            "ua.compact-encode",
            f"encoded {nonref} non-referring markables as singletons with nonref=<kind> and "
            f"{dd} discourse-deixis mentions as identity mentions with dd=own|shared",
            document=doc.name, action="moved"))
    return result


@register_pass(
    "ua-compact-decode",
    "undo ua-compact-encode after reading CorefUD: nonref=<kind> mentions become non-referring "
    "markables again and dd=own|shared entities the discourse-deixis layer",
)
def compact_decode(doc: Document) -> Document:
    result = doc.copy(text=False)
    relations = {s.member for s in result.memberships()} | {s.set_entity for s in
                                                             result.memberships()}
    relations |= {b.anchor for b in result.bridging()}
    identity_by_tokens: dict[tuple[int, ...], Mention] = {}
    for mention in result.sorted_mentions():
        if mention.layer == IDENTITY and DD_KEY not in mention.attrs:
            identity_by_tokens.setdefault(mention.tokens, mention)
    dd = nonref = shared = 0
    mixed: list[str] = []
    for entity in result.entities_in(IDENTITY, pseudo=True):
        mentions = result.mentions_of(entity)
        flagged = [m for m in mentions if DD_KEY in m.attrs]
        if flagged and len(flagged) != len(mentions):
            mixed.append(f"entity {entity.attrs.get('original_id', entity.id)}")
            continue
        if flagged:
            entity.layer = DISCOURSE_DEIXIS
            for mention in mentions:
                role = mention.attrs.pop(DD_KEY)
                mention.layer = DISCOURSE_DEIXIS
                dd += 1
                partner = identity_by_tokens.get(mention.tokens)
                if role == "shared" and partner is not None:
                    mid = partner.attrs.get("markable_id")
                    if mid is None:
                        shared += 1
                        mid = partner.attrs["markable_id"] = f"shared_{shared}"
                    mention.attrs["markable_id"] = mid
            continue
        kinds = [m.attrs.get(NONREF_KEY) for m in mentions]
        if not mentions or any(k is None for k in kinds):
            continue
        for mention, kind in zip(mentions, kinds):
            del mention.attrs[NONREF_KEY]
            mention.nonref = "unknown" if kind is True or kind == "" else str(kind)
            nonref += 1
        if entity in relations or len(mentions) > 1:
            entity.pseudo = True  # it takes part in a relation: keep it, as a pseudo entity
        else:
            result.remove_entity(entity)
    relations_restored = 0
    for bridge in result.bridging():
        if bridge.relation in SQUASHED_RELATIONS:  # add_bridging replaces the relation
            result.add_bridging(bridge.anaphor, bridge.anchor,
                                relation=SQUASHED_RELATIONS[bridge.relation],
                                anchor_mention=bridge.anchor_mention, attrs=bridge.attrs)
            relations_restored += 1
    if relations_restored:
        result.repairs.append(Repair(
            "ua.compact-decode",
            f"restored the UA names of {relations_restored} bridging relations (undersprel -> "
            "undersp-rel, ...)", document=doc.name, action="renamed"))
    if mixed:
        result.repairs.append(Repair(
            "ua.compact-decode-mixed",
            f"{len(mixed)} entities have some mentions marked dd and some not; left them in the "
            f"identity layer (first: {', '.join(mixed[:MAX_EXAMPLES])})", document=doc.name))
    if nonref or dd:
        result.repairs.append(Repair(
            "ua.compact-decode",
            f"decoded {nonref} non-referring markables and {dd} discourse-deixis mentions",
            document=doc.name, action="moved"))
    return result
