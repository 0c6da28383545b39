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
            "failures": {p: f for p, f in failures.items() if f}, "rows": rows,
            "refusals": {p: f for p, f in refusals(results).items() if f},
            "modes": by_mode(results),
            "zero_bearing_pairs": {p: sum(r.zero_bearing for r in results if r.peer == p)
                                   for p in pairs}}


def refusals(results: list[PairResult]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for result in results:
        found[result.peer].extend(f"{result.pair}: {r}" for r in result.refusals)
    return found


def by_mode(results: list[PairResult]) -> list[dict[str, Any]]:
    """Per peer and mode: pairs, values compared and differing, peer failures and corefkit
    refusals (a failure or refusal without a mode, e.g. udapi's or the reader's, is counted
    under ``(pair)``)."""
    cells: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for result in results:
        modes = {mode for mode, _ in result.compared} | set(result.failed_modes) \
            | set(result.refused_modes)
        for mode in modes:
            cells[(result.peer, mode)]["pairs"] += 1
        for (mode, _), n in result.compared.items():
            cells[(result.peer, mode)]["compared"] += n
        for d in result.differences:
            cells[(result.peer, d.mode)]["differing"] += 1
        for mode, n in result.failed_modes.items():
            cells[(result.peer, mode)]["peer_failures"] += n
        for mode, n in result.refused_modes.items():
            cells[(result.peer, mode)]["refusals"] += n
        unattributed = len(result.failures) - sum(result.failed_modes.values())
        if unattributed > 0:
            cells[(result.peer, "(pair)")]["peer_failures"] += unattributed
            cells[(result.peer, "(pair)")]["pairs"] += 1
    return [{"peer": peer, "mode": mode, **{k: c[k] for k in
                                            ("pairs", "compared", "differing", "peer_failures",
                                             "refusals")}}
            for (peer, mode), c in sorted(cells.items())]


def render_modes(data: dict[str, Any]) -> str:
    header = (f"{'peer':<10} {'mode':<42} {'pairs':>6} {'values':>9} {'differ':>7} "
              f"{'failures':>9} {'refusals':>9}")
    lines = [header, "-" * len(header)]
    for row in data["modes"]:
        lines.append(f"{row['peer']:<10} {row['mode']:<42} {row['pairs']:>6} {row['compared']:>9} "
                     f"{row['differing']:>7} {row['peer_failures']:>9} {row['refusals']:>9}")
    for peer, n in sorted(data["zero_bearing_pairs"].items()):
        lines.append(f"{peer}: {n} of {data['pairs'][peer]} pairs bear zero mentions")
    return "\n".join(lines) + "\n"


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
        for refusal in data.get("refusals", {}).get(peer, [])[:5]:
            lines.append(f"  corefkit refusal: {refusal}")
        if len(data.get("refusals", {}).get(peer, [])) > 5:
            lines.append(f"  ... {len(data['refusals'][peer]) - 5} more corefkit refusals")
    examples = [r for r in data["rows"] if r["differing"]]
    if examples:
        lines.append("")
        lines.append("first differing pair of each cell (key and response kept there):")
        for r in examples:
            lines.append(f"  {r['peer']} {r['mode']} {r['metric']}: {r['example']}")
    return "\n".join(lines) + "\n"
