#!/usr/bin/env python3
"""corefkit's speed and memory beside the peer scorers: every row of issue 27's table.

Each command runs in a fresh process. corefkit and its peer run in alternation (ours, theirs,
ours, theirs, ...), ``--runs`` times each (default 5); the median wall time, the median CPU
time (user + system of the process and its children) and the largest peak resident memory
are kept, and the ratio is of the medians (below 1: corefkit is faster). Rows:

1. ``ontogum``: 280 OntoGUM-class documents (OntoGUM's 46 repeated under new names, each
   response a perturbed copy), all 7 metrics in one process, against coval (5 metrics).
2. ``ua``: CoNLL-UA, the CODI-CRAC AMI dev file as 3 documents with its heavy response (the
   real-data suite's), all metrics, against the UA scorer 1.x.
3. ``corefud``: 35 GUM documents in CorefUD, ``--profile crac`` (head match, singletons
   removed, zeros by dependencies), against the CorefUD scorer 1.2 (``-a head -z dependent``).
4. ``clusters``: the in-memory ``Scorer.update`` over 10,000 documents of 100 key mentions
   (``benchmarks/clusters_bench.py``'s documents), then ``compute()``; imports and the making
   of the documents are not timed. No peer.
5. ``book``: one document of 1.05M tokens (the 10 LitBank files merged into one, the whole
   repeated 50 times with entities renumbered): ``corefkit stats`` and ``corefkit convert
   -t corefud``, wall time and peak memory.
6. ``memory``: row 1's pair repeated 10 times (documents renamed), peak memory against 1x.
7. ``jobs``: the 10x pair with ``--jobs 2`` against ``--jobs 1``.

Inputs are generated into a temporary folder (``--data DIR`` keeps and reuses them).
``--quick`` runs every row once on tiny inputs (a few documents; the book is one copy of
LitBank) — for the test that checks the script, not for figures.

Run: ``.venv/bin/python benchmarks/perf_bench.py --peers-dir ~/corefkit-peers`` (peers from
``bash ../shared/peers/install.sh DIR``); without peers only corefkit's figures are printed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
REAL = SHARED / "conformance" / "real" / "data"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

# Runs the CLI (or a script) and reports the process's own peak memory (VmHWM belongs to the
# process image after exec; ru_maxrss of the child would also count pages copied at fork).
CHILD = """
import resource, runpy, sys
sys.argv = sys.argv[1:]
try:
    if sys.argv[0] == "corefkit":
        from corefkit.cli.main import main
        code = main(sys.argv[1:])
    else:
        code = 0
        runpy.run_path(sys.argv[0], run_name="__main__")
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else 0
try:
    with open("/proc/self/status") as status:
        peak = int(next(l.split()[1] for l in status if l.startswith("VmHWM")))
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stderr.write(f"PEAK_KB {peak}\\n")
sys.exit(code)
"""

# The in-memory scorer, timed inside the child (imports and documents made before).
CLUSTERS = """
import json, random, sys, time
sys.path[:0] = [sys.argv[2], sys.argv[3]]
import scipy.optimize
import corefkit
from clusters_bench import make_document
rng = random.Random(15)
documents = [make_document(rng) for _ in range(int(sys.argv[1]))]
scorer = corefkit.Scorer()
cpu, start = time.process_time(), time.perf_counter()
for key, response in documents:
    scorer.update(key, response)
scorer.compute()
print(json.dumps([time.perf_counter() - start, time.process_time() - cpu]))
"""


@dataclass
class Run:
    wall: float
    cpu: float
    peak: float  # MB


def run_once(command: list[str]) -> tuple[Run, str]:
    """One run: wall and CPU seconds, peak memory, stdout."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: a peer or corefkit found the scores differ, not a failure
        raise SystemExit(f"{' '.join(command[-6:])} failed ({code}):\n{stderr[-2000:]}")
    # corefkit's own peak (VmHWM after exec); a peer's: the largest of its process tree
    peak = float(stderr.split("PEAK_KB")[1].split()[0]) if "PEAK_KB" in stderr \
        else float(usage.ru_maxrss)
    return Run(wall, usage.ru_utime + usage.ru_stime, peak / 1024), stdout


class Timer:
    """Runs commands in alternation and keeps each one's runs."""

    def __init__(self, runs: int) -> None:
        self.runs = runs

    def measure(self, *commands: list[str] | None) -> list[Run | None]:
        """The median run of each command (None for None), the commands alternated."""
        taken: list[list[Run]] = [[] for _ in commands]
        for _ in range(self.runs):
            for n, command in enumerate(commands):
                if command is None:
                    continue
                taken[n].append(run_once(command)[0])
        return [median(runs) if runs else None for runs in taken]


def median(runs: list[Run]) -> Run:
    return Run(statistics.median(r.wall for r in runs), statistics.median(r.cpu for r in runs),
               max(r.peak for r in runs))


def corefkit_cmd(command: str, *args: object) -> list[str]:
    # --lenient: the perturbed responses repeat spans in two entities, which every command
    # refuses by default since issue 22 (as the reference scorer refuses more than 10)
    tail = ["-q", "-f", "json", "--lenient"] if command == "score" else []
    return [sys.executable, "-c", CHILD, "corefkit", command, *map(str, args), *tail]


def peer_cmd(peers: Path | None, name: str, *args: object) -> list[str] | None:
    if peers is None or not (peers / "bin" / name).exists():
        return None
    return [str(peers / "bin" / name), *map(str, args)]


# ---------------------------------------------------------------------------- inputs
def ontogum_pair(folder: Path, count: int) -> tuple[Path, Path]:
    """``count`` OntoGUM documents (the 46 repeated under new names) and perturbed responses."""
    import corefkit
    from score_bench import perturb

    out = folder / f"ontogum{count}.key.conll", folder / f"ontogum{count}.response.conll"
    if all(p.exists() for p in out):
        return out
    source = list(corefkit.read(SHARED / "corpora" / "gum" / "coref-ontogum-conll"))
    rng = random.Random(2026)
    keys, responses = [], []
    for i in range(count):
        doc = source[i % len(source)].copy()
        doc.id = f"{doc.id}-{i:03d}"
        keys.append(doc)
        responses.append(perturb(doc, rng))
    corefkit.write(keys, out[0])
    corefkit.write(responses, out[1])
    return out


def repeated_pair(pair: tuple[Path, Path], times: int) -> tuple[Path, Path]:
    """The pair repeated ``times`` times under new document names."""
    out = tuple(p.with_name(f"x{times}.{p.name}") for p in pair)
    if all(p.exists() for p in out):
        return out  # type: ignore[return-value]
    for source, target in zip(pair, out):
        text = source.read_text(encoding="utf-8")
        with open(target, "w", encoding="utf-8") as handle:
            for n in range(times):
                handle.write(text.replace("#begin document (", f"#begin document (r{n}-"))
    return out  # type: ignore[return-value]


def ua_pair(folder: Path, times: int) -> tuple[Path, Path]:
    """The AMI dev key and its heavy response as ``times`` documents (renamed copies)."""
    name = "AMI_dev_v2.2022.ES2004a"
    out = folder / f"{name}.x{times}.CONLLUA", folder / f"{name}.heavy.x{times}.CONLLUA"
    if all(p.exists() for p in out):
        return out
    sources = (REAL / "codi-crac22" / f"{name}.CONLLUA",
               REAL / "codi-crac22" / f"{name}.heavy.CONLLUA")
    for source, target in zip(sources, out):
        lines = source.read_text(encoding="utf-8").splitlines(keepends=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(lines[0])  # the global.columns declaration, once
            for n in range(times):
                for line in lines[1:]:
                    if line.startswith("# newdoc id = "):
                        line = f"{line.rstrip()}-copy{n}\n"
                    handle.write(line)
    return out


def corefud_pair(folder: Path, count: int | None) -> tuple[Path, Path]:
    """The real-data suite's 35 GUM documents and heavy response, or their first ``count``."""
    sources = REAL / "gum-corefud" / "key.conllu", REAL / "gum-corefud" / "response-heavy.conllu"
    if count is None:
        return sources
    out = folder / f"gum{count}.key.conllu", folder / f"gum{count}.response.conllu"
    for source, target in zip(sources, out):
        text = source.read_text(encoding="utf-8")
        starts = [m.start() for m in re.finditer(r"^# newdoc", text, re.M)] + [len(text)]
        target.write_text(text[:starts[count]], encoding="utf-8")
    return out


def book(folder: Path, times: int) -> Path:
    """The 10 LitBank files as one document, repeated ``times`` times (entities renumbered)."""
    out = folder / f"litbank-x{times}.conll"
    if out.exists():
        return out
    files = sorted((SHARED / "corpora" / "litbank").glob("*.conll"))
    bodies: list[tuple[list[str], int]] = []
    for path in files:
        lines = [line for line in path.read_text(encoding="utf-8").split("\n")
                 if not line.startswith("#")]
        ids = [int(x) for line in lines for x in re.findall(r"\d+", line.rsplit("\t", 1)[-1])
               if "\t" in line]
        bodies.append((lines, max(ids) + 1 if ids else 0))
    offset = 0
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(f"#begin document (litbank_x{times}); part 0\n")
        blank = True
        for _ in range(times):
            for lines, width in bodies:
                for line in lines:
                    if "\t" not in line:
                        if not blank:  # a sentence ends (once)
                            handle.write("\n")
                        blank = True
                        continue
                    head, cell = line.rsplit("\t", 1)
                    cell = re.sub(r"\d+", lambda m: str(int(m.group()) + offset), cell)
                    handle.write(f"book\t{head.split(chr(9), 1)[1]}\t{cell}\n")
                    blank = False
                offset += width
        handle.write("#end document\n")
    return out


# ---------------------------------------------------------------------------- report
class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, ...]] = []

    def add(self, workload: str, ours: Run, theirs: Run | None, peer: str,
            ratio: str | None = None) -> None:
        if ratio is None:
            ratio = f"{ours.wall / theirs.wall:.2f}× (CPU {ours.cpu / theirs.cpu:.2f}×)" \
                if theirs and theirs.wall and theirs.cpu else "–"
        self.rows.append((workload, f"{ours.wall:.2f} s, CPU {ours.cpu:.2f} s, "
                          f"{ours.peak:.0f} MB", peer,
                          f"{theirs.wall:.2f} s, CPU {theirs.cpu:.2f} s, {theirs.peak:.0f} MB"
                          if theirs else "–", ratio))
        print(" | ".join(self.rows[-1]), flush=True)

    def markdown(self) -> str:
        head = ("workload", "corefkit (median)", "peer", "peer (median)", "ratio")
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)


ROWS = ("ontogum", "ua", "corefud", "clusters", "book", "memory", "jobs")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers-dir", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (median)")
    parser.add_argument("--only", default=None, help=f"comma list of rows: {','.join(ROWS)}")
    parser.add_argument("--data", type=Path, default=None, help="keep the inputs here")
    parser.add_argument("--quick", action="store_true", help="every row once, tiny inputs")
    args = parser.parse_args(argv)
    only = set(args.only.split(",")) if args.only else set(ROWS)
    runs = 1 if args.quick else args.runs
    import compileall

    compileall.compile_dir(str(ROOT / "corefkit"), quiet=1)
    with tempfile.TemporaryDirectory(prefix="perf-bench-") as scratch:
        folder = args.data or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        report(Timer(runs), args.peers_dir, only, folder, args.quick)


def report(timer: Timer, peers: Path | None, only: set[str], folder: Path, quick: bool) -> None:
    table = Table()
    pair = ontogum_pair(folder, 4 if quick else 280)
    one: Run | None = None
    if "ontogum" in only:
        one, coval = timer.measure(corefkit_cmd("score", *pair, "--jobs", "1"),
                                   peer_cmd(peers, "coval-score", *pair))
        assert one is not None
        table.add(f"1 OntoGUM-class, {4 if quick else 280} docs, all 7 metrics", one, coval,
                  "coval (5 metrics)")
    if "ua" in only:
        ua = ua_pair(folder, 1 if quick else 3)
        ours, theirs = timer.measure(corefkit_cmd("score", *ua, "--jobs", "1"),
                                     peer_cmd(peers, "ua-score", *ua))
        assert ours is not None
        table.add(f"2 CoNLL-UA, CODI-CRAC AMI ×{1 if quick else 3} docs", ours, theirs,
                  "UA scorer 1.x")
    if "corefud" in only:
        ud = corefud_pair(folder, 2 if quick else None)
        ours, theirs = timer.measure(
            corefkit_cmd("score", *ud, "--profile", "crac", "--jobs", "1"),
            peer_cmd(peers, "corefud-score", *ud, "-a", "head", "-z", "dependent"))
        assert ours is not None
        table.add(f"3 CorefUD, {2 if quick else 35} GUM docs, --profile crac", ours, theirs,
                  "CorefUD scorer 1.2")
    if "clusters" in only:
        count = 100 if quick else 10_000
        timings = []
        for _ in range(timer.runs):
            result, out = run_once([sys.executable, "-c", CLUSTERS, str(count), str(HERE),
                                    str(ROOT)])
            wall, cpu = json.loads(out.strip().splitlines()[-1])
            timings.append(Run(wall, cpu, result.peak))
        table.add(f"4 in-memory Scorer.update, {count:,} docs × 100 mentions",
                  median(timings), None, "–", "target ≤ 0.6 s")
    if "book" in only:
        path = book(folder, 1 if quick else 50)
        tokens = sum(1 for line in open(path, encoding="utf-8") if "\t" in line)
        out = folder / "book.conllu"
        stats, convert = timer.measure(
            corefkit_cmd("stats", path),
            corefkit_cmd("convert", path, out, "--to", "corefud"))
        assert stats is not None and convert is not None
        table.add(f"5 one document of {tokens:,} tokens: stats", stats, None, "–",
                  "target ≤ 4 s, ≤ 250 MB")
        table.add(f"5 one document of {tokens:,} tokens: convert to CorefUD", convert, None,
                  "–", "target ≤ 4 s, ≤ 250 MB")
    if "memory" in only or "jobs" in only:
        big = repeated_pair(pair, 10)
        if one is None or "memory" in only:
            one, ten = timer.measure(corefkit_cmd("score", *pair, "--jobs", "1"),
                                     corefkit_cmd("score", *big, "--jobs", "1"))
        else:
            ten, = timer.measure(corefkit_cmd("score", *big, "--jobs", "1"))
        assert one is not None and ten is not None
        if "memory" in only:
            table.add("6 10× the data vs 1×, one process", ten, one, "corefkit on 1×",
                      f"peak {ten.peak / one.peak:.2f}×, time {ten.wall / one.wall:.1f}×")
        if "jobs" in only:
            two, = timer.measure(corefkit_cmd("score", *big, "--jobs", "2"))
            assert two is not None
            table.add("7 --jobs 2 vs --jobs 1 on 10×", two, ten, "corefkit --jobs 1",
                      f"{two.wall / ten.wall:.2f}× wall ({os.cpu_count()} cores)")
    print()
    print(table.markdown())


if __name__ == "__main__":
    main()
