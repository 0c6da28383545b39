"""The CoNLL-UA writer's plan for one document: which markables are written, with which ids.

:class:`Plan` chooses the markables that can be written (zeros only with ``allow_zeros``,
crossing markables only with ``allow_id_closers``), numbers entities and markables in canonical
order (conversion-notes §1, §5), places ElementOf, one bridging anchor per markable and ``Min``,
and records a loss for everything it leaves out or approximates. ``writer.py`` renders it.
"""

from __future__ import annotations

import bisect
from typing import Any

from corefkit.converters.loss import LossRecord, record
from corefkit.converters.ua_exploded.columns import ID_NUMBER_RE, NOM_SEM_SPELLING
from corefkit.errors import Repair
from corefkit.model import IDENTITY, Bridging, Document, Entity, Mention, SetMembership


class Plan:
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
    def loss(self, feature: str, found: list[Any], action: str) -> None:
        """A loss record of the objects ``found`` (mentions, memberships, relations)."""
        self.losses += record(self.doc, feature, found, action)

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
        zero_dropped: list[Mention] = []
        zero_cut: list[Mention] = []
        unlinked: list[Mention] = []
        for mention in doc.sorted_mentions():
            if not mention.tokens:
                continue
            tokens = self.written_tokens(mention)
            if not tokens:
                zero_dropped.append(mention)
                continue
            if len(tokens) != len(mention.tokens):
                zero_cut.append(mention)
            entity = doc.entity_of(mention)
            if mention.layer == IDENTITY:
                if entity is not None or mention.nonref is not None:
                    identity.append(mention)
                elif mention in bridging_anaphors or "_ua_nom_sem" in mention.attrs or \
                        nom_sem_keys(mention):
                    side.append(mention)
                else:
                    unlinked.append(mention)
                    continue
            elif entity is not None:
                dd.append(mention)
            else:
                unlinked.append(mention)
                continue
            self.tokens_of[mention] = tokens
        if not self.allow_zeros:
            self.loss("empty_nodes", [t for t in doc.tokens if t.is_empty],
                      "dropped (empty nodes are written only with allow_zeros)")
        self.loss("zeros", zero_dropped, "dropped (zeros are written only with allow_zeros)")
        self.loss("mentions_with_empty_nodes", zero_cut,
                  "approximated (written without their empty nodes)")
        self.loss("unlinked_mentions", unlinked, "dropped (a markable needs an entity)")
        self.named_closers = False
        same: list[Mention] = []
        other: list[Mention] = []
        self.identity = self._uncrossed(identity, same, other)
        self.dd = self._uncrossed(dd, same, other)
        self.side = side
        self.loss("crossing_same_entity", same,
                  "later mention dropped (crossing markables need allow_id_closers)")
        self.loss("crossing_mentions", other,
                  "later mention dropped (crossing markables need allow_id_closers)")

    def _uncrossed(self, mentions: list[Mention], same: list[Mention],
                   other: list[Mention]) -> list[Mention]:
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
                    found.append(mention)
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
        """Written ids: entities (N, N-Pseudo, N-DD), markables, and the old→new id table."""
        self._number_entities()
        self._number_markables()
        self._map_old_ids()

    def _number_entities(self) -> None:
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
            assert entity is not None  # self.dd holds mentions with an entity only
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

    def _number_markables(self) -> None:
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

    def _map_old_ids(self) -> None:
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
        found = ID_NUMBER_RE.match(written)
        assert found is not None  # every written entity id starts with its number
        number = int(found.group(1))
        return number + (1 << 20 if written.endswith("-DD") else 0)

    # ------------------------------------------------------------------ relations
    def _relations(self) -> None:
        self._element_of()
        self._bridges()
        self._min_spans()

    def _element_of(self) -> None:
        doc = self.doc
        # ElementOf: which written markables carry which set ids
        self.element_of: dict[Mention, list[str]] = {}
        written = set(self.identity) | set(self.dd)
        lost_sets: list[SetMembership] = []
        for membership in doc.memberships():
            member, set_entity = membership.member, membership.set_entity
            if member.layer != set_entity.layer or set_entity not in self.entity_ids:
                lost_sets.append(membership)
                continue
            own = [m for m in doc.mentions_of(member) if m in written]
            if not own:
                lost_sets.append(membership)
                continue
            carriers = [m for m in membership.evidence if m in written and doc.entity_of(m) is member]
            if not carriers:
                first_of_set = [m for m in doc.mentions_of(set_entity) if m in written]
                before = [m for m in own if first_of_set and m.start < first_of_set[0].start]
                carriers = [before[-1] if before else own[0]]
            for mention in carriers:
                self.element_of.setdefault(mention, []).append(self.entity_ids[set_entity])
        self.loss("split_antecedents", lost_sets, "dropped")

    def _bridges(self) -> None:
        doc = self.doc
        # bridging: one relation per anaphor markable
        self.bridges: dict[Mention, tuple[str | None, str, Mention | None, Entity, dict]] = {}
        extra: list[Bridging] = []
        unwritten: list[Bridging] = []
        derived: list[Bridging] = []
        for bridge in doc.bridging():
            anaphor = bridge.anaphor
            if anaphor not in self.markable_ids or bridge.anchor not in self.entity_ids:
                unwritten.append(bridge)
                continue
            if anaphor in self.bridges:
                extra.append(bridge)
                continue
            anchor_mention = bridge.anchor_mention
            if anchor_mention is None or anchor_mention not in self.markable_ids or \
                    doc.entity_of(anchor_mention) is not bridge.anchor:
                candidates = [m for m in doc.mentions_of(bridge.anchor) if m in self.markable_ids]
                before = [m for m in candidates if m.start < anaphor.start]
                after = [m for m in candidates if m.start >= anaphor.start and m is not anaphor]
                anchor_mention = before[-1] if before else (after[0] if after else None)
                if anchor_mention is not None:
                    derived.append(bridge)
            self.bridges[anaphor] = (bridge.relation, self.entity_ids[bridge.anchor],
                                     anchor_mention, bridge.anchor, bridge.attrs)
        self.loss("bridging", extra, "dropped (one bridging anchor per markable)")
        self.loss("bridging", unwritten, "dropped (anaphor or anchor not written)")
        # nothing lost: the file says more than the source did (the writer warns)
        self.derived_anchors = len(derived)

    def _min_spans(self) -> None:
        # heads and min spans
        head_as_min: list[Mention] = []
        head_dropped: list[Mention] = []
        gapped: list[Mention] = []
        min_dropped: list[Mention] = []
        self.min_of: dict[Mention, str] = {}
        for mention in self.identity + self.dd:
            head = mention.head if not mention.head_derived else None
            if mention.min_tokens:
                words = [self.word_number[t] for t in sorted(mention.min_tokens)
                         if t in self.word_number]
                if not words:
                    min_dropped.append(mention)
                else:
                    if words[-1] - words[0] + 1 != len(words):
                        gapped.append(mention)
                    self.min_of[mention] = _min_text(words[0], words[-1])
                if head is not None:
                    head_dropped.append(mention)
            elif head is not None:
                if head in self.word_number:
                    self.min_of[mention] = _min_text(self.word_number[head], self.word_number[head])
                    head_as_min.append(mention)
                else:
                    head_dropped.append(mention)
        self.loss("heads", head_as_min, "approximated (written as Min)")
        self.loss("heads", head_dropped, "dropped (the markable has a Min, or a zero head)")
        self.loss("min_spans", gapped, "approximated (Min is one range: first to last token)")
        self.loss("min_spans", min_dropped, "dropped (on empty nodes only)")


def _min_text(first: int, last: int) -> str:
    return str(first) if first == last else f"{first},{last}"


def nom_sem_keys(mention: Mention) -> tuple[str, ...]:
    """The NOM_SEM keys of a mention, as they are spelled in the file."""
    keys = mention.attrs.get("_ua_nom_sem")
    if keys is not None:
        return tuple(keys)
    return tuple(spelled for name, spelled in NOM_SEM_SPELLING.items() if name in mention.attrs)


