"""The markables of one CoNLL-UA document, and how the reader turns them into the model.

While ``reader.py`` reads the lines of a document it collects, per bracket column, one
:class:`Markable` record per MarkableID (all its parts). At the end of the document
:class:`MarkableModel` makes of them the model's mentions and entities (IDENTITY and
DISCOURSE_DEIXIS), accommodated sets (ElementOf, the v1.0 SPLIT column), bridging relations,
NOM_SEM attributes and REFERENCE values, as ``reader.py``'s docstring describes.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from corefkit.converters.ua_exploded.columns import (
    BRIDGING_COLUMN,
    DD_COLUMN,
    DD_SUFFIX_RE,
    IDENTITY_COLUMN,
    MIN_RE,
    NOM_SEM_COLUMN,
    PSEUDO_RE,
)
from corefkit.errors import FormatError, Repair
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention, Token


class Markable:
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
        return field_column(text, field) + offset

    def tokens(self) -> tuple[int, ...]:
        found: set[int] = set()
        for a, b in self.parts:
            found.update(range(a, b + 1))
        return tuple(sorted(found))


class Column:
    """Bracket state of one column within a document: open parts and markables by id."""

    __slots__ = ("name", "stack", "by_id", "records")

    def __init__(self, name: str) -> None:
        self.name = name
        self.stack: list[tuple[Markable, int, int]] = []  # (markable, start token, line)
        self.by_id: dict[str, Markable] = {}
        self.records: list[Markable] = []


class MarkableModel:
    """The model of one document from its markables: the second half of the reader's builder.

    The reader's ``_DocumentBuilder`` derives from it; while it reads the lines it fills the
    attributes declared here.
    """

    file: str
    doc: Document
    tokens: list[Token]
    words: list[int]            # token index of word N at position N-1
    columns: dict[str, Column]
    splits: list[tuple[str, list[str], int, int]]
    references: list[tuple[int, str, Markable | None, int]]
    setting_sentence: int | None

    # ------------------------------------------------------------------ helpers
    def repair(self, check: str, line: int | None, message: str, action: str = "kept",
               column: int | None = None) -> None:
        self.doc.repairs.append(Repair(check, message, self.file, line, column, self.doc.id,
                                       action))

    def error(self, message: str, line: int | None, check: str,
              column: int | None = None) -> FormatError:
        return FormatError(message, file=self.file, line=line, column=column, check=check)

    # ------------------------------------------------------------------ building the model
    def build_model(self) -> None:
        """Mentions, entities, sets, bridging, NOM_SEM and REFERENCE from the markables read."""
        doc = self.doc
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
        self.markable_of: dict[Mention, Markable] = {}
        setting = self._setting_shift()
        for name, layer in ((IDENTITY_COLUMN, IDENTITY), (DD_COLUMN, DISCOURSE_DEIXIS)):
            for record in self.columns[name].records:
                raw = record.known["EntityID"]
                key = entity_key(raw, name)
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

    def _min(self, record: Markable, tokens: tuple[int, ...], shift: int) -> tuple[int, ...] | None:
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
            key = entity_key(member_id, IDENTITY_COLUMN)
            for (name, _), mention in self.mention_of.items():
                if name == IDENTITY_COLUMN and mention.start == index and \
                        entity_key(self.markable_of[mention].known["EntityID"], name) == key:
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
            set_key = entity_key(set_id, name)
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
                where = next((m.line for s in doc.memberships() if s.set_entity is set_entity
                              for m in s.evidence), doc.line)
                self.repair("ua.set-one-member", where,
                            f"split-antecedent set {set_entity.attrs.get('original_id')} has one "
                            f"member ({members[0].attrs.get('original_id')}); kept it")

    def _relation_entity(self, name: str, raw: str, line: int) -> Entity | None:
        """The entity called ``raw`` in ``name``'s column, for a relation (pseudo if needed)."""
        layer = IDENTITY if name == IDENTITY_COLUMN else DISCOURSE_DEIXIS
        key = entity_key(raw, name)
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

    def _unlinked_mention(self, record: Markable, column: str) -> Mention:
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
                        entity_key(self.markable_of[anchor_mention].known["EntityID"],
                                    IDENTITY_COLUMN))
                if anchor is None:
                    self.repair("ua.unknown-anchor", record.line,
                                f"MentionAnchor={mention_anchor} of bridging markable "
                                f"{record.mid!r} has no entity; dropped the relation", "dropped",
                                record.col)
                    continue
                if entity_anchor and entity_key(entity_anchor, IDENTITY_COLUMN) != entity_key(
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


def entity_key(raw: str, column: str) -> str:
    """The entity key of an EntityID within its column (``_Pseudo`` = ``-Pseudo``; no ``-DD``)."""
    if column == DD_COLUMN:
        found = DD_SUFFIX_RE.match(raw)
        return found.group(1) if found else raw
    found = PSEUDO_RE.match(raw)
    return found.group(1) + "-Pseudo" if found else raw


def _word_range(builder: MarkableModel, tokens: tuple[int, ...]) -> str:
    ids = [_token_id_text(builder.doc.tokens, builder.words, t) for t in (tokens[0], tokens[-1])]
    return ids[0] if ids[0] == ids[1] else f"{ids[0]}-{ids[1]}"


def _token_id_text(tokens: list[Token], words: list[int], index: int) -> str:
    word = bisect.bisect_right(words, index)
    if tokens[index].is_empty:
        k = index - (words[word - 1] if word else -1)
        return f"{word}.{k}"
    return str(word)


def column_of(source: tuple[str, int, int]) -> int:
    text, field, offset = source
    return field_column(text, field) + offset


def field_column(line: str, field: int) -> int:
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

