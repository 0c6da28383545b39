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

from corefkit.converters.loss import MAX_EXAMPLES, ConversionReport, LossRecord
from corefkit.converters.tool_layers.extract import extract, scheme_for
from corefkit.converters.tool_layers.layout import layout
from corefkit.converters.tool_layers.losses import scheme_losses
from corefkit.converters.tool_layers.schemes import Scheme
from corefkit.converters.webanno_tsv.header import Header
from corefkit.converters.webanno_tsv.plan import plan_columns
from corefkit.converters.webanno_tsv.reader import STATE
from corefkit.converters.webanno_tsv.rows import RowWriter
from corefkit.errors import Repair, UsageError
from corefkit.model import Document


def loss_actions(**options: Any) -> dict[str, str]:
    """A TSV file has no empty nodes: mentions on them are left out."""
    return {"mentions_with_empty_nodes": "dropped"}


def partial_losses(doc: Document, *, coref_scheme: str = "auto", **_: Any) -> list[LossRecord]:
    """What the chosen scheme cannot hold of ``doc``, and the header lines and layers that
    only a document read from WebAnno TSV has."""
    scheme = scheme_for(doc, coref_scheme)
    header = _header_of(doc)
    records = scheme_losses(doc, scheme, plan_columns(doc, scheme, header).span_features)
    kept_meta = {key for key, value in (header.meta if header else []) if value is not None}
    lost_meta = [k for k in sorted(doc.meta) if k not in kept_meta]
    if lost_meta:
        records.append(LossRecord("metadata", len(lost_meta), "dropped",
                                  lost_meta[:MAX_EXAMPLES], doc.name))
    levels = doc.attrs.get("opaque_levels")
    if header is None and levels:
        found = [f"level {name} ({len(m)} markables)" for name, m in sorted(levels.items())]
        records.append(LossRecord("opaque_levels", len(found), "dropped", found[:MAX_EXAMPLES],
                                  doc.name))
    if header is None:  # a document read from WebAnno TSV is named after its file already
        records.append(LossRecord("names", 1, "changed (WebAnno TSV holds no document name: a "
                                  "reader names the document after its file)", [repr(doc.name)],
                                  doc.name))
    return records


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
