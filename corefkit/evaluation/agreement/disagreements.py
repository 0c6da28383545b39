"""Where two annotators disagree, mention by mention and chain by chain, with file locations.

On the identity layer of two annotations of one document (on common tokens), in this order:

1. mentions with the same tokens on both sides are **matched**;
2. a mention left on one side that shares tokens with mentions left on the other is paired with
   the one it shares most tokens with (then the earliest): a **boundary** difference;
3. a mention still left is one **only one annotator marked** (category ``mention``);
4. over the mentions paired in 1 and 2, a chain of the first annotator whose mentions lie in
   two or more chains of the second is **split** by the second, and a chain of the second
   whose mentions lie in two or more chains of the first **merges** them (a mention in no
   chain counts as a chain of its own).

Each disagreement names the mentions concerned on each side with their text and where they
are in the annotator's file: ``file:line`` where the format has lines for mentions, followed
by ``@start-end``, the characters of the text, where it has character offsets; ``file#N``
(the N-th token) where it has neither.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from corefkit.model import IDENTITY, Document, Entity, Mention

MENTION, BOUNDARY, SPLIT, MERGE = "mention", "boundary", "split", "merge"
CATEGORIES = (MENTION, BOUNDARY, SPLIT, MERGE)
TITLES = {MENTION: "mention only one annotator marked", BOUNDARY: "boundaries differ",
          SPLIT: "chain split by the other annotator", MERGE: "chains merged by the other"}
CHARS = "_chars"
TEXT_LIMIT = 80


@dataclass(frozen=True)
class Place:
    """One mention of a disagreement: whose, its text, where in their file, and its tokens
    (on the common tokens)."""

    annotator: str
    text: str
    location: str
    tokens: tuple[int, ...]
    file: str = ""
    line: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"annotator": self.annotator, "text": self.text, "location": self.location,
                "tokens": [self.tokens[0], self.tokens[-1]] if self.tokens else []}


@dataclass(frozen=True)
class Disagreement:
    """One disagreement of the pair (``first``, ``second``) in ``document``."""

    document: str
    first: str
    second: str
    category: str
    annotator: str            # whose mention (mention), the other's for boundary, split, merge
    detail: str
    places: tuple[Place, ...]

    def to_json(self) -> dict[str, Any]:
        return {"document": self.document, "first": self.first, "second": self.second,
                "category": self.category, "annotator": self.annotator, "detail": self.detail,
                "places": [p.to_json() for p in self.places]}


@dataclass
class Matching:
    """The mentions of two annotations matched exactly, paired by overlap, and left over."""

    exact: list[tuple[Mention, Mention]]
    boundary: list[tuple[Mention, Mention]]
    only_first: list[Mention]
    only_second: list[Mention]


def identity_mentions(doc: Document) -> list[Mention]:
    """The identity-layer mentions with tokens, one per extent (the first), in order."""
    seen: set[tuple[int, ...]] = set()
    found = []
    for mention in doc.sorted_mentions():
        if mention.layer == IDENTITY and mention.tokens and mention.extent not in seen:
            seen.add(mention.extent)
            found.append(mention)
    return found


def match_mentions(first: Document, second: Document) -> Matching:
    a, b = identity_mentions(first), identity_mentions(second)
    by_extent = {m.extent: m for m in b}
    exact = [(m, by_extent[m.extent]) for m in a if m.extent in by_extent]
    taken = {id(y) for _, y in exact}
    left_a = [m for m in a if m.extent not in by_extent]
    left_b = [m for m in b if id(m) not in taken]
    covering: dict[int, list[Mention]] = {}
    for m in left_b:
        for t in m.tokens:
            covering.setdefault(t, []).append(m)
    boundary, only_a, used = [], [], set()
    for m in left_a:
        overlap: dict[int, int] = {}
        candidates: dict[int, Mention] = {}
        for t in m.tokens:
            for other in covering.get(t, ()):
                if id(other) not in used:
                    overlap[id(other)] = overlap.get(id(other), 0) + 1
                    candidates[id(other)] = other
        if not overlap:
            only_a.append(m)
            continue
        best = max(candidates.values(),
                   key=lambda o: (overlap[id(o)], -o.start, -o.end, -o.id))
        used.add(id(best))
        boundary.append((m, best))
    only_b = [m for m in left_b if id(m) not in used]
    return Matching(exact, boundary, only_a, only_b)


def location(doc: Document, mention: Mention) -> str:
    """Where ``mention`` is in its annotator's file (see the module's text)."""
    where = doc.file or doc.name
    if mention.line is not None:
        where += f":{mention.line}"
    first, last = doc.tokens[mention.start], doc.tokens[mention.end]
    if CHARS in first.attrs and CHARS in last.attrs:
        return f"{where}@{first.attrs[CHARS][0]}-{last.attrs[CHARS][1]}"
    return where if mention.line is not None else f"{where}#{mention.start + 1}"


def place(doc: Document, label: str, mention: Mention) -> Place:
    text = doc.text(mention)
    if len(text) > TEXT_LIMIT:
        text = text[:TEXT_LIMIT - 1] + "…"
    return Place(label, text, location(doc, mention), mention.tokens, doc.file or doc.name,
                 mention.line)


def disagreements(name: str, labels: tuple[str, str], first: Document, second: Document,
                  matching: Matching | None = None) -> list[Disagreement]:
    """Every disagreement of the pair in one document (see the module's text)."""
    a, b = labels
    found = matching or match_mentions(first, second)
    out: list[Disagreement] = []
    for m in found.only_first:
        out.append(Disagreement(name, a, b, MENTION, a, f"only {a} marked it",
                                (place(first, a, m),)))
    for m in found.only_second:
        out.append(Disagreement(name, a, b, MENTION, b, f"only {b} marked it",
                                (place(second, b, m),)))
    for x, y in found.boundary:
        out.append(Disagreement(name, a, b, BOUNDARY, b, "the same mention with other "
                                "boundaries", (place(first, a, x), place(second, b, y))))
    pairs = found.exact + found.boundary
    out += _chains(name, labels, first, second, pairs, SPLIT)
    out += _chains(name, labels, second, first, [(y, x) for x, y in pairs], MERGE)
    out.sort(key=lambda d: (min(p.tokens[0] for p in d.places), CATEGORIES.index(d.category)))
    return out


def _chains(name: str, labels: tuple[str, str], own: Document, other: Document,
            pairs: Iterable[tuple[Mention, Mention]], category: str) -> list[Disagreement]:
    """A chain of ``own`` whose paired mentions lie in several chains of ``other``."""
    a, b = labels
    own_label, other_label = (a, b) if category == SPLIT else (b, a)
    parts: dict[Entity, dict[Any, Mention]] = {}
    firsts: dict[Entity, Mention] = {}
    for mine, theirs in pairs:
        entity = own.entity_of(mine)
        if entity is None or entity.layer != IDENTITY:
            continue
        target = other.entity_of(theirs)
        group: Any = target if target is not None else ("mention", id(theirs))
        chosen = parts.setdefault(entity, {})
        if group not in chosen or _before(theirs, chosen[group]):
            chosen[group] = theirs
        if entity not in firsts or _before(mine, firsts[entity]):
            firsts[entity] = mine
    out = []
    for entity, groups in parts.items():
        if len(groups) < 2:
            continue
        heads = sorted(groups.values(), key=lambda m: (m.start, -m.end, m.id))
        size = own.size(entity)
        if category == SPLIT:
            detail = (f"{own_label}'s chain of {size} mentions is {len(groups)} chains for "
                      f"{other_label}")
        else:
            detail = (f"{own_label}'s chain of {size} mentions joins {len(groups)} chains of "
                      f"{other_label}")
        places = (place(own, own_label, firsts[entity]),
                  *(place(other, other_label, m) for m in heads))
        out.append(Disagreement(name, a, b, category, other_label if category == SPLIT
                                else own_label, detail, places))
    return out


def _before(x: Mention, y: Mention) -> bool:
    return (x.start, -x.end, x.id) < (y.start, -y.end, y.id)


# ------------------------------------------------------------------------------ per type
@dataclass
class TypeCount:
    """Mentions of one type of each annotator of a pair, and how many were matched exactly."""

    first: int = 0
    second: int = 0
    first_matched: int = 0
    second_matched: int = 0

    def add(self, other: TypeCount) -> None:
        self.first += other.first
        self.second += other.second
        self.first_matched += other.first_matched
        self.second_matched += other.second_matched


def type_counts(first: Document, second: Document, matching: Matching,
                classify: Sequence[Any]) -> dict[str, TypeCount]:
    """Per type (``classify``: one function per side, mention -> type or None), each side's
    mentions and those matched exactly (their type is the side's own)."""
    found: dict[str, TypeCount] = {}
    matched_a = {id(x) for x, _ in matching.exact}
    matched_b = {id(y) for _, y in matching.exact}
    for doc, kind, matched, side in ((first, classify[0], matched_a, 0),
                                     (second, classify[1], matched_b, 1)):
        for m in identity_mentions(doc):
            name = kind(m)
            if name is None:
                continue
            counts = found.setdefault(name, TypeCount())
            if side == 0:
                counts.first += 1
                counts.first_matched += id(m) in matched
            else:
                counts.second += 1
                counts.second_matched += id(m) in matched
    return found
