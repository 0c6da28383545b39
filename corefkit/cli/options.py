"""What every command shares: format options from the format specs, ``--lenient`` and
``--ignore``, the warning display grouped by check id, and the progress display.

Reader and writer options are declared once, in each format's ``spec.py``
(:class:`corefkit.converters.base.Option`); :func:`format_options` turns them into click options
so that every command offers the same spelling and help, and :func:`given` collects what the user
typed. Where an option goes (which formats, which side) is decided by the registry and
``corefkit.convert``, never here.
"""

from __future__ import annotations

import fnmatch
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from corefkit.errors import Repair, location, one_line

F = TypeVar("F", bound=Callable[..., Any])

def _param(name: str, side: str) -> str:
    """The click parameter of a format option for one side (``both``, ``key``, ...)."""
    return f"format_{side}__{name}"


def format_options(*kinds: str, sides: tuple[str, ...] = ("both",)) -> Callable[[F], F]:
    """Add the reader (``"read"``) and/or writer (``"write"``) options of every format.

    Each option name is offered once (an LCC ``--layer`` serves reading and writing). With
    ``sides`` such as ``("both", "key", "response")`` every option is offered plain (both
    sides) and for one side (``--key-layer``).
    """
    from corefkit.converters.registry import all_options

    options: dict[str, Any] = {}
    for kind in kinds:
        for option in all_options(kind):
            options.setdefault(option.name, option)

    def decorate(function: F) -> F:
        for side in reversed(sides):
            for option in reversed(list(options.values())):
                plain = side == "both"
                flag = option.cli if plain else f"--{side}-{option.cli[2:]}"
                # the one-side copies (--key-layer) share the help row of the plain option
                # (corefkit.cli.help), instead of a row each
                kwargs: dict[str, Any] = {
                    "help": option.help if plain else f"{option.cli}, for the {side} only.",
                    "hidden": not plain}
                if option.kind == "flag":
                    kwargs["is_flag"] = True
                    kwargs["default"] = None
                elif option.kind == "choice":
                    kwargs["type"] = click.Choice(option.choices)
                else:
                    kwargs["metavar"] = option.metavar or option.kind.upper()
                function = click.option(flag, _param(option.name, side), **kwargs)(function)
        return function

    return decorate


def given(params: dict[str, Any], side: str = "both") -> dict[str, Any]:
    """The format options the user gave for ``side``, as reader/writer keyword arguments.

    Removes them from ``params`` (the command's keyword arguments), so that the rest can be
    passed on by name.
    """
    prefix = _param("", side)
    chosen: dict[str, Any] = {}
    for param in [p for p in params if p.startswith(prefix)]:
        value = params.pop(param)
        if value is not None and value is not False:
            chosen[param[len(prefix):]] = value
    return chosen


def ignore_option(function: F) -> F:
    """``--ignore CHECK-ID``: silence the warnings of a check (repeatable, comma lists, globs)."""
    return click.option(
        "--ignore", "ignore", multiple=True, metavar="CHECK-ID",
        help="Do not show warnings of this check (an id such as ua.missing-columns, or a "
             "pattern such as 'ua.*'; repeatable, or a comma list).")(function)


def jobs_option(function: F) -> F:
    """``--jobs N``: files (or documents) in N processes."""
    return click.option(
        "--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
        help="Work in N processes, one file at a time each (default: the machine's cores when "
             "there are several files and enough input to pay for them; 1: one process)."
    )(function)


def align_options(function: F) -> F:
    """``--align/--no-align``, ``--align-boundary`` and ``--align-merged``: responses
    re-expressed on the key's tokens before they are compared (:mod:`corefkit.alignment`)."""
    function = click.option(
        "--align-merged", "align_merged", default=None, type=click.Choice(["trim", "keep"]),
        help="--align: a mention edge on a response token that joins several key tokens "
             "(Immortality., I'm) leaves out punctuation, a preposition at the start and an "
             "auxiliary or particle at the end (trim, default) or keeps them all (keep).")(
        function)
    function = click.option(
        "--align-boundary", "align_boundary", default=None,
        type=click.Choice(["expand", "unaligned"]),
        help="--align: a response mention whose boundary falls inside a key token takes the "
             "whole token (expand, default) or is counted as spurious (unaligned).")(function)
    return click.option(
        "--align/--no-align", "align", default=None,
        help="Re-express each response document on its key document's tokens first: the same "
             "text tokenized otherwise is aligned by characters, other text (LLM output) by "
             "words; the alignment report says what it did. Default: on for responses that "
             "bring their own text (text2text), else off (a token mismatch is an error).")(
        function)


def align_value(params: dict[str, Any]) -> Any:
    """What ``--align``, ``--align-boundary`` and ``--align-merged`` ask of
    :func:`corefkit.score` (``align=``); removes them from ``params``."""
    align = params.pop("align", None)
    policy = {name: value for name, value in (("boundary", params.pop("align_boundary", None)),
                                              ("merged", params.pop("align_merged", None)))
              if value is not None}
    if align is False:
        return False
    if policy:
        return policy
    return True if align else None


def lenient_option(function: F) -> F:
    return click.option(
        "--lenient", is_flag=True,
        help="Repair malformed input (each repair reported) instead of refusing it.")(function)


def split_list(values: Iterable[str]) -> list[str]:
    """``("a,b", "c")`` -> ``["a", "b", "c"]``."""
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def ignored(check: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(check, pattern) for pattern in patterns)


def warn(records: Iterable[Repair], quiet: bool, ignore: Iterable[str] = ()) -> None:
    """Show warnings on stderr, one group per check id in order of first appearance.

    A check met once is shown whole; one met many times is shown once, followed by its count
    and the next few places, so that a file with two thousand repairs gives a few lines and
    the loss report after them stays in view. ``quiet`` also silences the note on what the
    folders given to the command skipped (:func:`corefkit.cli.main.main` prints it).
    """
    if quiet:
        from corefkit.converters.folders import forget

        forget()
        return
    patterns = split_list(ignore)
    groups: dict[str, list[Repair]] = {}
    for record in records:
        if not ignored(record.check, patterns):
            groups.setdefault(record.check, []).append(record)
    for check, group in groups.items():
        click.echo(f"corefkit: {one_line(str(group[0]))}", err=True)
        if len(group) > 1:
            places = ", ".join(_place(r) for r in group[1:1 + MORE_PLACES])
            more = " ..." if len(group) > 1 + MORE_PLACES else ""
            click.echo(one_line(f"corefkit:   and {len(group) - 1} more {check} (at {places}"
                                f"{more}); --ignore {check} hides them"), err=True)


MORE_PLACES = 3


def _place(record: Repair) -> str:
    where = location(record.file, record.line, record.column)
    if record.document and (not where or record.line is None):
        return f"{where} document {record.document}".strip()
    return where or "-"


@contextmanager
def progress(label: str, quiet: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar on stderr when it is a terminal (documents done, documents per second);
    nothing in pipes or with --quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"),
                  TextColumn("{task.completed} documents"),
                  TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None, rate="")
        started = time.perf_counter()

        def update(done: int) -> None:
            elapsed = time.perf_counter() - started
            rate = f"{done / elapsed:,.0f} documents/s" if elapsed > 0.5 else ""
            bar.update(task, completed=done, rate=rate)

        yield update
