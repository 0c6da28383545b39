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

import itertools
import os
import zlib
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from corefkit.errors import UsageError
from corefkit.evaluation.task.leaderboard import (
    AdjacentTest,
    Entry,
    Leaderboard,
    Rejection,
    check_output,
    write_outputs,
)
from corefkit.evaluation.task.spec import Task, load_task

if TYPE_CHECKING:
    from corefkit.evaluation.task.board import DatasetLeaderboard
from corefkit.evaluation.task.submission import (  # noqa: F401  (runner.X stays importable)
    DocumentSummary,
    Prepared,
    Submission,
    check_submission,
    discover,
    document_rows,
    prepare,
    refusal,
    score_submission,
)

Progress = Callable[[str, str], None]   # (submission, stage)


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
) -> Leaderboard | DatasetLeaderboard:
    """Run the shared task ``task`` (a task file, a mapping of its content or a
    :class:`Task`) on the submissions in the folder ``submissions``; the leaderboard.

    A task with ``datasets`` gives a :class:`~corefkit.evaluation.task.board.DatasetLeaderboard`
    (:mod:`corefkit.evaluation.task.multi`): the macro-average over the datasets ranks.

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
    if spec.datasets:  # many datasets: one macro-averaged leaderboard
        from corefkit.evaluation.task.board import write_dataset_outputs
        from corefkit.evaluation.task.multi import run_datasets

        several = run_datasets(spec, os.fspath(submissions),
                               {"jobs": jobs, "engine": engine, "scheduler": scheduler},
                               progress)
        if output is not None:
            write_dataset_outputs(several, output)
        return several
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
        if (refused := refusal(submission)) is not None:  # a link, a device: never read
            rejected.append(refused)
            continue
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
