"""``corefkit stats FILE|DIR``: counts of a corpus and its mention types, as a table or JSON.

Heavy modules are imported inside the command so that ``corefkit --help`` stays fast.
"""

from __future__ import annotations

from typing import Any

import click

from corefkit.errors import FormatError, UsageError


@click.command()
@click.argument("source")
@click.option("--from", "input_format", default=None, help="Input format (default: detected).")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json"]), help="A table, or one JSON object.")
@click.option("--per-document", is_flag=True, help="Also list every document's counts.")
@click.option("--type-table", default="default", show_default=True, metavar="NAME|FILE",
              help="The mention-type rule table (corefkit/schemas/mention-types.json, or a file "
                   "of the same shape).")
@click.option("--layer", default=None, metavar="LAYER",
              help="LCC: the coreference layer (default manualCoreferences@1, the gold).")
@click.option("--mmax-map", default=None, metavar="NAME|FILE",
              help="MMAX2: the level map (generic, arrau, acl-anthology or a file).")
@click.option("--mmax-common-paths", default=None, metavar="FILE",
              help="MMAX2: the common_paths.xml for projects without one beside them.")
@click.option("--parse-gum-ids", is_flag=True,
              help="CoNLL-2012: split GUM-style ids (etype-GRP-identity) into attributes.")
@click.option("--lenient", is_flag=True,
              help="Repair malformed input (each repair reported) instead of refusing it.")
@click.option("--quiet", "-q", is_flag=True, help="No reader warnings.")
def stats(source: str, input_format: str | None, output_format: str, per_document: bool,
          type_table: str, layer: str | None, mmax_map: str | None,
          mmax_common_paths: str | None, parse_gum_ids: bool, lenient: bool,
          quiet: bool) -> None:
    """Count what SOURCE (file, directory, glob or '-') holds.

    Documents, sentences, tokens, mentions, entities, singletons, split antecedents, bridging,
    non-referring markables, discourse deixis, and mention types (name, nominal, pronoun,
    zero, other) with the source each type was decided by: an explicit attribute, the UD
    tree, the POS tags, named entities, or word forms.
    """
    from corefkit.analysis.mention_types import load_type_table
    from corefkit.analysis.stats import corpus_stats, render_table
    from corefkit.converters.registry import expand_paths, read

    read_options: dict[str, Any] = {"lenient": True} if lenient else {}
    if layer is not None:
        read_options["layer"] = layer
    if parse_gum_ids:
        read_options["parse_gum_ids"] = True
    formats = {fmt for _, fmt in expand_paths(source, input_format)} if source != "-" else set()
    if (mmax_map or mmax_common_paths) and "mmax2" not in formats:
        raise UsageError("--mmax-map and --mmax-common-paths apply to MMAX2 input only")
    if mmax_map is not None:
        read_options["level_map"] = mmax_map
    if mmax_common_paths is not None:
        read_options["common_paths"] = mmax_common_paths
    table = load_type_table(type_table)
    warnings: list[str] = []

    def documents() -> Any:
        for doc in read(source, format=input_format, **read_options):
            warnings.extend(str(r) for r in doc.repairs)
            yield doc

    total, each = corpus_stats(documents(), table, per_document=per_document)
    if total.counts["documents"] == 0:
        raise FormatError(f"{source} holds no document", check="file.no-documents")
    if not quiet:
        for line in warnings[:20]:
            click.echo(f"corefkit: {line}", err=True)
        if len(warnings) > 20:
            click.echo(f"corefkit: ... and {len(warnings) - 20} more warnings", err=True)
    if output_format == "json":
        import json

        out = {"source": source, "type_table": table.name, **total.to_json()}
        if per_document:
            out["per_document"] = [{"document": s.name, **s.to_json()} for s in each]
        click.echo(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        click.echo(render_table(total, each, table, source), nl=False)
