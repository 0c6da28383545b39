#!/usr/bin/env python3
"""Measure how fast corefkit reads CoNLL-U with coreference (the CorefUD reader), in MB/s.

The data is GUM's ``dep/`` sample (46 files, 4.4 MB) repeated into 281 files of about 28 MB
in ``benchmarks/data/corefud-read/`` (git-ignored), the size of GUM's full ``dep/`` folder.
Each run reads every file through ``corefkit.read`` — the registry path the command line
uses, documents built in full (tokens, sentences, mentions, entities, split antecedents,
bridging) — and keeps nothing. The best of three runs is reported as CPU seconds of this
process (one core) and MB/s; the target is at least 5 MB/s.

For comparison the same files are decoded by a minimal reader (UTF-8 lines split on TABs,
nothing built), and with ``--udapi`` read by udapi (``udapi.core.document.Document``, coref
loaded), which is much slower. Run: ``python benchmarks/read_bench.py [--udapi]``.
"""

from __future__ import annotations

import argparse
import gc
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SOURCE = ROOT.parent / "shared" / "corpora" / "gum" / "dep"
DATA = HERE / "data" / "corefud-read"
FILES = 281
TARGET_MB_S = 5.0
sys.path.insert(0, str(ROOT))

import corefkit  # noqa: E402


def generate() -> list[Path]:
    """281 files cycling over the 46 GUM files (about 28 MB); reused when already there."""
    sources = sorted(SOURCE.glob("*.conllu"))
    if not sources:
        raise SystemExit(f"no GUM files in {SOURCE}")
    DATA.mkdir(parents=True, exist_ok=True)
    wanted = []
    for i in range(FILES):
        source = sources[i % len(sources)]
        target = DATA / f"{i:03d}_{source.name}"
        if not target.exists() or target.stat().st_size != source.stat().st_size:
            shutil.copyfile(source, target)
        wanted.append(target)
    for stale in set(DATA.glob("*.conllu")) - set(wanted):
        stale.unlink()
    return wanted


def read_corefkit(files: list[Path]) -> tuple[int, int]:
    documents = mentions = 0
    for file in files:
        for doc in corefkit.read(file, format="corefud"):
            documents += 1
            mentions += len(doc.mentions)
    return documents, mentions


def read_minimal(files: list[Path]) -> tuple[int, int]:
    lines = fields = 0
    for file in files:
        with open(file, encoding="utf-8") as handle:
            for line in handle:
                lines += 1
                if line[0] != "#" and line != "\n":
                    fields += len(line.split("\t"))
    return lines, fields


def read_udapi(files: list[Path]) -> tuple[int, int]:
    from udapi.core.document import Document

    documents = mentions = 0
    for file in files:
        doc = Document(str(file))
        documents += 1
        mentions += len(doc.coref_mentions)
    return documents, mentions


def best_cpu(function, files: list[Path], runs: int = 3) -> tuple[float, tuple[int, int]]:
    best = float("inf")
    result = (0, 0)
    for _ in range(runs):
        gc.collect()
        start = time.process_time()
        result = function(files)
        best = min(best, time.process_time() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--udapi", action="store_true", help="also time udapi (slow)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    files = generate()
    size = sum(f.stat().st_size for f in files) / 1e6
    print(f"data: {len(files)} files, {size:.1f} MB in {DATA}")
    seconds, (documents, mentions) = best_cpu(read_corefkit, files, args.runs)
    rate = size / seconds
    print(f"corefkit corefud reader: {seconds:.2f} s CPU, {rate:.1f} MB/s "
          f"({documents} documents, {mentions} mentions); target >= {TARGET_MB_S} MB/s: "
          f"{'met' if rate >= TARGET_MB_S else 'NOT met'}")
    seconds, _ = best_cpu(read_minimal, files, args.runs)
    print(f"minimal line decoder:    {seconds:.2f} s CPU, {size / seconds:.1f} MB/s")
    if args.udapi:
        seconds, (documents, mentions) = best_cpu(read_udapi, files, 1)
        print(f"udapi:                   {seconds:.2f} s CPU, {size / seconds:.1f} MB/s "
              f"({documents} documents, {mentions} mentions)")
    return 0 if rate >= TARGET_MB_S else 1


if __name__ == "__main__":
    sys.exit(main())
