"""The ``corefkit`` command: a thin layer over the Python API.

Every subcommand turns a :class:`~corefkit.errors.CorefkitError` into one line on stderr and
a non-zero exit code (1 for bad input, 2 for bad usage); it never shows a traceback for
input a user can get wrong. Heavy modules are imported inside the commands, so that
``corefkit --help`` starts instantly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from corefkit import __version__
from corefkit.errors import CorefkitError, UsageError

MAX_WARNINGS = 20


def _warn(lines: list[str], quiet: bool) -> None:
    if quiet or not lines:
        return
    for line in lines[:MAX_WARNINGS]:
        click.echo(f"corefkit: {line}", err=True)
    if len(lines) > MAX_WARNINGS:
        click.echo(f"corefkit: ... and {len(lines) - MAX_WARNINGS} more warnings", err=True)


@contextmanager
def _progress(label: str, quiet: bool) -> Iterator[Any]:
    """A progress counter on stderr when it is a terminal; nothing in pipes or with --quiet."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"),
                  TextColumn("{task.completed} documents"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=None)
        yield lambda n: bar.update(task, completed=n)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="corefkit")
def cli() -> None:
    """Convert, check, normalize and score coreference and anaphora corpora."""


# ---------------------------------------------------------------------------- score
def _fraction_option(text: str | None) -> str | None:
    if text is None:
        return None
    from fractions import Fraction

    try:
        Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"expected a number such as 1, 0.5 or 1/2, got {text!r}") from None
    return text


@cli.command()
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
@click.option("--from", "input_format", default=None,
              help="Format of both files (default: detected).")
@click.option("--remove-singletons/--keep-singletons", default=None,
              help="Drop one-mention entities from key and response before scoring (default: "
                   "keep, unless the profile says otherwise).")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass to both sides first (repeatable).")
@click.option("--parse-gum-ids", is_flag=True,
              help="CoNLL-2012: split GUM-style ids (etype-GRP-identity) into attributes.")
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
@click.option("--semantics", default=None, type=click.Choice(["reference", "corefud", "ua"]),
              help="Whose scoring rules to follow (default: from the key's format or the "
                   "profile: CoNLL-U corefud, CoNLL-UA ua, others the reference scorer).")
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
@click.option("--key-layer", default=None, metavar="LAYER",
              help="LCC: the key's coreference layer (default manualCoreferences@1, the gold).")
@click.option("--response-layer", default=None, metavar="LAYER",
              help="LCC: the response's layer, e.g. manualCoreferences@2 (the annotator's).")
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
@click.option("--lweights", default=None, metavar="NAM,NOM,PRO,SING",
              help="Weights of the linguistically aware metrics lmuc, lbcub, lceafm, lceafe "
                   "(Chen & Ng 2013; ask for them with -m): links with a name, with a nominal, "
                   "other links, singleton entities. Default W4 = 1,0.75,0.5,1.")
@click.option("--lenient", is_flag=True,
              help="Repair malformed input (each repair reported) instead of refusing it.")
@click.option("--quiet", "-q", is_flag=True, help="No warnings and no progress display.")
def score(key: str, response: str, metrics: str | None, output_format: str, per_document: bool,
          input_format: str | None, remove_singletons: bool, passes: tuple[str, ...],
          parse_gum_ids: bool, key_layer: str | None, response_layer: str | None,
          dominant_k: str | None, dominant_scheme: str, dominant_ranking: str,
          match: str | None, zero_match: str | None, keep_zeros: bool | None,
          profile: str | None, semantics: str | None, remove_split_antecedents: bool,
          only_split_antecedents: bool, discourse_deixis: bool,
          lea_split_importance: str | None, explain: bool, by_type: str | None,
          type_rules: str | None, lweights: str | None, lenient: bool, quiet: bool) -> None:
    """Score RESPONSE against KEY (files, directories or '-').

    Documents are paired by name; key documents missing from the response count as
    entirely missed, response-only documents are ignored, both with a warning. KEY and
    RESPONSE may be the same LCC file or directory: --key-layer and --response-layer decide.
    CoNLL-U keys (and --match, --zero-match, --profile) are scored as the CorefUD scorer 1.2
    does, and then key and response must hold the same documents, sentences and words.
    CoNLL-UA keys, the UA profiles (codi-crac22-ar, -br, -dd, codi-crac21, crac18, craft19)
    and the split-antecedent options follow the Universal Anaphora scorer: split antecedents
    scored (Paun et al. 2023), non-referring markables and bridging reported.
    """
    from corefkit.scoring.api import score as run

    read_options: dict[str, Any] = {"parse_gum_ids": True} if parse_gum_ids else {}
    if lenient:
        read_options["lenient"] = True
    key_options = {"layer": key_layer} if key_layer else {}
    response_options = {"layer": response_layer} if response_layer else {}
    dominant = {"coefficients": dominant_k, "scheme": dominant_scheme, "ranking": dominant_ranking}
    metric_options = None
    if by_type is not None or type_rules is not None:
        from corefkit.scoring.by_type import by_type_request

        metrics, metric_options = by_type_request(metrics or "all", by_type, type_rules)
    if lweights is not None:
        from corefkit.scoring.linguistic import lweights_request

        metric_options = lweights_request(metrics, lweights, metric_options)
    with _progress("scoring", quiet) as progress:
        report = run(key, response, metrics, format=input_format, metric_options=metric_options,
                     remove_singletons=remove_singletons, passes=passes,
                     per_document=per_document, read_options=read_options,
                     key_read_options=key_options, response_read_options=response_options,
                     dominant_options=dominant, progress=progress, match=match,
                     zero_match=zero_match, keep_zeros=keep_zeros, profile=profile,
                     semantics=semantics, remove_split_antecedents=remove_split_antecedents,
                     only_split_antecedents=only_split_antecedents,
                     discourse_deixis=discourse_deixis,
                     lea_split_importance=_fraction_option(lea_split_importance),
                     explain=explain)
    _warn(report.warnings, quiet)
    if output_format == "json":
        import json

        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    elif output_format == "csv":
        click.echo(report.to_csv(), nl=False)
    elif output_format == "reference":
        click.echo(report.to_reference(), nl=False)
    else:
        click.echo(report.to_table(), nl=False)


# ---------------------------------------------------------------------------- convert
def _implied_output(target: str, sources: set[str]) -> str | None:
    """The output format a target implies without --to: its file name's, or for an existing
    directory the (single) input format; None if it implies none."""
    from corefkit.converters.registry import output_format

    try:
        return output_format(target, None).name
    except UsageError:
        return next(iter(sources)) if len(sources) == 1 and os.path.isdir(target) else None


def _report_losses(report: Any, quiet: bool) -> None:
    if quiet:
        return
    totals = report.loss_totals()
    if not totals:
        return
    from corefkit.converters.loss import FEATURES

    click.echo("corefkit: not carried over:", err=True)
    # one line per feature and action: a feature can be partly written one way (heads as Min)
    # and partly dropped, and each count must go with what happened to it
    counts: dict[tuple[str, str], int] = {}
    firsts: dict[tuple[str, str], list[str]] = {}
    for record in report.losses:
        key = (record.feature, record.action)
        counts[key] = counts.get(key, 0) + record.count
        shown = firsts.setdefault(key, [])
        for example in record.examples:
            if len(shown) < 3:
                shown.append(f"{record.document}: {example}")
    for (feature, action), count in counts.items():
        click.echo(f"  {count} {FEATURES.get(feature, feature)} ({action}); first: "
                   + "; ".join(firsts[(feature, action)]), err=True)


@cli.command()
@click.argument("source")
@click.argument("target")
@click.option("--from", "input_format", default=None, help="Input format (default: detected).")
@click.option("--to", "output_format", default=None,
              help="Output format (default: from the target's file name).")
@click.option("--layout", default=None, help="CoNLL-2012 output layout: default, source or gum.")
@click.option("--keep-ids", is_flag=True, help="CoNLL-2012 output: keep the original id strings.")
@click.option("--parse-gum-ids", is_flag=True,
              help="CoNLL-2012 input: split GUM-style ids into entity attributes.")
@click.option("--layer", default=None, metavar="LAYER",
              help="LCC input: the coreference layer to read (default manualCoreferences@1, "
                   "the gold; @2 is the annotator's output).")
@click.option("--mmax-map", default=None, metavar="NAME|FILE",
              help="MMAX2 input and output: the level map saying which levels and attributes "
                   "hold coreference (shipped: generic, arrau, acl-anthology; default generic).")
@click.option("--mmax-common-paths", default=None, metavar="FILE",
              help="MMAX2 input: the common_paths.xml for projects without one beside them.")
@click.option("--lenient", is_flag=True,
              help="Input: skip bad markables and recover from XML errors with a warning, "
                   "instead of failing.")
@click.option("--discontinuous", default=None, type=click.Choice(["drop", "extent", "first"]),
              help="Discontinuous mentions in a target that cannot hold them: drop (default; "
                   "reported as lost), extent (gaps filled) or first (first part only).")
@click.option("--conllu-profile", default=None,
              type=click.Choice(["auto", "corefud", "ua-compact"]),
              help="CorefUD output: the profile each document was read with (auto, default), "
                   "CorefUD 1.x (eid-etype-head-other) or the UA compact declaration of the source.")
@click.option("--keep-min", is_flag=True,
              help="CorefUD output: add a minspan field so that minimum spans are kept.")
@click.option("--allow-zeros", is_flag=True,
              help="CoNLL-UA output: write empty nodes as N.k token lines (UA scorer 2.0).")
@click.option("--allow-id-closers", is_flag=True,
              help="CoNLL-UA output: write crossing markables with closers that name them "
                   "(markable_3), UA scorer 2.0.")
@click.option("--align-spaces", is_flag=True,
              help="CoNLL-UA output: align columns with spaces (the CODI-CRAC look), not TABs.")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="Apply a normalization pass before writing (repeatable).")
@click.option("--strict", is_flag=True,
              help="Fail, writing nothing, if the target cannot hold everything.")
@click.option("--quiet", "-q", is_flag=True, help="No warnings or loss report.")
def convert(source: str, target: str, input_format: str | None, output_format: str | None,
            layout: str | None, keep_ids: bool, parse_gum_ids: bool, layer: str | None,
            mmax_map: str | None, mmax_common_paths: str | None, lenient: bool,
            discontinuous: str | None, conllu_profile: str | None, keep_min: bool,
            allow_zeros: bool, allow_id_closers: bool, align_spaces: bool,
            passes: tuple[str, ...], strict: bool, quiet: bool) -> None:
    """Convert SOURCE (file, directory, glob or '-') to TARGET (file, directory or '-').

    A directory or glob source with a directory target gives one output file per input
    file. What the target format cannot hold is reported with counts and first locations.
    """
    _transform(source, target, input_format, output_format, layout, keep_ids, parse_gum_ids,
               list(passes), strict, quiet, layer=layer, mmax_map=mmax_map,
               mmax_common_paths=mmax_common_paths, lenient=lenient,
               discontinuous=discontinuous, conllu_profile=conllu_profile, keep_min=keep_min,
               ua_options={"allow_zeros": allow_zeros, "allow_id_closers": allow_id_closers,
                           "align_spaces": align_spaces})


@cli.command()
@click.argument("source")
@click.argument("target")
@click.option("--pass", "passes", multiple=True, required=True, metavar="NAME[:opt=val,...]",
              help="A pass to apply, in the order given (repeatable).")
@click.option("--from", "input_format", default=None, help="Input format (default: detected).")
@click.option("--to", "output_format", default=None,
              help="Output format (default: from the target's name, else the input format).")
@click.option("--strict", is_flag=True,
              help="Fail, writing nothing, if the target cannot hold everything.")
@click.option("--lenient", is_flag=True,
              help="Repair malformed input (each repair reported) instead of refusing it.")
@click.option("--quiet", "-q", is_flag=True, help="No warnings or loss report.")
def normalize(source: str, target: str, passes: tuple[str, ...], input_format: str | None,
              output_format: str | None, strict: bool, lenient: bool, quiet: bool) -> None:
    """Apply normalization passes to SOURCE and write TARGET.

    Run 'corefkit passes' for the list of passes and their options.
    """
    _transform(source, target, input_format, output_format, None, False, False,
               list(passes), strict, quiet, same_format=True, lenient=lenient)


def _transform(source: str, target: str, input_format: str | None, output_format: str | None,
               layout: str | None, keep_ids: bool, parse_gum_ids: bool, passes: list[str],
               strict: bool, quiet: bool, same_format: bool = False,
               layer: str | None = None, mmax_map: str | None = None,
               mmax_common_paths: str | None = None, lenient: bool = False,
               discontinuous: str | None = None, conllu_profile: str | None = None,
               keep_min: bool = False, ua_options: dict[str, bool] | None = None) -> None:
    from corefkit.converters.convert import convert
    from corefkit.converters.registry import expand_paths, get

    read_options: dict[str, Any] = {"parse_gum_ids": True} if parse_gum_ids else {}
    if layer is not None:
        read_options["layer"] = layer
    write_options: dict[str, Any] = {}
    if layout is not None:
        write_options["layout"] = layout
    if keep_ids:
        write_options["keep_ids"] = True
    if lenient:
        read_options["lenient"] = True
    if discontinuous is not None:
        write_options["discontinuous"] = discontinuous
    if conllu_profile is not None:
        write_options["profile"] = conllu_profile
    if keep_min:
        write_options["keep_min"] = True
    write_options.update({k: True for k, v in (ua_options or {}).items() if v})
    sources = {fmt for _, fmt in expand_paths(source, input_format)}
    if mmax_common_paths is not None:
        if "mmax2" not in sources:
            raise UsageError("--mmax-common-paths applies to MMAX2 input only")
        read_options["common_paths"] = mmax_common_paths
    if mmax_map is not None:  # the level map serves the MMAX2 side(s) of the conversion
        to = output_format or _implied_output(target, sources)
        writes_mmax = to is not None and get(to).name == "mmax2"
        if "mmax2" not in sources and not writes_mmax:
            raise UsageError("--mmax-map applies to MMAX2 input or output only")
        if "mmax2" in sources:
            read_options["level_map"] = mmax_map
        if writes_mmax:
            write_options["level_map"] = mmax_map
    result = convert(source, target, input_format=input_format, output_format=output_format,
                     passes=passes, read_options=read_options, write_options=write_options,
                     fail_on_loss=strict, same_format=same_format)
    _warn(result.warnings, quiet)
    _report_losses(result.report, quiet)
    if not quiet:
        files = f" to {len(result.written)} files" if len(result.written) > 1 else ""
        click.echo(f"corefkit: wrote {result.report.documents} documents{files}", err=True)


# ---------------------------------------------------------------------------- listings
@cli.command()
def formats() -> None:
    """List the formats corefkit reads and writes, with what each can hold."""
    from corefkit.converters.loss import FEATURES
    from corefkit.converters.registry import formats as all_formats

    for spec in all_formats():
        aliases = f" (aliases: {', '.join(spec.aliases)})" if spec.aliases else ""
        click.echo(f"{spec.name}{aliases}: {spec.description}")
        click.echo(f"  files: {' '.join(spec.patterns)}")
        in_part = {f for f, _ in spec.partial}
        can = [f for f in FEATURES if f in spec.capabilities and f not in in_part]
        cannot = [f for f in FEATURES if f not in spec.capabilities]
        click.echo(f"  holds: {', '.join(can) or '-'}")
        if spec.partial:
            click.echo("  holds in part: " + "; ".join(f"{f} ({what})" for f, what in spec.partial))
        click.echo(f"  cannot hold: {', '.join(cannot) or '-'}")


@cli.command(name="passes")
def list_passes() -> None:
    """List the normalization passes and their options."""
    from corefkit.passes import all_passes

    for spec in all_passes():
        options = ", ".join(f"{k}={v.__name__}" for k, v in spec.options.items())
        click.echo(f"{spec.name}: {spec.description}" + (f" [options: {options}]" if options else ""))


# ---------------------------------------------------------------------------- validate
from corefkit.validation.command import validate  # noqa: E402 - imports only click

cli.add_command(validate)

from corefkit.cli.compare import compare  # noqa: E402 - imports only click

cli.add_command(compare)

from corefkit.cli.stats import stats  # noqa: E402 - imports only click

cli.add_command(stats)


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
