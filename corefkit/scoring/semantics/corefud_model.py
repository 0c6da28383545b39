"""The CorefUD scorer's view of a document: mentions as node positions with their head and
enhanced dependencies, and what scoring needs of one document. Below both the alignment
(:mod:`corefkit.scoring.semantics.corefud_align`) and the metrics defined on mentions
(:mod:`corefkit.scoring.semantics.corefud_mentions`), which use these types."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Position = tuple[int, int]  # (word number in the document, empty node K; 0 for words)
Parent = tuple[int, int, int]  # an enhanced-dependency parent: (sentence, word N, K)


@dataclass(unsafe_hash=True, slots=True)
class UDMention:
    """A mention as the CorefUD scorer sees it: node positions, head, zero flag, and the
    sentence and enhanced dependencies of the head (for matching zeros by dependencies).

    Treated as a value (hashed, never changed after it is made); not declared frozen because a
    frozen dataclass sets each field through ``object.__setattr__``, which made building the
    mentions of a GUM-sized corpus five times slower (0.085 s against 0.017 s for 48,000)."""

    words: tuple[Position, ...]                   # sorted
    head: Position
    zero: bool
    deps: tuple[tuple[Parent, str], ...] = ()
    sentence: int = 0
    label: Any = field(default=None, compare=False, hash=False)  # see align.Labeler
    # The nodes a partial match must contain; None means {head} (CorefUD). UA markables use
    # their Min span, and a markable without Min cannot be matched partially (empty set).
    core: frozenset[Position] | None = field(default=None, compare=False, hash=False)
    # Contiguous runs of the mention (first, last); CRAFT matching looks at them.
    parts: tuple[tuple[Position, Position], ...] = field(default=(), compare=False, hash=False)

    @property
    def order(self) -> tuple[Position, Position, int]:
        """The scorer's mention order: first node, last node, number of nodes."""
        return (self.words[0], self.words[-1], len(self.words))


@dataclass
class UDDocument:
    """What CorefUD scoring needs of one document."""

    name: str
    pair_key: tuple[str, str]
    clusters: list[list[UDMention]]
    sentences: list[tuple[str | None, tuple[str, ...], int | None]]  # sent_id, word forms, line
    file: str | None = None
    removed_zeros: int = 0
    removed_singletons: int = 0
    conllu: bool = True       # read from CoNLL-U: sentences and word forms are compared
