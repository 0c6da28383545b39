"""The reader's coreference half: the Entity, SplitAnte and Bridge items of one document's
MISC column turned into mentions, split-antecedent sets and bridging.

:class:`CoreferenceReader` is the base class of the reader's document builder
(:mod:`corefkit.converters.corefud.reader`), which reads the lines and calls
:meth:`~CoreferenceReader.coreference` for every token whose MISC has coreference items and
the two ``_resolve_*`` methods at the end of the document. Brackets are paired as they are
read (formats/corefud.md §7); incidents are reported under ``corefud.<name>``.
"""

from __future__ import annotations

import re
from typing import Any

from corefkit.converters.corefud.misc import (
    BRIDGE_ITEM_RE,
    CHUNK_RE,
    COREF_KEYS,
    ETYPE_FIELDS,
    ID_FIELDS,
    MIN_FIELDS,
    PART_RE,
    RELATION_RE,
    SPLIT_ITEM_RE,
    decode_value,
    parse_other,
    profile_of,
)
from corefkit.converters.same_span import SpanOwners
from corefkit.errors import FormatError, Repair, counted
from corefkit.model import Document, Entity, Mention, Token

BARE_NUMBER_CHUNKS_RE = re.compile(r"^[0-9()]+$")
COREFUD_ETYPES = ("person", "place", "organization", "animal", "plant", "object", "substance",
                  "time", "number", "abstract", "event", "other")


def innermost(starting: list[Mention]) -> Mention:
    """The mention a ``Bridge`` (or ``SplitAnte``) on a node stands for, of the mentions of its
    entity that start there: the innermost (fewest tokens, then the earliest end) — what the
    writer assumes when it reports a relation it cannot place (:mod:`.writer`)."""
    return min(starting, key=lambda m: (len(m.tokens), m.end, m.id))


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


class FileState:
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


class CoreferenceReader:
    """The coreference state of the document being read, and the methods that fill it.

    The document builder sets ``file``, ``doc``, ``tokens`` and ``state`` and calls
    :meth:`set_declaration` and :meth:`init_coreference` before it reads a line.
    """

    file: str
    doc: Document
    tokens: list[Token]
    state: FileState

    def init_coreference(self) -> None:
        """The coreference state of a document that has no line yet."""
        self.entities: dict[str, Entity] = {}
        self.open: dict[str, list[tuple[int, list[str], int, int]]] = {}
        self.discontinuous: dict[str, list[_Pending]] = {}
        self.starts: dict[tuple[str, int], list[Mention]] = {}  # (eid, start) -> mentions
        self.spans = SpanOwners()  # see _mention
        self.splits: list[tuple[str, str, int, int, int]] = []
        self.one_member: set[str] = set()  # sets a statement gave one antecedent
        self.bridges: list[tuple[str, str, str | None, int, int, int]] = []
        self.reported: set[str] = set()
        self.given: dict[tuple[str, str], str] = {}  # (eid, field) -> first mention's value

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
            self.stated_fields: list[tuple[int, str, str]] = []
            self.head_pos = -1
            self.profile = "ua-compact"
            return
        self.names = declaration.split("-")
        self.id_pos = next(i for i, n in enumerate(self.names) if n in ID_FIELDS)
        self.stated_fields = [(self.names.index(name), name, check) for name, check in (
            ("etype", "entity-type-mismatch"), ("identity", "entity-identity-mismatch"))
            if name in self.names]
        self.head_pos = self.names.index("head") if "head" in self.names else -1
        self.profile = profile_of(declaration)
        self.doc.attrs["corefud_declaration"] = declaration
        self.doc.attrs["corefud_profile"] = self.profile

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
        if not value:
            raise self.error("an empty Entity value; remove the item or give its chunks",
                             number, "corefud.spurious-entity-statement", column)
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
        pending: _Pending | None
        if i == 1:
            entity = self._entity_for(eid, fields, start_line, start_column)
            pending = _Pending(eid, n, fields, start_line, entity)
            pending_list.append(pending)
        else:
            # the open mention this part continues: among those of this entity waiting for
            # part i, the first with this part's fields (writers repeat them on every part, so
            # two discontinuous mentions of one entity that interleave are told apart)
            waiting = [p for p in pending_list if p.parts_done == i - 1 and p.total == n]
            pending = next((p for p in waiting if self._same_fields(p.fields, fields)),
                           waiting[0] if waiting else None)
            if pending is None:
                raise self.error(
                    f"part [{i}/{n}] of a discontinuous mention of {eid!r} without its earlier "
                    "parts; parts must be opened in order [1/n], [2/n], …",
                    start_line, "corefud.bad-discontinuous", start_column)
            if not self._same_fields(pending.fields, fields):
                self.repair("corefud.mention-attribute-mismatch", start_line,
                            f"the parts of a discontinuous mention of {eid!r} have different "
                            "fields; kept those of the first part", column=start_column)
                for pos, name, check in self.stated_fields:
                    here = fields[pos] if pos < len(fields) else ""
                    first = pending.fields[pos] if pos < len(pending.fields) else ""
                    if here != first:
                        self.repair(f"corefud.{check}", start_line,
                                    f"part {i} of a discontinuous mention of {eid!r} has {name} "
                                    f"{here!r}, its first part {first!r}", column=start_column)
        pending.tokens.extend(range(start, index + 1))
        pending.parts_done = i
        if i == n:
            pending_list.remove(pending)
            self._mention(pending.entity, eid, tuple(pending.tokens), pending.fields, pending.line,
                          None)

    def _same_fields(self, first: list[str], other: list[str]) -> bool:
        """Whether two parts of a discontinuous mention state the same fields (but the id)."""
        pos = self.id_pos
        return first[:pos] + first[pos + 1:] == other[:pos] + other[pos + 1:]

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
        if "GRP" not in names:  # CorefUD's eid notation: the UD validator's stricter reading
            self._corefud_fields(entity, eid, fields, line, column)
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
        contiguous = tokens[-1] - tokens[0] + 1 == len(tokens)
        if contiguous:  # nodes read so far, of an entity of this document
            mention = doc.add_read_mention(tokens, entity, attrs, line, head, min_tokens)
        else:
            mention = doc.add_mention(tokens, entity, head=head, min_tokens=min_tokens,
                                      attrs=attrs, line=line)
        self.starts.setdefault((eid, tokens[0]), []).append(mention)
        # a contiguous span is known by its ends (hashing every node of a long one is slow)
        where = (tokens[0], tokens[-1]) if contiguous else ("gaps", tokens)
        repeat = self.spans.add(where, eid)
        if repeat is not None:
            others = repeat.others if not repeat.duplicate else (
                f"{eid!r}" + (f", {repeat.others}" if repeat.others else ""))
            self.repair("corefud.same-span-entity-mentions", line,
                        f"{eid!r} and {others} have a mention on the same nodes; kept both",
                        column=column)
        if self.tokens[tokens[0]].sentence != self.tokens[tokens[-1]].sentence:
            self.repair("corefud.cross-sentence-mention", line,
                        f"a mention of {eid!r} crosses a sentence boundary (invalid in CorefUD, "
                        "allowed by the UA compact proposal); kept it", column=column)

    def _corefud_fields(self, entity: Entity, eid: str, fields: list[str], line: int,
                        column: int | None) -> None:
        """What the UD validator requires of eid-notation openers beyond their values: a head
        field that is present is a number, and the type and identity fields are present on
        every mention of an entity or on none (an empty value differs from a given one)."""
        for pos, name, check in self.stated_fields:
            value = fields[pos] if pos < len(fields) else ""
            known = self.given.get((eid, name))
            if known is None:
                self.given[(eid, name)] = value
            elif (known == "") != (value == ""):
                here = f"{name} {value!r}" if value else f"no {name}"
                first = f"{name} {known!r}" if known else f"no {name}"
                self.repair(f"corefud.{check}", line,
                            f"a mention of {eid!r} has {here} but its first mention has {first}; "
                            f"every mention states the same {name}", column=column)
        pos = self.head_pos
        if 0 <= pos < len(fields) and fields[pos] == "":
            self.repair("corefud.mention-head-not-number", line,
                        f"a mention of {eid!r} has an empty head field; ignored", "dropped",
                        column)

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
        if not (value.isdigit() and value.isascii() and value[0] != "0"):
            self.repair("corefud.mention-head-not-number", line,
                        f"head {value!r} of a mention of {eid!r} is not a number 1, 2, ...; "
                        "ignored", "dropped", column)
            return None
        position = int(value)
        if 1 <= position <= len(tokens):
            return tokens[position - 1]
        self.repair("corefud.mention-head-out-of-range", line,
                    f"head {position} of a mention of {eid!r} with {counted(len(tokens), 'node')} "
                    "is out of "
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
        if tokens[-1] - tokens[0] + 1 == len(tokens):  # contiguous: inside its ends
            outside = any(t < first or t > tokens[-1] for t in found)
        else:
            inside = set(tokens)
            outside = not all(t in inside for t in found)
        if outside:
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
        stated: dict[str, list[str]] = {}
        for item in value.split(","):
            found = SPLIT_ITEM_RE.match(item)
            if found is None:
                raise self.error(
                    f"cannot read SplitAnte item {item!r}; expected ANTECEDENT<SET, e.g. "
                    "'SplitAnte=e3<e11,e4<e11'", number, "corefud.bad-splitante", column + offset)
            ante, set_id = found.groups()
            antes = stated.setdefault(set_id, [])
            if ante in antes:
                self.repair("corefud.repeated-splitante-relation", number,
                            f"SplitAnte states {item!r} twice; kept it once", "dropped",
                            column + offset)
            else:
                antes.append(ante)
            if ante == set_id:
                self.repair("corefud.splitante-self-reference", number,
                            f"SplitAnte {item!r} makes {set_id!r} its own antecedent; dropped it",
                            "dropped", column + offset)
            else:
                self.splits.append((ante, set_id, index, number, column + offset))
            offset += len(item) + 1
        for set_id, antes in stated.items():
            if len(antes) == 1:
                self.one_member.add(set_id)
                self.repair("corefud.only-one-split-antecedent", number,
                            f"SplitAnte gives the set {set_id!r} one antecedent ({antes[0]!r}); a "
                            "statement lists at least two", column=column)

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
                if set_entity is None:  # so no mention of it starts here either
                    self.repair("corefud.misplaced-splitante-statement", line,
                                f"SplitAnte {ante}<{set_id} is on a node where no mention of "
                                f"{set_id!r} starts", "dropped", column)
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
            if len(antes) < 2 and set_id not in self.one_member:
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
                anaphor = innermost(starting)
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
