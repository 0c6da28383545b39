"""UIMA CAS: the writer, a folder of XMI files with their ``TypeSystem.xml`` (through
dkpro-cassis), as INCEpTION exports a project's documents and imports them back.

Each document becomes ``<id>.xmi``: its text, a ``DocumentMetaData`` (title and id), DKPro Core
``Sentence`` and ``Token`` annotations and its coreference in the scheme's layers: DKPro Core
``CoreferenceChain``/``CoreferenceLink`` (chain scheme; INCEpTION's built-in *Coreference*
layer, links in chain order, ``referenceType``/``referenceRelation``), or a span type and a
relation type with ``Governor``/``Dependent`` (relation and gum schemes, WebAnno's custom
relation layers; a relation covers its dependent, as WebAnno makes them). ``TypeSystem.xml``
is cassis' DKPro Core type system with ``DocumentMetaData`` and the scheme's custom types.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable
from typing import Any

from corefkit.converters.loss import ConversionReport, LossRecord
from corefkit.converters.tool_layers.extract import extract, scheme_for
from corefkit.converters.tool_layers.layout import layout
from corefkit.converters.tool_layers.losses import scheme_losses
from corefkit.converters.tool_layers.records import Span
from corefkit.converters.tool_layers.schemes import (
    CHAIN_SHAPE,
    DKPRO_CHAIN,
    DKPRO_LINK,
    REFERENCE_RELATION,
    REFERENCE_TYPE,
    Scheme,
)
from corefkit.converters.uima_cas.layers import METADATA, SENTENCE, TOKEN, accessor
from corefkit.errors import Repair
from corefkit.interop import cassis as bridge
from corefkit.model import Document

STRING = "uima.cas.String"
DOCUMENT_ANNOTATION = "uima.tcas.DocumentAnnotation"
METADATA_FEATURES = ("documentTitle", "documentId", "documentUri", "documentBaseUri",
                     "collectionId")
SAFE_NAME_RE = re.compile(r"[^A-Za-z0-9._-]+")


def loss_actions(**options: Any) -> dict[str, str]:
    return {"mentions_with_empty_nodes": "dropped"}


def span_features(scheme: Scheme) -> tuple[str, ...]:
    if scheme.shape == CHAIN_SHAPE:
        return (REFERENCE_TYPE, REFERENCE_RELATION)
    return tuple(f for f, _ in scheme.features)


def partial_losses(doc: Document, *, coref_scheme: str = "auto", **_: Any) -> list[LossRecord]:
    scheme = scheme_for(doc, coref_scheme)
    return scheme_losses(doc, scheme, span_features(scheme))


def replaceable_output(directory: str) -> bool:
    """An output folder of this writer: XMI files and their TypeSystem.xml only."""
    names = os.listdir(directory)
    return "TypeSystem.xml" in names and all(
        n == "TypeSystem.xml" or n.endswith(".xmi") for n in names)


class _TypeSystem:
    """cassis' DKPro Core type system, with what the documents need added once."""

    def __init__(self) -> None:
        with warnings.catch_warnings():  # cassis' deprecation of its own resource loading
            warnings.simplefilter("ignore")
            self.ts = bridge.require().load_dkpro_core_typesystem()
        if not self.ts.contains_type(METADATA):
            meta = self.ts.create_type(METADATA, supertypeName=DOCUMENT_ANNOTATION)
            for name in METADATA_FEATURES:
                self.ts.create_feature(meta, name, STRING)
            self.ts.create_feature(meta, "isLastSegment", "uima.cas.Boolean")

    def chain_types(self, scheme: Scheme) -> tuple[Any, Any]:
        link_name = scheme.chain_layer or DKPRO_LINK
        chain_name = DKPRO_CHAIN if link_name == DKPRO_LINK else \
            link_name[:-4] + "Chain" if link_name.endswith("Link") else link_name + "Chain"
        if not self.ts.contains_type(link_name):
            link = self.ts.create_type(link_name)
            self.ts.create_feature(link, "next", link_name)
            for name in (REFERENCE_TYPE, REFERENCE_RELATION):
                self.ts.create_feature(link, name, STRING)
        if not self.ts.contains_type(chain_name):
            chain = self.ts.create_type(chain_name, supertypeName="uima.cas.AnnotationBase")
            self.ts.create_feature(chain, "first", link_name)
        return self.ts.get_type(chain_name), self.ts.get_type(link_name)

    def relation_types(self, scheme: Scheme) -> tuple[Any, Any]:
        span_name, relation_name = scheme.span_layer or "", scheme.relation_layer or ""
        if not self.ts.contains_type(span_name):
            span = self.ts.create_type(span_name)
            for feature in span_features(scheme):
                self.ts.create_feature(span, feature, STRING)
        if not self.ts.contains_type(relation_name):
            relation = self.ts.create_type(relation_name)
            self.ts.create_feature(relation, "Governor", span_name)
            self.ts.create_feature(relation, "Dependent", span_name)
            with warnings.catch_warnings():  # 'type' is renamed 'type_' for Python (accessor)
                warnings.simplefilter("ignore")
                for feature in scheme.relation_features or (scheme.relation_feature or "type",):
                    self.ts.create_feature(relation, feature, STRING)
        return self.ts.get_type(span_name), self.ts.get_type(relation_name)


def write_path(documents: Iterable[Document], directory: str, report: ConversionReport, *,
               coref_scheme: str = "auto", discontinuous: str = "drop") -> None:
    """Write every document as ``<id>.xmi`` in ``directory``, with ``TypeSystem.xml``."""
    types = _TypeSystem()
    used: set[str] = set()
    casses: list[tuple[str, Any]] = []
    for doc in documents:
        scheme = scheme_for(doc, coref_scheme)
        casses.append((_file_name(doc, used), _cas(doc, scheme, types, report)))
    for name, cas in casses:
        cas.to_xmi(os.path.join(directory, name))
    types.ts.to_xml(os.path.join(directory, "TypeSystem.xml"))


def _file_name(doc: Document, used: set[str]) -> str:
    base = SAFE_NAME_RE.sub("_", doc.name).strip("._") or "document"
    name, n = base, 1
    while name.lower() in used:
        n += 1
        name = f"{base}_{n}"
    used.add(name.lower())
    return name + ".xmi"


def _cas(doc: Document, scheme: Scheme, types: _TypeSystem, report: ConversionReport) -> Any:
    cassis = bridge.require()
    ts = types.ts
    text = layout(doc)
    if text.changed_forms:
        report.repairs.append(Repair(
            "cas.form-changed",
            f"{text.changed_forms} token forms held a TAB, a line break or nothing; "
            "written with '_' for it", document=doc.name, action="replaced"))
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = text.text
    meta = ts.get_type(METADATA)
    cas.add(meta(begin=0, end=len(text.text), documentTitle=doc.id, documentId=doc.id))
    token_type, sentence_type = ts.get_type(TOKEN), ts.get_type(SENTENCE)
    for begin, end in text.sentences:
        if begin >= 0:
            cas.add(sentence_type(begin=begin, end=end))
    for begin, end in sorted(text.offsets.values()):
        cas.add(token_type(begin=begin, end=end))
    extracted = extract(doc, scheme, text.offsets, text.kept, span_features(scheme))
    layers = extracted.layers
    if scheme.shape == CHAIN_SHAPE:
        chain_type, link_type = types.chain_types(scheme)
        for chain in layers.chains:
            links = [link_type(begin=s.begin, end=s.end, **_values(s, span_features(scheme)))
                     for s in chain.links]
            for before, after in zip(links, links[1:]):
                before.next = after
            for link in links:
                cas.add(link)
            if links:
                cas.add(chain_type(first=links[0]))
        return cas
    span_type, relation_type = types.relation_types(scheme)
    made: dict[int, Any] = {}
    for span in layers.spans:
        made[id(span)] = span_type(begin=span.begin, end=span.end,
                                   **_values(span, span_features(scheme)))
        cas.add(made[id(span)])
    names = scheme.relation_features or (scheme.relation_feature or "type",)
    for relation in layers.relations:
        values = {accessor(k): v for k, v in relation.features.items() if k in names}
        cas.add(relation_type(begin=relation.target.begin, end=relation.target.end,
                              Governor=made[id(relation.source)],
                              Dependent=made[id(relation.target)], **values))
    return cas


def _values(span: Span, names: tuple[str, ...]) -> dict[str, str]:
    return {accessor(k): v for k, v in span.features.items() if k in names}
