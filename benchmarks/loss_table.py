#!/usr/bin/env python3
"""Print the format-pair loss table: what each writer loses of each real corpus.

Rows are the corpora of ``../shared/corpora`` in the format they come in (the samples of
``tests/oracle/format_pairs.py``: the documents that show each corpus's features), columns the
writers (each format, and each jsonlines shape); a cell lists what the conversion loses, summed
over the sample's documents, as ``feature count`` (``~`` after the count: kept in another form,
e.g. written without its empty nodes; no mark: dropped). The counts are those of the loss
report, which ``tests/converters/test_loss_equals_diff.py`` holds equal to an independent diff
of source and result; a cell where they differ shows ``MISMATCH`` and the number of feature
counts (or mentions) that differ, and the last line sums them (the pairs listed in
``KNOWN_MISMATCHES`` apart). Exit status 1 when a pair not listed there mismatches.

    .venv/bin/python benchmarks/loss_table.py            # Markdown table on standard output
    .venv/bin/python benchmarks/loss_table.py --long     # one line per pair instead

Not part of the test suite (the test runs the same pairs).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.oracle.format_pairs import KNOWN_MISMATCHES, SOURCES, TARGETS, run  # noqa: E402

SHORT = {
    "tokens": "tok", "sentences": "sent", "empty_nodes": "empty", "lemmas": "lemma", "pos": "pos",
    "morphology": "feats", "syntax": "tree", "enhanced_deps": "deps", "misc": "misc",
    "token_columns": "cols", "speakers": "spk", "singletons": "sgl", "discontinuous": "disc",
    "zeros": "zero", "mentions_with_empty_nodes": "m+empty", "crossing_same_entity": "cross=",
    "crossing_mentions": "cross", "mentions_over_lost_tokens": "m-lost", "cross_sentence": "xsent",
    "heads": "head", "min_spans": "min", "split_antecedents": "split", "bridging": "brg",
    "discourse_deixis": "dd", "non_referring": "nonref", "unlinked_mentions": "unlinked",
    "mention_attributes": "m-attr", "entity_attributes": "e-attr", "typed_links": "links",
    "metadata": "meta", "names": "name", "parts": "part", "opaque_levels": "levels",
    "sub_token": "subtok",
}


def cell(losses: Counter[tuple[str, str]], problems: int) -> str:
    order = list(SHORT)
    parts = []
    for (feature, kind), count in sorted(losses.items(),
                                         key=lambda x: (order.index(x[0][0])
                                                        if x[0][0] in order else 99, x[0][1])):
        if count:
            mark = "~" if kind == "changed" else ""
            parts.append(f"{SHORT.get(feature, feature)} {count}{mark}")
    text = ", ".join(parts) or "–"
    return f"MISMATCH {problems}: {text}" if problems else text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--long", action="store_true", help="one line per pair")
    args = parser.parse_args()
    rows: dict[str, dict[str, Counter[tuple[str, str]]]] = defaultdict(
        lambda: defaultdict(Counter))
    mismatches: Counter[tuple[str, str]] = Counter()
    documents: Counter[str] = Counter()
    pairs: Counter[str] = Counter()     # per source file and target: equal, known, unknown
    for source in SOURCES:
        row = f"{source.corpus} ({source.format})"
        docs = source.read()
        documents[row] += len(docs)
        for target in TARGETS:
            problems = 0
            for outcome in run(source, target, [d.copy() for d in docs]):
                rows[row][target.name].update(outcome.losses)
                problems += len(outcome.problems)
            mismatches[(row, target.name)] += problems
            known = (source.path, target.name) in KNOWN_MISMATCHES
            pairs["equal" if not problems else "known" if known else "unknown"] += 1
    summary = (f"{sum(pairs.values())} pairs (source file, writer): {pairs['equal']} with the loss "
               f"report equal to the diff, {pairs['known']} known mismatches "
               f"({sum(mismatches.values())} mismatching feature counts or mentions), "
               f"{pairs['unknown']} unknown mismatches.")
    names = [t.name for t in TARGETS]
    if args.long:
        for row, cells in rows.items():
            for name in names:
                print(f"{row} -> {name}: {cell(cells[name], mismatches[(row, name)])}")
        print(summary)
        return 1 if pairs["unknown"] else 0
    print("| source (documents) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for row, cells in rows.items():
        print(f"| {row} ({documents[row]}) | "
              + " | ".join(cell(cells[n], mismatches[(row, n)]) for n in names) + " |")
    print()
    print("Counts summed over the documents of the sample; `~`: kept in another form. "
          "Abbreviations: " + ", ".join(f"{v} = {k}" for k, v in SHORT.items()) + ".")
    print()
    print(summary)
    return 1 if pairs["unknown"] else 0


if __name__ == "__main__":
    sys.exit(main())
