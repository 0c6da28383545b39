"""The annotations of a coreference layer as a reader finds them, before the model.

Offsets are code points of the document text (end exclusive). ``key`` is what the file calls
an annotation (a WebAnno TSV disambiguation id or chain number, an XMI id), ``line`` where it
was read (for messages).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Span:
    """A span annotation (a mention of the span layer, or a link of a chain)."""

    begin: int
    end: int
    features: dict[str, str] = field(default_factory=dict)  # non-null feature values
    key: str | None = None
    line: int | None = None
    # further (begin, end) parts of a discontinuous span (CorefAnnotator's detached parts)
    parts: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Relation:
    """A relation annotation from ``source`` (the anaphor) to ``target`` (its antecedent)."""

    source: Span
    target: Span
    features: dict[str, str] = field(default_factory=dict)
    line: int | None = None


@dataclass
class Chain:
    """A chain: its links in chain order (the first link is the chain's ``first``)."""

    links: list[Span]
    key: str | None = None
    line: int | None = None
    features: dict[str, str] = field(default_factory=dict)  # attributes of the entity


@dataclass
class CorefLayers:
    """What the scheme's layers hold: mention spans and relations, or chains."""

    spans: list[Span] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    chains: list[Chain] = field(default_factory=list)
    # split antecedents between chains: (set chain key, member chain keys)
    sets: list[tuple[str, list[str]]] = field(default_factory=list)
