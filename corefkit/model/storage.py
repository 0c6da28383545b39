"""How a :class:`~corefkit.model.document.Document` stores its mentions and refers edges.

Mentions are an insertion-ordered set, refers edges two dictionaries (mention → entity and
entity → its mentions). A reader may hand over its mentions unbuilt (:meth:`MentionStore.
defer_mentions`): tens of thousands of mention objects cost a large share of reading a file,
and scoring needs only their extents. Every access to the storage goes through three
properties that build pending mentions first, so nothing can see a document half built.
"""

from __future__ import annotations

from collections.abc import Sequence

from corefkit.model.anaphora import Entity, Mention

# a mention handed over unbuilt: (entity, first token, last token, source line)
PendingMention = tuple[Entity, int, int, int | None]


class MentionStore:
    """The mention nodes and refers edges of a document, with the reader's pending mentions."""

    def __init__(self) -> None:
        self._mention_nodes: dict[Mention, None] = {}
        self._refers: dict[Mention, Entity] = {}
        self._chain_nodes: dict[Entity, dict[Mention, None]] = {}
        self._pending: Sequence[PendingMention] | None = None
        self._pending_first_id = 0
        self._next_mention_id = 0

    # Every method reaches mentions and refers edges through these three properties, so a
    # reader's deferred mentions (:meth:`defer_mentions`) are built before anything sees them.
    @property
    def _mentions(self) -> dict[Mention, None]:
        if self._pending is not None:
            self._build_pending()
        return self._mention_nodes

    @property
    def _entity_of(self) -> dict[Mention, Entity]:
        if self._pending is not None:
            self._build_pending()
        return self._refers

    @property
    def _chains(self) -> dict[Entity, dict[Mention, None]]:
        if self._pending is not None:
            self._build_pending()
        return self._chain_nodes

    def defer_mentions(self, spans: Sequence[PendingMention]) -> None:
        """Let a reader hand over contiguous mentions as (entity, first token, last token,
        source line), to be built as :class:`Mention` objects when something first asks for
        mentions; :meth:`chain_extents` reads them without building them.

        The mentions get the ids and the creation order they would have had if the reader had
        added them now, one after the other; the reader guarantees what
        :meth:`add_read_mention` assumes (tokens inside the document, entities of this one).
        """
        if not spans:
            return
        if self._pending is not None:
            self._build_pending()
        self._pending = spans
        self._pending_first_id = self._next_mention_id
        self._next_mention_id += len(spans)

    def _build_pending(self) -> None:
        spans, self._pending = self._pending, None
        assert spans is not None
        nodes, refers, chains = self._mention_nodes, self._refers, self._chain_nodes
        for number, (entity, first, last, line) in enumerate(spans, self._pending_first_id):
            mention = Mention(number, tuple(range(first, last + 1)), entity.layer, None, False,
                              None, False, None, None, line)
            nodes[mention] = None
            refers[mention] = entity
            chains[entity][mention] = None
