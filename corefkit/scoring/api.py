"""``score``: read key and response, pair documents, align, run metrics, sum counts."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from corefkit.errors import UsageError
from corefkit.model import Document
from corefkit.scoring.align import DocumentMentions, align_exact, document_mentions
from corefkit.scoring.metrics import (
    CONLL_COMPONENTS,
    DEFAULT_METRICS,
    METRICS,
    BlancCounts,
    Counts,
    conll,
)
from corefkit.scoring.partition import contingency
from corefkit.scoring.report import DocumentResult, MetricResult, ScoreReport


def parse_metrics(metrics: str | Sequence[str] | None) -> list[str]:
    """Metric names in the canonical order; ``conll`` pulls in the metrics it averages."""
    if metrics is None:
        return list(DEFAULT_METRICS)
    names = [m.strip().lower() for m in (metrics.split(",") if isinstance(metrics, str) else metrics)]
    names = [n for n in names if n]
    if "all" in names:
        return list(DEFAULT_METRICS)
    known = set(METRICS) | {"conll"}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(
            f"unknown metric {', '.join(unknown)}; known metrics: {', '.join(DEFAULT_METRICS)}")
    if not names:
        raise UsageError("no metric given")
    return [m for m in DEFAULT_METRICS if m in names]


def _source_name(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (list, tuple)) and all(isinstance(s, (str, os.PathLike)) for s in source):
        return " ".join(os.fspath(s) for s in source)
    return "<documents>"


def _documents(source: Any, format: str | None, read_options: dict[str, Any]) -> Iterable[Document]:
    if isinstance(source, Document):
        return [source]
    if isinstance(source, (str, os.PathLike)) or (
        isinstance(source, (list, tuple)) and source
        and all(isinstance(s, (str, os.PathLike)) for s in source)
    ):
        from corefkit.converters.registry import read

        return read(source, format=format, **read_options)
    return source


def score(
    key: Any,
    response: Any,
    metrics: str | Sequence[str] | None = None,
    *,
    format: str | None = None,
    key_format: str | None = None,
    response_format: str | None = None,
    remove_singletons: bool = False,
    passes: Sequence[str] = (),
    per_document: bool = False,
    read_options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> ScoreReport:
    """Score ``response`` against ``key``.

    ``key`` and ``response`` are paths (file, directory, glob, ``-``), lists of paths, or
    iterables of :class:`Document`. Documents are paired by (id, part); key documents the
    response lacks count as entirely missed, response documents the key lacks are ignored,
    both with a warning. ``passes`` (names as for ``corefkit normalize``) are applied to both
    sides first; ``remove_singletons`` adds the ``remove-singletons`` pass.
    ``progress`` is called with the number of documents scored so far.
    """
    from corefkit import __version__
    from corefkit.passes import apply_passes

    names = parse_metrics(metrics)
    # mention identification is always counted: every report (and the reference scorer's
    # text) states it
    needed = [m for m in METRICS
              if m in names or m == "mentions" or (m in CONLL_COMPONENTS and "conll" in names)]
    all_passes = list(passes) + (["remove-singletons"] if remove_singletons else [])
    read_options = read_options or {}
    warnings: list[str] = []

    def reduced(source: Any, fmt: str | None) -> Iterable[DocumentMentions]:
        docs = _documents(source, fmt or format, read_options)
        for doc in apply_passes(docs, all_passes):
            warnings.extend(str(r) for r in doc.repairs if not r.check.startswith("pass."))
            yield document_mentions(doc)

    responses: dict[tuple[tuple[str, str], int], DocumentMentions] = {}
    seen: dict[tuple[str, str], int] = {}
    for dm in reduced(response, response_format):
        n = seen.get(dm.pair_key, 0)
        seen[dm.pair_key] = n + 1
        responses[(dm.pair_key, n)] = dm

    totals: dict[str, Counts | BlancCounts] = {}
    documents: list[DocumentResult] = []
    key_seen: dict[tuple[str, str], int] = {}
    response_repeats = key_repeats = count = 0
    for dm in reduced(key, key_format):
        n = key_seen.get(dm.pair_key, 0)
        key_seen[dm.pair_key] = n + 1
        answer = responses.pop((dm.pair_key, n), None)
        if answer is None:
            warnings.append(f"document {dm.name} is missing from the response; "
                            "all its mentions count as missed")
        aligned = align_exact(dm, answer)
        warnings.extend(aligned.notes)
        response_repeats += aligned.response_repeats
        key_repeats += aligned.key_repeats
        table = contingency(aligned.key, aligned.response)
        doc_counts = {m: METRICS[m](aligned.key, aligned.response, table) for m in needed}
        for m, c in doc_counts.items():
            totals[m] = totals[m] + c if m in totals else c
        if per_document:
            documents.append(DocumentResult(dm.name, _results(doc_counts, names)))
        count += 1
        if progress is not None:
            progress(count)
    for (pair_key, _), dm in responses.items():
        warnings.append(f"document {dm.name} is only in the response; ignored")
    if count == 0:
        raise UsageError(f"the key {_source_name(key)} holds no document")
    for m in needed:
        totals.setdefault(m, BlancCounts() if m == "blanc" else Counts())
    options = {
        "metrics": names,
        "match": "exact",
        "remove_singletons": remove_singletons,
        "passes": list(passes),
    }
    return ScoreReport(
        key=_source_name(key),
        response=_source_name(response),
        options=options,
        documents=count,
        metrics=_results(totals, names),
        identification=totals["mentions"],
        per_document=documents if per_document else None,
        warnings=warnings,
        repeated_response_mentions=response_repeats,
        repeated_key_mentions=key_repeats,
        version=__version__,
    )


def _results(counts: dict[str, Counts | BlancCounts], names: list[str]) -> dict[str, MetricResult]:
    results = {}
    for name in names:
        if name == "conll":
            results[name] = MetricResult(name, f1_only=conll(counts))
        else:
            results[name] = MetricResult(name, counts[name])
    return results
