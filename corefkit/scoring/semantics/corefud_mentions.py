"""The CorefUD scorer's two metrics defined on mentions rather than partitions.

* ``mor``, the mention overlap ratio of the CRAC 2022 shared-task findings (Žabokrtský et al.
  2022): token overlap under the best one-to-one pairing of overlapping mentions,
  independent of the matching method;
* ``zero``, the anaphor-decomposable score restricted to zero anaphors (the scorer's
  ``als_zeros``), on the scorer's clusters — a repeated mention in every entity that has it
  — and its lookups (:mod:`corefkit.scoring.semantics.corefud_align`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.semantics.corefud_model import UDMention
from corefkit.scoring.semantics.overlap_ratio import mention_overlap  # noqa: F401 (re-exported)

if TYPE_CHECKING:
    Identity = Callable[[UDMention], Hashable]


def zero_anaphors(key_clusters: Sequence[Sequence[UDMention]],
                  response_clusters: Sequence[Sequence[UDMention]], identity: Identity,
                  counterpart: dict[Hashable, int | None],
                  response_ids: list[Hashable]) -> Counts:
    """The anaphor-decomposable score for zeros (CorefUD scorer ``als_zeros``).

    Every non-first mention of a key cluster (in the scorer's mention order) that is a zero is
    an anaphor. Its counterpart is the response mention of the same identity, else its
    partner in the alignment (``counterpart``: key identity -> index into ``response_ids``);
    the counterpart's cluster is the one a lookup finds, the later one for a repeated mention.
    The anaphor is a true positive when its counterpart is no first mention of a response
    cluster and its cluster holds the counterpart of an earlier mention of the key cluster; a
    wrong link when it is no first mention but its cluster holds none; a false negative
    otherwise. Every occurrence of a response zero that is no first mention and nobody's
    counterpart is a false positive. Recall = tp / (tp + fn + wl), precision =
    tp / (tp + fp + wl).
    """
    tp = fp = fn = wl = 0
    cluster_of: dict[Hashable, int] = {}
    first_ids: set[Hashable] = set()
    for c, cluster in enumerate(response_clusters):
        for m in cluster:
            cluster_of[identity(m)] = c
        if cluster:
            first_ids.add(identity(min(cluster, key=lambda m: m.order)))
    covered: set[Hashable] = set()
    for cluster in key_clusters:
        earlier: set[int] = set()
        for n, m in enumerate(sorted(cluster, key=lambda m: m.order)):
            j = counterpart.get(identity(m))
            found = response_ids[j] if j is not None else None
            chain = cluster_of[found] if found is not None else None
            if n and m.zero:
                if found is None or found in first_ids:
                    fn += 1
                elif chain not in earlier:
                    wl += 1
                else:
                    tp += 1
                if found is not None:
                    covered.add(found)
            if chain is not None:
                earlier.add(chain)
    for cluster in response_clusters:
        for m in cluster:
            ident = identity(m)
            if m.zero and ident not in first_ids and ident not in covered:
                fp += 1
    return Counts(tp, tp + fn + wl, tp, tp + fp + wl)
