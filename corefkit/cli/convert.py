"""``corefkit convert`` and ``corefkit normalize``: click commands over :func:`corefkit.convert`.

Importing this module imports click alone; readers and writers are imported when a command
runs. Reader and writer options come from the format specs (:mod:`corefkit.cli.options`).
"""

from __future__ import annotations

from typing import Any

import click

from corefkit.cli.help import Command
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
    from corefkit.converters.loss import FEATURE_NAMES

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
        click.echo(f"  {count} {FEATURE_NAMES.get(feature, feature)} ({action}); first: "
                   + "; ".join(firsts[(feature, action)]), err=True)


# what --to defaults to, as _plan in corefkit.converters.convert decides it
CONVERT_TO = ("Output format (default: the format the target's name says, such as .conllu "
              "(a name several formats use, such as .tsv, says the input's format when it is "
              "one); for a folder target, the input format when every input file has the same "
              "one; otherwise --to is required, also for '-').")
NORMALIZE_TO = "Output format (default: the format the target's name says, else the input format)."


def _common(to_help: str) -> Any:
    """The options convert and normalize share (after their own)."""
    return lambda function: _with_common(function, to_help)


def _with_common(function: Any, to_help: str) -> Any:
    for decorate in reversed([
        click.option("--from", "input_format", default=None, metavar="FORMAT",
                     help="Input format (default: detected)."),
        click.option("--to", "output_format", default=None, metavar="FORMAT", help=to_help),
        format_options("read", "write"),
        jobs_option,
        click.option("--strict", is_flag=True,
                     help="Fail, writing nothing, if the target cannot hold everything."),
        click.option("--overwrite", is_flag=True,
                     help="Replace files that already exist in a target folder, and convert "
                          "a file in place (the target is the source). Without it such a run "
                          "is refused before anything is written (exit 2); a target file "
                          "named as such is always replaced, keeping its rights."),
        lenient_option,
        ignore_option,
        click.option("--quiet", "-q", is_flag=True, help="No warnings or loss report."),
    ]):
        function = decorate(function)
    return function


@click.command(cls=Command, examples=[
    "corefkit convert key.conll converted.conllu",
    "corefkit convert corpus/ out/ --to corefud",
    "corefkit convert key.conll project/ --to mmax2",
    "corefkit convert key.conll - --to jsonlines --jsonlines-shape wl-coref",
])
@click.argument("source")
@click.argument("target")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass before writing (repeatable).")
@click.option("--gold", default=None, metavar="FILE",
              help="Put each document on the words and sentences of its document in FILE "
                   "(paired by content when the source has no document names, else by name), "
                   "aligned as corefkit score --align does: an LLM's answer becomes the gold's "
                   "CoNLL-U with the answer's coreference, for the CorefUD scorer.")
@click.option("--gold-from", "gold_format", default=None,
              help="Format of --gold (default: detected).")
@click.option("--align-boundary", "align_boundary", default=None,
              type=click.Choice(["expand", "unaligned"]),
              help="--gold: a mention boundary inside a gold token takes the whole token "
                   "(expand, default) or drops the mention (unaligned).")
@click.option("--align-merged", "align_merged", default=None, type=click.Choice(["trim", "keep"]),
              help="--gold: what a mention edge on a token joining several gold tokens keeps "
                   "(as corefkit score --align-merged).")
@_common(CONVERT_TO)
def convert(source: str, target: str, passes: tuple[str, ...], gold: str | None,
            gold_format: str | None, align_boundary: str | None, align_merged: str | None,
            **params: Any) -> None:
    """Convert SOURCE (file, directory, glob or '-') to TARGET (file, directory or '-').

    A directory or glob source gives a directory target (created when missing) with one output
    file per input file; a file that already exists there is never replaced (unless
    --overwrite), and two inputs with the same output name are refused. What the target
    format cannot hold is reported with counts and first locations. With --gold, documents
    that bring their own text (an LLM's answer) are written on the gold's text (one output
    file).
    """
    transform = None
    notes: list[Any] = []
    if gold is not None:
        transform = _onto_gold(gold, gold_format, params, align_boundary, align_merged, notes)
    elif align_boundary is not None or align_merged is not None:
        from corefkit.errors import UsageError

        raise UsageError("--align-boundary and --align-merged go with --gold")
    _transform(source, target, list(passes), params, same_format=False, transform=transform)
    warn(notes, params["quiet"], params["ignore"])


def _onto_gold(gold: str, gold_format: str | None, params: dict[str, Any],
               boundary: str | None, merged: str | None, notes: list[Any]) -> Any:
    """The transform of ``convert --gold``: documents put on the gold's tokens."""
    from corefkit.alignment import AlignmentPolicy
    from corefkit.alignment.onto import onto_gold
    from corefkit.converters.registry import expand_paths, get, read

    policy = AlignmentPolicy(boundary=boundary or "expand", merged=merged or "trim")
    fmt = params["input_format"]

    def transform(documents: Any) -> Any:
        docs = list(documents)
        source_format = fmt or (docs[0].source_format if docs else None)
        by_content = bool(source_format and get(source_format).pairs_by_content)
        expand_paths(gold, gold_format)  # a missing or unknown gold fails before reading
        return onto_gold(docs, read(gold, format=gold_format), by_content=by_content,
                         policy=policy, notes=notes)

    return transform


@click.command(cls=Command, examples=[
    "corefkit normalize key.conll key-nosingletons.conll --pass remove-singletons",
    "corefkit normalize key.CONLLUA key-ref.CONLLUA"
    " --pass drop-non-referring:kinds=expletive+idiom",
])
@click.argument("source")
@click.argument("target")
@click.option("--pass", "passes", multiple=True, required=True, metavar="NAME[:opt=val,...]",
              help="A pass to apply, in the order given (repeatable).")
@_common(NORMALIZE_TO)
def normalize(source: str, target: str, passes: tuple[str, ...], **params: Any) -> None:
    """Apply normalization passes to SOURCE and write TARGET (by default in the same format).

    Run 'corefkit passes' for the list of passes and their options.
    """
    _transform(source, target, list(passes), params, same_format=True)


def _transform(source: str, target: str, passes: list[str], params: dict[str, Any],
               same_format: bool, transform: Any = None) -> None:
    from corefkit.converters.convert import convert as run

    options = given(params)
    quiet = params["quiet"]
    result = run(source, target, input_format=params["input_format"],
                 output_format=params["output_format"], passes=passes, options=options,
                 lenient=params["lenient"], fail_on_loss=params["strict"],
                 same_format=same_format, jobs=params["jobs"], overwrite=params["overwrite"],
                 transform=transform)
    warn(result.warnings, quiet, params["ignore"])
    report_losses(result.report, quiet)
    if not quiet:
        count = len(set(result.written))
        files = f" to {count} files" if count > 1 else ""
        click.echo(f"corefkit: wrote {counted(result.report.documents, 'document')}{files}",
                   err=True)
