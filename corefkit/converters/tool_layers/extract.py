"""A document's coreference as the records of a scheme's layers, for the writers.

*Chain shape*: one chain per identity entity, its links in the order the mentions joined the
entity (the chain order of a chain read from a tool, text order otherwise); the chain's number
is the entity's ``original_id`` when every chain has a distinct numeric one.

*Relation shape*: one span per mention; the relations a reader kept (``doc.attrs[EDGES]``) as
they were, for every entity, bridging relation and split antecedent they still describe
exactly; the others are made anew: each mention of an entity points to the mention before it
(labelled with its ``link`` attribute, else the scheme's coreference label), a bridging anaphor
to its anchor mention (else the anchor entity's last mention before it), the evidence mention of
a split-antecedent set to a mention of each member.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from corefkit.converters.offsets import SUBTOKEN
from corefkit.converters.tool_layers.build import EDGES, SCHEME
from corefkit.converters.tool_layers.records import Chain, CorefLayers, Relation, Span
from corefkit.converters.tool_layers.schemes import (
    BRIDGING,
    CHAIN_SHAPE,
    COREFERENCE,
    ENTITY_ATTRIBUTES,
    SPLIT,
    Scheme,
    SchemeError,
    writing_scheme,
)
from corefkit.errors import UsageError
from corefkit.model import IDENTITY, Bridging, Document, Entity, Mention, SetMembership

# token index -> (begin, end) of the token in the text the writer writes
Offsets = dict[int, tuple[int, int]]


def scheme_for(doc: Document, coref_scheme: str = "auto") -> Scheme:
    """The scheme a writer uses for ``doc`` (``--coref-scheme``; auto: as it was read)."""
    recorded = doc.attrs.get(SCHEME)
    try:
        return writing_scheme(recorded if isinstance(recorded, Scheme) else None, coref_scheme)
    except SchemeError as exc:
        raise UsageError(str(exc)) from None


@dataclass
class Extracted:
    layers: CorefLayers
    mention_of: dict[int, Mention] = field(default_factory=dict)  # id(Span) -> mention
    written: list[Mention] = field(default_factory=list)


def span_of(doc: Document, mention: Mention, offsets: Offsets,
            features: dict[str, str], same_text: bool) -> Span:
    """The characters of a mention in the written text (its sub-token characters when the
    text is the one they were read in)."""
    own = mention.attrs.get(SUBTOKEN)
    first, last = offsets[mention.start], offsets[mention.end]
    begin, end = first[0], last[1]
    if same_text and isinstance(own, (tuple, list)) and len(own) == 2:
        b, e = int(own[0]), int(own[1])
        if first[0] <= b <= first[1] and last[0] <= e <= last[1] and b <= e:
            begin, end = b, e
    key = mention.attrs.get("original_id")
    return Span(begin, end, features, str(key) if key is not None else None, mention.line)


def mention_features(doc: Document, mention: Mention, scheme: Scheme,
                     features: tuple[str, ...]) -> dict[str, str]:
    """The values of ``features`` (of the scheme's mention layer) for a mention."""
    entity = doc.entity_of(mention)
    found: dict[str, str] = {}
    for feature in features:
        name = scheme.attribute(feature)
        value: Any = mention.attrs.get(name)
        if value is None and name in ENTITY_ATTRIBUTES and entity is not None:
            value = mention.attrs.get("orig_" + name, entity.attrs.get(name))
        if value is not None and value != "":
            found[feature] = str(value)
    return found


def writable(doc: Document) -> list[Mention]:
    """The mentions a tool layer can hold: mentions of identity entities (not non-referring or
    unlinked ones, which would read back as singletons), contiguous, without empty nodes."""
    return [m for m in doc.sorted_mentions()
            if m.tokens and m.layer == IDENTITY and m.is_contiguous
            and _identity_entity(doc, m)
            and not any(doc.tokens[t].is_empty for t in m.tokens)]


def _identity_entity(doc: Document, mention: Mention) -> bool:
    entity = doc.entity_of(mention)
    return entity is not None and not entity.pseudo


def extract(doc: Document, scheme: Scheme, offsets: Offsets, same_text: bool,
            span_features: tuple[str, ...]) -> Extracted:
    keep = set(writable(doc))
    if scheme.shape == CHAIN_SHAPE:
        return _chains(doc, scheme, offsets, same_text, keep, span_features)
    return _relations(doc, scheme, offsets, same_text, keep, span_features)


def _chains(doc: Document, scheme: Scheme, offsets: Offsets, same_text: bool,
            keep: set[Mention], features: tuple[str, ...]) -> Extracted:
    out = Extracted(CorefLayers())
    entities = [e for e in doc.entities_in(IDENTITY)
                if any(m in keep for m in doc.mentions_of(e, ordered=False))]
    numbers = chain_numbers(entities)
    for entity, number in zip(entities, numbers):
        links = []
        for mention in doc.mentions_of(entity, ordered=False):
            if mention not in keep:
                continue
            span = span_of(doc, mention, offsets, mention_features(doc, mention, scheme, features),
                           same_text)
            out.mention_of[id(span)] = mention
            out.written.append(mention)
            links.append(span)
        out.layers.chains.append(Chain(links, str(number)))
    return out


def chain_numbers(entities: list[Entity]) -> list[int]:
    """The entities' own numbers when they are distinct positive integers, else 1, 2, ..."""
    given = [str(e.attrs.get("original_id", "")) for e in entities]
    if all(g.isascii() and g.isdigit() and int(g) > 0 for g in given) \
            and len(set(given)) == len(given):
        return [int(g) for g in given]
    return list(range(1, len(entities) + 1))


@dataclass
class SideRelations:
    """The bridging relations and set memberships a relation scheme writes, and those it
    cannot: their anaphor, anchor or member has no mention the layer holds, or (GUM's scheme,
    where two or more ``bridge`` relations from one mention are a set) a set would have fewer
    than two members, or a bridging anaphor a second ``bridge`` relation."""

    bridges: list[Bridging] = field(default_factory=list)
    memberships: list[tuple[Mention, SetMembership]] = field(default_factory=list)
    lost_bridges: list[Bridging] = field(default_factory=list)
    lost_memberships: list[SetMembership] = field(default_factory=list)


def side_relations(doc: Document, scheme: Scheme, keep: set[Mention]) -> SideRelations:
    found = SideRelations()
    held = {e for e in doc.entities_in(IDENTITY) if any(m in keep for m in doc.mentions_of(e))}
    sources: dict[Entity, Mention | None] = {}
    by_set: dict[Entity, list[SetMembership]] = {}
    for membership in doc.memberships():
        by_set.setdefault(membership.set_entity, []).append(membership)
    for set_entity, members in by_set.items():
        evidence = tuple(m for x in members for m in x.evidence)
        source = split_source(doc, set_entity, evidence, keep)
        sources[set_entity] = source
        written = [x for x in members if source is not None and x.member in held]
        if scheme.split_from_multiple_bridges and len(written) < 2:
            written = []
        found.memberships.extend((source, x) for x in written if source is not None)
        found.lost_memberships.extend(x for x in members if x not in written)
    split_sources = {source for source, _ in found.memberships}
    count: dict[Mention, int] = {}
    for bridge in doc.bridging():
        count[bridge.anaphor] = count.get(bridge.anaphor, 0) + 1
    for bridge in doc.bridging():
        ok = bridge.anaphor in keep and bridge.anchor in held
        if ok and scheme.split_from_multiple_bridges:
            ok = count[bridge.anaphor] == 1 and bridge.anaphor not in split_sources
        (found.bridges if ok else found.lost_bridges).append(bridge)
    return found


class _Edges:
    """The relations kept by the reader, looked up by what they describe."""

    def __init__(self, doc: Document) -> None:
        by_id = {m.id: m for m in doc.mentions}
        self.found: list[tuple[Mention, Mention, str, dict[str, str]]] = []
        self.rank: dict[tuple[int, int], int] = {}   # the order in which they were read
        for n, (source, target, meaning, features) in enumerate(doc.attrs.get(EDGES) or ()):
            s, t = by_id.get(source), by_id.get(target)
            if s is not None and t is not None:
                self.found.append((s, t, meaning, dict(features)))
                self.rank.setdefault((s.id, t.id), n)


def _relations(doc: Document, scheme: Scheme, offsets: Offsets, same_text: bool,
               keep: set[Mention], features: tuple[str, ...]) -> Extracted:
    out = Extracted(CorefLayers())
    spans: dict[Mention, Span] = {}
    for mention in doc.sorted_mentions():
        if mention not in keep:
            continue
        span = span_of(doc, mention, offsets, mention_features(doc, mention, scheme, features),
                       same_text)
        spans[mention] = span
        out.mention_of[id(span)] = mention
        out.written.append(mention)
        out.layers.spans.append(span)
    edges = _Edges(doc)
    relation = scheme.relation_feature or "type"
    rank: dict[int, tuple[int, int]] = {}

    def add(source: Mention, target: Mention, label: str | None, extra: dict[str, str]) -> None:
        feats = dict(extra)
        if label is not None:
            feats[relation] = label
        made = Relation(spans[source], spans[target], feats)
        read = edges.rank.get((source.id, target.id))
        rank[id(made)] = (0, read) if read is not None and label is None else (1, len(rank))
        out.layers.relations.append(made)

    _coreference(doc, scheme, edges, spans, add)
    side = side_relations(doc, scheme, keep)
    anchors = _Anchors(doc, spans)
    _bridging(doc, scheme, edges, anchors, add, side)
    _splits(doc, scheme, edges, anchors, add, side)
    # on a row, relations as they were read, then the new ones
    out.layers.relations.sort(key=lambda r: (r.target.begin, -r.target.end, rank[id(r)],
                                             r.source.begin))
    return out


Add = Callable[[Mention, Mention, "str | None", dict[str, str]], None]


def _coreference(doc: Document, scheme: Scheme, edges: _Edges, spans: dict[Mention, Span],
                 add: Add) -> None:
    kept: dict[Entity, list[tuple[Mention, Mention, dict[str, str]]]] = {}
    broken: set[Entity] = set()
    for source, target, meaning, features in edges.found:
        if meaning != COREFERENCE:
            continue
        entity = doc.entity_of(source)
        if entity is None or doc.entity_of(target) is not entity \
                or source not in spans or target not in spans:
            if entity is not None:
                broken.add(entity)
            continue
        kept.setdefault(entity, []).append((source, target, features))
    for entity in doc.entities_in(IDENTITY):
        mentions = [m for m in doc.mentions_of(entity) if m in spans]
        given = kept.get(entity, [])
        if entity not in broken and _connects(mentions, given):
            for source, target, features in given:
                add(source, target, None, features)
            continue
        for before, mention in zip(mentions, mentions[1:]):
            label = mention.attrs.get(scheme.link_attribute)
            label = str(label).split(",")[0] if label else scheme.label(COREFERENCE)
            add(mention, before, label, {})


def _connects(mentions: list[Mention], edges: list[tuple[Mention, Mention, Any]]) -> bool:
    if len(mentions) <= 1:
        return not edges
    parent = {m: m for m in mentions}

    def find(m: Mention) -> Mention:
        while parent[m] is not m:
            parent[m] = parent[parent[m]]
            m = parent[m]
        return m

    for source, target, _ in edges:
        parent[find(source)] = find(target)
    return len({find(m) for m in mentions}) == 1


class _Anchors:
    """The written mention a relation to an entity points to: the one given, if it is a
    written mention of the entity, else the entity's last written mention before the
    relation's source, else its first (each entity's mentions sorted once)."""

    def __init__(self, doc: Document, spans: dict[Mention, Span]) -> None:
        self.doc, self.spans = doc, spans
        self.cache: dict[Entity, tuple[list[int], list[Mention]]] = {}

    def __call__(self, entity: Entity, before: Mention,
                 preferred: Mention | None) -> Mention | None:
        if preferred is not None and preferred in self.spans \
                and self.doc.entity_of(preferred) is entity:
            return preferred
        if entity not in self.cache:
            ordered = [m for m in self.doc.mentions_of(entity) if m in self.spans]
            self.cache[entity] = ([m.start for m in ordered], ordered)
        starts, ordered = self.cache[entity]
        at = bisect.bisect_left(starts, before.start)
        if at > 0:
            return ordered[at - 1]
        return ordered[0] if ordered else None


def _bridging(doc: Document, scheme: Scheme, edges: _Edges, anchor: _Anchors,
              add: Add, side: SideRelations) -> None:
    stored = {(s, t): f for s, t, meaning, f in edges.found if meaning == BRIDGING}
    for bridge in side.bridges:
        target = anchor(bridge.anchor, bridge.anaphor, bridge.anchor_mention)
        if target is None:
            continue
        features = stored.get((bridge.anaphor, target))
        if features is not None:
            add(bridge.anaphor, target, None, features)
            continue
        label = bridge.relation if bridge.relation and scheme.meaning(bridge.relation) == BRIDGING \
            else scheme.label(BRIDGING)
        add(bridge.anaphor, target, label, {})


def split_source(doc: Document, set_entity: Entity, evidence: tuple[Mention, ...],
                 spans: Any) -> Mention | None:
    for mention in evidence:
        if mention in spans and doc.entity_of(mention) is set_entity:
            return mention
    mentions = [m for m in doc.mentions_of(set_entity) if m in spans]
    return mentions[0] if mentions else None


def _splits(doc: Document, scheme: Scheme, edges: _Edges, anchor: _Anchors,
            add: Add, side: SideRelations) -> None:
    stored = {(s, doc.entity_of(t)): (t, f) for s, t, meaning, f in edges.found
              if meaning == SPLIT}
    for source, membership in side.memberships:
        found = stored.get((source, membership.member))
        if found is not None and found[0] in anchor.spans:
            add(source, found[0], None, found[1])
            continue
        target = anchor(membership.member, source, None)
        if target is not None:
            add(source, target, scheme.label(SPLIT), {})
