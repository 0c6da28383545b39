"""The Python assignment solver behind CEAF's components: optimal on every small matrix."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from corefkit.scoring.assignment import max_assignment


def best_by_enumeration(weights: list[list]) -> object:
    rows, cols = len(weights), len(weights[0])
    if rows <= cols:
        return max(sum(weights[r][c] for r, c in zip(range(rows), perm))
                   for perm in itertools.permutations(range(cols), rows))
    return max(sum(weights[r][c] for c, r in zip(range(cols), perm))
               for perm in itertools.permutations(range(rows), cols))


@pytest.mark.parametrize("seed", range(300))
def test_optimal_and_one_to_one(seed):
    rng = random.Random(seed)
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    if seed % 3 == 0:  # exact fractions: the solver works in whatever numbers it is given
        weights = [[Fraction(rng.randint(0, 9), rng.randint(1, 9)) for _ in range(cols)]
                   for _ in range(rows)]
    else:
        weights = [[rng.choice([0, 0, 1, 2, 3, 7]) for _ in range(cols)] for _ in range(rows)]
    chosen = max_assignment(weights)
    assert len(chosen) == min(rows, cols)
    assert len({r for r, _ in chosen}) == len({c for _, c in chosen}) == len(chosen)
    assert sum(weights[r][c] for r, c in chosen) == best_by_enumeration(weights)


def test_empty_and_degenerate():
    assert max_assignment([]) == []
    assert max_assignment([[5]]) == [(0, 0)]
    assert max_assignment([[0, 0], [0, 0]]) in ([(0, 0), (1, 1)], [(0, 1), (1, 0)])


@pytest.mark.parametrize("seed", range(40))
def test_the_shortest_path_solver_breaks_ties_as_scipy_does(seed):
    """The CorefUD and UA scorers' ties come from SciPy's solver; corefkit's must fall alike."""
    np = pytest.importorskip("numpy")
    from scipy.optimize import linear_sum_assignment

    from corefkit.scoring.assignment import shortest_path_assignment

    rng = random.Random(seed)
    for case in range(200):
        rows, cols = rng.randint(1, 7), rng.randint(1, 7)
        values = [[0, 1, 2], [0.0, 0.5, 1 / 3, 2 / 3, 1.0]][case % 2]
        matrix = [[rng.choice(values) for _ in range(cols)] for _ in range(rows)]
        if case % 7 == 0:
            matrix = [[rng.random() for _ in range(cols)] for _ in range(rows)]
        for maximize in (False, True):
            expected = linear_sum_assignment(np.array(matrix, dtype=float), maximize=maximize)
            assert shortest_path_assignment(matrix, maximize) == (
                expected[0].tolist(), expected[1].tolist()), (matrix, maximize)


def test_the_shortest_path_solver_breaks_ties_as_scipy_does_on_document_sized_matrices():
    """Matrices up to SHORTEST_PATH_CELLS are solved in Python (a GUM document's mention
    matrix reaches 65 x 91): tie-heavy and dense ones must fall as SciPy's do at that size too."""
    np = pytest.importorskip("numpy")
    from scipy.optimize import linear_sum_assignment

    from corefkit.scoring.assignment import SHORTEST_PATH_CELLS, shortest_path_assignment

    rng = random.Random(12)
    for case in range(60):
        rows, cols = rng.randint(20, 200), rng.randint(20, 200)
        assert rows * cols <= SHORTEST_PATH_CELLS
        values = [0, 0, 0, 0, 0.5, 1.0, 1 / 3, 2 / 3, 0.25]
        matrix = [[-rng.choice(values) for _ in range(cols)] for _ in range(rows)]
        if case % 3 == 0:
            matrix = [[rng.random() for _ in range(cols)] for _ in range(rows)]
        maximize = case % 2 == 1
        expected = linear_sum_assignment(np.array(matrix, dtype=float), maximize=maximize)
        assert shortest_path_assignment(matrix, maximize) == (
            expected[0].tolist(), expected[1].tolist()), (rows, cols, maximize)
