#!/usr/bin/env python3
"""Fuzz every reader for many more examples than the test suite does (issue 13).

Runs the properties of ``tests/fuzz/test_reader_fuzz.py`` (no traceback; one located error
line; strict ``convert``, ``validate``, ``convert --lenient`` and ``score`` agree on refusal)
on the same samples and mutations, ``--examples N`` per format, with hypothesis generating
but not stopping at the first failure: every failure is recorded, grouped by format, command
and message, and the first example of each group is printed in the form that
``check(sample, operations)`` and ``@example`` take.

    python benchmarks/fuzz_readers.py --examples 3000 --outcomes
    python benchmarks/fuzz_readers.py --examples 500 --format lcc --seed 7

Exit code 1 when anything failed. ``--seed`` changes the examples (without it they are
hypothesis' derandomized examples, the same on every run); ``--outcomes`` also
counts what strict reading said of the examples (read, or the check it refused them for), to
see what the mutations reach; the known CorefUD failures (``COREFUD_KNOWN``, xfail tests in
the suite) are left out as in the test suite unless ``--known``.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tests.fuzz.test_reader_fuzz as fuzz  # noqa: E402
from tests.fuzz.test_reader_fuzz import (  # noqa: E402
    COREFUD_KNOWN,
    KIND,
    check,
    ops,
    sample_names,
    samples,
)

FORMATS = list(KIND)


def signature(error: BaseException) -> str:
    """A failure's group: its first line with paths, numbers and quoted values blurred."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    text = " | ".join(lines[:2]) if lines else type(error).__name__
    text = re.sub(r"/tmp/\S+", "FILE", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    text = re.sub(r"\d+", "N", text)
    return f"{type(error).__name__}: {text[:240]}"


def run(fmt: str, examples: int, chosen_seed: int | None,
        ignored: frozenset[str]) -> tuple[int, Counter, dict]:
    count = 0
    failures: Counter = Counter()
    first: dict[str, tuple[str, list]] = {}

    @settings(max_examples=examples, deadline=None, database=None,
              derandomize=chosen_seed is None, phases=[Phase.explicit, Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(sample=st.sampled_from(sample_names(fmt)), operations=ops(fmt))
    def property_(sample: str, operations: list) -> None:
        nonlocal count
        count += 1
        try:
            check(sample, operations, ignored)
        except Exception as error:  # noqa: BLE001 - every failure is recorded, none stops
            key = signature(error)
            failures[key] += 1
            first.setdefault(key, (sample, operations))

    test = seed(chosen_seed)(property_) if chosen_seed is not None else property_
    test()
    return count, failures, first


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=1000, help="examples per format")
    parser.add_argument("--format", action="append", choices=FORMATS,
                        help="only this format (repeatable); default every format")
    parser.add_argument("--seed", type=int, default=None, help="random examples from a seed")
    parser.add_argument("--known", action="store_true",
                        help="also report the known CorefUD failures (COREFUD_KNOWN), which "
                             "are left out by default as in the test suite")
    parser.add_argument("--outcomes", action="store_true",
                        help="also count what strict reading said (read, or the check refused)")
    args = parser.parse_args()
    fuzz.OUTCOMES = Counter()
    samples()  # build (and check) the samples once, outside the timings
    failed = 0
    for fmt in args.format or FORMATS:
        start = time.perf_counter()
        ignored = COREFUD_KNOWN if fmt == "corefud" and not args.known else frozenset()
        count, failures, first = run(fmt, args.examples, args.seed, ignored)
        seconds = time.perf_counter() - start
        total = sum(failures.values())
        failed += total
        print(f"{fmt:12} {count:6d} examples  {total:5d} failed  {len(failures):3d} kinds  "
              f"{seconds:7.1f} s", flush=True)
        for key, n in failures.most_common():
            sample, operations = first[key]
            print(f"    {n:5d} × {key}\n          first: check({sample!r}, {operations!r})",
                  flush=True)
        if args.outcomes:
            outcomes = [(what, n) for (f, what), n in fuzz.OUTCOMES.most_common() if f == fmt]
            print("    strict reading: " + ", ".join(f"{what} {n}" for what, n in outcomes),
                  flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
