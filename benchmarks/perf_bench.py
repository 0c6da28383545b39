#!/usr/bin/env python3
"""corefkit's speed and memory beside the peer scorers: the workloads of issue 14, one run.

Every command runs in a fresh process, ``--runs`` times; the best wall time, the CPU time of
that run (user + system, the process and its children) and the peak resident memory are kept.
Ratios are corefkit / peer on the same workload (below 1: corefkit is faster). Workloads:

1. ``ontogum``: 280 OntoGUM-class documents, 33k key mentions, all 7 metrics, one process,
   against coval (which prints 5 metrics).
2. ``long``: the same content merged into 5 long documents, against corefkit's own time on 1
   (and coval's ratio, for comparison).
3. ``ua``: UA semantics on the CODI-CRAC AMI, Persuasion and LIGHT files with their heavy
   responses (`../shared/conformance/real`), against the UA scorer 1.x.
4. ``corefud``: 35 GUM documents, ``--profile crac`` (head match, singletons removed, zeros by
   dependencies), against the CorefUD scorer 1.2.
5. ``memory``: a 10x concatenation of workload 1, peak memory against 1x.
6. ``jobs``: the 10x concatenation with ``--jobs 2`` against ``--jobs 1``.

Run: ``.venv/bin/python benchmarks/perf_bench.py --peers-dir ~/corefkit-peers`` (peers from
``bash ../shared/peers/install.sh DIR``). Without peers only corefkit's figures are printed.
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
DATA = HERE / "data"
REAL = SHARED / "conformance" / "real" / "data"
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import corefkit  # noqa: E402
from corefkit.model import Document  # noqa: E402
from score_bench import build_corpus_pair  # noqa: E402

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


def measure(command: list[str], runs: int) -> tuple[float, float, float]:
    """(best wall seconds, CPU seconds of that run, peak RSS MB) of a command."""
    best = (float("inf"), 0.0, 0.0)
    for _ in range(runs):
        start = time.perf_counter()
        child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        err = child.stderr.read() if child.stderr else ""
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{err[-2000:]}")
        peak = float(err.split("PEAK_KB")[1].split()[0]) / 1024 if "PEAK_KB" in err \
            else usage.ru_maxrss / 1024
        cpu = usage.ru_utime + usage.ru_stime
        if wall < best[0]:
            best = (wall, cpu, peak)
    return best


def corefkit_cmd(*args: object) -> list[str]:
    # --lenient: the perturbed responses repeat spans in two entities, which every command
    # refuses by default since issue 22 (as the reference scorer refuses more than 10)
    return [sys.executable, "-c", CHILD, "corefkit", "score", *map(str, args), "-q", "-f", "json",
            "--lenient"]


def peer(peers: Path | None, name: str, *args: object) -> list[str] | None:
    if peers is None or not (peers / "bin" / name).exists():
        return None
    return [str(peers / "bin" / name), *map(str, args)]


# ---------------------------------------------------------------------------- data
def merged_pair(key: Path, response: Path, parts: int) -> tuple[Path, Path]:
    """The documents of a pair merged into ``parts`` long documents (entities kept apart)."""
    out = (DATA / f"merged{parts}.key.conll", DATA / f"merged{parts}.response.conll")
    if all(p.exists() for p in out):
        return out
    for source, target in zip((key, response), out):
        docs = list(corefkit.read(source))
        merged = []
        size = -(-len(docs) // parts)
        for n in range(parts):
            long = Document(f"merged-{n}", "0")
            for doc in docs[n * size:(n + 1) * size]:
                offset = len(long.tokens)
                for sentence in doc.sentences:
                    long.add_sentence([doc.tokens[i].form for i in range(sentence.start,
                                                                         sentence.stop)])
                for entity in doc.entities:
                    new = long.new_entity()
                    for m in doc.mentions_of(entity):
                        long.add_mention(range(m.start + offset, m.end + offset + 1), new)
            merged.append(long)
        corefkit.write(merged, target)
    return out


def repeated_pair(key: Path, response: Path, times: int) -> tuple[Path, Path]:
    """The pair repeated ``times`` times under new document names (a corpus 10x larger)."""
    out = (DATA / f"x{times}.key.conll", DATA / f"x{times}.response.conll")
    if all(p.exists() for p in out):
        return out
    for source, target in zip((key, response), out):
        text = source.read_text(encoding="utf-8")
        with open(target, "w", encoding="utf-8") as handle:
            for n in range(times):
                handle.write(text.replace("#begin document (", f"#begin document (r{n}-")
                             .replace("\n", "\n") if n else text)
    return out


def repeated_ua(name: str, times: int) -> tuple[Path, Path]:
    """A CODI-CRAC key and its heavy response as ``times`` documents (renamed copies): the
    issue's AMI test file has 3 documents and 3.1 MB; the bundled AMI dev file is one 0.7 MB
    document, so 4 copies stand in for it."""
    out = (DATA / f"{name}.x{times}.CONLLUA", DATA / f"{name}.heavy.x{times}.CONLLUA")
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


def corefud_pair() -> tuple[Path, Path]:
    """35 GUM documents with a realistic response (the real-data suite's heavy response)."""
    return REAL / "gum-corefud" / "key.conllu", REAL / "gum-corefud" / "response-heavy.conllu"


# ---------------------------------------------------------------------------- report
def row(label: str, ours: tuple[float, float, float], theirs: tuple[float, float, float] | None,
        what: str) -> None:
    ratio = f"{ours[0] / theirs[0]:.2f}x wall, {ours[1] / theirs[1]:.2f}x CPU" if theirs else "-"
    peer_text = (f"{theirs[0]:7.2f} s {theirs[1]:7.2f} s {theirs[2]:7.0f} MB" if theirs
                 else "        -         -          -")
    print(f"{label:<34} {ours[0]:7.2f} s {ours[1]:7.2f} s {ours[2]:7.0f} MB | {peer_text} | "
          f"{ratio}  ({what})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--peers-dir", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default=None, help="comma list of workloads")
    args = parser.parse_args()
    import compileall

    compileall.compile_dir(str(ROOT / "corefkit"), quiet=1)
    DATA.mkdir(exist_ok=True)
    random.seed(1)
    only = set(args.only.split(",")) if args.only else None
    peers = args.peers_dir
    runs = args.runs
    key, response = build_corpus_pair()
    print(f"{'workload':<34} {'corefkit: wall':>9} {'CPU':>9} {'peak':>10} | "
          f"{'peer: wall':>9} {'CPU':>9} {'peak':>10} | ratio")
    base = None
    if only is None or "ontogum" in only or "long" in only:
        base = measure(corefkit_cmd(key, response, "--jobs", "1"), runs)
        coval = peer(peers, "coval-score", key, response)
        coval_base = measure(coval, runs) if coval else None
        row("1 ontogum 280 docs vs coval", base, coval_base, "all 7 metrics vs coval's 5")
    if only is None or "long" in only:
        long_key, long_response = merged_pair(key, response, 5)
        merged = measure(corefkit_cmd(long_key, long_response, "--jobs", "1"), runs)
        row("2 merged into 5 long docs", merged, base, "vs corefkit on 280 short documents")
        coval = peer(peers, "coval-score", long_key, long_response)
        if coval:
            print(f"{'':<34} coval on the 5 long documents: {measure(coval, 1)[0]:.2f} s")
    if only is None or "ua" in only:
        for name in ("AMI_dev_v2.2022.ES2004a", "Persuasion_train.2022.first10docs",
                     "light_train.2022.first10docs"):
            ua_key = REAL / "codi-crac22" / f"{name}.CONLLUA"
            ua_response = REAL / "codi-crac22" / f"{name}.heavy.CONLLUA"
            ours = measure(corefkit_cmd(ua_key, ua_response, "--jobs", "1"), runs)
            theirs = peer(peers, "ua-score", ua_key, ua_response)
            row(f"3 UA {name.split('.')[0][:24]}", ours,
                measure(theirs, runs) if theirs else None,
                f"{ua_key.stat().st_size / 1e6:.1f} MB key, all metrics vs UA scorer 1.x")
    if only is None or "ua" in only:
        ua_key, ua_response = repeated_ua("AMI_dev_v2.2022.ES2004a", 4)
        ours = measure(corefkit_cmd(ua_key, ua_response, "--jobs", "1"), runs)
        theirs = peer(peers, "ua-score", ua_key, ua_response)
        row("3 UA AMI x4 (4 docs)", ours, measure(theirs, runs) if theirs else None,
            f"{ua_key.stat().st_size / 1e6:.1f} MB key, the issue's 3-document AMI test file size")
    if only is None or "corefud" in only:
        ud_key, ud_response = corefud_pair()
        ours = measure(corefkit_cmd(ud_key, ud_response, "--profile", "crac", "--jobs", "1"),
                       runs)
        theirs = peer(peers, "corefud-score", ud_key, ud_response, "-a", "head", "-z",
                      "dependent")
        row("4 CorefUD 35 GUM docs, crac", ours, measure(theirs, runs) if theirs else None,
            "head match, singletons removed, zeros by dependencies")
    if only is None or "memory" in only or "jobs" in only:
        big_key, big_response = repeated_pair(key, response, 10)
        one = base or measure(corefkit_cmd(key, response, "--jobs", "1"), runs)
        ten = measure(corefkit_cmd(big_key, big_response, "--jobs", "1"), runs)
        print(f"{'5 memory: 10x vs 1x (one process)':<34} peak {ten[2]:.0f} MB vs {one[2]:.0f} "
              f"MB = {ten[2] / one[2]:.2f}x; time {ten[0]:.2f} s vs {one[0]:.2f} s = "
              f"{ten[0] / one[0]:.1f}x")
        if only is None or "jobs" in only:
            two = measure(corefkit_cmd(big_key, big_response, "--jobs", "2"), runs)
            print(f"{'6 --jobs 2 vs --jobs 1 on 10x':<34} {two[0]:.2f} s vs {ten[0]:.2f} s wall "
                  f"= {two[0] / ten[0]:.2f}x (CPU {two[1]:.2f} s vs {ten[1]:.2f} s; "
                  f"{os.cpu_count()} cores)")


if __name__ == "__main__":
    os.chdir(ROOT)
    main()
