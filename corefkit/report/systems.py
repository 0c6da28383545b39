"""The systems of a comparison report: each response scored (per document) and analysed against
the key, and every pair of systems tested as ``corefkit compare`` tests them.

Scoring and error analysis run on documents read once (:mod:`corefkit.report.build`), with
the same options, so that the report's numbers are those of ``corefkit score`` and
``corefkit analyze``. Significance: for every metric whose score is a function of summed
per-document counts (:func:`corefkit.evaluation.significance.statistic`), a paired permutation test
over documents and a paired bootstrap interval of the difference
(:func:`~corefkit.evaluation.significance.permutation_test`,
:func:`~corefkit.evaluation.significance.percentile_interval`), seeded so that a report is repeatable.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from corefkit.diagnosis.report import AnalysisError, AnalysisReport
from corefkit.errors import UsageError
from corefkit.evaluation.compare import PairTest
from corefkit.evaluation.significance import (
    Statistic,
    bootstrap_weights,
    percentile_interval,
    permutation_test,
    statistic,
)
from corefkit.model import Document
from corefkit.scoring.report import ScoreReport

# options that ``score`` and ``analyze`` both take, passed to both
SHARED_OPTIONS = ("semantics", "profile", "match", "zero_match", "keep_zeros",
                  "remove_singletons", "remove_split_antecedents", "discourse_deixis",
                  "passes", "lenient", "align")


@dataclass
class System:
    """One response: its documents, score report (per document) and error analysis."""

    label: str
    source: str
    documents: list[Document]
    score: ScoreReport
    analysis: AnalysisReport
    errors_by_document: dict[str, list[AnalysisError]] = field(default_factory=dict)

    def document_scores(self, metric: str) -> dict[str, float]:
        """Each document's F1 of ``metric`` (a derived metric: its value)."""
        out = {}
        for d in self.score.per_document or []:
            result = d.metrics.get(metric)
            if result is not None and not hasattr(result.counts, "to_json"):
                out[d.name] = float(result.f1)
        return out


def run_system(label: str, source: str, key: list[Document], documents: list[Document],
               metrics: Any, options: dict[str, Any], type_table: Any = None,
               anchors: str = "agreed", metric_options: dict[str, Any] | None = None) -> System:
    """Score and analyse one response (its documents) against the key (``metric_options``:
    as :func:`corefkit.score` takes them, e.g. the strata's)."""
    from corefkit.scoring.api import score
    from corefkit.diagnosis.engine import analyze

    shared = {k: v for k, v in options.items() if k in SHARED_OPTIONS and v is not None}
    report = score(key, documents, metrics, per_document=True, jobs=1,
                   metric_options=metric_options, **shared)
    analysis = analyze(key, documents, type_table=type_table, anchors=anchors, **shared)
    grouped: dict[str, list[AnalysisError]] = {}
    for e in analysis.errors:
        grouped.setdefault(e.document, []).append(e)
    return System(label, source, documents, report, analysis, grouped)


def testable(systems: Sequence[System]) -> list[str]:
    """The reported metrics a permutation test can resample (additive counts)."""
    if not systems:
        return []
    names = []
    for name in systems[0].score.metrics:
        try:
            statistic(name, systems[0].score)
        except UsageError:
            continue
        names.append(name)
    return names


def _stable(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def _matrix(system: System, stat: Statistic) -> np.ndarray:
    rows = [stat.row(d.metrics) for d in system.score.per_document or []]
    return np.array(rows, dtype=np.float64)


def significance(systems: Sequence[System], *, permutations: int = 10_000,
                 bootstrap: int = 10_000, seed: int = 0, alpha: float = 0.1
                 ) -> list[PairTest]:
    """A paired permutation test and bootstrap interval of S(a) − S(b) (F1) for every pair
    of systems and every testable metric, systems in their order."""
    if len(systems) < 2:
        return []
    documents = [d.name for d in systems[0].score.per_document or []]
    for other in systems[1:]:
        if [d.name for d in other.score.per_document or []] != documents:
            raise UsageError(f"{systems[0].label} and {other.label} were not scored on the "
                             "same documents of the key")
    weights = bootstrap_weights(len(documents), bootstrap,
                                np.random.default_rng([seed, 2])) if documents else []
    tests = []
    for name in testable(systems):
        stat = statistic(name, systems[0].score)
        matrices = [_matrix(s, stat) for s in systems]
        replicates = [np.concatenate([np.where(stat.defined(t), stat.value(t, "f1"), np.nan)
                                      for t in (w @ m for w in weights)])
                      for m in matrices]
        for i, a in enumerate(systems):
            for j in range(i + 1, len(systems)):
                b = systems[j]
                rng = np.random.default_rng([seed, 1, _stable(a.label), _stable(b.label),
                                             _stable(name)])
                p, total, exact = permutation_test(matrices[i], matrices[j], stat, "f1",
                                                   permutations, rng)
                score_a, score_b = float(a.score.metrics[name].f1), float(b.score.metrics[name].f1)
                interval = percentile_interval(replicates[i] - replicates[j], alpha,
                                               score_a - score_b) if len(weights) else None
                low, high = interval or (None, None)
                tests.append(PairTest("key", a.label, b.label, name, score_a, score_b, p, total,
                                      exact, low, high, alpha))
    return tests


def unique_labels(labels: Sequence[str | None], sources: Sequence[str]) -> list[str]:
    """The systems' labels: those given, else the response file names without their
    extension and without the dot-separated parts they all begin with
    (``ami.2022.mild.conllua``, ``ami.2022.heavy.conllua``: ``mild``, ``heavy``); a name
    met again gets ``-2``, ``-3``..."""
    import os

    stems = [os.path.splitext(os.path.basename(os.path.normpath(s)))[0] for s in sources]
    parts = [stem.split(".") for stem in stems]
    common = 0
    if len(parts) > 1:
        while all(len(p) > common + 1 and p[common] == parts[0][common] for p in parts):
            common += 1
    out: list[str] = []
    for n, source in enumerate(sources):
        given = labels[n] if n < len(labels) else None
        if given is not None and not given.strip():
            raise UsageError("a --label must not be empty")
        from_file = ".".join(parts[n][common:]) if source != "<documents>" else ""
        name = given or from_file or f"system{n + 1}"
        base, k = name, 2
        while name in out:
            name, k = f"{base}-{k}", k + 1
        out.append(name)
    return out
