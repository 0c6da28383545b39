"""``corefkit task TASK SUBMISSIONS/``: the click command over
:func:`corefkit.evaluation.task.run_task`.

Importing this module imports click alone; the task runner is imported when the command
runs. The leaderboard goes to stdout (table, JSON or CSV); rejections and warnings to stderr
as well; ``-o DIR`` writes ``leaderboard.json``, ``leaderboard.csv``, ``leaderboard.txt`` and
``reports/NAME.json``. Exit code 0 when the leaderboard was made (rejected submissions are
part of it), 1 for a gold that does not pass validation, 2 for a bad task file.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from corefkit.cli.options import align_options, align_value, ignore_option, warn


@click.command(name="task")
@click.argument("task_file", metavar="TASK")
@click.argument("submissions", metavar="SUBMISSIONS")
@click.option("--output", "-o", default=None, metavar="DIR",
              help="Write leaderboard.json, leaderboard.csv, leaderboard.txt and "
                   "reports/NAME.json here (created; an earlier leaderboard folder is replaced).")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json", "csv"]), help="What stdout shows.")
@click.option("--seed", default=None, type=click.IntRange(min=0),
              help="Random seed of the tests (default: the task file's, else 0).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Score each submission in N processes (as for corefkit score).")
@click.option("--engine", type=click.Choice(["auto", "serial", "processes", "dask"]),
              default="auto", show_default=True, help="Where documents are scored.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="--engine dask: the scheduler of a running cluster.")
@align_options
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No rejections, warnings or progress on stderr.")
def task(task_file: str, submissions: str, output: str | None, output_format: str,
         seed: int | None, jobs: int | None, engine: str, scheduler: str | None,
         ignore: tuple[str, ...], quiet: bool, **align_params: Any) -> None:
    """Evaluate the submissions in SUBMISSIONS/ as the shared task TASK (a TOML or JSON
    task file) prescribes, and print the leaderboard.

    Every submission is validated and paired strictly with the gold first (documents,
    sentences, words): a malformed or misaligned one is rejected with its first findings and
    never scored. The rest are scored with the task's setting, ranked by its metrics, and
    each is tested against the next one (paired test over documents). Example:

    \b
      corefkit task examples/task/task.toml examples/task/submissions -o /tmp/board
    """
    from corefkit.evaluation.task import run_task

    def progress(name: str, stage: str) -> None:
        if not quiet and sys.stderr.isatty():
            click.echo(f"corefkit: {stage} {name}", err=True)

    board = run_task(task_file, submissions, output=output, jobs=jobs, engine=engine,
                     scheduler=scheduler, seed=seed, progress=progress,
                     align=align_value(align_params))
    warn(board.warnings, quiet, ignore)
    if not quiet:
        for rejected in board.rejected:
            click.echo(f"corefkit: rejected {rejected.name} ({rejected.stage}, "
                       f"{rejected.errors} error{'' if rejected.errors == 1 else 's'}):", err=True)
            for finding in rejected.findings or ():
                click.echo(f"corefkit:   {finding.to_text()}", err=True)
            if not rejected.findings:
                click.echo(f"corefkit:   {rejected.reason}", err=True)
    if output_format == "json":
        import json

        click.echo(json.dumps(board.to_json(), indent=2, ensure_ascii=False))
    elif output_format == "csv":
        click.echo(board.to_csv(), nl=False)
    else:
        click.echo(board.to_table(), nl=False)
