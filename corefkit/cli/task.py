"""``corefkit task TASK SUBMISSIONS/``: the click command over
:func:`corefkit.evaluation.task.run_task`; ``corefkit task bundle TASK --platform
codabench|codalab -o competition.zip`` writes a competition bundle
(:mod:`corefkit.evaluation.task.bundle`).

Importing this module imports click alone; the task runner is imported when the command
runs. The leaderboard goes to stdout (table, JSON or CSV); rejections and warnings to stderr
as well; ``-o DIR`` writes ``leaderboard.json``, ``leaderboard.csv``, ``leaderboard.txt`` and
``reports/NAME.json``. Exit code 0 when the leaderboard was made (rejected submissions are
part of it), 1 for a gold that does not pass validation or a path that cannot be read (the
task file, the gold, the submissions folder), 2 for a bad task file.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from corefkit.cli.help import OUTPUT, Command
from corefkit.cli.options import align_options, align_value, ignore_option, warn


class TaskCommand(Command):
    """``task TASK SUBMISSIONS`` runs the task; ``task bundle TASK ...`` (the first argument
    ``bundle``) writes its competition bundle instead. A task file named ``bundle`` is given
    as ``./bundle``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] == "bundle":
            # named under the group's context: "corefkit:task-bundle", not the run's arguments
            name = f"{ctx.info_name} bundle" if ctx.parent is not None else \
                f"{ctx.command_path} bundle"
            ctx.meta["corefkit:task-bundle"] = bundle.make_context(
                name, list(args[1:]), parent=ctx.parent)
            return []
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        sub = ctx.meta.pop("corefkit:task-bundle", None)
        if sub is not None:
            with sub:
                return bundle.invoke(sub)
        return super().invoke(ctx)


@click.command(name="bundle", cls=Command, examples=[
    "corefkit task bundle examples/crac/task.toml --platform codabench -o competition.zip",
    "corefkit task bundle examples/crac/task.toml --platform codalab -o codalab.zip",
], groups={OUTPUT: ["platform", "vendor", "docker_image"]})
@click.argument("task_file", metavar="TASK")
@click.option("--platform", required=True, type=click.Choice(["codabench", "codalab"]),
              help="The platform whose competition bundle to write.")
@click.option("--output", "-o", required=True, metavar="ZIP",
              help="The bundle to write (a new file).")
@click.option("--title", default=None, help="The competition's title (default: the task's name).")
@click.option("--vendor/--no-vendor", default=True, show_default=True,
              help="Put corefkit's own source into the scoring program (its dependencies "
                   "must be in the image either way).")
@click.option("--docker-image", default="python:3.11", show_default=True, metavar="IMAGE",
              help="The image the platform runs the scoring program in (with numpy, scipy, "
                   "... of requirements.txt).")
def bundle(task_file: str, platform: str, output: str, title: str | None, vendor: bool,
           docker_image: str) -> None:
    """Write the competition bundle of TASK for Codabench or CodaLab.

    TASK is a task file with datasets. The bundle holds competition.yaml, the reference data
    (task.json, gold/) and a scoring program that calls corefkit and writes scores.json
    (Codabench) or scores.txt (CodaLab), as the platform runs it: python evaluate.py INPUT
    OUTPUT, with the submission in INPUT/res and the reference data in INPUT/ref.
    """
    from corefkit.evaluation.task.bundle import write_bundle

    names = write_bundle(task_file, platform, output, title=title, vendor=vendor,
                         docker_image=docker_image)
    click.echo(f"corefkit: wrote {output} ({len(names)} files, {platform})", err=True)


@click.command(name="task", cls=TaskCommand, examples=[
    "corefkit task examples/task/task.toml examples/task/submissions",
    "corefkit task examples/task/task.toml examples/task/submissions -o board/ -f json",
    "corefkit task bundle examples/crac/task.toml --platform codabench -o competition.zip",
])
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
    """Evaluate the submissions in SUBMISSIONS/ as the shared task TASK defines.

    TASK is a TOML or JSON task file; the leaderboard is printed. Every submission is validated
    and paired strictly with the gold first (documents, sentences, words): a malformed or
    misaligned one is rejected with its first findings and never scored. The rest are scored
    with the task's setting, ranked by its metrics, and each is tested against the next one
    (paired test over documents). 'corefkit task bundle TASK --platform codabench|codalab
    -o ZIP' writes the task's competition bundle instead ('corefkit task bundle --help').
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
