"""``corefkit analyze KEY RESPONSE``: the click command over :func:`corefkit.analyze`.

Importing this module imports click alone; the analysis is imported when the command runs.
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


@click.command(cls=Command, examples=[
    "corefkit analyze key.conll response.conll",
    "corefkit analyze key.conll response.conll -f json --limit 3",
    "corefkit analyze key.conllu response.conllu --profile crac",
])
@click.argument("key")
@click.argument("response")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json", "csv"]),
              help="table, JSON object (corefkit/schemas/analysis-report.schema.json) or CSV "
                   "rows.")
@click.option("--limit", type=click.IntRange(min=0), default=None, metavar="N",
              help="List at most N errors of each category (default: 5 in the table, all in "
                   "JSON; the CSV lists none).")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Format of both files (default: detected).")
@click.option("--key-from", "key_format", default=None, metavar="FORMAT",
              help="Format of the key (default: --from or detected).")
@click.option("--response-from", "response_format", default=None, metavar="FORMAT",
              help="Format of the response (default: --from or detected).")
@click.option("--remove-singletons/--keep-singletons", default=None,
              help="Drop one-mention entities from key and response first (default: keep, "
                   "unless the profile says otherwise).")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass to both sides first (repeatable).")
@click.option("--match", "match", default=None,
              type=click.Choice(["exact", "partial", "head", "craft"]),
              help="Mention matching as in 'score' (CorefUD / UA semantics); a mention the "
                   "matching pairs is no span error. Default exact.")
@click.option("--zero-match", default=None, type=click.Choice(["linear", "dependent"]),
              help="CorefUD zero mentions: matched by position (linear) or by dependencies.")
@click.option("--keep-zeros/--remove-zeros", default=None,
              help="CorefUD: analyse zero mentions (default) or remove them first.")
@click.option("--profile", default=None, metavar="NAME",
              help="Named scoring settings (corefkit/schemas/profiles.json), as in 'score'.")
@click.option("--semantics", default=None, type=click.Choice(["reference", "corefud", "ua"]),
              help="Whose reading and alignment rules to follow (default: from the key's "
                   "format or the profile).")
@click.option("--remove-split-antecedents", is_flag=True,
              help="UA: treat split-antecedent entities as ordinary entities (no set "
                   "categories).")
@click.option("--discourse-deixis", is_flag=True,
              help="UA: analyse the discourse-deixis layer instead of identity.")
@click.option("--type-table", default=None, metavar="NAME|FILE",
              help="Mention-type table for the counts by type (default: corefkit's).")
@click.option("--anchors", default="agreed", show_default=True,
              type=click.Choice(["agreed", "analyser"]),
              help="Which part of an entity the others are split from and merged into: the one "
                   "with its earliest non-pronoun mention both sides have (agreed), or of all "
                   "its mentions (analyser: the Berkeley analyser's rule).")
@align_options
@format_options("read", sides=("both", "key", "response"))
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No warnings.")
def analyze(key: str, response: str, output_format: str, limit: int | None,
            input_format: str | None, key_format: str | None, response_format: str | None,
            remove_singletons: bool | None, passes: tuple[str, ...], match: str | None,
            zero_match: str | None, keep_zeros: bool | None, profile: str | None,
            semantics: str | None, remove_split_antecedents: bool, discourse_deixis: bool,
            type_table: str | None, anchors: str, lenient: bool, ignore: tuple[str, ...], quiet: bool,
            **format_params: Any) -> None:
    """Categorise the errors of RESPONSE against KEY (Kummerfeld & Klein 2013).

    The response is turned into the key by altering spans, splitting, removing, introducing
    and merging; each step is an error: span error, conflated entities, extra mention / zero
    / entity, divided entity, missing mention / zero / entity (and, in UA semantics, split
    antecedents with wrong members, extra or missing). Reports the counts overall, per
    document, mention type and entity size, and the CoNLL F1 after fixing each category
    alone and after fixing them one after another, up to a perfect score. Files are read and
    aligned as 'score' reads them.
    """
    from corefkit.diagnosis.engine import analyze as run

    align = align_value(format_params)
    report = run(key, response, format=input_format, key_format=key_format,
                 response_format=response_format, semantics=semantics, profile=profile,
                 match=match, zero_match=zero_match, keep_zeros=keep_zeros,
                 remove_singletons=remove_singletons,
                 remove_split_antecedents=remove_split_antecedents,
                 discourse_deixis=discourse_deixis, passes=passes,
                 read_options=given(format_params),
                 key_read_options=given(format_params, "key"),
                 response_read_options=given(format_params, "response"), lenient=lenient,
                 type_table=type_table, anchors=anchors, align=align)
    warn(report.warnings, quiet, ignore)
    if output_format == "json":
        import json

        click.echo(json.dumps(report.to_json(limit), indent=2, ensure_ascii=False))
    elif output_format == "csv":
        click.echo(report.to_csv(), nl=False)
    else:
        click.echo(report.to_table(limit if limit is not None else 5), nl=False)
