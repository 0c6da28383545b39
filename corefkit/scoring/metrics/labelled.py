"""Metrics that need more than mention extents: a registry and the labels they read.

A metric such as the linguistically aware MUC (mention types) or type-restricted B³
(mention-type predicates) needs to know something about each mention. Such a metric is a
:class:`LabelledMetric`: a ``labeler(options)`` that returns, for one mention of a document,
what the metric needs (computed once, while the document is reduced), and a
``compute(aligned, table, options)`` that returns additive counts for one aligned document
(anything with ``+``; the report renders it through ``to_json`` / ``table_lines`` when it has
them). The labels reach ``compute`` as ``aligned.key_labels[i][name]`` and
``aligned.response_labels[i][name]`` for the mention at aligned index ``i``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from corefkit.model import Document, Mention
from corefkit.scoring.align import AlignedDocument, Labeler
from corefkit.scoring.partition import Contingency


@dataclass(frozen=True)
class LabelledMetric:
    name: str
    description: str
    labeler: Callable[[dict[str, Any]], Labeler]
    compute: Callable[[AlignedDocument, Contingency, dict[str, Any]], Any]
    options: dict[str, Any] = field(default_factory=dict)  # defaults
    # compute also receives the document's other counts (metric -> counts) as a 4th argument
    with_counts: bool = False


def register_labelled_metric(metric: LabelledMetric) -> LabelledMetric:
    """Register a metric that reads mention labels (in the one metric registry)."""
    from corefkit.scoring.metrics.registry import LABELLED, MetricSpec, register_metric

    register_metric(MetricSpec(metric.name, metric.description, LABELLED, labelled=metric))
    return metric


def combined_labeler(metrics: Iterable[LabelledMetric],
                     options: dict[str, dict[str, Any]]) -> Labeler | None:
    """One labeler for a run: a mention's label is ``{metric name: that metric's label}``."""
    parts = [(m.name, m.labeler({**m.options, **options.get(m.name, {})})) for m in metrics]
    if not parts:
        return None

    def label(doc: Document, mention: Mention) -> dict[str, Any]:
        return {name: labeler(doc, mention) for name, labeler in parts}

    return label
