"""Running a shared task: find the submissions, accept or reject each, score, rank, test.

A submission is scored only when it is acceptable as a whole:

1. *validation*: it is read as the expected format and must give no error at the task's
   level (:mod:`corefkit.validation`, the checks of ``corefkit validate``);
2. *pairing*: it must hold exactly the gold's documents, with the same sentences and words
   (:mod:`corefkit.validation.pair`): a missing, extra or renamed document or a changed token
   rejects it, naming the first difference, instead of scoring it as zeros;
3. *scoring*: :func:`corefkit.score` with the task's setting (``jobs``/``engine`` as for
   ``corefkit score``); a refusal of the scorer (CorefUD sentence checks) rejects it too.

The gold is read and checked once (its document summaries are kept for the pairing).
Accepted submissions are ranked by the ranking values (exact fractions; equal values share a
rank), and each is tested against the next one with the paired tests of
:mod:`corefkit.evaluation.significance` over the gold's documents.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from corefkit.checks.registry import Finding
from corefkit.errors import CorefkitError, Repair, UsageError, counted
from corefkit.evaluation.task.leaderboard import (
    AdjacentTest,
    Entry,
    Leaderboard,
    Rejection,
    check_output,
    write_outputs,
)
from corefkit.evaluation.task.spec import Task, load_task
from corefkit.model import Document
from corefkit.validation.engine import Run, iterate

# what the pair checks keep of one document (its words and sentences, not the document)
from corefkit.checks.plugins import FormatPlugin
from corefkit.validation.pair import DOCUMENTS as PAIR_DOCUMENTS
from corefkit.validation.pair import NO_PLUGIN
from corefkit.validation.pair import _Side as DocumentSummary
from corefkit.validation.pair import compare as pair_incidents

Progress = Callable[[str, str], None]   # (submission, stage)


@dataclass(frozen=True)
class Submission:
    name: str
    path: str


@dataclass(frozen=True)
class Prepared:
    """What every submission is checked and scored against."""

    gold_format: str
    submission_format: str | None       # None: detected per file
    metrics: tuple[str, ...]            # scored: the setting's, ranking metrics, components
    gold: tuple[DocumentSummary, ...]
    documents: int


def run_task(
    task: str | os.PathLike[str] | Mapping[str, Any] | Task,
    submissions: str | os.PathLike[str],
    *,
    output: str | os.PathLike[str] | None = None,
    jobs: int | None = None,
    engine: str = "auto",
    scheduler: str | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
    align: Any = None,
) -> Leaderboard:
    """Run the shared task ``task`` (a task file, a mapping of its content or a
    :class:`Task`) on the submissions in the folder ``submissions``; the leaderboard.

    ``output``: a folder for ``leaderboard.json``, ``.csv``, ``.txt`` and the submissions'
    score reports (:func:`corefkit.evaluation.task.leaderboard.write_outputs`). ``jobs``,
    ``engine``, ``scheduler``: where documents are scored, as for :func:`corefkit.score`. ``seed``
    replaces the task's. ``progress(name, stage)`` is called as each submission is checked
    and scored. Problems of the task file or the gold are errors; problems of a submission
    reject that submission only. ``align`` (as for :func:`corefkit.score`) replaces the task
    file's ``[scoring] align``.
    """
    from corefkit._version import __version__

    spec = load_task(task)
    if seed is not None:
        if seed < 0:
            raise UsageError("--seed must not be negative")
        spec = replace(spec, significance=replace(spec.significance, seed=seed))
    if align is not None:
        spec = replace(spec, scoring={**spec.scoring, "align": align})
    if output is not None:
        check_output(output)
    prepared = prepare(spec)
    found, warnings = discover(os.fspath(submissions), spec)
    entries, rejected, matrices = evaluate(
        found, spec, prepared, {"jobs": jobs, "engine": engine, "scheduler": scheduler},
        progress)
    rank(entries)
    test_neighbours(entries, matrices, spec)
    resolved = replace(spec, gold_format=prepared.gold_format, submissions=replace(
        spec.submissions, format=prepared.submission_format or "auto"))
    board = Leaderboard(resolved, os.fspath(submissions), prepared.documents, list(prepared.metrics),
                        entries, rejected, dict(entries[0].report.options) if entries else {},
                        warnings, __version__)
    if output is not None:
        write_outputs(board, output)
    return board


def evaluate(found: list[Submission], task: Task, prepared: Prepared, engine: dict[str, Any],
             progress: Progress | None = None
             ) -> tuple[list[Entry], list[Rejection], dict[str, dict[str, np.ndarray]]]:
    """Check and score each submission in turn: the entries (unranked), the rejections, and
    each entry's document rows of the primary metric (for the tests)."""
    entries: list[Entry] = []
    rejected: list[Rejection] = []
    matrices: dict[str, dict[str, np.ndarray]] = {}
    for submission in found:
        if progress is not None:
            progress(submission.name, "checking")
        checked = check_submission(submission, task, prepared)
        if isinstance(checked, Rejection):
            rejected.append(checked)
            continue
        if progress is not None:
            progress(submission.name, "scoring")
        scored = score_submission(submission, task, prepared, len(checked), engine)
        if isinstance(scored, Rejection):
            rejected.append(scored)
            continue
        if task.significance.test != "none":  # the primary metric must be resampleable
            matrices[scored.name] = document_rows(scored, task)
        entries.append(scored)
    return entries, rejected, matrices


# ============================================================================ the gold
def prepare(task: Task) -> Prepared:
    """Resolve the setting and read and check the gold (an error if it does not pass the
    task's validation level: every submission would be measured against it)."""
    from corefkit.converters.registry import expand_paths, get
    from corefkit.scoring.config import ScoreConfig
    from corefkit.scoring.metrics.registry import parse_metrics

    if not os.path.exists(task.gold):
        raise UsageError(f"the gold {task.gold} does not exist")
    gold_format = get(task.gold_format).name if task.gold_format else \
        expand_paths(task.gold)[0][1]
    wanted = task.submissions.format
    submission_format = None if wanted == "auto" else get(wanted or gold_format).name
    options = {k: v for k, v in task.scoring.items()
               if k not in ("passes", "read_options", "align")}
    config = ScoreConfig.build(detected_format=gold_format, **options)
    names = list(config.metrics) + [k.metric for k in task.ranking]
    if task.primary.metric == "conll" and task.significance.test != "none":
        names += ["muc", "bcub", "ceafe"]  # the test resamples conll from its components
    metrics = tuple(parse_metrics(list(dict.fromkeys(names)), config.semantics))
    # every level: scoring refuses a gold with an error of any level, and a problem of the
    # gold is the task's, not each submission's
    run = Run(format=gold_format, level=3, exclude=task.exclude,
              read_options=task.scoring.get("read_options"))
    summaries: list[DocumentSummary] = []

    def observe(doc: Document, plugin: FormatPlugin, file: str) -> None:
        summaries.append(DocumentSummary.of(doc, plugin, file))

    for _ in iterate(run, task.gold, observe):
        pass
    errors = [f for f in run.result if f.is_error]
    if errors:
        shown = "; ".join(f.to_text() for f in errors[:task.show])
        raise CorefkitError(f"the gold {task.gold} does not pass validation "
                            f"({counted(len(errors), 'error')}): {shown}; fix it, or leave the "
                            "checks out with [validation] exclude")
    return Prepared(gold_format, submission_format, metrics, tuple(summaries), len(summaries))


# ============================================================================ submissions
def discover(directory: str, task: Task) -> tuple[list[Submission], list[Repair]]:
    """The submissions in ``directory`` (sorted by name) and notes on what was left out."""
    if not os.path.isdir(directory):
        raise UsageError(f"{directory}: not a folder of submissions")
    layout = task.submissions
    kind = "folder" if layout.layout == "folder" else "file"
    found: list[tuple[str, str]] = []
    notes: list[Repair] = []
    for entry in sorted(os.listdir(directory)):
        full = os.path.join(directory, entry)
        if entry.startswith(".") or (layout.pattern and not fnmatch.fnmatch(entry, layout.pattern)):
            continue
        if os.path.isdir(full) != (kind == "folder"):
            notes.append(Repair("task.ignored", f"{entry} is not a {kind} (layout "
                                f"{layout.layout}): not a submission", file=full,
                                action="ignored"))
            continue
        found.append((entry, full))
    if not found:
        what = f" matching {layout.pattern!r}" if layout.pattern else ""
        raise UsageError(f"{directory}: no submission {kind}{what} in it (layout "
                         f"{layout.layout})")
    stems = [os.path.splitext(e)[0] if layout.layout == "file" else e for e, _ in found]
    names = [s if stems.count(s) == 1 else e for s, (e, _) in zip(stems, found)]
    return [Submission(n, p) for n, (_, p) in zip(names, found)], notes


def check_submission(submission: Submission, task: Task, prepared: Prepared
                     ) -> list[Finding] | Rejection:
    """Validation, then pairing with the gold: the warnings found, or the rejection."""
    run = Run(format=prepared.submission_format, level=task.level, exclude=task.exclude,
              read_options=task.scoring.get("read_options"))
    summaries: list[DocumentSummary] = []

    def observe(doc: Document, plugin: FormatPlugin, file: str) -> None:
        summaries.append(DocumentSummary.of(doc, plugin, file))

    try:
        for _ in iterate(run, submission.path, observe):
            pass
    except UsageError as exc:  # a folder without a file of the format
        return Rejection(submission.name, submission.path, "layout", str(exc), errors=1)
    if any(f.is_error for f in run.result):
        return _rejection(submission, "validation", list(run.result), task.show)
    pairing = Run(level=1)  # the pair checks always run: they are what makes scores comparable
    incidents = pair_incidents(list(prepared.gold), summaries)
    if task.scoring.get("align"):  # aligned to the gold's words: only the documents must pair
        incidents = [i for i in incidents if i.check == PAIR_DOCUMENTS]
    found = [pairing.make_finding(incident, NO_PLUGIN, None, incident.file or "")
             for incident in incidents]
    findings = [f for f in found if f is not None]
    if any(f.is_error for f in findings):
        return _rejection(submission, "pairing", findings, task.show)
    return [*run.result, *findings]


def _rejection(submission: Submission, stage: str, findings: list[Finding], show: int
               ) -> Rejection:
    errors = [f for f in findings if f.is_error]
    return Rejection(submission.name, submission.path, stage, errors[0].to_text(),
                     tuple(errors[:show]), len(errors), len(findings) - len(errors))


def score_submission(submission: Submission, task: Task, prepared: Prepared, warnings: int,
                     engine: dict[str, Any]) -> Entry | Rejection:
    """The scored entry (values of the ranking keys as exact fractions), or the rejection
    when the scorer refuses the submission."""
    from corefkit.scoring.api import score
    from corefkit.evaluation.significance import exact_score

    options = {k: v for k, v in task.scoring.items() if k != "metrics"}
    try:
        report = score(task.gold, submission.path, list(prepared.metrics),
                       key_format=prepared.gold_format,
                       response_format=prepared.submission_format, per_document=True,
                       **options, **engine)
    except UsageError:
        raise
    except CorefkitError as exc:
        return Rejection(submission.name, submission.path, "scoring", str(exc), errors=1)
    values: dict[str, Fraction] = {}
    for key in task.ranking:
        value = exact_score(report, key.metric, key.score)
        if value is None:
            raise UsageError(f"[ranking]: {key.label} has no value to rank by")
        values[key.label] = Fraction(value)
    return Entry(submission.name, submission.path, report, values, warnings)


# ============================================================================ ranking and tests
def rank(entries: list[Entry]) -> None:
    """Sort by the ranking values, best first (then by name); equal values share a rank
    (1, 2, 2, 4)."""
    entries.sort(key=lambda e: e.name)
    entries.sort(key=lambda e: tuple(e.values.values()), reverse=True)
    for n, entry in enumerate(entries):
        previous = entries[n - 1] if n else None
        if previous is not None and list(previous.values.values()) == list(entry.values.values()):
            entry.rank = previous.rank
        else:
            entry.rank = n + 1


def document_rows(entry: Entry, task: Task) -> dict[str, np.ndarray]:
    """The primary metric's count vector of every document (name -> row)."""
    from corefkit.evaluation.significance import statistic

    try:
        stat = statistic(task.primary.metric, entry.report)
    except UsageError as exc:
        raise UsageError(f"[significance]: cannot test {task.primary.label}: {exc}; rank by "
                         "another primary metric or set test = \"none\"") from None
    return {d.name: np.array(stat.row(d.metrics), dtype=np.float64)
            for d in entry.report.per_document or []}


def test_neighbours(entries: list[Entry], matrices: dict[str, dict[str, np.ndarray]],
                    task: Task) -> None:
    """Test each entry against the next one and number the groups of entries that no
    significant difference separates."""
    if task.significance.test == "none" or not entries:
        return
    entries[0].cluster = 1
    for a, b in itertools.pairwise(entries):
        a.versus_next = neighbour_test(a, b, matrices, task)
        b.cluster = (a.cluster or 1) + (1 if a.versus_next.significant else 0)


def neighbour_test(a: Entry, b: Entry, matrices: dict[str, dict[str, np.ndarray]],
                   task: Task) -> AdjacentTest:
    """The paired test over documents of ``a`` − ``b`` on the primary value:
    :func:`~corefkit.evaluation.significance.permutation_test` (p) and the paired bootstrap
    percentile interval, each with its own generator seeded by the task seed and the pair."""
    from corefkit.evaluation.significance import (
        bootstrap_weights,
        percentile_interval,
        permutation_test,
        statistic,
    )

    sig, key = task.significance, task.primary
    stat = statistic(key.metric, a.report)
    order = list(matrices[a.name])
    rows_a = np.stack([matrices[a.name][d] for d in order])
    rows_b = np.stack([matrices[b.name][d] for d in order])
    observed = float(a.values[key.label] - b.values[key.label])
    p_value, total, exact = None, None, None
    if sig.test == "permutation":
        rng = np.random.default_rng([sig.seed, 1, _stable(a.name), _stable(b.name)])
        p_value, total, exact = permutation_test(rows_a, rows_b, stat, key.score,
                                                 sig.permutations, rng)
    interval = None
    if sig.bootstrap > 0:
        rng = np.random.default_rng([sig.seed, 2])  # the same resamples for every pair
        diffs = []
        for weights in bootstrap_weights(len(order), sig.bootstrap, rng):
            ta, tb = weights @ rows_a, weights @ rows_b
            defined = stat.defined(ta) & stat.defined(tb)
            diffs.append(np.where(defined, stat.value(ta, key.score) - stat.value(tb, key.score),
                                  np.nan))
        interval = percentile_interval(np.concatenate(diffs), sig.alpha, observed)
    if sig.test == "permutation":
        significant = p_value is not None and p_value <= sig.alpha
    else:
        significant = interval is not None and (interval[0] > 0 or interval[1] < 0)
    return AdjacentTest(b.name, key.label, observed, p_value, total, exact,
                        interval[0] if interval else None, interval[1] if interval else None,
                        significant)


def _stable(text: str) -> int:
    """A number for a name that is the same in every run (``hash`` of a str is not)."""
    return zlib.crc32(text.encode("utf-8"))
