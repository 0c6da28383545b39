"""``AnalysisReport``: what ``corefkit analyze`` found, as a plain dataclass tree.

Its JSON follows ``corefkit/schemas/analysis-report.schema.json``; the table and CSV show the
same content. Scores are fractions in [0, 1] with their exact values as strings (as in the
score report): ``original`` is the response as it is, ``alone`` each category fixed by
itself, ``cumulative`` the categories fixed one after another in the fixed order of
:data:`corefkit.diagnosis.categories.CATEGORIES`, ending at the key (a perfect score).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.analysis.mention_types import TYPES
from corefkit.diagnosis.categories import TITLES
from corefkit.errors import Repair, counted
from corefkit.scoring.metrics.standard import CONLL_COMPONENTS, Counts
from corefkit.scoring.report import MetricResult, fraction_text

SIZE_BUCKETS = ("1", "2", "3-4", "5-9", "10+")
DEFAULT_TABLE_LIMIT = 5


def size_bucket(size: int) -> str:
    """The entity-size bucket an error is counted in."""
    if size <= 2:
        return str(max(size, 1))
    return "3-4" if size <= 4 else "5-9" if size <= 9 else "10+"


@dataclass
class ErrorMention:
    """A mention of an error, as one side's document has it."""

    side: str                   # "key" or "response"
    text: str
    tokens: list[int]           # token indices in that side's document
    sentence: int | None
    line: int | None            # source line where the mention starts, where the reader set it
    file: str | None
    type: str                   # mention type (corefkit.analysis.mention_types)

    def to_json(self) -> dict[str, Any]:
        return {"side": self.side, "text": self.text, "tokens": self.tokens,
                "sentence": self.sentence, "line": self.line, "file": self.file,
                "type": self.type}


@dataclass
class AnalysisError:
    """One error: its category, document, location, mentions, and what it is counted by."""

    category: str
    document: str
    file: str | None
    line: int | None
    mentions: list[ErrorMention]
    entity_size: int
    mention_type: str

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "document": self.document, "file": self.file,
                "line": self.line, "entity_size": self.entity_size,
                "mention_type": self.mention_type,
                "mentions": [m.to_json() for m in self.mentions]}

    def mentions_text(self, arrow: str = "->", more: str = "...") -> str:
        """The error's mentions quoted: a span error as key ``arrow`` response, others up to
        four (``more`` and the count after that)."""
        if self.category == "span_error" and len(self.mentions) == 2:
            return f'"{self.mentions[0].text}" {arrow} "{self.mentions[1].text}"'
        what = " | ".join(f'"{m.text}"' for m in self.mentions[:4])
        if len(self.mentions) > 4:
            what += f" | {more} ({counted(len(self.mentions), 'mention')})"
        return what

    def describe(self) -> str:
        where = f"{self.file or '-'}:{self.line}" if self.line is not None else self.file or "-"
        return f"{where}  [{self.document}]  {self.mentions_text()}"


@dataclass
class Scores:
    """MUC, B³ and CEAFe counts of a state; CoNLL F1 is the mean of their F1."""

    counts: dict[str, Counts]

    @property
    def conll(self) -> Fraction:
        return sum((self.counts[m].f1 for m in CONLL_COMPONENTS), Fraction(0)) / 3

    def to_json(self) -> dict[str, Any]:
        out = {m: MetricResult(m, self.counts[m]).to_json() for m in CONLL_COMPONENTS}
        out["conll"] = MetricResult("conll", f1_only=self.conll).to_json()
        return out


@dataclass
class CategoryResult:
    """A category: how many errors, and the scores with only its errors fixed."""

    category: str
    count: int
    alone: Scores
    delta: Fraction             # CoNLL F1 gained by fixing the category alone

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "title": TITLES[self.category], "count": self.count,
                "scores": self.alone.to_json(), "delta": float(self.delta),
                "exact": {"delta": fraction_text(self.delta)}}


@dataclass
class Step:
    """The scores once a category and every one before it are fixed."""

    category: str
    scores: Scores
    delta: Fraction             # CoNLL F1 gained by this step

    def to_json(self) -> dict[str, Any]:
        return {"category": self.category, "title": TITLES[self.category],
                "scores": self.scores.to_json(), "delta": float(self.delta),
                "exact": {"delta": fraction_text(self.delta)}}


@dataclass
class DocumentAnalysis:
    """One document's error counts and original scores."""

    name: str
    file: str | None
    counts: dict[str, int]
    original: dict[str, Counts]

    def to_json(self) -> dict[str, Any]:
        return {"document": self.name, "file": self.file, "counts": self.counts,
                "original": Scores(self.original).to_json()}


@dataclass
class AnalysisReport:
    """Everything ``corefkit analyze`` found; the same content as its JSON output."""

    key: str
    response: str
    options: dict[str, Any]
    documents: int
    categories: list[str]
    original: Scores
    results: list[CategoryResult]
    cumulative: list[Step]
    by_type: dict[str, dict[str, int]]
    by_size: dict[str, dict[str, int]]
    per_document: list[DocumentAnalysis]
    errors: list[AnalysisError]
    warnings: list[Repair] = field(default_factory=list)
    version: str = ""

    @property
    def counts(self) -> dict[str, int]:
        return {r.category: r.count for r in self.results}

    def listed(self, limit: int | None) -> list[AnalysisError]:
        """The errors, at most ``limit`` per category (None: all), in report order."""
        if limit is None:
            return list(self.errors)
        seen: Counter[str] = Counter()
        out = []
        for e in self.errors:
            if seen[e.category] < limit:
                seen[e.category] += 1
                out.append(e)
        return out

    # ------------------------------------------------------------------ JSON
    def to_json(self, limit: int | None = None) -> dict[str, Any]:
        errors = self.listed(limit)
        return {
            "corefkit_version": self.version, "key": self.key, "response": self.response,
            "options": self.options, "documents": self.documents,
            "categories": list(self.categories), "counts": self.counts,
            "original": self.original.to_json(),
            "alone": [r.to_json() for r in self.results],
            "cumulative": [s.to_json() for s in self.cumulative],
            "by_mention_type": self.by_type, "by_entity_size": self.by_size,
            "per_document": [d.to_json() for d in self.per_document],
            "errors": [e.to_json() for e in errors],
            "errors_total": len(self.errors), "errors_listed": len(errors),
            "warnings": [str(w) for w in self.warnings],
        }

    # ------------------------------------------------------------------ table
    def to_table(self, limit: int | None = DEFAULT_TABLE_LIMIT) -> str:
        o = self.original
        total = (f"CoNLL F1: {_pct(o.conll)} (MUC {_pct(o.counts['muc'].f1)}, "
                 f"B3 {_pct(o.counts['bcub'].f1)}, CEAFe {_pct(o.counts['ceafe'].f1)})")
        lines = [f"key: {self.key}", f"response: {self.response}",
                 f"documents: {self.documents}", total, ""]
        header = (f"{'category':<32} {'errors':>7} {'F1 alone':>9} {'gain':>7} "
                  f"{'F1 cumul.':>10} {'gain':>7}")
        lines += [header, "-" * len(header)]
        for r, s in zip(self.results, self.cumulative):
            lines.append(f"{TITLES[r.category]:<32} {r.count:>7} {_pct(r.alone.conll):>9} "
                         f"{_signed(r.delta):>7} {_pct(s.scores.conll):>10} "
                         f"{_signed(s.delta):>7}")
        lines += ["", *self._breakdown("mention type", self.by_type, list(TYPES)),
                  "", *self._breakdown("entity size", self.by_size, list(SIZE_BUCKETS))]
        if len(self.per_document) > 1:
            lines += ["", *self._documents()]
        listed = self.listed(limit)
        if listed:
            more = f" (at most {limit} per category)" if limit is not None else ""
            lines += ["", f"errors{more}:"]
            current = None
            for e in listed:
                if e.category != current:
                    current = e.category
                    lines.append(f"  {TITLES[e.category]}")
                lines.append(f"    {e.describe()}")
        return "\n".join(lines) + "\n"

    def _breakdown(self, title: str, table: dict[str, dict[str, int]],
                   columns: list[str]) -> list[str]:
        header = f"{'by ' + title:<32}" + "".join(f"{c:>9}" for c in columns)
        rows = [header, "-" * len(header)]
        for category in self.categories:
            values = table.get(category, {})
            rows.append(f"{TITLES[category]:<32}"
                        + "".join(f"{values.get(c, 0):>9}" for c in columns))
        return rows

    def _documents(self) -> list[str]:
        short = [c for c in self.categories if any(d.counts.get(c) for d in self.per_document)]
        header = f"{'document':<32} {'CoNLL':>7}" + "".join(f"{_abbrev(c):>7}" for c in short)
        rows = [header, "-" * len(header)]
        for d in self.per_document:
            rows.append(f"{d.name[:32]:<32} {_pct(Scores(d.original).conll):>7}"
                        + "".join(f"{d.counts.get(c, 0):>7}" for c in short))
        return rows

    # ------------------------------------------------------------------ CSV
    def to_csv(self) -> str:
        """Rows ``section,category,group,count,conll_f1,gain`` for counts (``count``, by
        ``mention_type``, ``entity_size``, ``document``) and costs (``alone``,
        ``cumulative``; ``original`` first)."""
        buffer = io.StringIO()
        w = csv.writer(buffer, lineterminator="\n")
        w.writerow(["section", "category", "group", "count", "conll_f1", "gain"])
        w.writerow(["original", "", "", "", repr(float(self.original.conll)), ""])
        for r in self.results:
            w.writerow(["alone", r.category, "", r.count, repr(float(r.alone.conll)),
                        repr(float(r.delta))])
        for s in self.cumulative:
            w.writerow(["cumulative", s.category, "", "", repr(float(s.scores.conll)),
                        repr(float(s.delta))])
        for section, table in (("mention_type", self.by_type), ("entity_size", self.by_size)):
            for category in self.categories:
                for group, n in table.get(category, {}).items():
                    w.writerow([section, category, group, n, "", ""])
        for d in self.per_document:
            for category, n in d.counts.items():
                w.writerow(["document", category, d.name, n,
                            repr(float(Scores(d.original).conll)), ""])
        return buffer.getvalue()


def _pct(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}"


def _signed(value: Fraction) -> str:
    return f"{float(value) * 100:+.2f}"


def _abbrev(category: str) -> str:
    """``conflated_entities`` -> ``CE``: a column heading."""
    return "".join(part[0] for part in category.split("_")).upper()


def build_report(*, key: str, response: str, options: dict[str, Any], categories: list[str],
                 documents: list[DocumentAnalysis], errors: list[AnalysisError],
                 scenarios: dict[tuple[str, ...], dict[str, Counts]],
                 warnings: list[Repair], version: str) -> AnalysisReport:
    """The report from the documents' results (``scenarios``: fixed categories -> summed
    counts, for none, each alone, and each prefix of ``categories``)."""
    counts = Counter(e.category for e in errors)
    original = Scores(scenarios[()])
    results = [CategoryResult(c, counts[c], Scores(scenarios[(c,)]),
                              Scores(scenarios[(c,)]).conll - original.conll)
               for c in categories]
    cumulative = []
    before = original.conll
    for n, c in enumerate(categories):
        scores = Scores(scenarios[tuple(categories[:n + 1])])
        cumulative.append(Step(c, scores, scores.conll - before))
        before = scores.conll
    by_type: dict[str, dict[str, int]] = {c: {} for c in categories}
    by_size: dict[str, dict[str, int]] = {c: {} for c in categories}
    for e in errors:
        row = by_type.setdefault(e.category, {})
        row[e.mention_type] = row.get(e.mention_type, 0) + 1
        row = by_size.setdefault(e.category, {})
        bucket = size_bucket(e.entity_size)
        row[bucket] = row.get(bucket, 0) + 1
    return AnalysisReport(key, response, options, len(documents), list(categories), original,
                          results, cumulative, by_type, by_size, documents, errors, warnings,
                          version)
