"""Two-decimal values as the peer a semantics imitates prints them.

The Python peers — the UA scorer 1.x, the CorefUD scorer 1.2, coval — print
``'%.2f' % (x * 100)`` of doubles they compute themselves: recall and precision as
``num / float(den)``, F1 as ``(1 + β²)·p·r / (β²·p + r)`` of those doubles, BLANC as the mean
of its parts' doubles, the CoNLL score as ``(F1_muc + F1_bcub + F1_ceafe) / 3 * 100``. Where
the exact value is a decimal tie (F1 = 27/32 = 84.375 %), the double they reach may lie on
either side of it (84.37 for R = 1, P = 27/37), while the double nearest the exact fraction
is the tie itself, which ``%.2f`` rounds half to even (84.38). corefkit's table prints their
doubles under their semantics, so that its printed values are theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from corefkit.scoring.metrics.standard import BlancCounts, Counts

# the semantics labels whose scorers print the doubles above
PYTHON_PEERS = frozenset({"corefud-scorer-1.2", "ua-scorer", "coval-87071a6"})
CONLL_PARTS = ("muc", "bcub", "ceafe")


def _double(value: Any) -> float:
    return float(Fraction(value))


def _f1(p: float, r: float, beta: int = 1) -> float:
    return 0 if p + r == 0 else (1 + beta * beta) * p * r / (beta * beta * p + r)


def rpf_doubles(counts: Counts) -> tuple[float, float, float]:
    """(R, P, F1) of one set of counts, in the peers' doubles (their ``Evaluator``)."""
    p = 0.0 if counts.precision_num == 0 else _double(counts.precision_num) / _double(
        counts.precision_den)
    r = 0.0 if counts.recall_num == 0 else _double(counts.recall_num) / _double(
        counts.recall_den)
    return r, p, float(_f1(p, r))


def metric_doubles(counts: Any) -> tuple[float, float, float] | None:
    """(R, P, F1) of a metric as the Python peers compute them; None for a type they do
    not print this way (corefkit's own families)."""
    if isinstance(counts, BlancCounts):
        parts = [rpf_doubles(c) for c in (counts.coref, counts.noncoref)
                 if not (c.precision_den == 0 and c.recall_den == 0)]
        if not parts:
            return 0.0, 0.0, 0.0
        r = p = f = 0.0
        for pr, pp, pf in parts:
            r += pr
            p += pp
            f += pf
        return r / len(parts), p / len(parts), f / len(parts)
    if isinstance(counts, Counts):
        return rpf_doubles(counts)
    return None


def percent(value: float) -> str:
    """``'%.2f' % (value * 100)``, as the peers print."""
    return "%.2f" % (value * 100)


def conll_doubles(metrics: Mapping[str, Any]) -> float | None:
    """The CoNLL score (×100) as the Python peers sum it, from the three metrics' F1 doubles."""
    total = 0.0
    for name in CONLL_PARTS:
        found = metrics.get(name)
        doubles = metric_doubles(found.counts) if found is not None else None
        if doubles is None:
            return None
        total += doubles[2]
    return (total / 3) * 100
