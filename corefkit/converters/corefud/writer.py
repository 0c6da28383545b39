"""CoNLL-U with coreference in MISC (CorefUD 1.x and the UA compact format): the writer.

Specification: ``formats/corefud.md`` and ``formats/conversion-notes.md``. Writing
regenerates the coreference items (``Entity``, ``SplitAnte``, ``Bridge``) from the model and
falls back to the raw text the reader stored (token columns, comments, opening-bracket
fields, MISC items) wherever it says the same thing, so an untouched document is written
back byte for byte while a changed one gets canonical brackets (conversion-notes §5). The
grammar of the items is in :mod:`corefkit.converters.corefud.misc`.

Documents are written one at a time; memory is bounded by the largest document.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.conllu_comments import (
    SENT_ID_RE,
    newdoc_id,
    part_lines,
    sentence_comments,
)
from corefkit.converters.corefud.coreference import innermost
from corefkit.converters.corefud.misc import (
    DECLARATION_RE,
    ETYPE_FIELDS,
    ID_FIELDS,
    META_RE,
    MIN_FIELDS,
    PROFILES,
    RELATION_RE,
    decode_value,
    encode_value,
    format_other,
    merge_misc,
    parse_other,
    profile_of,
)
from corefkit.converters.loss import (
    ConversionReport,
    LossRecord,
    crossing_same_entity_mentions,
    record,
    speakers_by_sentence_lost,
    user_attributes,
)
from corefkit.errors import Repair, UsageError, counted
from corefkit.model import IDENTITY, Bridging, Document, Entity, Mention, Sentence
from corefkit.model.syntax import sentence_parents, tree_head

EID_FORBIDDEN_RE = re.compile(r"[-=| \t()\[\]<>,:]")
CANONICAL_FIELDS = ("eid", "etype", "head", "other")


def kept_conll_columns(doc: Document, **options: object) -> frozenset[str]:
    """The CoNLL-2012 columns this writer keeps: POS and the predicate lemma, which the
    reader puts into the model's XPOS and LEMMA (written as XPOS and LEMMA)."""
    return KEPT_CONLL_COLUMNS


KEPT_CONLL_COLUMNS = frozenset({"POS", "predicate lemma"})


def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {"crossing_same_entity": "later mention dropped"}


def partial_losses(doc: Document, *, profile: str = "auto", keep_min: bool = False) -> list[LossRecord]:
    """Loss records for what the declaration chosen for ``doc`` cannot hold (registry hook).

    The format can hold heads, min spans and cross-sentence mentions, but a given document is
    written with one declaration: heads need a ``head`` field, min spans a ``minspan``/``MIN``
    field, and the ``corefud`` profile drops cross-sentence mentions (CorefUD forbids them).
    Split-antecedent sets with fewer than two members and bridging anchor mentions cannot be
    written in either profile (formats/README.md, loss table); a speaker is a sentence's
    (``# speaker``). Each bridging relation is counted once, with the first thing that
    changes it: a renamed relation, an anaphor that reads back as another mention, a lost
    anchor mention.
    """
    chosen, names = _plan_declaration(doc, profile, keep_min)
    mentions = [m for m in doc.sorted_mentions() if m.tokens]
    records = record(doc, "speakers", speakers_by_sentence_lost(doc, doc.tokens))
    if "head" not in names:
        records += record(doc, "heads", [m for m in mentions
                                         if m.head is not None and not m.head_derived])
    if not any(n in MIN_FIELDS for n in names):
        records += record(doc, "min_spans", [m for m in mentions
                                             if m.min_tokens is not None and not m.min_derived])
    if chosen == "corefud":
        tokens = doc.tokens
        records += record(doc, "cross_sentence",
                          [m for m in mentions if tokens[m.start].sentence != tokens[m.end].sentence],
                          "dropped (CorefUD forbids them)")
    small = {s for s, members in doc.accommodated_sets().items() if len(members) < 2}
    records += record(doc, "split_antecedents",
                      [s for s in doc.memberships() if s.set_entity in small],
                      "dropped (a set needs at least two members)")
    return records + _bridging_losses(doc, chosen)


def _bridging_losses(doc: Document, profile: str) -> list[LossRecord]:
    renamed: dict[str, list[Bridging]] = {}
    elsewhere: list[Bridging] = []
    anchors: list[Bridging] = []
    for bridge in doc.bridging():
        relation = bridge.relation or ""
        if read_back_elsewhere(doc, bridge):  # dropped (renamed or not)
            elsewhere.append(bridge)
        elif written_relation(relation, profile) != relation:
            renamed.setdefault(relation, []).append(bridge)
        elif bridge.anchor_mention is not None:
            anchors.append(bridge)
    records = []
    for relation, found in sorted(renamed.items()):
        records += record(doc, "bridging", found,
                          f"changed (relation {relation!r} written "
                          f"{written_relation(relation, profile)!r}: CorefUD relations are "
                          "[a-z]+; ua-compact-decode restores the UA names)")
    records += record(doc, "bridging", elsewhere,
                      "dropped (CoNLL-U attaches Bridge to a node: it reads back on the "
                      "shorter mention of the anaphor's entity that starts there)")
    return records + record(doc, "bridging", anchors,
                            "approximated (anchor mention dropped, anchor entity kept)")


def read_back_elsewhere(doc: Document, bridge: Bridging) -> bool:
    """Whether a reader takes another mention for the anaphor of ``bridge``: the innermost
    mention of its entity that starts on its first node (as udapi does)."""
    entity = doc.entity_of(bridge.anaphor)
    if entity is None or not bridge.anaphor.tokens:
        return False
    starting = [m for m in doc.mentions_of(entity) if m.start == bridge.anaphor.start]
    return innermost(starting) is not bridge.anaphor


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
        # what is not written is in the loss report: sets of fewer than two members
        # (partial_losses), memberships of entities with no written mention (the cascade)
        small = [s for s, members in sets.items() if len(members) < 2]
        for membership in doc.memberships():
            member, set_entity = membership.member, membership.set_entity
            if set_entity in small or member not in ids or set_entity not in ids:
                continue
            nodes = sorted({m.start for m in membership.evidence
                            if (m.start, set_entity) in written_starts})
            if not nodes:
                nodes = [first_start[set_entity]]
            for node in nodes:
                cells.setdefault(node, []).append(
                    ((rank[set_entity], rank[member]), (ids[member], ids[set_entity])))
        return {node: [item for _, item in sorted(items)] for node, items in cells.items()}

    def _bridge_cells(self, ids: dict[Entity, str], rank: dict[Entity, int],
                      written_mentions: set[Mention]) -> dict[int, list[tuple[str, str, str]]]:
        doc = self.doc
        cells: dict[int, list[tuple[tuple[int, int], tuple[str, str, str]]]] = {}
        # what is not written, or not as it was, is in the loss report (partial_losses and
        # the registry's cascade): relations of mentions or entities that are not written,
        # anchor mentions, anaphors a reader takes for a shorter mention on the same node
        for bridge in doc.bridging():
            anaphor_entity = doc.entity_of(bridge.anaphor)
            if (bridge.anaphor not in written_mentions or anaphor_entity not in ids
                    or bridge.anchor not in ids):
                continue
            relation = written_relation(bridge.relation or "", self.profile)
            cells.setdefault(bridge.anaphor.start, []).append(
                ((rank[anaphor_entity], rank[bridge.anchor]),
                 (ids[bridge.anchor], ids[anaphor_entity], relation)))
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
                        f"{counted(self.derived_heads, 'mention')} had no head; derived one "
                        "(conversion-notes §2), which head-match scores depend on")
        bare = sum(1 for t in doc.tokens if not t.is_empty and (
            t.upos in (None, "", "_") or t.head in (None, "", "_") or t.deprel in (None, "", "_")))
        if bare:
            # a writer cannot invent a tree: say what UD validation will make of the file
            self.repair("corefud.no-syntax",
                        f"{counted(bare, 'word')} {'has' if bare == 1 else 'have'} no UPOS, "
                        "HEAD or DEPREL (the source has no dependency tree): written '_', which "
                        "the UD validator's level 2 refuses (corefkit reads it with this one "
                        "warning); parse the text (UDPipe, Stanza) where a tree is required",
                        "kept")
        if self.dropped_attributes:
            self.repair("corefud.attributes-dropped",
                        f"{counted(self.dropped_attributes, 'mention')} "
                        f"{'has' if self.dropped_attributes == 1 else 'have'} attributes the "
                        f"declaration {self.declaration!r} has no field for; not written",
                        "dropped")
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
        # a CoNLL-U document without a declaration is written without one only when it gets no
        # Entity values (a treebank without coreference); Stanza's chains, for one, need it
        declare = source_declared or bool(doc.mentions)
        if not have_declaration and (not self.conllu or (declare and (
                state.documents == 0 or state.declaration != self.declaration))):
            at = 1 if have_newdoc and entries and entries[0][1].startswith("# newdoc") else 0
            entries.insert(at, (0, f"# global.Entity = {self.declaration}"))
        if not have_newdoc and (state.documents > 0 or not doc.attrs.get("conllu_anonymous")):
            entries.insert(0, (0, f"# newdoc id = {newdoc_id(doc)}"))
        elif not have_newdoc:
            # written as read, without '# newdoc': a reader names the document after the file
            # (only known here, where the document turns out to be the file's first)
            self.report.losses += record(doc, "names", [doc.name],
                                         "changed (the document has no '# newdoc id': a reader "
                                         "names it after its file)")
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


def derive_head(doc: Document, mention: Mention) -> int:
    """A head for a mention that has none (conversion-notes §2).

    From a min span: its only token, else (with a dependency tree) the min-span token whose
    parent lies outside it, nearest the root then leftmost, else the last min-span token.
    Without a min span: the mention token whose parent lies outside the mention (same tie
    rule, as udapi's ``corefud.MoveHead``), else the first token. Empty nodes are candidates
    like words; CoNLL-U gives them no HEAD, so a span with one takes the fallback. The tree is
    that of the first candidate's sentence, so a span across sentences takes the fallback too
    (the ``corefud`` profile, the only one that derives heads, writes no such mention).
    """
    candidates = tuple(sorted(mention.min_tokens)) if mention.min_tokens else mention.tokens
    if len(candidates) == 1:
        return candidates[0]
    parents = sentence_parents(doc, doc.tokens[candidates[0]].sentence)
    found = tree_head(doc, candidates, parents=parents)
    if found is not None:
        return found
    return candidates[-1] if mention.min_tokens else candidates[0]
