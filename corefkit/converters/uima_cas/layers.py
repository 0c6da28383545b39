"""The coreference layers of a CAS: what its type system declares, and their annotations.

A type system declares, for corefkit's schemes (:mod:`corefkit.converters.tool_layers.schemes`):

* *chain layers*: a link type with a ``next`` feature that a chain type's ``first`` points to
  (DKPro Core's ``CoreferenceLink``/``CoreferenceChain``, INCEpTION's custom chain layers), and
  mention types whose ``Entity`` feature points to an entity object (CorefAnnotator's
  ``v1.Mention`` → ``v1.Entity``; ``EntityGroup`` members are split antecedents, a
  ``DetachedMentionPart`` a further part of a discontinuous mention);
* *relation layers*: annotation types with ``Governor`` and ``Dependent`` features (WebAnno's
  relation layers; the governor is the source, i.e. the anaphor, the dependent the target);
* *span layers*: the other annotation types.
"""

from __future__ import annotations

from typing import Any

from corefkit.converters.tool_layers.records import Chain, CorefLayers, Relation, Span
from corefkit.converters.tool_layers.schemes import CHAIN_SHAPE, Layer, Scheme

ANNOTATION = "uima.tcas.Annotation"
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"
SENTENCE = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Sentence"
METADATA = "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.DocumentMetaData"
BUILT_IN_FEATURES = {"sofa", "begin", "end"}
ENTITY_FEATURES = ("Entity", "entity")
MAX_CHAIN = 1_000_000
RESERVED = ("type", "self")


def _is_annotation(ts: Any, name: str) -> bool:
    return bool(ts.subsumes(ANNOTATION, name))


def accessor(name: str) -> str:
    """The attribute cassis gives a feature: a Python-reserved name gets an underscore."""
    return name + "_" if name in RESERVED else name


def feature_name(feature: Any) -> str:
    """A feature's name in the type system (cassis renames ``type`` to ``type_``)."""
    return feature.name[:-1] if getattr(feature, "_has_reserved_name", False) else feature.name


def primitive_features(ts: Any, type_: Any) -> tuple[str, ...]:
    return tuple(feature_name(f) for f in type_.all_features
                 if f.name not in BUILT_IN_FEATURES and ts.is_primitive(f.rangeType))


def entity_feature(ts: Any, type_: Any) -> str | None:
    for name in ENTITY_FEATURES:
        feature = type_.get_feature(name)
        if feature is not None and not ts.is_primitive(feature.rangeType) \
                and not _is_annotation(ts, feature.rangeType.name) \
                and not feature.rangeType.name.startswith("uima.cas."):
            return name
    return None


def declared_layers(ts: Any) -> list[Layer]:
    types = list(ts.get_types())
    chain_links = set()
    for type_ in types:
        first = type_.get_feature("first")
        # a feature's range may be a forward reference without features: look the type up
        if first is not None and ts.contains_type(first.rangeType.name) \
                and ts.get_type(first.rangeType.name).get_feature("next") is not None:
            chain_links.add(first.rangeType.name)
    found: list[Layer] = []
    for type_ in types:
        if not _is_annotation(ts, type_.name) or type_.name == ANNOTATION:
            continue
        features = primitive_features(ts, type_)
        if type_.name in chain_links or entity_feature(ts, type_) is not None:
            found.append(Layer(type_.name, "chain", features))
        elif type_.get_feature("Governor") is not None \
                and type_.get_feature("Dependent") is not None:
            found.append(Layer(type_.name, "relation", features,
                               type_.get_feature("Dependent").rangeType.name))
        else:
            found.append(Layer(type_.name, "span", features))
    return found


def value_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class CasLayers:
    """Reads the annotations of a scheme's layers from one CAS."""

    def __init__(self, cas: Any, ts: Any) -> None:
        self.cas, self.ts = cas, ts
        self.spans: dict[int, Span] = {}   # xmi id -> span

    def features(self, fs: Any, names: tuple[str, ...]) -> dict[str, str]:
        found = {}
        for name in names:
            value = value_text(getattr(fs, accessor(name), None))
            if value is not None:
                found[name] = value
        return found

    def span(self, fs: Any) -> Span:
        known = self.spans.get(fs.xmiID)
        if known is None:
            names = primitive_features(self.ts, fs.type)
            known = Span(fs.begin, fs.end, self.features(fs, names), str(fs.xmiID))
            self.spans[fs.xmiID] = known
        return known

    def read(self, scheme: Scheme) -> CorefLayers:
        if scheme.shape == CHAIN_SHAPE:
            assert scheme.chain_layer is not None
            link_type = self.ts.get_type(scheme.chain_layer)
            if entity_feature(self.ts, link_type) is not None:
                return self.entity_chains(link_type)
            return self.linked_chains(scheme.chain_layer)
        found = CorefLayers()
        for fs in self.cas.select(scheme.span_layer):
            found.spans.append(self.span(fs))
        relation_type = self.ts.get_type(scheme.relation_layer)
        names = primitive_features(self.ts, relation_type)
        for fs in self.cas.select(scheme.relation_layer):
            governor, dependent = fs.get("Governor"), fs.get("Dependent")
            if governor is None or dependent is None \
                    or governor.type.name != scheme.span_layer \
                    or dependent.type.name != scheme.span_layer:
                continue
            found.relations.append(Relation(self.span(governor), self.span(dependent),
                                            self.features(fs, names)))
        return found

    def linked_chains(self, link_type: str) -> CorefLayers:
        found = CorefLayers()
        for type_ in self.ts.get_types():
            first = type_.get_feature("first")
            if first is None or first.rangeType.name != link_type:
                continue
            for chain in self.cas.select(type_.name):
                links: list[Span] = []
                seen: set[int] = set()
                link = chain.get("first")
                while link is not None and link.xmiID not in seen and len(links) < MAX_CHAIN:
                    seen.add(link.xmiID)
                    links.append(self.span(link))
                    link = link.get("next")
                if links:
                    found.chains.append(Chain(links))
        return found

    def entity_chains(self, mention_type: Any) -> CorefLayers:
        found = CorefLayers()
        feature = entity_feature(self.ts, mention_type)
        by_entity: dict[int, list[Span]] = {}
        entities: dict[int, Any] = {}
        detached = mention_type.get_feature("Discontinuous")
        for fs in self.cas.select(mention_type.name):
            entity = fs.get(feature)
            if entity is None:
                continue
            span = self.span(fs)
            part = fs.get("Discontinuous") if detached is not None else None
            if part is not None and hasattr(part, "begin"):
                span.parts.append((part.begin, part.end))
            entities[entity.xmiID] = entity
            by_entity.setdefault(entity.xmiID, []).append(span)
        for xmi_id, spans in by_entity.items():
            entity = entities[xmi_id]
            label = value_text(entity.get("Label")) if entity.type.get_feature("Label") else None
            spans.sort(key=lambda s: (s.begin, -s.end))
            found.chains.append(Chain(spans, str(xmi_id),
                                      features={"label": label} if label else {}))
        for type_ in self.ts.get_types():
            if type_.get_feature("Members") is None or not self.ts.subsumes(
                    mention_type.get_feature(feature).rangeType.name, type_.name):
                continue
            for group in self.cas.select(type_.name):
                array = group.get("Members")
                members = [str(m.xmiID) for m in (getattr(array, "elements", None) or [])
                           if m is not None and hasattr(m, "xmiID")]
                if group.xmiID not in by_entity:
                    label = value_text(group.get("Label"))
                    found.chains.append(Chain([], str(group.xmiID),
                                              features={"label": label} if label else {}))
                found.sets.append((str(group.xmiID), members))
        return found
