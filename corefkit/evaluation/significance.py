"""Paired significance tests over documents: permutation tests and bootstrap intervals of
metrics whose score is a function of summed per-document counts.

Both resampling methods rely on the additivity of the metrics' counts: a corpus score is a
function of the summed document counts (numerators and denominators), so a permuted or
resampled corpus is a weighted sum of the per-document count vectors — one matrix product
for thousands of replicates (NumPy, float64). The observed differences reported are the exact
ones; the resampled ones are compared with a tolerance of 1e-9.

Permutation test (approximate randomization, Noreen 1989): under the null hypothesis the two
systems' outputs are exchangeable within each document; each replicate swaps the two
systems' counts of every document with probability ½ and recomputes the difference
Δ' = S(A') − S(B'). Two-sided p = (1 + #{|Δ'| ≥ |Δ|}) / (1 + N). When 2^documents ≤ N
every assignment is enumerated instead and p = #{|Δ'| ≥ |Δ|} / 2^documents (exact).

Bootstrap (Efron & Tibshirani 1993; Koehn 2004): each replicate draws the documents with
replacement (one multinomial draw shared by all systems on the same key, so that intervals
of differences are paired) and the percentile interval at level 1 − α is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from corefkit.errors import UsageError
from corefkit.scoring.metrics.by_type import BY_TYPE
from corefkit.scoring.metrics.standard import CONLL_COMPONENTS, BlancCounts, Counts
from corefkit.scoring.report import MetricResult, ScoreReport

TOLERANCE = 1e-9
CHUNK = 2048  # replicates per matrix product (bounds memory for corpora of many documents)


# ============================================================================ statistics
def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    return np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape), where=den != 0)


def _prf(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(R, P, F1) from summed (recall num, recall den, precision num, precision den)."""
    r = _ratio(t[..., 0], t[..., 1])
    p = _ratio(t[..., 2], t[..., 3])
    return r, p, _ratio(2 * p * r, p + r)


def _blanc_reference(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:meth:`BlancCounts._parts`, vectorized: a part the key has no links of is left out."""
    coref, non = _prf(t[..., :4]), _prf(t[..., 4:])
    has_c, has_n = t[..., 1] != 0, t[..., 5] != 0
    return tuple(np.where(has_c & has_n, (c + n) / 2, np.where(has_c, c, np.where(has_n, n, 0.0)))
                 for c, n in zip(coref, non))  # type: ignore[return-value]


def _blanc_ua(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:meth:`CorefUDBlancCounts._parts`, vectorized: a part neither side has is left out."""
    coref, non = _prf(t[..., :4]), _prf(t[..., 4:])
    used_c = (t[..., 1] != 0) | (t[..., 3] != 0)
    used_n = (t[..., 5] != 0) | (t[..., 7] != 0)
    n_used = used_c.astype(np.float64) + used_n
    r, p, f = (_ratio(c * used_c + n * used_n, n_used) for c, n in zip(coref, non))
    return r, p, f  # arrays, or 0-d values for one setting


def _conll(t: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    f = sum(_prf(t[..., 4 * k:4 * k + 4])[2] for k in range(3)) / 3
    return f, f, f  # type: ignore[return-value]  # an average of F1 values only


def _counts_row(c: Counts) -> list[float]:
    return [float(c.recall_num), float(c.recall_den), float(c.precision_num),
            float(c.precision_den)]


@dataclass(frozen=True)
class Statistic:
    """A metric as a function of summed per-document count vectors.

    ``row(metrics)`` gives one document's count vector from its per-document results;
    ``evaluate(totals)`` the (R, P, F1) of summed vectors (any leading shape).
    """

    name: str
    row: Callable[[dict[str, MetricResult]], list[float]]
    evaluate: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
    f1_only: bool = False

    def value(self, totals: np.ndarray, score: str) -> np.ndarray:
        r, p, f = self.evaluate(totals)
        return f if self.f1_only else {"recall": r, "precision": p, "f1": f}[score]

    def defined(self, totals: np.ndarray) -> np.ndarray:
        """Where the summed counts have a denominator: a resample without a single mention
        of a type has no score, rather than a score of 0."""
        return np.any(totals[..., 1::2] != 0, axis=-1)


def statistic(name: str, report: ScoreReport) -> Statistic:
    """The :class:`Statistic` of metric ``name`` (``conll``, ``bcub``, ``by_type.generic``,
    ...) of the kind of counts ``report`` holds."""
    if name == "conll":
        return Statistic(name, lambda ms: [x for m in CONLL_COMPONENTS
                                           for x in _counts_row(ms[m].counts)],
                         _conll, f1_only=True)
    if name.startswith(BY_TYPE + "."):
        type_name = name[len(BY_TYPE) + 1:]
        return Statistic(name, lambda ms: _counts_row(ms[BY_TYPE].counts[type_name].counts), _prf)
    counts = report.metrics[name].counts
    if isinstance(counts, BlancCounts):
        from corefkit.scoring.metrics.standard import CorefUDBlancCounts

        if isinstance(counts, CorefUDBlancCounts):
            rule = _blanc_ua
        elif type(counts)._parts is BlancCounts._parts:
            rule = _blanc_reference
        else:
            raise UsageError(f"compare cannot resample {name} of type {type(counts).__name__}")
        return Statistic(name, lambda ms: _counts_row(ms[name].counts.coref)
                         + _counts_row(ms[name].counts.noncoref), rule)
    if isinstance(counts, Counts):
        return Statistic(name, lambda ms: _counts_row(ms[name].counts), _prf)
    raise UsageError(f"compare cannot resample the metric {name}: its score is not a function "
                     "of summed numerators and denominators; leave it out of --metrics")


def exact_score(report: ScoreReport, name: str, score: str) -> Fraction | None:
    """The corpus score of ``name`` from the report's exact counts (None: undecidable type)."""
    if name.startswith(BY_TYPE + "."):
        counts = report.metrics[BY_TYPE].counts[name[len(BY_TYPE) + 1:]]
        return getattr(counts, score)
    result = report.metrics[name]
    if result.counts is None:  # conll: an average of F1 values
        return result.f1
    return getattr(result, score)


# ============================================================================ resampling
def permutation_test(a: np.ndarray, b: np.ndarray, stat: Statistic, score: str,
                     permutations: int, rng: np.random.Generator) -> tuple[float, int, bool]:
    """Two-sided paired permutation test over documents: (p value, replicates, exact).

    ``a`` and ``b`` are (documents × width) count matrices of two systems on the same key.
    """
    documents = a.shape[0]
    sum_a, sum_b = a.sum(axis=0), b.sum(axis=0)
    observed = abs(float(stat.value(sum_a, score) - stat.value(sum_b, score)))
    delta = b - a
    exact = documents < 63 and 2 ** documents <= permutations
    total = 2 ** documents if exact else permutations
    extreme = 0
    for start in range(0, total, CHUNK):
        size = min(CHUNK, total - start)
        if exact:  # every assignment: the bits of start … start+size−1
            codes = np.arange(start, start + size, dtype=np.int64)[:, None]
            masks = ((codes >> np.arange(documents, dtype=np.int64)) & 1).astype(np.float64)
        else:
            masks = rng.integers(0, 2, size=(size, documents)).astype(np.float64)
        shift = masks @ delta
        diffs = stat.value(sum_a + shift, score) - stat.value(sum_b - shift, score)
        extreme += int(np.count_nonzero(np.abs(diffs) >= observed - TOLERANCE))
    p = extreme / total if exact else (extreme + 1) / (permutations + 1)
    return min(p, 1.0), total, exact


def bootstrap_weights(documents: int, replicates: int, rng: np.random.Generator
                      ) -> list[np.ndarray]:
    """Multinomial resampling weights of documents, in chunks of replicates."""
    chunks = []
    probabilities = np.full(documents, 1.0 / documents)
    for start in range(0, replicates, CHUNK):
        size = min(CHUNK, replicates - start)
        chunks.append(rng.multinomial(documents, probabilities, size=size).astype(np.float64))
    return chunks


def percentile_interval(values: np.ndarray, alpha: float, observed: float | None = None
                        ) -> tuple[float, float] | None:
    """The percentile interval at level 1 − α of the replicates that have a score (None if
    none has).

    A replicate within TOLERANCE of the ``observed`` value is that value: the replicates are
    float sums in another order than the exact observed score, so a resample that is the
    observed corpus must not fall one rounding step beside it (every document the same gives
    the interval [observed, observed], not one that misses its own estimate).
    """
    values = values[~np.isnan(values)]
    if not len(values):
        return None
    if observed is not None:
        values = np.where(np.abs(values - observed) <= TOLERANCE, observed, values)
    low, high = np.percentile(values, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return float(low), float(high)


# ============================================================================ many datasets
def macro_value(totals: list[np.ndarray], stat: Statistic, score: str) -> np.ndarray:
    """The mean over datasets of ``stat`` on each dataset's summed counts (any leading
    shape): the macro-average CRAC ranks by."""
    return sum(stat.value(t, score) for t in totals) / len(totals)  # type: ignore[return-value]


def macro_permutation_test(a: list[np.ndarray], b: list[np.ndarray], stat: Statistic, score: str,
                           permutations: int, rng: np.random.Generator
                           ) -> tuple[float, int, bool]:
    """Two-sided paired permutation test of the macro-average over datasets: (p, replicates,
    exact).

    ``a[d]`` and ``b[d]`` are the (documents × width) count matrices of two systems on
    dataset d. Each replicate swaps the two systems' counts of every document (of every
    dataset) with probability ½, recomputes each dataset's score from its swapped sums and
    averages over the datasets; p = (1 + #{|Δ'| ≥ |Δ|}) / (1 + N), or the exact enumeration
    over all 2^documents assignments when that is at most N (p = #{|Δ'| ≥ |Δ|} / 2^documents).
    """
    sizes = [x.shape[0] for x in a]
    documents = sum(sizes)
    sums_a, sums_b = [x.sum(axis=0) for x in a], [x.sum(axis=0) for x in b]
    observed = abs(float(macro_value(sums_a, stat, score) - macro_value(sums_b, stat, score)))
    deltas = [y - x for x, y in zip(a, b)]
    exact = documents < 63 and 2 ** documents <= permutations
    total = 2 ** documents if exact else permutations
    offsets = np.cumsum([0] + sizes)
    extreme = 0
    for start in range(0, total, CHUNK):
        size = min(CHUNK, total - start)
        if exact:
            codes = np.arange(start, start + size, dtype=np.int64)[:, None]
            masks = ((codes >> np.arange(documents, dtype=np.int64)) & 1).astype(np.float64)
        else:
            masks = rng.integers(0, 2, size=(size, documents)).astype(np.float64)
        diff = np.zeros(size)
        for d, delta in enumerate(deltas):
            shift = masks[:, offsets[d]:offsets[d + 1]] @ delta
            diff += stat.value(sums_a[d] + shift, score) - stat.value(sums_b[d] - shift, score)
        diff /= len(deltas)
        extreme += int(np.count_nonzero(np.abs(diff) >= observed - TOLERANCE))
    p = extreme / total if exact else (extreme + 1) / (permutations + 1)
    return min(p, 1.0), total, exact


def macro_bootstrap_differences(a: list[np.ndarray], b: list[np.ndarray], stat: Statistic,
                                score: str, replicates: int, rng: np.random.Generator
                                ) -> np.ndarray:
    """Paired bootstrap replicates of the macro-average difference: the documents of each
    dataset drawn with replacement within that dataset (the same draw for both systems); a
    replicate where a dataset has no score on a side is NaN."""
    out = np.zeros(replicates)
    defined = np.ones(replicates, dtype=bool)
    for x, y in zip(a, b):
        weights = np.concatenate(bootstrap_weights(x.shape[0], replicates, rng)) \
            if replicates else np.zeros((0, x.shape[0]))
        ta, tb = weights @ x, weights @ y
        defined &= stat.defined(ta) & stat.defined(tb)
        out += stat.value(ta, score) - stat.value(tb, score)
    out /= len(a)
    return np.where(defined, out, np.nan)
