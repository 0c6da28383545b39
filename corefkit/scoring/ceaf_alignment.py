"""CEAF's one-to-one alignment of key and response entities when entities share mentions.

CEAF (Luo 2005) needs a maximum-weight assignment over the pairs of key and response entities
that overlap. When every mention is in one entity per side those pairs are at most the
mentions, but scorers that keep repeated mentions (the CorefUD scorer, coval, the UA scorer)
let one mention stand in many entities, and then every entity holding it overlaps every other:
40,000 one-mention entities on one token are 40,000² pairs (issue 22). Identical entities are
therefore aligned as classes with multiplicities (:func:`class_assignment`), a component too
large for a dense matrix is solved on its edges (:func:`best_assignment`), and what is left
beyond :data:`OVERLAP_BUDGET` pairs is refused with a clear error.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from corefkit.errors import CorefkitError
from corefkit.scoring.assignment import DENSE_CELLS, linear_assignment, sparse_max_assignment

H = TypeVar("H", bound=Hashable)


# Pairs of (classes of) clusters CEAF may weigh: far above any corpus (a GUM document has a few
# hundred), far below what a dense comparison of 40,000 repeated mentions would take
OVERLAP_BUDGET = 5_000_000


def too_dense(keys: int, responses: int) -> Exception:
    return CorefkitError(
        f"CEAF cannot align {keys} key and {responses} response entities that share repeated "
        f"mentions: more than {OVERLAP_BUDGET:,} pairs of entities overlap (a mention repeated in "
        "many entities overlaps each of them); merge the repeats first (--pass merge-same-span) "
        "or score without ceafm and ceafe")


def cluster_classes(clusters: Sequence[list[H]]) -> tuple[list[int], list[list[H]]]:
    """Each cluster's class (clusters with the same items, counted, are one class) and one
    cluster of each class."""
    index: dict[frozenset[tuple[H, int]], int] = {}
    of: list[int] = []
    reps: list[list[H]] = []
    for cluster in clusters:
        counts: dict[H, int] = {}
        for item in cluster:
            counts[item] = counts.get(item, 0) + 1
        signature = frozenset(counts.items())
        found = index.get(signature)
        if found is None:
            found = index[signature] = len(reps)
            reps.append(cluster)
        of.append(found)
    return of, reps


def class_assignment(key_class: Sequence[int], response_class: Sequence[int],
                     edges: dict[tuple[int, int], Any],
                     weight: Callable[[int, int], Fraction]) -> list[tuple[int, int]]:
    """A maximum-weight one-to-one assignment of key clusters to response clusters (indices)
    when the weights are given between classes of identical clusters (``edges`` and
    ``weight`` over class numbers; ``key_class[i]`` is the class of key cluster i).

    Per connected component of the class graph: classes of one cluster each are the ordinary
    assignment; a component whose clusters fit :data:`DENSE_CELLS` is solved cluster by
    cluster; one with a single class on a side is a star, where the best clusters of the other
    side are taken greedily (every cluster of the single class is the same, so the greedy
    choice is optimal). Anything else is refused rather than solved in quadratic space.
    """
    members: dict[tuple[str, int], list[int]] = {}
    for i, a in enumerate(key_class):
        members.setdefault(("k", a), []).append(i)
    for j, b in enumerate(response_class):
        members.setdefault(("r", b), []).append(j)
    chosen: list[tuple[int, int]] = []
    for group in _components(edges):
        rows = sorted({a for a, _ in group})
        cols = sorted({b for _, b in group})
        key_members = [members[("k", a)] for a in rows]
        response_members = [members[("r", b)] for b in cols]
        n_keys = sum(map(len, key_members))
        n_responses = sum(map(len, response_members))
        if n_keys == len(rows) and n_responses == len(cols) or \
                n_keys * n_responses <= DENSE_CELLS:
            expanded = {(i, j): edges[(a, b)] for a, b in group
                        for i in members[("k", a)] for j in members[("r", b)]}
            chosen.extend(best_assignment(
                expanded, lambda i, j: weight(key_class[i], response_class[j])))
        elif len(rows) == 1:
            chosen.extend(_star(key_members[0], [(b, members[("r", b)]) for b in cols],
                                lambda b: weight(rows[0], b)))
        elif len(cols) == 1:
            chosen.extend((i, j) for j, i in _star(
                response_members[0], [(a, members[("k", a)]) for a in rows],
                lambda a: weight(a, cols[0])))
        else:
            raise too_dense(n_keys, n_responses)
    return chosen


def _star(centre: list[int], others: list[tuple[int, list[int]]],
          weight: Callable[[int], Fraction]) -> list[tuple[int, int]]:
    """The identical clusters ``centre`` against classes of clusters: each takes one of the
    best remaining clusters."""
    ranked = sorted(others, key=lambda other: -weight(other[0]))
    pairs: list[tuple[int, int]] = []
    supply = iter(centre)
    for _, clusters in ranked:
        for j in clusters:
            i = next(supply, None)
            if i is None:
                return pairs
            pairs.append((i, j))
    return pairs


def _components(edges: dict[tuple[int, int], Any]) -> list[list[tuple[int, int]]]:
    """The edges of each connected component of a bipartite graph (union–find)."""
    parent: dict[Hashable, Hashable] = {}

    def root(x: Hashable) -> Hashable:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j in edges:
        parent[root(("r", i))] = root(("c", j))
    components: dict[Hashable, list[tuple[int, int]]] = {}
    for edge in edges:
        components.setdefault(root(("r", edge[0])), []).append(edge)
    return list(components.values())


def best_assignment(edges: dict[tuple[int, int], Any],
                    weight: Callable[[int, int], Fraction]) -> list[tuple[int, int]]:
    """A maximum-weight one-to-one assignment over the given (row, column) edges, solved per
    connected component (Kuhn–Munkres where a component has several rows and columns, on its
    edges alone where a dense matrix would pass :data:`DENSE_CELLS`)."""
    chosen = []
    for group in _components(edges):
        rows = sorted({i for i, _ in group})
        cols = sorted({j for _, j in group})
        if len(rows) == 1 or len(cols) == 1:
            chosen.append(max(group, key=lambda e: weight(*e)))
            continue
        row_of = {i: n for n, i in enumerate(rows)}
        col_of = {j: n for n, j in enumerate(cols)}
        if len(rows) * len(cols) > DENSE_CELLS:
            picked = sparse_max_assignment(len(rows), len(cols), [row_of[i] for i, _ in group],
                                           [col_of[j] for _, j in group],
                                           [float(weight(i, j)) for i, j in group])
            chosen.extend((rows[r], cols[c]) for r, c in picked)
            continue
        import numpy as np

        matrix = np.zeros((len(rows), len(cols)))
        for i, j in group:
            matrix[row_of[i], col_of[j]] = float(weight(i, j))
        picked_rows, picked_cols = linear_assignment(matrix, maximize=True)
        chosen.extend((rows[r], cols[c]) for r, c in zip(picked_rows, picked_cols)
                      if (rows[r], cols[c]) in edges)
    return chosen
