#!/usr/bin/env python3
"""How scoring scales: corpora of 1k, 10k and 100k documents, serially, in 2 processes, on Dask.

Corpora are built from real documents (the 46 GUM documents, ``../shared/corpora/gum/dep``):
each real document is cut into pieces of about 12 sentences, and the pieces are repeated under
new names until the corpus has N documents; the response perturbs each (mentions dropped and
invented, chains split and merged) with a fixed seed. A corpus is written as files of 1,000
documents (``benchmarks/data/scale/N/{key,response}/``), as a large corpus is delivered.

Each run is a fresh process; printed are documents per second, wall time, and the peak
resident memory of the main process and of the largest worker process. The cost must grow
linearly: documents per second stay flat from 1k to 100k, and the peak memory of a process
does not grow with the corpus. ``docs/scaling.md`` turns these figures into what a
10-million-document corpus costs on a cluster.

Run: ``.venv/bin/python benchmarks/scale_bench.py [--sizes 1000,10000,100000]
[--engines serial,processes,dask]``
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
DATA = HERE / "data" / "scale"
PER_FILE = 1000
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import corefkit  # noqa: E402
from corefkit.model import Document  # noqa: E402
from score_bench import perturb  # noqa: E402

CHILD = """
import json, resource, sys, time
import corefkit
key, response, engine, jobs = sys.argv[1:5]
start = time.perf_counter()
report = corefkit.score(key, response, engine=engine, jobs=int(jobs) if jobs != "-" else None,
                        lenient=True)  # perturbed responses repeat spans (refused by default)
wall = time.perf_counter() - start
with open("/proc/self/status") as status:
    peak = int(next(l.split()[1] for l in status if l.startswith("VmHWM")))
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"wall": wall, "documents": report.documents, "peak_kb": peak,
                  "worker_kb": children, "conll": float(report.metrics["conll"].f1)}))
"""


def pieces(doc: Document, size: int = 12) -> list[Document]:
    """A document cut into documents of ``size`` sentences, mentions kept where they fit."""
    out = []
    for n in range(0, len(doc.sentences), size):
        group = doc.sentences[n:n + size]
        start, stop = group[0].start, group[-1].stop
        piece = Document(f"{doc.id}-p{n // size}", "0")
        for sentence in group:
            piece.add_sentence([doc.tokens[i].form for i in range(sentence.start, sentence.stop)])
        for entity in doc.entities:
            kept = [m for m in doc.mentions_of(entity) if start <= m.start and m.end < stop]
            if kept:
                new = piece.new_entity()
                for m in kept:
                    piece.add_mention(range(m.start - start, m.end - start + 1), new)
        out.append(piece)
    return out


def build(size: int) -> tuple[Path, Path]:
    """The key and response folders of a corpus of ``size`` documents (built once)."""
    root = DATA / str(size)
    keys, responses = root / "key", root / "response"
    if keys.exists() and len(list(keys.iterdir())) == -(-size // PER_FILE):
        return keys, responses
    keys.mkdir(parents=True, exist_ok=True)
    responses.mkdir(parents=True, exist_ok=True)
    source = [p for d in corefkit.read(SHARED / "corpora" / "gum" / "dep")
              for p in pieces(d)]
    rng = random.Random(size)
    for f in range(-(-size // PER_FILE)):
        batch_keys, batch_responses = [], []
        for n in range(f * PER_FILE, min(size, (f + 1) * PER_FILE)):
            doc = source[n % len(source)].copy()
            doc.id = f"{doc.id}-{n:07d}"
            batch_keys.append(doc)
            batch_responses.append(perturb(doc, rng))
        corefkit.write(batch_keys, keys / f"part{f:04d}.conll")
        corefkit.write(batch_responses, responses / f"part{f:04d}.conll")
    return keys, responses


def run(keys: Path, responses: Path, engine: str, jobs: str) -> dict[str, float]:
    import json

    done = subprocess.run([sys.executable, "-c", CHILD, str(keys), str(responses), engine, jobs],
                          cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def worker_mb(found: dict[str, float]) -> str:
    """The largest worker's peak (Dask's workers are children of this run; a forkserver's
    are not, so the processes engine shows '-')."""
    return f"{found['worker_kb'] / 1024:.0f}" if found["worker_kb"] else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--engines", default="serial,processes,dask")
    args = parser.parse_args()
    engines = {"serial": ("serial", "1"), "processes": ("processes", "2"),
               "dask": ("dask", "2")}
    print(f"{'documents':>10} {'engine':<12} {'docs/s':>8} {'wall s':>8} {'main MB':>8} "
          f"{'worker MB':>9} {'CoNLL F1':>9}")
    for size in (int(s) for s in args.sizes.split(",")):
        started = time.perf_counter()
        keys, responses = build(size)
        built = time.perf_counter() - started
        if built > 1:
            print(f"{'':>10} (built in {built:.0f} s: {size} documents, "
                  f"{sum(p.stat().st_size for p in keys.iterdir()) / 1e6:.0f} MB per side)")
        for name in args.engines.split(","):
            engine, jobs = engines[name]
            found = run(keys, responses, engine, jobs)
            print(f"{size:>10} {name + ' x' + jobs:<12} {found['documents'] / found['wall']:8.0f} "
                  f"{found['wall']:8.2f} {found['peak_kb'] / 1024:8.0f} "
                  f"{worker_mb(found):>9} {found['conll'] * 100:9.4f}")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
