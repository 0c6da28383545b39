"""Mentions, entities, bridging and split antecedents from a coreference layer's records.

Spans map to the tokens they share characters with (:class:`corefkit.converters.offsets.CharIndex`
over ``token.attrs[CHARS]``); a span that starts or ends inside a token (a WebAnno sub-token)
covers that token and keeps its characters in ``mention.attrs[SUBTOKEN]``.

*Chain shape*: one entity per chain (its number as ``original_id``), its links as mentions in
chain order (the order in which they join the entity, which writers give back).

*Relation shape*: one mention per span (its id as ``original_id``); coreference relations join
mentions into entities (connected components, singletons included, created in order of first
mention); the label of a mention's coreference relation is kept as its ``link`` attribute; an
etype or identity that every mention of an entity has alike becomes the entity's;
bridging relations go from the anaphor (the relation's source) to the target's entity, with the
target as anchor mention; a split-antecedent relation makes the source's entity a set with the
target's entity as a member. The relations themselves are kept in ``doc.attrs[EDGES]`` (mention
ids) so that a writer can give them back as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from corefkit.converters.offsets import CHARS, SUBTOKEN, CharIndex
from corefkit.converters.tool_layers.records import CorefLayers, Span
from corefkit.converters.tool_layers.schemes import (
    BRIDGING,
    CHAIN_SHAPE,
    COREFERENCE,
    ENTITY_ATTRIBUTES,
    IGNORE,
    SPLIT,
    Scheme,
)
from corefkit.model import Document, Entity, Mention

SCHEME = "_coref_scheme"   # doc.attrs: the Scheme the document was read with
EDGES = "_coref_edges"     # doc.attrs: [(source id, target id, meaning, features)]

# (check suffix, line, message, action) -> None
Report = Callable[[str, int | None, str, str], None]


class Builder:
    """Adds one document's coreference layer to its tokens."""

    def __init__(self, doc: Document, scheme: Scheme, report: Report) -> None:
        self.doc = doc
        self.scheme = scheme
        self.report = report
        self.index = CharIndex([t.attrs[CHARS] for t in doc.tokens])
        self.mentions: dict[int, Mention] = {}  # id(Span) -> its mention

    def build(self, layers: CorefLayers) -> None:
        self.doc.attrs[SCHEME] = self.scheme
        if self.scheme.shape == CHAIN_SHAPE:
            self.chains(layers)
        else:
            self.relations(layers)

    # ----------------------------------------------------------------- spans
    def tokens(self, span: Span) -> tuple[tuple[int, ...], bool]:
        """The tokens of a span and whether it covers them whole."""
        found, _ = self.index.tokens(span.begin, span.end)
        if not found and span.begin == span.end:  # a zero-width span inside a token
            found, _ = self.index.tokens(span.begin, span.begin + 1)
            if found and self.doc.tokens[found[0]].attrs[CHARS][0] >= span.begin:
                found = range(0)
        tokens = tuple(found)
        if not tokens:
            return (), False
        first = self.doc.tokens[tokens[0]].attrs[CHARS]
        last = self.doc.tokens[tokens[-1]].attrs[CHARS]
        return tokens, first[0] == span.begin and last[1] == span.end

    def attrs(self, span: Span) -> dict[str, Any]:
        return {self.scheme.attribute(k): v for k, v in span.features.items()}

    def mention(self, span: Span, entity: Entity | None, attrs: dict[str, Any]) -> Mention | None:
        tokens, whole = self.tokens(span)
        for begin, end in span.parts:
            more, _ = self.tokens(Span(begin, end))
            tokens = tuple(sorted(set(tokens) | set(more)))
        if not tokens:
            self.report("span-outside-tokens", span.line,
                        f"an annotation at characters {span.begin}-{span.end} covers no token; "
                        "left out", "dropped")
            return None
        if not whole:
            attrs[SUBTOKEN] = (span.begin, span.end)
        mention = self.doc.add_mention(tokens, entity, attrs=attrs, line=span.line)
        self.mentions[id(span)] = mention
        return mention

    # ----------------------------------------------------------------- chains
    def chains(self, layers: CorefLayers) -> None:
        by_key: dict[str, Entity] = {}
        for chain in layers.chains:
            attrs: dict[str, Any] = dict(chain.features)
            if chain.key is not None:
                attrs["original_id"] = chain.key
            entity = self.doc.new_entity(attrs=attrs)
            for link in chain.links:
                self.mention(link, entity, self.attrs(link))
            if chain.key is not None:
                by_key[chain.key] = entity
        for key, members in layers.sets:
            set_entity = by_key.get(key)
            for member in members:
                if set_entity is not None and member in by_key and by_key[member] is not set_entity:
                    self.doc.add_to_set(by_key[member], set_entity)
        empty = [e for e in self.doc.entities if not self.doc.size(e)]
        groups = [e for e in empty if self.doc.members(e)]
        if groups:
            self.report("group-without-mentions", None,
                        f"{len(groups)} entity groups have no mention of their own (first: "
                        f"{groups[0].attrs.get('label') or groups[0].attrs.get('original_id')!r});"
                        " left out, with their membership", "dropped")
        for entity in empty:
            self.doc.remove_entity(entity)

    # ----------------------------------------------------------------- spans + relations
    def relations(self, layers: CorefLayers) -> None:
        doc = self.doc
        spans = sorted(layers.spans, key=lambda s: (s.begin, -s.end))
        made: list[Mention] = []
        for span in spans:
            attrs = self.attrs(span)
            if span.key is not None:
                attrs["original_id"] = span.key
            mention = self.mention(span, None, attrs)
            if mention is not None:
                made.append(mention)
        edges = self.classify(layers)
        parent = {m: m for m in made}

        def find(m: Mention) -> Mention:
            while parent[m] is not m:
                parent[m] = parent[parent[m]]
                m = parent[m]
            return m

        for source, target, meaning, features in edges:
            if meaning == COREFERENCE:
                parent[find(source)] = find(target)
                label = features.get(self.scheme.relation_feature or "")
                if label is not None:
                    known = source.attrs.get(self.scheme.link_attribute)
                    source.attrs[self.scheme.link_attribute] = (
                        label if known is None else f"{known},{label}")
        entities: dict[Mention, Entity] = {}
        for mention in doc.sorted_mentions():
            root = find(mention)
            if root not in entities:
                entities[root] = doc.new_entity()
            doc.set_entity(mention, entities[root])
        for entity in doc.entities:
            self.lift(entity)
        self.side_relations(edges)
        doc.attrs[EDGES] = [(s.id, t.id, meaning, features) for s, t, meaning, features in edges]

    def classify(self, layers: CorefLayers) -> list[tuple[Mention, Mention, str, dict[str, str]]]:
        """(source, target, meaning, features) of every relation between two mentions."""
        feature = self.scheme.relation_feature or ""
        found: list[tuple[Mention, Mention, str, dict[str, str]]] = []
        for relation in layers.relations:
            source = self.mentions.get(id(relation.source))
            target = self.mentions.get(id(relation.target))
            if source is None or target is None:
                continue  # its span was left out (reported there)
            meaning = self.scheme.meaning(relation.features.get(feature))
            if meaning == IGNORE:
                continue
            if source is target:
                self.report("self-relation", relation.line,
                            f"a {relation.features.get(feature) or 'relation'} from a mention "
                            "to itself; left out", "dropped")
                continue
            found.append((source, target, meaning, dict(relation.features)))
        if self.scheme.split_from_multiple_bridges:
            bridges: dict[Mention, int] = {}
            for source, _, meaning, _ in found:
                if meaning == BRIDGING:
                    bridges[source] = bridges.get(source, 0) + 1
            found = [(s, t, SPLIT if m == BRIDGING and bridges[s] >= 2 else m, f)
                     for s, t, m, f in found]
        return found

    def lift(self, entity: Entity) -> None:
        """etype and identity that every mention of the entity has, the same, become the
        entity's (as CoNLL-U holds them); otherwise they stay with the mentions that have them."""
        mentions = self.doc.mentions_of(entity, ordered=False)
        for name in ENTITY_ATTRIBUTES:
            values = {m.attrs.get(name) for m in mentions}
            if len(values) == 1 and None not in values:
                entity.attrs[name] = values.pop()
                for mention in mentions:
                    del mention.attrs[name]

    def side_relations(self, edges: list[tuple[Mention, Mention, str, dict[str, str]]]) -> None:
        doc = self.doc
        feature = self.scheme.relation_feature or ""
        for source, target, meaning, features in edges:
            if meaning not in (BRIDGING, SPLIT):
                continue
            own, other = doc.entity_of(source), doc.entity_of(target)
            assert own is not None and other is not None
            label = features.get(feature)
            if own is other:
                self.report("relation-within-entity", source.line,
                            f"a {label or meaning} relation between two mentions of one entity "
                            f"({doc.text(source)!r} and {doc.text(target)!r}); left out", "dropped")
                continue
            if meaning == BRIDGING:
                doc.add_bridging(source, other, relation=label, anchor_mention=target)
            else:
                doc.add_to_set(other, own, evidence=(source,))
