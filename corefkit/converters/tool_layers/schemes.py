"""Which layer and feature of an annotation tool's file mean what: coreference schemes.

A :class:`Scheme` names the layers that hold coreference and how to read them. Two shapes:

* ``chain``: a chain layer (DKPro Core ``CoreferenceLink``, INCEpTION's built-in
  *Coreference* layer): every chain is an entity, every link a mention; ``referenceType`` and
  ``referenceRelation`` are mention attributes.
* ``relation``: a span layer whose spans are mentions and a relation layer over it; each
  relation's label (a feature of the relation layer) means coreference (the two mentions are
  one entity), bridging (anaphor → anchor), a split antecedent (the anaphor's entity is a set
  with the target's entity as a member) or nothing (``ignore``).

Presets: ``chain`` (DKPro Core), ``relation`` (a span layer ``webanno.custom.Referent`` with
an ``entity`` feature, a relation layer ``webanno.custom.Coref`` with a ``type`` feature) and
``gum`` (GUM's sources: ``Referent`` with entity/infstat/salience/identity, ``Coref`` with
``coref``/``bridge``; a source with two or more ``bridge`` relations is a split antecedent, as
GUM's build makes ``SplitAnte`` of them; the finer labels of GUM's released TSV, ``ana``,
``appos``, ``cata``, ``pred``, ``disc`` and ``bridge:def/other/aggr``, are read too). Every
layer, the label feature and the label meanings can be given as options; ``auto`` finds the
layers a file declares.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from corefkit.converters.base import Option

COREFERENCE, BRIDGING, SPLIT, IGNORE = "coreference", "bridging", "split", "ignore"
MEANINGS = (COREFERENCE, BRIDGING, SPLIT, IGNORE)
ANY_LABEL = "*"  # the meaning of a label the table does not list (and of a relation without one)

CHAIN_SHAPE, RELATION_SHAPE = "chain", "relation"
SCHEME_NAMES = ("auto", "chain", "relation", "gum")

DKPRO_LINK = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink"
DKPRO_CHAIN = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceChain"
REFERENCE_TYPE, REFERENCE_RELATION = "referenceType", "referenceRelation"
REFERENT = "webanno.custom.Referent"
COREF = "webanno.custom.Coref"

# features that hold a relation's label, when the scheme's own is not there
LABEL_FEATURES = ("type", "label", "relation", "value", "linkart", "linktype")

# mention attributes a relation-shaped scheme lifts to the entity (as the CoNLL-U reader does)
ENTITY_ATTRIBUTES = ("etype", "identity")


@dataclass(frozen=True)
class Scheme:
    """The layers and features of one coreference scheme (see the module's text)."""

    name: str
    shape: str
    chain_layer: str | None = None
    span_layer: str | None = None
    relation_layer: str | None = None
    relation_feature: str | None = None
    # label -> meaning; ANY_LABEL gives the meaning of every other label
    relation_types: tuple[tuple[str, str], ...] = ()
    # GUM: a source with two or more bridging relations is a split antecedent
    split_from_multiple_bridges: bool = False
    # layer feature -> mention attribute (features not listed keep their own name)
    features: tuple[tuple[str, str], ...] = ()
    # the mention attribute that keeps the label of a mention's coreference relation
    link_attribute: str = "link"
    # the relation layer's features (the label feature among them)
    relation_features: tuple[str, ...] = ("type",)

    def meaning(self, label: str | None) -> str:
        table = dict(self.relation_types)
        if label is not None and label in table:
            return table[label]
        return table.get(ANY_LABEL, COREFERENCE)

    def attribute(self, feature: str) -> str:
        """The mention attribute a layer feature is read into."""
        return dict(self.features).get(feature, feature)

    def feature(self, attribute: str) -> str:
        """The layer feature a mention attribute is written to."""
        for feature, name in self.features:
            if name == attribute:
                return feature
        return attribute

    def label(self, meaning: str) -> str:
        """The label a writer gives a relation of ``meaning`` that has none of its own."""
        if self.split_from_multiple_bridges and meaning == SPLIT:
            return "bridge"
        defaults = {COREFERENCE: "coref", BRIDGING: "bridge", SPLIT: "split"}
        for label, said in self.relation_types:
            if label != ANY_LABEL and said == meaning and label == defaults.get(meaning):
                return label
        for label, said in self.relation_types:
            if label != ANY_LABEL and said == meaning:
                return label
        return defaults.get(meaning, meaning)


DEFAULT_TYPES = (("bridge", BRIDGING), ("bridging", BRIDGING), ("bridge:def", BRIDGING),
                 ("bridge:other", BRIDGING), ("bridge:aggr", SPLIT), ("split", SPLIT),
                 (ANY_LABEL, COREFERENCE))
GUM_TYPES = (("coref", COREFERENCE), ("ana", COREFERENCE), ("appos", COREFERENCE),
             ("cata", COREFERENCE), ("pred", COREFERENCE), ("disc", COREFERENCE),
             ("bridge", BRIDGING), ("bridge:def", BRIDGING), ("bridge:other", BRIDGING),
             ("bridge:aggr", SPLIT), (ANY_LABEL, COREFERENCE))

PRESETS = {
    "chain": Scheme("chain", CHAIN_SHAPE, chain_layer=DKPRO_LINK),
    "relation": Scheme("relation", RELATION_SHAPE, span_layer=REFERENT, relation_layer=COREF,
                       relation_feature="type", relation_types=DEFAULT_TYPES,
                       features=(("entity", "etype"), ("identity", "identity"))),
    "gum": Scheme("gum", RELATION_SHAPE, span_layer=REFERENT, relation_layer=COREF,
                  relation_feature="type", relation_types=GUM_TYPES,
                  split_from_multiple_bridges=True,
                  features=(("entity", "etype"), ("infstat", "infstat"),
                            ("salience", "salience"), ("identity", "identity"))),
}
GUM_SPAN_FEATURES = ("entity", "infstat", "salience", "identity")

# ------------------------------------------------------------------------------ options
# The reader options of both annotation-tool formats (WebAnno TSV and UIMA CAS)
SCHEME_OPTION = Option(
    "coref_scheme", "WebAnno TSV / UIMA CAS: which layers hold coreference: a chain layer "
    "(chain, DKPro Core), a span layer with a relation layer (relation), GUM's scheme (gum), "
    "or auto (what the file declares).", kind="choice", choices=SCHEME_NAMES)
CHAIN_LAYER_OPTION = Option(
    "chain_layer", "WebAnno TSV / UIMA CAS: the chain layer (its link type) that holds "
    "coreference, e.g. de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink.",
    kind="text", metavar="TYPE")
SPAN_LAYER_OPTION = Option(
    "span_layer", "WebAnno TSV / UIMA CAS: the span layer whose spans are mentions "
    "(relation shape), e.g. webanno.custom.Referent.", kind="text", metavar="TYPE")
RELATION_LAYER_OPTION = Option(
    "relation_layer", "WebAnno TSV / UIMA CAS: the relation layer between mentions "
    "(relation shape), e.g. webanno.custom.Coref.", kind="text", metavar="TYPE")
RELATION_FEATURE_OPTION = Option(
    "relation_feature", "WebAnno TSV / UIMA CAS: the relation layer's feature that holds a "
    "relation's label (default: type, else its first feature).", kind="text",
    metavar="FEATURE")
RELATION_TYPES_OPTION = Option(
    "relation_types", "WebAnno TSV / UIMA CAS: what relation labels mean, as "
    "LABEL=MEANING,... with MEANING coreference, bridging, split or ignore ('*' for every "
    "other label), e.g. 'coref=coreference,bridge=bridging,*=ignore'.", kind="text",
    metavar="MAP")
READ_OPTIONS = (SCHEME_OPTION, CHAIN_LAYER_OPTION, SPAN_LAYER_OPTION, RELATION_LAYER_OPTION,
                RELATION_FEATURE_OPTION, RELATION_TYPES_OPTION)
WRITE_SCHEME_OPTION = Option(
    "coref_scheme", "WebAnno TSV / UIMA CAS output: write coreference as a chain layer "
    "(chain: DKPro Core, INCEpTION's built-in Coreference layer), a span + relation layer "
    "(relation, gum), or as the input was read (auto; chain for other inputs).",
    kind="choice", choices=SCHEME_NAMES)


class SchemeError(Exception):
    """The options or the file's layers do not give a usable scheme (the message says why)."""


@dataclass(frozen=True)
class Layer:
    """A layer a file declares: ``kind`` span, chain or relation; a relation's ``base`` is the
    span layer it connects."""

    name: str
    kind: str
    features: tuple[str, ...] = ()
    base: str | None = None


def parse_relation_types(text: str) -> tuple[tuple[str, str], ...]:
    """``LABEL=MEANING,...`` as (label, meaning) pairs."""
    pairs: list[tuple[str, str]] = []
    for piece in text.split(","):
        piece = piece.strip()
        if not piece:
            continue
        label, sep, meaning = piece.rpartition("=")
        meaning = meaning.strip().lower()
        if not sep or not label.strip() or meaning not in MEANINGS:
            raise SchemeError(f"--relation-types: {piece!r} is not LABEL=MEANING with MEANING "
                              f"one of {', '.join(MEANINGS)}")
        pairs.append((label.strip(), meaning))
    return tuple(pairs)


def choose(declared: Iterable[Layer], options: dict[str, Any]) -> Scheme | None:
    """The scheme for a file that declares ``declared``, given the reader ``options``; None
    when the file has no coreference layer (and no option asks for one)."""
    layers = {layer.name: layer for layer in declared}
    name = options.get("coref_scheme") or "auto"
    if name not in SCHEME_NAMES:
        raise SchemeError(f"unknown coreference scheme {name!r}; expected one of "
                          f"{', '.join(SCHEME_NAMES)}")
    wants_relation = any(options.get(k) for k in ("span_layer", "relation_layer"))
    if name == "auto":
        name = _detect(layers, options, wants_relation)
        if name is None:
            return None
    scheme = PRESETS[name]
    if options.get("relation_types"):
        given = parse_relation_types(options["relation_types"])
        kept = tuple((label, m) for label, m in scheme.relation_types
                     if label not in dict(given))
        scheme = replace(scheme, relation_types=given + kept)
    if scheme.shape == CHAIN_SHAPE:
        return replace(scheme, chain_layer=_chain_layer(layers, scheme, options))
    span, relation = _relation_layers(layers, scheme, options)
    feature = options.get("relation_feature") or scheme.relation_feature
    features = layers[relation].features
    if feature not in features:
        if options.get("relation_feature"):
            raise SchemeError(f"the relation layer {relation} has no feature {feature!r}; it has "
                              f"{', '.join(features) or 'none'}")
        named = [f for f in features if f.lower() in LABEL_FEATURES] or list(features)
        feature = named[0] if named else None
    # the features the file's layers have, in their order (a writer declares them again)
    span_features = tuple((f, scheme.attribute(f)) for f in layers[span].features)
    return replace(scheme, span_layer=span, relation_layer=relation, relation_feature=feature,
                   features=span_features, relation_features=features)


def _detect(layers: dict[str, Layer], options: dict[str, Any],
            wants_relation: bool) -> str | None:
    chains = [layer for layer in layers.values() if layer.kind == "chain"]
    if options.get("chain_layer") or (chains and not wants_relation):
        return "chain"
    over_spans = [layer for layer in layers.values() if layer.kind == "relation"
                  and layer.base in layers and layers[layer.base].kind == "span"]
    if not wants_relation and not over_spans:
        return None
    span = layers.get(options.get("span_layer") or REFERENT)
    if (span is not None and span.name == REFERENT and COREF in layers
            and set(GUM_SPAN_FEATURES) <= set(span.features)
            and not options.get("relation_layer")):
        return "gum"
    return "relation"


def _chain_layer(layers: dict[str, Layer], scheme: Scheme, options: dict[str, Any]) -> str:
    chains = [name for name, layer in layers.items() if layer.kind == "chain"]
    wanted = options.get("chain_layer")
    if wanted:
        if wanted not in chains:
            raise SchemeError(f"no chain layer {wanted}; the file's chain layers: "
                              f"{', '.join(chains) or 'none'}")
        return wanted
    if scheme.chain_layer in chains:
        return scheme.chain_layer
    if len(chains) == 1:
        return chains[0]
    if not chains:
        raise SchemeError("the file declares no chain layer; pass --coref-scheme relation "
                          "(with --span-layer and --relation-layer) for a span + relation layer")
    raise SchemeError(f"the file declares several chain layers ({', '.join(chains)}); pass "
                      "--chain-layer to say which holds coreference")


def _relation_layers(layers: dict[str, Layer], scheme: Scheme,
                     options: dict[str, Any]) -> tuple[str, str]:
    spans = [n for n, layer in layers.items() if layer.kind == "span"]
    relations = [layer for layer in layers.values() if layer.kind == "relation"]
    span = options.get("span_layer")
    relation = options.get("relation_layer")
    if relation:
        found = layers.get(relation)
        if found is None or found.kind != "relation":
            raise SchemeError(f"no relation layer {relation}; the file's relation layers: "
                              f"{', '.join(r.name for r in relations) or 'none'}")
        span = span or found.base
    if not span:
        if scheme.span_layer in spans:
            span = scheme.span_layer
        else:
            bases = sorted({r.base for r in relations if r.base in spans})
            if len(bases) != 1:
                raise SchemeError("cannot tell which span layer holds the mentions "
                                  f"(span layers: {', '.join(spans) or 'none'}); pass "
                                  "--span-layer")
            span = bases[0]
    if span not in spans:
        raise SchemeError(f"no span layer {span}; the file's span layers: "
                          f"{', '.join(spans) or 'none'}")
    if not relation:
        over = [r.name for r in relations if r.base == span]
        if scheme.relation_layer in over:
            relation = scheme.relation_layer
        elif len(over) == 1:
            relation = over[0]
        elif not over:
            raise SchemeError(f"no relation layer connects the spans of {span}; the mentions "
                              "would all be singletons. Pass --relation-layer")
        else:
            raise SchemeError(f"several relation layers connect {span} ({', '.join(over)}); "
                              "pass --relation-layer")
    assert relation is not None
    return span, relation


def writing_scheme(recorded: Scheme | None, name: str) -> Scheme:
    """The scheme a writer uses: ``name``'s preset, or (``auto``) the one the document was
    read with, else the chain preset."""
    if name not in SCHEME_NAMES:
        raise SchemeError(f"unknown coreference scheme {name!r}; expected one of "
                          f"{', '.join(SCHEME_NAMES)}")
    if name == "auto":
        return recorded if recorded is not None else PRESETS["chain"]
    if recorded is not None and recorded.name == name:
        return recorded
    return PRESETS[name]
