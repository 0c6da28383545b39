"""``ScoreReport`` and its renderings: table, JSON, CSV and the reference scorer's text.

The JSON object follows ``corefkit/schemas/score-report.schema.json``. Values are floats in
[0, 1]; the exact fractions behind them are given as strings under ``exact`` so that a
reader can check a score to the last digit.
"""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from corefkit.errors import Repair
from corefkit.scoring import printing
from corefkit.scoring.metrics.standard import BlancCounts, Counts

RULE = "-" * 74
# the metrics of Hugging Face evaluate's coval, in its order, and those of its conll_score
COVAL_METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")
CONLL_PARTS = ("muc", "bcub", "ceafe")


def fraction_text(value: int | Fraction) -> str:
    """``"5/9"``, ``"1"``, ``"0"``: the exact value as a string."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def json_number(value: int | Fraction) -> int | float:
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


@dataclass
class MetricResult:
    """One metric's corpus-level (or document-level) counts and scores."""

    name: str
    # additive counts with recall / precision / f1 (Counts, BlancCounts, a family's own type)
    counts: Any = None
    f1_only: Fraction | None = None  # for ``conll``, an average of F1 values

    @property
    def recall(self) -> Fraction | None:
        return None if self.counts is None else self.counts.recall

    @property
    def precision(self) -> Fraction | None:
        return None if self.counts is None else self.counts.precision

    @property
    def f1(self) -> Fraction:
        if self.counts is None:
            assert self.f1_only is not None
            return self.f1_only
        return self.counts.f1

    def to_json(self) -> dict[str, Any]:
        if self.counts is None:
            return {"f1": float(self.f1), "exact": {"f1": fraction_text(self.f1)}}
        if hasattr(self.counts, "to_json"):  # a metric family with its own shape (dominant)
            return self.counts.to_json()
        c = self.counts
        out: dict[str, Any] = {
            "recall": float(c.recall), "precision": float(c.precision), "f1": float(c.f1),
        }
        if isinstance(c, BlancCounts):
            # BLANC's recall and precision are averages of two parts: the counts given here
            # are their exact values as numerator/denominator, the parts follow.
            out.update(
                recall_num=c.recall.numerator, recall_den=c.recall.denominator,
                precision_num=c.precision.numerator, precision_den=c.precision.denominator,
            )
            out["coreference"] = _counts_json(c.coref)
            out["non_coreference"] = _counts_json(c.noncoref)
        else:
            out.update(
                recall_num=json_number(c.recall_num), recall_den=json_number(c.recall_den),
                precision_num=json_number(c.precision_num),
                precision_den=json_number(c.precision_den),
            )
        out["exact"] = {
            "recall": fraction_text(c.recall), "precision": fraction_text(c.precision),
            "f1": fraction_text(c.f1),
        }
        if isinstance(c, Counts):
            out["exact"].update(
                recall_num=fraction_text(c.recall_num), recall_den=fraction_text(c.recall_den),
                precision_num=fraction_text(c.precision_num),
                precision_den=fraction_text(c.precision_den),
            )
        return out


def _counts_json(c: Counts) -> dict[str, Any]:
    return {
        "recall": float(c.recall), "precision": float(c.precision), "f1": float(c.f1),
        "recall_num": json_number(c.recall_num), "recall_den": json_number(c.recall_den),
        "precision_num": json_number(c.precision_num),
        "precision_den": json_number(c.precision_den),
    }


@dataclass
class DocumentResult:
    name: str
    metrics: dict[str, MetricResult]


@dataclass
class ScoreReport:
    """Everything ``corefkit score`` found; the same content as its JSON output."""

    key: str
    response: str
    options: dict[str, Any]
    documents: int
    metrics: dict[str, MetricResult]
    per_document: list[DocumentResult] | None = None
    warnings: list[Repair] = field(default_factory=list)
    repeated_response_mentions: int = 0
    repeated_key_mentions: int = 0
    version: str = ""
    identification: Counts = field(default_factory=Counts)  # mention identification
    explanations: list[dict[str, Any]] | None = None  # UA scoring with explain=True
    alignment: Any = None  # corefkit.alignment.AlignmentSummary when responses were aligned

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "corefkit_version": self.version,
            "key": self.key,
            "response": self.response,
            "options": self.options,
            "documents": self.documents,
            "metrics": {name: m.to_json() for name, m in self.metrics.items()},
            "repeated_mentions_removed": {
                "response": self.repeated_response_mentions, "key": self.repeated_key_mentions,
            },
            "warnings": [str(w) for w in self.warnings],
        }
        if self.per_document is not None:
            out["per_document"] = [
                {"document": d.name, "metrics": {n: m.to_json() for n, m in d.metrics.items()}}
                for d in self.per_document
            ]
        if self.explanations is not None:
            out["explain"] = self.explanations
        if self.alignment is not None:
            out["alignment"] = self.alignment.to_json()
        return out

    # ------------------------------------------------------------------ flat dict
    def as_dict(self, *, coval: bool = False, exact: bool = False) -> dict[str, Any]:
        """The scores as one flat dict under the key names of Hugging Face ``evaluate``'s
        ``coval`` metric, so that replacing ``coval.compute(...)`` is one line.

        ``"mentions/recall"``, ``"mentions/precision"``, ``"mentions/f1"`` (mention
        identification), the same three for ``muc``, ``bcub``, ``ceafe`` and ``lea``, in
        [0, 1]; ``"conll_score"``, the mean F1 of MUC, B³ and CEAFe in [0, 100] (coval's
        scale; present when the three are). Other metrics reported follow the same pattern
        (``"ceafm/f1"``, ``"blanc/recall"``), after coval's. ``coval=True`` keeps coval's
        keys only, in its order; ``exact=True`` gives Fractions instead of floats.
        """
        values: dict[str, Any] = {}

        def put(name: str, scores: Any) -> None:
            for part in ("recall", "precision", "f1"):
                value = getattr(scores, part, None)
                if isinstance(value, (int, Fraction)):
                    values[f"{name}/{part}"] = value

        put("mentions", self.identification)
        names = [n for n in COVAL_METRICS if n in self.metrics]
        if not coval:
            names += [n for n in self.metrics if n not in COVAL_METRICS and n != "conll"]
        for name in names:
            if name != "mentions":
                put(name, self.metrics[name])
        if all(n in self.metrics for n in CONLL_PARTS):
            values["conll_score"] = sum((self.metrics[n].f1 for n in CONLL_PARTS),
                                        Fraction(0)) / 3 * 100
        elif "conll" in self.metrics and self.metrics["conll"].f1 is not None:
            # asked for alone: its components were computed but are not reported
            values["conll_score"] = Fraction(self.metrics["conll"].f1) * 100
        if exact:
            return {k: Fraction(v) for k, v in values.items()}
        return {k: float(v) for k, v in values.items()}

    # ------------------------------------------------------------------ table
    def to_table(self) -> str:
        lines = [
            f"key: {self.key}",
            f"response: {self.response}",
            f"documents: {self.documents}",
            "",
        ]
        doubles = self.options.get("semantics") in printing.PYTHON_PEERS
        lines += _table_rows(self.metrics, doubles)
        if self.per_document is not None:
            for doc in self.per_document:
                lines += ["", f"document: {doc.name}"]
                lines += _table_rows(doc.metrics, doubles)
        if self.alignment is not None:
            lines += ["", *self.alignment.lines()]
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------------ CSV
    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["document", "metric", "recall", "precision", "f1", "recall_num",
                         "recall_den", "precision_num", "precision_den"])
        rows = [("*", self.metrics)]
        if self.per_document is not None:
            rows += [(d.name, d.metrics) for d in self.per_document]
        for doc, metrics in rows:
            for name, m in metrics.items():
                # a family scored in parts gives a row per part (by_type: by_type.TYPE)
                parts = (m.counts.csv_rows() if hasattr(m.counts, "csv_rows")
                         else [(name, m.to_json())])
                for row_name, data in parts:
                    writer.writerow([doc, row_name] + [
                        _csv_value(data.get(k)) for k in ("recall", "precision", "f1",
                                                          "recall_num", "recall_den",
                                                          "precision_num", "precision_den")
                    ])
        return buffer.getvalue()

    # ------------------------------------------------------------------ reference text
    def without_reference(self) -> list[str]:
        """The metrics reported that the reference scorer prints no block for (``mentions``,
        ``conll``, ``dominant``, ...): :meth:`to_reference` leaves them out."""
        return [n for n, m in self.metrics.items()
                if n in ("mentions", "conll") or not isinstance(m.counts, (Counts, BlancCounts))]

    def to_reference(self) -> str:
        """The reference scorer's ``TOTALS`` block(s), byte for byte.

        One metric gives exactly what ``scorer.pl METRIC key response none`` prints after its
        version line; several give the blocks in order, each after ``METRIC name:`` as
        ``scorer.pl all`` does. ``mentions``, ``conll`` and ``dominant`` have no block of
        their own in the reference scorer and are left out.
        """
        blocks = [(n, m) for n, m in self.metrics.items() if n not in self.without_reference()]
        out = []
        for name, m in blocks:
            if len(blocks) > 1:
                out.append(f"\nMETRIC {name}:\n")
            out.append("\n====== TOTALS =======\n")
            out.append("Identification of Mentions: " + _show_rpf(self.identification))
            if isinstance(m.counts, BlancCounts):
                out.append("\nCoreference:\n")
                out.append("Coreference links: " + _show_rpf(m.counts.coref))
                out.append("Non-coreference links: " + _show_rpf(m.counts.noncoref))
                out.append("BLANC: " + _show_blanc(m.counts))
            else:
                assert isinstance(m.counts, Counts)
                out.append("Coreference: " + _show_rpf(m.counts))
        return "".join(out)


def _csv_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _percent(value: Fraction | None) -> str:
    return "" if value is None else f"{float(value) * 100:.2f}"


def _printed(metrics: dict[str, MetricResult], name: str, m: MetricResult,
             doubles: bool) -> tuple[str, str, str]:
    """Recall, precision and F1 as printed: as the Python peers print them under their
    semantics (:mod:`corefkit.scoring.printing`), else the exact value's nearest double."""
    if doubles:
        if m.counts is None and name == "conll":
            conll = printing.conll_doubles(metrics)
            if conll is not None:
                return "", "", "%.2f" % conll
        found = printing.metric_doubles(m.counts) if m.counts is not None else None
        if found is not None:
            r, p, f = found
            return printing.percent(r), printing.percent(p), printing.percent(f)
    return _percent(m.recall), _percent(m.precision), _percent(m.f1)


def _table_rows(metrics: dict[str, MetricResult], doubles: bool = False) -> list[str]:
    header = f"{'metric':<10} {'recall':>8} {'precision':>10} {'F1':>8}   counts (R num/den, P num/den)"
    lines = [header, "-" * len(header)]
    for name, m in metrics.items():
        counts = ""
        if isinstance(m.counts, Counts):
            c = m.counts
            counts = (f"{_short(c.recall_num)}/{_short(c.recall_den)}, "
                      f"{_short(c.precision_num)}/{_short(c.precision_den)}")
        elif isinstance(m.counts, BlancCounts):
            b = m.counts
            # split-antecedent credit makes numerators fractional: shown like the others
            counts = (f"links {_short(b.coref.recall_num)}/{_short(b.coref.recall_den)}, "
                      f"{_short(b.coref.precision_num)}/{_short(b.coref.precision_den)}; "
                      f"non-links {_short(b.noncoref.recall_num)}/{_short(b.noncoref.recall_den)}, "
                      f"{_short(b.noncoref.precision_num)}/{_short(b.noncoref.precision_den)}")
        recall, precision, f1 = _printed(metrics, name, m, doubles)
        lines.append(f"{name:<10} {recall:>8} {precision:>10} {f1:>8}   {counts}".rstrip())
    for m in metrics.values():  # families with a breakdown of their own (dominant: per class)
        if hasattr(m.counts, "table_lines"):
            lines += m.counts.table_lines()
    return lines


def _short(value: int | Fraction) -> str:
    """A count of the table: integers exactly; other values as their exact decimal when it
    has at most :data:`EXACT_PLACES` places (``4.5``), else rounded to two places and marked
    ``~`` (``~23390.46``: B³ and LEA numerators are sums of fractions); JSON and CSV keep the
    exact fraction."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    scaled = value * 10 ** EXACT_PLACES
    if scaled.denominator == 1:
        return str(Decimal(scaled.numerator).scaleb(-EXACT_PLACES).normalize())
    rounded = round(value * 100)  # half to even, exactly
    return "~" + str(Decimal(rounded).scaleb(-2))


EXACT_PLACES = 4


# ---------------------------------------------------------------------------- Perl style
def perl_number(value: float | int | Fraction) -> str:
    """A number as Perl prints it: integers plainly, other values with ``%.15g``."""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        value = float(value)
    if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return "%.15g" % value


def _perl_value(value: int | Fraction) -> float | int:
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else float(value)


def _perl_percent(value: float | Fraction) -> str:
    # int($x * 10000) / 100: truncated to two decimals, printed without trailing zeros
    return perl_number(int(value * 10000) / 100)


def _show_rpf_values(numrec: float | Fraction, denrec: float | Fraction,
                     numpre: float | Fraction, denpre: float | Fraction,
                     f1: float | Fraction | None = None) -> str:
    """The reference scorer's ``ShowRPF``, computed in doubles as Perl does."""
    precision = numpre / denpre if denpre else 0
    recall = numrec / denrec if denrec else 0
    if f1 is None:
        f1 = 0
        if recall + precision:
            f1 = 2 * precision * recall / (precision + recall)
    return (f"Recall: ({perl_number(numrec)} / {perl_number(denrec)}) {_perl_percent(recall)}%"
            f"\tPrecision: ({perl_number(numpre)} / {perl_number(denpre)}) "
            f"{_perl_percent(precision)}%"
            f"\tF1: {_perl_percent(f1)}%\n{RULE}\n")


def _show_rpf(c: Counts) -> str:
    return _show_rpf_values(_perl_value(c.recall_num), _perl_value(c.recall_den),
                            _perl_value(c.precision_num), _perl_value(c.precision_den))


def _show_blanc(b: BlancCounts) -> str:
    """The BLANC line of ``ScoreBLANC`` (reference scorer v8.01), same double arithmetic."""
    c, n = b.coref, b.noncoref
    ra = c.recall_num / c.recall_den if c.recall_den else -1
    rr = n.recall_num / n.recall_den if n.recall_den else -1
    pa = c.precision_num / c.precision_den if c.precision_den else 0
    pr = n.precision_num / n.precision_den if n.precision_den else 0
    r = (ra + rr) / 2
    p = (pa + pr) / 2
    fa = 2 * pa * ra / (pa + ra) if (pa + ra) else 0
    fr = 2 * pr * rr / (pr + rr) if (pr + rr) else 0
    f1 = (fa + fr) / 2
    if ra == -1 and rr == -1:
        r = p = f1 = 0
    elif ra == -1:
        r, p, f1 = rr, pr, fr
    elif rr == -1:
        r, p, f1 = ra, pa, fa
    return _show_rpf_values(r, 1, p, 1, f1)
