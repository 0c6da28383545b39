"""A bounded run of ``benchmarks/scaling_edges.py``: every adversarial shape through the
commands, in this process, at two small sizes; time and memory may grow at most about
s log s and s in the size s of the shape (issue 22). Memory is the peak of Python's
allocations (tracemalloc), which is deterministic; CPU time gets generous bounds, a floor
below which it is not compared, and one retry at twice the size before a failure counts."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import scaling_edges as bench  # noqa: E402

COMMANDS = ["score", "validate", "stats", "convert-corefud", "normalize", "analyze"]
# shapes whose cost per unit is small are measured larger, so that growth shows
SIZES = {"one-token-same": 400, "one-token-many": 400, "tiny-documents": 100,
         "long-sentences": 200}
# each shape in one format, the two formats in turn (the benchmark runs both)
FORMAT = {shape: ("conll2012", "corefud")[n % 2] for n, shape in enumerate(bench.SHAPES)}
SLACK = 2.0
FLOOR_CPU = 0.05
FLOOR_KB = 512


def _growth(shape: str, command: str, n: int, folder, memory: bool,
            fmt: str | None = None) -> float:
    costs = []
    for size in (4, n, 4 * n):
        key, response = bench.write_inputs(shape, size, fmt or FORMAT[shape], folder)
        costs.append(bench.measure_in_process(bench.COMMANDS[command](key, response, folder),
                                              memory=memory))
    base, small, big = costs
    assert small.code in (0, 1) and big.code in (0, 1), (small, big)
    if memory:
        return bench.ratio(big.peak_kb, small.peak_kb, base.peak_kb, FLOOR_KB)
    return bench.ratio(big.cpu, small.cpu, base.cpu, FLOOR_CPU)


@pytest.mark.parametrize("shape", list(bench.SHAPES))
def test_memory_grows_linearly_and_time_at_most_n_log_n(shape, tmp_path):
    n = SIZES.get(shape, 100)
    for command in COMMANDS:
        sizes = bench.size(shape, n), bench.size(shape, 4 * n)
        growth = _growth(shape, command, n, tmp_path, memory=True)
        assert growth <= bench.memory_bound(*sizes, SLACK), \
            f"{command}: memory x{growth:.1f} from n={n} to {4 * n}"
        # CPU time of a busy machine only ever adds: a failure is measured again, at twice
        # the size, before it counts
        for attempt, size in enumerate((n, 2 * n)):
            sizes = bench.size(shape, size), bench.size(shape, 4 * size)
            growth = _growth(shape, command, size, tmp_path, memory=False)
            if growth <= bench.time_bound(*sizes, SLACK):
                break
            assert attempt == 0, f"{command}: time x{growth:.1f} from n={size} to {4 * size}"


# the readers of the annotation tools and the LLM track on the shapes that cost most: n
# mentions on one token (of one entity: n - 1 repeats, repaired; of n entities), n nested
NEW_FORMATS = ["webanno-tsv", "text2text"]
NEW_SHAPES = ["one-token-same", "one-token-many", "nested"]
NEW_COMMANDS = ["score", "validate", "stats", "convert-corefud"]


@pytest.mark.parametrize("fmt", NEW_FORMATS)
@pytest.mark.parametrize("shape", NEW_SHAPES)
def test_new_readers_grow_at_most_n_log_n(shape, fmt, tmp_path):
    n = SIZES.get(shape, 100)
    for command in NEW_COMMANDS:
        sizes = bench.size(shape, n), bench.size(shape, 4 * n)
        growth = _growth(shape, command, n, tmp_path, memory=True, fmt=fmt)
        assert growth <= bench.memory_bound(*sizes, SLACK), \
            f"{command}: memory x{growth:.1f} from n={n} to {4 * n}"
        for attempt, size in enumerate((n, 2 * n)):
            sizes = bench.size(shape, size), bench.size(shape, 4 * size)
            growth = _growth(shape, command, size, tmp_path, memory=False, fmt=fmt)
            if growth <= bench.time_bound(*sizes, SLACK):
                break
            assert attempt == 0, f"{command}: time x{growth:.1f} from n={size} to {4 * size}"
