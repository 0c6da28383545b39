"""Work over many files in worker processes: what ``convert``, ``validate``, ``stats`` and
``score`` share.

:func:`workers_for` decides how many processes a job is worth (the user's ``--jobs``, else the
machine's cores when there is enough input to pay for starting them); :func:`map_files` runs a
picklable function on each item in worker processes and yields the results in the items'
order, so output is the same as a serial run's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from corefkit.errors import UsageError

T = TypeVar("T")
R = TypeVar("R")

AUTO_BYTES = 8 << 20     # below this much input, processes cost more than they save


def context(preload: Sequence[str] = ()) -> Any:
    """Worker processes start from a clean interpreter with the readers loaded, and the
    modules ``preload`` names (forkserver where the platform has it: no copy of this process's
    threads or locks; else spawn). The caller names what its workers run, so that this module
    imports nothing above the readers."""
    import multiprocessing  # only runs with workers pay for its import

    if "forkserver" in multiprocessing.get_all_start_methods():
        found = multiprocessing.get_context("forkserver")
        found.set_forkserver_preload(["corefkit.converters.registry", *preload])
        return found
    return multiprocessing.get_context("spawn")


def workers_for(jobs: int | None, files: Sequence[str]) -> int:
    """Processes for work over ``files``: ``jobs`` when given, else the cores when there are
    several files and enough bytes, else 1."""
    if jobs is not None:
        if jobs < 1:
            raise UsageError(f"--jobs must be at least 1, got {jobs}")
        return min(jobs, max(1, len(files)))
    cores = os.cpu_count() or 1
    if cores < 2 or len(files) < 2:
        return 1
    size = 0
    for path in files:
        try:
            size += os.path.getsize(path)
        except OSError:
            continue
    return min(cores, len(files)) if size >= AUTO_BYTES else 1


def map_files(function: Callable[[T], R], items: Iterable[T], workers: int) -> Iterator[R]:
    """``function`` on every item, in ``workers`` processes (1: here), results in order.

    An exception raised for an item is raised here when its turn comes; items after it may
    have been done already (their results are dropped).
    """
    items = list(items)
    if workers <= 1 or len(items) <= 1:
        for item in items:
            yield function(item)
        return
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers, mp_context=context()) as pool:
        futures = [pool.submit(function, item) for item in items]
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def map_outcomes(function: Callable[[T], R], items: Sequence[T], workers: int
                 ) -> Iterator[tuple[T, R | None, BaseException | None]]:
    """Like :func:`map_files`, but every item's outcome is reported, errors included, in order:
    ``(item, result, None)`` or ``(item, None, error)``. After the first error no new item is
    started; items already running finish and are reported (so a caller can say exactly which
    outputs are complete); items never started are not reported."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            try:
                yield item, function(item), None
            except (Exception, KeyboardInterrupt) as exc:
                yield item, None, exc
                return
        return
    from concurrent.futures import CancelledError, ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=workers, mp_context=context()) as pool:
        futures = [pool.submit(function, item) for item in items]
        failed = False
        for item, future in zip(items, futures):
            try:
                yield item, future.result(), None
            except CancelledError:
                continue
            except Exception as exc:
                yield item, None, exc
                if not failed:
                    failed = True
                    for later in futures:
                        later.cancel()

