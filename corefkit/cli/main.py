"""The ``corefkit`` command: the group of subcommands and the entry point.

Every subcommand is a thin click layer over the Python API, one module each in this package.
Every error a user can cause (:class:`~corefkit.errors.CorefkitError`) becomes one line on
stderr and a non-zero exit code (1 for bad input, 2 for bad usage); never a traceback. Heavy
modules are imported inside the commands, so that ``corefkit --help`` starts instantly.
"""

from __future__ import annotations

import os
import sys

# corefkit does no multithreaded linear algebra: without this, NumPy's OpenBLAS starts a thread
# per core when it is imported (about 0.08 s of CPU in every process, and --jobs workers that
# oversubscribe the cores); a value the user set is kept
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import importlib  # noqa: E402
from typing import Any  # noqa: E402

import click  # noqa: E402

from corefkit._version import __version__  # noqa: E402
from corefkit.cli.help import GroupedHelp  # noqa: E402
from corefkit.errors import CorefkitError, UsageError, one_line  # noqa: E402

# Every subcommand: its name and the module and function that define it. A command's module is
# imported when the command runs (or its help is shown), so a run pays only for its own imports.
COMMANDS = {
    "score": "corefkit.cli.score:score",
    "compare": "corefkit.cli.compare:compare",
    "convert": "corefkit.cli.convert:convert",
    "normalize": "corefkit.cli.convert:normalize",
    "validate": "corefkit.cli.validate:validate",
    "stats": "corefkit.cli.stats:stats",
    "formats": "corefkit.cli.listings:formats",
    "passes": "corefkit.cli.listings:list_passes",
    "gap-score": "corefkit.cli.gap:gap_score",
    "analyze": "corefkit.cli.analyze:analyze",
    "task": "corefkit.cli.task:task",
    "report": "corefkit.cli.report:report",
    "agree": "corefkit.cli.agree:agree",
}


# The one-line summary of every command, for ``corefkit --help`` without importing every
# command's module (and through the format options, every format spec); a test checks that
# each is its command's own first line.
SUMMARIES = {
    "score": "Score RESPONSE against KEY (files, directories or '-').",
    "compare": "Compare systems across datasets: scores, per-type B³, gaps and significance "
               "tests.",
    "convert": "Convert SOURCE (file, directory, glob or '-') to TARGET (file, directory or '-').",
    "normalize": "Apply normalization passes to SOURCE and write TARGET (by default in the same "
                 "format).",
    "validate": "Check coreference annotation in FILE|DIR... (any format corefkit reads).",
    "stats": "Count what SOURCE (file, directory, glob or '-') holds.",
    "formats": "List the formats corefkit reads and writes, with what each can hold.",
    "passes": "List the normalization passes and their options.",
    "gap-score": "Score SYSTEM against the GAP file GOLD, as the official GAP scorer does.",
    "analyze": "Categorise the errors of RESPONSE against KEY (Kummerfeld & Klein 2013).",
    "task": "Evaluate the submissions in SUBMISSIONS/ as the shared task TASK defines.",
    "report": "Write a self-contained HTML report of RESPONSEs against KEY, or of KEY alone.",
    "agree": "Agreement between annotators of the same documents, on mentions and on chains.",
}


def _shortened(text: str, width: int) -> str:
    """``text`` cut at a word boundary to fit ``width`` characters, with ``...``."""
    if len(text) <= width:
        return text
    return text[:width - 3].rsplit(" ", 1)[0].rstrip(",;:") + "..."


class LazyGroup(GroupedHelp, click.Group):
    """A click group whose subcommands are imported from :data:`COMMANDS` on first use."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._init_help(EXAMPLES, {})

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        GroupedHelp.format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`SUMMARIES`: no command module is imported."""
        width = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [(name, _shortened(SUMMARIES[name], width)) for name in COMMANDS]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, name = target.partition(":")
        command = getattr(importlib.import_module(module), name)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> object:
        # click turns Ctrl-C into Abort (after printing an empty line) and loses what the
        # command said it finished; carry it past click instead
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt as exc:
            raise _Interrupted(str(exc)) from None


class _Interrupted(Exception):
    """Ctrl-C, with what the command finished (its message), on its way to :func:`main`."""


EXAMPLES = [
    "corefkit score key.conll response.conll",
    "corefkit convert key.conll converted.conllu",
    "corefkit validate corpus/",
    "corefkit task examples/task/task.toml examples/task/submissions",
]


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="corefkit")
def cli() -> None:
    """Convert, check, normalize and score coreference and anaphora corpora.

    'corefkit COMMAND --help' shows a command's examples and options; the documentation
    (docs/ in the source, built with 'python3 dev.py docs') has a guide for each task.
    """


# ---------------------------------------------------------------------------- entry point
def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (used by the console script and by tests).

    What each folder given to the command held and skipped is reported on stderr after a
    successful run when something in it was skipped (``validate`` reports it in its own
    summary).
    """
    _recent_folders()  # what an earlier run in this process expanded is not this one's
    code = _run(argv)
    # an error stays one line: the notes go with a run that did its work
    for expansion in _recent_folders().values() if code == 0 else ():
        if expansion.skipped:
            lines = expansion.summary()
            click.echo(f"corefkit: {lines[0]}", err=True)
            for line in lines[1:]:
                click.echo(line, err=True)
    return code


def _recent_folders() -> dict[str, Any]:
    """The folders the run expanded (none when it read no folder: the folder module is then
    not even imported, as for ``--help``)."""
    folders = sys.modules.get("corefkit.converters.folders")
    return folders.take_recent() if folders is not None else {}


def _run(argv: list[str] | None) -> int:
    try:
        # a command that exits with a code (validate: 1 when it found errors) returns it here
        code = cli.main(args=argv, prog_name="corefkit", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("corefkit: aborted", err=True)
        return 130
    except click.ClickException as exc:  # bad usage, from click itself
        exc.show()
        return exc.exit_code
    except UsageError as exc:  # one line, whatever file name or value the message quotes
        click.echo(f"corefkit: error: {one_line(str(exc))}", err=True)
        return 2
    except CorefkitError as exc:
        click.echo(f"corefkit: error: {one_line(str(exc))}", err=True)
        return 1
    except BrokenPipeError:
        return 0
    except (KeyboardInterrupt, _Interrupted) as exc:  # a command may say what it finished
        note = str(exc)
        click.echo(f"corefkit: interrupted{': ' + note if note else ''}", err=True)
        return 130
    except Exception as exc:  # a bug: one line, with the traceback only on request
        if os.environ.get("COREFKIT_DEBUG"):
            raise
        click.echo(f"corefkit: internal error: {type(exc).__name__}: {one_line(str(exc))} "
                   "(set COREFKIT_DEBUG=1 for the traceback and please report it)", err=True)
        return 3
    return code if isinstance(code, int) else 0


def console_main() -> None:
    code = main()
    if threading_main():
        import signal

        # the run is over: a Ctrl-C now must not turn its exit code into "killed by SIGINT"
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
