"""Work over many files in worker processes: what ``convert``, ``validate``, ``stats`` and
``score`` share.

:func:`workers_for` decides how many processes a job is worth (the user's ``--jobs``, else the
machine's cores when there is enough input to pay for starting them); :func:`map_files` runs a
picklable function on each item in worker processes and yields the results in the items'
order, so output is the same as a serial run's.

Workers never outlive the run: they ignore Ctrl-C (the parent handles it and kills them at
once: an interrupted run writes nothing more) and end as soon as the ``corefkit`` process
ends, even when it is killed with SIGKILL (:func:`worker_start`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
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


def worker_start(parent: int) -> None:
    """The start of every worker process of the ``corefkit`` process ``parent``: Ctrl-C is the
    parent's to handle (it stops the workers; a worker's own KeyboardInterrupt would print its
    traceback), and the worker dies with the parent instead of finishing its work alone."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with(parent)


def die_with(parent: int) -> None:
    """End this process as soon as the process ``parent`` ends.

    A forkserver's worker is the child of the forkserver, which lives as long as any worker
    does, so the kernel's parent-death signal (``prctl(PR_SET_PDEATHSIG)``, set too, for
    spawned workers) is not enough: a watchdog thread waits on a pidfd of ``parent`` (Linux),
    else checks every half second that it still runs, and ends this process at once."""
    import threading

    if sys.platform.startswith("linux") and os.getppid() == parent:
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL),
                                                    0, 0, 0)
        except (OSError, AttributeError):  # no libc to call: the watchdog remains
            pass
    handle = None
    try:
        handle = os.pidfd_open(parent)  # type: ignore[attr-defined,unused-ignore]
    except ProcessLookupError:
        os._exit(1)  # the parent has ended already
    except (AttributeError, OSError):  # not Linux 5.3+: poll instead
        handle = None

    def watch() -> None:
        if handle is not None:
            import select

            select.select([handle], [], [])  # readable when the parent has ended
        else:
            while _running(parent):
                time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="corefkit-parent-watch", daemon=True).start()


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


PR_SET_PDEATHSIG = 1     # linux/prctl.h
WATCH_SECONDS = 0.5


@contextlib.contextmanager
def process_pool(workers: int, preload: Sequence[str] = ()) -> Iterator[Any]:
    """A ``ProcessPoolExecutor`` of ``workers`` processes started by :func:`worker_start`.

    Leaving the ``with`` block by an exception (Ctrl-C, or a generator closed early) kills the
    workers at once instead of waiting for the items they have left: an interrupted run
    writes nothing more. A normal end waits for them as usual.
    """
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context(preload),
                               initializer=worker_start, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)


def stop_pool(pool: Any) -> None:
    """Kill the pool's workers and wait until they are gone (cancelling what is queued)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(STOP_SECONDS)


STOP_SECONDS = 10


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while worker processes start; it arrives when the block ends.

    Starting a worker is not atomic: the process exists (a forkserver has forked it, and it is
    reading its arguments) before the pool or :class:`multiprocessing.Process` knows its id. A
    KeyboardInterrupt in between left a worker nobody could stop, which then printed a
    traceback when it found the queues of the ended run gone. The pool starts its workers in
    ``submit``, so submits (and ``Process.start``) run inside this block. Only the main
    thread handles signals; elsewhere this does nothing.
    """
    import signal
    import threading

    block = getattr(signal, "pthread_sigmask", None)
    if block is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = block(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, previous)  # a SIGINT held back is raised here


def submit_all(pool: Any, function: Callable[..., R], calls: Iterable[tuple[Any, ...]]
               ) -> list[Any]:
    """``pool.submit(function, *arguments)`` for the arguments of every call, Ctrl-C held back
    until every worker the submits start is known to the pool."""
    with interrupts_deferred():
        return [pool.submit(function, *arguments) for arguments in calls]


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
    with process_pool(workers) as pool:
        futures = submit_all(pool, function, ((item,) for item in items))
        try:
            for future in futures:
                yield future.result()
        finally:
            for future in futures:
                future.cancel()


def map_outcomes(function: Callable[[T], R], items: Sequence[T], workers: int
                 ) -> Generator[tuple[T, R | None, BaseException | None], None, None]:
    """Like :func:`map_files`, but every item's outcome is reported, errors included, in order:
    ``(item, result, None)`` or ``(item, None, error)``. After the first error no new item is
    started; items already running finish and are reported (so a caller can say exactly which
    outputs are complete); items never started are not reported. Ctrl-C stops at once: the
    workers are killed, and the interruption is the last outcome."""
    if workers <= 1 or len(items) <= 1:
        for item in items:
            try:
                yield item, function(item), None
            except (Exception, KeyboardInterrupt) as exc:
                yield item, None, exc
                return
        return
    from concurrent.futures import CancelledError

    interrupted: tuple[T, KeyboardInterrupt] | None = None
    with process_pool(workers) as pool:
        futures = submit_all(pool, function, ((item,) for item in items))
        failed = False
        for item, future in zip(items, futures):
            try:
                outcome = future.result()
            except CancelledError:
                continue
            except KeyboardInterrupt as exc:
                stop_pool(pool)
                interrupted = (item, exc)
                break
            except Exception as exc:
                yield item, None, exc
                if not failed:
                    failed = True
                    for later in futures:
                        later.cancel()
                continue
            yield item, outcome, None
    if interrupted is not None:
        yield interrupted[0], None, interrupted[1]
