"""``AgreementReport``: what ``corefkit agree`` found, and its renderings (table, JSON, CSV).

Every value is kept exact (fractions); the JSON gives floats and, under ``exact``, the
fractions as strings; the table rounds for reading only (percent for F1, three decimals for
κ and α). ``docs/reference/agreement.md`` defines every measure.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.errors import Repair
from corefkit.evaluation.agreement.coefficients import Alpha
from corefkit.evaluation.agreement.disagreements import (
    CATEGORIES,
    TITLES,
    Disagreement,
    TypeCount,
)
from corefkit.evaluation.agreement.merge import MergeSummary
from corefkit.evaluation.agreement.scores import CHAIN_METRICS, MATCHES, Symmetric
from corefkit.evaluation.agreement.tokens import SAME, TextNote
from corefkit.model import Document

CHAIN_TITLES = {"muc": "MUC", "bcub": "B³", "ceafe": "CEAFe", "blanc": "BLANC", "lea": "LEA",
                "conll": "CoNLL"}


def text(value: Fraction | int | None) -> str | None:
    """The exact value as ``"p/q"`` (None stays None)."""
    if value is None:
        return None
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def number(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def mean(values: list[Fraction | None]) -> Fraction | None:
    """The mean of the values, None if there is none or one is undefined."""
    if not values or any(v is None for v in values):
        return None
    return sum((v for v in values if v is not None), Fraction(0)) / len(values)


def alpha_json(alpha: Alpha) -> dict[str, Any]:
    return {"value": number(alpha.value), "units": alpha.units, "values": alpha.values,
            "exact": {"value": text(alpha.value), "observed": text(alpha.observed),
                      "expected": text(alpha.expected)}}


@dataclass
class PairAgreement:
    """Two annotators over the documents both annotated (or one document)."""

    first: str
    second: str
    documents: int
    mentions: dict[str, Symmetric]          # matching -> mention F1
    chains: dict[str, Symmetric]            # metric -> F1 under the report's matching
    kappa: Fraction | None                  # Cohen's κ, tokens in or out of a mention
    alpha: Alpha                            # Krippendorff's α, MASI, mentions both marked
    counts: tuple[int, int, int] = (0, 0, 0)   # first's mentions, second's, matched exactly

    @property
    def name(self) -> str:
        return f"{self.first}–{self.second}"

    def to_json(self) -> dict[str, Any]:
        def sym(s: Symmetric) -> dict[str, Any]:
            return {"f1": float(s.f1), "first_as_key": float(s.forward),
                    "second_as_key": float(s.backward),
                    "exact": {"f1": text(s.f1), "first_as_key": text(s.forward),
                              "second_as_key": text(s.backward)}}

        return {"first": self.first, "second": self.second, "documents": self.documents,
                "mentions": {m: sym(s) for m, s in self.mentions.items()},
                "chains": {m: sym(s) for m, s in self.chains.items()},
                "kappa": number(self.kappa), "alpha_masi": alpha_json(self.alpha),
                "mention_counts": {"first": self.counts[0], "second": self.counts[1],
                                   "matched_exactly": self.counts[2]},
                "exact": {"kappa": text(self.kappa)}}


@dataclass
class DocumentAgreement:
    """One document: its annotators, each pair, and the coefficients of all of them."""

    name: str
    annotators: list[str]
    pairs: list[PairAgreement]
    fleiss: Fraction | None
    alpha: Alpha
    disagreements: dict[str, int]
    text: list[TextNote] = field(default_factory=list)

    def mention_f1(self, match: str = "exact") -> Fraction | None:
        return mean([p.mentions[match].f1 for p in self.pairs])

    def chain_f1(self, metric: str = "conll") -> Fraction | None:
        return mean([p.chains[metric].f1 for p in self.pairs])

    def to_json(self) -> dict[str, Any]:
        return {"document": self.name, "annotators": self.annotators,
                "pairs": [p.to_json() for p in self.pairs], "fleiss_kappa": number(self.fleiss),
                "alpha_masi": alpha_json(self.alpha), "disagreements": self.disagreements,
                "text": [n.to_json() for n in self.text],
                "exact": {"fleiss_kappa": text(self.fleiss)}}


@dataclass
class TypeAgreement:
    """Exact mention agreement restricted to one mention type or entity type, per pair:
    F1 = (matched mentions of the type on both sides) / (mentions of the type on both)."""

    kind: str                                   # mention | entity
    type: str
    pairs: list[tuple[str, str, TypeCount]]

    @staticmethod
    def f1(c: TypeCount) -> Fraction | None:
        total = c.first + c.second
        return Fraction(c.first_matched + c.second_matched, total) if total else None

    def average(self) -> Fraction | None:
        return mean([self.f1(c) for _, _, c in self.pairs])

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "type": self.type, "f1": number(self.average()),
                "pairs": [{"first": a, "second": b, "first_mentions": c.first,
                           "second_mentions": c.second, "first_matched": c.first_matched,
                           "second_matched": c.second_matched, "f1": number(self.f1(c)),
                           "exact": {"f1": text(self.f1(c))}} for a, b, c in self.pairs],
                "exact": {"f1": text(self.average())}}


@dataclass
class AgreementReport:
    """Everything ``corefkit agree`` measured (see the module's description)."""

    annotators: list[str]
    sources: dict[str, str]
    options: dict[str, Any]
    pairs: list[PairAgreement]
    documents: list[DocumentAgreement]
    fleiss: Fraction | None                 # Fleiss' κ over the documents all annotated
    alpha: Alpha                            # α MASI of all annotators, same documents
    complete_documents: int                 # documents every annotator annotated
    types: list[TypeAgreement] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    text: list[TextNote] = field(default_factory=list)
    merge: MergeSummary | None = None
    written: list[str] = field(default_factory=list)
    losses: list[str] = field(default_factory=list)
    warnings: list[Repair] = field(default_factory=list)
    # each document's annotations on their common tokens (label -> document), in the order
    # of ``documents``: what the HTML view shows
    annotations: list[dict[str, Document]] = field(default_factory=list, repr=False)

    # ------------------------------------------------------------------ averages
    def average_mentions(self, match: str) -> Fraction | None:
        return mean([p.mentions[match].f1 for p in self.pairs])

    def average_chains(self, metric: str) -> Fraction | None:
        return mean([p.chains[metric].f1 for p in self.pairs])

    def average_kappa(self) -> Fraction | None:
        return mean([p.kappa for p in self.pairs])

    def pair(self, first: str, second: str) -> PairAgreement:
        for p in self.pairs:
            if {p.first, p.second} == {first, second}:
                return p
        raise KeyError(f"no pair {first}, {second}")

    def disagreement_counts(self) -> dict[str, dict[str, int]]:
        """Per pair name, per category."""
        found: dict[str, dict[str, int]] = {p.name: {c: 0 for c in CATEGORIES}
                                            for p in self.pairs}
        for d in self.disagreements:
            found.setdefault(f"{d.first}–{d.second}", {c: 0 for c in CATEGORIES})[d.category] += 1
        return found

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        average: dict[str, Any] = {
            "mentions": {m: number(self.average_mentions(m)) for m in MATCHES},
            "chains": {m: number(self.average_chains(m)) for m in CHAIN_METRICS},
            "kappa": number(self.average_kappa()),
            "exact": {"mentions": {m: text(self.average_mentions(m)) for m in MATCHES},
                      "chains": {m: text(self.average_chains(m)) for m in CHAIN_METRICS},
                      "kappa": text(self.average_kappa())}}
        out: dict[str, Any] = {
            "annotators": self.annotators, "sources": self.sources, "options": self.options,
            "pairs": [p.to_json() for p in self.pairs], "average": average,
            "all_annotators": {"documents": self.complete_documents,
                               "fleiss_kappa": number(self.fleiss),
                               "alpha_masi": alpha_json(self.alpha),
                               "exact": {"fleiss_kappa": text(self.fleiss)}},
            "types": [t.to_json() for t in self.types],
            "documents": [d.to_json() for d in self.documents],
            "disagreement_counts": self.disagreement_counts(),
            "disagreements": [d.to_json() for d in self.disagreements],
            "warnings": [str(w) for w in self.warnings]}
        if self.merge is not None:
            out["merge"] = {**self.merge.to_json(), "written": self.written,
                            "losses": self.losses}
        return out

    # ------------------------------------------------------------------ table
    def to_table(self, disagreements: int = 20) -> str:
        """The report as text; ``disagreements``: how many of them to list (0: none)."""
        lines = [f"corefkit agree: {len(self.annotators)} annotators "
                 f"({', '.join(self.annotators)}), {len(self.documents)} documents, chains "
                 f"matched {self.options.get('match', 'exact')}", ""]
        lines += self._pair_table()
        lines += ["", f"all annotators ({self.complete_documents} documents all annotated): "
                      f"Fleiss' κ (tokens) {_coef(self.fleiss)}; Krippendorff's α (MASI) "
                      f"{_coef(self.alpha.value)} over {self.alpha.units} mentions all marked"]
        if self.types:
            lines += ["", "per type (exact mention F1 %, average over pairs)"]
            width = max(len(t.type) for t in self.types) + 8
            lines.append(f"{'type':<{width}} " + " ".join(f"{p.name:>14}" for p in self.pairs)
                         + f" {'average':>9}")
            for t in self.types:
                values = {f"{a}–{b}": self.f1_cell(TypeAgreement.f1(c), c)
                          for a, b, c in t.pairs}
                lines.append(f"{t.kind + ' ' + t.type:<{width}} "
                             + " ".join(f"{values.get(p.name, '–'):>14}" for p in self.pairs)
                             + f" {_pct(t.average()):>9}")
        if len(self.documents) > 1:
            lines += ["", "per document (averages over pairs)"]
            width = max(len(d.name) for d in self.documents) + 2
            lines.append(f"{'document':<{width}} {'mentions':>9} {'CoNLL':>7} {'κ':>7} "
                         f"{'α MASI':>7} {'disagree':>9}")
            for d in self.documents:
                lines.append(f"{d.name:<{width}} {_pct(d.mention_f1()):>9} "
                             f"{_pct(d.chain_f1()):>7} {_coef(d.fleiss):>7} "
                             f"{_coef(d.alpha.value):>7} {sum(d.disagreements.values()):>9}")
        lines += self._disagreement_lines(disagreements)
        changed = [n for n in self.text if n.mode != SAME]
        if changed:
            lines += ["", "tokens"] + [f"  {n.document}: {n.describe()}" for n in changed]
        if self.merge is not None:
            lines += [""] + self.merge.lines()
            lines += [f"  wrote {w}" for w in self.written]
            lines += [f"  lost: {loss}" for loss in self.losses]
        return "\n".join(lines) + "\n"

    @staticmethod
    def f1_cell(value: Fraction | None, c: TypeCount) -> str:
        return f"{_pct(value)} ({c.first}/{c.second})"

    def _pair_table(self) -> list[str]:
        heads = ["docs", "exact", "partial", "head",
                 *(CHAIN_TITLES[m] for m in CHAIN_METRICS), "κ tok", "α MASI", "units"]
        width = max([len(p.name) for p in self.pairs] + [7]) + 2
        lines = ["pairwise (F1 %, each annotator as key in turn; mentions: exact, partial, "
                 "head; chains: " + ", ".join(CHAIN_TITLES[m] for m in CHAIN_METRICS) + ")",
                 f"{'pair':<{width}}" + "".join(f"{h:>8}" for h in heads)]
        for p in self.pairs:
            cells = [str(p.documents), *(_pct(p.mentions[m].f1) for m in MATCHES),
                     *(_pct(p.chains[m].f1) for m in CHAIN_METRICS), _coef(p.kappa),
                     _coef(p.alpha.value), str(p.alpha.units)]
            lines.append(f"{p.name:<{width}}" + "".join(f"{c:>8}" for c in cells))
        if len(self.pairs) > 1:
            cells = ["", *(_pct(self.average_mentions(m)) for m in MATCHES),
                     *(_pct(self.average_chains(m)) for m in CHAIN_METRICS),
                     _coef(self.average_kappa()), "", ""]
            lines.append(f"{'average':<{width}}" + "".join(f"{c:>8}" for c in cells))
        return lines

    def _disagreement_lines(self, limit: int) -> list[str]:
        counts = self.disagreement_counts()
        lines = ["", "disagreements " + ", ".join(f"{c}: {TITLES[c]}" for c in CATEGORIES),
                 f"{'pair':<16}" + "".join(f"{c:>10}" for c in CATEGORIES)]
        for name, per in counts.items():
            lines.append(f"{name:<16}" + "".join(f"{per[c]:>10}" for c in CATEGORIES))
        if limit and self.disagreements:
            shown = self.disagreements[:limit]
            lines.append(f"first {len(shown)} of {len(self.disagreements)} (all in -f json "
                         "and -f csv):")
            for d in shown:
                where = "; ".join(f"{p.annotator} {p.location} {p.text!r}" for p in d.places)
                lines.append(f"  {d.document} {d.first}–{d.second} {d.category}: {d.detail}: "
                             f"{where}")
        return lines

    # ------------------------------------------------------------------ CSV
    def to_csv(self) -> str:
        """One row per value (scope, document, first, second, measure, value, exact) and one
        per disagreement (scope ``disagreement``, the category as the measure, with its
        detail, the locations and the texts of its mentions)."""
        buffer = io.StringIO()
        out = csv.writer(buffer, lineterminator="\n")
        out.writerow(["scope", "document", "first", "second", "measure", "value", "exact",
                      "detail", "locations", "texts"])

        def row(scope: str, doc: str, a: str, b: str, measure: str,
                value: Fraction | None) -> None:
            out.writerow([scope, doc, a, b, measure,
                          "" if value is None else repr(float(value)), text(value) or ""])

        def pair_rows(scope: str, doc: str, p: PairAgreement) -> None:
            for m in MATCHES:
                row(scope, doc, p.first, p.second, f"mentions.{m}", p.mentions[m].f1)
            for m in CHAIN_METRICS:
                row(scope, doc, p.first, p.second, m, p.chains[m].f1)
            row(scope, doc, p.first, p.second, "cohen_kappa", p.kappa)
            row(scope, doc, p.first, p.second, "alpha_masi", p.alpha.value)

        for p in self.pairs:
            pair_rows("pair", "", p)
        for m in MATCHES:
            row("average", "", "", "", f"mentions.{m}", self.average_mentions(m))
        for m in CHAIN_METRICS:
            row("average", "", "", "", m, self.average_chains(m))
        row("average", "", "", "", "cohen_kappa", self.average_kappa())
        row("all", "", "", "", "fleiss_kappa", self.fleiss)
        row("all", "", "", "", "alpha_masi", self.alpha.value)
        for t in self.types:
            for a, b, c in t.pairs:
                row(f"{t.kind}_type", "", a, b, f"mentions.exact.{t.type}", TypeAgreement.f1(c))
        for d in self.documents:
            for p in d.pairs:
                pair_rows("document", d.name, p)
            row("document", d.name, "", "", "fleiss_kappa", d.fleiss)
            row("document", d.name, "", "", "alpha_masi", d.alpha.value)
        for x in self.disagreements:
            out.writerow(["disagreement", x.document, x.first, x.second, x.category, "", "",
                          x.detail, " | ".join(p.location for p in x.places),
                          " | ".join(p.text for p in x.places)])
        return buffer.getvalue()


def _pct(value: Fraction | None) -> str:
    return "–" if value is None else f"{100 * float(value):.2f}"


def _coef(value: Fraction | None) -> str:
    return "–" if value is None else f"{float(value):.3f}"
