"""MMAX2 XML: the writer of stand-off MMAX2 projects, driven by level maps.

Specification: ``formats/mmax2.md``; cross-format rules: ``formats/conversion-notes.md``.

The writer uses the level map (``levelmap``) to choose the attribute names it writes: the
first rule of each kind. A project is several files, so the writer fills a directory
(``output``) that the registry renames into place only when every document has been written.
What the reader kept is written back: mention attributes verbatim, pointers the map does not
know with their markable ids renumbered, and the levels in ``Document.attrs["opaque_levels"]``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from typing import Any

from corefkit.converters.loss import (
    FEATURES,
    ID_ATTRIBUTES,
    ConversionReport,
    LossRecord,
    describe_mention,
    find_losses,
    record,
)
from corefkit.converters.mmax2.layout import POINTER_TYPE, SET_TYPE, span_string
from corefkit.converters.mmax2.levelmap import (
    LevelMap,
    NonReferringRule,
    PointerRule,
    load_level_map,
)
from corefkit.converters.mmax2.output import (
    OWN_ENTRIES,
    SPECIAL_RE,
    WRITER_MARK,
    OutputDirectory,
    escape,
)
from corefkit.errors import Repair, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention

# Attributes of the model's own bookkeeping that are never written as markable attributes.
BOOKKEEPING = frozenset({"markable_id", "mmax_level"})
XML_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")


def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    actions = {
        "zeros": "dropped (empty nodes are not MMAX2 words)",
        "unlinked_mentions": "approximated (written without a set: read back as singletons)",
    }
    return actions


def partial_losses(doc: Document, *, level_map: str | LevelMap | None = None,
                   heads: bool = False) -> list[LossRecord]:
    """What the level map chosen for writing has no attribute for (checked before writing),
    heads unless asked for (``heads``), and min spans and heads on empty nodes only (MMAX2
    has no empty nodes)."""
    m = load_level_map(level_map)
    lacking = {
        "non_referring": not m.non_referring,
        "bridging": not m.bridging,
        "split_antecedents": not m.split_antecedents,
        "discourse_deixis": not m.discourse_deixis,
        "min_spans": not m.min_span,
    }
    missing = {feature for feature, lacks in lacking.items() if lacks}
    action = f"dropped (the level map {m.name!r} has no attribute for them)"
    found = find_losses(doc, set(FEATURES) - missing, {f: action for f in missing}) \
        if missing else []
    tokens = doc.tokens
    mentions = doc.sorted_mentions()
    if "min_spans" not in missing:
        found += record(doc, "min_spans", [x for x in mentions if x.min_tokens and not x.min_derived
                                           and all(tokens[t].is_empty for t in x.min_tokens)],
                        "dropped (on empty nodes only)")
    with_head = [x for x in mentions if x.head is not None and not x.head_derived]
    if not heads:
        found += record(doc, "heads", with_head, "dropped (written only with --mmax-heads)")
    elif not m.head:
        found += record(doc, "heads", with_head, action)
    else:
        found += record(doc, "heads", [x for x in with_head
                                       if x.head is not None and tokens[x.head].is_empty],
                        "dropped (on an empty node)")
    return found


def replaceable_output(directory: str) -> bool:
    """True if ``directory`` holds only an MMAX2 output that corefkit wrote (safe to replace)."""
    try:
        names = os.listdir(directory)
        with open(os.path.join(directory, "common_paths.xml"), encoding="utf-8") as handle:
            marked = WRITER_MARK in handle.read(4096)
    except OSError:
        return False
    return marked and all(n in OWN_ENTRIES or n.lower().endswith(".mmax") for n in names)


def write_path(
    documents: Iterable[Document],
    directory: str,
    report: ConversionReport,
    *,
    level_map: str | LevelMap | None = None,
    heads: bool = False,
) -> None:
    """Write documents as MMAX2 projects sharing one directory and one ``common_paths.xml``.

    ``level_map`` chooses the attribute names (the first rule of each kind); ``heads``
    writes mention heads into the map's head attribute.
    """
    writer = _ProjectWriter(directory, load_level_map(level_map), report, heads)
    for doc in documents:
        writer.document(doc)
    writer.finish()


class _Kept:
    """A markable of an uninterpreted level, on its way back into a file."""

    __slots__ = ("id", "level", "words", "attrs")

    def __init__(self, id: str, level: str, words: tuple[int, ...], attrs: dict[str, Any]) -> None:
        self.id = id
        self.level = level
        self.words = words
        self.attrs = attrs


def _renumber(value: str, old_level: str, level: str,
              remap: dict[tuple[str, str], tuple[str, str]]) -> str:
    """A kept pointer value with its markable ids renumbered (unknown targets left as they were)."""
    out = []
    for piece in value.split(";"):
        piece = piece.strip()
        if not piece:
            continue
        target_level, sep, mid = piece.partition(":")
        found = remap.get((target_level.lower(), mid) if sep else (old_level.lower(), piece))
        if found is None:
            out.append(piece)
        else:
            out.append(found[1] if found[0] == level else f"{found[0]}:{found[1]}")
    return ";".join(out)


# markables of each level: (position order key, mention or kept markable)
_Entries = dict[str, list[tuple[tuple[int, int, int, int], Mention | _Kept]]]


class _ProjectWriter(OutputDirectory):
    """Writes documents as projects of one output directory."""

    def __init__(self, directory: str, level_map: LevelMap, report: ConversionReport,
                 heads: bool) -> None:
        m = level_map
        if not m.set_attributes and not m.identity_pointers:
            raise UsageError(f"the level map {m.name!r} names no set attribute and no identity "
                             "pointer, so it cannot be used to write coreference")
        self.map = m
        self.report = report
        self.heads = heads
        coref_level = m.mention_levels[0] if m.mention_levels else "coref"
        self.mention_levels = set(m.mention_levels) or {coref_level}
        sentence_level = m.sentence_levels[0] if m.sentence_levels else "sentence"
        dd = m.discourse_deixis[0] if m.discourse_deixis else None
        self.segment_level = (dd.segment_level if dd and dd.segment_level else "segment")
        self.renamed_attrs: set[str] = set()
        super().__init__(directory, coref_level, sentence_level)

    # ------------------------------------------------------------------ helpers
    def repair(self, doc: Document, check: str, message: str, action: str = "kept") -> None:
        self.report.repairs.append(Repair(check, message, document=doc.name, action=action))

    def text_attributes(self, doc: Document, attrs: dict[str, Any],
                        skip: frozenset[str]) -> list[tuple[str, str]]:
        """Attributes as (lower-case XML name, text), leaving out ids and bookkeeping."""
        found = []
        for key, value in attrs.items():
            if key in skip or key in ID_ATTRIBUTES or key.startswith("_"):
                continue
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                if key not in self.renamed_attrs:
                    self.renamed_attrs.add(key)
                    self.repair(doc, "mmax2.attribute-not-text",
                                f"attribute {key!r} holds a {type(value).__name__}, not text; "
                                "not written", action="dropped")
                continue
            name = key.lower()
            if not XML_NAME_RE.match(name):
                name = re.sub(r"[^a-z0-9_.-]", "_", name)
                if not re.match(r"[a-z_]", name):
                    name = f"_{name}"
            if name != key and key not in self.renamed_attrs:
                self.renamed_attrs.add(key)
                self.repair(doc, "mmax2.attribute-renamed",
                            f"attribute {key!r} written as {name!r} (MMAX2 attribute names are "
                            "lower-case XML names)", action="renamed")
            found.append((name, str(value)))
        return found

    # ------------------------------------------------------------------ one document
    # ------------------------------------------------------------------ one document
    def document(self, doc: Document) -> None:
        base = self.project_name(doc)
        word_ids = self.write_words(doc, base)
        self.word_ids = word_ids
        written, level_of, segments = self.placement(doc)
        entries, new_id, remap = self.number_markables(doc, written, level_of)

        def ref(target: Mention, source_level: str) -> str:
            level = level_of[target]
            return new_id[target] if level == source_level else f"{level}:{new_id[target]}"

        generated = self.relations(doc, written, level_of, segments, ref)
        self.write_levels(doc, base, entries, written, new_id, remap, generated)
        self.write_sentences(doc, base)
        self.write_project(doc, base)
        renumbered = {f"{old_level}:{old}": f"{level}:{new}"
                      for (old_level, old), (level, new) in sorted(remap.items())
                      if (old_level, old) != (level, new)}
        if renumbered:
            self.report.id_maps[doc.name] = renumbered

    def number_markables(self, doc: Document, written: dict[Mention, tuple[int, ...]],
                         level_of: dict[Mention, str]
                         ) -> tuple[_Entries, dict[Mention | _Kept, str],
                                    dict[tuple[str, str], tuple[str, str]]]:
        """Markable ids per level: mentions and kept markables, in position order; and the
        new id of each old (level, id)."""
        entries: _Entries = {}
        for order, (mention, words) in enumerate(written.items()):
            entries.setdefault(level_of[mention], []).append(
                ((words[0], -words[-1], 1, order), mention))
        for level, markables in (doc.attrs.get("opaque_levels") or {}).items():
            for order, (mid, tokens, attrs) in enumerate(markables):
                words = self.positions(tokens)
                if words:
                    entries.setdefault(level, []).append(
                        ((words[0], -words[-1], 0, order), _Kept(str(mid), level, words, attrs)))
        new_id: dict[Mention | _Kept, str] = {}
        remap: dict[tuple[str, str], tuple[str, str]] = {}   # (old level, old id) -> new
        for level, items in entries.items():
            items.sort(key=lambda e: e[0])
            for n, (_, item) in enumerate(items, 1):
                new_id[item] = f"markable_{n}"
                if isinstance(item, Mention):
                    old_level = str(item.attrs.get("mmax_level", "") or "")
                    old_id = item.attrs.get("markable_id")
                else:
                    old_level, old_id = item.level, item.id
                if old_id is not None:
                    remap[(old_level.lower(), str(old_id))] = (level, f"markable_{n}")
        return entries, new_id, remap

    def write_levels(self, doc: Document, base: str, entries: _Entries,
                     written: dict[Mention, tuple[int, ...]], new_id: dict[Mention | _Kept, str],
                     remap: dict[tuple[str, str], tuple[str, str]],
                     generated: dict[Mention, dict[str, tuple[str, str]]]) -> None:
        """The markable file of each level that has markables."""
        pointer_names = set(doc.attrs.get("mmax_pointers") or ())
        for level, items in entries.items():
            lines = [self.markables_head(level)]
            for _, item in items:
                if isinstance(item, Mention):
                    words = written[item]
                    old_level = str(item.attrs.get("mmax_level", "") or level)
                    attrs = dict(self.text_attributes(doc, item.attrs, BOOKKEEPING))
                    extra = generated.get(item, {})
                else:
                    words, old_level = item.words, item.level
                    attrs = dict(self.text_attributes(doc, item.attrs, BOOKKEEPING))
                    extra = {}
                for name in list(attrs):
                    if name in pointer_names:
                        attrs[name] = _renumber(attrs[name], old_level, level, remap)
                        self.declare(level, name, POINTER_TYPE)
                    elif name not in extra:
                        self.declare(level, name, "plain", attrs[name])
                for name, (value, kind) in extra.items():
                    attrs[name] = value
                    self.declare(level, name, kind, value)
                parts = [f'<markable id="{new_id[item]}" span="{self.span(words)}" '
                         f'mmax_level="{escape(level)}"']
                parts.extend(f' {name}="{escape(attrs[name])}"' for name in sorted(attrs))
                parts.append("/>")
                lines.append("".join(parts))
            lines.append("</markables>\n")
            self.write_file(os.path.join("Markables", f"{base}_{level}_level.xml"),
                            "\n".join(lines))
            self.used(level, base)

    def write_sentences(self, doc: Document, base: str) -> None:
        """The sentence level, from the document's sentences."""
        lines = [self.markables_head(self.sentence_level)]
        n = 0
        for sentence in doc.sentences:
            words = self.positions(range(sentence.start, sentence.stop))
            if not words:
                continue
            n += 1
            attrs = dict(self.text_attributes(doc, sentence.attrs, BOOKKEEPING))
            for name, value in attrs.items():
                self.declare(self.sentence_level, name, "plain", value)
            extra = "".join(f' {k}="{escape(attrs[k])}"' for k in sorted(attrs))
            lines.append(f'<markable id="markable_{n}" span="{self.span(words)}" '
                         f'mmax_level="{escape(self.sentence_level)}"{extra}/>')
        lines.append("</markables>\n")
        self.write_file(os.path.join("Markables", f"{base}_{self.sentence_level}_level.xml"),
                        "\n".join(lines))
        self.used(self.sentence_level, base)

    def write_project(self, doc: Document, base: str) -> None:
        """The ``.mmax`` project file.

        MMAX2 names a project after its file; a document whose name is no file name (or that
        has a CoNLL-2012 part) keeps its name and part in attributes MMAX2 ignores.
        """
        named = f' document="{escape(doc.id)}"' if base != doc.id or doc.part is not None else ""
        if doc.part is not None:
            named += f' part="{escape(doc.part)}"'
        self.write_file(f"{base}.mmax",
                        f'<?xml version="1.0" encoding="UTF-8"?>\n<mmax_project{named}>\n'
                        f"<words>{escape(base)}_words.xml</words>\n<turns></turns>\n"
                        "<gestures></gestures>\n<keyactions></keyactions>\n</mmax_project>\n")

    def placement(self, doc: Document) -> tuple[dict[Mention, tuple[int, ...]], dict[Mention, str],
                                                 dict[Entity, list[Mention]]]:
        """The mentions written (with their word positions), each one's level, and the
        segments of each discourse-deixis entity."""
        m = self.map
        written: dict[Mention, tuple[int, ...]] = {}
        for mention in doc.sorted_mentions():
            words = self.positions(mention.tokens)
            if words:  # zero mentions have no words (the loss report counts them)
                written[mention] = words
        level_of: dict[Mention, str] = {}
        for mention in written:
            source = str(mention.attrs.get("mmax_level", "") or "").lower()
            level_of[mention] = source if source in self.mention_levels else self.coref_level
        segments: dict[Entity, list[Mention]] = {}
        lost = []
        # the levels the document's mentions came from (when it was read from MMAX2)
        source_levels = {str(mn.attrs.get("mmax_level", "") or "").lower()
                         for mn in written if mn.layer == IDENTITY} | self.mention_levels | {""}
        for entity in doc.entities_in(DISCOURSE_DEIXIS, pseudo=True):
            members = [mn for mn in doc.mentions_of(entity) if mn in written]
            if not members:
                continue
            if not m.discourse_deixis:  # reported by partial_losses
                lost.extend(members)
                continue
            # segments: the mentions that came from a non-mention level, else the first one
            chosen = [mn for mn in members
                      if str(mn.attrs.get("mmax_level", "") or "").lower() not in source_levels]
            segments[entity] = chosen or members[:1]
            for mn in segments[entity]:
                level_of[mn] = str(mn.attrs.get("mmax_level", "") or "") or self.segment_level
        if not m.non_referring:  # reported by partial_losses
            lost.extend(mn for mn in written if mn.nonref is not None)
        for mn in lost:
            written.pop(mn, None)
        return written, level_of, segments

    def span(self, words: tuple[int, ...]) -> str:
        """MMAX2 span syntax for word positions: maximal runs ``a..b`` joined by commas."""
        return span_string(self.word_ids, words)

    def write_words(self, doc: Document, base: str) -> list[str]:
        """The words file; returns the word ids (one per written token)."""
        written = [t.index for t in doc.tokens if not t.is_empty]
        self.position = {t: i for i, t in enumerate(written)}
        kept = doc.attrs.get("mmax_word_ids")
        if (isinstance(kept, list) and len(kept) == len(written) and len(set(kept)) == len(kept)
                and all(isinstance(w, str) and w for w in kept)):
            ids = list(kept)
            shown = [escape(w) for w in ids]
        else:
            ids = shown = [f"word_{i}" for i in range(1, len(written) + 1)]
        lines = ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE words SYSTEM "words.dtd">\n'
                 "<words>"]
        tokens = doc.tokens
        forms = [tokens[index].form for index in written]
        if SPECIAL_RE.search(" ".join(forms)) is not None:  # one scan instead of one per word
            forms = [escape(form) for form in forms]
        for wid, index, form in zip(shown, written, forms):
            token = tokens[index]
            if token.attrs:
                pairs = self.text_attributes(doc, token.attrs, frozenset({"id"}))
                extra = "".join(f' {k}="{escape(v)}"' for k, v in sorted(pairs))
                lines.append(f'<word id="{wid}"{extra}>{form}</word>')
            else:
                lines.append(f'<word id="{wid}">{form}</word>')
        lines.append("</words>\n")
        self.write_file(os.path.join("Basedata", f"{base}_words.xml"), "\n".join(lines))
        return ids

    def positions(self, tokens: Iterable[int]) -> tuple[int, ...]:
        """Word positions of token indices (empty nodes have none)."""
        position = self.position
        return tuple(position[t] for t in tokens if t in position)

    # ------------------------------------------------------------------ relations
    # ------------------------------------------------------------------ relations
    def relations(self, doc: Document, written: dict[Mention, tuple[int, ...]],
                  level_of: dict[Mention, str], segments: dict[Entity, list[Mention]],
                  ref: Callable[[Mention, str], str]) -> dict[Mention, dict[str, tuple[str, str]]]:
        """The attributes the level map generates, per mention: name -> (value, scheme type)."""
        relations = _Relations(self, doc, written, level_of, ref)
        relations.identity()
        relations.non_referring()
        relations.bridging()
        relations.split_antecedents()
        relations.discourse_deixis(segments)
        relations.spans()
        return relations.out


class _Relations:
    """The attributes the level map generates for the written mentions of one document."""

    def __init__(self, writer: _ProjectWriter, doc: Document,
                 written: dict[Mention, tuple[int, ...]], level_of: dict[Mention, str],
                 ref: Callable[[Mention, str], str]) -> None:
        self.writer = writer
        self.map = writer.map
        self.doc = doc
        self.written = written                  # the mentions in the output, in order
        self.level_of = level_of
        self.ref = ref
        self.rank = {mn: i for i, mn in enumerate(written)}
        self.out: dict[Mention, dict[str, tuple[str, str]]] = {}

    def put(self, mention: Mention, name: str, value: str, kind: str = "plain") -> None:
        self.out.setdefault(mention, {})[name] = (value, kind)

    def when(self, mention: Mention, rule: PointerRule | NonReferringRule) -> None:
        for name, accepted in rule.when:
            self.put(mention, name, accepted[0])

    def closest(self, entity: Entity, before: Mention) -> Mention | None:
        """The entity's written mention closest before ``before``, else its first one."""
        rank = self.rank
        candidates = [mn for mn in self.doc.mentions_of(entity) if mn in self.written]
        if not candidates:
            return None
        earlier = [mn for mn in candidates if rank[mn] < rank[before]]
        return earlier[-1] if earlier else candidates[0]

    def identity(self) -> None:
        """A set per entity with two or more written mentions, or pointer chains."""
        doc, m, written, level_of = self.doc, self.map, self.written, self.level_of
        set_name = m.set_attributes[0] if m.set_attributes else None
        chains: dict[Entity, list[Mention]] = {}
        for mention in written:
            entity = doc.entity_of(mention)
            if entity is not None and entity.layer == IDENTITY and not entity.pseudo:
                chains.setdefault(entity, []).append(mention)
        numbers: dict[Entity, int] = {}
        for entity, chain in chains.items():
            if len(chain) > 1:
                numbers[entity] = len(numbers) + 1
        for mention in written:
            entity = doc.entity_of(mention)
            if set_name is not None and level_of[mention] in self.writer.mention_levels:
                value = f"set_{numbers[entity]}" if entity in numbers else "empty"
                self.put(mention, set_name, value, SET_TYPE)
        if set_name is None:
            rule = m.identity_pointers[0]
            for entity in numbers:
                chain = chains[entity]
                for previous, mention in zip(chain, chain[1:]):
                    self.put(mention, rule.attribute, self.ref(previous, level_of[mention]),
                             POINTER_TYPE)
                    self.when(mention, rule)

    def non_referring(self) -> None:
        """Non-referring markables (none are written when the map has no rule for them)."""
        m = self.map
        for mention in self.written:
            if mention.nonref is None:
                continue
            rule = m.non_referring[0]
            self.put(mention, rule.attribute, rule.values[0])
            if rule.kind:
                self.put(mention, rule.kind, str(mention.nonref))
            self.when(mention, rule)

    def bridging(self) -> None:
        """A pointer to the anchor mention, with the relation."""
        doc, m, in_output = self.doc, self.map, self.written
        by_anaphor: dict[Mention, list[tuple[Mention, str | None]]] = {}
        for bridge in doc.bridging():
            if bridge.anaphor not in in_output or not m.bridging:
                continue  # a zero anaphor, or no rule (both in the registry's loss report)
            anchor = bridge.anchor_mention
            if anchor is None or anchor not in in_output:
                anchor = self.closest(bridge.anchor, bridge.anaphor)
            if anchor is None:
                # no mention of the anchor entity is written: the registry's loss report
                # counts the relation with the mentions that are not (loss.cascade)
                continue
            by_anaphor.setdefault(bridge.anaphor, []).append((anchor, bridge.relation))
        if not m.bridging:
            return
        rule = m.bridging[0]
        for anaphor, anchors in by_anaphor.items():
            source = self.level_of[anaphor]
            self.put(anaphor, rule.attribute, ";".join(self.ref(a, source) for a, _ in anchors),
                     POINTER_TYPE)
            relations = list(dict.fromkeys(r for _, r in anchors if r is not None))
            if relations and not rule.relation:
                self.writer.repair(doc, "mmax2.bridging-relations",
                                   f"{describe_mention(doc, anaphor)}: the level map's bridging "
                                   f"rule has no relation attribute; relation {relations[0]!r} "
                                   "not written", action="dropped")
            elif relations and rule.relation:
                self.put(anaphor, rule.relation, relations[0])
                if len(relations) > 1:
                    self.writer.repair(doc, "mmax2.bridging-relations",
                                       f"{describe_mention(doc, anaphor)} has bridging relations "
                                       f"{', '.join(relations)} but MMAX2 holds one per "
                                       f"markable; wrote {relations[0]!r}", action="approximated")
            self.when(anaphor, rule)

    def split_antecedents(self) -> None:
        """On the anaphor, pointing to one mention of each member."""
        doc, m, in_output, rank = self.doc, self.map, self.written, self.rank
        # what is not written (a set or a member without a written mention) is counted by the
        # registry's loss report with the mentions that are not (loss.cascade)
        antecedents: dict[Mention, list[Mention]] = {}
        memberships = doc.memberships()
        for set_entity, members in doc.accommodated_sets().items():
            evidence = [e for ms in memberships if ms.set_entity is set_entity
                        for e in ms.evidence]
            anaphors = [e for e in dict.fromkeys(evidence)
                        if e in in_output and doc.entity_of(e) is set_entity]
            if not anaphors:
                first = [mn for mn in doc.mentions_of(set_entity) if mn in in_output]
                anaphors = first[:1]
            if not m.split_antecedents:
                continue  # reported by partial_losses
            if not anaphors:
                continue
            for anaphor in anaphors:
                for member in members:
                    recorded = [e for ms in memberships
                                if ms.set_entity is set_entity and ms.member is member
                                for e in ms.evidence if e in in_output
                                and doc.entity_of(e) is member]
                    chosen: Mention | None
                    if recorded:
                        earlier = [e for e in recorded if rank[e] < rank[anaphor]]
                        chosen = earlier[-1] if earlier else recorded[0]
                    else:
                        chosen = self.closest(member, anaphor)
                    if chosen is None:
                        continue
                    targets = antecedents.setdefault(anaphor, [])
                    if chosen not in targets:
                        targets.append(chosen)
        if m.split_antecedents:
            rule = m.split_antecedents[0]
            for anaphor, targets in antecedents.items():
                source = self.level_of[anaphor]
                targets.sort(key=rank.__getitem__)
                self.put(anaphor, rule.attribute, ";".join(self.ref(t, source) for t in targets),
                         POINTER_TYPE)
                self.when(anaphor, rule)

    def discourse_deixis(self, segments: dict[Entity, list[Mention]]) -> None:
        """Every other mention of a DD entity points to its segments."""
        m = self.map
        if not m.discourse_deixis:
            return
        rule = m.discourse_deixis[0]
        for entity, chosen in segments.items():
            if not chosen:
                continue
            for mention in self.doc.mentions_of(entity):
                if mention in chosen or mention not in self.written:
                    continue
                source = self.level_of[mention]
                self.put(mention, rule.attribute, ";".join(self.ref(s, source) for s in chosen),
                         POINTER_TYPE)
                self.when(mention, rule)

    def spans(self) -> None:
        """Min spans and heads."""
        m, writer, written = self.map, self.writer, self.written
        if m.min_span:
            for mention in written:
                if mention.min_tokens and not mention.min_derived:
                    words = tuple(sorted(set(writer.positions(mention.min_tokens))))
                    if words:
                        self.put(mention, m.min_span[0], writer.span(words))
        if writer.heads and m.head:
            for mention in written:
                if mention.head is None or mention.head_derived:
                    continue
                words = writer.positions((mention.head,))
                if words:
                    self.put(mention, m.head[0], writer.span(words))
