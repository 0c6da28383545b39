"""Long-range strata: MUC, B³, LEA, CEAFm, CEAFe (and their CoNLL average) split into buckets
of entity size and of mention distance, with counts that add up exactly to the corpus scores.

The labelled metric ``strata`` (``corefkit score --by entity-size,distance``) gives every
scored mention a *unit* of each metric's recall counts (key mentions) and of its precision
counts (response mentions) such that the units of a side sum to that side's numerator and
denominator exactly. A bucket's counts are the sum of its units, so the buckets of one
dimension add up to the overall numerators and denominators, document by document and over a
corpus (``+``). Which side a bucket is defined on:

* **recall** units are key mentions, bucketed by their *key* entity (its size in the scored
  partition: after the semantics' singleton removal) and by the distance to the previous
  mention of that key entity;
* **precision** units are response mentions, bucketed by their *response* entity and the
  distance to the previous mention of the response entity.

So "recall in the bucket of entities with 11–20 mentions" is the recall over the key entities
of that size, and the precision of that bucket is over the response entities of that size.

Distances are from a mention to the previous mention of the same entity in text order (by
first word; ties by the mention's aligned index): in sentences (0 = the same sentence) and in
words (overt words; empty nodes are not counted). A first mention has no distance: its bucket
is ``first``.

Units, with K(m) / R(m) the key / response entity of mention m, n = |K(m)| (recall side; the
precision side swaps the roles), and m's rank r among the mentions of its entity (0-based):

* B³ (Bagga & Baldwin 1998): num |K(m) ∩ R(m)| / n, den 1.
* MUC (Vilain et al. 1995): the links of an entity are credited to their later mention:
  num 1 when an earlier mention of K(m) lies in R(m) (Σ over K = Σ_j (|K ∩ R_j| − 1),
  the MUC numerator), den 1 unless m is the first mention (Σ = |K| − 1).
* LEA (Moosavi & Strube 2016, eq. 1–2, importance |K|): an entity of n > 1 mentions weighs
  each of its C(n, 2) links 2 / (n − 1); m takes its r links to earlier mentions (den
  2r / (n − 1), Σ = n) and those of them that R(m) also links (num). A singleton gets
  num 1 when the other side has it as a singleton too, den 1 (the scorer's self-link).
* CEAFm, CEAFe (Luo 2005): the document's optimal entity alignment (the one
  :func:`~corefkit.scoring.metrics.standard.ceaf_pairs` gives ``ceafm`` / ``ceafe``) is fixed
  first; CEAFm: num 1 when R(m) is the entity aligned to K(m), den 1; CEAFe: the aligned
  pair's φ4 shared equally among the n mentions of K(m) (num φ4 / n, den 1 / n).

CEAF has no additive decomposition of its own: the optimal alignment of the mentions of one
bucket alone is not the restriction of the document's alignment, so "the CEAF of the long
entities" is not a sub-sum of the corpus CEAF. The units above split the corpus CEAF under
its one alignment; a bucket's CEAF value therefore says how much of the corpus CEAF the
bucket holds, conditional on that alignment (whose ties the solver breaks deterministically).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.errors import UsageError
from corefkit.model import Document, Mention
from corefkit.scoring.align import AlignedDocument, Labeler
from corefkit.scoring.metrics.labelled import LabelledMetric, register_labelled_metric
from corefkit.scoring.metrics.standard import Counts, ceaf_pairs
from corefkit.scoring.partition import Contingency, Partition

STRATA = "strata"
METRICS = ("muc", "bcub", "ceafe", "ceafm", "lea")
CONLL = ("muc", "bcub", "ceafe")
FIRST = "first"
REPEATS = "repeats"   # what the CorefUD scorer's repeated-mention rule counts beyond the units
# dimension -> default buckets (``LOW-HIGH``, ``N``, ``LOW-`` for no upper end)
DEFAULT_BUCKETS = {
    "entity-size": "1,2,3-5,6-10,11-20,21-",
    "sentences": "0,1,2-3,4-10,11-",
    "words": "0-5,6-20,21-50,51-200,201-",
}
# what --by asks for -> the dimensions it reports
REQUESTS = {"entity-size": ("entity-size",), "distance": ("sentences", "words"),
            "sentences": ("sentences",), "words": ("words",)}
TITLES = {"entity-size": "entity size (mentions of the entity)",
          "sentences": "distance to the previous mention (sentences)",
          "words": "distance to the previous mention (words)"}


# ============================================================================ buckets
@dataclass(frozen=True)
class Bucket:
    label: str
    low: int
    high: int | None   # inclusive; None: no upper end

    def holds(self, value: int) -> bool:
        return value >= self.low and (self.high is None or value <= self.high)


def parse_buckets(text: str, dimension: str) -> tuple[Bucket, ...]:
    """``1,2,3-5,6-10,11-20,21-``: ascending, non-overlapping, covering every value from the
    first bucket's low end up (a gap or an overlap is a usage error naming it)."""
    buckets = []
    for item in (p.strip() for p in text.split(",")):
        found = re.fullmatch(r"(\d+)(?:\s*(-)\s*(\d+)?)?", item)
        if not found:
            raise UsageError(f"{dimension} buckets: {item!r} is not N, LOW-HIGH or LOW- "
                             f"(e.g. {DEFAULT_BUCKETS[dimension]})")
        low = int(found.group(1))
        high = None if found.group(2) and found.group(3) is None else \
            int(found.group(3) or found.group(1))
        if high is not None and high < low:
            raise UsageError(f"{dimension} buckets: {item!r} ends before it starts")
        buckets.append(Bucket(item.replace(" ", ""), low, high))
    for a, b in zip(buckets, buckets[1:]):
        if a.high is None or b.low != a.high + 1:
            raise UsageError(f"{dimension} buckets: {b.label!r} does not follow {a.label!r} "
                             "(buckets must be ascending, without gaps or overlaps)")
    if buckets[-1].high is not None:
        buckets.append(Bucket(f"{buckets[-1].high + 1}-", buckets[-1].high + 1, None))
    return tuple(buckets)


def dimensions(request: str | Sequence[str] | None) -> tuple[str, ...]:
    """The dimensions of ``--by entity-size,distance`` (``distance``: sentences and words)."""
    names = request.split(",") if isinstance(request, str) else list(request or ["entity-size",
                                                                                  "distance"])
    found: list[str] = []
    for name in (n.strip().lower() for n in names if n.strip()):
        if name not in REQUESTS:
            raise UsageError(f"--by: unknown stratum {name!r}; expected "
                             f"{', '.join(REQUESTS)}")
        found += [d for d in REQUESTS[name] if d not in found]
    return tuple(found)


def _resolved(options: Mapping[str, Any]) -> tuple[tuple[str, tuple[Bucket, ...]], ...]:
    wanted = dimensions(options.get("by"))
    given = options.get("buckets") or {}
    return tuple((d, parse_buckets(str(given.get(d, DEFAULT_BUCKETS[d])), d)) for d in wanted)


def _bucket(buckets: tuple[Bucket, ...], value: int | None) -> str:
    if value is None:
        return FIRST
    for bucket in buckets:
        if bucket.holds(value):
            return bucket.label
    return f"<{buckets[0].low}"  # below the first bucket: its own row, never dropped


# ============================================================================ counts
@dataclass(frozen=True)
class StrataCounts:
    """Per dimension, per bucket, per metric: :class:`Counts`; ``+`` adds documents."""

    cells: Mapping[tuple[str, str, str], Counts] = field(default_factory=dict)
    order: tuple[tuple[str, tuple[str, ...]], ...] = ()   # dimensions and their bucket labels

    def __add__(self, other: StrataCounts) -> StrataCounts:
        cells = dict(self.cells)
        for k, c in other.cells.items():
            cells[k] = cells[k] + c if k in cells else c
        return StrataCounts(cells, _merge_order(self.order, other.order))

    # the generic report row has one triple per metric; this family has one per bucket
    recall = None
    precision = None
    f1 = None

    def counts(self, dimension: str, bucket: str, metric: str) -> Counts:
        return self.cells.get((dimension, bucket, metric), Counts())

    def buckets(self, dimension: str) -> tuple[str, ...]:
        return next((b for d, b in self.order if d == dimension), ())

    def conll(self, dimension: str, bucket: str) -> Fraction:
        return sum((self.counts(dimension, bucket, m).f1 for m in CONLL), Fraction(0)) / 3

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for dimension, buckets in self.order:
            rows = []
            for bucket in buckets:
                row: dict[str, Any] = {"bucket": bucket}
                for metric in METRICS:
                    c = self.counts(dimension, bucket, metric)
                    row[metric] = {"recall": float(c.recall), "precision": float(c.precision),
                                   "f1": float(c.f1),
                                   "exact": {k: _text(getattr(c, k)) for k in (
                                       "recall_num", "recall_den", "precision_num",
                                       "precision_den")}}
                row["conll"] = {"f1": float(self.conll(dimension, bucket))}
                row["key_mentions"] = _units(self.counts(dimension, bucket, "bcub").recall_den)
                row["response_mentions"] = _units(
                    self.counts(dimension, bucket, "bcub").precision_den)
                rows.append(row)
            out[dimension] = rows
        return out

    def table_lines(self) -> list[str]:
        lines = []
        for dimension, buckets in self.order:
            header = (f"{'bucket':<8} {'key':>6} {'resp':>6}" + "".join(
                f" {m + ' F1':>9}" for m in METRICS) + f" {'conll':>7}")
            lines += ["", f"by {TITLES[dimension]}; recall over key, precision over "
                      "response mentions", header, "-" * len(header)]
            for bucket in buckets:
                b3 = self.counts(dimension, bucket, "bcub")
                row = f"{bucket:<8} {_units(b3.recall_den):>6} {_units(b3.precision_den):>6}"
                row += "".join(f" {100 * float(self.counts(dimension, bucket, m).f1):>9.2f}"
                               for m in METRICS)
                lines.append(row + f" {100 * float(self.conll(dimension, bucket)):>7.2f}")
        return lines

    def csv_rows(self) -> list[tuple[str, dict[str, Any]]]:
        rows = []
        for dimension, buckets in self.order:
            for bucket in buckets:
                for metric in METRICS:
                    c = self.counts(dimension, bucket, metric)
                    rows.append((f"{STRATA}.{dimension}.{bucket}.{metric}",
                                 {"recall": float(c.recall), "precision": float(c.precision),
                                  "f1": float(c.f1)}))
        return rows


def _merge_order(a: tuple[tuple[str, tuple[str, ...]], ...],
                 b: tuple[tuple[str, tuple[str, ...]], ...]
                 ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if not a:
        return b
    merged = []
    other = dict(b)
    for dimension, buckets in a:
        extra = tuple(x for x in other.get(dimension, ()) if x not in buckets)
        merged.append((dimension, _sorted_labels(buckets + extra)))
    return tuple(merged)


def _sorted_labels(labels: tuple[str, ...]) -> tuple[str, ...]:
    def key(label: str) -> tuple[int, int]:
        if label == FIRST:
            return (0, 0)
        if label.startswith("<"):
            return (1, 0)
        if label == REPEATS:
            return (3, 0)
        return (2, int(re.match(r"\d+", label).group(0)))  # type: ignore[union-attr]
    return tuple(sorted(labels, key=key))


def _units(value: Any) -> int | float:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def _text(value: Any) -> str:
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else \
        f"{value.numerator}/{value.denominator}"


# ============================================================================ the metric
@dataclass(frozen=True)
class Position:
    sentence: int
    word: int          # overt words before the mention's first token


def labeler(options: dict[str, Any]) -> Labeler:
    _resolved(options)  # bad buckets: an error before any document is read
    current: list[Any] = [None, None]

    def label(doc: Document, mention: Mention) -> Position:
        if current[0] is not doc:  # documents are reduced one at a time
            words, seen = [], 0
            for token in doc.tokens:
                words.append(seen)
                seen += not token.is_empty
            current[0], current[1] = doc, words
        start = mention.start if mention.tokens else 0
        words = current[1]
        if not doc.tokens:
            return Position(0, 0)
        return Position(doc.tokens[start].sentence, words[start])

    return label


@dataclass(frozen=True)
class _Side:
    """One side's entities in text order, with each mention's rank and distances."""

    entity: dict[int, int]          # aligned index -> entity
    members: list[list[int]]        # entity -> its aligned indices in text order
    rank: dict[int, int]
    sentences: dict[int, int | None]
    words: dict[int, int | None]


def _side(partition: Partition, labels: Mapping[int, Any]) -> _Side:
    members: list[list[int]] = [[] for _ in range(partition.n_entities)]
    for mention, entity in zip(partition.mentions, partition.entities):
        members[entity].append(mention)
    rank: dict[int, int] = {}
    sentences: dict[int, int | None] = {}
    words: dict[int, int | None] = {}
    for group in members:
        group.sort(key=lambda i: (_where(labels.get(i)), i))
        previous: Position | None = None
        for n, i in enumerate(group):
            here = _position(labels.get(i))
            rank[i] = n
            sentences[i] = None if previous is None else here.sentence - previous.sentence
            words[i] = None if previous is None else here.word - previous.word
            previous = here
    return _Side(dict(zip(partition.mentions, partition.entities)), members, rank, sentences,
                 words)


def _position(label: Any) -> Position:
    found = (label or {}).get(STRATA) if isinstance(label, dict) else None
    return found if isinstance(found, Position) else Position(0, 0)


def _where(label: Any) -> tuple[int, int]:
    p = _position(label)
    return (p.sentence, p.word)


def compute(aligned: AlignedDocument, table: Contingency, options: dict[str, Any],
            counts: Mapping[str, Any] | None = None) -> StrataCounts:
    resolved = _resolved(options)
    key = _side(aligned.key, aligned.key_labels)
    response = _side(aligned.response, aligned.response_labels)
    recall = _units_of(key, response, table, own_is_key=True)
    precision = _units_of(response, key, table, own_is_key=False)
    cells: dict[tuple[str, str, str], Counts] = {}
    order = []
    for dimension, buckets in resolved:
        seen: list[str] = [FIRST] if dimension != "entity-size" else []
        for units, own, recall_side in ((recall, key, True), (precision, response, False)):
            for mention, per_metric in units.items():
                label = _bucket(buckets, _value(dimension, own, mention))
                if label not in seen:
                    seen.append(label)
                for metric, (num, den) in per_metric.items():
                    part = Counts(num, den, 0, 0) if recall_side else Counts(0, 0, num, den)
                    cell = (dimension, label, metric)
                    cells[cell] = cells[cell] + part if cell in cells else part
        if _residual(cells, dimension, counts, aligned):
            seen.append(REPEATS)
        labels = tuple(b.label for b in buckets)
        order.append((dimension, _sorted_labels(tuple(dict.fromkeys(
            [FIRST] * (dimension != "entity-size") + list(labels) + seen)))))
    return StrataCounts(cells, tuple(order))


def _residual(cells: dict[tuple[str, str, str], Counts], dimension: str,
              counts: Mapping[str, Any] | None, aligned: AlignedDocument) -> bool:
    """In a document whose mentions repeat in two entities, the CorefUD scorer counts on its
    entity lists, not on the partition: the difference between its counts and the units'
    sum goes to the bucket ``repeats``, so that the buckets still add up exactly."""
    if not counts or not (aligned.key_repeats or aligned.response_repeats):
        return False
    placed = False
    for metric in METRICS:
        total = counts.get(metric)
        if not isinstance(total, Counts):
            continue
        units = Counts()
        for (d, _, m), c in cells.items():
            if d == dimension and m == metric:
                units = units + c
        rest = Counts(total.recall_num - units.recall_num, total.recall_den - units.recall_den,
                      total.precision_num - units.precision_num,
                      total.precision_den - units.precision_den)
        if rest != Counts(0, 0, 0, 0):
            cells[(dimension, REPEATS, metric)] = rest
            placed = True
    return placed


def _value(dimension: str, side: _Side, mention: int) -> int | None:
    if dimension == "entity-size":
        return len(side.members[side.entity[mention]])
    return side.sentences[mention] if dimension == "sentences" else side.words[mention]


def _units_of(own: _Side, other: _Side, table: Contingency, own_is_key: bool
              ) -> dict[int, dict[str, tuple[Fraction, Fraction]]]:
    """Each mention of ``own``'s units (num, den) of every metric (module docstring)."""
    common: dict[tuple[int, int], int] = {}
    for k, r, n in zip(table.pair_key, table.pair_response, table.pair_common):
        common[(k, r) if own_is_key else (r, k)] = n
    aligned_to = {}
    for entity_based, name in ((False, "ceafm"), (True, "ceafe")):
        pairs = ceaf_pairs(table, entity_based)
        aligned_to[name] = {(table.pair_key[i] if own_is_key else table.pair_response[i]):
                            (table.pair_response[i] if own_is_key else table.pair_key[i])
                            for i in pairs}
    other_sizes = [len(m) for m in other.members]
    units: dict[int, dict[str, tuple[Fraction, Fraction]]] = {}
    for e, group in enumerate(own.members):
        size = len(group)
        earlier: dict[int, int] = {}   # other entity -> mentions of e before, in it
        for i in group:
            o = other.entity.get(i, -1)
            shared = common.get((e, o), 0) if o >= 0 else 0
            before = earlier.get(o, 0) if o >= 0 else 0
            r = own.rank[i]
            u: dict[str, tuple[Fraction, Fraction]] = {}
            u["bcub"] = (Fraction(shared, size), Fraction(1))
            u["muc"] = (Fraction(1 if before else 0), Fraction(1 if r else 0))
            if size > 1:
                u["lea"] = (Fraction(2 * before, size - 1), Fraction(2 * r, size - 1))
            else:
                alone = o >= 0 and other_sizes[o] == 1
                u["lea"] = (Fraction(1 if alone else 0), Fraction(1))
            partner = aligned_to["ceafm"].get(e)
            u["ceafm"] = (Fraction(1 if o >= 0 and o == partner else 0), Fraction(1))
            partner = aligned_to["ceafe"].get(e)
            phi = Fraction(2 * common.get((e, partner), 0), size + other_sizes[partner]) \
                if partner is not None else Fraction(0)
            u["ceafe"] = (phi / size, Fraction(1, size))
            units[i] = u
            if o >= 0:
                earlier[o] = before + 1
    return units


register_labelled_metric(LabelledMetric(
    STRATA,
    "MUC, B³, LEA, CEAFm, CEAFe split by entity size and mention distance, adding up exactly",
    labeler,
    compute,
    {"by": None, "buckets": None},
    with_counts=True,
))


def strata_request(metrics: str, by: str, buckets: Mapping[str, str] | None = None
                   ) -> tuple[str, dict[str, dict[str, Any]]]:
    """The metric list and options of ``corefkit score --by entity-size,distance``: ``strata``
    joins the metrics asked for; unknown strata and bad buckets fail here."""
    options = {"by": by, "buckets": dict(buckets or {})}
    unknown = sorted(set(options["buckets"]) - set(DEFAULT_BUCKETS))
    if unknown:
        raise UsageError(f"--buckets: unknown dimension {unknown[0]!r}; expected "
                         f"{', '.join(DEFAULT_BUCKETS)}")
    _resolved(options)
    names = [m.strip().lower() for m in metrics.split(",")]
    if STRATA not in names:
        metrics = f"{metrics},{STRATA}"
    return metrics, {STRATA: options}


__all__ = ["STRATA", "StrataCounts", "dimensions", "parse_buckets", "strata_request"]
