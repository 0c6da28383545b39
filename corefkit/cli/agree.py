"""``corefkit agree ANNOTATION...``: agreement between annotators, on mentions and chains.

The click command only; the work is :func:`corefkit.agree` (:mod:`corefkit.evaluation.agreement`
and, for ``--html``, :mod:`corefkit.report.agreement`). Importing this module imports click
alone, so that ``corefkit --help`` stays fast.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from corefkit.cli.help import INPUT, OUTPUT, Command
from corefkit.cli.options import (
    format_options,
    given,
    ignore_option,
    lenient_option,
    split_list,
    warn,
)


@click.command(cls=Command, examples=[
    "corefkit agree key.conll response.conll --label ann --label bob",
    "corefkit agree ../shared/corpora/lcc --layers manualCoreferences@1,manualCoreferences@2"
    " --label gold --label annotator -f csv",
    "corefkit agree key.conll response.conll --merge majority -o draft.conllu"
    " --html agreement.html",
], groups={INPUT: ["layers", "curation"],
           OUTPUT: ["listed", "html", "merge", "to_format", "mark", "fail_on_loss"]})
@click.argument("sources", nargs=-1, required=True, metavar="ANNOTATION...")
@click.option("--label", "labels", multiple=True, metavar="NAME",
              help="The annotator of each ANNOTATION, in order (repeatable; default: the file "
                   "names), or of each of --layers.")
@click.option("--layers", default=None, metavar="LAYER,LAYER[,...]",
              help="Compare the annotator layers of one corpus: the reader option --layer takes "
                   "each value in turn (LCC: manualCoreferences@1,manualCoreferences@2).")
@click.option("--curation", is_flag=True,
              help="INCEpTION project: also compare curation/<document>/CURATION_USER as the "
                   "annotator 'curation'.")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Format of every input (default: detected).")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="A pass applied to every annotation first (repeatable), e.g. "
                   "crop:start=S,end=E to compare one stretch of the text.")
@click.option("--match", default="exact", show_default=True,
              type=click.Choice(["exact", "partial", "head"]),
              help="Mention matching of the chain metrics (mention F1 is given under all three).")
@click.option("--remove-singletons", is_flag=True,
              help="Score chains without one-mention entities.")
@click.option("--type-table", default=None, metavar="NAME|FILE",
              help="Mention-type table of the per-type figures (default: corefkit's).")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json", "csv"]),
              help="A table, one JSON object, or CSV rows.")
@click.option("--list", "listed", default=20, show_default=True, type=click.IntRange(min=0),
              help="Disagreements listed in the table (all are in JSON and CSV).")
@click.option("--html", default=None, metavar="FILE",
              help="Also write the agreement view of the HTML report: annotators side by side, "
                   "disagreements highlighted and filterable.")
@click.option("--title", default=None, help="The HTML page's title.")
@click.option("--page-tokens", type=int, default=1500, show_default=True,
              help="Tokens of text the HTML browser renders at once.")
@click.option("--merge", default=None, type=click.Choice(["majority", "union", "intersection"]),
              help="Write an adjudication draft (with -o): mentions and chains by this rule, "
                   "every disagreement marked for the curator.")
@click.option("--output", "-o", default=None, metavar="PATH",
              help="Where the draft goes (a new file, or a new folder for several documents).")
@click.option("--to", "to_format", default=None, metavar="FORMAT",
              help="Format of the draft (default: the one -o names, else the input's).")
@click.option("--mark-attribute", "mark", default="disagreement", show_default=True,
              metavar="NAME", help="The mention attribute that marks a disagreement in the draft.")
@click.option("--fail-on-loss", is_flag=True,
              help="Refuse to write a draft its format cannot hold whole.")
@format_options("read", "write")
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No warnings and no progress display.")
def agree(sources: tuple[str, ...], labels: tuple[str, ...], layers: str | None,
          curation: bool, input_format: str | None, passes: tuple[str, ...], match: str,
          remove_singletons: bool, type_table: str | None, output_format: str, listed: int,
          html: str | None, title: str | None, page_tokens: int, merge: str | None,
          output: str | None, to_format: str | None, mark: str, fail_on_loss: bool,
          lenient: bool, ignore: tuple[str, ...], quiet: bool, **format_params: Any) -> None:
    """Agreement between annotators of the same documents, on mentions and on chains.

    ANNOTATION: one file or folder per annotator (any format), one corpus with --layers, or
    an INCEpTION project export (annotation/<document>/<user>.tsv). Per pair of annotators
    and averaged: mention F1 (exact, partial, head), MUC, B³, CEAFe, BLANC, LEA and CoNLL
    (each annotator as key in turn), Cohen's κ over tokens, Krippendorff's α with the MASI
    distance over chains; Fleiss' κ and α of all; per document, mention type and entity type;
    every disagreement with its file and line. --merge writes an adjudication draft with every
    disagreement marked for the curator.
    """
    from corefkit._api import agree as run
    from corefkit.converters.registry import formats_declaring

    chosen = given(format_params)
    read_options = {k: v for k, v in chosen.items() if formats_declaring(k, "read")}
    write_options = {k: v for k, v in chosen.items() if formats_declaring(k, "write")}
    if merge is None and write_options and not set(write_options) <= set(read_options):
        from corefkit.errors import UsageError

        extra = sorted(set(write_options) - set(read_options))
        raise UsageError(f"writer options ({', '.join(extra)}) apply to the draft: give "
                         "--merge RULE -o OUTPUT")

    def progress(pair: str) -> None:
        if not quiet and sys.stderr.isatty():
            click.echo(f"corefkit: comparing {pair}", err=True)

    report = run(list(sources), labels=labels,
                 layers=split_list([layers]) if layers else (), format=input_format,
                 read_options=read_options, lenient=lenient, passes=passes, curation=curation,
                 match=match, remove_singletons=remove_singletons, type_table=type_table,
                 merge=merge, output=output, output_format=to_format,
                 write_options=write_options if merge else None, mark=mark,
                 fail_on_loss=fail_on_loss, html=html, title=title, page_tokens=page_tokens,
                 progress=progress)
    warn(report.warnings, quiet, ignore)
    if html == "-":  # the page is the output
        return
    if output_format == "json":
        import json

        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif output_format == "csv":
        click.echo(report.to_csv(), nl=False)
    else:
        click.echo(report.to_table(listed), nl=False)
    if html is not None and not quiet:
        click.echo(f"corefkit: wrote {html}", err=True)
