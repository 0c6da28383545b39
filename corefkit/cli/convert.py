"""``corefkit convert`` and ``corefkit normalize``: click commands over :func:`corefkit.convert`.

Importing this module imports click alone; readers and writers are imported when a command
runs. Reader and writer options come from the format specs (:mod:`corefkit.cli.options`).
"""

from __future__ import annotations

from typing import Any

import click

from corefkit.cli.options import (
    format_options,
    given,
    ignore_option,
    jobs_option,
    lenient_option,
    warn,
)
from corefkit.errors import counted


def report_losses(report: Any, quiet: bool) -> None:
    """The loss report: one line per feature and what happened to it, with first places."""
    if quiet or not report.loss_totals():
        return
    from corefkit.converters.loss import FEATURES

    click.echo("corefkit: not carried over:", err=True)
    # one line per feature and action: a feature can be partly written one way (heads as Min)
    # and partly dropped, and each count must go with what happened to it
    counts: dict[tuple[str, str], int] = {}
    firsts: dict[tuple[str, str], list[str]] = {}
    for record in report.losses:
        key = (record.feature, record.action)
        counts[key] = counts.get(key, 0) + record.count
        shown = firsts.setdefault(key, [])
        for example in record.examples:
            if len(shown) < 3:
                shown.append(f"{record.document}: {example}")
    for (feature, action), count in counts.items():
        click.echo(f"  {count} {FEATURES.get(feature, feature)} ({action}); first: "
                   + "; ".join(firsts[(feature, action)]), err=True)


def _common(function: Any) -> Any:
    """The options convert and normalize share (after their own)."""
    for decorate in reversed([
        click.option("--from", "input_format", default=None,
                     help="Input format (default: detected)."),
        click.option("--to", "output_format", default=None,
                     help="Output format (default: from the target's name, else the input "
                          "format)."),
        format_options("read", "write"),
        jobs_option,
        click.option("--strict", is_flag=True,
                     help="Fail, writing nothing, if the target cannot hold everything."),
        lenient_option,
        ignore_option,
        click.option("--quiet", "-q", is_flag=True, help="No warnings or loss report."),
    ]):
        function = decorate(function)
    return function


@click.command()
@click.argument("source")
@click.argument("target")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass before writing (repeatable).")
@_common
def convert(source: str, target: str, passes: tuple[str, ...], **params: Any) -> None:
    """Convert SOURCE (file, directory, glob or '-') to TARGET (file, directory or '-').

    A directory or glob source gives a directory target (created when missing) with one output
    file per input file. What the target format cannot hold is reported with counts and first
    locations.
    """
    _transform(source, target, list(passes), params, same_format=False)


@click.command()
@click.argument("source")
@click.argument("target")
@click.option("--pass", "passes", multiple=True, required=True, metavar="NAME[:opt=val,...]",
              help="A pass to apply, in the order given (repeatable).")
@_common
def normalize(source: str, target: str, passes: tuple[str, ...], **params: Any) -> None:
    """Apply normalization passes to SOURCE and write TARGET (by default in the same format).

    Run 'corefkit passes' for the list of passes and their options.
    """
    _transform(source, target, list(passes), params, same_format=True)


def _transform(source: str, target: str, passes: list[str], params: dict[str, Any],
               same_format: bool) -> None:
    from corefkit.converters.convert import convert as run

    options = given(params)
    quiet = params["quiet"]
    result = run(source, target, input_format=params["input_format"],
                 output_format=params["output_format"], passes=passes, options=options,
                 lenient=params["lenient"], fail_on_loss=params["strict"],
                 same_format=same_format, jobs=params["jobs"])
    warn(result.warnings, quiet, params["ignore"])
    report_losses(result.report, quiet)
    if not quiet:
        files = f" to {len(result.written)} files" if len(result.written) > 1 else ""
        click.echo(f"corefkit: wrote {counted(result.report.documents, 'document')}{files}",
                   err=True)
