"""An optimal one-to-one assignment of small weight matrices, in Python.

CEAF needs the maximum-weight matching of each connected component of the key–response
overlap graph (Luo 2005); most components are a handful of entities. For those, the
Hungarian algorithm with potentials (Kuhn 1955; Munkres 1957; the O(n²m) shortest
augmenting path form) runs here in integers when the weights are integers, so it is exact,
and importing SciPy's solver (half a second) is needed only for large components. Which of
several optimal assignments is returned is unspecified: callers that must break ties as a
peer does use that peer's solver.
"""

from __future__ import annotations

from collections.abc import Sequence

Weight = int | float
# above this many cells, SciPy's compiled solver is faster than the Python one
PYTHON_CELLS = 2500


def max_assignment(weights: Sequence[Sequence[Weight]]) -> list[tuple[int, int]]:
    """(row, column) pairs of a maximum-weight assignment of a rows × columns matrix.

    Every row is assigned when there are no more rows than columns (and every column
    otherwise); pairs of weight 0 are part of the result like any other.
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    if not rows or not cols:
        return []
    if rows > cols:  # solve the transpose: the algorithm assigns every row
        flipped = [[weights[r][c] for r in range(rows)] for c in range(cols)]
        return [(r, c) for c, r in max_assignment(flipped)]
    top = max(max(row) for row in weights)
    # minimise cost = top - weight (non-negative); 1-based arrays, column 0 is virtual
    cost = [[top - w for w in row] for row in weights]
    zero: Weight = top - top
    u = [zero] * (rows + 1)
    v = [zero] * (cols + 1)
    owner = [0] * (cols + 1)        # owner[c]: the row assigned to column c (0: none)
    way = [0] * (cols + 1)
    for row in range(1, rows + 1):
        owner[0] = row
        col0 = 0
        best: list[Weight | None] = [None] * (cols + 1)
        used = [False] * (cols + 1)
        while True:
            used[col0] = True
            r = owner[col0]
            delta: Weight | None = None
            col1 = 0
            costs = cost[r - 1]
            ur = u[r]
            for c in range(1, cols + 1):
                if used[c]:
                    continue
                reduced = costs[c - 1] - ur - v[c]
                current = best[c]
                if current is None or reduced < current:
                    best[c] = current = reduced
                    way[c] = col0
                if delta is None or current < delta:
                    delta, col1 = current, c
            assert delta is not None
            for c in range(cols + 1):
                if used[c]:
                    u[owner[c]] += delta
                    v[c] -= delta
                else:
                    found = best[c]
                    if found is not None:
                        best[c] = found - delta
            col0 = col1
            if owner[col0] == 0:
                break
        while col0:  # augment along the path
            col1 = way[col0]
            owner[col0] = owner[col1]
            col0 = col1
    return sorted((owner[c] - 1, c - 1) for c in range(1, cols + 1) if owner[c])
