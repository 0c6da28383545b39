"""The GAP scorer: a system's pronoun–name decisions against a GAP file, as the official
``gap_scorer.py`` of google-research-datasets/gap-coreference (Webster et al. 2018) scores them.

Every gold example has two pairs (pronoun–A, pronoun–B); each pair is counted once overall and
once in the gender of the example's pronoun (she, her, hers: feminine; he, his, him:
masculine):

* no system decision (the example's ID is missing, or its label is not TRUE/FALSE) → false
  negative, whatever the gold label — the official scorer counts it so;
* gold TRUE, system TRUE → true positive; gold FALSE, system TRUE → false positive;
  gold FALSE, system FALSE → true negative; gold TRUE, system FALSE → false negative.

Precision = TP / (TP + FP), recall = TP / (TP + FN), F1 = 2PR / (P + R), each 0 when its
denominator is 0; the bias is F1(feminine) / F1(masculine), undefined (``-``) when either is 0.
corefkit keeps every value as an exact fraction; the table prints percentages as the official
scorecard does, and ``to_official`` prints the official scorecard itself, byte for byte (its
numbers computed in floating point in the official order). A repeated gold or system ID is
scored once, the first, as the official scorer does; system IDs the gold lacks are ignored.

The system is a prediction TSV (``ID``, ``A-coref``, ``B-coref``; or a file in GAP's own layout,
read by its label columns) or a system's clusters in any format corefkit reads, turned into
decisions by :func:`corefkit.converters.gap.writer.predictions`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.converters.gap.rows import (
    FEMININE,
    MASCULINE,
    GapExample,
    Prediction,
    example_repairs,
    read_predictions,
)
from corefkit.converters.gap.spec import HEADER
from corefkit.converters.gap.writer import load_gold, predictions
from corefkit.converters.io import open_binary
from corefkit.errors import CorefkitError, Repair, UsageError, counted
from corefkit.model import Document

GROUPS = ("overall", MASCULINE, FEMININE)
NAMES = {"overall": "Overall", MASCULINE: "Masculine", FEMININE: "Feminine"}


def _ratio(numerator: int | Fraction, denominator: int | Fraction) -> Fraction:
    return Fraction(numerator) / denominator if denominator else Fraction(0)


@dataclass
class GapCounts:
    """Pair decisions of one group: true/false positives and negatives."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def precision(self) -> Fraction:
        return _ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> Fraction:
        return _ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> Fraction:
        p, r = self.precision, self.recall
        return _ratio(2 * p * r, p + r)

    def add(self, gold: bool, system: bool | None) -> None:
        if system is None or (gold and not system):
            self.fn += 1
        elif gold:
            self.tp += 1
        elif system:
            self.fp += 1
        else:
            self.tn += 1

    def official_floats(self) -> tuple[float, float, float]:
        """(recall, precision, F1) in percent, computed as the official scorer computes them."""
        recall = 100.0 * self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        precision = 100.0 * self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        f1 = (2 * precision * recall / (precision + recall)) if precision + recall else 0.0
        return recall, precision, f1


@dataclass
class GapReport:
    """The GAP scores: counts per group (``overall``, ``masculine``, ``feminine``), the bias,
    how many examples were scored and how many had no system decision, and warnings."""

    gold: str
    system: str
    counts: dict[str, GapCounts] = field(default_factory=lambda: {g: GapCounts() for g in GROUPS})
    examples: int = 0
    missing: int = 0
    warnings: list[Repair] = field(default_factory=list)

    @property
    def bias(self) -> Fraction | None:
        """F1(feminine) / F1(masculine); None when either is 0."""
        masculine, feminine = self.counts[MASCULINE].f1, self.counts[FEMININE].f1
        return feminine / masculine if masculine and feminine else None

    def to_json(self) -> dict[str, Any]:
        """Values as fractions in [0, 1], with counts and exact fraction strings."""
        groups: dict[str, Any] = {}
        for group in GROUPS:
            c = self.counts[group]
            groups[group] = {
                "precision": float(c.precision), "recall": float(c.recall), "f1": float(c.f1),
                "tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn,
                "exact": {"precision": str(c.precision), "recall": str(c.recall),
                          "f1": str(c.f1)}}
        bias = self.bias
        return {"gold": self.gold, "system": self.system, "examples": self.examples,
                "missing": self.missing, "scores": groups,
                "bias": float(bias) if bias is not None else None,
                "bias_exact": str(bias) if bias is not None else None}

    def to_table(self) -> str:
        """Percentages with one decimal, the bias with two, and the counts."""
        head = (f"{'':<10} {'recall':>7} {'precision':>9} {'F1':>6} {'TP':>6} {'FP':>6} "
                f"{'FN':>6} {'TN':>6}")
        rows = [head]
        for group in GROUPS:
            c = self.counts[group]
            rows.append(f"{NAMES[group]:<10} {_percent(c.recall):>7} {_percent(c.precision):>9} "
                        f"{_percent(c.f1):>6} {c.tp:>6} {c.fp:>6} {c.fn:>6} {c.tn:>6}")
        bias = self.bias
        rows.append(f"Bias (F/M): {_fixed(bias, 2) if bias is not None else '-'}")
        rows.append(counted(self.examples, "example") + (
            f", {self.missing} without a system decision" if self.missing else ""))
        return "\n".join(rows)

    def to_official(self) -> str:
        """The scorecard ``gap_scorer.py`` prints (without its final blank line)."""
        lines = []
        f1s: dict[str, float] = {}
        for group in GROUPS:
            c = self.counts[group]
            recall, precision, f1 = c.official_floats()
            f1s[group] = f1
            lines.append(f"{NAMES[group]} recall: {recall:.1f} precision: {precision:.1f} "
                         f"f1: {f1:.1f}")
            lines.append(f"\t\ttp {c.tp:d}\tfp {c.fp:d}")
            lines.append(f"\t\tfn {c.fn:d}\ttn {c.tn:d}")
        bias = "-"
        if f1s[MASCULINE] and f1s[FEMININE]:
            bias = f"{f1s[FEMININE] / f1s[MASCULINE]:.2f}"
        lines.append(f"Bias (F/M): {bias}")
        return "\n".join(lines)


def _fixed(value: Fraction, digits: int) -> str:
    """``value`` rounded half up to ``digits`` decimals (exactly, not through a float)."""
    scaled = value * 10 ** digits
    rounded = int(scaled + Fraction(1, 2)) if scaled >= 0 else -int(-scaled + Fraction(1, 2))
    sign = "-" if rounded < 0 else ""
    whole, part = divmod(abs(rounded), 10 ** digits)
    return f"{sign}{whole}.{part:0{digits}d}" if digits else f"{sign}{whole}"


def _percent(value: Fraction) -> str:
    return _fixed(value * 100, 1)


def score_decisions(gold: Mapping[str, GapExample],
                    system: Mapping[str, tuple[bool | None, bool | None]],
                    report: GapReport) -> GapReport:
    """Count every gold example's two pairs into ``report`` (see the module's text)."""
    for ident, example in gold.items():
        decided = system.get(ident)
        if decided is None:
            report.missing += 1
            decided = (None, None)
        report.examples += 1
        groups = ["overall"] + ([example.gender] if example.gender is not None else [])
        for group in groups:
            report.counts[group].add(example.a_coref, decided[0])
            report.counts[group].add(example.b_coref, decided[1])
    if report.missing:
        report.warnings.append(Repair("gap.missing-prediction",
                                      f"{counted(report.missing, 'example')} "
                                      f"{'has' if report.missing == 1 else 'have'} no system "
                                      "decision; each counts as two missed links "
                                      "(false negatives), as in the official scorer",
                                      file=report.system, action="kept"))
    return report


def _gold_examples(gold: str, report: GapReport) -> dict[str, GapExample]:
    examples = load_gold(gold)
    if not examples:
        raise CorefkitError(f"{gold}: the GAP file holds no example")
    for example in examples.values():
        report.warnings.extend(r for r in example_repairs(example, gold)
                               if r.check == "gap.unknown-pronoun")
    return examples


def _is_prediction_file(path: str) -> bool:
    """True for a TSV of decisions (or a file in GAP's layout), False for other formats."""
    with open_binary(path) as handle:
        head = handle.read(65536).decode("utf-8", errors="replace").lstrip("\ufeff")
    first = next((line for line in head.splitlines() if line.strip()), "")
    fields = first.split("\t")
    if tuple(fields) == HEADER or tuple(fields[:3]) == ("ID", "A-coref", "B-coref"):
        return True
    return len(fields) >= 3 and fields[1].strip().lower() in ("true", "false")


def gap_score(gold: str | os.PathLike[str], system: Any, *, system_format: str | None = None,
              match: str = "contain", lenient: bool = False,
              read_options: dict[str, Any] | None = None) -> GapReport:
    """Score ``system`` against the GAP file ``gold`` (see the module's text).

    ``system``: a prediction TSV path, a path of another format (``system_format``, default
    detected; ``read_options`` for its reader), an iterable of :class:`Document`, or a mapping
    from ID to (A-coref, B-coref). ``match`` says how clusters become decisions.
    """
    gold_path = os.fspath(gold)
    shown = os.fspath(system) if isinstance(system, (str, os.PathLike)) else "<documents>"
    report = GapReport(gold_path, shown)
    examples = _gold_examples(gold_path, report)
    decisions: Mapping[str, tuple[bool | None, bool | None]]
    if isinstance(system, Mapping):
        decisions = system
    elif isinstance(system, (str, os.PathLike)):
        decisions = _decisions_from_path(os.fspath(system), examples, report, system_format,
                                         match, lenient, read_options or {})
    elif isinstance(system, Iterable):
        found, warnings = predictions(_documents(system), examples, match)
        report.warnings.extend(warnings)
        decisions = dict(found)
    else:
        raise UsageError(f"cannot score a {type(system).__name__} as a GAP system")
    return score_decisions(examples, decisions, report)


def _documents(items: Iterable[Any]) -> Iterable[Document]:
    for item in items:
        if not isinstance(item, Document):
            raise UsageError(f"expected Document objects, got {type(item).__name__}")
        yield item


def _decisions_from_path(path: str, examples: dict[str, GapExample], report: GapReport,
                         system_format: str | None, match: str, lenient: bool,
                         read_options: dict[str, Any]
                         ) -> dict[str, tuple[bool | None, bool | None]]:
    from corefkit.converters.registry import read

    prediction_file = system_format is None and os.path.isfile(path) and _is_prediction_file(path)
    if system_format is not None and system_format.lower() in ("gap-predictions", "predictions"):
        prediction_file = True
    if prediction_file:
        with open_binary(path) as handle:
            found, warnings = read_predictions(handle, path)
        report.warnings.extend(warnings)
        return {ident: _pair(p) for ident, p in found.items()}
    docs = read(path, format=system_format, lenient=lenient, **read_options)
    decided, warnings = predictions(docs, examples, match)
    report.warnings.extend(w for w in warnings if w.check != "gap.missing-prediction")
    return dict(decided)


def _pair(prediction: Prediction) -> tuple[bool | None, bool | None]:
    return prediction.a_coref, prediction.b_coref
