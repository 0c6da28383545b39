"""How a :class:`~corefkit.model.document.Document` stores its mentions and refers edges.

Mentions are an insertion-ordered set, refers edges two dictionaries (mention → entity and
entity → its mentions). A reader may hand over its mentions unbuilt (:meth:`MentionStore.
defer_mentions`): tens of thousands of mention objects cost a large share of reading a file,
and scoring needs only their extents. Every access to the storage goes through three
properties that build pending mentions first, so nothing can see a document half built.
"""

from __future__ import annotations

from collections.abc import Sequence

from corefkit.errors import FormatError
from corefkit.model.anaphora import Entity, Mention

# a mention handed over unbuilt: (entity, first token, last token, source line)
PendingMention = tuple[Entity, int, int, int | None]

# A mention holds the index of every token it covers, so n mentions nested in each other over
# n tokens hold n²/2 indices: a 300 KB file could ask for gigabytes. A document's mentions may
# cover at most this many token positions in all, or TOKENS_PER_POSITION per token of the
# document if that is more (real corpora cover each token 1 to 5 times).
COVERED_POSITIONS = 4_000_000
TOO_LARGE = "document.too-large"
TOKENS_PER_POSITION = 100


class MentionStore:
    """The mention nodes and refers edges of a document, with the reader's pending mentions."""

    def __init__(self) -> None:
        self._mention_nodes: dict[Mention, None] = {}
        self._refers: dict[Mention, Entity] = {}
        self._chain_nodes: dict[Entity, dict[Mention, None]] = {}
        self._pending: Sequence[PendingMention] | None = None
        self._pending_first_id = 0
        self._next_mention_id = 0
        self._covered = 0  # token positions covered by the mentions, counted as they come

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
        self.count_covered(sum(last - first + 1 for _, first, last, _ in spans))
        if self._pending is not None:
            self._build_pending()
        self._pending = spans
        self._pending_first_id = self._next_mention_id
        self._next_mention_id += len(spans)

    def count_covered(self, positions: int) -> None:
        """Count the token positions of new mentions; a :class:`FormatError` past the limit
        (:data:`COVERED_POSITIONS`), before anything is built."""
        self._covered += positions
        if self._covered > COVERED_POSITIONS and \
                self._covered > TOKENS_PER_POSITION * self._token_total():
            limit = max(COVERED_POSITIONS, TOKENS_PER_POSITION * self._token_total())
            file, line, name = self._place()
            raise FormatError(
                f"document {name!r}: its mentions cover more than {limit:,} token positions "
                "in all (mentions nested in each other or repeated over long spans); corefkit "
                "keeps the tokens of every mention and refuses a document past this limit",
                file=file, line=line, check=TOO_LARGE)

    def _token_total(self) -> int:
        return 0

    def _place(self) -> tuple[str | None, int | None, str]:
        """The document's file, first line and name, for the error."""
        return None, None, "?"

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
