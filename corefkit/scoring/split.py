"""Coreference metrics generalized to split-antecedent anaphors (Paun et al. 2023).

A split-antecedent entity K (*they* = *John* + *Mary*) is scored as its ordinary mentions plus
one extra item, its **accommodated set** K^s: the set of its member entities (after
``flatten-splits``), so that K = K^m ⊕ K^s (§4.1). Key and response sets are aligned one to
one per metric with the Kuhn–Munkres algorithm on that metric's F1 between the member
entities (§4.2); an aligned pair contributes a partial match δ ∈ (0, 1] wherever an ordinary
mention would contribute 1 (§5):

* B³, MUC and LEA use δ = recall of the members for recall and δ = precision for precision;
  MUC charges the missing part 1 − δ as a penalty on the partition count; LEA weighs the
  entities that contain an aligned set by the split-antecedent importance β;
* CEAFm / CEAFe and BLANC use δ = F1 of the members, a link's credit being the product of
  its two ends' δ.

The item-level formulas here follow the Universal Anaphora scorer 1.x/2.0 (Yu et al. 2022),
whose numbers the conformance suite ``ua-plural.json`` records, with two deliberate
differences, both documented in README.md: a link's credit is the product of *both* ends'
δ in LEA and BLANC (the UA scorer's result depends on the iteration order of a Python set
there), and a document where only one side has accommodated sets still adds the unmatched
sets' denominators to the split-antecedent-only scores ("paired with the empty set"; the UA
scorer skips such documents).

Without accommodated sets on either side every function returns exactly the standard
metric's counts; the scorer then uses the fast partition path instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import Any

import numpy as np

from corefkit.scoring import metrics as standard
from corefkit.scoring.metrics import BlancCounts, Counts
from corefkit.scoring.partition import Partition, contingency


@dataclass(frozen=True)
class SplitItem:
    """The accommodated set of one split-antecedent entity, as an item of its cluster.

    ``members`` are the (flattened) member entities, each the frozenset of its aligned
    mention indices; two items are equal when their members are (UA scorer semantics).
    """

    members: frozenset[frozenset[int]]

    def partition(self) -> Partition:
        return Partition.from_clusters([sorted(m) for m in sorted(self.members, key=min)])

    def __repr__(self) -> str:
        return "SplitItem(" + ", ".join(str(sorted(m)) for m in sorted(self.members, key=min)) + ")"


Item = int | SplitItem
Clusters = list[list[Item]]


# ---------------------------------------------------------------------------- alignment
def muc_members(key: Partition, response: Partition, table=None) -> Counts:
    """MUC between the members of two sets, counting one-mention members as a link.

    A split antecedent often has one-mention members (*John* … *Mary*); plain MUC would give
    them no weight. As in the UA scorer, a one-mention member counts one link in the
    denominator, found when the other side has the same one-mention member.
    """
    t = table if table is not None else contingency(key, response)

    def side(sizes: np.ndarray, entity: np.ndarray, other_sizes: np.ndarray) -> tuple[int, int]:
        multi = sizes[entity] > 1
        found = int((t.pair_common[multi] - 1).sum())
        found += int(((sizes[entity] == 1) & (other_sizes == 1)).sum())
        return found, int((sizes[sizes > 1] - 1).sum() + (sizes == 1).sum())

    rn, rd = side(t.key_sizes, t.pair_key, t.response_sizes[t.pair_response])
    pn, pd = side(t.response_sizes, t.pair_response, t.key_sizes[t.pair_key])
    return Counts(rn, rd, pn, pd)


def _blanc_part(part: str) -> Callable[[Partition, Partition, object], Counts]:
    def compare(key: Partition, response: Partition, table=None) -> Counts:
        counts = standard.blanc(key, response, table)
        return counts.coref if part == "coref" else counts.noncoref
    return compare


# How the members of two sets are compared, per metric (the F1 of this drives the alignment).
MEMBER_METRICS: dict[str, Callable[..., Counts]] = {
    "muc": muc_members,
    "bcub": standard.bcub,
    "ceafm": standard.ceafm,
    "ceafe": standard.ceafe,
    "lea": standard.lea,
    "blanc-coref": _blanc_part("coref"),
    "blanc-noncoref": _blanc_part("noncoref"),
}

EMPTY = Partition.from_clusters([])


@dataclass
class SetAlignment:
    """The one-to-one alignment of key and response sets for one metric, with its δ values."""

    key_items: list[SplitItem]
    response_items: list[SplitItem]
    pairs: list[tuple[int, int, Counts]] = field(default_factory=list)  # all Kuhn–Munkres pairs
    split_counts: Counts = field(default_factory=Counts)  # for --only-split-antecedents

    def _delta(self, i: int, j: int, value: Fraction) -> Fraction:
        # Identical sets match perfectly even where the metric has nothing to measure between
        # their members (BLANC's coreference links of one-mention members: 0/0); the UA
        # scorer gives them full credit too, by the equality of the two sets.
        return Fraction(1) if self.key_items[i] == self.response_items[j] else value

    def recall_map(self) -> dict[SplitItem, tuple[SplitItem, Fraction]]:
        """key set → (response set, δ = member recall), for pairs with δ > 0."""
        found = ((i, j, self._delta(i, j, c.recall)) for i, j, c in self.pairs)
        return {self.key_items[i]: (self.response_items[j], d) for i, j, d in found if d > 0}

    def precision_map(self) -> dict[SplitItem, tuple[SplitItem, Fraction]]:
        """response set → (key set, δ = member precision), for pairs with δ > 0."""
        found = ((i, j, self._delta(i, j, c.precision)) for i, j, c in self.pairs)
        return {self.response_items[j]: (self.key_items[i], d) for i, j, d in found if d > 0}

    def f1_map(self) -> dict[SplitItem, tuple[SplitItem, Fraction]]:
        """key set → (response set, δ = member F1), for pairs with δ > 0."""
        found = ((i, j, self._delta(i, j, c.f1)) for i, j, c in self.pairs)
        return {self.key_items[i]: (self.response_items[j], d) for i, j, d in found if d > 0}


def split_items(clusters: Clusters) -> list[SplitItem]:
    return [item for cluster in clusters for item in cluster if isinstance(item, SplitItem)]


def align_sets(metric: str, key: Clusters, response: Clusters) -> SetAlignment:
    """Align the accommodated sets of key and response on ``metric``'s F1 of their members.

    Kuhn–Munkres maximizes the summed F1 (Paun et al. 2023, §4.2). The split-antecedent-only
    counts add, for every aligned pair, the numerators, and for every set on either side its
    denominator (an unaligned set is paired with the empty set).
    """
    compare = MEMBER_METRICS[metric]
    key_items, response_items = split_items(key), split_items(response)
    alignment = SetAlignment(key_items, response_items)
    if not key_items and not response_items:
        return alignment
    key_parts = [item.partition() for item in key_items]
    response_parts = [item.partition() for item in response_items]
    recall_den = sum((compare(p, EMPTY).recall_den for p in key_parts), 0)
    precision_den = sum((compare(EMPTY, p).precision_den for p in response_parts), 0)
    recall_num: Fraction | int = 0
    precision_num: Fraction | int = 0
    if key_items and response_items:
        from scipy.optimize import linear_sum_assignment

        counts = [[compare(k, r) for r in response_parts] for k in key_parts]
        f1 = np.array([[1.0 if key_items[i] == response_items[j] else float(c.f1)
                        for j, c in enumerate(row)] for i, row in enumerate(counts)])
        rows, cols = linear_sum_assignment(f1, maximize=True)
        for i, j in zip(rows.tolist(), cols.tolist()):
            c = counts[i][j]
            alignment.pairs.append((i, j, c))
            recall_num += c.recall_num
            precision_num += c.precision_num
    alignment.split_counts = Counts(recall_num, recall_den, precision_num, precision_den)
    return alignment


# ---------------------------------------------------------------------------- helpers
Located = dict[Item, int]


def _locate(clusters: Clusters) -> Located:
    return {item: index for index, cluster in enumerate(clusters) for item in cluster}


def _weighted_places(cluster: list[Item], other: Located,
                     aligned: dict[SplitItem, tuple[SplitItem, Fraction]]) -> list[tuple[int, Fraction]]:
    """(cluster on the other side, credit) for each item of ``cluster`` that has a place there.

    A mention has credit 1 where the other side has it; a set has credit δ where its aligned
    counterpart is; unmatched items have no place.
    """
    places = []
    for item in cluster:
        if isinstance(item, SplitItem):
            if item in aligned:
                counterpart, delta = aligned[item]
                places.append((other[counterpart], delta))
        elif item in other:
            places.append((other[item], Fraction(1)))
    return places


# ---------------------------------------------------------------------------- metrics
def _bcub_side(clusters: Clusters, other: Clusters, aligned) -> list[tuple[Fraction, int]]:
    """(numerator, denominator) of each cluster: Σ_j w_j² / |c| over |c| (B³ per entity)."""
    located = _locate(other)
    found = []
    for cluster in clusters:
        weights: dict[int, Fraction] = {}
        for place, credit in _weighted_places(cluster, located, aligned):
            weights[place] = weights.get(place, 0) + credit
        found.append((sum((w * w for w in weights.values()), Fraction(0)) / len(cluster),
                      len(cluster)))
    return found


def _muc_side(clusters: Clusters, other: Clusters, aligned) -> list[tuple[Fraction, int]]:
    """(links found, links) of each cluster; a set is one more part of its entity."""
    located = _locate(other)
    found = []
    for cluster in clusters:
        mentions = [item for item in cluster if not isinstance(item, SplitItem)]
        sets = [item for item in cluster if isinstance(item, SplitItem)]
        linked = {located[m] for m in mentions if m in located}
        missing = sum(1 for m in mentions if m not in located)
        found_here = Fraction(len(cluster) - missing - len(linked))
        for item in sets:
            if item in aligned and located[aligned[item][0]] in linked:
                found_here -= 1 - aligned[item][1]
            else:
                found_here -= 1
        found.append((found_here, len(cluster) - 1))
    return found


def _lea_side(clusters: Clusters, other: Clusters, aligned,
              split_importance: Fraction | int) -> list[tuple[Fraction, Fraction]]:
    """(importance · |E| · resolution, importance · |E|) of each entity (LEA)."""
    located = _locate(other)
    sizes = [len(c) for c in other]
    found = []
    for cluster in clusters:
        has_set = any(isinstance(item, SplitItem) and item in aligned for item in cluster)
        importance = Fraction(split_importance) if has_set else Fraction(1)
        if len(cluster) == 1:
            item = cluster[0]
            resolved: Fraction | int = 1 if item in located and sizes[located[item]] == 1 else 0
        else:
            places = _weighted_places(cluster, located, aligned)
            common = sum((a[1] * b[1] for a, b in combinations(places, 2) if a[0] == b[0]),
                         Fraction(0))
            resolved = common / (len(cluster) * (len(cluster) - 1) // 2)
        found.append((importance * len(cluster) * resolved, importance * len(cluster)))
    return found


def _summed(recall: list, precision: list) -> Counts:
    return Counts(sum((n for n, _ in recall), Fraction(0)), sum((d for _, d in recall), 0),
                  sum((n for n, _ in precision), Fraction(0)), sum((d for _, d in precision), 0))


def bcub(key: Clusters, response: Clusters, alignment: SetAlignment) -> Counts:
    """B³ with sets credited by δ (recall: member recall, precision: member precision)."""
    return _summed(_bcub_side(key, response, alignment.recall_map()),
                   _bcub_side(response, key, alignment.precision_map()))


def muc(key: Clusters, response: Clusters, alignment: SetAlignment) -> Counts:
    """MUC: a set is one more part of its entity; an aligned one found in the same response
    entity as other mentions of it costs only the missing part 1 − δ (Paun et al. 2023 §5)."""
    return _summed(_muc_side(key, response, alignment.recall_map()),
                   _muc_side(response, key, alignment.precision_map()))


def lea(key: Clusters, response: Clusters, alignment: SetAlignment,
        split_importance: Fraction | int = 1) -> Counts:
    """LEA: a link's credit is the product of its ends' δ; an entity with an aligned set has
    importance β · |E| instead of |E| (the split-antecedent importance)."""
    return _summed(_lea_side(key, response, alignment.recall_map(), split_importance),
                   _lea_side(response, key, alignment.precision_map(), split_importance))


def _contributions(side: Callable[..., list[tuple[Any, Any]]]) -> Callable[..., dict[str, Any]]:
    """Per-entity numerators and denominators of a metric, for ``--explain``."""

    def explain(key: Clusters, response: Clusters, alignment: SetAlignment) -> dict[str, Any]:
        def rows(clusters: Clusters, found: list[tuple[Any, Any]]) -> list[dict[str, Any]]:
            return [{"mentions": sorted(i for i in c if not isinstance(i, SplitItem)),
                     "set": any(isinstance(i, SplitItem) for i in c),
                     "numerator": str(n), "denominator": str(d)} for c, (n, d) in zip(clusters, found)]

        return {"recall": rows(key, side(key, response, alignment.recall_map())),
                "precision": rows(response, side(response, key, alignment.precision_map()))}

    return explain


CONTRIBUTIONS: dict[str, Callable[..., dict[str, Any]]] = {
    "bcub": _contributions(_bcub_side),
    "muc": _contributions(_muc_side),
    "lea": _contributions(lambda c, o, a: _lea_side(c, o, a, 1)),
}


def _ceaf(key: Clusters, response: Clusters, alignment: SetAlignment, entity_based: bool) -> Fraction:
    """Σ φ over the optimal entity alignment; φ3 counts a set in both entities as its δ = F1."""
    aligned = alignment.f1_map()
    located = _locate(response)
    overlaps: dict[tuple[int, int], Fraction] = {}
    for i, cluster in enumerate(key):
        for place, credit in _weighted_places(cluster, located, aligned):
            overlaps[(i, place)] = overlaps.get((i, place), 0) + credit
    if not overlaps:
        return Fraction(0)
    from scipy.optimize import linear_sum_assignment

    def phi(i: int, j: int) -> Fraction:
        common = overlaps.get((i, j), Fraction(0))
        return 2 * common / (len(key[i]) + len(response[j])) if entity_based else common

    rows = sorted({i for i, _ in overlaps})
    cols = sorted({j for _, j in overlaps})
    matrix = np.array([[float(phi(i, j)) for j in cols] for i in rows])
    chosen_rows, chosen_cols = linear_sum_assignment(matrix, maximize=True)
    return sum((phi(rows[r], cols[c]) for r, c in zip(chosen_rows.tolist(), chosen_cols.tolist())),
               Fraction(0))


def ceafm(key: Clusters, response: Clusters, alignment: SetAlignment) -> Counts:
    similarity = _ceaf(key, response, alignment, entity_based=False)
    return Counts(similarity, sum(map(len, key)), similarity, sum(map(len, response)))


def ceafe(key: Clusters, response: Clusters, alignment: SetAlignment) -> Counts:
    similarity = _ceaf(key, response, alignment, entity_based=True)
    return Counts(similarity, len(key), similarity, len(response))


def blanc(key: Clusters, response: Clusters, coref: SetAlignment,
          noncoref: SetAlignment) -> BlancCounts:
    """BLANC: a link's credit is the product of its ends' δ = F1 (each part aligned on its own
    F1); the denominators count sets as items."""

    def credited(alignment: SetAlignment) -> list[list[tuple[int, Fraction]]]:
        located = _locate(response)
        return [_weighted_places(c, located, alignment.f1_map()) for c in key]

    coref_num = sum((a[1] * b[1] for places in credited(coref)
                     for a, b in combinations(places, 2) if a[0] == b[0]), Fraction(0))
    places = credited(noncoref)
    noncoref_num = Fraction(0)
    for i, j in combinations(range(len(places)), 2):
        for a in places[i]:
            for b in places[j]:
                if a[0] != b[0]:
                    noncoref_num += a[1] * b[1]
    key_coref = sum(len(c) * (len(c) - 1) // 2 for c in key)
    response_coref = sum(len(c) * (len(c) - 1) // 2 for c in response)
    mk, mr = sum(map(len, key)), sum(map(len, response))
    return BlancCounts(
        Counts(coref_num, key_coref, coref_num, response_coref),
        Counts(noncoref_num, mk * (mk - 1) // 2 - key_coref, noncoref_num,
               mr * (mr - 1) // 2 - response_coref),
    )
