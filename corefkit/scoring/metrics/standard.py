"""The standard coreference metrics as pure functions of two partitions.

Each metric takes the key and response :class:`Partition` of one document (and optionally
their precomputed :class:`Contingency`) and returns additive counts — numerators and
denominators as exact fractions — so that a corpus score is the sum of its documents' counts
(the semantics of the reference scorer, Pradhan et al. 2014). Every formula is written over
the contingency table n_ij = |K_i ∩ R_j|; nothing enumerates mention pairs.

Notation: K_i key entities, R_j response entities, n_ij = |K_i ∩ R_j|.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, lcm
from typing import Any

from corefkit.scoring.assignment import (
    DENSE_CELLS,
    PYTHON_CELLS,
    max_assignment,
    sparse_max_assignment,
)
from corefkit.scoring.partition import (
    VECTOR_MIN,
    Contingency,
    Partition,
    contingency,
    group_pairs,
)

Number = int | Fraction


def ratio(num: Number, den: Number) -> Fraction:
    """num / den as an exact fraction; 0 when den is 0 (the reference scorer's convention)."""
    return Fraction(num) / den if den else Fraction(0)


def harmonic(p: Fraction, r: Fraction) -> Fraction:
    """F1 = 2PR / (P + R), 0 when both are 0 (reference scorer ``ShowRPF``)."""
    return 2 * p * r / (p + r) if p + r else Fraction(0)


@dataclass(frozen=True)
class Counts:
    """Recall and precision as numerator/denominator pairs; ``+`` adds documents."""

    recall_num: Number = 0
    recall_den: Number = 0
    precision_num: Number = 0
    precision_den: Number = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.recall_num + other.recall_num, self.recall_den + other.recall_den,
            self.precision_num + other.precision_num, self.precision_den + other.precision_den,
        )

    @property
    def recall(self) -> Fraction:
        return ratio(self.recall_num, self.recall_den)

    @property
    def precision(self) -> Fraction:
        return ratio(self.precision_num, self.precision_den)

    @property
    def f1(self) -> Fraction:
        return harmonic(self.precision, self.recall)


@dataclass(frozen=True)
class BlancCounts:
    """BLANC's coreference-link and non-coreference-link counts (Luo et al. 2014)."""

    coref: Counts = field(default_factory=Counts)
    noncoref: Counts = field(default_factory=Counts)

    def __add__(self, other: BlancCounts) -> BlancCounts:
        return BlancCounts(self.coref + other.coref, self.noncoref + other.noncoref)

    def _parts(self) -> tuple[Fraction, Fraction, Fraction]:
        """(R, P, F) by the reference scorer's rule for absent link types.

        When the key has no coreference links only the non-coreference part counts, and vice
        versa (``ComputeBLANCFromCounts`` in the reference scorer v8.01); with neither, all
        three are 0. The UA-family scorers average with a 0 part instead (DISAGREEMENTS.md
        item 2); corefkit follows the reference.
        """
        c, n = self.coref, self.noncoref
        if c.recall_den == 0 and n.recall_den == 0:
            return Fraction(0), Fraction(0), Fraction(0)
        if c.recall_den == 0:
            return n.recall, n.precision, n.f1
        if n.recall_den == 0:
            return c.recall, c.precision, c.f1
        return ((c.recall + n.recall) / 2, (c.precision + n.precision) / 2, (c.f1 + n.f1) / 2)

    @property
    def recall(self) -> Fraction:
        return self._parts()[0]

    @property
    def precision(self) -> Fraction:
        return self._parts()[1]

    @property
    def f1(self) -> Fraction:
        return self._parts()[2]


class CorefUDBlancCounts(BlancCounts):
    """BLANC with the CorefUD / UA scorers' rule for absent link types.

    A part (coreference or non-coreference links) is left out only when neither the key nor
    the response has links of that type; otherwise its P, R and F (0 when the numerator is
    0) enter the average (DISAGREEMENTS.md item 2). The reference scorer drops a part as soon
    as the key has no links of that type; :class:`BlancCounts` follows that.
    """

    def __add__(self, other: BlancCounts) -> CorefUDBlancCounts:
        return CorefUDBlancCounts(self.coref + other.coref, self.noncoref + other.noncoref)

    def _parts(self) -> tuple[Fraction, Fraction, Fraction]:
        used = [c for c in (self.coref, self.noncoref)
                if c.recall_den != 0 or c.precision_den != 0]
        if not used:
            return Fraction(0), Fraction(0), Fraction(0)
        recall = sum((c.recall for c in used), Fraction(0)) / len(used)
        precision = sum((c.precision for c in used), Fraction(0)) / len(used)
        f1 = sum((harmonic(c.precision, c.recall) for c in used), Fraction(0)) / len(used)
        return recall, precision, f1


# ---------------------------------------------------------------------------- helpers
def _pairs(values: list[int]) -> int:
    """Σ C(n, 2) over ``values``."""
    return sum([n * (n - 1) for n in values]) // 2


def _grouped_sum(numerators: Iterable[int], denominators: Iterable[int]) -> Fraction:
    """Σ numerators[i] / denominators[i] exactly: numerators summed per distinct denominator,
    then one fraction (:func:`sum_fractions`)."""
    sums: dict[int, int] = {}
    get = sums.get
    for num, den in zip(numerators, denominators):
        if num:
            sums[den] = get(den, 0) + num
    return sum_fractions(sums)


def sum_fractions(sums: dict[int, int]) -> Fraction:
    """Σ num / den over ``{den: num}`` (positive denominators) as one fraction: the
    numerators over the least common multiple, normalized once (adding Fractions one by one
    normalizes after every addition, which costs more than the rest of a metric)."""
    if not sums:
        return Fraction(0)
    common = lcm(*sums)
    return Fraction(sum([num * (common // den) for den, num in sums.items()]), common)


def _table(key: Partition, response: Partition, table: Contingency | None) -> Contingency:
    return table if table is not None else contingency(key, response)


# ---------------------------------------------------------------------------- metrics
def mentions(key: Partition, response: Partition, table: Contingency | None = None) -> Counts:
    """Mention identification: how many key mentions the response has, exactly."""
    t = _table(key, response, table)
    matched = sum(t.pair_common)
    return Counts(matched, key.n_mentions, matched, response.n_mentions)


def muc(key: Partition, response: Partition, table: Contingency | None = None) -> Counts:
    """MUC (Vilain et al. 1995): links.

    Recall = Σ_i (|K_i| − p(K_i)) / Σ_i (|K_i| − 1), where p(K_i) is the number of parts the
    response splits K_i into (missing mentions as parts of their own); the numerator equals
    Σ_ij (n_ij − 1) over non-empty intersections, which is also the precision numerator.
    Documents without key links give recall 0 (0/0), as in the reference scorer.
    """
    t = _table(key, response, table)
    correct = sum(t.pair_common) - len(t.pair_common)
    key_links = sum(t.key_sizes) - len(t.key_sizes)
    response_links = sum(t.response_sizes) - len(t.response_sizes)
    return Counts(correct, key_links, correct, response_links)


def bcub(key: Partition, response: Partition, table: Contingency | None = None) -> Counts:
    """B³ (Bagga & Baldwin 1998) over all mentions, twinless ones included.

    Recall = Σ_ij n_ij² / |K_i| over Σ_i |K_i|; precision = Σ_ij n_ij² / |R_j| over Σ_j |R_j|.
    """
    t = _table(key, response, table)
    squares = [n * n for n in t.pair_common]
    recall_num = _grouped_sum(squares, map(t.key_sizes.__getitem__, t.pair_key))
    precision_num = _grouped_sum(squares, map(t.response_sizes.__getitem__, t.pair_response))
    return Counts(recall_num, sum(t.key_sizes), precision_num, sum(t.response_sizes))


def ceaf_similarity(t: Contingency, entity_based: bool) -> Fraction:
    """Σ φ over the optimal one-to-one alignment of key and response entities (Luo 2005).

    φ3(K, R) = |K ∩ R| (mention-based), φ4(K, R) = 2|K ∩ R| / (|K| + |R|) (entity-based).
    Entities that share no mention have φ = 0, so the optimum decomposes over the connected
    components of the overlap graph. A component with a single key or a single response
    entity takes its best edge; any other is solved with the Hungarian algorithm
    (``scipy.optimize.linear_sum_assignment``) on exact integer weights. The total is exact.
    Large tables choose the best edge of every component with a single entity on a side in
    NumPy (:func:`_simple_components`) and solve only the others one by one.
    """
    if not t.pair_key:
        return Fraction(0)
    picked = ceaf_pairs(t, entity_based)
    dens = [t.key_sizes[t.pair_key[i]] + t.response_sizes[t.pair_response[i]] for i in picked]
    common = t.pair_common
    if not entity_based:
        return Fraction(sum([common[i] for i in picked]))
    return _grouped_sum([2 * common[i] for i in picked], dens)


def ceaf_pairs(t: Contingency, entity_based: bool) -> list[int]:
    """The pairs (indices into ``t.pair_*``) of the optimal one-to-one alignment of key and
    response entities that :func:`ceafm` (``entity_based`` False) or :func:`ceafe` sums φ
    over; the stratified metrics (:mod:`corefkit.scoring.metrics.strata`) split the same sum."""
    if not t.pair_key:
        return []
    key_sizes, response_sizes = t.key_sizes, t.response_sizes
    dens = [key_sizes[k] + response_sizes[r] for k, r in zip(t.pair_key, t.pair_response)]
    if len(dens) >= VECTOR_MIN and max(dens) < 2**25:
        return _vector_ceaf(t, dens, entity_based)
    return _solve_components(t.components, t.pair_key, t.pair_response, t.pair_common,
                             dens, entity_based)


def _vector_ceaf(t: Contingency, dens: list[int], entity_based: bool) -> list[int]:
    """The pairs of an optimal alignment of a large table: components with a single entity on
    a side take their best pair in NumPy, the others are solved one by one."""
    import numpy as np

    dense = np.asarray(dens, dtype=np.int64)
    best, rest = _simple_components(t, dense, entity_based)
    groups = group_pairs(t.pair_components[rest], np.arange(len(rest)))
    local = _solve_components(groups, [t.pair_key[i] for i in rest.tolist()],
                              [t.pair_response[i] for i in rest.tolist()],
                              [t.pair_common[i] for i in rest.tolist()],
                              dense[rest].tolist(), entity_based)
    picked: list[int] = np.concatenate((best, rest[np.array(local, dtype=np.int64)])).tolist()
    return picked


def _solve_components(groups: list[list[int]], pair_key: list[int], pair_response: list[int],
                      pair_common: list[int], dens: list[int], entity_based: bool) -> list[int]:
    """The pairs of an optimal alignment of each component (``groups`` of pair indices)."""
    chosen: list[int] = []
    for group in groups:
        if len(group) == 1:
            chosen.append(group[0])
            continue
        rows = {pair_key[i] for i in group}
        cols = {pair_response[i] for i in group}
        weights = _weights(group, pair_common, dens, entity_based)
        if len(rows) == 1 or len(cols) == 1:
            chosen.append(max(group, key=weights.__getitem__))
        elif len(rows) == 2:
            chosen.extend(_two_sided(group, pair_key, pair_response, weights))
        elif len(cols) == 2:
            chosen.extend(_two_sided(group, pair_response, pair_key, weights))
        else:
            chosen.extend(_hungarian(group, rows, cols, pair_key, pair_response, weights))
    return chosen


def _simple_components(t: Contingency, dens: Any, entity_based: bool) -> tuple[Any, Any]:
    """The best pair of every component with a single key or a single response entity
    (vectorized), and the pairs of the other components (ascending indices).

    The best pair is chosen on float weights: φ4 values whose denominators are below 2**25
    are never rounded to the same double unless they are equal, and equal weights give the
    same total whichever is chosen.
    """
    import numpy as np

    labels = t.pair_components
    n = int(labels.max()) + 1
    # the distinct entities of each side per component: an entity is in one component
    key_label = np.full(len(t.key_sizes), -1, dtype=np.int64)
    key_label[np.asarray(t.pair_key, dtype=np.int64)] = labels
    response_label = np.full(len(t.response_sizes), -1, dtype=np.int64)
    response_label[np.asarray(t.pair_response, dtype=np.int64)] = labels
    rows = np.bincount(key_label[key_label >= 0], minlength=n)
    cols = np.bincount(response_label[response_label >= 0], minlength=n)
    simple = ((rows == 1) | (cols == 1))[labels]
    alone = np.bincount(labels, minlength=n)[labels] == 1  # a component of one pair
    index = np.flatnonzero(simple & ~alone)
    common = np.asarray(t.pair_common, dtype=np.int64)[index]
    weight = common / dens[index] if entity_based else common
    order = np.lexsort((-weight, labels[index]))
    ordered = labels[index][order]
    best = index[order][np.concatenate(([True], ordered[1:] != ordered[:-1]))] if len(index) \
        else index
    return np.concatenate((np.flatnonzero(alone), best)), np.flatnonzero(~simple)


def _two_sided(group: list[int], side: list[int], other: list[int],
               weights: dict[int, int | float]) -> list[int]:
    """The optimal alignment of a component with exactly two entities on ``side``.

    Either one edge alone or one edge from each of the two entities to different partners;
    enumerating those is exact and much cheaper than the general algorithm.
    """
    first_entity = side[group[0]]
    first = [i for i in group if side[i] == first_entity]
    second = [i for i in group if side[i] != first_entity]
    best = [max(group, key=weights.__getitem__)]
    best_weight = weights[best[0]]
    for i in first:
        for j in second:
            if other[i] != other[j] and weights[i] + weights[j] > best_weight:
                best, best_weight = [i, j], weights[i] + weights[j]
    return best


def _weights(group: list[int], pair_common: list[int], dens: list[int],
             entity_based: bool) -> dict[int, int | float]:
    """φ of each pair of a component (``dens``: |K| + |R| of each pair), scaled to integers
    when that stays exact and small."""
    if not entity_based:
        return {i: pair_common[i] for i in group}
    scale = 1
    for d in {dens[i] for i in group}:
        scale = scale * d // gcd(scale, d)
        if scale > 2**40:  # many distinct sizes: floats choose, the sum stays exact
            return {i: 2 * pair_common[i] / dens[i] for i in group}
    return {i: 2 * pair_common[i] * (scale // dens[i]) for i in group}


def _hungarian(group: list[int], rows: set[int], cols: set[int], pair_key: list[int],
               pair_response: list[int], weights: dict[int, int | float]) -> list[int]:
    """An optimal alignment of one component: in Python, in exact integers where the weights
    are (:mod:`corefkit.scoring.assignment`), with SciPy's solver for large components. Only
    the total counts (any optimal alignment gives it), so the solver's ties do not matter."""
    row_index = {k: n for n, k in enumerate(sorted(rows))}
    col_index = {r: n for n, r in enumerate(sorted(cols))}
    at: dict[tuple[int, int], int] = {}
    for i in group:
        at[(row_index[pair_key[i]], col_index[pair_response[i]])] = i
    if len(rows) * len(cols) <= PYTHON_CELLS:
        zero: int | float = 0
        matrix = [[zero] * len(col_index) for _ in row_index]
        for (r, c), i in at.items():
            matrix[r][c] = weights[i]
        chosen = max_assignment(matrix)
    elif len(rows) * len(cols) > DENSE_CELLS:  # a long chain of entities: its edges only
        cells = list(at)
        chosen = sparse_max_assignment(len(row_index), len(col_index), [r for r, _ in cells],
                                       [c for _, c in cells], [weights[at[x]] for x in cells])
    else:
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        dense = np.zeros((len(row_index), len(col_index)), dtype=np.float64)
        for (r, c), i in at.items():
            dense[r, c] = weights[i]
        picked_rows, picked_cols = linear_sum_assignment(dense, maximize=True)
        chosen = list(zip(picked_rows.tolist(), picked_cols.tolist()))
    return [at[cell] for cell in chosen if cell in at]


def ceafm(key: Partition, response: Partition, table: Contingency | None = None) -> Counts:
    """Mention-based CEAF: Σ φ3 over Σ|K_i| (recall) and Σ|R_j| (precision)."""
    t = _table(key, response, table)
    similarity = ceaf_similarity(t, entity_based=False)
    return Counts(similarity, sum(t.key_sizes), similarity, sum(t.response_sizes))


def ceafe(key: Partition, response: Partition, table: Contingency | None = None) -> Counts:
    """Entity-based CEAF: Σ φ4 over the number of key (recall) and response entities."""
    t = _table(key, response, table)
    similarity = ceaf_similarity(t, entity_based=True)
    return Counts(similarity, len(t.key_sizes), similarity, len(t.response_sizes))


def blanc(key: Partition, response: Partition, table: Contingency | None = None) -> BlancCounts:
    """BLANC for predicted mentions (Recasens & Hovy 2011; Luo et al. 2014, eqs. 4–9).

    Coreference links C_k = Σ C(|K_i|, 2), C_r = Σ C(|R_j|, 2), correct Σ C(n_ij, 2).
    Non-coreference links N_k = C(Σ|K_i|, 2) − C_k, N_r likewise; the correct ones are the
    pairs of common mentions split by both sides: C(c, 2) − Σ_i C(c_i·, 2) − Σ_j C(c_·j, 2)
    + Σ_ij C(n_ij, 2), with c the common mentions and c_i·, c_·j the row and column sums.
    """
    t = _table(key, response, table)
    correct_coref = _pairs(t.pair_common)
    key_coref = _pairs(t.key_sizes)
    response_coref = _pairs(t.response_sizes)
    mk = sum(t.key_sizes)
    mr = sum(t.response_sizes)
    key_noncoref = mk * (mk - 1) // 2 - key_coref
    response_noncoref = mr * (mr - 1) // 2 - response_coref
    c = sum(t.pair_common)
    correct_noncoref = (c * (c - 1) // 2 - _pairs(t.key_common) - _pairs(t.response_common)
                        + correct_coref)
    return BlancCounts(
        Counts(correct_coref, key_coref, correct_coref, response_coref),
        Counts(correct_noncoref, key_noncoref, correct_noncoref, response_noncoref),
    )


def _lea_side(sizes: list[int], pair_entity: list[int], pair_common: list[int],
              other_sizes: list[int], pair_other: list[int]) -> Fraction:
    """Σ_i |E_i| · resolution(E_i) for one side (Moosavi & Strube 2016, eq. 1–2).

    resolution(E) = Σ_j C(|E ∩ F_j|, 2) / C(|E|, 2) for |E| > 1; a singleton is resolved
    when the other side also has it as a singleton (the self-link, as in the LEA scorer).
    Because |E| / C(|E|, 2) = 2 / (|E| − 1), the sum groups by |E| − 1.
    """
    links: dict[int, int] = {}  # entity -> its common links, for entities of two or more
    singletons = 0
    for e, n, o in zip(pair_entity, pair_common, pair_other):
        if sizes[e] > 1:
            if n > 1:
                links[e] = links.get(e, 0) + n * (n - 1) // 2
        elif other_sizes[o] == 1:
            singletons += 1
    sums: dict[int, int] = {}
    for e, n in links.items():
        sums[sizes[e] - 1] = sums.get(sizes[e] - 1, 0) + 2 * n
    return sum_fractions(sums) + singletons


def lea(key: Partition, response: Partition, table: Contingency | None = None) -> Counts:
    """LEA, the link-based entity-aware metric (Moosavi & Strube 2016), importance = size."""
    t = _table(key, response, table)
    recall_num = _lea_side(t.key_sizes, t.pair_key, t.pair_common, t.response_sizes,
                           t.pair_response)
    precision_num = _lea_side(t.response_sizes, t.pair_response, t.pair_common, t.key_sizes,
                              t.pair_key)
    return Counts(recall_num, sum(t.key_sizes), precision_num, sum(t.response_sizes))


METRICS: dict[str, Callable[..., Counts | BlancCounts]] = {
    "mentions": mentions,
    "muc": muc,
    "bcub": bcub,
    "ceafm": ceafm,
    "ceafe": ceafe,
    "blanc": blanc,
    "lea": lea,
}

# The CoNLL-2012 official score: the mean F1 of MUC, B³ and CEAFe (Pradhan et al. 2012).
CONLL_COMPONENTS = ("muc", "bcub", "ceafe")
DEFAULT_METRICS = ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll")


def conll(scores: dict[str, Counts | BlancCounts]) -> Fraction:
    return sum((scores[m].f1 for m in CONLL_COMPONENTS), Fraction(0)) / 3


# ---------------------------------------------------------------------------- repeated extents
def reference_repeats(counts: dict[str, Counts | BlancCounts], response: Partition,
                      duplicates: dict[int, int]) -> None:
    """Adjust, in place, the counts the reference scorer takes over *distinct* extents when a
    response extent the key lacks is repeated (``duplicates``: index of a repeat -> index of
    its first copy; see :mod:`corefkit.scoring.align`).

    Every other metric counts a repeat as one more twinless mention, as the reference does.
    Mention identification counts extents, so a repeat adds nothing. BLANC's response links
    are sets of pairs of mention ids (``BLANC_Internal``), so identical pairs merge, and a
    mention in two entities is also linked to itself across them.
    """
    if not duplicates:
        return
    found = counts.get("mentions")
    if isinstance(found, Counts):
        counts["mentions"] = Counts(found.recall_num, found.recall_den, found.precision_num,
                                    int(found.precision_den) - len(duplicates))
    blanc = counts.get("blanc")
    if isinstance(blanc, BlancCounts):
        coref, noncoref = _distinct_links(response, duplicates)
        counts["blanc"] = type(blanc)(
            Counts(blanc.coref.recall_num, blanc.coref.recall_den, blanc.coref.precision_num,
                   coref),
            Counts(blanc.noncoref.recall_num, blanc.noncoref.recall_den,
                   blanc.noncoref.precision_num, noncoref))


def _distinct_links(response: Partition, duplicates: dict[int, int]) -> tuple[int, int]:
    """(coreference, non-coreference) links of the response as sets of id pairs.

    With S(u) the entities holding id u and D the ids held twice (in two entities, or twice
    in one): coreference pairs are those within an entity, C(s, 2) among an entity's s ids
    outside D plus the pairs that involve D; non-coreference pairs are the C(U, 2) pairs of
    the U distinct ids but those of two ids that only one and the same entity holds, plus a
    self-pair for every id held by two entities.
    """
    holders: dict[int, list[int]] = {}
    for mention, entity in zip(response.mentions, response.entities):
        holders.setdefault(duplicates.get(mention, mention), []).append(entity)
    repeated = {u for u, held in holders.items() if len(held) > 1}
    plain = [0] * response.n_entities  # per entity: its ids outside D
    alone = [0] * response.n_entities  # per entity: ids only it holds
    for u, held in holders.items():
        if u not in repeated:
            plain[held[0]] += 1
        if len(set(held)) == 1:
            alone[held[0]] += 1
    coref = _pairs(plain)
    chains = {u: set(holders[u]) for u in repeated}
    for u in repeated:
        coref += sum(plain[e] for e in chains[u])
        coref += len(chains[u]) < len(holders[u])  # twice in one entity: the pair (u, u)
    ordered = sorted(repeated)
    for a, u in enumerate(ordered):
        coref += sum(1 for v in ordered[a + 1:] if chains[u] & chains[v])
    n = len(holders)
    noncoref = n * (n - 1) // 2 - _pairs(alone) \
        + sum(1 for u in repeated if len(chains[u]) > 1)
    return coref, noncoref
