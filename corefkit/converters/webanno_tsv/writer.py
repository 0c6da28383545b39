"""WebAnno TSV 3.x: the writer (one document per file), as INCEpTION writes the format.

The header declares the coreference layers of the scheme (``--coref-scheme``: as read, else
DKPro Core's chain layer, which INCEpTION imports as its built-in *Coreference* layer) and,
for a document read from WebAnno TSV, its other layers, whose cells are written back as they
were; rows end with a TAB; ``[N]`` ids are given where INCEpTION gives them (stacked and
multi-unit annotations) or, when the file read had them on every span (GUM), everywhere. A
document read from a TSV file and written unchanged gives the same bytes. What the scheme
cannot hold is in the loss report (:func:`partial_losses`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.loss import (
    MAX_EXAMPLES,
    ConversionReport,
    LossRecord,
    describe_mention,
    user_attributes,
)
from corefkit.converters.offsets import SUBTOKEN
from corefkit.converters.tool_layers.build import SCHEME
from corefkit.converters.tool_layers.extract import extract, writable
from corefkit.converters.tool_layers.schemes import (
    BRIDGING,
    CHAIN_SHAPE,
    ENTITY_ATTRIBUTES,
    SchemeError,
    Scheme,
    writing_scheme,
)
from corefkit.converters.webanno_tsv.header import Header
from corefkit.converters.webanno_tsv.layout import layout
from corefkit.converters.webanno_tsv.plan import plan_columns
from corefkit.converters.webanno_tsv.rows import RowWriter
from corefkit.converters.webanno_tsv.reader import STATE
from corefkit.errors import Repair, UsageError
from corefkit.model import Document


def scheme_for(doc: Document, coref_scheme: str = "auto") -> Scheme:
    recorded = doc.attrs.get(SCHEME)
    try:
        return writing_scheme(recorded if isinstance(recorded, Scheme) else None, coref_scheme)
    except SchemeError as exc:
        raise UsageError(str(exc)) from None


def loss_actions(**options: Any) -> dict[str, str]:
    """A TSV file has no empty nodes: mentions on them are left out."""
    return {"empty_nodes": "dropped"}


def partial_losses(doc: Document, *, coref_scheme: str = "auto", **_: Any) -> list[LossRecord]:
    """What the chosen scheme cannot hold of ``doc``."""
    scheme = scheme_for(doc, coref_scheme)
    records: list[LossRecord] = []

    def record(feature: str, found: list[str], action: str = "dropped") -> None:
        if found:
            records.append(LossRecord(feature, len(found), action, found[:MAX_EXAMPLES],
                                      doc.name))

    header = _header_of(doc)
    span_features = plan_columns(doc, scheme, header).span_features
    held = {scheme.attribute(f) for f in span_features}
    if scheme.shape != CHAIN_SHAPE:
        held.add(scheme.link_attribute)
        held |= {"orig_" + name for name in ENTITY_ATTRIBUTES}
    mentions = writable(doc)
    record("mention_attributes", [describe_mention(doc, m) for m in mentions
                                  if any(k not in held and k != SUBTOKEN
                                         for k in user_attributes(m.attrs))])
    entity_held = set(ENTITY_ATTRIBUTES) & held if scheme.shape != CHAIN_SHAPE else set()
    record("entity_attributes", [f"entity {e.id}" for e in doc.entities
                                 if any(k not in entity_held for k in user_attributes(e.attrs))])
    if scheme.shape == CHAIN_SHAPE:
        record("bridging", [describe_mention(doc, b.anaphor) for b in doc.bridging()],
               "dropped (the chain scheme has no bridging; write with --coref-scheme relation)")
        record("split_antecedents", [f"entity {s.member.id} in set {s.set_entity.id}"
                                     for s in doc.memberships()],
               "dropped (the chain scheme has no split antecedents)")
    elif scheme.split_from_multiple_bridges:
        record("split_antecedents", _single_member_sets(doc),
               "dropped (GUM's scheme writes a set as two or more bridge relations)")
        record("bridging", _several_anchors(doc, scheme),
               "dropped (GUM's scheme reads two or more bridge relations from one anaphor as a "
               "split antecedent)")
    kept_meta = {key for key, value in (header.meta if header else []) if value is not None}
    record("metadata", [k for k in sorted(doc.meta) if k not in kept_meta])
    if header is None and doc.attrs.get("opaque_levels"):
        record("opaque_levels", [f"level {name} ({len(m)} markables)"
                                 for name, m in sorted(doc.attrs["opaque_levels"].items())])
    return records


def _single_member_sets(doc: Document) -> list[str]:
    sets = doc.accommodated_sets()
    return [f"entity {members[0].id} in set {s.id}" for s, members in sets.items()
            if len(members) == 1]


def _several_anchors(doc: Document, scheme: Scheme) -> list[str]:
    count: dict[Any, int] = {}
    for bridge in doc.bridging():
        count[bridge.anaphor] = count.get(bridge.anaphor, 0) + 1
    return [describe_mention(doc, b.anaphor) for b in doc.bridging() if count[b.anaphor] >= 2]


def _header_of(doc: Document) -> Header | None:
    state = doc.attrs.get(STATE)
    header = state.get("header") if isinstance(state, dict) else None
    return header if isinstance(header, Header) else None


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 coref_scheme: str = "auto", discontinuous: str = "drop") -> None:
    """Write one document as WebAnno TSV 3.x (a second document is a usage error: the format
    holds one document per file)."""
    written = 0
    for doc in documents:
        if written:
            raise UsageError("WebAnno TSV holds one document per file and the input has more; "
                             "convert each document to its own file (e.g. from a folder of "
                             "single-document files)")
        scheme = scheme_for(doc, coref_scheme)
        out.write(render(doc, scheme, report))
        written += 1


def render(doc: Document, scheme: Scheme, report: ConversionReport) -> str:
    header = _header_of(doc)
    plan = plan_columns(doc, scheme, header)
    text = layout(doc)
    if text.changed_forms:
        report.repairs.append(Repair(
            "webanno-tsv.form-changed", f"{text.changed_forms} token forms held whitespace or "
            "nothing; written with '_' for it (a TSV row cannot hold them)", document=doc.name,
            action="replaced"))
    extracted = extract(doc, scheme, text.offsets, text.kept, plan.span_features)
    return RowWriter(doc, scheme, plan, text, extracted).render()
