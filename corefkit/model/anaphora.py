"""The anaphoric objects of a document: mentions, entities and the relations between them.

These are plain value holders; who refers to what is stored as typed edges in the document's
graph (see :mod:`corefkit.model.document`). Objects compare by identity, which is what makes
them usable as graph nodes even when two mentions cover the same tokens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

IDENTITY = "identity"
DISCOURSE_DEIXIS = "dd"
LAYERS = (IDENTITY, DISCOURSE_DEIXIS)

# Kinds of non-referring markables (conversion-notes §4).
NONREF_KINDS = (
    "expletive", "predicate", "quantifier", "coordination", "idiom", "incomplete", "unknown",
)


class Mention:
    """A markable: the tokens it covers (document token indices, ascending).

    A mention is usually one contiguous span; discontinuous mentions have gaps and zero
    mentions cover empty nodes. ``head`` is one token index (or None), ``min_tokens`` the
    minimum span; the ``*_derived`` flags say that a converter computed them rather than read
    them. ``nonref`` is the kind of a non-referring markable (None for referring ones).
    ``attrs`` keeps every other mention attribute a format carries.
    """

    __slots__ = (
        "id", "tokens", "layer", "head", "head_derived", "min_tokens", "min_derived",
        "nonref", "attrs", "line",
    )

    def __init__(  # positional-or-keyword, for fast construction by readers
        self,
        id: int,
        tokens: tuple[int, ...],
        layer: str = IDENTITY,
        head: int | None = None,
        head_derived: bool = False,
        min_tokens: tuple[int, ...] | None = None,
        min_derived: bool = False,
        nonref: str | None = None,
        attrs: dict[str, Any] | None = None,
        line: int | None = None,
    ) -> None:
        self.id = id
        self.tokens = tokens
        self.layer = layer
        self.head = head
        self.head_derived = head_derived
        self.min_tokens = min_tokens
        self.min_derived = min_derived
        self.nonref = nonref
        self.attrs = attrs if attrs is not None else {}
        self.line = line  # source line where the mention starts, for messages

    @property
    def start(self) -> int:
        return self.tokens[0] if self.tokens else -1

    @property
    def end(self) -> int:
        return self.tokens[-1] if self.tokens else -1

    @property
    def span(self) -> tuple[int, int]:
        """(first token, last token), the extent used by exact matching."""
        return (self.start, self.end)

    @property
    def extent(self) -> tuple[int, ...]:
        """What exact matching compares: (first, last) token of a contiguous mention, every
        token of a discontinuous one (``()`` for a mention without tokens)."""
        tokens = self.tokens
        if tokens and tokens[-1] - tokens[0] + 1 == len(tokens):
            return (tokens[0], tokens[-1])
        return tokens

    @property
    def is_contiguous(self) -> bool:
        return not self.tokens or self.tokens[-1] - self.tokens[0] + 1 == len(self.tokens)

    def parts(self) -> list[tuple[int, int]]:
        """The maximal contiguous runs of the mention, as (first, last) token pairs."""
        runs: list[tuple[int, int]] = []
        for t in self.tokens:
            if runs and runs[-1][1] + 1 == t:
                runs[-1] = (runs[-1][0], t)
            else:
                runs.append((t, t))
        return runs

    def __repr__(self) -> str:
        if self.is_contiguous:
            where = f"{self.start}-{self.end}" if self.tokens else "no tokens"
        else:
            where = ",".join(f"{a}-{b}" for a, b in self.parts())
        return f"Mention({self.id}, {where}, layer={self.layer})"


class Entity:
    """A chain of mentions that refer to the same thing (identity or discourse-deixis layer).

    ``pseudo`` marks the stand-in entity of a non-referring markable that still has to take
    part in a relation (e.g. a Pseudo member of a split-antecedent set in UA data).
    """

    __slots__ = ("id", "layer", "pseudo", "attrs")

    def __init__(
        self,
        id: int,
        *,
        layer: str = IDENTITY,
        pseudo: bool = False,
        attrs: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.layer = layer
        self.pseudo = pseudo
        self.attrs = attrs if attrs is not None else {}

    def __repr__(self) -> str:
        flag = ", pseudo" if self.pseudo else ""
        return f"Entity({self.id}, layer={self.layer}{flag})"


@dataclass(frozen=True)
class Bridging:
    """Anaphor mention → anchor entity, with the anchor mention and relation when known."""

    anaphor: Mention
    anchor: Entity
    relation: str | None = None
    anchor_mention: Mention | None = None
    attrs: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class SetMembership:
    """``member`` is an element of the accommodated set of ``set_entity`` (Paun et al. 2023).

    ``evidence`` holds the mentions that carried the statement in the source format, so that
    a same-format round trip can put it back where it was (conversion-notes §3).
    """

    member: Entity
    set_entity: Entity
    evidence: tuple[Mention, ...] = ()
