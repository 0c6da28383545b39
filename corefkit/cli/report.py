"""``corefkit report KEY [RESPONSE ...] -o report.html``: the click command over
:func:`corefkit.report`.

Importing this module imports click alone; the report is imported when the command runs.
"""

from __future__ import annotations

from typing import Any

import click

from corefkit.cli.help import Command
from corefkit.cli.options import (
    align_options,
    align_value,
    format_options,
    given,
    ignore_option,
    lenient_option,
    warn,
)
from corefkit.errors import counted


@click.command(cls=Command, examples=[
    "corefkit report key.conll response.conll -o report.html",
    "corefkit report key.conllu response.conllu other.conllu --label mild"
    " --label heavy -o gum.html",
    "corefkit report corpus/ -o corpus.html",
])
@click.argument("key")
@click.argument("responses", nargs=-1, metavar="[RESPONSE]...")
@click.option("--output", "-o", required=True, metavar="FILE",
              help="The HTML file to write (replaced atomically; '-': standard output).")
@click.option("--label", "labels", multiple=True, metavar="NAME",
              help="A system's name, one per RESPONSE in order (repeatable; default: the "
                   "response's file name).")
@click.option("--title", default=None, help="The page's title (default: from KEY).")
@click.option("--metrics", "-m", default=None, metavar="LIST",
              help="Metrics to report, comma-separated, as in 'score' (default: those of the "
                   "semantics).")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Format of every input (default: detected).")
@click.option("--key-from", "key_format", default=None, metavar="FORMAT",
              help="Format of KEY (default: --from or detected).")
@click.option("--response-from", "response_format", default=None, metavar="FORMAT",
              help="Format of the responses (default: --from or detected).")
@click.option("--remove-singletons/--keep-singletons", default=None,
              help="Score and analyse without one-mention entities (the browser shows them).")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass before scoring (repeatable).")
@click.option("--match", default=None, type=click.Choice(["exact", "partial", "head", "craft"]),
              help="Mention matching as in 'score' (CorefUD / UA semantics).")
@click.option("--zero-match", default=None, type=click.Choice(["linear", "dependent"]),
              help="CorefUD zero mentions: matched by position or by dependencies.")
@click.option("--keep-zeros/--remove-zeros", default=None,
              help="CorefUD: score zero mentions (default) or remove them first.")
@click.option("--profile", default=None, metavar="NAME",
              help="Named scoring settings (corefkit/schemas/profiles.json), as in 'score'.")
@click.option("--semantics", default=None, type=click.Choice(["reference", "corefud", "ua"]),
              help="Whose reading and alignment rules to follow (default: from KEY's format).")
@click.option("--type-table", default=None, metavar="NAME|FILE",
              help="Mention-type table (default: corefkit's).")
@click.option("--by", "strata", default=None, metavar="STRATA",
              help="Add the long-range section: scores per bucket of entity-size and/or "
                   "distance, as 'score --by' gives them.")
@click.option("--permutations", type=int, default=10_000, show_default=True,
              help="Permutations of each significance test.")
@click.option("--bootstrap", type=int, default=10_000, show_default=True,
              help="Bootstrap replicates of each interval.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the tests' random numbers.")
@click.option("--alpha", type=float, default=0.1, show_default=True,
              help="Significance level (and 1 - interval level).")
@click.option("--page-tokens", type=int, default=1500, show_default=True,
              help="Tokens of text the browser renders at once; longer documents are paged.")
@align_options
@format_options("read", sides=("both", "key", "response"))
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No warnings, no summary line.")
def report(key: str, responses: tuple[str, ...], output: str, labels: tuple[str, ...],
           title: str | None, metrics: str | None, input_format: str | None,
           key_format: str | None, response_format: str | None,
           remove_singletons: bool | None, passes: tuple[str, ...], match: str | None,
           zero_match: str | None, keep_zeros: bool | None, profile: str | None,
           semantics: str | None, type_table: str | None, strata: str | None,
           permutations: int, bootstrap: int,
           seed: int, alpha: float, page_tokens: int, lenient: bool, ignore: tuple[str, ...],
           quiet: bool, **format_params: Any) -> None:
    """Write a self-contained HTML report of RESPONSEs against KEY, or of KEY alone.

    With responses: every metric per system with paired significance tests, per-document
    score distributions, error categories (Kummerfeld & Klein 2013) with their costs, per
    mention type and entity size, every error, and a document browser showing key and
    system side by side. Without: the corpus's statistics and a chain browser. The file
    opens from disk in any browser and makes no network request.
    """
    from corefkit.report import report as run

    align = align_value(format_params)
    built = run(key, *responses, labels=list(labels), title=title, metrics=metrics,
                format=input_format, key_format=key_format, response_format=response_format,
                remove_singletons=remove_singletons, passes=passes, match=match,
                zero_match=zero_match, keep_zeros=keep_zeros, profile=profile,
                semantics=semantics, type_table=type_table, strata=strata,
                permutations=permutations,
                bootstrap=bootstrap, seed=seed, alpha=alpha, page_tokens=page_tokens,
                lenient=lenient, read_options=given(format_params),
                key_read_options=given(format_params, "key"),
                response_read_options=given(format_params, "response"), align=align)
    warn(built.warnings, quiet, ignore)
    built.write(output)
    if not quiet and output != "-":
        what = counted(len(built.systems), "system") if built.systems else "corpus statistics"
        click.echo(f"corefkit: wrote {output} ({counted(len(built.key), 'document')}, {what})",
                   err=True)
