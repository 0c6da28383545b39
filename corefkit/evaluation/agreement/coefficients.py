"""Chance-corrected agreement coefficients, as exact fractions: Cohen's κ, Fleiss' κ,
Krippendorff's α, and the MASI distance between sets.

Each takes the ratings of *units* (items) by *coders* and knows nothing of coreference; what a
unit and a value are for mentions and chains is :mod:`corefkit.evaluation.agreement.units`.
A coefficient whose expected disagreement is 0 (every rating the same value: no variation to
agree on) is undefined and returned as ``None``, never as a made-up 1 or 0.

* Cohen's κ (Cohen 1960): two coders, κ = (A_o − A_e) / (1 − A_e), A_e from each coder's own
  distribution of values.
* Fleiss' κ (Fleiss 1971): any number of coders, every unit rated by all of them;
  κ = (P̄ − P̄_e) / (1 − P̄_e) with P̄ the mean share of agreeing coder pairs per unit and P̄_e the
  sum of the squared overall value proportions (a generalisation of Scott's π: Artstein &
  Poesio 2008, §2.5).
* Krippendorff's α (Krippendorff 1980, 2004, §11.3): α = 1 − D_o / D_e over the pairable
  values (units rated by at least two coders), D_o = (1/n) Σ_u 1/(m_u − 1) Σ_{c≠k} δ(v_uc, v_uk),
  D_e = 1/(n(n − 1)) Σ_{c≠k} δ(v_c, v_k) over all pairs of the n pairable values.
* MASI (Passonneau 2006): δ(A, B) = 1 − J·M, J = |A ∩ B| / |A ∪ B| (Jaccard) and M = 1 if
  A = B, 2/3 if one contains the other, 1/3 if they only overlap, 0 if disjoint. NLTK's
  ``masi_distance`` rounded the weights to 0.67 and 0.33 before NLTK 3.10
  (:data:`NLTK_MASI_WEIGHTS` reproduces it); corefkit uses the paper's.

Krippendorff's expected disagreement sums δ over every pair of values. For set values it is
computed without looking at every pair: two disjoint sets are at distance 1, so
Σ n_j n_l δ(j, l) = (n² − Σ n_j²) − Σ_{j ≠ l, j ∩ l ≠ ∅} n_j n_l (1 − δ(j, l)), and only the pairs of
values sharing an element are visited (for chains: a handful per mention). Values of other
kinds (token labels) are few, and their pairs are summed directly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

Distance = Callable[[Any, Any], Fraction]

# Passonneau (2006): M for identity, containment, overlap, disjoint sets
MASI_WEIGHTS = (Fraction(1), Fraction(2, 3), Fraction(1, 3), Fraction(0))
# nltk.metrics.distance.masi_distance: the same with the weights rounded
NLTK_MASI_WEIGHTS = (Fraction(1), Fraction(67, 100), Fraction(33, 100), Fraction(0))


def masi_distance(a: frozenset[Any], b: frozenset[Any],
                  weights: tuple[Fraction, Fraction, Fraction, Fraction] = MASI_WEIGHTS,
                  common: int | None = None) -> Fraction:
    """The MASI distance of two sets (Passonneau 2006); ``common`` is |a ∩ b| when known."""
    shared = len(a & b) if common is None else common
    if shared == 0:
        return Fraction(1)  # disjoint: J = 0
    union = len(a) + len(b) - shared
    if shared == len(a) == len(b):
        monotonicity = weights[0]
    elif shared == min(len(a), len(b)):
        monotonicity = weights[1]
    else:
        monotonicity = weights[2]
    return 1 - Fraction(shared, union) * monotonicity


def binary_distance(a: Hashable, b: Hashable) -> Fraction:
    """0 for equal values, 1 otherwise (the nominal distance)."""
    return Fraction(0) if a == b else Fraction(1)


# ---------------------------------------------------------------------------------- κ
def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> Fraction | None:
    """Cohen's κ of two coders' values for the same units (position n: unit n)."""
    if len(first) != len(second):
        raise ValueError("both coders must rate the same units")
    units = len(first)
    if units == 0:
        return None
    observed = Fraction(sum(1 for a, b in zip(first, second) if a == b), units)
    one, two = Counter(first), Counter(second)
    expected = Fraction(sum(one[v] * two[v] for v in one), units * units)
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


def fleiss_kappa(units: Iterable[Sequence[Hashable]]) -> Fraction | None:
    """Fleiss' κ of units each rated by the same number (≥ 2) of coders (each unit given as
    its coders' values)."""
    agreeing = 0      # Σ_u Σ_v n_uv (n_uv − 1): ordered pairs of coders that agree
    totals: Counter[Hashable] = Counter()
    count = raters = 0
    for values in units:
        if count == 0:
            raters = len(values)
            if raters < 2:
                raise ValueError("Fleiss' kappa needs at least two coders per unit")
        elif len(values) != raters:
            raise ValueError("Fleiss' kappa needs the same number of coders for every unit")
        count += 1
        here = Counter(values)
        totals.update(here)
        agreeing += sum(n * (n - 1) for n in here.values())
    if count == 0:
        return None
    observed = Fraction(agreeing, count * raters * (raters - 1))
    ratings = count * raters
    expected = sum((Fraction(n, ratings) ** 2 for n in totals.values()), Fraction(0))
    if expected == 1:
        return None
    return (observed - expected) / (1 - expected)


# ---------------------------------------------------------------------------------- α
@dataclass(frozen=True)
class Alpha:
    """Krippendorff's α and the two sums it is made of, α = 1 − (n − 1) · observed / expected
    (``value`` is None when ``expected`` is 0: no variation among the values)."""

    value: Fraction | None
    units: int            # units with at least two values (pairable)
    values: int           # n: the pairable values
    observed: Fraction    # Σ_u 1/(m_u − 1) Σ_{c≠k} δ  (= n · D_o)
    expected: Fraction    # Σ_{c≠k} δ over all pairs of pairable values (= n(n − 1) · D_e)


def krippendorff_alpha(units: Iterable[Sequence[Any]], distance: Distance = binary_distance,
                       *, sets: bool = False,
                       weights: tuple[Fraction, Fraction, Fraction, Fraction] = MASI_WEIGHTS
                       ) -> Alpha:
    """Krippendorff's α of units, each given as the values its coders gave (missing values
    left out: a unit with fewer than two is not pairable and is skipped).

    ``sets=True``: the values are frozensets compared by the MASI distance with ``weights``
    (``distance`` is then not used), and the expected disagreement is summed over the pairs of
    values that intersect only (see the module's description).
    """
    observed = Fraction(0)
    frequency: Counter[Any] = Counter()
    pairable = 0
    measure: Distance = (lambda a, b: masi_distance(a, b, weights)) if sets else distance
    for values in units:
        if len(values) < 2:
            continue
        pairable += 1
        here = Counter(values)
        frequency.update(here)
        inside = Fraction(0)
        for a, na in here.items():
            for b, nb in here.items():
                if a != b:
                    inside += na * nb * measure(a, b)
        observed += inside / (len(values) - 1)
    n = sum(frequency.values())
    expected = _expected_sets(frequency, weights) if sets else _expected(frequency, distance)
    value = None if expected == 0 else 1 - (n - 1) * observed / expected
    return Alpha(value, pairable, n, observed, expected)


def _expected(frequency: Mapping[Any, int], distance: Distance) -> Fraction:
    total = Fraction(0)
    for a, na in frequency.items():
        for b, nb in frequency.items():
            if a != b:
                total += na * nb * distance(a, b)
    return total


def _expected_sets(frequency: Mapping[frozenset[Any], int],
                   weights: tuple[Fraction, Fraction, Fraction, Fraction]) -> Fraction:
    """Σ_{j,l} n_j n_l δ(j, l) for set values, visiting only the pairs that share an element."""
    n = sum(frequency.values())
    total = Fraction(n * n - sum(c * c for c in frequency.values()))
    holders: dict[Any, list[frozenset[Any]]] = {}
    for value in frequency:
        for element in value:
            holders.setdefault(element, []).append(value)
    for value, count in frequency.items():
        shared: Counter[frozenset[Any]] = Counter()
        for element in value:
            for other in holders[element]:
                if other is not value:
                    shared[other] += 1
        for other, common in shared.items():
            # a pair at distance 1 was counted in the first term: take back 1 − δ
            closeness = 1 - masi_distance(value, other, weights, common)
            total -= count * frequency[other] * closeness
    return total
