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

import click  # noqa: E402

from corefkit import __version__
from corefkit.cli.analyze import analyze
from corefkit.cli.compare import compare
from corefkit.cli.convert import convert, normalize
from corefkit.cli.gap import gap_score
from corefkit.cli.listings import formats, list_passes
from corefkit.cli.report import report
from corefkit.cli.score import score
from corefkit.cli.stats import stats
from corefkit.cli.task import task
from corefkit.cli.validate import validate
from corefkit.errors import CorefkitError, UsageError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="corefkit")
def cli() -> None:
    """Convert, check, normalize and score coreference and anaphora corpora."""


for _command in (score, compare, convert, normalize, validate, stats, formats, list_passes,
                 gap_score, analyze, task, report):
    cli.add_command(_command)


# ---------------------------------------------------------------------------- entry point
def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (used by the console script and by tests)."""
    try:
        # a command that exits with a code (validate: 1 when it found errors) returns it here
        code = cli.main(args=argv, prog_name="corefkit", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("corefkit: aborted", err=True)
        return 130
    except click.ClickException as exc:  # bad usage, from click itself
        exc.show()
        return exc.exit_code
    except UsageError as exc:
        click.echo(f"corefkit: error: {exc}", err=True)
        return 2
    except CorefkitError as exc:
        click.echo(f"corefkit: error: {exc}", err=True)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        click.echo("corefkit: interrupted", err=True)
        return 130
    except Exception as exc:  # a bug: one line, with the traceback only on request
        if os.environ.get("COREFKIT_DEBUG"):
            raise
        click.echo(f"corefkit: internal error: {type(exc).__name__}: {exc} "
                   "(set COREFKIT_DEBUG=1 for the traceback and please report it)", err=True)
        return 3
    return code if isinstance(code, int) else 0


def console_main() -> None:
    sys.exit(main())
