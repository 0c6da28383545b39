"""Running a scoring run serially, in processes, or on a Dask cluster — same exact counts.

Document counts are additive exact fractions (:class:`~corefkit.scoring.engine.Totals`), so
documents can be scored anywhere and summed in any order. Three ways to use that:

* **serial** — read, pair and score in this process (:func:`~corefkit.scoring.engine.run_serial`).
* **processes** (``jobs`` ≥ 2) — when a side has several files, they are grouped by name (a key
  file with the response file of the same stem) and each group is read and scored by a worker
  process; with one CoNLL-2012 file per side listing the same documents, the files are cut
  into document shards and each worker reads and scores its shard of both
  (:mod:`corefkit.scoring.shards`); otherwise one process reads and reduces the key, another
  the response, and this process pairs and scores them as they stream in (reading is most of
  the work). Memory stays bounded: reduced documents travel in small batches through bounded
  queues.
* **dask** — the same file groups as tasks on a ``dask.distributed`` cluster (a local one by
  default), results gathered and summed exactly. A corpus gains from a cluster when it is
  several files; one file is one task (docs/scaling.md).

Documents that do not pair inside their group (a response document in a file of another name)
come back unscored and are paired here, so the result never depends on how files are grouped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from corefkit.errors import CorefkitError, Repair, UsageError
from corefkit.parallel import (AUTO_BYTES, context, interrupts_deferred, process_pool, submit_all,
                               worker_start)
from corefkit.scoring.config import ScoreConfig
from corefkit.scoring.engine import (
    DocumentScorer,
    Pairing,
    Reduced,
    Totals,
    collector_paused,
    is_paths,
    misaligned,
    pairs_of,
    reduced_documents,
    run_serial,
    score_pairs,
)

if TYPE_CHECKING:
    from corefkit.scoring.shards import FileRange

# what the workers run, loaded once in the fork server (corefkit.parallel.context)
PRELOAD = ("corefkit.scoring.engine",)
BATCH = 16               # reduced documents per message between processes
QUEUE = 8                # batches in flight per reader


def run(config: ScoreConfig, key: Any, response: Any,
        progress: Callable[[int], None] | None = None
        ) -> tuple[Totals, Pairing, list[Repair], Any]:
    """Score with the engine the configuration and the input call for; returns the totals,
    what pairing found, the readers' repairs and the semantics strategy (for the report)."""
    engine, jobs = choose_engine(config, key, response)
    strategy = config.strategy()
    if engine == "dask":
        totals, pairing, repairs = run_dask(config, key, response, jobs, progress)
    elif engine == "processes":
        totals, pairing, repairs = run_processes(config, key, response, jobs, progress)
    else:
        totals, pairing, repairs = run_serial(config, key, response, progress)
    return totals, pairing, repairs, strategy


def choose_engine(config: ScoreConfig, key: Any, response: Any) -> tuple[str, int]:
    """(engine, workers): serial for documents in memory, standard input, ``jobs=1`` or small
    inputs; processes when asked or when the input is large; Dask when asked."""
    cores = os.cpu_count() or 1
    jobs = config.jobs
    if jobs is not None and jobs < 1:
        raise UsageError(f"--jobs must be at least 1, got {jobs}")
    files = _paths(key, config.side_format("key")) is not None and \
        _paths(response, config.side_format("response")) is not None
    if config.engine == "dask":
        if not files:
            raise UsageError("the dask engine reads files: give the key and the response as "
                             "files or folders")
        return "dask", jobs or min(cores, 4)
    # content pairing needs every document of both sides in one place
    if config.engine == "serial" or jobs == 1 or not files or config.pair_by_content:
        return "serial", 1
    if config.engine == "processes" or jobs is not None:
        return "processes", jobs or cores
    size = sum(_size(p) for p in [*(_paths(key, config.side_format("key")) or []),
                                   *(_paths(response, config.side_format("response")) or [])])
    return ("processes", cores) if cores > 1 and size >= AUTO_BYTES else ("serial", 1)


def _paths(source: Any, format: str | None = None) -> list[str] | None:
    """The files of a path source in ``format`` (None for documents in memory or standard
    input)."""
    if not is_paths(source):
        return None
    items = source if isinstance(source, (list, tuple)) else [source]
    if any(os.fspath(p) == "-" for p in items):
        return None
    from corefkit.converters.registry import expand_paths

    return [file for item in items for file, _ in expand_paths(item, format)]


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


# ---------------------------------------------------------------------------- file groups
def file_groups(config: ScoreConfig, key: Any, response: Any) -> list[tuple[list[str], list[str]]]:
    """Key and response files grouped by stem (``a.conll`` with ``a.response.conll``'s stem
    ``a``); a file without a partner is a group of its own side. One file on each side is one
    group, whatever the names."""
    from corefkit.converters.convert import output_path
    from corefkit.converters.registry import expand_paths

    def stems(source: Any, fmt: str | None) -> dict[str, list[str]]:
        items = source if isinstance(source, (list, tuple)) else [source]
        found: dict[str, list[str]] = {}
        for item in items:
            for file, kind in expand_paths(item, fmt):
                stem = os.path.basename(output_path(file, "", kind)).rsplit(".", 1)[0]
                found.setdefault(stem, []).append(file)
        return found

    keys = stems(key, config.side_format("key"))
    responses = stems(response, config.side_format("response"))
    key_files = [f for files in keys.values() for f in files]
    response_files = [f for files in responses.values() for f in files]
    if len(key_files) == 1 and len(response_files) == 1:  # one file each: a pair, whatever
        return [(key_files, response_files)]              # their names
    return [(keys.get(stem, []), responses.get(stem, []))
            for stem in sorted(set(keys) | set(responses))]


def score_group(config: ScoreConfig, keys: list[str] | FileRange,
                responses: list[str] | FileRange
                ) -> tuple[Totals, list[Reduced], list[Reduced], list[Repair]]:
    """Read and score one group of files, or one shard of a file pair: (totals of the pairs,
    key documents without a response here, response documents without a key here, the
    readers' repairs)."""
    scorer = DocumentScorer(config)
    repairs: list[Repair] = []
    key_docs = reduced_documents(keys, "key", scorer, repairs) if keys else iter(())
    response_docs = reduced_documents(responses, "response", scorer, repairs) \
        if responses else iter(())
    totals = Totals(config)
    pairing = Pairing()
    unpaired: list[Reduced] = []
    with collector_paused() as scored:
        for key, answer in pairs_of(config, key_docs, response_docs, pairing):
            if answer is None:
                unpaired.append(key)
            else:
                totals.add(scorer.score(key, answer))
                scored()
    return totals, unpaired, pairing.extra, repairs


def _merge_groups(config: ScoreConfig, results: Iterator[tuple[Totals, list[Reduced],
                                                                list[Reduced], list[Repair]]],
                  progress: Callable[[int], None] | None
                  ) -> tuple[Totals, Pairing, list[Repair]]:
    """Sum the groups' totals, then pair and score what no group could pair."""
    totals = Totals(config)
    left_keys: list[Reduced] = []
    left_responses: list[Reduced] = []
    repairs: list[Repair] = []
    for group_totals, keys, responses, group_repairs in results:
        totals.merge(group_totals)
        left_keys.extend(keys)
        left_responses.extend(responses)
        repairs.extend(group_repairs)
        if progress is not None:
            progress(totals.documents)
    scorer = DocumentScorer(config)
    rest, pairing, _ = score_pairs(config, scorer, left_keys, left_responses, [], None)
    totals.merge(rest)
    return totals, pairing, repairs


# ---------------------------------------------------------------------------- processes
def run_processes(config: ScoreConfig, key: Any, response: Any, jobs: int,
                  progress: Callable[[int], None] | None = None
                  ) -> tuple[Totals, Pairing, list[Repair]]:
    groups = file_groups(config, key, response)
    if len(groups) > 1:
        with process_pool(min(jobs, len(groups)), PRELOAD) as pool:
            futures = submit_all(pool, score_group, ((config, k, r) for k, r in groups))
            return _merge_groups(config, (f.result() for f in futures), progress)
    pair = _one_conll2012_pair(config, groups)
    if pair is not None:
        from corefkit.scoring.shards import document_shards

        with process_pool(jobs, PRELOAD) as pool:
            # the workers start while this process scans the files
            submit_all(pool, _started, (() for _ in range(jobs)))
            shards = document_shards(*pair, jobs)
            if shards is not None:
                futures = submit_all(pool, score_group, ((config, k, r) for k, r in shards))
                return _merge_groups(config, (f.result() for f in futures), progress)
    return _two_readers(config, key, response, progress)


def _started() -> None:
    """A task that only makes a worker process start."""


def _one_conll2012_pair(config: ScoreConfig, groups: list[tuple[list[str], list[str]]]
                        ) -> tuple[str, str] | None:
    """The key and response file when the run is one CoNLL-2012 file each (what
    :mod:`corefkit.scoring.shards` can cut), else None."""
    from corefkit.converters.registry import expand_paths

    if len(groups) != 1 or len(groups[0][0]) != 1 or len(groups[0][1]) != 1:
        return None
    (key,), (response,) = groups[0]
    if all(expand_paths(path, config.side_format(side))[0][1] == "conll2012"
           for path, side in ((key, "key"), (response, "response"))):
        return key, response
    return None


def _two_readers(config: ScoreConfig, key: Any, response: Any,
                 progress: Callable[[int], None] | None
                 ) -> tuple[Totals, Pairing, list[Repair]]:
    """One process reads and reduces the key, another the response; this one pairs and scores."""
    processes = context(PRELOAD)
    queues = {side: processes.Queue(QUEUE) for side in ("key", "response")}
    workers = {side: processes.Process(target=_reader, args=(config, source, side, queues[side],
                                                           os.getpid()), daemon=True)
               for side, source in (("key", key), ("response", response))}
    with interrupts_deferred():  # Ctrl-C once both are known, so that they can be stopped
        for worker in workers.values():
            worker.start()
    repairs: list[Repair] = []
    try:
        scorer = DocumentScorer(config)
        return score_pairs(config, scorer, _received(queues["key"], repairs),
                           _received(queues["response"], repairs), repairs, progress)
    finally:
        for worker in workers.values():
            if worker.is_alive():
                worker.terminate()
            worker.join()


def _reader(config: ScoreConfig, source: Any, side: str, queue: Any, parent: int) -> None:
    """A reader process: reduced documents in batches, then None; an error is sent as is."""
    worker_start(parent)  # Ctrl-C is the parent's; the reader dies with it
    try:
        scorer = DocumentScorer(config)
        repairs: list[Repair] = []
        batch: list[Reduced] = []
        for reduced in reduced_documents(source, side, scorer, repairs):
            batch.append(reduced)
            if len(batch) >= BATCH:
                queue.put(("documents", batch))
                batch = []
        queue.put(("documents", batch))
        queue.put(("repairs", repairs))
        queue.put(("end", None))
    except CorefkitError as exc:
        queue.put(("error", exc))
    except BaseException as exc:  # a bug: say what, in the parent
        queue.put(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


def _received(queue: Any, repairs: list[Repair]) -> Iterator[Reduced]:
    while True:
        kind, value = queue.get()
        if kind == "documents":
            yield from value
        elif kind == "repairs":
            repairs.extend(value)
        elif kind == "error":
            raise value
        else:
            return


# ---------------------------------------------------------------------------- dask
def run_dask(config: ScoreConfig, key: Any, response: Any, workers: int,
             progress: Callable[[int], None] | None = None
             ) -> tuple[Totals, Pairing, list[Repair]]:
    """The file groups as tasks on a Dask cluster (``config.scheduler``, else a local one).

    Ctrl-C is this process's alone: the local cluster's processes ignore SIGINT (a worker
    interrupted while it imported printed its traceback), and an interrupted run
    closes the cluster with its logging silenced, so that one line says what happened."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise UsageError("the dask engine needs dask.distributed: pip install "
                         "'corefkit[dask]'") from None
    groups = file_groups(config, key, response)
    cluster: Any = None
    client: Any = None
    try:
        if config.scheduler:
            client = Client(config.scheduler)
        else:
            cluster = _local_cluster(workers)
            client = Client(cluster)
    except KeyboardInterrupt:
        _close_quietly(None, cluster)
        raise
    try:
        futures = [client.submit(score_group, config, k, r, pure=False) for k, r in groups]
        return _merge_groups(config, (f.result() for f in futures), progress)
    except KeyboardInterrupt:
        _close_quietly(client, cluster)
        cluster = client = None
        raise
    finally:
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()


def _local_cluster(workers: int) -> Any:
    """A local Dask cluster of ``workers`` processes that leave Ctrl-C to this one.

    SIGINT is ignored while the cluster starts: the processes it spawns inherit that and keep
    it (a worker interrupted while it imported printed its traceback); a handler would not
    survive their exec, and blocking is undone in the threads Dask starts, so a Ctrl-C in
    those seconds is lost (press it again) rather than broken into tracebacks. The workers
    log only critical errors (a worker that outlives the scheduler by a heartbeat when a run
    is interrupted logged a traceback); what fails in a task reaches this process anyway."""
    import logging
    import signal
    import threading

    from dask.distributed import LocalCluster

    import dask

    main = threading.current_thread() is threading.main_thread()
    # the worker processes configure their logging when they import distributed: from the
    # environment the nanny gives them before they start
    environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
    environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}):
            return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                dashboard_address=None, silence_logs=logging.CRITICAL,
                                scheduler_kwargs={"dashboard_address": ":0"})  # not 8787
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def _close_quietly(client: Any, cluster: Any) -> None:
    """Close after Ctrl-C without the log lines and tracebacks of a cluster going down."""
    import contextlib
    import logging

    for name in ("distributed", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    for closing in (client, cluster):
        if closing is not None:
            with contextlib.suppress(Exception):
                closing.close()


__all__ = ["choose_engine", "file_groups", "misaligned", "run", "run_dask", "run_processes",
           "score_group"]
