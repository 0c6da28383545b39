"""``corefkit stats FILE|DIR``: counts of a corpus and its mention types, as a table or JSON.

Heavy modules are imported inside the command so that ``corefkit --help`` stays fast.
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
from corefkit.errors import FormatError


@click.command(cls=Command, groups={"Output options": ["type_table"]}, examples=[
    "corefkit stats key.conll",
    "corefkit stats corpus/ --per-document -f json",
    "corefkit stats key.conllu --type-table my-types.json",
])
@click.argument("source")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Input format (default: detected).")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json"]), help="A table, or one JSON object.")
@click.option("--per-document", is_flag=True, help="Also list every document's counts.")
@click.option("--type-table", default="default", show_default=True, metavar="NAME|FILE",
              help="The mention-type rule table (corefkit/schemas/mention-types.json, or a file "
                   "of the same shape).")
@format_options("read")
@jobs_option
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No reader warnings.")
def stats(source: str, input_format: str | None, output_format: str, per_document: bool,
          type_table: str, jobs: int | None, lenient: bool, ignore: tuple[str, ...],
          quiet: bool,
          **format_params: Any) -> None:
    """Count what SOURCE (file, directory, glob or '-') holds.

    Documents, sentences, tokens, mentions, entities, singletons, split antecedents, bridging,
    non-referring markables, discourse deixis, and mention types (name, nominal, pronoun,
    zero, other) with the source each type was decided by: an explicit attribute, the UD
    tree, the POS tags, named entities, or word forms.
    """
    from corefkit.analysis.mention_types import load_type_table
    from corefkit.analysis.stats import render_table, source_stats

    table = load_type_table(type_table)
    total, each, warnings = source_stats(source, format=input_format, table=type_table,
                                         per_document=per_document, lenient=lenient, jobs=jobs,
                                         **given(format_params))
    if total.counts["documents"] == 0:
        raise FormatError(f"{source} holds no document", check="file.no-documents")
    warn(warnings, quiet, ignore)
    if output_format == "json":
        import json

        out = {"source": source, "type_table": table.name, **total.to_json()}
        if per_document:
            out["per_document"] = [{"document": s.name, **s.to_json()} for s in each]
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        click.echo(render_table(total, each, table, source), nl=False)
