"""Coreference metrics generalized to split-antecedent anaphors (Paun et al. 2023), exactly as
the Universal Anaphora scorer 1.x computes them.

A split-antecedent entity K (*they* = *John* + *Mary*) is its ordinary mentions plus one
more item, its **accommodated set** K^s: the set of its (flattened) member entities, so that
K = K^m ⊕ K^s and |K| = |K^m| + 1 (§4.1). For every metric, key and response sets are aligned
one to one with the Kuhn–Munkres algorithm on that metric's F1 between their members (§4.2);
an aligned pair then contributes a partial match δ where an ordinary mention would contribute
1 (§4.3, §5):

* B³ (§5.1) and MUC (§5.2): δ = recall of the members for recall, precision for precision;
  MUC charges 1 − δ where a response entity holds the aligned set and a mention of the key
  entity, else 1;
* CEAFm / CEAFe (§5.3): δ = F1 of the members in φ (the paper writes recall; the scorer uses
  F1 for the one alignment that serves recall and precision);
* LEA (§5.4): δ = recall / precision of the members on the links that involve the set;
* BLANC (§5.5): δ = F1 of the members, and the precision numerator is the recall numerator.

Where the scorer departs from the paper's text, corefkit reproduces the scorer (its numbers
are the CODI-CRAC shared tasks' official ones) and ``docs/deviations.md`` says what the
paper says instead. Three of those departures matter here:

* **LEA's links**: §5.4.1 writes links(K ∩ R) = C(n, 2) + δ·(n − 1) and then says δ = 1 gives
  C(n + 1, 2); the scorer implements neither exactly. Walking a cluster's items in order,
  it multiplies a running credit by δ when it passes the set, so every later link of the
  walk — not only the n links that touch the set — is credited δ.
* **BLANC's coreference links** are credited δ only when the set comes first in the walk; a
  link whose later end is the set counts only when the other side holds an identical set.
* **Walk order**: a cluster with a set is a Python ``set`` of markables in the scorer, so the
  order of the walk is that set's iteration order, which follows from the markables' hashes,
  hash(frozenset({start, end})). :class:`Markable` keeps exactly that hash, and clusters are
  built by the same set operations, so the walk order — and with it the numbers — are the
  scorer's.

Everything is counted with exact fractions; nothing here enumerates all pairs of mentions of a
document (BLANC's non-coreference links are counted by squares of weight sums).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Union

from corefkit.scoring.assignment import linear_assignment
from corefkit.scoring.ceaf_alignment import (  # noqa: F401 - best_assignment for other metrics
    OVERLAP_BUDGET,
    best_assignment,
    class_assignment,
    cluster_classes,
    too_dense,
)
from corefkit.scoring.metrics.standard import (
    BlancCounts,
    CorefUDBlancCounts,
    Counts,
    Number,
)


class Markable:
    """A scored mention: equal to another when matching identifies them (``identity``, the
    same on both sides for aligned mentions), hashed as the UA scorer hashes a markable, by
    the set {first token, last token} of its ``extent``."""

    __slots__ = ("identity", "extent", "_hash")

    def __init__(self, identity: Hashable, extent: tuple[int, int]) -> None:
        self.identity = identity
        self.extent = extent
        self._hash = hash(frozenset(extent))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Markable) and other.identity == self.identity

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        first, last = self.extent
        return f"{first}-{last}" if first != last else str(first)


class SplitItem:
    """The accommodated set of a split-antecedent entity, as one more item of its cluster.

    ``members`` holds each member entity as the tuple of its markables in document order;
    two items are equal when their members are (the UA scorer's rule, under which entities
    with equal sets are one entity).
    """

    __slots__ = ("members", "_hash")

    def __init__(self, members: Iterable[tuple[Markable, ...]]) -> None:
        self.members = frozenset(members)
        self._hash = hash(self.members)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SplitItem) and other.members == self.members

    def __hash__(self) -> int:
        return self._hash

    def member_clusters(self) -> list[list[Item]]:
        return [list(member) for member in self.members]

    def __repr__(self) -> str:
        return "SplitItem(" + ", ".join(str(list(m)) for m in self.members) + ")"


Item = Union[Markable, SplitItem]
Clusters = list[list[Item]]
Aligned = dict[SplitItem, tuple[SplitItem, Fraction]]  # a set -> (its counterpart, δ)
NO_SET = SplitItem(())  # the partner of every set when the other side has none


def build_clusters(chains: Sequence[Sequence[Markable]], sets: dict[int, SplitItem],
                   keep_sets: bool = True) -> Clusters:
    """The clusters the metrics walk: each chain with its set appended, and chains whose sets
    are equal merged into one — as Python sets, like the scorer, so that their order is its
    walk order. Without sets the chains stay lists in document order (repeats kept)."""
    if not keep_sets:
        return [list(chain) for chain in chains]
    merged: list[set[Item]] = []
    for c, chain in enumerate(chains):
        items: list[Item] = list(chain)
        home = None
        if c in sets:
            items.append(sets[c])
            home = next((cluster for cluster in merged if sets[c] in cluster), None)
        if home is not None:
            home.update(items)
        else:
            merged.append(set(items))
    return [list(cluster) for cluster in merged]


def where(clusters: Clusters) -> dict[Item, int]:
    """Item -> the cluster holding it (the last one, for an item repeated in two clusters)."""
    return {item: c for c, cluster in enumerate(clusters) for item in cluster}


def split_items(clusters: Clusters) -> list[SplitItem]:
    return [item for cluster in clusters for item in cluster if isinstance(item, SplitItem)]


def _pairs(n: Number) -> Number:
    return n * (n - 1) / 2 if isinstance(n, Fraction) else n * (n - 1) // 2


# ============================================================================ sides of metrics
def _muc_side(clusters: Clusters, other: Clusters, other_at: dict[Item, int], aligned: Aligned,
              singletons: bool = False) -> tuple[Number, int]:
    """(links found, links) of one side: |K| − |P(K)| minus 1 − δ (or 1) for the set (§5.2).

    ``singletons``: a one-item cluster counts one link, found when the other side has it as
    a one-item cluster too — how the scorer compares the members of two sets.
    """
    found: Number = 0
    links = 0
    for cluster in clusters:
        if singletons and len(cluster) == 1:
            links += 1
            at = other_at.get(cluster[0])
            found += at is not None and len(other[at]) == 1
            continue
        links += len(cluster) - 1
        parts: set[int] = set()
        missing = 0
        the_set = None
        for item in cluster:
            if isinstance(item, SplitItem):
                the_set = item
            elif item in other_at:
                parts.add(other_at[item])
            else:
                missing += 1
        credit: Number = len(cluster) - missing - len(parts)
        if the_set is not None:
            counterpart = aligned.get(the_set)
            if counterpart is not None and other_at[counterpart[0]] in parts:
                credit -= 1 - counterpart[1]
            else:
                credit -= 1
        found += credit
    return found, links


def _bcub_side(clusters: Clusters, other_at: dict[Item, int], aligned: Aligned
               ) -> tuple[Fraction, int]:
    """(Σ_j (|K ∩ R_j| + δ)² / |K|, Σ|K|) of one side (§5.1, r*(i, j))."""
    by_size: dict[int, Number] = {}
    for cluster in clusters:
        weight: dict[int, Number] = {}
        for item in cluster:
            if isinstance(item, SplitItem):
                if item in aligned:
                    counterpart, delta = aligned[item]
                    at = other_at[counterpart]
                    weight[at] = weight.get(at, 0) + delta
            elif item in other_at:
                at = other_at[item]
                weight[at] = weight.get(at, 0) + 1
        size = len(cluster)
        by_size[size] = by_size.get(size, 0) + sum(w * w for w in weight.values())
    total = sum((Fraction(num) / size for size, num in by_size.items() if num), Fraction(0))
    return total, sum(len(c) for c in clusters)


def _walk(cluster: list[Item], other_at: dict[Item, int], aligned: Aligned,
          carry: bool) -> Number:
    """Credit of the links of a cluster that holds a set, walked in the cluster's order.

    Each item is linked to every later one in the same cluster on the other side; a set
    stands for its counterpart and credits its links δ. ``carry`` (LEA) multiplies the
    running credit by δ when the walk passes a set, so that every later link is credited
    δ too; without it (BLANC) a set met later stands for itself.
    """
    common: Number = 0
    for i, item in enumerate(cluster):
        credit: Number = 1
        if isinstance(item, SplitItem) and item in aligned:
            item, credit = aligned[item]
        at = other_at.get(item)
        if at is None:
            continue
        for later in cluster[i + 1:]:
            if carry and isinstance(later, SplitItem) and later in aligned:
                later, delta = aligned[later]
                credit *= delta
            if other_at.get(later) == at:
                common += credit
    return common


def _common_links(cluster: list[Item], other_at: dict[Item, int]) -> int:
    """Σ_j C(|K ∩ R_j|, 2) for a cluster without a set (repeated items count each time)."""
    counts: dict[int, int] = {}
    for item in cluster:
        at = other_at.get(item)
        if at is not None:
            counts[at] = counts.get(at, 0) + 1
    return sum(n * (n - 1) // 2 for n in counts.values())


def _lea_side(clusters: Clusters, other: Clusters, other_at: dict[Item, int], aligned: Aligned,
              importance: Number) -> tuple[Fraction, Number]:
    """(Σ importance(K) · |K| · resolution(K), Σ importance(K) · |K|) of one side (§5.4).

    A one-item cluster is resolved when the other side has it alone too (LEA's self-link);
    a cluster with a set, aligned or not, weighs ``importance`` (β) times its size.
    """
    by_links: dict[int, Number] = {}
    found: Fraction = Fraction(0)
    total: Number = 0
    for cluster in clusters:
        n = len(cluster)
        if n == 1:
            at = other_at.get(cluster[0])
            found += at is not None and len(other[at]) == 1
            total += 1
            continue
        with_set = any(isinstance(item, SplitItem) for item in cluster)
        weight = importance if with_set else 1
        common = _walk(cluster, other_at, aligned, True) if with_set \
            else _common_links(cluster, other_at)
        if common:
            if with_set:
                found += Fraction(weight) * n * common / _pairs(n)
            else:  # |K| / C(|K|, 2) = 2 / (|K| − 1): group the sums by |K| − 1
                by_links[n - 1] = by_links.get(n - 1, 0) + 2 * common
        total += weight * n
    found += sum((Fraction(num) / den for den, num in by_links.items()), Fraction(0))
    return found, total


def _ceaf(key: Clusters, response: Clusters, aligned: Aligned, entity_based: bool) -> Fraction:
    """Σ φ over the optimal one-to-one alignment of key and response clusters (§5.3).

    φ3(K, R) = (items of K that R holds) + δ if R holds the set aligned to K's; φ4 = 2φ3 /
    (|K| + |R|). The optimum is found per connected component of the overlap graph.

    A mention repeated in many clusters (the CorefUD scorer keeps repeats, see
    :func:`corefkit.scoring.semantics.corefud.kept_repeats`) makes every cluster that holds it
    overlap every other: 40,000 one-mention entities on one token are 40,000² pairs. Identical
    clusters are therefore aligned as classes (:func:`class_assignment`); what is left beyond
    :data:`OVERLAP_BUDGET` pairs is refused with a clear error.
    """
    key_class, key_reps = cluster_classes(key)
    response_class, response_reps = cluster_classes(response)
    holders: dict[Item, list[int]] = {}
    for b, cluster in enumerate(response_reps):
        for item in dict.fromkeys(cluster):
            holders.setdefault(item, []).append(b)
    overlap: dict[tuple[int, int], Number] = {}
    work = 0
    for a, cluster in enumerate(key_reps):
        for item in cluster:
            credit: Number = 1
            if isinstance(item, SplitItem):
                if item not in aligned:
                    continue
                item, credit = aligned[item]
            found = holders.get(item, ())
            work += len(found)
            if work > OVERLAP_BUDGET:
                raise too_dense(len(key), len(response))
            for b in found:
                overlap[(a, b)] = overlap.get((a, b), 0) + credit

    def phi(a: int, b: int) -> Fraction:
        common = Fraction(overlap[(a, b)])
        return 2 * common / (len(key_reps[a]) + len(response_reps[b])) if entity_based \
            else common

    pairs = class_assignment(key_class, response_class, overlap, phi)
    return sum((phi(key_class[i], response_class[j]) for i, j in pairs), Fraction(0))


def _blanc_coref(key: Clusters, response: Clusters, response_at: dict[Item, int],
                 aligned: Aligned) -> Counts:
    """Coreference links: the key's links the response also has, δ-credited (§5.5); the scorer
    counts them from the key side only and uses that count as both numerators."""
    common: Number = 0
    for cluster in key:
        if any(isinstance(item, SplitItem) for item in cluster):
            common += _walk(cluster, response_at, aligned, False)
        else:
            common += _common_links(cluster, response_at)
    key_links = sum(_pairs(len(c)) for c in key)
    response_links = sum(_pairs(len(c)) for c in response)
    return Counts(common, key_links, common, response_links)


def _blanc_noncoref(key: Clusters, response: Clusters, response_at: dict[Item, int],
                    aligned: Aligned) -> Counts:
    """Non-coreference links: pairs of key items from different key clusters that the
    response puts in different clusters, credited the product of the two ends' δ (§5.5).

    With w the credit of an item found in the response, the sum over such pairs is
    (W² − Σ_K W_K² − Σ_R W_R² + Σ_KR W_KR²) / 2, W the total weight and W_K, W_R, W_KR the
    weights within a key cluster, a response cluster and both.
    """
    total: Number = 0
    by_key: list[Number] = []
    by_response: dict[int, Number] = {}
    by_both: dict[tuple[int, int], Number] = {}
    for k, cluster in enumerate(key):
        in_cluster: Number = 0
        for item in cluster:
            credit: Number = 1
            if isinstance(item, SplitItem) and item in aligned:
                item, credit = aligned[item]
            r = response_at.get(item)
            if r is None:
                continue
            in_cluster += credit
            by_response[r] = by_response.get(r, 0) + credit
            by_both[(k, r)] = by_both.get((k, r), 0) + credit
        total += in_cluster
        by_key.append(in_cluster)

    def squares(values: Iterable[Number]) -> Number:
        return sum((v * v for v in values), 0)

    twice = (total * total - squares(by_key) - squares(by_response.values())
             + squares(by_both.values()))
    common = twice / 2 if isinstance(twice, Fraction) else twice // 2
    key_items = sum(len(c) for c in key)
    response_items = sum(len(c) for c in response)
    key_coref = sum(_pairs(len(c)) for c in key)
    response_coref = sum(_pairs(len(c)) for c in response)
    return Counts(common, _pairs(key_items) - key_coref, common,
                  _pairs(response_items) - response_coref)


# ============================================================================ metrics
@dataclass
class ClusterPair:
    """Key and response clusters of one document, with where each item sits."""

    key: Clusters
    response: Clusters
    key_at: dict[Item, int] = field(init=False)
    response_at: dict[Item, int] = field(init=False)

    def __post_init__(self) -> None:
        self.key_at = where(self.key)
        self.response_at = where(self.response)


@dataclass
class SetAlignment:
    """The one-to-one alignment of key and response sets for one metric.

    ``recall`` / ``precision`` / ``f1`` map a set to its counterpart and δ (pairs whose δ is
    0 are left out, as in the scorer); ``split_counts`` are the split-antecedent-only counts
    (numerators of the aligned pairs, denominators of every set; §7).
    """

    key_sets: list[SplitItem]
    response_sets: list[SplitItem]
    pairs: list[tuple[int, int, Counts]]
    recall: Aligned
    precision: Aligned
    f1: Aligned
    split_counts: Counts


def _member_counts(metric: str) -> Callable[[SplitItem, SplitItem], Counts]:
    def compare(key_set: SplitItem, response_set: SplitItem) -> Counts:
        members = ClusterPair(key_set.member_clusters(), response_set.member_clusters())
        return METRICS[metric](members, None, members=True)
    return compare


def align_sets(metric: str, doc: ClusterPair) -> SetAlignment | None:
    """Align the sets of key and response on ``metric``'s F1 between their members (§4.2).

    None when neither side has a set. A side without sets gets one empty set, so that the
    other side's sets still add their denominators to the split-only counts.
    """
    key_sets, response_sets = split_items(doc.key), split_items(doc.response)
    if not key_sets and not response_sets:
        return None
    rows = key_sets or [NO_SET]
    cols = response_sets or [NO_SET]
    compare = _member_counts(metric)
    counts = [[compare(k, r) for r in cols] for k in rows]
    # the scorer's floats: F1 of the float precision and recall, maximized by Kuhn–Munkres
    import numpy as np

    f1 = np.array([[_float_f1(c) for c in row] for row in counts])
    chosen_rows, chosen_cols = linear_assignment(-f1)
    pairs = [(i, j, counts[i][j]) for i, j in zip(chosen_rows, chosen_cols)]
    split_counts = Counts(sum((c.recall_num for _, _, c in pairs), Fraction(0)),
                          sum((row[0].recall_den for row in counts), 0),
                          sum((c.precision_num for _, _, c in pairs), Fraction(0)),
                          sum((c.precision_den for c in counts[0]), 0))
    recall = {rows[i]: (cols[j], c.recall) for i, j, c in pairs if c.recall > 0}
    precision = {cols[j]: (rows[i], c.precision) for i, j, c in pairs if c.precision > 0}
    f1_map = {rows[i]: (cols[j], c.f1) for i, j, c in pairs if f1[i, j] > 0}
    return SetAlignment(key_sets, response_sets, pairs, recall, precision, f1_map, split_counts)


def _float_f1(c: Counts) -> float:
    p = float(c.precision_num) / float(c.precision_den) if c.precision_num else 0.0
    r = float(c.recall_num) / float(c.recall_den) if c.recall_num else 0.0
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def muc(doc: ClusterPair, sets: SetAlignment | None, *, members: bool = False, **_: Any) -> Counts:
    recall = sets.recall if sets else {}
    precision = sets.precision if sets else {}
    rn, rd = _muc_side(doc.key, doc.response, doc.response_at, recall, members)
    pn, pd = _muc_side(doc.response, doc.key, doc.key_at, precision, members)
    return Counts(rn, rd, pn, pd)


def bcub(doc: ClusterPair, sets: SetAlignment | None, **_: Any) -> Counts:
    rn, rd = _bcub_side(doc.key, doc.response_at, sets.recall if sets else {})
    pn, pd = _bcub_side(doc.response, doc.key_at, sets.precision if sets else {})
    return Counts(rn, rd, pn, pd)


def ceafm(doc: ClusterPair, sets: SetAlignment | None, **_: Any) -> Counts:
    similarity = _ceaf(doc.key, doc.response, sets.f1 if sets else {}, entity_based=False)
    return Counts(similarity, sum(len(c) for c in doc.key), similarity,
                  sum(len(c) for c in doc.response))


def ceafe(doc: ClusterPair, sets: SetAlignment | None, **_: Any) -> Counts:
    similarity = _ceaf(doc.key, doc.response, sets.f1 if sets else {}, entity_based=True)
    return Counts(similarity, len(doc.key), similarity, len(doc.response))


def lea(doc: ClusterPair, sets: SetAlignment | None, *, importance: Number = 1, **_: Any) -> Counts:
    rn, rd = _lea_side(doc.key, doc.response, doc.response_at, sets.recall if sets else {},
                       importance)
    pn, pd = _lea_side(doc.response, doc.key, doc.key_at, sets.precision if sets else {},
                       importance)
    return Counts(rn, rd, pn, pd)


def blanc_coref(doc: ClusterPair, sets: SetAlignment | None, **_: Any) -> Counts:
    return _blanc_coref(doc.key, doc.response, doc.response_at, sets.f1 if sets else {})


def blanc_noncoref(doc: ClusterPair, sets: SetAlignment | None, **_: Any) -> Counts:
    return _blanc_noncoref(doc.key, doc.response, doc.response_at, sets.f1 if sets else {})


# Each metric's counts on one document, given that metric's set alignment. BLANC is two
# metrics here, each aligning the sets on its own F1, as in the scorer.
METRICS: dict[str, Callable[..., Counts]] = {
    "muc": muc,
    "bcub": bcub,
    "ceafm": ceafm,
    "ceafe": ceafe,
    "lea": lea,
    "blanc-coref": blanc_coref,
    "blanc-noncoref": blanc_noncoref,
}


@dataclass(frozen=True)
class MetricCounts:
    """One metric's counts on a document and, when sets were aligned, its split-only counts."""

    counts: Counts
    split: Counts | None


def score(metric: str, doc: ClusterPair, importance: Number = 1) -> MetricCounts:
    """``metric`` on one document: align the sets on it, then count (§4.2, §5)."""
    sets = align_sets(metric, doc)
    counts = METRICS[metric](doc, sets, importance=importance)
    return MetricCounts(counts, sets.split_counts if sets else None)


def blanc(coref: MetricCounts, noncoref: MetricCounts) -> BlancCounts:
    return BlancCounts(coref.counts, noncoref.counts)


@dataclass(frozen=True)
class SplitOnlyBlancCounts(CorefUDBlancCounts):
    """BLANC of ``only_split_antecedents``: the split-antecedent counts of both parts, averaged
    over the parts that the main scores have links of (the scorer decides on those)."""

    scored: BlancCounts = field(default_factory=BlancCounts)

    def __add__(self, other: BlancCounts) -> SplitOnlyBlancCounts:
        scored = other.scored if isinstance(other, SplitOnlyBlancCounts) else BlancCounts()
        return SplitOnlyBlancCounts(self.coref + other.coref, self.noncoref + other.noncoref,
                                    self.scored + scored)

    def _parts(self) -> tuple[Fraction, Fraction, Fraction]:
        used = [split_part for split_part, main in ((self.coref, self.scored.coref),
                                                    (self.noncoref, self.scored.noncoref))
                if main.recall_den != 0 or main.precision_den != 0]
        if not used:
            return Fraction(0), Fraction(0), Fraction(0)
        n = len(used)
        return (sum((c.recall for c in used), Fraction(0)) / n,
                sum((c.precision for c in used), Fraction(0)) / n,
                sum((c.f1 for c in used), Fraction(0)) / n)


def generalized(metric: str, doc: ClusterPair, importance: Number = 1) -> tuple[Counts, Counts]:
    """A metric generalized to split antecedents on one document (Paun et al. 2023, §5):
    (its counts, the counts of the split-antecedent alignment alone)."""
    scored = score(metric, doc, importance)
    return scored.counts, scored.split or Counts()


def generalized_blanc(doc: ClusterPair, importance: Number = 1
                      ) -> tuple[CorefUDBlancCounts, SplitOnlyBlancCounts]:
    """BLANC generalized (§5.5): each link type aligns the sets on its own F1, as the UA
    scorer does; (the counts, the split-antecedent counts of both parts)."""
    coref, noncoref = score("blanc-coref", doc), score("blanc-noncoref", doc)
    return (CorefUDBlancCounts(coref.counts, noncoref.counts),
            SplitOnlyBlancCounts(coref.split or Counts(), noncoref.split or Counts(),
                                 blanc(coref, noncoref)))


# ============================================================================ --explain
def _side_rows(metric: str, clusters: Clusters, other: Clusters, other_at: dict[Item, int],
               aligned: Aligned) -> list[dict[str, Any]]:
    rows = []
    for cluster in clusters:
        one = [cluster]
        num: Number
        den: Number
        if metric == "bcub":
            num, den = _bcub_side(one, other_at, aligned)
        elif metric == "muc":
            num, den = _muc_side(one, other, other_at, aligned)
        else:
            num, den = _lea_side(one, other, other_at, aligned, 1)
        rows.append({"mentions": sorted((i.extent for i in cluster if isinstance(i, Markable))),
                     "set": any(isinstance(i, SplitItem) for i in cluster),
                     "numerator": str(num), "denominator": str(den)})
    return rows


def explain(name: str, doc: ClusterPair) -> dict[str, Any]:
    """Why the split-antecedent part of a document scores what it does (``--explain``): the
    set alignment of each metric with its δ values and, for B³, MUC and LEA, every entity's
    numerator and denominator."""

    def describe(item: SplitItem) -> list[list[tuple[int, int]]]:
        return sorted(sorted(m.extent for m in member) for member in item.members)

    out: dict[str, Any] = {"document": name, "metrics": {}}
    for metric in METRICS:
        sets = align_sets(metric, doc)
        if sets is None:
            continue
        rows = sets.key_sets or [NO_SET]
        cols = sets.response_sets or [NO_SET]
        entry: dict[str, Any] = {
            "pairs": [{"key_set": describe(rows[i]), "response_set": describe(cols[j]),
                       "delta_recall": str(c.recall), "delta_precision": str(c.precision),
                       "delta_f1": str(c.f1)} for i, j, c in sets.pairs
                      if rows[i] is not NO_SET and cols[j] is not NO_SET],
            "unaligned_key_sets": [describe(s) for i, s in enumerate(sets.key_sets)
                                   if i not in {i for i, _, _ in sets.pairs}],
            "unaligned_response_sets": [describe(s) for j, s in enumerate(sets.response_sets)
                                        if j not in {j for _, j, _ in sets.pairs}],
        }
        if metric in ("bcub", "muc", "lea"):
            entry["entities"] = {
                "recall": _side_rows(metric, doc.key, doc.response, doc.response_at, sets.recall),
                "precision": _side_rows(metric, doc.response, doc.key, doc.key_at,
                                        sets.precision)}
        out["metrics"][metric] = entry
    return out
