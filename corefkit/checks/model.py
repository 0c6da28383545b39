"""Checks on the document model, the same for every format.

Whatever a file looked like, once read it is a :class:`~corefkit.model.Document`; these checks
look at what the model holds: mentions without tokens, repeated and crossing mentions,
entities shared between documents, accommodated sets, bridging anchors, zeros and
non-referring markables. A format whose reader already reports one of these incidents under
its own id lists it in its plugin's ``covered`` map, and the model check is then skipped for
its documents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from corefkit.checks.plugins import (
    FileChecks,
    FormatPlugin,
    Incident,
    entity_name,
    first_mention,
    mention_incident,
    mention_text,
)
from corefkit.checks.registry import ERROR, WARNING, Check, get_check, register
from corefkit.model import Document, Entity, Mention
from corefkit.model.overlaps import crossings, more

NO_TOKENS = "mention.no-tokens"
SAME_SPAN_SAME_ENTITY = "mention.same-span-same-entity"
SAME_SPAN = "mention.same-span"
CROSSING_SAME_ENTITY = "mention.crossing-same-entity"
ACROSS_DOCUMENTS = "entity.across-documents"
SPLIT_ONE_MEMBER = "split.one-member"
SPLIT_MISSING_ENTITY = "split.missing-entity"
SPLIT_CYCLE = "split.cycle"
BRIDGING_MISSING_ANCHOR = "bridging.missing-anchor"
ZERO_NO_EMPTY_NODE = "zero.no-empty-node"
NONREF_IN_CHAIN = "nonref.in-chain"

# mention attributes by which a reader marks a mention as a zero (LCC: ellipsis anchors)
ZERO_MARKERS = ("zero", "ellipsis_anchor")

register(
    Check(NO_TOKENS, 3, ERROR,
          "a mention covers no token: it cannot be located, written or scored"),
    Check(SAME_SPAN_SAME_ENTITY, 3, ERROR,
          "the same tokens are a mention of one entity twice: a repeated markable, which the "
          "reference scorer counts as a repeated mention (it refuses a file after 10)"),
    Check(SAME_SPAN, 3, ERROR,
          "the same tokens are a mention of two entities (a duplicate mention): the reference "
          "scorer refuses files with such repeats; resolve with the merge-same-span pass"),
    Check(CROSSING_SAME_ENTITY, 3, WARNING,
          "two mentions of one entity overlap without one containing the other; MMAX2 and LCC "
          "hold this, but bracket formats (CoNLL-2012, CoNLL-U, UA) cannot and drop one"),
    Check(ACROSS_DOCUMENTS, 3, ERROR,
          "an entity has mentions in two documents; chains never cross documents (formats "
          "whose ids are file-wide report the reuse of an id themselves)"),
    Check(SPLIT_ONE_MEMBER, 3, WARNING,
          "an accommodated (split-antecedent) set has one member; a set needs at least two, "
          "and CorefUD cannot write it"),
    Check(SPLIT_MISSING_ENTITY, 3, ERROR,
          "an accommodated set, or one of its members, is an entity with no mention in the "
          "document"),
    Check(SPLIT_CYCLE, 3, ERROR,
          "accommodated sets contain each other in a cycle (a set that contains itself); "
          "element-of must be acyclic"),
    Check(BRIDGING_MISSING_ANCHOR, 3, ERROR,
          "a bridging relation points to an anchor entity with no mention in the document, or "
          "to an anchor mention that is not a mention of the anchor entity"),
    Check(ZERO_NO_EMPTY_NODE, 3, WARNING,
          "a mention marked as a zero (an ellipsis anchor) lies on visible words, not on an "
          "empty node; zero-aware scoring and CoNLL-U writers will not see a zero there"),
    Check(NONREF_IN_CHAIN, 3, ERROR,
          "a non-referring markable (expletive, predicative, ...) is a mention of a "
          "coreference chain; it should refer to no entity"),
)

_NONE = Check("model.unknown", 3, ERROR, "")

MODEL_CHECKS = (NO_TOKENS, SAME_SPAN_SAME_ENTITY, SAME_SPAN, CROSSING_SAME_ENTITY,
                ACROSS_DOCUMENTS, SPLIT_ONE_MEMBER, SPLIT_MISSING_ENTITY, SPLIT_CYCLE,
                BRIDGING_MISSING_ANCHOR, ZERO_NO_EMPTY_NODE, NONREF_IN_CHAIN)


class ModelChecks(FileChecks):
    """The model checks over the documents of one file (or one list of documents).

    ``errors_only`` (what commands run, :mod:`corefkit.converters.gate`) leaves out the checks
    of warning severity, and the groups of checks that can find nothing: those the format's
    reader reports itself (``covered``) or cannot produce (``absent``); a CoNLL-2012 document
    is then not even walked mention by mention.
    """

    def __init__(self, file: str, plugin: FormatPlugin | None = None, *,
                 errors_only: bool = False) -> None:
        super().__init__(file)
        self.plugin = plugin
        self.errors_only = errors_only
        skip = set(plugin.covered) | set(plugin.absent) if plugin is not None else set()
        if errors_only:
            skip |= {c for c in MODEL_CHECKS if (get_check(c) or _NONE).severity == WARNING}
        self.skip = frozenset(skip)
        self.groups = [group for group, ids in self._groups() if not ids <= self.skip]
        # entity -> (number, name) of the document it was first seen in; the entities stay
        # referenced for the whole file, so that object identity stays meaningful
        self.owner: dict[Entity, tuple[int, str]] = {}
        self.seen_documents = 0

    def document(self, doc: Document) -> Iterator[Incident]:
        for incident in self._all(doc):
            if incident.check not in self.skip:
                yield incident

    def _at(self, doc: Document, mention: Mention, check: str, message: str) -> Incident:
        return mention_incident(doc, mention, check, message, self.plugin)

    def _at_entity(self, doc: Document, entity: Entity, check: str, message: str) -> Incident:
        mention = first_mention(doc, entity)
        if mention is None:
            return Incident(check, message, doc.line)
        return self._at(doc, mention, check, message)

    def _groups(self) -> list[tuple[Callable[[Document], Iterator[Incident]], frozenset[str]]]:
        """Each group of checks and the check ids it can report."""
        return [
            (self._mentions, frozenset({NO_TOKENS, NONREF_IN_CHAIN, ZERO_NO_EMPTY_NODE,
                                        SAME_SPAN_SAME_ENTITY, SAME_SPAN})),
            (self._crossing, frozenset({CROSSING_SAME_ENTITY})),
            (self._shared_entities, frozenset({ACROSS_DOCUMENTS})),
            (self._sets, frozenset({SPLIT_MISSING_ENTITY, SPLIT_ONE_MEMBER, SPLIT_CYCLE})),
            (self._bridging, frozenset({BRIDGING_MISSING_ANCHOR})),
        ]

    def _all(self, doc: Document) -> Iterator[Incident]:
        for group in self.groups:
            yield from group(doc)

    # ------------------------------------------------------------------ mentions
    def _mentions(self, doc: Document) -> Iterator[Incident]:
        by_span: dict[tuple[str, tuple[int, ...]], list[Mention]] = {}
        for mention in doc.sorted_mentions():
            if not mention.tokens:
                yield self._at(doc, mention, NO_TOKENS, f"mention {mention.id} covers no token")
                continue
            entity = doc.entity_of(mention)
            if mention.nonref is not None and entity is not None and (
                    not entity.pseudo or doc.size(entity) > 1):
                yield self._at(doc, mention, NONREF_IN_CHAIN,
                               f"{mention_text(doc, mention)} is non-referring ({mention.nonref}) "
                               f"but a mention of entity {entity_name(entity)}")
            if any(mention.attrs.get(key) for key in ZERO_MARKERS) and not doc.is_zero(mention):
                yield self._at(doc, mention, ZERO_NO_EMPTY_NODE,
                               f"{mention_text(doc, mention)} is marked as a zero but covers "
                               "visible words, not an empty node")
            if entity is not None and not entity.pseudo:
                by_span.setdefault((mention.layer, mention.tokens), []).append(mention)
        for (_, _), mentions in by_span.items():
            if len(mentions) < 2:
                continue
            seen: dict[Entity, Mention] = {}
            for mention in mentions:
                entity = doc.entity_of(mention)
                assert entity is not None
                if entity in seen:
                    yield self._at(doc, mention, SAME_SPAN_SAME_ENTITY,
                                   f"{mention_text(doc, mention)} is a mention of entity "
                                   f"{entity_name(entity)} twice")
                else:
                    seen[entity] = mention
            if len(seen) > 1:
                names = ", ".join(entity_name(e) for e in seen)
                yield self._at(doc, mentions[0], SAME_SPAN,
                               f"{mention_text(doc, mentions[0])} is a mention of {len(seen)} "
                               f"entities: {names}")

    def _crossing(self, doc: Document) -> Iterator[Incident]:
        """Each mention that crosses an earlier mention of its entity, once (overlaps.py)."""
        for entity in doc.entities:
            if doc.size(entity) < 2:
                continue
            for found in crossings(doc.mentions_of(entity, ordered=False)):
                b, a = found.mention, found.other
                yield self._at(doc, b, CROSSING_SAME_ENTITY,
                               f"{mention_text(doc, b)} crosses {mention_text(doc, a)}"
                               f"{more(found.more)}, a mention of the same entity "
                               f"{entity_name(entity)}")

    def _shared_entities(self, doc: Document) -> Iterator[Incident]:
        self.seen_documents += 1
        here = (self.seen_documents, doc.name)
        for entity in doc.entities:
            owner = self.owner.setdefault(entity, here)
            if owner != here and doc.size(entity):
                yield self._at_entity(doc, entity, ACROSS_DOCUMENTS,
                                      f"entity {entity_name(entity)} also has mentions in "
                                      f"document {owner[1]}")

    # ------------------------------------------------------------------ relations
    def _sets(self, doc: Document) -> Iterator[Incident]:
        memberships = doc.memberships()
        if not memberships:
            return
        for set_entity, members in doc.accommodated_sets().items():
            if not doc.size(set_entity):
                yield Incident(SPLIT_MISSING_ENTITY,
                               f"the accommodated set {entity_name(set_entity)} has no mention "
                               f"(members {', '.join(entity_name(m) for m in members)})",
                               doc.line)
            for member in members:
                if not doc.size(member):
                    yield self._at_entity(doc, set_entity, SPLIT_MISSING_ENTITY,
                                          f"member {entity_name(member)} of the accommodated set "
                                          f"{entity_name(set_entity)} has no mention")
            if len(members) == 1:
                yield self._set_place(doc, set_entity, SPLIT_ONE_MEMBER,
                                      f"the accommodated set {entity_name(set_entity)} has one "
                                      f"member, {entity_name(members[0])}")
        for cycle in doc.split_antecedent_cycles():
            names = " -> ".join(entity_name(e) for e in [*cycle, cycle[0]])
            yield self._at_entity(doc, cycle[0], SPLIT_CYCLE,
                                  f"accommodated sets contain each other: {names}")

    def _set_place(self, doc: Document, set_entity: Entity, check: str, message: str) -> Incident:
        # where the set is stated (evidence), else the set's first mention
        for membership in doc.memberships():
            if membership.set_entity is set_entity and membership.evidence:
                return self._at(doc, membership.evidence[0], check, message)
        return self._at_entity(doc, set_entity, check, message)

    def _bridging(self, doc: Document) -> Iterator[Incident]:
        for bridge in doc.bridging():
            if not doc.size(bridge.anchor):
                yield self._at(doc, bridge.anaphor, BRIDGING_MISSING_ANCHOR,
                               f"{mention_text(doc, bridge.anaphor)} bridges to entity "
                               f"{entity_name(bridge.anchor)}, which has no mention")
            elif bridge.anchor_mention is not None and \
                    doc.entity_of(bridge.anchor_mention) is not bridge.anchor:
                yield self._at(doc, bridge.anaphor, BRIDGING_MISSING_ANCHOR,
                               f"{mention_text(doc, bridge.anaphor)} bridges to anchor mention "
                               f"{mention_text(doc, bridge.anchor_mention)}, which is not a "
                               f"mention of the anchor entity {entity_name(bridge.anchor)}")


def check_documents(documents: Iterable[Document]) -> list[Incident]:
    """The model incidents of some documents (a convenience for tests and scripts)."""
    checks = ModelChecks("<documents>")
    return [incident for doc in documents for incident in checks.document(doc)]
