"""Shared-task evaluation: many submissions, one gold, one official setting, one leaderboard.

::

    from corefkit.evaluation.task import run_task
    board = run_task("task.toml", "submissions/", output="leaderboard/")
    for entry in board.entries:
        print(entry.rank, entry.name, entry.values["conll"], entry.versus_next)
    for rejected in board.rejected:
        print(rejected.name, rejected.stage, rejected.reason)

* :mod:`corefkit.evaluation.task.spec`: the task file (TOML or JSON,
  ``schemas/task.schema.json``) and :class:`Task`;
* :mod:`corefkit.evaluation.task.runner`: running a task — ranking and the paired tests
  between neighbours in the ranking; :mod:`corefkit.evaluation.task.submission`: finding the
  submissions, validation and strict pairing of each, scoring;
* :mod:`corefkit.evaluation.task.datasets`, :mod:`~corefkit.evaluation.task.multi` and
  :mod:`~corefkit.evaluation.task.board`: tasks with several datasets (``datasets`` in the
  task file), ranked by the macro-average as CRAC ranks, with variants, long-range tables and
  tests per dataset and of the macro-average;
* :mod:`corefkit.evaluation.task.bundle`: Codabench and CodaLab competition bundles whose
  scoring program calls corefkit (``corefkit task bundle``);
* :mod:`corefkit.evaluation.task.leaderboard`: the :class:`Leaderboard` and its table, CSV and
  JSON (``schemas/leaderboard.schema.json``), the output folder and the hook for more
  renderers (:func:`register_output`: the HTML report reads ``leaderboard.json`` and
  ``reports/``).

``corefkit task TASK SUBMISSIONS/`` (:mod:`corefkit.cli.task`) is the command.
"""

from __future__ import annotations

from corefkit.evaluation.task.leaderboard import (
    AdjacentTest,
    Entry,
    Leaderboard,
    Rejection,
    register_output,
    write_outputs,
)
from corefkit.evaluation.task.runner import Submission, discover, run_task
from corefkit.evaluation.task.spec import RankKey, Task, load_task

__all__ = ["AdjacentTest", "Entry", "Leaderboard", "RankKey", "Rejection", "Submission", "Task",
           "discover", "load_task", "register_output", "run_task", "write_outputs"]
