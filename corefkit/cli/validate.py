"""``corefkit validate``: the click command over :mod:`corefkit.validation`.

Only click is imported at module load, so that ``corefkit --help`` stays instant; the
validator itself is imported when the command runs. Findings are printed as they are found:
text lines ``FILE:LINE: [ERROR|WARNING] check-id: message (document, sentence)`` or one JSON
object per line, then a summary line and the count of each check met (on stderr for JSON, so
that stdout stays one object per finding). Exit code 0 without errors, 1 with errors, 2 for
usage errors.
"""

from __future__ import annotations

from typing import Any

import click

from corefkit.cli.help import Command
from corefkit.cli.options import format_options, given, jobs_option, split_list
from corefkit.errors import UsageError


@click.command(name="validate", cls=Command, examples=[
    "corefkit validate corpus/",
    "corefkit validate key.conll response.conll --pair",
    "corefkit validate key.conll --level 2 -f json --max-err 50",
    "corefkit validate --list-checks",
])
@click.argument("paths", nargs=-1, metavar="FILE|DIR...")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Format of the input (default: detected per file).")
@click.option("--level", type=click.IntRange(1, 3), default=3, show_default=True,
              help="1: the file can be read; 2: and follows its format's conventions; "
                   "3: and the annotation is sound (model checks).")
@click.option("--format", "-f", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True,
              help="One text line per finding, or one JSON object per line.")
@click.option("--max-err", "max_errors", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after N errors.")
@click.option("--exclude", "--ignore", "exclude", multiple=True, metavar="ID",
              help="Leave out a check: an id or a pattern such as 'conll.*' (repeatable, or a "
                   "comma list).")
@click.option("--include-only", multiple=True, metavar="ID",
              help="Run only these checks (repeatable, or a comma list); rejections that stop "
                   "the reading of a file are always reported.")
@click.option("--pair", is_flag=True,
              help="Two paths, KEY and RESPONSE: validate both and check that they hold the same "
                   "documents, sentences and words.")
@click.option("--list-checks", is_flag=True, help="List every check with its level and meaning.")
@format_options("read")
@jobs_option
@click.pass_context
def validate(ctx: click.Context, paths: tuple[str, ...], input_format: str | None, level: int,
             output_format: str, max_errors: int | None, exclude: tuple[str, ...],
             include_only: tuple[str, ...], pair: bool, list_checks: bool, jobs: int | None,
             **format_params: Any) -> None:
    """Check coreference annotation in FILE|DIR... (any format corefkit reads).

    Reader repairs and rejections, format conventions and model checks are reported with
    stable check ids; 'corefkit validate KEY RESPONSE --pair' also checks that a key and a
    response align. Exit code 0 when there is no error, 1 when there are errors.
    """
    if list_checks:
        _list_checks()
        return
    if not paths:
        raise UsageError("give the files or directories to validate (or --list-checks)")
    if pair and len(paths) != 2:
        raise UsageError(f"--pair takes two paths, KEY and RESPONSE; got {len(paths)}")
    import json

    from corefkit.converters.folders import forget
    from corefkit.converters.registry import expand, get, refuse_undeclared
    from corefkit.validation.engine import Run, iterate
    from corefkit.validation.pair import iterate_pair

    read_options = given(format_params)
    if read_options:
        refuse_undeclared(read_options, [get(fmt) for path in paths
                                         for _, fmt in expand(path, input_format).files],
                          "read")
    run = Run(format=input_format, level=level, include_only=split_list(include_only),
              exclude=split_list(exclude), max_errors=max_errors, read_options=read_options,
              jobs=jobs)
    findings = iterate_pair(run, paths[0], paths[1]) if pair else iterate(run, list(paths))
    to_stderr = output_format == "json"
    for finding in findings:
        if to_stderr:
            click.echo(json.dumps(finding.to_json(), ensure_ascii=False))
        else:
            click.echo(finding.to_text())
    click.echo(f"corefkit validate: {run.result.summary()}", err=to_stderr)
    for line in run.result.per_check():
        click.echo(f"  {line}", err=to_stderr)
    for folder in run.result.folders:
        for line in folder.summary():
            click.echo(f"  {line}", err=to_stderr)
        forget(folder.folder)
    ctx.exit(1 if run.result.errors else 0)


def _list_checks() -> None:
    from corefkit.validation.catalog import all_checks

    for check in all_checks():
        scope = check.format or "all formats"
        click.echo(f"{check.id}\tlevel {check.level}\t{check.severity}\t{scope}\t"
                   f"{check.explanation}")
