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
from typing import Any

Weight = int | float
# above this many cells, SciPy's compiled solver is faster than the Python Hungarian one
PYTHON_CELLS = 2500
# ... and than the Python shortest-path one including SciPy's import (~0.3 s): a dense 200 x 200
# matrix takes 0.05 s here, 400 x 400 0.23 s (the CorefUD scorer's mention matrices of GUM
# documents reach 65 x 91, mostly zeros)
SHORTEST_PATH_CELLS = 40000


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


def shortest_path_assignment(cost: Sequence[Sequence[float]], maximize: bool = False
                             ) -> tuple[list[int], list[int]]:
    """(rows, columns) of an optimal assignment, with the tie-breaking of the shortest
    augmenting path algorithm of Crouse (2016, pp. 1685-1686), the algorithm behind
    ``scipy.optimize.linear_sum_assignment``: rows are augmented in order, the columns still
    to scan are kept in a list filled in reverse order and compacted by moving the last one into
    the scanned one's place, and among columns of equal path cost an unassigned one (a sink) is
    preferred. The peers whose ties corefkit reproduces (the CorefUD and UA scorers) use that
    SciPy function; this reimplementation, in doubles as SciPy computes, gives the same
    assignment on small matrices without importing SciPy (half a second). Results are sorted by
    row, as SciPy's."""
    rows = len(cost)
    cols = len(cost[0]) if rows else 0
    if not rows or not cols:
        return [], []
    transposed = cols < rows
    matrix = [[float(cost[r][c]) for r in range(rows)] for c in range(cols)] if transposed \
        else [[float(x) for x in row] for row in cost]
    if maximize:
        matrix = [[-x for x in row] for row in matrix]
    n_rows, n_cols = (cols, rows) if transposed else (rows, cols)
    col4row = _augment_all(matrix, n_rows, n_cols)
    if transposed:  # rows of the problem solved are the columns asked about
        pairs = sorted((col4row[k], k) for k in range(n_rows))
        return [r for r, _ in pairs], [c for _, c in pairs]
    return list(range(n_rows)), col4row


def _augment_all(cost: list[list[float]], n_rows: int, n_cols: int) -> list[int]:
    """The column of each row, augmenting one row after another (``n_rows <= n_cols``)."""
    inf = float("inf")
    u = [0.0] * n_rows
    v = [0.0] * n_cols
    col4row = [-1] * n_rows
    row4col = [-1] * n_cols
    path = [-1] * n_cols
    for current in range(n_rows):
        shortest = [inf] * n_cols
        rows_seen = [False] * n_rows
        cols_seen = [False] * n_cols
        remaining = [n_cols - k - 1 for k in range(n_cols)]
        left = n_cols
        low = 0.0
        row = current
        sink = -1
        while sink == -1:
            rows_seen[row] = True
            best, at = inf, -1
            costs, ur = cost[row], u[row]
            for k in range(left):
                col = remaining[k]
                reduced = low + costs[col] - ur - v[col]
                if reduced < shortest[col]:
                    path[col] = row
                    shortest[col] = reduced
                if shortest[col] < best or (shortest[col] == best and row4col[col] == -1):
                    best, at = shortest[col], k
            low = best
            if low == inf:
                raise ValueError("the cost matrix has no feasible assignment")
            col = remaining[at]
            if row4col[col] == -1:
                sink = col
            else:
                row = row4col[col]
            cols_seen[col] = True
            left -= 1
            remaining[at] = remaining[left]
        u[current] += low
        for r in range(n_rows):
            if rows_seen[r] and r != current:
                u[r] += low - shortest[col4row[r]]
        for c in range(n_cols):
            if cols_seen[c]:
                v[c] -= low - shortest[c]
        col = sink
        while True:
            row = path[col]
            row4col[col] = row
            col4row[row], col = col, col4row[row]
            if row == current:
                break
    return col4row


def linear_assignment(cost: Any, maximize: bool = False) -> tuple[list[int], list[int]]:
    """SciPy's ``linear_sum_assignment`` (same results, ties included), in Python for small
    matrices and by SciPy for large ones; ``cost`` is a NumPy array or nested lists."""
    matrix = cost.tolist() if hasattr(cost, "tolist") else cost
    rows = len(matrix)
    cols = len(matrix[0]) if rows else 0
    if rows * cols <= SHORTEST_PATH_CELLS:
        return shortest_path_assignment(matrix, maximize)
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    picked_rows, picked_cols = linear_sum_assignment(np.asarray(cost, dtype=np.float64),
                                                     maximize=maximize)
    return picked_rows.tolist(), picked_cols.tolist()


# a component with more cells than this is solved on its edges only (memory O(edges)); below,
# a dense matrix is at most 8 MB
DENSE_CELLS = 1_000_000


def sparse_max_assignment(n_rows: int, n_cols: int, rows: Sequence[int], cols: Sequence[int],
                          weights: Sequence[float]) -> list[tuple[int, int]]:
    """(row, column) pairs of a maximum-weight matching over the given edges (positive
    weights), in memory proportional to the edges: a large CEAF component (a chain of entities
    that each share a mention with the next) never becomes a rows × columns matrix.

    SciPy's LAPJVsp (``min_weight_full_bipartite_matching``) finds a full matching; every row
    gets a private dummy column of weight 0 so that one exists, and all weights are raised by
    the same constant (which adds the same amount to every full matching) so that none is 0.
    """
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    if not len(rows):
        return []
    lift = 1.0 + max(abs(w) for w in weights)
    all_rows = np.concatenate((np.asarray(rows, dtype=np.int64), np.arange(n_rows)))
    all_cols = np.concatenate((np.asarray(cols, dtype=np.int64), n_cols + np.arange(n_rows)))
    values = np.concatenate((np.asarray(weights, dtype=np.float64) + lift,
                             np.full(n_rows, lift)))
    graph = coo_matrix((values, (all_rows, all_cols)), shape=(n_rows, n_cols + n_rows)).tocsr()
    picked_rows, picked_cols = min_weight_full_bipartite_matching(graph, maximize=True)
    return [(r, c) for r, c in zip(picked_rows.tolist(), picked_cols.tolist()) if c < n_cols]
