"""``corefkit score KEY RESPONSE``: the click command over :func:`corefkit.score`.

Importing this module imports click alone; the scorer is imported when the command runs.
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
    progress,
    warn,
)
from corefkit.errors import UsageError


def _fraction_option(text: str | None) -> str | None:
    if text is None:
        return None
    from fractions import Fraction

    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"expected a number such as 1, 0.5 or 1/2, got {text!r}") from None
    return text


@click.command(cls=Command, examples=[
    "corefkit score key.conll response.conll",
    "corefkit score key.conll response.conll -m muc,bcub,ceafe,conll -f json",
    "corefkit score keys/ responses/ --per-document -f csv",
    "corefkit score key.conllu response.conllu --profile crac",
])
@click.argument("key")
@click.argument("response")
@click.option("--metrics", "-m", default=None,
              help="Comma list of mentions, muc, bcub, ceafm, ceafe, blanc, lea, conll, mor and "
                   "zero (CorefUD scoring only), non_referring and bridging (UA scoring only), "
                   "and dominant (type-aware, Žitkus et al. 2023; not part of 'all'). Default: "
                   "what the profile's official scorer prints, else all.")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json", "csv", "reference"]),
              help="table, JSON object, CSV rows, or the reference scorer's TOTALS lines.")
@click.option("--per-document", is_flag=True, help="Also report every document's scores.")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Format of both files (default: detected).")
@click.option("--key-from", "key_format", default=None, metavar="FORMAT",
              help="Format of the key (default: --from "
              "or detected); needed for a key read from '-'.")
@click.option("--response-from", "response_format", default=None, metavar="FORMAT",
              help="Format of the response (default: --from or detected).")
@click.option("--remove-singletons/--keep-singletons", default=None,
              help="Drop one-mention entities from key and response before scoring (default: "
                   "keep, unless the profile says otherwise).")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass to both sides first (repeatable).")
@click.option("--match", "match", default=None,
              type=click.Choice(["exact", "partial", "head", "craft"]),
              help="Mention matching (CorefUD / UA scorers): identical nodes, response inside "
                   "the key and covering its head (CorefUD) or Min span (UA), the same head "
                   "(CorefUD), or CRAFT 2019 matching (UA). Default exact.")
@click.option("--zero-match", default=None, type=click.Choice(["linear", "dependent"]),
              help="CorefUD zero mentions: matched by position (linear, default) or by their "
                   "enhanced dependencies (dependent).")
@click.option("--keep-zeros/--remove-zeros", default=None,
              help="CorefUD: score zero mentions (default) or remove them first.")
@click.option("--profile", default=None, metavar="NAME",
              help="Named scoring settings from corefkit/schemas/profiles.json, e.g. crac (head "
                   "match, singletons removed, zeros matched by dependencies); explicit options "
                   "override it.")
@click.option("--semantics", default=None,
              type=click.Choice(["reference", "corefud", "ua", "coval", "scorch"]),
              help="Whose scoring rules to follow (default: from the key's format or the "
                   "profile: CoNLL-U corefud, CoNLL-UA ua, others the reference scorer); coval "
                   "reproduces coval's scorer.py, scorch scorch's command line.")
@click.option("--remove-split-antecedents", is_flag=True,
              help="UA: score split-antecedent entities as ordinary entities.")
@click.option("--only-split-antecedents", is_flag=True,
              help="UA: report the split-antecedent alignment scores instead of the overall ones.")
@click.option("--discourse-deixis", is_flag=True,
              help="UA: score the discourse-deixis layer instead of identity.")
@click.option("--lea-split-importance", default=None, metavar="BETA",
              help="UA: LEA importance of entities with split antecedents (default 1).")
@click.option("--explain", is_flag=True,
              help="UA, JSON output: the split-antecedent alignments per document and metric, "
                   "their deltas and each entity's contribution.")
@click.option("--dominant-k", default=None, metavar="K1,K2,K3,K4",
              help="dominant: coefficients of TP, WT, WL, WTL (default 1,0.75,0.5,0.25).")
@click.option("--dominant-scheme", default="lcc", show_default=True, metavar="NAME|FILE",
              help="dominant: the type-code scheme whose classes scheme coverage divides by.")
@click.option("--dominant-ranking", default="auto", show_default=True, metavar="NAME|FILE",
              help="dominant: ranking for dominant mentions the input does not mark "
                   "(see the dominant-mentions pass).")
@click.option("--by-type", "by_type", default=None, metavar="TYPES",
              help="Add B³ restricted to mentions of each type (Porada et al. 2024): comma list "
                   "of nested, generic, compound, copular, vp, appositive, rule names, or all.")
@click.option("--type-rules", default=None, metavar="FILE",
              help="JSON file of extra mention types for --by-type (rules over UPOS/DEPREL/FEATS).")
@click.option("--by", "strata", default=None, metavar="STRATA",
              help="Add scores per bucket of entity-size and/or distance (sentences and words "
                   "to the previous mention of the entity), adding up exactly to the totals.")
@click.option("--buckets", multiple=True, metavar="DIMENSION=SPEC",
              help="Buckets of a --by dimension, e.g. entity-size=1,2,3-5,6-10,11-20,21- or "
                   "sentences=0,1,2-3,4-10,11- or words=1-5,6-20,21-50,51-200,201-.")
@click.option("--lweights", default=None, metavar="NAM,NOM,PRO,SING",
              help="Weights of the linguistically aware metrics lmuc, lbcub, lceafm, lceafe "
                   "(Chen & Ng 2013; ask for them with -m): links with a name, with a nominal, "
                   "other links, singleton entities. Default W4 = 1,0.75,0.5,1.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None, metavar="N",
              help="Score in N processes (default: the machine's cores when the input is large "
                   "enough to pay for them; 1: one process).")
@click.option("--engine", type=click.Choice(["auto", "serial", "processes", "dask"]),
              default="auto", show_default=True,
              help="Where documents are scored: here, in processes, or on a Dask cluster "
                   "(corefkit[dask]). Every engine gives the same exact counts.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="--engine dask: the scheduler of a running cluster (default: a local one).")
@align_options
@format_options("read", sides=("both", "key", "response"))
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No warnings and no progress display.")
def score(key: str, response: str, metrics: str | None, output_format: str, per_document: bool,
          input_format: str | None, remove_singletons: bool, passes: tuple[str, ...],
          dominant_k: str | None, dominant_scheme: str, dominant_ranking: str,
          match: str | None, zero_match: str | None, keep_zeros: bool | None,
          profile: str | None, semantics: str | None, remove_split_antecedents: bool,
          only_split_antecedents: bool, discourse_deixis: bool,
          lea_split_importance: str | None, explain: bool, by_type: str | None,
          type_rules: str | None, strata: str | None, buckets: tuple[str, ...],
          lweights: str | None, key_format: str | None,
          response_format: str | None, jobs: int | None, engine: str, scheduler: str | None,
          lenient: bool, ignore: tuple[str, ...], quiet: bool,
          **format_params: Any) -> None:
    """Score RESPONSE against KEY (files, directories or '-').

    Documents are paired by name; key documents missing from the response count as
    entirely missed, response-only documents are ignored, both with a warning. KEY and
    RESPONSE may be the same LCC file or directory: --key-layer and --response-layer decide.
    CoNLL-U keys (and --match, --zero-match, --profile) are scored as the CorefUD scorer 1.2
    does, and then key and response must hold the same documents, sentences and words.
    CoNLL-UA keys, the UA profiles (codi-crac22-ar, -br, -dd, codi-crac21, crac18, craft19)
    and the split-antecedent options follow the Universal Anaphora scorer: split antecedents
    scored (Paun et al. 2023), non-referring markables and bridging reported.
    A response that brings its own text (another tokenization, an LLM's answer) is scored
    with --align; CRAC LLM-track answers: --response-from text2text --profile crac-llm.
    """
    from corefkit.scoring.api import score as run

    if output_format == "reference" and per_document:
        raise UsageError("-f reference prints the reference scorer's TOTALS blocks only (its "
                         "per-document listing, with entity dumps, is not reproduced); use "
                         "--per-document with -f table, json or csv")
    align = align_value(format_params)
    read_options = given(format_params)
    key_options = given(format_params, "key")
    response_options = given(format_params, "response")
    dominant = {"coefficients": dominant_k, "scheme": dominant_scheme, "ranking": dominant_ranking}
    metric_options = None
    if by_type is not None or type_rules is not None:
        from corefkit.scoring.metrics.by_type import by_type_request

        metrics, metric_options = by_type_request(metrics or "all", by_type, type_rules)
    if strata is not None or buckets:
        metrics, metric_options = _strata(metrics, profile, strata, buckets, metric_options)
    if lweights is not None:
        from corefkit.scoring.metrics.linguistic import lweights_request

        metric_options = lweights_request(metrics, lweights, metric_options)
    with progress("scoring", quiet) as shown:
        report = run(key, response, metrics, format=input_format, key_format=key_format,
                     response_format=response_format, metric_options=metric_options,
                     remove_singletons=remove_singletons, passes=passes,
                     per_document=per_document, read_options=read_options,
                     key_read_options=key_options, response_read_options=response_options,
                     dominant_options=dominant, progress=shown, match=match,
                     zero_match=zero_match, keep_zeros=keep_zeros, profile=profile,
                     semantics=semantics, remove_split_antecedents=remove_split_antecedents,
                     only_split_antecedents=only_split_antecedents,
                     discourse_deixis=discourse_deixis,
                     lea_split_importance=_fraction_option(lea_split_importance),
                     explain=explain, lenient=lenient, jobs=jobs, engine=engine,
                     scheduler=scheduler, align=align)
    warn(report.warnings, quiet, ignore)
    if output_format == "json":
        import json

        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif output_format == "csv":
        click.echo(report.to_csv(), nl=False)
    elif output_format == "reference":
        left_out = report.without_reference()
        if len(left_out) == len(report.metrics):
            raise UsageError(f"-f reference prints the reference scorer's TOTALS blocks, which "
                             f"exist for muc, bcub, ceafm, ceafe, blanc and lea only, not for "
                             f"{', '.join(left_out)} (conll is the mean F1 of muc, bcub and "
                             "ceafe: ask for those; every block starts with the mentions' line)")
        if left_out and not quiet:
            click.echo(f"corefkit: -f reference: {', '.join(left_out)} "
                       f"{'has' if len(left_out) == 1 else 'have'} no block in the reference "
                       "scorer's output; left out", err=True)
        click.echo(report.to_reference(), nl=False)
    else:
        click.echo(report.to_table(), nl=False)


def _strata(metrics: str | None, profile: str | None, strata: str | None,
            buckets: tuple[str, ...], metric_options: dict[str, Any] | None
            ) -> tuple[str, dict[str, Any]]:
    """``--by`` and ``--buckets``: the strata metric joins the metrics (the profile's when
    none are asked for)."""
    from corefkit.errors import UsageError
    from corefkit.scoring.metrics.strata import strata_request

    if metrics is None and profile is not None:
        from corefkit.scoring.profiles import profile_settings

        metrics = profile_settings(profile).get("metrics")
    spec = {}
    for item in buckets:
        name, eq, text = item.partition("=")
        if not eq:
            raise UsageError(f"--buckets {item!r}: expected DIMENSION=SPEC, e.g. "
                             "entity-size=1,2,3-5,6-")
        spec[name.strip().lower()] = text
    names, options = strata_request(metrics or "all", strata or "entity-size,distance", spec)
    return names, {**(metric_options or {}), **options}
