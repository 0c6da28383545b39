"""The harness's summary: differing values by peer × mode × metric, and what was run."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from difftest.peers import PEERS
from difftest.run import PairResult


def summary(results: list[PairResult]) -> dict[str, Any]:
    compared: Counter[tuple[str, str, str]] = Counter()
    differing: Counter[tuple[str, str, str]] = Counter()
    largest: dict[tuple[str, str, str], float] = defaultdict(float)
    pairs: Counter[str] = Counter()
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    failures: dict[str, list[str]] = defaultdict(list)
    examples: dict[tuple[str, str, str], str] = {}
    for result in results:
        pairs[result.peer] += 1
        kinds[result.peer].update(result.kinds)
        failures[result.peer].extend(f"{result.pair}: {f}" for f in result.failures)
        for (mode, metric), n in result.compared.items():
            compared[(result.peer, mode, metric)] += n
        for d in result.differences:
            cell = (d.peer, d.mode, d.metric)
            differing[cell] += 1
            gap = abs((d.corefkit_value if d.corefkit_value is not None else 0) - d.peer_value)
            largest[cell] = max(largest[cell], gap)
            examples.setdefault(cell, result.kept or result.pair)
    rows = [{"peer": peer, "mode": mode, "metric": metric, "differing": differing[cell],
             "compared": n, "max_difference": largest.get(cell, 0.0),
             "example": examples.get(cell)}
            for cell, n in sorted(compared.items()) for peer, mode, metric in [cell]]
    return {"pairs": dict(pairs), "kinds": {p: dict(k) for p, k in kinds.items()},
            "failures": {p: f for p, f in failures.items() if f}, "rows": rows}


def render(data: dict[str, Any], verbose: bool) -> str:
    lines = [f"{'peer':<10} {'mode':<42} {'metric':<24} {'differ':>7} {'compared':>9} "
             f"{'max |Δ|':>10}"]
    lines.append("-" * len(lines[0]))
    for peer in sorted({r["peer"] for r in data["rows"]}):
        rows = [r for r in data["rows"] if r["peer"] == peer]
        total, differ = sum(r["compared"] for r in rows), sum(r["differing"] for r in rows)
        for r in rows:
            if r["differing"] or verbose:
                lines.append(f"{peer:<10} {r['mode']:<42} {r['metric']:<24} {r['differing']:>7} "
                             f"{r['compared']:>9} {r['max_difference']:>10.3g}")
        note = f"  ({PEERS[peer].expected})" if differ and PEERS[peer].expected else ""
        lines.append(f"{peer:<10} {'all modes':<42} {'all metrics':<24} {differ:>7} {total:>9}"
                     f"{note}")
    lines.append("")
    for peer, n in sorted(data["pairs"].items()):
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(data["kinds"][peer].items()))
        lines.append(f"{peer}: {n} pairs; perturbations: {kinds}")
        for failure in data["failures"].get(peer, [])[:5]:
            lines.append(f"  peer failure: {failure}")
        if len(data["failures"].get(peer, [])) > 5:
            lines.append(f"  ... {len(data['failures'][peer]) - 5} more peer failures")
    examples = [r for r in data["rows"] if r["differing"]]
    if examples:
        lines.append("")
        lines.append("first differing pair of each cell (key and response kept there):")
        for r in examples:
            lines.append(f"  {r['peer']} {r['mode']} {r['metric']}: {r['example']}")
    return "\n".join(lines) + "\n"
