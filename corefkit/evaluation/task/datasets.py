"""Many datasets, one leaderboard: a task with ``datasets`` (CRAC: one CorefUD file per
language and corpus) ranked by the macro-average over the datasets, as CRAC ranks.

Rules (``docs/guides/crac-organizers.md``):

* a submission is a folder; its file for a dataset is the entry named as the dataset's gold
  file (``cs_pdt-corefud-test.conllu``), else ``NAME`` plus the gold's extension
  (``cs_pdt-corefud.conllu``); two candidates reject the submission (layout);
* every file present goes through the checks of a one-dataset task (validation at the task's
  level, then strict pairing with that dataset's gold: documents, sentence ids, words — the
  first difference named) and is scored with the task's setting; one refused file refuses the
  submission (it is listed with the dataset and the reason, and never scored);
* a dataset without a file counts 0 (``missing = "zero"``, the default): the macro-average
  runs over all the task's datasets, so a submission for some languages only is ranked with 0
  for the others — CRAC's official score is "the macro-average of the CoNLL F1 … calculated
  for each dataset" over all datasets, and participants "can participate just for selected
  languages" (corefud-scorer README; ufal.mff.cuni.cz/corefud/crac24); the dataset is flagged
  ``missing``. For the tests its documents are an empty response (recall and precision
  numerators 0, the gold's recall denominators). ``missing = "reject"`` refuses such a
  submission instead;
* variants (extra columns): each is the macro-average of a value under scoring overrides
  (partial, exact, with singletons) or of another metric (``zero``);
* tests between neighbours in the ranking: per dataset (paired over its documents) and for
  the macro-average (a permutation test swapping documents within each dataset, and a
  bootstrap resampling documents within each dataset), seeded by the task's seed.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from corefkit.errors import CorefkitError, UsageError
from corefkit.evaluation.task.leaderboard import AdjacentTest, Entry, Rejection
from corefkit.evaluation.task.submission import (
    Prepared,
    Submission,
    check_submission,
    document_rows,
    excluded_checks,
    prepare,
    score_options,
    score_submission,
)
from corefkit.evaluation.task.spec import Dataset, Task

Progress = Callable[[str, str], None]
# (submission file, dataset, task) -> why it is refused, or None: checks a platform adds (the
# LLM track has its own path: track = "llm") run before validation
SubmissionCheck = Callable[[str, Dataset, Task], str | None]
SUBMISSION_CHECKS: dict[str, SubmissionCheck] = {}


def register_submission_check(name: str, check: SubmissionCheck) -> None:
    """Add a check every dataset file of a submission must pass before validation (a later
    registration of the same name replaces the earlier one)."""
    SUBMISSION_CHECKS[name] = check


@dataclass
class DatasetResult:
    """One submission on one dataset."""

    dataset: str
    path: str | None
    missing: bool
    values: dict[str, Fraction]                  # ranking labels and variant names
    entry: Entry | None = None                   # the scored entry (None: missing)
    rows: np.ndarray | None = None               # the primary statistic per document


@dataclass
class DatasetEntry:
    """A ranked submission of a multi-dataset task."""

    name: str
    path: str
    results: dict[str, DatasetResult]
    values: dict[str, Fraction]                  # macro-averages of the ranking values
    variants: dict[str, Fraction]
    rank: int = 0
    cluster: int | None = None
    versus_next: AdjacentTest | None = None
    per_dataset_tests: dict[str, AdjacentTest] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    @property
    def missing(self) -> list[str]:
        return [d for d, r in self.results.items() if r.missing]


@dataclass(frozen=True)
class PreparedDataset:
    dataset: Dataset
    task: Task
    prepared: Prepared
    empty_rows: np.ndarray        # the primary statistic of an empty response, per document


# ============================================================================ one dataset
def prepare_dataset(dataset: Dataset, task: Task, engine: dict[str, Any]) -> PreparedDataset:
    """The one-dataset task of ``dataset``, its gold read and checked, and the rows of an
    empty response (the gold scored against itself with every numerator set to 0)."""
    scoring = dict(task.scoring)
    if task.strata:  # the long-range tables: the strata metric joins the scored metrics
        base = scoring.get("metrics") or _profile_metrics(scoring.get("profile")) or "all"
        if "strata" not in base.split(","):
            scoring["metrics"] = f"{base},strata"
    single = replace(task, gold=dataset.gold, gold_format=dataset.format or task.gold_format,
                     datasets=(), variants=(), scoring=scoring)
    if not os.path.exists(dataset.gold):
        raise UsageError(f"dataset {dataset.name}: the gold {dataset.gold} does not exist")
    prepared = prepare(single)
    rows = np.zeros((0, 0))
    if task.significance.test != "none":
        # the gold on its own words, in its own format (an LLM-track task's answers are text)
        as_gold = replace(single, scoring={k: v for k, v in scoring.items() if k != "align"},
                          track="standard")
        itself = score_submission(Submission(dataset.name, dataset.gold), as_gold,
                                  replace(prepared, submission_format=prepared.gold_format), 0,
                                  engine)
        if isinstance(itself, Rejection):
            raise CorefkitError(f"dataset {dataset.name}: the gold cannot be scored against "
                                f"itself: {itself.reason}")
        rows = _primary_rows(itself, task)
        rows = rows * (np.arange(rows.shape[1]) % 4 == 1)  # keep the key's recall denominators
    return PreparedDataset(dataset, single, prepared, rows)


def _profile_metrics(profile: str | None) -> str | None:
    if profile is None:
        return None
    from corefkit.scoring.profiles import profile_settings

    metrics = profile_settings(profile).get("metrics")
    return str(metrics) if metrics else None


def strata_table(entry: DatasetEntry, dimension: str) -> dict[str, Fraction]:
    """CoNLL F1 per bucket of ``dimension``, averaged over the datasets whose gold has key
    mentions in the bucket (a missing dataset counts 0 there)."""
    sums: dict[str, Fraction] = {}
    counted: dict[str, int] = {}
    for result in entry.results.values():
        report = result.entry.report if result.entry is not None else None
        if report is None or "strata" not in report.metrics:
            continue
        strata = report.metrics["strata"].counts
        for bucket in strata.buckets(dimension):
            if strata.counts(dimension, bucket, "bcub").recall_den:
                sums[bucket] = sums.get(bucket, Fraction(0)) + strata.conll(dimension, bucket)
                counted[bucket] = counted.get(bucket, 0) + 1
    missing = len(entry.missing)
    return {b: sums[b] / (counted[b] + missing) for b in sums}


def locate(submission: Submission, dataset: Dataset, extensions: tuple[str, ...] = ()
           ) -> list[str]:
    """The entries of a submission folder that are its file for ``dataset``: named as the
    gold file, or as the dataset; with ``extensions`` (a submission format other than the
    gold's) also the gold file's or the dataset's name plus one of them."""
    names = [dataset.file_name]
    extension = os.path.splitext(dataset.file_name)[1] if os.path.isfile(dataset.gold) else ""
    names.append(dataset.name + extension)
    for other in extensions:  # submissions in another format (the LLM track's text)
        names += [os.path.splitext(dataset.file_name)[0] + other, dataset.name + other]
    found = []
    for name in dict.fromkeys(names):
        path = os.path.join(submission.path, name)
        if os.path.lexists(path):
            found.append(path)
    return found


def _other_extensions(prepared: Prepared) -> tuple[str, ...]:
    """The file extensions of the submission format when it is not the gold's (longest
    first: ``.t2t.txt`` before ``.txt``)."""
    wanted = prepared.submission_format
    if wanted is None or wanted == prepared.gold_format:
        return ()
    from corefkit.converters.registry import get

    fmt = get(wanted)
    found = {pattern[1:] for pattern in (*fmt.patterns, *fmt.named_patterns)
             if pattern.startswith("*.") and not any(c in pattern[1:] for c in "*?[")}
    return tuple(sorted(found, key=lambda e: (-len(e), e)))


def evaluate_submission(submission: Submission, task: Task, prepared: list[PreparedDataset],
                        engine: dict[str, Any]) -> DatasetEntry | Rejection:
    """Check and score every dataset file of a submission (or its rejection)."""
    results: dict[str, DatasetResult] = {}
    warnings: list[str] = []
    for p in prepared:
        dataset = p.dataset
        candidates = locate(submission, dataset, _other_extensions(p.prepared))
        if len(candidates) > 1:
            return _rejected(submission, dataset, "layout", "two files for the dataset: "
                             + " and ".join(os.path.basename(c) for c in candidates))
        if not candidates:
            if task.missing == "reject":
                return _rejected(submission, dataset, "layout",
                                 f"no file {dataset.file_name} for the dataset")
            results[dataset.name] = DatasetResult(
                dataset.name, None, True, _zeros(task), rows=p.empty_rows)
            warnings.append(f"dataset {dataset.name}: no file {dataset.file_name}; counted 0")
            continue
        path = candidates[0]
        if os.path.islink(path):
            return _rejected(submission, dataset, "layout",
                             f"{os.path.basename(path)} is a symbolic link")
        for name, check in SUBMISSION_CHECKS.items():
            refused = check(path, dataset, p.task)
            if refused:
                return _rejected(submission, dataset, "layout", f"{name}: {refused}")
        one = Submission(submission.name, path)
        checked = check_submission(one, p.task, p.prepared)
        if isinstance(checked, Rejection):
            return _prefixed(checked, submission, dataset)
        entry = score_submission(one, p.task, p.prepared,
                                 sum(1 for f in checked if not f.is_error), engine)
        if isinstance(entry, Rejection):
            return _prefixed(entry, submission, dataset)
        values = dict(entry.values)
        values.update(_variants(one, p, task, entry, engine))
        rows = _primary_rows(entry, task) if task.significance.test != "none" else None
        results[dataset.name] = DatasetResult(dataset.name, path, False, values, entry, rows)
    labels = [k.label for k in task.ranking] + [v.name for v in task.variants]
    macro = {label: sum((r.values[label] for r in results.values()), Fraction(0))
             / len(results) for label in labels}
    ranking = {k.label: macro[k.label] for k in task.ranking}
    variants = {v.name: macro[v.name] for v in task.variants}
    return DatasetEntry(submission.name, submission.path, results, ranking, variants,
                        warnings=warnings)


def _zeros(task: Task) -> dict[str, Fraction]:
    return {label: Fraction(0) for label in
            [k.label for k in task.ranking] + [v.name for v in task.variants]}


def _variants(submission: Submission, p: PreparedDataset, task: Task, entry: Entry,
              engine: dict[str, Any]) -> dict[str, Fraction]:
    """Each variant's value on one dataset: from the main report when it only names another
    metric, else from a run with the variant's overrides."""
    from corefkit.evaluation.significance import exact_score
    from corefkit.evaluation.task.spec import RankKey
    from corefkit.scoring.api import score

    values: dict[str, Fraction] = {}
    for variant in task.variants:
        key = RankKey.parse(variant.metric or task.primary.label)
        report = entry.report
        if variant.overrides:
            options = score_options(p.task)
            options.update(variant.overrides)
            metrics = list(dict.fromkeys([key.metric] + (
                ["muc", "bcub", "ceafe"] if key.metric == "conll" else [])))
            try:
                with excluded_checks(p.task):
                    report = score(p.dataset.gold, submission.path, metrics,
                                   key_format=p.prepared.gold_format,
                                   response_format=p.prepared.submission_format, **options,
                                   **engine)
            except UsageError:
                raise
            except CorefkitError as exc:  # checked already: not expected, but never silent
                raise CorefkitError(f"{submission.name}, dataset {p.dataset.name}, variant "
                                    f"{variant.name}: {exc}") from None
        elif key.metric not in report.metrics:
            raise UsageError(f"variant {variant.name}: the metric {key.metric} is not scored; "
                             "add it to [scoring] metrics")
        value = exact_score(report, key.metric, key.score)
        values[variant.name] = Fraction(value or 0)
    return values


def _primary_rows(entry: Entry, task: Task) -> np.ndarray:
    rows = document_rows(entry, task)
    return np.stack([rows[d] for d in sorted(rows)]) if rows else np.zeros((0, 4))


def _rejected(submission: Submission, dataset: Dataset, stage: str, reason: str) -> Rejection:
    return Rejection(submission.name, submission.path, stage,
                     f"dataset {dataset.name}: {reason}", errors=1)


def _prefixed(rejection: Rejection, submission: Submission, dataset: Dataset) -> Rejection:
    return replace(rejection, name=submission.name, path=submission.path,
                   reason=f"dataset {dataset.name}: {rejection.reason}")


# ============================================================================ ranking, tests
def rank_entries(entries: list[DatasetEntry]) -> None:
    """Best macro-averaged ranking values first (then by name); equal values share a rank."""
    entries.sort(key=lambda e: e.name)
    entries.sort(key=lambda e: tuple(e.values.values()), reverse=True)
    for n, entry in enumerate(entries):
        previous = entries[n - 1] if n else None
        same = previous is not None and list(previous.values.values()) == \
            list(entry.values.values())
        entry.rank = previous.rank if same and previous is not None else n + 1


def compare_neighbours(entries: list[DatasetEntry], task: Task) -> None:
    """Test each entry against the next one: on the macro-average and on every dataset."""
    if task.significance.test == "none" or not entries:
        return
    entries[0].cluster = 1
    for a, b in itertools.pairwise(entries):
        a.versus_next = macro_test(a, b, task)
        b.cluster = (a.cluster or 1) + (1 if a.versus_next.significant else 0)
        for dataset in a.results:
            a.per_dataset_tests[dataset] = dataset_test(a, b, dataset, task)


def _statistic(entries: tuple[DatasetEntry, ...], task: Task) -> Any:
    from corefkit.evaluation.significance import statistic

    for entry in entries:
        for result in entry.results.values():
            if result.entry is not None:
                return statistic(task.primary.metric, result.entry.report)
    return None


def macro_test(a: DatasetEntry, b: DatasetEntry, task: Task) -> AdjacentTest:
    """The paired test of the macro-averaged primary value: documents permuted / resampled
    within each dataset (:func:`~corefkit.evaluation.significance.macro_permutation_test`)."""
    from corefkit.evaluation.significance import (
        macro_bootstrap_differences,
        macro_permutation_test,
        percentile_interval,
    )

    sig, key = task.significance, task.primary
    datasets = list(a.results)
    rows_a = [a.results[d].rows for d in datasets]
    rows_b = [b.results[d].rows for d in datasets]
    observed = float(a.values[key.label] - b.values[key.label])
    stat = _statistic((a, b), task)
    if stat is None:  # neither has a file: both 0 everywhere
        return AdjacentTest(b.name, key.label, observed, 1.0, 0, True, 0.0, 0.0, False)
    seed = [sig.seed, 3, _stable(a.name), _stable(b.name)]
    p_value, total, exact = None, None, None
    if sig.test == "permutation":
        p_value, total, exact = macro_permutation_test(
            rows_a, rows_b, stat, key.score, sig.permutations, np.random.default_rng(seed))  # type: ignore[arg-type]
    interval = None
    if sig.bootstrap > 0:
        diffs = macro_bootstrap_differences(rows_a, rows_b, stat, key.score,  # type: ignore[arg-type]
                                            sig.bootstrap, np.random.default_rng([sig.seed, 4]))
        interval = percentile_interval(diffs, sig.alpha, observed)
    return _verdict(b.name, key.label, observed, p_value, total, exact, interval, task)


def dataset_test(a: DatasetEntry, b: DatasetEntry, dataset: str, task: Task) -> AdjacentTest:
    """The paired test of the primary value on one dataset (documents of that dataset)."""
    from corefkit.evaluation.significance import (
        bootstrap_weights,
        percentile_interval,
        permutation_test,
    )

    sig, key = task.significance, task.primary
    ra, rb = a.results[dataset], b.results[dataset]
    observed = float(ra.values[key.label] - rb.values[key.label])
    stat = _statistic((a, b), task)
    if stat is None or ra.rows is None or rb.rows is None:
        return AdjacentTest(b.name, key.label, observed, 1.0, 0, True, 0.0, 0.0, False)
    p_value, total, exact = None, None, None
    if sig.test == "permutation":
        rng = np.random.default_rng([sig.seed, 5, _stable(a.name), _stable(b.name),
                                     _stable(dataset)])
        p_value, total, exact = permutation_test(ra.rows, rb.rows, stat, key.score,
                                                 sig.permutations, rng)
    interval = None
    if sig.bootstrap > 0:
        rng = np.random.default_rng([sig.seed, 6, _stable(dataset)])
        diffs = []
        for weights in bootstrap_weights(ra.rows.shape[0], sig.bootstrap, rng):
            ta, tb = weights @ ra.rows, weights @ rb.rows
            defined = stat.defined(ta) & stat.defined(tb)
            diffs.append(np.where(defined, stat.value(ta, key.score) - stat.value(tb, key.score),
                                  np.nan))
        interval = percentile_interval(np.concatenate(diffs), sig.alpha, observed)
    return _verdict(b.name, key.label, observed, p_value, total, exact, interval, task)


def _verdict(other: str, label: str, observed: float, p_value: float | None,
             total: int | None, exact: bool | None, interval: tuple[float, float] | None,
             task: Task) -> AdjacentTest:
    sig = task.significance
    if sig.test == "permutation":
        significant = p_value is not None and p_value <= sig.alpha
    else:
        significant = interval is not None and (interval[0] > 0 or interval[1] < 0)
    return AdjacentTest(other, label, observed, p_value, total, exact,
                        interval[0] if interval else None, interval[1] if interval else None,
                        significant)


def _stable(text: str) -> int:
    import zlib

    return zlib.crc32(text.encode("utf-8"))


__all__ = ["DatasetEntry", "DatasetResult", "register_submission_check"]
