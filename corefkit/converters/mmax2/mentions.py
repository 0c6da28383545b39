"""MMAX2 input: markables read through the level map into mentions, entities and relations.

Specification: ``formats/mmax2.md``. Identity comes from set attributes (``markable_set``) and
identity pointers; a chain that holds a discourse-deixis anaphor or segment is a DD entity.
Split antecedents and bridging are read from the anaphor's markable. What the map does not
interpret is kept: every other markable attribute becomes a mention attribute (verbatim),
pointers the map does not know stay attributes, and levels that are neither mentions nor
sentences are kept whole in ``Document.attrs["opaque_levels"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from corefkit.converters.mmax2.layout import SpanError, parse_span
from corefkit.converters.mmax2.levelmap import PointerRule
from corefkit.converters.mmax2.markables import (
    NO_VALUE,
    NOMINAL_TYPES,
    Level,
    Markable,
    Record,
    Scheme,
)
from corefkit.converters.mmax2.project import ProjectFiles
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Entity, Mention


class MentionBuilder(ProjectFiles):
    """Builds the mentions, entities and relations of a project from its levels."""

    # ------------------------------------------------------------------ markables
    def targets(self, mk: Markable, name: str, value: str) -> list[Markable] | None:
        """The markables a pointer value names; None when a dangling pointer rejected ``mk``."""
        found = []
        levels = self.levels_by_name
        for piece in value.split(";"):
            piece = piece.strip()
            if not piece or piece.lower() in NO_VALUE:
                continue
            level_name, sep, mid = piece.partition(":")
            if sep:
                level = levels.get(level_name) or levels.get(level_name.lower())
            else:
                level, mid = mk.level, piece
            if level is not None and mid in level.skipped:
                self.repair("mmax2.pointer-to-skipped",
                            f"markable {mk.id}: {name} points to {piece}, which was skipped; "
                            "that target is left out", mk.level.shown, mk.line,
                            action="dropped")
                continue
            target = level.by_id.get(mid) if level is not None else None
            if target is None:
                where = f"level {level.name!r}" if level is not None else "any level"
                self.reject("mmax2.dangling-pointer",
                            f"markable {mk.id}: {name}={value!r} points to {piece}, which is not "
                            f"a markable of {where}", mk.level.shown, mk.line)
                return None
            found.append(target)
        return found

    def interpret(self, mk: Markable) -> Record | None:
        """Read one mention-level markable through the level map (None: skipped)."""
        m = self.map
        level = mk.level
        low = mk.low
        rec = Record(mk)
        if level.pointer_names.isdisjoint(low) and m.interpreted.isdisjoint(low):
            # the common case: at most a set attribute, everything else is kept
            for name in level.set_names:
                if name in low:
                    value = low[name].strip()
                    if value.lower() not in NO_VALUE:
                        rec.sets.append(value)
            rec.kept = {k: v for k, v in mk.attrs.items() if k.lower() not in level.set_names}
            self.check_scheme(mk)
            return rec
        key_of = {k.lower(): k for k in mk.attrs}
        consumed: set[str] = set()

        for name in level.set_names:
            if name in low:
                _take(consumed, name)
                value = low[name].strip()
                if value.lower() not in NO_VALUE:
                    rec.sets.append(value)
        for rule in m.non_referring:
            if rule.applies(low):
                _take(consumed, rule.attribute, *(n for n, _ in rule.when))
                kind = ""
                if rule.kind:
                    _take(consumed, rule.kind)
                    kind = low.get(rule.kind, "").strip()
                rec.nonref = kind if kind and kind.lower() not in NO_VALUE else "unknown"
                break
        if not self.read_pointers(mk, rec, key_of, consumed):
            return None
        self.read_min_span(mk, rec, key_of, consumed)
        self.read_head(mk, rec, key_of, consumed)
        if not self.keep_pointers(mk, key_of, consumed):
            return None
        rec.kept = {k: v for k, v in mk.attrs.items() if k.lower() not in consumed}
        self.check_scheme(mk)
        return rec

    def pointer(self, mk: Markable, rule: PointerRule, key_of: dict[str, str],
                consumed: set[str], *, other_levels: bool = False) -> list[Markable] | None:
        """Targets of a rule that applies (empty: it does not); None: markable rejected."""
        low = mk.low
        value = low.get(rule.attribute, "").strip()
        if value.lower() in NO_VALUE or not rule.applies(low):
            return []
        found = self.targets(mk, key_of[rule.attribute], value)
        if found is None:
            return None
        if not other_levels and any(t.level.role != "mention"
                                    and t.level.name.lower() not in self.segment_levels
                                    for t in found):
            # the model cannot hold a relation to a non-mention: keep the attribute as is
            self.once("mmax2.pointer-to-other-level", rule.attribute,
                      f"{key_of[rule.attribute]} points to markables that are not mentions "
                      f"(e.g. markable {mk.id}: {value}); kept as an attribute", mk.level.shown,
                      mk.line)
            return []
        _take(consumed, rule.attribute, *(n for n, _ in rule.when))
        return found

    def read_pointers(self, mk: Markable, rec: Record, key_of: dict[str, str],
                      consumed: set[str]) -> bool:
        """Identity, split-antecedent, bridging and DD pointers (False: markable rejected)."""
        m = self.map
        low = mk.low
        for rule in m.identity_pointers:
            found = self.pointer(mk, rule, key_of, consumed)
            if found is None:
                return False
            rec.identity.extend(found)
        for rule in m.split_antecedents:
            found = self.pointer(mk, rule, key_of, consumed)
            if found is None:
                return False
            rec.splits.extend(found)
        for rule in m.bridging:
            found = self.pointer(mk, rule, key_of, consumed)
            if found is None:
                return False
            if found:
                relation = None
                if rule.relation:
                    _take(consumed, rule.relation)
                    relation = low.get(rule.relation, "").strip() or None
                    if relation is not None and relation.lower() in NO_VALUE:
                        relation = None
                rec.bridges.append((found, relation))
        for rule in m.discourse_deixis:
            found = self.pointer(mk, rule, key_of, consumed, other_levels=True)
            if found is None:
                return False
            rec.dd.extend(found)
        return True

    def read_min_span(self, mk: Markable, rec: Record, key_of: dict[str, str],
                      consumed: set[str]) -> None:
        low = mk.low
        shown = mk.level.shown
        for name in self.map.min_span:
            if name in low:
                _take(consumed, name)
                value = low[name].strip()
                if value.lower() in NO_VALUE:
                    continue
                try:
                    tokens, _ = parse_span(value, self.word_index)
                except SpanError as exc:
                    self.repair("mmax2.bad-min-span", f"markable {mk.id}: {key_of[name]}: {exc}; "
                                "min span left out", shown, mk.line, action="dropped")
                    continue
                if not set(tokens) <= set(mk.tokens):
                    self.repair("mmax2.min-outside-span",
                                f"markable {mk.id}: {key_of[name]}={value!r} is not inside the "
                                "markable; min span left out", shown, mk.line, action="dropped")
                    continue
                rec.min_tokens = tokens
                break

    def read_head(self, mk: Markable, rec: Record, key_of: dict[str, str],
                  consumed: set[str]) -> None:
        low = mk.low
        for name in self.map.head:
            if name in low:
                _take(consumed, name)
                value = low[name].strip()
                if value.lower() in NO_VALUE:
                    continue
                head = self.word_index.get(value)
                if head is None or head not in mk.tokens:
                    self.repair("mmax2.bad-head",
                                f"markable {mk.id}: {key_of[name]}={value!r} is not one word of "
                                "the markable; head left out", mk.level.shown, mk.line,
                                action="dropped")
                    continue
                rec.head = head
                break

    def keep_pointers(self, mk: Markable, key_of: dict[str, str], consumed: set[str]) -> bool:
        """Pointers nobody interprets stay attributes; their targets must still exist (False:
        markable rejected)."""
        m = self.map
        low = mk.low
        rule_pointers = m.rule_pointers
        for name in mk.level.pointer_names:
            if name in low and name not in consumed:
                value = low[name].strip()
                if value.lower() in NO_VALUE:
                    continue
                if self.targets(mk, key_of[name], value) is None:
                    return False
                self.kept_pointers.add(name)
                if name not in rule_pointers:
                    self.once("mmax2.unknown-pointer", name,
                              f"pointer attribute {key_of[name]!r} is not in the level map "
                              f"{m.name!r}; kept as a mention attribute", mk.level.shown,
                              mk.line)
        return True

    def check_scheme(self, mk: Markable) -> None:
        """Values the scheme does not list, attributes its ``next`` links do not enable."""
        scheme = mk.level.scheme
        if scheme is None:
            return
        # markables repeat a few value combinations: judge each combination once (set and
        # pointer values count only as filled or empty)
        linked = scheme.linked
        key = tuple([(name, value.strip().lower() not in NO_VALUE) if name in linked
                     else (name, value) for name, value in mk.low.items()])
        verdict = scheme.verdicts.get(key)
        if verdict is None:
            verdict = scheme.verdicts[key] = self.judge(scheme, mk.low)
        unknown, disabled = verdict
        for name, v in unknown:
            count, first = self.not_in_scheme.get((mk.level.name, name, v), (0, mk))
            self.not_in_scheme[(mk.level.name, name, v)] = (count + 1, first)
        for name, attr_name in disabled:
            self.repair(
                "mmax2.attribute-not-enabled",
                f"markable {mk.id}: {name}={mk.low[name]!r} although the scheme makes "
                f"{attr_name} depend on values this markable does not have; kept",
                mk.level.shown, mk.line)

    @staticmethod
    def judge(scheme: Scheme, low: dict[str, str]) -> tuple[list[tuple[str, str]],
                                                             list[tuple[str, str]]]:
        unknown = []
        for name, value in low.items():
            attr = scheme.attributes.get(name)
            if attr is None or attr.type not in NOMINAL_TYPES:
                continue
            v = value.strip().lower()
            if v and v not in attr.values:
                unknown.append((name, v))
        disabled = []
        if scheme.dependent:
            enabled = scheme.enabled(low)
            for name, value in low.items():
                attr = scheme.attributes.get(name)
                if (attr is not None and attr.id in scheme.dependent and attr.id not in enabled
                        and value.strip().lower() not in NO_VALUE | {"none"}):
                    disabled.append((name, attr.name))
        return unknown, disabled

    def build_mentions(self, levels: list[Level], mention_levels: list[Level]) -> None:
        self.levels_by_name = {lv.name: lv for lv in levels}
        self.levels_by_name.update({lv.name.lower(): lv for lv in levels
                                    if lv.name.lower() not in self.levels_by_name})
        self.kept_pointers: set[str] = set()
        self.not_in_scheme: dict[tuple[str, str, str], tuple[int, Markable]] = {}
        self.segment_levels = {r.segment_level.lower() for r in self.map.discourse_deixis
                               if r.segment_level}
        level_rank = {lv.name: i for i, lv in enumerate(levels)}
        records, segments = self.collect_records(levels, mention_levels)
        self.report_spans(records)
        find, nonref, dd_roots = self.link_chains(records, segments)
        # mentions in document order, entities numbered by their first mention
        ordered = sorted(records, key=lambda mk: (mk.tokens[0] if mk.tokens else -1,
                                                  -(mk.tokens[-1] if mk.tokens else -1),
                                                  level_rank.get(mk.level.name, 0), mk.order))
        self.add_mentions(records, ordered, find, nonref, dd_roots)
        self.add_relations(records, ordered)
        self.keep_opaque(levels, records)

    def collect_records(self, levels: list[Level], mention_levels: list[Level]
                        ) -> tuple[dict[Markable, Record], set[Markable]]:
        """The markables read as mentions, and the discourse-deixis segments among them."""
        records: dict[Markable, Record] = {}
        for level in mention_levels:
            for mk in level.markables:
                rec = self.interpret(mk)
                if rec is not None:
                    records[mk] = rec
        for (level_name, attr, value), (count, first) in sorted(
                self.not_in_scheme.items(), key=lambda x: (x[0][0], x[0][1], x[0][2])):
            self.repair("mmax2.value-not-in-scheme",
                        f"level {level_name!r}: {attr}={value!r} is not a value of the scheme "
                        f"({count} markable(s), first {first.id}); kept",
                        first.level.shown, first.line)
        # Discourse-deixis segments on levels that are not mention levels become mentions:
        # every markable of a level the map names as the segment level (so that a segment
        # nothing points to, a one-mention DD entity, survives a round trip), and the
        # markables that DD pointers name on other levels.
        segments: set[Markable] = set()
        for level in levels:
            if level.role == "opaque" and level.name.lower() in self.segment_levels:
                segments.update(level.markables)
        for rec in list(records.values()):
            segments.update(t for t in rec.dd if t.level.role != "mention")
        for target in sorted(segments - records.keys(), key=lambda mk: (mk.level.name, mk.order)):
            segment = self.interpret(target)
            if segment is not None:
                records[target] = segment
        return records, segments

    def link_chains(self, records: dict[Markable, Record], segments: set[Markable]
                    ) -> tuple[Callable[[Markable], Markable], set[Markable], set[Markable]]:
        """Identity and discourse-deixis chains: union-find over markables. Returns the root
        of a markable's chain, the non-referring markables and the roots of DD chains."""
        parent = {mk: mk for mk in records}

        def find(x: Markable) -> Markable:
            while parent[x] is not x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a: Markable, b: Markable) -> None:
            ra, rb = find(a), find(b)
            if ra is not rb:
                parent[rb] = ra

        nonref = {mk for mk, rec in records.items() if rec.nonref is not None}
        set_members: dict[tuple[str, str], list[Markable]] = {}
        for mk, rec in records.items():
            for value in rec.sets:
                set_members.setdefault((mk.level.name, value), []).append(mk)
        for (level_name, value), members in set_members.items():
            referring = [mk for mk in members if mk not in nonref]
            for mk in members:
                if mk in nonref and len(members) > 1:
                    self.repair("mmax2.nonref-in-set",
                                f"markable {mk.id} is non-referring but in set {value!r} with "
                                f"{len(members) - 1} other markable(s); left out of the set",
                                mk.level.shown, mk.line)
            for mk in referring[1:]:
                union(referring[0], mk)
        dd_marked: set[Markable] = segments & records.keys()
        for mk, rec in records.items():
            for kind, found in (("identity", rec.identity), ("discourse-deixis", rec.dd)):
                for target in found:
                    if target not in records:
                        continue
                    if mk in nonref or target in nonref:
                        self.repair("mmax2.nonref-pointer",
                                    f"markable {mk.id}: {kind} pointer between a non-referring "
                                    f"markable and {target.id}; left out",
                                    mk.level.shown, mk.line, action="dropped")
                        continue
                    union(mk, target)
                    if kind == "discourse-deixis":
                        dd_marked.add(mk)
                        dd_marked.add(target)
        # a chain that holds a discourse-deixis anaphor or segment is a DD entity, as in the
        # UA formats, where the pronouns continuing a DD chain are in the DD column
        dd_roots = {find(mk) for mk in dd_marked}
        return find, nonref, dd_roots

    def add_mentions(self, records: dict[Markable, Record], ordered: list[Markable],
                     find: Callable[[Markable], Markable], nonref: set[Markable],
                     dd_roots: set[Markable]) -> None:
        """A mention per record, in document order; an entity per chain."""
        doc = self.doc
        entities: dict[Markable, Entity] = {}
        set_of_root: dict[Markable, str] = {}
        for mk in ordered:
            rec = records[mk]
            if rec.sets and mk not in nonref:
                set_of_root.setdefault(find(mk), rec.sets[0])
        for mk in ordered:
            rec = records[mk]
            root = find(mk)
            layer = DISCOURSE_DEIXIS if root in dd_roots else IDENTITY
            attrs = {"markable_id": mk.id, "mmax_level": mk.level.name}
            attrs.update(rec.kept)
            entity = None
            if mk not in nonref:
                entity = entities.get(root)
                if entity is None:
                    original = set_of_root.get(root)
                    entity = doc.new_entity(layer=layer,
                                            attrs={"original_id": original} if original else None)
                    entities[root] = entity
            tokens: Iterable[int] = mk.tokens
            if mk.tokens[-1] - mk.tokens[0] + 1 == len(mk.tokens):
                tokens = range(mk.tokens[0], mk.tokens[-1] + 1)  # add_mention's fast path
            rec.mention = doc.add_mention(
                tokens, entity, layer=layer, nonref=rec.nonref if mk in nonref else None,
                min_tokens=rec.min_tokens, head=rec.head, attrs=attrs, line=mk.line)

    def add_relations(self, records: dict[Markable, Record], ordered: list[Markable]) -> None:
        """Split antecedents and bridging, from the anaphor's markable."""
        doc = self.doc
        for mk in ordered:
            rec = records[mk]
            anaphor = cast(Mention, rec.mention)  # every record has its mention by now
            shown = mk.level.shown
            if rec.splits:
                set_entity = self.stand_in(anaphor)
                for target in rec.splits:
                    antecedent = self.mention_of(records, target, mk, "split antecedent")
                    if antecedent is None:
                        continue
                    member = self.stand_in(antecedent)
                    if member is set_entity:
                        self.repair("mmax2.split-self",
                                    f"markable {mk.id}: split antecedent {target.id} is in the "
                                    "anaphor's own chain (a set cannot contain itself); left out",
                                    shown, mk.line, action="dropped")
                        continue
                    doc.add_to_set(member, set_entity, evidence=(anaphor, antecedent))
            for found, relation in rec.bridges:
                for target in found:
                    anchor = self.mention_of(records, target, mk, "bridging anchor")
                    if anchor is None:
                        continue
                    doc.add_bridging(anaphor, self.stand_in(anchor), relation=relation,
                                     anchor_mention=anchor)

    def keep_opaque(self, levels: list[Level], records: dict[Markable, Record]) -> None:
        """Levels nobody interprets are kept whole, for the writer."""
        doc = self.doc
        opaque: dict[str, list[tuple[str, tuple[int, ...], dict[str, str]]]] = {}
        for level in levels:
            if level.role != "opaque":
                continue
            kept = [(mk.id, mk.tokens, dict(mk.attrs)) for mk in level.markables
                    if mk not in records]
            if kept:
                opaque[level.name] = kept
            for name in level.pointer_names:
                if any(name in mk.low for mk in level.markables):
                    self.kept_pointers.add(name)
        if opaque:
            doc.attrs["opaque_levels"] = opaque
        if self.kept_pointers:
            doc.attrs["mmax_pointers"] = sorted(self.kept_pointers)

    def mention_of(self, records: dict[Markable, Record], target: Markable, mk: Markable,
                   what: str) -> Mention | None:
        rec = records.get(target)
        if rec is None or rec.mention is None:
            self.repair("mmax2.pointer-to-skipped",
                        f"markable {mk.id}: {what} {target.id} is not a mention; left out",
                        mk.level.shown, mk.line, action="dropped")
            return None
        return rec.mention

    def stand_in(self, mention: Mention) -> Entity:
        """The mention's entity; a non-referring mention in a relation gets a pseudo entity."""
        entity = self.doc.entity_of(mention)
        if entity is None:
            entity = self.doc.new_entity(layer=mention.layer, pseudo=True)
            self.doc.set_entity(mention, entity)
        return entity

    def report_spans(self, records: dict[Markable, Record]) -> None:
        """Warnings about spans: overlapping fragments, far fragments, repeated spans."""
        tokens = self.doc.tokens
        seen: dict[tuple[str, tuple[int, ...]], Markable] = {}
        for mk in sorted(records, key=lambda x: (x.level.name, x.order)):
            shown = mk.level.shown
            if mk.overlap:
                self.repair("mmax2.overlapping-fragments",
                            f"markable {mk.id}: span fragments overlap; read as their union "
                            f"{self.span_text(mk.tokens)}", shown, mk.line, action="repaired")
            if mk.tokens and mk.tokens[-1] - mk.tokens[0] + 1 != len(mk.tokens):
                parts = {tokens[a].sentence for a in (mk.tokens[0], mk.tokens[-1])}
                if len(parts) > 1:
                    self.repair("mmax2.far-fragments",
                                f"markable {mk.id}: the parts of the discontinuous span "
                                f"{self.span_text(mk.tokens)} lie in different sentences; kept",
                                shown, mk.line)
            key = (mk.level.name, mk.tokens)
            other = seen.get(key)
            if other is not None:
                self.repair("mmax2.same-span",
                            f"markables {other.id} and {mk.id} have the same span "
                            f"{self.span_text(mk.tokens)}; kept both", shown, mk.line)
            else:
                seen[key] = mk


def _take(consumed: set[str], *names: str) -> None:
    """Mark attributes as interpreted (they are not kept as mention attributes)."""
    consumed.update(n for n in names if n)
