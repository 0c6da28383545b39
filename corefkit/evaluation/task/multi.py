"""Running a task with several datasets: every dataset's gold prepared, every submission
checked and scored on each (:mod:`~corefkit.evaluation.task.datasets`), ranked by the
macro-average and tested, in a :class:`~corefkit.evaluation.task.board.DatasetLeaderboard`.
``corefkit task`` (:func:`corefkit.evaluation.task.run_task`) comes here when the task file
names ``datasets``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from corefkit.errors import UsageError
from corefkit.evaluation.task.board import DatasetLeaderboard
from corefkit.evaluation.task.datasets import (
    DatasetEntry,
    compare_neighbours,
    evaluate_submission,
    prepare_dataset,
    rank_entries,
)
from corefkit.evaluation.task.leaderboard import Rejection
from corefkit.evaluation.task.spec import Task
from corefkit.evaluation.task.submission import discover, refusal

Progress = Callable[[str, str], None]


def run_datasets(task: Task, submissions: str, engine: dict[str, Any],
                 progress: Progress | None = None) -> DatasetLeaderboard:
    """The leaderboard of a multi-dataset task (:class:`DatasetLeaderboard`)."""
    from corefkit._version import __version__

    if task.submissions.layout != "folder":
        raise UsageError("[submissions] layout: a task with several datasets needs one folder "
                         "per submission (layout = \"folder\")")
    prepared = [prepare_dataset(d, task, engine) for d in task.datasets]
    found, notes = discover(submissions, task)
    entries: list[DatasetEntry] = []
    rejected: list[Rejection] = []
    for submission in found:
        if (refused := refusal(submission)) is not None:  # a link, a device: never read
            rejected.append(refused)
            continue
        if progress is not None:
            progress(submission.name, "checking")
        result = evaluate_submission(submission, task, prepared, engine)
        if isinstance(result, Rejection):
            rejected.append(result)
        else:
            entries.append(result)
    rank_entries(entries)
    compare_neighbours(entries, task)
    options = {}
    for entry in entries:
        scored = next((r.entry for r in entry.results.values() if r.entry is not None), None)
        if scored is not None:
            options = dict(scored.report.options)
            break
    return DatasetLeaderboard(task, submissions, [(p.dataset, p.prepared.documents)
                                                  for p in prepared],
                              list(prepared[0].prepared.metrics), entries, rejected, options,
                              notes, __version__)
