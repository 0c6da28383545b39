"""``corefkit compare``: several systems on several datasets — aggregate and per-type scores,
generalization gaps, paired permutation tests and bootstrap confidence intervals.

Following Porada et al. (2024), "Challenges to Evaluating the Generalization of Coreference
Resolution Models: A Measurement Modeling Perspective":

* scores per setting (one key × one response): the metrics asked for and type-restricted B³
  per mention type (§4.1.2, :mod:`corefkit.scoring.metrics.by_type`);
* generalization gaps between a system's in-domain and out-of-domain settings,
  eq. (1)  AGG   = |S(in) − S(out)|      for an aggregate metric S (CoNLL F1 in the paper),
  eq. (2)  TGG_t = |S_t(in) − S_t(out)|  for type-restricted B³ of mention type t;
* for every pair of systems on the same key, a paired permutation test over documents
  (appendix C: 10,000 permutations, α = 0.1) and a paired bootstrap interval of the difference.

Settings are labelled ``SYSTEM@DATASET``; settings with the same key form a dataset, and
``in_domain`` names the dataset each system was trained on (every other dataset of the system
is out of domain), or ``gaps`` lists (in-domain label, out-of-domain label) pairs explicitly.

The tests and their statistics are :mod:`corefkit.evaluation.significance`.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import secrets
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from corefkit.errors import Repair, UsageError
from corefkit.evaluation.significance import (
    bootstrap_weights,
    exact_score,
    percentile_interval,
    permutation_test,
    statistic,
)
from corefkit.scoring.engine import source_name
from corefkit.scoring.metrics.by_type import BY_TYPE
from corefkit.scoring.metrics.standard import CONLL_COMPONENTS
from corefkit.scoring.report import ScoreReport

DEFAULT_METRICS = ("muc", "bcub", "ceafe", "conll")
SCORES = ("f1", "recall", "precision")


# ============================================================================ the comparison
@dataclass
class Setting:
    """One key × response: its report, count matrices and bootstrap replicates."""

    label: str
    system: str
    dataset: str
    key: str
    response: str
    report: ScoreReport
    documents: list[str]
    matrices: dict[str, np.ndarray] = field(default_factory=dict)
    replicates: dict[str, np.ndarray] = field(default_factory=dict)
    intervals: dict[str, tuple[float, float] | None] = field(default_factory=dict)
    scores: dict[str, Fraction | None] = field(default_factory=dict)


@dataclass(frozen=True)
class Gap:
    """AGG (eq. 1) or TGG (eq. 2) of one system between two of its settings."""

    kind: str
    system: str
    metric: str
    type: str | None
    in_domain: str
    out_of_domain: str
    in_score: float | None
    out_score: float | None
    ci_low: float | None
    ci_high: float | None

    @property
    def difference(self) -> float | None:
        if self.in_score is None or self.out_score is None:
            return None
        return self.in_score - self.out_score

    @property
    def gap(self) -> float | None:
        d = self.difference
        return None if d is None else abs(d)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "system": self.system, "metric": self.metric,
                "type": self.type, "in_domain": self.in_domain,
                "out_of_domain": self.out_of_domain, "in_score": self.in_score,
                "out_score": self.out_score, "difference": self.difference, "gap": self.gap,
                "ci_low": self.ci_low, "ci_high": self.ci_high}


@dataclass(frozen=True)
class PairTest:
    """A paired permutation test and bootstrap interval of S(a) − S(b) on one key."""

    dataset: str
    a: str
    b: str
    metric: str
    a_score: float
    b_score: float
    p_value: float
    permutations: int
    exact: bool
    ci_low: float | None
    ci_high: float | None
    alpha: float

    @property
    def difference(self) -> float:
        return self.a_score - self.b_score

    @property
    def significant(self) -> bool:
        return self.p_value <= self.alpha

    def to_json(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "a": self.a, "b": self.b, "metric": self.metric,
                "a_score": self.a_score, "b_score": self.b_score,
                "difference": self.difference, "p_value": self.p_value,
                "permutations": self.permutations, "exact": self.exact,
                "significant": self.significant, "ci_low": self.ci_low,
                "ci_high": self.ci_high}


@dataclass
class Comparison:
    """Everything ``corefkit compare`` found; renders as table, JSON, CSV and a plot."""

    settings: list[Setting]
    statistics: list[str]          # metric names, then by_type.TYPE names
    types: list[str]
    gaps: list[Gap]
    tests: list[PairTest]
    options: dict[str, Any]
    warnings: list[Repair] = field(default_factory=list)
    version: str = ""

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        settings = []
        for s in self.settings:
            report = s.report.to_json()
            metrics = {}
            for name in self.statistics:
                if name.startswith(BY_TYPE + "."):
                    continue
                metrics[name] = {**report["metrics"][name], **self._interval(s, name)}
            by_type = {}
            for t in self.types:
                name = f"{BY_TYPE}.{t}"
                by_type[t] = {**report["metrics"][BY_TYPE][t], **self._interval(s, name)}
            settings.append({
                "label": s.label, "system": s.system, "dataset": s.dataset, "key": s.key,
                "response": s.response, "documents": len(s.documents), "metrics": metrics,
                "by_type": by_type, "warnings": [str(w) for w in s.report.warnings],
            })
        return {
            "corefkit_version": self.version,
            "options": self.options,
            "settings": settings,
            "gaps": [g.to_json() for g in self.gaps],
            "tests": [t.to_json() for t in self.tests],
            "warnings": [str(w) for w in self.warnings],
        }

    @staticmethod
    def _interval(s: Setting, name: str) -> dict[str, float | None]:
        interval = s.intervals.get(name)
        return {"ci_low": interval[0] if interval else None,
                "ci_high": interval[1] if interval else None}

    # ------------------------------------------------------------------ table
    def to_table(self) -> str:
        o = self.options
        level = f"{100 * (1 - o['alpha']):g}%"
        lines = [(f"settings: {len(self.settings)}; score: {o['score']} (conll: F1); "
                  f"{level} bootstrap intervals over documents ({o['bootstrap']} replicates); "
                  f"seed {o['seed']}"), ""]
        header = (f"{'setting':<24} {'metric':<22} {'score':>7} {'interval':>19} "
                  f"{'key':>6} {'response':>8}")
        lines += [header, "-" * len(header)]
        for s in self.settings:
            for name in self.statistics:
                value = s.scores.get(name)
                interval = s.intervals.get(name)
                mentions = ""
                if name.startswith(BY_TYPE + "."):
                    c = s.report.metrics[BY_TYPE].counts[name[len(BY_TYPE) + 1:]]
                    mentions = f"{c.key_mentions:>6} {c.response_mentions:>8}"
                lines.append(f"{s.label:<24} {name:<22} {_pc(value):>7} {_interval(interval):>19} "
                             f"{mentions}".rstrip())
        lines += ["", ("generalization gaps (Porada et al. 2024): AGG = |S(in) − S(out)| "
                       "(eq. 1), TGG_t = |S_t(in) − S_t(out)| (eq. 2)")]
        if self.gaps:
            header = (f"{'kind':<4} {'system':<16} {'metric':<22} {'in-domain':<20} "
                      f"{'out-of-domain':<20} {'in':>7} {'out':>7} {'gap':>7} "
                      f"{'interval of in−out':>19}")
            lines += [header, "-" * len(header)]
            for g in self.gaps:
                lines.append(f"{g.kind:<4} {g.system:<16} {g.metric:<22} {g.in_domain:<20} "
                             f"{g.out_of_domain:<20} {_pc(g.in_score):>7} {_pc(g.out_score):>7} "
                             f"{_pc(g.gap):>7} {_interval(_pair(g.ci_low, g.ci_high)):>19}")
        else:
            lines.append("none: name the in-domain dataset with --in-domain DATASET or pairs "
                         "with --gap IN_LABEL OUT_LABEL")
        lines += ["", (f"paired permutation tests over documents (α = {o['alpha']:g}; "
                       f"{o['permutations']} permutations, exact when 2^documents is fewer)")]
        if self.tests:
            header = (f"{'a':<20} {'b':<20} {'metric':<22} {'a−b':>7} {'p':>8} "
                      f"{'interval of a−b':>19}  sig")
            lines += [header, "-" * len(header)]
            for t in self.tests:
                lines.append(f"{t.a:<20} {t.b:<20} {t.metric:<22} {_pc(t.difference):>7} "
                             f"{t.p_value:>8.4f} {_interval(_pair(t.ci_low, t.ci_high)):>19}  "
                             f"{'*' if t.significant else ''}".rstrip())
        else:
            lines.append("none: no key has two systems")
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ CSV
    CSV_COLUMNS = ("section", "label", "other", "metric", "score", "recall", "precision", "f1",
                   "key_mentions", "response_mentions", "difference", "gap", "p_value",
                   "permutations", "ci_low", "ci_high")

    def to_csv(self) -> str:
        """Long format: ``score`` rows per setting and metric, ``AGG``/``TGG`` rows (label =
        in-domain, other = out-of-domain), ``test`` rows (label = a, other = b)."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(self.CSV_COLUMNS)
        for s in self.settings:
            report = s.report.to_json()["metrics"]
            for name in self.statistics:
                if name.startswith(BY_TYPE + "."):
                    data = report[BY_TYPE][name[len(BY_TYPE) + 1:]]
                else:
                    data = report[name]
                interval = s.intervals.get(name)
                row = {"section": "score", "label": s.label, "metric": name,
                       "score": _float(s.scores.get(name)), "recall": data.get("recall"),
                       "precision": data.get("precision"), "f1": data.get("f1"),
                       "key_mentions": data.get("key_mentions"),
                       "response_mentions": data.get("response_mentions"),
                       "ci_low": interval[0] if interval else None,
                       "ci_high": interval[1] if interval else None}
                writer.writerow([csv_cell(row.get(c)) for c in self.CSV_COLUMNS])
        for g in self.gaps:
            row = {"section": g.kind, "label": g.in_domain, "other": g.out_of_domain,
                   "metric": g.metric, "difference": g.difference, "gap": g.gap,
                   "ci_low": g.ci_low, "ci_high": g.ci_high}
            writer.writerow([csv_cell(row.get(c)) for c in self.CSV_COLUMNS])
        for t in self.tests:
            row = {"section": "test", "label": t.a, "other": t.b, "metric": t.metric,
                   "difference": t.difference, "p_value": t.p_value,
                   "permutations": t.permutations, "ci_low": t.ci_low, "ci_high": t.ci_high}
            writer.writerow([csv_cell(row.get(c)) for c in self.CSV_COLUMNS])
        return buffer.getvalue()

    # ------------------------------------------------------------------ plot
    def plot(self, path: str | os.PathLike[str]) -> None:
        """Per-type B³ F1 (or the chosen score) of every setting as grouped bars with their
        bootstrap intervals; the file type follows the name (png, pdf, svg, ...).

        Needs matplotlib (``pip install 'corefkit[plot]'``), imported only here.
        """
        try:
            import matplotlib
        except ImportError:
            raise UsageError("plotting needs matplotlib: pip install 'corefkit[plot]'") from None
        matplotlib.use("Agg")  # files only: no display is needed or wanted
        import matplotlib.pyplot as plt

        if not self.types:
            raise UsageError("nothing to plot: no mention type was scored (--by-type)")
        width = 0.8 / max(len(self.settings), 1)
        figure, axes = plt.subplots(figsize=(max(6.0, 1.3 * len(self.types) + 2), 4.5))
        positions = np.arange(len(self.types))
        for n, s in enumerate(self.settings):
            heights, low, high = [], [], []
            for t in self.types:
                name = f"{BY_TYPE}.{t}"
                value = s.scores.get(name)
                interval = s.intervals.get(name)
                v = 100 * float(value) if value is not None else np.nan
                heights.append(v)
                low.append(v - 100 * interval[0] if interval else 0.0)
                high.append(100 * interval[1] - v if interval else 0.0)
            axes.bar(positions + (n - (len(self.settings) - 1) / 2) * width, heights, width,
                     yerr=[low, high], capsize=2, label=s.label)
        axes.set_xticks(positions)
        axes.set_xticklabels(self.types)
        axes.set_ylim(0, 105)
        score = {"f1": "F1"}.get(self.options["score"], self.options["score"])
        axes.set_ylabel(f"B³ {score} (%)")
        axes.set_title(f"Type-restricted B³ {score} by setting "
                       f"({100 * (1 - self.options['alpha']):g}% bootstrap intervals)")
        axes.legend(fontsize="small")
        figure.tight_layout()
        try:
            figure.savefig(os.fspath(path))
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot write the plot {os.fspath(path)}: {exc}") from None
        finally:
            plt.close(figure)


def _float(value: Fraction | float | None) -> float | None:
    return None if value is None else float(value)


def _pc(value: Fraction | float | None) -> str:
    return "n/a" if value is None else f"{100 * float(value):.2f}"


def _pair(low: float | None, high: float | None) -> tuple[float, float] | None:
    return None if low is None or high is None else (low, high)


def _interval(interval: tuple[float, float] | None) -> str:
    return "" if interval is None else f"[{100 * interval[0]:.2f}, {100 * interval[1]:.2f}]"


def csv_cell(value: Any) -> str:
    """A value as a CSV cell: empty for None, floats at full precision."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


# ============================================================================ running it
@dataclass(frozen=True)
class SettingSpec:
    """One ``--key K --response R --label SYSTEM@DATASET`` triple."""

    key: Any
    response: Any
    label: str


def split_label(label: str, key_name: str) -> tuple[str, str]:
    """``SYSTEM@DATASET`` → (system, dataset); without ``@`` the dataset is the key's name."""
    if not label or label != label.strip():
        raise UsageError(f"invalid setting label {label!r}")
    system, sep, dataset = label.rpartition("@")
    if not sep:
        return label, key_name
    if not system or not dataset:
        raise UsageError(f"invalid setting label {label!r}: expected SYSTEM@DATASET")
    return system, dataset


def _source_id(source: Any) -> Any:
    if isinstance(source, (str, os.PathLike)):
        return os.path.realpath(os.fspath(source))
    if isinstance(source, (list, tuple)) and all(isinstance(s, (str, os.PathLike)) for s in source):
        return tuple(os.path.realpath(os.fspath(s)) for s in source)
    return id(source)


def compare(
    settings: Sequence[SettingSpec | tuple[Any, Any, str]],
    *,
    metrics: str | Sequence[str] | None = None,
    types: str | Sequence[str] | None = None,
    rules: Any = None,
    predicates: dict[str, Any] | None = None,
    in_domain: str | None = None,
    gaps: Sequence[tuple[str, str]] = (),
    permutations: int = 10_000,
    bootstrap: int = 10_000,
    seed: int | None = None,
    alpha: float = 0.1,
    score: str = "f1",
    score_options: dict[str, Any] | None = None,
    progress: Callable[[str], None] | None = None,
) -> Comparison:
    """Score every setting and compare them (see the module's description).

    ``settings``: (key, response, label) triples, labels ``SYSTEM@DATASET``. ``metrics``:
    aggregate metrics (default muc, bcub, ceafe, conll); ``types``/``rules``/``predicates``:
    the mention types of ``by_type`` (default: every built-in type). ``in_domain`` (a dataset
    name) or ``gaps`` ((in label, out label) pairs) select the gaps. ``score`` is the value
    gaps, tests and intervals use (``f1``, ``recall``, ``precision``; conll is always F1).
    ``score_options`` go to :func:`corefkit.scoring.api.score` (``format``, ``match``, ...).
    """
    from corefkit._version import __version__
    from corefkit.analysis.predicates import resolve_predicates
    from corefkit.scoring.api import parse_metrics
    from corefkit.scoring.api import score as run

    specs = [s if isinstance(s, SettingSpec) else SettingSpec(*s) for s in settings]
    if not specs:
        raise UsageError("no setting given: each is --key FILE --response FILE --label NAME")
    if permutations < 1 or bootstrap < 1:
        raise UsageError("--permutations and --bootstrap must be at least 1")
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must lie between 0 and 1, got {alpha}")
    if score not in SCORES:
        raise UsageError(f"unknown score {score!r}; expected one of {', '.join(SCORES)}")
    if seed is None:
        seed = secrets.randbits(32)  # reported, so that any run can be repeated
    if seed < 0:
        raise UsageError("--seed must not be negative")
    names = parse_metrics(list(DEFAULT_METRICS) if metrics is None else metrics)
    names = [n for n in names if n != BY_TYPE]
    chosen_types = [p.name for p in resolve_predicates(types, rules, predicates)]
    asked = list(dict.fromkeys(names + (list(CONLL_COMPONENTS) if "conll" in names else [])
                               + [BY_TYPE]))
    type_options = {"types": chosen_types, "rules": rules, "predicates": predicates}

    # every designation is checked before any file is read: scoring takes the time
    plans = _plan(specs)
    gap_pairs = _gap_pairs(plans, in_domain, gaps)
    scored: list[Setting] = []
    warnings: list[Repair] = []
    for spec, plan in zip(specs, plans):
        if progress is not None:
            progress(spec.label)
        report = run(spec.key, spec.response, asked, per_document=True,
                     metric_options={BY_TYPE: type_options}, **(score_options or {}))
        warnings.extend(dataclasses.replace(w, message=f"{spec.label}: {w.message}")
                        for w in report.warnings)
        documents = [d.name for d in report.per_document or []]
        scored.append(Setting(spec.label, plan.system, plan.dataset, source_name(spec.key),
                              source_name(spec.response), report, documents))
    statistics = names + [f"{BY_TYPE}.{t}" for t in chosen_types]
    for s in scored:
        for name in statistics:
            stat = statistic(name, s.report)
            s.matrices[name] = np.array([stat.row(d.metrics) for d in s.report.per_document or []],
                                        dtype=np.float64)
            s.scores[name] = exact_score(s.report, name, score)

    # bootstrap replicates: one set of document weights per key, shared by its settings
    groups: dict[str, list[Setting]] = {}
    for s in scored:
        groups.setdefault(s.dataset, []).append(s)
    for dataset, members in groups.items():
        first = members[0].documents
        for other in members[1:]:
            if other.documents != first:
                raise UsageError(f"{members[0].label} and {other.label} do not hold the same "
                                 f"documents of dataset {dataset!r}")
        rng = np.random.default_rng([seed, 2, _stable(dataset)])
        weights = bootstrap_weights(len(first), bootstrap, rng)
        for s in members:
            for name in statistics:
                stat = statistic(name, s.report)
                totals = [w @ s.matrices[name] for w in weights]
                s.replicates[name] = np.concatenate(
                    [np.where(stat.defined(t), stat.value(t, score), np.nan) for t in totals])
                observed = s.scores[name]
                s.intervals[name] = (percentile_interval(s.replicates[name], alpha,
                                                         float(observed))
                                     if observed is not None else None)

    tests: list[PairTest] = []
    for dataset, members in groups.items():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                for name in statistics:
                    score_a, score_b = a.scores[name], b.scores[name]
                    if score_a is None or score_b is None:
                        warnings.append(Repair(
                            "compare.untested", f"no test of {name} between {a.label} and "
                            f"{b.label}: the mention type cannot be decided in their files",
                            action="left out"))
                        continue
                    stat = statistic(name, a.report)
                    # one generator per (pair, metric), named by labels and metric: adding a
                    # metric or a setting leaves every other test's p value unchanged
                    rng = np.random.default_rng([seed, 1, _stable(a.label), _stable(b.label),
                                                 _stable(name)])
                    p, total, exact = permutation_test(a.matrices[name], b.matrices[name], stat,
                                                       score, permutations, rng)
                    test = PairTest(dataset, a.label, b.label, name, float(score_a),
                                    float(score_b), p, total, exact, None, None, alpha)
                    low, high = percentile_interval(a.replicates[name] - b.replicates[name],
                                                    alpha, test.difference) or (None, None)
                    tests.append(dataclasses.replace(test, ci_low=low, ci_high=high))

    found_gaps: list[Gap] = []
    by_label = {s.label: s for s in scored}
    for in_label, out_label in gap_pairs:
        inside, outside = by_label[in_label], by_label[out_label]
        for name in statistics:
            kind = "TGG" if name.startswith(BY_TYPE + ".") else "AGG"
            type_name = name[len(BY_TYPE) + 1:] if kind == "TGG" else None
            si, so = inside.scores[name], outside.scores[name]
            interval = None
            if si is not None and so is not None:
                # independent datasets: the replicates of the two settings are independent
                interval = percentile_interval(
                    inside.replicates[name] - outside.replicates[name], alpha,
                    float(si) - float(so))
            found_gaps.append(Gap(kind, inside.system, name, type_name, in_label, out_label,
                                  _float(si), _float(so), *(interval or (None, None))))

    options = {"metrics": names, "types": chosen_types, "score": score,
               "permutations": permutations, "bootstrap": bootstrap, "seed": seed,
               "alpha": alpha, "in_domain": in_domain,
               "gaps": [list(p) for p in gap_pairs]}
    return Comparison(scored, statistics, chosen_types, found_gaps, tests, options, warnings,
                      __version__)


def _stable(text: str) -> int:
    """A number for a name that is the same in every run (``hash`` of a str is not)."""
    return zlib.crc32(text.encode("utf-8"))


@dataclass(frozen=True)
class _Plan:
    label: str
    system: str
    dataset: str


def _plan(specs: Sequence[SettingSpec]) -> list[_Plan]:
    """System and dataset of every setting, with the rules on labels and keys checked."""
    labels = [s.label for s in specs]
    repeated = sorted({x for x in labels if labels.count(x) > 1})
    if repeated:
        raise UsageError(f"setting label {repeated[0]!r} is given twice")
    plans = []
    datasets_by_key: dict[Any, str] = {}
    keys_by_dataset: dict[str, Any] = {}
    seen: set[tuple[str, str]] = set()
    for spec in specs:
        key_name = source_name(spec.key)
        system, dataset = split_label(spec.label, key_name)
        key_id = _source_id(spec.key)
        if datasets_by_key.setdefault(key_id, dataset) != dataset:
            raise UsageError(f"settings {spec.label!r} and others share the key {key_name} but "
                             f"name different datasets ({datasets_by_key[key_id]!r}, {dataset!r})")
        if keys_by_dataset.setdefault(dataset, key_id) != key_id:
            raise UsageError(f"dataset {dataset!r} is given with two different keys; a dataset "
                             "is one key")
        if (system, dataset) in seen:
            raise UsageError(f"system {system!r} is given twice on dataset {dataset!r}")
        seen.add((system, dataset))
        plans.append(_Plan(spec.label, system, dataset))
    return plans


def _gap_pairs(settings: Sequence[_Plan], in_domain: str | None,
               explicit: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    labels = {s.label: s for s in settings}
    pairs: list[tuple[str, str]] = []
    if in_domain is not None:
        datasets = list(dict.fromkeys(s.dataset for s in settings))
        if in_domain not in datasets:
            raise UsageError(f"--in-domain {in_domain!r} is not a dataset of the settings; "
                             f"datasets: {', '.join(datasets)} (labels are SYSTEM@DATASET)")
        for s in settings:
            if s.dataset != in_domain:
                continue
            pairs += [(s.label, o.label) for o in settings
                      if o.system == s.system and o.dataset != in_domain]
        if not pairs:
            raise UsageError(f"no system has a setting on {in_domain!r} and on another dataset: "
                             "no gap to compute")
    for in_label, out_label in explicit:
        for label in (in_label, out_label):
            if label not in labels:
                raise UsageError(f"--gap: unknown setting label {label!r}; labels: "
                                 f"{', '.join(labels)}")
        if in_label == out_label:
            raise UsageError(f"--gap {in_label} {out_label}: a gap needs two settings")
        if (in_label, out_label) not in pairs:
            pairs.append((in_label, out_label))
    return pairs
