#!/usr/bin/env python3
"""MMAX2 conversion speed in MB of XML per second, on the shared ACL Anthology documents
scaled up to the size of the whole corpus (266 documents, about 60 MB of XML).

    python benchmarks/mmax2_bench.py                 # 266 documents, best of 3 runs
    python benchmarks/mmax2_bench.py --docs 60 --repeat 1
    python benchmarks/mmax2_bench.py --check         # exit 1 if a conversion is below 5 MB/s

The scaled corpus is generated once into ``benchmarks/data/`` (git-ignored) by copying the 12
shared projects under new names, in the corpus' own layout (one folder per project, one
``common_files/global_common_paths.xml`` found by the reader), so that the whole reading path
is measured. Speed = bytes of all project XML files (project, words, markables; the shared
common paths and schemes are counted once) / time, by the wall clock and by the process's CPU
time (on a machine shared with other jobs the wall clock also counts their work; ``--check``
uses the better of the two).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "corpora" / "mmax2" / "acl-anthology"
DATA = ROOT / "benchmarks" / "data"
TARGET_MB_S = 5.0

sys.path.insert(0, str(ROOT))

import corefkit  # noqa: E402


def projects(source: Path) -> list[Path]:
    return sorted(source.glob("*/*/*.mmax"))


def generate(docs: int) -> Path:
    """The scaled corpus with ``docs`` projects (made once, reused while complete)."""
    target = DATA / f"mmax2-acl-x{docs}"
    stamp = target / ".complete"
    if stamp.exists():
        return target
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(SOURCE / "common_files", target / "common_files")
    originals = projects(SOURCE)
    for n in range(docs):
        project = originals[n % len(originals)]
        old = project.stem
        new = f"{old}-{n // len(originals) + 1:03d}"
        folder = target / project.parent.parent.name / new
        (folder / "Basedata").mkdir(parents=True)
        (folder / "Markables").mkdir()
        text = project.read_text(encoding="utf-8").replace(f"{old}_words.xml", f"{new}_words.xml")
        (folder / f"{new}.mmax").write_text(text, encoding="utf-8")
        for sub in ("Basedata", "Markables"):
            for file in (project.parent / sub).iterdir():
                shutil.copyfile(file, folder / sub / file.name.replace(old, new))
    stamp.write_text("ok\n")
    return target


def xml_bytes(corpus: Path) -> int:
    return sum(p.stat().st_size for p in corpus.rglob("*")
               if p.is_file() and p.suffix in (".xml", ".mmax"))


def best_of(repeat: int, run: Callable[[], object]) -> tuple[float, float]:
    """The best wall-clock and CPU seconds of ``repeat`` runs."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=266, help="projects in the scaled corpus")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    parser.add_argument("--check", action="store_true",
                        help=f"exit 1 if a conversion runs below {TARGET_MB_S} MB/s")
    args = parser.parse_args()
    if not SOURCE.is_dir():
        print(f"the shared corpus {SOURCE} is missing", file=sys.stderr)
        return 2
    corpus = generate(args.docs)
    size = xml_bytes(corpus) / 1e6
    out = Path(tempfile.mkdtemp(prefix="mmax2-bench-"))
    mentions = words = 0

    def read() -> None:
        nonlocal mentions, words
        mentions = words = 0
        for doc in corefkit.read(str(corpus)):
            mentions += len(doc.mentions)
            words += len(doc.tokens)

    runs = iter(range(1_000_000))

    def to_conll() -> None:
        corefkit.write(corefkit.read(str(corpus)), str(out / f"{next(runs)}.conll"))

    def to_mmax2() -> None:  # a new folder each time: replacing the last one is not timed
        corefkit.write(corefkit.read(str(corpus)), str(out / f"mmax2-{next(runs)}"), "mmax2")

    try:
        rows = []
        for label, run in (("read MMAX2", read), ("MMAX2 -> CoNLL-2012", to_conll),
                           ("MMAX2 -> MMAX2", to_mmax2)):
            wall, cpu = best_of(args.repeat, run)
            rows.append((label, wall, cpu))
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"corpus: {args.docs} projects, {words:,} words, {mentions:,} markables, "
          f"{size:.1f} MB of XML ({corpus.relative_to(ROOT)})")
    print(f"{'conversion':<22}{'wall s':>8}{'MB/s':>8}{'CPU s':>8}{'MB/s':>8}")
    for label, wall, cpu in rows:
        print(f"{label:<22}{wall:>8.2f}{size / wall:>8.1f}{cpu:>8.2f}{size / cpu:>8.1f}")
    slow = [label for label, wall, cpu in rows if size / min(wall, cpu) < TARGET_MB_S]
    if args.check and slow:
        print(f"below {TARGET_MB_S} MB/s: {', '.join(slow)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
