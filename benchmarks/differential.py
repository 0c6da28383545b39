#!/usr/bin/env python3
"""Differential testing of corefkit against the installed peer scorers, on real documents.

Each pair takes a real document from ../shared/corpora as the key (CODI-CRAC 2022 for the UA
scorer, the zero-bearing corefud-zeros datasets and GUM for the CorefUD scorer, LitBank and
OntoGUM for the CoNLL-2012 scorers) and a copy perturbed with the errors systems make as the
response. CorefUD keys are the original bytes of the real files; their responses are made and
written by udapi (difftest/udperturb.py: zeros moved, re-attached, relations changed, empty
nodes added and dropped, a zero on the key's node with other DEPS, zeros of equal dependency
score, repeated antecedent spans, 2.2 without 2.1, besides the common errors) and re-written by
corefkit as a second response; the peer runs every mode in one process
(difftest/corefud_modes.py). For the other peers the response is — missing, extra and shifted mentions,
merged and split entities, repeated spans, and where the format holds them non-referring
flips, bridging anaphors and anchors, split-antecedent members added / removed / replaced,
spurious and lost sets, discourse-deixis reassignments and zeros moved, added and dropped
(difftest/perturb.py). Both are written in the peer's format, scored by the peer and by
corefkit in every mode they share, and every printed value is compared: at 1e-9 where the
peer gives full precision (the drivers of ../shared/conformance/real/tools), at half the last
printed digit otherwise. The table lists differing values by peer × mode × metric, then per
mode the pairs, values compared and differing, peer failures and corefkit refusals. A peer
crash and a file corefkit refuses (scored again leniently) are findings: the run exits 1 when
any value differs or any failure or refusal happened.

    python benchmarks/differential.py --pairs 500 --peers-dir ~/corefkit-peers
    python benchmarks/differential.py --peers ua,corefud --pairs 50 --keep-failures /tmp/diff

Peers: ``../shared/peers/install.sh DEST`` installs them (``--peers-dir DEST``). Run it with
the project's virtualenv (``.venv/bin/python``); it is not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

from difftest.peers import PEERS  # noqa: E402
from difftest.run import PairResult, score_pair  # noqa: E402
from difftest.table import render, render_modes, summary  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=500, help="pairs per peer (default 500)")
    parser.add_argument("--peers", default=",".join(PEERS),
                        help=f"comma list of {', '.join(PEERS)} (default: all)")
    parser.add_argument("--peers-dir", default=str(Path.home() / "corefkit-peers"),
                        help="where ../shared/peers/install.sh installed the peers")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--strength", type=int, default=12,
                        help="at most this many perturbations per response (default 12)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per peer run")
    parser.add_argument("--keep-failures", default=None, metavar="DIR",
                        help="copy the key and response of every differing pair here")
    parser.add_argument("--json", default=None, metavar="FILE", help="also write the summary")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="list every peer × mode × metric, not only differing ones")
    parser.add_argument("--pairs-jsonl", default=None, metavar="FILE",
                        help="append every pair's result to FILE as it finishes (a run stopped "
                             "early keeps what it did)")
    parser.add_argument("--table-from", default=None, metavar="FILE",
                        help="print the tables of the pairs recorded in FILE (--pairs-jsonl) "
                             "and exit as a run would")
    args = parser.parse_args()
    if args.table_from:
        return _report([PairResult.from_json(json.loads(line))
                        for line in Path(args.table_from).read_text().splitlines() if line],
                       args, 0.0)
    peers = [p.strip() for p in args.peers.split(",") if p.strip()]
    unknown = [p for p in peers if p not in PEERS]
    if unknown:
        parser.error(f"unknown peer {unknown[0]!r}; known: {', '.join(PEERS)}")
    if not (Path(args.peers_dir) / "bin").is_dir():
        parser.error(f"no peers in {args.peers_dir}: run ../shared/peers/install.sh DEST first")
    jobs = [{"peer": peer, "pair": f"{peer}-{n:04d}", "seed": f"{args.seed}:{peer}:{n}",
             "strength": args.strength, "peers_dir": args.peers_dir, "timeout": args.timeout,
             "keep": args.keep_failures} for peer in peers for n in range(args.pairs)]
    started = time.perf_counter()
    results: list[PairResult] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        for n, result in enumerate(pool.map(score_pair, jobs, chunksize=1), 1):
            results.append(result)
            if args.pairs_jsonl:
                with open(args.pairs_jsonl, "a", encoding="utf-8") as out:
                    out.write(json.dumps(result.to_json()) + "\n")
            if n % 50 == 0 or n == len(jobs):
                print(f"  {n}/{len(jobs)} pairs, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    return _report(results, args, time.perf_counter() - started)


def _report(results: list[PairResult], args: argparse.Namespace, seconds: float) -> int:
    data = summary(results)
    data["seconds"] = round(seconds, 1)
    data["command"] = " ".join(sys.argv)
    print(render(data, args.verbose), end="")
    print()
    print(render_modes(data), end="")
    print(f"{len(results)} pairs in {data['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(data, indent=1) + "\n")
    # a differing value, a peer failure and a file corefkit refuses are all findings
    return 1 if any(r["differing"] or r["peer_failures"] or r["refusals"]
                    for r in data["modes"]) else 0


if __name__ == "__main__":
    sys.exit(main())
