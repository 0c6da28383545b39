"""Type-restricted B³: recall over the key mentions of a type, precision over the response
mentions of that type (Porada et al. 2024, §4.1.2), for each mention type asked for.

The labelled metric ``by_type`` labels every mention with the types it has (and the ones its
document cannot tell, see :mod:`corefkit.analysis.predicates`) and returns
:class:`ByTypeCounts`, additive like every other metric's counts. With K(m) the key entity of
mention m and R(m) its response entity (∅ when the other side lacks m), for type t:

    recall_t    = Σ_{m ∈ key mentions of t}      |K(m) ∩ R(m)| / |K(m)|  /  #key mentions of t
    precision_t = Σ_{m ∈ response mentions of t} |K(m) ∩ R(m)| / |R(m)|  /  #response ... of t

i.e. the B³ sums (Bagga & Baldwin 1998) over the mentions of the type only. A predicate that
holds for every mention gives the ``bcub`` numbers exactly.

Mentions whose type cannot be decided (their file lacks the layer the predicate reads) are
left out of both sums and counted apart; the report then warns, and a type no mention of a
side could be decided for has no score (``null``) rather than 0.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.analysis.predicates import DocumentView, Predicate, resolve_predicates
from corefkit.errors import Repair
from corefkit.model import Document, Mention
from corefkit.scoring.align import AlignedDocument, Labeler
from corefkit.scoring.metrics.labelled import LabelledMetric, register_labelled_metric
from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.partition import Contingency

BY_TYPE = "by_type"
MAX_NAMED_DOCUMENTS = 3  # documents named in a warning about an undecidable type


@dataclass(frozen=True)
class TypeLabel:
    """The types a mention has, and the types its document cannot decide for it."""

    types: frozenset[str] = frozenset()
    unknown: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TypeCounts:
    """Type-restricted B³ counts of one type, and the mentions left undecided per side."""

    counts: Counts = field(default_factory=Counts)
    key_undecided: int = 0
    response_undecided: int = 0

    def __add__(self, other: TypeCounts) -> TypeCounts:
        return TypeCounts(self.counts + other.counts, self.key_undecided + other.key_undecided,
                          self.response_undecided + other.response_undecided)

    @property
    def key_mentions(self) -> int:
        return int(self.counts.recall_den)

    @property
    def response_mentions(self) -> int:
        return int(self.counts.precision_den)

    @property
    def recall(self) -> Fraction | None:
        """None when no key mention could be typed (the file lacks the layer)."""
        if self.key_mentions == 0 and self.key_undecided:
            return None
        return self.counts.recall

    @property
    def precision(self) -> Fraction | None:
        if self.response_mentions == 0 and self.response_undecided:
            return None
        return self.counts.precision

    @property
    def f1(self) -> Fraction | None:
        if self.recall is None or self.precision is None:
            return None
        return self.counts.f1


@dataclass(frozen=True)
class ByTypeCounts:
    """Per-type counts of one document or corpus; ``+`` adds documents.

    ``undecided`` remembers, per (side, type), which documents could not decide the type
    and why, for the report's warnings.
    """

    types: tuple[str, ...] = ()
    per_type: Mapping[str, TypeCounts] = field(default_factory=dict)
    needs: Mapping[str, str] = field(default_factory=dict)
    undecided: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)

    def __add__(self, other: ByTypeCounts) -> ByTypeCounts:
        types = self.types + tuple(t for t in other.types if t not in self.types)
        per_type = {t: self.per_type.get(t, TypeCounts()) + other.per_type.get(t, TypeCounts())
                    for t in types}
        undecided = dict(self.undecided)
        for k, docs in other.undecided.items():
            known = undecided.get(k, ())
            undecided[k] = known + tuple(d for d in docs if d not in known)
        return ByTypeCounts(types, per_type, {**self.needs, **other.needs}, undecided)

    def __getitem__(self, name: str) -> TypeCounts:
        return self.per_type[name]

    # The generic report row shows one triple per metric; this family has one per type (in
    # ``table_lines`` and ``to_json``), so the row stays empty.
    recall = None
    precision = None
    f1 = None

    def notes(self) -> list[Repair]:
        """Warnings, one per type: mentions it could not be tested for (their files lack the
        annotation the predicate reads) and the scores that therefore do not exist."""
        lines = []
        for name in self.types:
            sides = [side for side in ("key", "response") if (side, name) in self.undecided]
            if not sides:
                continue
            counts = self.per_type.get(name, TypeCounts())
            left = {"key": counts.key_undecided, "response": counts.response_undecided}
            docs: list[str] = []
            for side in sides:
                docs += [d for d in self.undecided[(side, name)] if d not in docs]
            named = ", ".join(docs[:MAX_NAMED_DOCUMENTS]) + (
                f" and {len(docs) - MAX_NAMED_DOCUMENTS} more" if len(docs) > MAX_NAMED_DOCUMENTS
                else "")
            need = self.needs.get(name) or "the annotation the predicate reads"
            missing = [score for score, value in (("recall", counts.recall),
                                                  ("precision", counts.precision))
                       if value is None]
            outcome = (f"by_type.{name} has no {' and no '.join(missing)}" if missing else
                       "its scores count the other mentions only")
            lines.append(Repair(
                "by-type.untested",
                f"by_type: {' and '.join(f'{left[s]} {s}' for s in sides)} "
                f"mention{'' if sum(left[s] for s in sides) == 1 else 's'} could not be "
                f"tested for {name!r} (documents without {need}: {named}); {outcome}",
                action="left out"))
        return lines

    def to_json(self) -> dict[str, Any]:
        """``metrics.by_type``: one object per type."""
        out: dict[str, Any] = {}
        for name in self.types:
            c = self.per_type[name]
            r, p, f = c.recall, c.precision, c.f1
            out[name] = {
                "recall": _float(r), "precision": _float(p), "f1": _float(f),
                "key_mentions": c.key_mentions, "response_mentions": c.response_mentions,
                "recall_num": float(c.counts.recall_num), "recall_den": c.key_mentions,
                "precision_num": float(c.counts.precision_num),
                "precision_den": c.response_mentions,
                "key_undecided": c.key_undecided, "response_undecided": c.response_undecided,
                "exact": {k: _text(v) for k, v in (
                    ("recall", r), ("precision", p), ("f1", f),
                    ("recall_num", c.counts.recall_num), ("precision_num", c.counts.precision_num))
                    if v is not None},
            }
        return out

    def table_lines(self) -> list[str]:
        header = (f"{'type':<12} {'recall':>8} {'precision':>10} {'F1':>8} {'key':>7} "
                  f"{'response':>9}   undecided (key, response)")
        lines = ["", "B³ by mention type (Porada et al. 2024, §4.1.2)", header,
                 "-" * len(header)]
        for name in self.types:
            c = self.per_type[name]
            undecided = (f"{c.key_undecided}, {c.response_undecided}"
                         if c.key_undecided or c.response_undecided else "")
            lines.append(f"{name:<12} {_percent(c.recall):>8} {_percent(c.precision):>10} "
                         f"{_percent(c.f1):>8} {c.key_mentions:>7} {c.response_mentions:>9}   "
                         f"{undecided}".rstrip())
        return lines

    def csv_rows(self) -> list[tuple[str, dict[str, Any]]]:
        """(metric name, values) rows for the CSV report: ``by_type.TYPE``."""
        data = self.to_json()
        return [(f"{BY_TYPE}.{name}", data[name]) for name in self.types]


def _float(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _text(value: int | Fraction) -> str:
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def _percent(value: Fraction | None) -> str:
    return "n/a" if value is None else f"{float(value) * 100:.2f}"


# ============================================================================ the metric
_RESOLVED: dict[Any, list[Predicate]] = {}


def predicates_for(options: Mapping[str, Any]) -> list[Predicate]:
    """The predicates ``options`` ask for (``types``, ``rules``, ``predicates``), resolved
    once per distinct request: scoring asks for them once per document."""
    rules = options.get("rules")
    extra = options.get("predicates") or {}
    if isinstance(rules, (str, os.PathLike)):
        path = os.fspath(rules)
        try:
            stamp: Any = (path, os.stat(path).st_mtime_ns)
        except OSError:
            stamp = (path, None)  # load_rules reports the problem
    else:
        stamp = id(rules) if rules is not None else None
    types = options.get("types")
    key = (tuple(types) if isinstance(types, (list, tuple)) else types, stamp,
           tuple((n, id(f)) for n, f in sorted(extra.items())))
    if key not in _RESOLVED:
        if len(_RESOLVED) > 64:
            _RESOLVED.clear()
        _RESOLVED[key] = resolve_predicates(types, rules, extra)
    return _RESOLVED[key]


def labeler(options: dict[str, Any]) -> Labeler:
    predicates = predicates_for(options)
    current: list[Any] = [None, None]  # the document being labelled and its view
    interned: dict[tuple[frozenset[str], frozenset[str]], TypeLabel] = {}

    def label(doc: Document, mention: Mention) -> TypeLabel:
        if current[0] is not doc:  # documents are reduced one at a time
            current[0], current[1] = doc, DocumentView(doc)
        view = current[1]
        verdicts = [(p.name, p.test(view, mention)) for p in predicates]
        key = (frozenset(n for n, v in verdicts if v),
               frozenset(n for n, v in verdicts if v is None))
        found = interned.get(key)
        if found is None:
            found = interned[key] = TypeLabel(*key)
        return found

    return label


def compute(aligned: AlignedDocument, table: Contingency, options: dict[str, Any]) -> ByTypeCounts:
    predicates = predicates_for(options)
    names = [p.name for p in predicates]
    key, response = aligned.key, aligned.response
    key_entity = dict(zip(key.mentions, key.entities))
    response_entity = dict(zip(response.mentions, response.entities))
    common = {(k, r): n for k, r, n in zip(table.pair_key, table.pair_response,
                                           table.pair_common)}
    key_sizes = table.key_sizes
    response_sizes = table.response_sizes

    def side(mentions: list[int], labels: Mapping[int, Any], own: dict[int, int],
             other: dict[int, int], sizes: list[int], own_is_key: bool
             ) -> dict[str, tuple[Fraction, int, int]]:
        sums: dict[str, dict[int, int]] = {n: {} for n in names}
        counted = dict.fromkeys(names, 0)
        undecided = dict.fromkeys(names, 0)
        for i in mentions:
            label = (labels.get(i) or {}).get(BY_TYPE)  # labels hold every labelled metric's
            if label is None:
                continue
            e, o = own[i], other.get(i, -1)
            for name in names:
                if name in label.unknown:
                    undecided[name] += 1
                elif name in label.types:
                    counted[name] += 1
                    if o >= 0:
                        n = common.get((e, o) if own_is_key else (o, e), 0)
                        if n:
                            den = sizes[e]
                            sums[name][den] = sums[name].get(den, 0) + n
        return {name: (sum((Fraction(v, d) for d, v in sums[name].items()), Fraction(0)),
                       counted[name], undecided[name]) for name in names}

    recall = side(key.mentions, aligned.key_labels, key_entity, response_entity, key_sizes, True)
    precision = side(response.mentions, aligned.response_labels, response_entity, key_entity,
                     response_sizes, False)
    per_type = {}
    undecided: dict[tuple[str, str], tuple[str, ...]] = {}
    for name in names:
        r_num, r_den, r_left = recall[name]
        p_num, p_den, p_left = precision[name]
        per_type[name] = TypeCounts(Counts(r_num, r_den, p_num, p_den), r_left, p_left)
        if r_left:
            undecided[("key", name)] = (aligned.name,)
        if p_left:
            undecided[("response", name)] = (aligned.name,)
    needs = {p.name: p.needs for p in predicates if p.needs}
    return ByTypeCounts(tuple(names), per_type, needs, undecided)


register_labelled_metric(LabelledMetric(
    BY_TYPE,
    "B³ restricted to mentions of each type (Porada et al. 2024, §4.1.2)",
    labeler,
    compute,
    {"types": None, "rules": None, "predicates": None},
))


def by_type_request(metrics: str, types: str | None, rules: str | None
                    ) -> tuple[str, dict[str, dict[str, Any]]]:
    """The metric list and options of ``corefkit score --by-type TYPES --type-rules FILE``:
    ``by_type`` joins the metrics asked for; unknown types and bad rule files fail here,
    before any file is read."""
    options = {"types": types if types is not None else "all", "rules": rules}
    predicates_for(options)
    names = [m.strip().lower() for m in metrics.split(",")]
    if BY_TYPE not in names:
        metrics = f"{metrics},{BY_TYPE}"
    return metrics, {BY_TYPE: options}
