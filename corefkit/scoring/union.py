"""Documents held in memory, counted together as one union of disjoint documents.

:class:`~corefkit.scoring.clusters.Scorer` adds documents one at a time. Scoring needs of a
document only which response entity (if any) each key mention is in, and the sizes of the
key and the response entities: with those, the contingency table n_ij = |K_i ∩ R_j| of every
document is known. A :class:`UnionBatch` keeps exactly that, flat, for all pending
documents, numbered in one space (documents share no entity): the response entity of every
key mention, entity after entity (``-1``: the response lacks it), in a machine-integer
array, and the entity sizes. No Document, no mention objects, no per-document index space.

The counts of MUC, B³, CEAFm, CEAFe, LEA and mention identification are sums over entities,
so the union's counts are the sums of the documents' counts; BLANC's non-coreference links
are per document and are corrected by :func:`blanc_across_documents`. A large union (from
:data:`NUMPY_MENTIONS` key mentions on) is counted in NumPy: the table by one sort of the
(key entity, response entity) codes, every count an integer sum or a sum of fractions grouped
by denominator (summed in float64 only where every partial sum is an integer below 2**53,
hence exact; otherwise in Python); CEAF's alignment is
:func:`corefkit.scoring.metrics.standard.ceaf_similarity`. A small one goes through the
metric functions themselves, on :class:`Partition` objects rebuilt from the arrays.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import chain, count
from typing import Any

from corefkit.errors import Repair
from corefkit.scoring.align import MentionIndex
from corefkit.scoring.metrics import standard
from corefkit.scoring.partition import Contingency, Partition, contingency

# From this many key mentions on, a union is counted in NumPy.
NUMPY_MENTIONS = 50_000
# Partial sums of machine integers stay exact in float64 below this.
EXACT_FLOAT = 2**53




class UnionBatch:
    """Documents waiting to be counted together (see the module docstring)."""

    def __init__(self) -> None:
        # per response mention, entity after entity: the key mention it is (numbered over
        # the union, entity after entity), or a negative number when the key lacks it
        self.response_key = array("q")
        self.key_sizes = array("q")
        self.response_sizes = array("q")
        self.key_mentions: list[int] = []       # per document: key mentions
        self.response_mentions: list[int] = []  # per document: response mentions
        self.common: list[int] = []             # per document: mentions on both sides
        self.n_key = 0                          # key mentions pending
        self.mentions = 0                       # key and response mentions pending
        self.notes: list[Repair] = []
        self.key_repeats = self.response_repeats = 0

    @property
    def documents(self) -> int:
        return len(self.key_mentions)

    def add_clusters(self, key: Sequence[Sequence[Any]],
                     response: Sequence[Sequence[Any]]) -> bool:
        """Add one document given as clusters of hashable mentions; False (nothing added)
        when a side repeats a mention, which the alignment's rules must handle first.
        Raises ``TypeError`` for an unhashable mention (nothing added)."""
        key_sizes = list(map(len, key))
        n_key = sum(key_sizes)
        # key mentions numbered over the union; a response mention the key lacks gets a
        # negative number of its own, so a response mention given twice shows as a repeat
        number = dict(zip(chain.from_iterable(key), count(self.n_key)))
        if len(number) != n_key:
            return False
        found = list(map(number.setdefault, chain.from_iterable(response), count(-1, -1)))
        if len(set(found)) != len(found):
            return False
        if 0 in key_sizes:
            key_sizes = [n for n in key_sizes if n]
        response_sizes = list(map(len, response))
        if 0 in response_sizes:
            response_sizes = [n for n in response_sizes if n]
        self._append(found, n_key, key_sizes, response_sizes, len(number) - n_key)
        return True

    def add_index(self, found: MentionIndex, notes: list[Repair]) -> None:
        """Add one document aligned by :func:`corefkit.scoring.align.index_mentions` (its
        repeated mentions resolved; no response extent kept twice). Its key indices are
        ``0 … n_key-1`` in order, so key mention ``i`` is the union's ``n_key + i``."""
        base, n_key = self.n_key, found.n_key
        response = [base + i if i < n_key else -1 for i in found.response]
        self._append(response, len(found.key), found.key_sizes, found.response_sizes,
                     response.count(-1))
        if notes:
            self.notes += notes
            self.key_repeats += found.key_repeats
            self.response_repeats += found.response_repeats

    def _append(self, response_key: list[int], key_mentions: int, key_sizes: list[int],
                response_sizes: list[int], missing: int) -> None:
        self.response_key.extend(response_key)
        self.key_sizes.extend(key_sizes)
        self.response_sizes.extend(response_sizes)
        self.key_mentions.append(key_mentions)
        self.response_mentions.append(len(response_key))
        self.common.append(len(response_key) - missing)
        self.n_key += key_mentions
        self.mentions += key_mentions + len(response_key)

    # ------------------------------------------------------------------ counting
    def counts(self, specs: list[Any]) -> dict[str, Any]:
        """The counts of every (standard) partition metric in ``specs`` over the union."""
        if self.n_key >= NUMPY_MENTIONS:
            counts = _Arrays(self).counts([spec.name for spec in specs])
        else:
            key, response = self.partitions()
            table = contingency(key, response)
            counts = {spec.name: spec.compute(key, response, table) for spec in specs}
        if "blanc" in counts:
            counts["blanc"] = blanc_across_documents(counts["blanc"], self.key_mentions,
                                                     self.response_mentions, self.common)
        return counts

    def partitions(self) -> tuple[Partition, Partition]:
        """The union as two partitions of one mention index space: key mentions numbered
        in order, response mentions the key lacks after them."""
        fresh = iter(range(self.n_key, self.n_key + len(self.response_key)))
        response = [i if i >= 0 else next(fresh) for i in self.response_key]
        return (Partition.from_flat(list(range(self.n_key)), self.key_sizes.tolist()),
                Partition.from_flat(response, self.response_sizes.tolist()))


class _Arrays:
    """A large union's contingency table in NumPy, and the metrics' counts from it."""

    def __init__(self, batch: UnionBatch) -> None:
        import numpy as np

        self.np = np
        found = np.frombuffer(batch.response_key, dtype=np.int64)
        self.key_sizes = np.frombuffer(batch.key_sizes, dtype=np.int64)
        self.response_sizes = np.frombuffer(batch.response_sizes, dtype=np.int64)
        n_key, n_response = len(self.key_sizes), max(len(self.response_sizes), 1)
        shared = found >= 0
        key = np.repeat(np.arange(n_key, dtype=np.int64), self.key_sizes)[found[shared]]
        response = np.repeat(np.arange(len(self.response_sizes), dtype=np.int64),
                             self.response_sizes)[shared]
        if n_key * n_response < 2**62:
            cells, common = np.unique(key * n_response + response, return_counts=True)
            self.pair_key, self.pair_response = cells // n_response, cells % n_response
        else:  # too many entities for one code: sort the pairs themselves
            pairs = np.stack((key, response), axis=1)
            cells, common = np.unique(pairs, axis=0, return_counts=True)
            self.pair_key, self.pair_response = cells[:, 0], cells[:, 1]
        self.common = common.astype(np.int64)
        self.matched = int(self.common.sum())
        self.n_key, self.n_response = int(self.key_sizes.sum()), int(self.response_sizes.sum())

    def counts(self, names: list[str]) -> dict[str, Any]:
        return {name: self.METRICS[name](self) for name in names}

    # ---------------------------------------------------------------- exact sums
    def _pairs(self, values: Any) -> int:
        """Σ C(v, 2) exactly."""
        if len(values) == 0:
            return 0
        if int(values.max()) < 2**31 and len(values) < 2**31:
            return int((values * (values - 1) // 2).sum())
        return standard._pairs([int(v) for v in values.tolist()])

    def _per_entity(self, entities: Any, size: int) -> Any:
        """Σ n_ij per entity (an int64 array of ``size``)."""
        np = self.np
        if self.matched < EXACT_FLOAT:
            return np.bincount(entities, weights=self.common, minlength=size).astype(np.int64)
        totals = np.zeros(size, dtype=object)
        np.add.at(totals, entities, self.common.astype(object))
        return totals

    @staticmethod
    def _grouped(numerators: Any, denominators: Any) -> Fraction:
        """Σ numerators[i] / denominators[i] exactly, summed per distinct denominator."""
        import numpy as np

        if len(numerators) == 0:
            return Fraction(0)
        if int(numerators.max()) * len(numerators) >= EXACT_FLOAT:
            return standard._grouped_sum(numerators.tolist(), denominators.tolist())
        sums = np.bincount(denominators, weights=numerators)
        dens = np.flatnonzero(sums)
        return standard.sum_fractions(dict(zip(dens.tolist(),
                                               sums[dens].astype(np.int64).tolist())))

    # ---------------------------------------------------------------- metrics
    def mentions(self) -> standard.Counts:
        return standard.Counts(self.matched, self.n_key, self.matched, self.n_response)

    def muc(self) -> standard.Counts:
        correct = self.matched - len(self.common)
        return standard.Counts(correct, self.n_key - len(self.key_sizes), correct,
                               self.n_response - len(self.response_sizes))

    def bcub(self) -> standard.Counts:
        squares = self.common * self.common
        return standard.Counts(self._grouped(squares, self.key_sizes[self.pair_key]),
                               self.n_key,
                               self._grouped(squares, self.response_sizes[self.pair_response]),
                               self.n_response)

    def blanc(self) -> standard.BlancCounts:
        correct = self._pairs(self.common)
        key_coref, response_coref = self._pairs(self.key_sizes), self._pairs(self.response_sizes)
        mk, mr, c = self.n_key, self.n_response, self.matched
        key_common = self._per_entity(self.pair_key, len(self.key_sizes))
        response_common = self._per_entity(self.pair_response, len(self.response_sizes))
        noncorrect = (c * (c - 1) // 2 - self._pairs(key_common) - self._pairs(response_common)
                      + correct)
        return standard.BlancCounts(
            standard.Counts(correct, key_coref, correct, response_coref),
            standard.Counts(noncorrect, mk * (mk - 1) // 2 - key_coref, noncorrect,
                            mr * (mr - 1) // 2 - response_coref))

    def _lea_side(self, sizes: Any, other: Any) -> Fraction:
        """Σ_i |E_i| · resolution(E_i) (see :func:`corefkit.scoring.metrics.standard.lea`):
        2·C(n_ij, 2) / (|E_i| − 1) over pairs of entities of two or more mentions, and one
        for each singleton the other side has as a singleton."""
        common = self.common
        linked = (sizes > 1) & (common > 1)
        n = common[linked]
        singletons = int(((sizes == 1) & (other == 1)).sum())
        return self._grouped(n * (n - 1), sizes[linked] - 1) + singletons

    def lea(self) -> standard.Counts:
        key = self.key_sizes[self.pair_key]
        response = self.response_sizes[self.pair_response]
        return standard.Counts(self._lea_side(key, response), self.n_key,
                               self._lea_side(response, key), self.n_response)

    def _table(self) -> Contingency:
        table = self.__dict__.get("table")
        if table is None:
            table = self.__dict__["table"] = Contingency(
                self.key_sizes.tolist(), self.response_sizes.tolist(), self.pair_key.tolist(),
                self.pair_response.tolist(), self.common.tolist())
        return table

    def ceafm(self) -> standard.Counts:
        similarity = standard.ceaf_similarity(self._table(), entity_based=False)
        return standard.Counts(similarity, self.n_key, similarity, self.n_response)

    def ceafe(self) -> standard.Counts:
        similarity = standard.ceaf_similarity(self._table(), entity_based=True)
        return standard.Counts(similarity, len(self.key_sizes), similarity,
                               len(self.response_sizes))

    METRICS: dict[str, Callable[[_Arrays], Any]] = {
        "mentions": mentions, "muc": muc, "bcub": bcub, "ceafm": ceafm, "ceafe": ceafe,
        "blanc": blanc, "lea": lea}


def blanc_across_documents(union: standard.BlancCounts, key_mentions: list[int],
                           response_mentions: list[int],
                           common: list[int]) -> standard.BlancCounts:
    """The sum of the documents' BLANC counts, from :func:`~corefkit.scoring.metrics.standard.
    blanc` of their union.

    Coreference links never cross documents, so the union's are the sum. Non-coreference
    links are all pairs of a document's mentions but its coreference links: the union counts
    C(M, 2) pairs of its M key mentions where the documents count Σ_d C(m_d, 2), and likewise
    for the response mentions and for the common mentions (whose pairs enter the correct
    non-coreference links). Each of the three is corrected by Σ_d C(m_d, 2) − C(Σ_d m_d, 2).
    """

    def across(sizes: list[int]) -> int:
        total = sum(sizes)
        return sum([n * (n - 1) // 2 for n in sizes]) - total * (total - 1) // 2

    key, response, correct = across(key_mentions), across(response_mentions), across(common)
    n = union.noncoref
    return type(union)(union.coref, standard.Counts(
        n.recall_num + correct, n.recall_den + key, n.precision_num + correct,
        n.precision_den + response))
