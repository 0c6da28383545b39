"""``corefkit compare``: systems × datasets, generalization gaps and significance tests.

The click command only; the work is :func:`corefkit.evaluation.compare.compare`. Importing
this module imports click alone, so that ``corefkit --help`` stays fast.
"""

from __future__ import annotations

import sys
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
from corefkit.errors import UsageError, counted


@click.command(cls=Command, examples=[
    "corefkit compare --key key.conll --response response.conll --label a@demo"
    " --key key.conll --response key.conll --label b@demo --seed 1",
    "corefkit compare --key key.conll --response response.conll --label a@demo"
    " --key key.conllu --response response.conllu --label a@gum --gap a@demo a@gum -f json",
])
@click.option("--key", "keys", multiple=True, metavar="FILE",
              help="The key of a setting (repeatable; the n-th --key, --response and --label "
                   "form the n-th setting).")
@click.option("--response", "responses", multiple=True, metavar="FILE",
              help="The response (system output) of a setting (repeatable).")
@click.option("--label", "labels", multiple=True, metavar="SYSTEM@DATASET",
              help="The setting's name: system and dataset (repeatable). Settings with the same "
                   "key are one dataset and compared pairwise. Without --label: "
                   "RESPONSE-NAME@KEY-NAME.")
@click.option("--metrics", "-m", default="muc,bcub,ceafe,conll", show_default=True,
              help="Aggregate metrics scored, tested and used for AGG.")
@click.option("--by-type", "by_type", default="all", show_default=True, metavar="TYPES",
              help="Mention types for type-restricted B³ and TGG: comma list of nested, "
                   "generic, compound, copular, vp, appositive and rule names, or all.")
@click.option("--type-rules", default=None, metavar="FILE",
              help="JSON file of extra mention types (rules over UPOS/DEPREL/FEATS).")
@click.option("--in-domain", default=None, metavar="DATASET",
              help="The dataset the systems were trained on: gaps of every system from it to "
                   "each of its other datasets.")
@click.option("--gap", "gaps", multiple=True, nargs=2, metavar="IN_LABEL OUT_LABEL",
              help="A gap between two settings, in-domain first (repeatable).")
@click.option("--score", "score", default="f1", show_default=True,
              type=click.Choice(["f1", "recall", "precision"]),
              help="The value gaps, tests and intervals use (conll is always its F1).")
@click.option("--permutations", default=10_000, show_default=True, type=int,
              help="Permutations of the paired test (all assignments when 2^documents is "
                   "fewer).")
@click.option("--bootstrap", default=10_000, show_default=True, type=int,
              help="Bootstrap replicates of the confidence intervals.")
@click.option("--seed", default=None, type=int,
              help="Random seed (default: drawn at random and reported).")
@click.option("--alpha", default=0.1, show_default=True, type=float,
              help="Significance level; intervals are at 1 - alpha.")
@click.option("--format", "-f", "output_format", default="table", show_default=True,
              type=click.Choice(["table", "json", "csv"]))
@click.option("--plot", default=None, metavar="FILE",
              help="Also draw per-type scores across settings (png, pdf, svg; needs "
                   "corefkit[plot]).")
@click.option("--from", "input_format", default=None, metavar="FORMAT",
              help="Format of every file (default: detected).")
@click.option("--remove-singletons/--keep-singletons", default=None,
              help="Drop one-mention entities before scoring (default as corefkit score).")
@click.option("--pass", "passes", multiple=True, metavar="NAME[:opt=val,...]",
              help="A normalization pass applied to keys and responses (repeatable).")
@click.option("--match", default=None, type=click.Choice(["exact", "partial", "head"]),
              help="CorefUD mention matching, as for corefkit score.")
@click.option("--profile", default=None, metavar="NAME",
              help="Named scoring settings, as for corefkit score.")
@align_options
@format_options("read")
@lenient_option
@ignore_option
@click.option("--quiet", "-q", is_flag=True, help="No warnings and no progress display.")
def compare(keys: tuple[str, ...], responses: tuple[str, ...], labels: tuple[str, ...],
            metrics: str, by_type: str, type_rules: str | None, in_domain: str | None,
            gaps: tuple[tuple[str, str], ...], score: str, permutations: int, bootstrap: int,
            seed: int | None, alpha: float, output_format: str, plot: str | None,
            input_format: str | None, remove_singletons: bool | None, passes: tuple[str, ...],
            match: str | None, profile: str | None, lenient: bool, ignore: tuple[str, ...],
            quiet: bool, **format_params: Any) -> None:
    """Compare systems across datasets: scores, per-type B³, gaps and significance tests.

    Each setting is --key FILE --response FILE --label SYSTEM@DATASET; settings with the same key
    are one dataset. Reports the generalization gaps AGG and TGG (Porada et al. 2024, eq. 1-2)
    and, for every two systems on one key, a paired permutation test and a bootstrap interval.
    """
    import os

    from corefkit.evaluation.compare import SettingSpec
    from corefkit.evaluation.compare import compare as run

    if not keys:
        raise UsageError("give at least one setting: --key FILE --response FILE --label NAME")
    if len(keys) != len(responses) or (labels and len(labels) != len(keys)):
        raise UsageError(f"every setting needs one --key, one --response and one --label: got "
                         f"{counted(len(keys), 'key')}, {counted(len(responses), 'response')}, "
                         f"{counted(len(labels), 'label')}")

    def stem(path: str) -> str:
        name = os.path.basename(os.path.normpath(path))
        return name.split(".")[0] or name

    names = labels or tuple(f"{stem(r)}@{stem(k)}" for k, r in zip(keys, responses))
    align = align_value(format_params)
    options: dict[str, object] = {"passes": passes, "lenient": lenient,
                                  "read_options": given(format_params)}
    if align is not None:
        options["align"] = align
    for name, value in (("format", input_format), ("remove_singletons", remove_singletons),
                        ("match", match), ("profile", profile)):
        if value is not None:
            options[name] = value

    def progress(label: str) -> None:
        if not quiet and sys.stderr.isatty():
            click.echo(f"corefkit: scoring {label}", err=True)

    result = run([SettingSpec(k, r, n) for k, r, n in zip(keys, responses, names)],
                 metrics=metrics, types=by_type, rules=type_rules, in_domain=in_domain,
                 gaps=list(gaps), permutations=permutations, bootstrap=bootstrap, seed=seed,
                 alpha=alpha, score=score, score_options=options, progress=progress)
    if plot is not None:
        result.plot(plot)
    warn(result.warnings, quiet, ignore)
    if output_format == "json":
        import json

        click.echo(json.dumps(result.to_json(), indent=2, ensure_ascii=False))
    elif output_format == "csv":
        click.echo(result.to_csv(), nl=False)
    else:
        click.echo(result.to_table(), nl=False)
