#!/usr/bin/env python3
"""Time ``corefkit score`` on large key/response pairs; print seconds and peak memory.

Two pairs are generated into ``benchmarks/data/`` (git-ignored) from the shared corpora:

* ``corpus``: 280 documents cut from OntoGUM's 46 (each repeated under a new name), about
  33k key mentions; the response perturbs the key with a fixed seed (mentions dropped and
  invented, chains split and merged), as a system would.
* ``long``: one document of all 46 GUM texts in a row (42,724 tokens, 12.5k mentions with
  singletons), same kind of response — long documents must not blow up.

Each pair is scored by the real command (``python -m corefkit score ... -f json``, all
metrics) in a fresh process, three times; the best wall time and the peak resident memory
are printed. Run: ``python benchmarks/score_bench.py`` (from the project's virtualenv).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
DATA = HERE / "data"
sys.path.insert(0, str(ROOT))

import corefkit  # noqa: E402
from corefkit.model import Document  # noqa: E402


def perturb(doc: Document, rng: random.Random) -> Document:
    """A plausible system response: 10% mentions dropped, 8% invented, chains split/merged."""
    out = Document(doc.id, doc.part)
    out.tokens = doc.tokens
    out.sentences = doc.sentences
    entities = doc.entities_in("identity")
    target = {e: out.new_entity() for e in entities}
    for e in entities:
        for m in doc.mentions_of(e):
            if rng.random() < 0.10:
                continue
            chosen = target[e]
            roll = rng.random()
            if roll < 0.05:  # split off
                chosen = out.new_entity()
            elif roll < 0.10:  # merged into another chain
                chosen = target[rng.choice(entities)]
            out.add_mention(range(m.start, m.end + 1), chosen)
    n = len(doc.tokens)
    for _ in range(int(len(doc.mentions) * 0.08)):
        start = rng.randrange(n)
        end = min(n - 1, start + rng.randrange(3))
        entity = target[rng.choice(entities)] if entities and rng.random() < 0.5 else out.new_entity()
        out.add_mention(range(start, end + 1), entity)
    for e in list(out.entities):
        if out.size(e) == 0:
            out.remove_entity(e)
    return out


def build_corpus_pair() -> tuple[Path, Path]:
    key_path, response_path = DATA / "corpus.key.conll", DATA / "corpus.response.conll"
    if key_path.exists() and response_path.exists():
        return key_path, response_path
    source = list(corefkit.read(SHARED / "corpora" / "gum" / "coref-ontogum-conll"))
    rng = random.Random(2026)
    keys, responses = [], []
    for i in range(280):
        doc = source[i % len(source)].copy()
        doc.id = f"{doc.id}-{i:03d}"
        keys.append(doc)
        responses.append(perturb(doc, rng))
    corefkit.write(keys, key_path)
    corefkit.write(responses, response_path)
    return key_path, response_path


def build_long_pair() -> tuple[Path, Path]:
    key_path, response_path = DATA / "long.key.conll", DATA / "long.response.conll"
    if key_path.exists() and response_path.exists():
        return key_path, response_path
    long = Document("all_of_gum", "0")
    for doc in corefkit.read(SHARED / "corpora" / "gum" / "coref-gum-conll"):
        offset = len(long.tokens)
        long.add_sentence([t.form for t in doc.tokens])
        for e in doc.entities:
            entity = long.new_entity()
            for m in doc.mentions_of(e):
                long.add_mention(range(m.start + offset, m.end + offset + 1), entity)
    corefkit.write([long], key_path)
    corefkit.write([perturb(long, random.Random(7))], response_path)
    return key_path, response_path


# Runs the CLI and reports the process's own peak memory. VmHWM (Linux) belongs to the
# process image after exec; ru_maxrss would also count the benchmark's pages copied at fork.
CHILD = """
import resource, sys
from corefkit.cli.main import main
code = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    with open("/proc/self/status") as status:
        peak = int(next(l.split()[1] for l in status if l.startswith("VmHWM")))
except (OSError, StopIteration):
    pass
sys.stderr.write(f"PEAK_KB {peak}\\n")
sys.exit(code)
"""


def measure(key: Path, response: Path, runs: int = 3) -> tuple[float, float, float]:
    """Best wall time and CPU time over ``runs`` fresh processes, and the peak RSS in MB."""
    best = cpu = float("inf")
    peak = 0.0
    for _ in range(runs):
        start = time.perf_counter()
        # --lenient: perturb() repeats spans in two entities, which is refused by default
        child = subprocess.Popen([sys.executable, "-c", CHILD, "score", str(key), str(response),
                                  "-f", "json", "-q", "--lenient"], cwd=ROOT, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
        stderr = child.stderr.read()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"corefkit score failed: {stderr}")
        best = min(best, elapsed)
        cpu = min(cpu, usage.ru_utime + usage.ru_stime)
        peak = max(peak, int(stderr.split("PEAK_KB")[1].split()[0]) / 1024)
    return best, cpu, peak


def in_process(key: Path, response: Path) -> dict[str, float]:
    """Where the CPU time goes: reading both files, and scoring already-read documents."""
    import gc

    import scipy.optimize  # noqa: F401 - imported by scoring; kept out of its timing

    start = time.process_time()
    keys = list(corefkit.read(key))
    responses = list(corefkit.read(response))
    read_time = time.process_time() - start
    gc.collect()
    gc.freeze()  # the documents held here stay out of the collector's way while scoring
    start = time.process_time()
    corefkit.score(keys, responses, lenient=True)
    score_time = time.process_time() - start
    gc.unfreeze()
    return {"read": read_time, "score": score_time}


def main() -> None:
    import compileall

    # Installed packages run from byte-code; compile once so that a session that sets
    # PYTHONDONTWRITEBYTECODE does not measure the compiler on every run.
    compileall.compile_dir(str(ROOT / "corefkit"), quiet=1)
    DATA.mkdir(exist_ok=True)
    for label, build in (("corpus", build_corpus_pair), ("long", build_long_pair)):
        key, response = build()
        docs = list(corefkit.read(key))
        mentions = sum(len(d.mentions) for d in docs)
        tokens = sum(len(d.tokens) for d in docs)
        seconds, cpu, peak = measure(key, response)
        phases = in_process(key, response)
        print(f"{label}: {len(docs)} documents, {tokens} tokens, {mentions} key mentions")
        print(f"  corefkit score (all metrics, new process): {seconds:.2f} s wall, "
              f"{cpu:.2f} s CPU, peak RSS {peak:.0f} MB")
        print(f"  in process (CPU): reading both files {phases['read']:.2f} s, "
              f"scoring the read documents {phases['score']:.2f} s")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
