"""How long the alignment of one long document takes (corefkit.alignment.align).

Key: GUM documents of ``shared/corpora/llm-text2text`` joined into one document of N tokens
(repeated when N exceeds the 26,809 words of the 30 documents); response: the same documents'
simulated LLM answers of the ``mixed`` kind joined the same way (words inserted, deleted,
replaced, re-tokenized, tags broken: the word alignment), or the gold linear text (same words:
the character alignment). Prints the best of ``--repeat`` runs per size and way: CPU time of
this process (what a core spends; on a machine shared with other jobs the wall time is longer)
and wall time.

    python benchmarks/align_bench.py [--sizes 10000,100000] [--repeat 5]

The issue's target: a 10,000-token document aligns in under 0.2 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "corpora" / "llm-text2text"
GUM = ROOT.parent / "shared" / "corpora" / "gum" / "dep"


def documents(size: int, kind: str) -> tuple[object, object]:
    from corefkit import read
    from corefkit.alignment import join

    names = (DATA / "doclist.txt").read_text().split()
    keys, responses, words = [], [], 0
    while words < size:
        for name in names:
            key = next(read(GUM / f"{name}.conllu"))
            path = DATA / ("gold" if kind == "gold" else f"responses/{kind}") / (
                f"{name}.seq.txt" if kind == "gold" else f"{name}.txt")
            keys.append(key)
            responses.append(next(read(path, format="text2text", lenient=True)))
            words += sum(1 for t in key.tokens if not t.is_empty)
            if words >= size:
                break
    return join(keys), join(responses)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from corefkit.alignment import align

    print("tokens\tresponse\tmode\tbest CPU s\tbest wall s\tmentions")
    for size in (int(s) for s in args.sizes.split(",")):
        for kind in ("mixed", "gold"):
            key, response = documents(size, kind)
            best = wall = float("inf")
            for _ in range(args.repeat):
                started, cpu = time.perf_counter(), time.process_time()
                found = align(key, response)
                best = min(best, time.process_time() - cpu)
                wall = min(wall, time.perf_counter() - started)
            print(f"{key.token_count}\t{kind}\t{found.report.mode}\t{best:.3f}\t{wall:.3f}\t"
                  f"{found.report.mentions}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
