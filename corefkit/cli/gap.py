"""``corefkit gap-score GOLD SYSTEM``: the click command over
:func:`corefkit.evaluation.gap.gap_score`.

Importing this module imports click alone; the scorer is imported when the command runs.
"""

from __future__ import annotations

from typing import Any

import click

from corefkit.cli.help import Command
from corefkit.cli.options import (
    format_options,
    given,
    ignore_option,
    lenient_option,
    warn,
)


@click.command("gap-score", cls=Command, examples=[
    "corefkit gap-score gap.tsv predictions.tsv",
    "corefkit gap-score gap.tsv system.conll -f json",
    "corefkit gap-score gap.tsv predictions.tsv -f official",
])
@click.argument("gold")
@click.argument("system")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json", "official"]),
              help="A table (percentages), one JSON object (fractions in [0, 1], counts, exact "
                   "values), or the official gap_scorer.py scorecard.")
@click.option("--from", "system_format", default=None, metavar="FORMAT",
              help="Format of SYSTEM when it is not a prediction TSV (default: detected).")
@click.option("--match", "match", default="contain", show_default=True,
              type=click.Choice(["contain", "exact", "name"]),
              help="For clusters: how a mention of the pronoun's entity must meet name A or B "
                   "(one span inside the other, the same span, or the name's text).")
@format_options("read")
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No warnings.")
def gap_score(gold: str, system: str, output_format: str, system_format: str | None,
              match: str, lenient: bool, ignore: tuple[str, ...], quiet: bool,
              **format_params: Any) -> None:
    """Score SYSTEM against the GAP file GOLD, as the official GAP scorer does.

    SYSTEM is a prediction TSV (ID, A-coref, B-coref, as gap_scorer.py reads it), a file in
    GAP's own layout, or a system's clusters over the GAP texts in any format corefkit reads
    (documents matched to examples by id). Prints precision, recall and F1 overall, for
    masculine and for feminine pronouns, and the bias F1(feminine) / F1(masculine).
    """
    from corefkit.evaluation.gap import gap_score as run

    report = run(gold, system, system_format=system_format, match=match, lenient=lenient,
                 read_options=given(format_params))
    warn(report.warnings, quiet, ignore)
    if output_format == "json":
        import json

        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif output_format == "official":
        click.echo(report.to_official() + "\n")
    else:
        click.echo(report.to_table())
