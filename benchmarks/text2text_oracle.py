"""corefkit against the CRAC LLM track's own pipeline (text2text-coref + CorefUD scorer 1.2).

For every run of ``shared/conformance/real/real-text2text.json`` — the gold linear text, the
simulated LLM answers of each damage kind, the JSON variant, the texts with empty nodes and the
multi-document files — this scores the same input with corefkit (``corefkit.score`` with the
``crac-llm`` profile: lenient reading, alignment to the gold CoNLL-U, the CorefUD scorer's
semantics) in the suite's four modes, and sets its CoNLL F1 beside the oracle's (the suite's
exact values). It prints one table: damage kind × corefkit vs text2text-coref, mean CoNLL F1
per mode, how many documents corefkit scores higher / equal / lower, and the alignment counts
of both (corefkit's words replaced / inserted / deleted and mentions moved / unaligned, the
oracle's ``clean`` word_problems).

    python benchmarks/text2text_oracle.py [--modes head,exact+singletons] [--markdown]

The tests (tests/converters/test_text2text_oracle.py) run the same comparison.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SUITE = SHARED / "conformance" / "real" / "real-text2text.json"
DATA = SHARED / "corpora" / "llm-text2text"
GOLD = SHARED / "corpora" / "gum" / "dep"
MODES = {"head": ("head", True), "head+singletons": ("head", False),
         "exact": ("exact", True), "exact+singletons": ("exact", False)}
# the oracle's CoNLL F1 is a float where its counts are not integers: equal within this
TOLERANCE = Fraction(1, 10**12)
KINDS = ("gold", "truncated", "tokenization", "words", "tags", "entities", "mixed",
         "json-gold", "zero-gold", "zero", "json-zero")
# corefkit reads ## words as empty nodes whatever the oracle's -z / -g flag: one corefkit run
# stands for both oracle runs
SAME_INPUT = {"zero-gold+z": "zero-gold", "zero+z": "zero", "json-zero+g": "json-zero"}


@cache
def suite() -> dict[str, Any]:
    return json.loads(SUITE.read_text())


def oracle_f1(run: str, mode: str) -> Fraction | None:
    """The oracle's CoNLL F1 of a run and mode (None: it crashed)."""
    for case in _cases().get(run, []):
        if case["mode"] == mode:
            expected = case["expected"]
            if "error" in expected:
                return None
            return Fraction(expected["conll"]["f1"])   # a float's repr when not exact
    if run in suite()["runs"]:  # the oracle's converter crashed: nothing was scored
        return None
    raise KeyError(f"{run}/{mode}")


@cache
def _cases() -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for case in suite()["cases"]:
        found.setdefault(case["run"], []).append(case)
    return found


def run_input(run: str) -> tuple[Path, Path, str]:
    """(gold CoNLL-U, corefkit's input, its format) of a suite run ``DOC/KIND`` or ``ALL/KIND``."""
    record = suite()["runs"][run]
    base = SUITE.parent
    source = (base / record["input"]).resolve()
    fmt = "text2text-json" if record["format"] == "json" else "text2text"
    gold = record["gold"]
    return (base / gold).resolve() if not gold.startswith("$") else Path(), source, fmt


@dataclass
class Row:
    kind: str
    documents: int = 0
    corefkit: dict[str, Fraction] = field(default_factory=dict)      # mode -> sum of F1
    oracle: dict[str, Fraction] = field(default_factory=dict)
    oracle_scored: dict[str, int] = field(default_factory=dict)
    higher: dict[str, int] = field(default_factory=dict)
    equal: dict[str, int] = field(default_factory=dict)
    lower: dict[str, int] = field(default_factory=dict)
    crashes: int = 0
    alignment: dict[str, int] = field(default_factory=dict)
    word_problems: dict[str, int] = field(default_factory=dict)


def score_document(gold: Any, response: Any, fmt: str, mode: str) -> tuple[Fraction, Any]:
    """corefkit's CoNLL F1 of a response in one of the suite's modes, and its report."""
    from corefkit import score

    match, remove = MODES[mode]
    report = score(gold, response, "muc,bcub,ceafe,conll", response_format=fmt,
                   profile="crac-llm", match=match, remove_singletons=remove, jobs=1)
    return report.metrics["conll"].f1, report


def read_pair(gold: Path, source: Path, fmt: str) -> tuple[list[Any], list[Any]]:
    from corefkit import read

    return list(read(gold)), list(read(source, format=fmt, lenient=True))


def compare_kind(kind: str, modes: list[str], documents: list[str] | None = None) -> Row:
    row = Row(kind)
    names = documents or [r.split("/")[0] for r in suite()["runs"]
                          if r.endswith("/" + kind) and not r.startswith("ALL/")]
    for name in names:
        run = f"{name}/{kind}"
        gold, source, fmt = run_input(run)
        keys, responses = read_pair(gold, source, fmt)
        row.documents += 1
        for mode in modes:
            mine, report = score_document(keys, responses, fmt, mode)
            row.corefkit[mode] = row.corefkit.get(mode, Fraction(0)) + mine
            variants = [run] + [f"{name}/{k}" for k, v in SAME_INPUT.items()
                                if v == kind and f"{name}/{k}" in suite()["runs"]]
            theirs = oracle_f1(run, mode)
            if theirs is None:
                row.crashes += 1
            else:
                row.oracle[mode] = row.oracle.get(mode, Fraction(0)) + theirs
                row.oracle_scored[mode] = row.oracle_scored.get(mode, 0) + 1
            best = [f for f in (oracle_f1(v, mode) for v in variants) if f is not None]
            top = max(best) if best else Fraction(0)
            bucket = row.higher if mine > top + TOLERANCE else row.lower \
                if mine < top - TOLERANCE else row.equal
            bucket[mode] = bucket.get(mode, 0) + 1
            if mode == modes[0] and report.alignment is not None:
                for key, value in report.alignment.totals().items():
                    row.alignment[key] = row.alignment.get(key, 0) + value
        for problems in suite()["runs"][run]["clean"].get("word_problems", []) \
                if "clean" in suite()["runs"][run] else []:
            for key, value in problems.items():
                if isinstance(value, int):
                    row.word_problems[key] = row.word_problems.get(key, 0) + value
    return row


def compare_multidoc(kind: str, modes: list[str]) -> Row:
    """An ``ALL/KIND`` run: one file, one line per document, against the 30 gold files."""
    from corefkit import read

    row = Row("ALL/" + kind, documents=1)
    names = (DATA / "doclist.txt").read_text().split()
    keys = [d for n in names for d in read(GOLD / f"{n}.conllu")]
    record = suite()["runs"][f"ALL/{kind}"]
    if record["input"] is not None:
        responses = list(read((SUITE.parent / record["input"]).resolve(), format="text2text",
                              lenient=True))
    else:  # one line per document, in doclist order, in one file (as the suite made it)
        import tempfile

        part = {"gold": "gold/{}.seq.txt", "mixed": "responses/mixed/{}.txt",
                "nonseq": "gold/{}.txt", "blind": "blind/{}.txt"}[kind]
        text = "".join((DATA / part.format(n)).read_text() for n in names)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "ALL.txt"
            path.write_text(text)
            responses = list(read(path, format="text2text", lenient=True))
    fmt = "text2text"
    for mode in modes:
        mine, report = score_document(keys, responses, fmt, mode)
        theirs = oracle_f1(f"ALL/{kind}", mode)
        row.corefkit[mode] = mine
        if theirs is not None:
            row.oracle[mode] = theirs
            row.oracle_scored[mode] = 1
        bucket = row.higher if theirs is None or mine > theirs + TOLERANCE else \
            row.lower if mine < theirs - TOLERANCE else row.equal
        bucket[mode] = bucket.get(mode, 0) + 1
        if mode == modes[0] and report.alignment is not None:
            row.alignment = report.alignment.totals()
    return row


def table(rows: list[Row], modes: list[str], markdown: bool = False) -> str:
    head = ["kind", "docs"] + [f"{m}: corefkit / oracle (>,=,<)" for m in modes] + [
        "corefkit: words repl/ins/del, mentions moved/expanded/unaligned, key missed",
        "oracle clean: insert/delete/replace"]
    lines = []
    for row in rows:
        cells = [row.kind, str(row.documents)]
        for m in modes:
            mine = row.corefkit.get(m, Fraction(0)) / max(row.documents, 1) * 100
            n = row.oracle_scored.get(m, 0)
            theirs = f"{float(row.oracle[m] / n * 100):.2f}" if n else "crash"
            if row.crashes and n:
                theirs += f" ({row.crashes // len(modes)} crashed)"
            cells.append(f"{float(mine):.2f} / {theirs} ({row.higher.get(m, 0)},"
                         f"{row.equal.get(m, 0)},{row.lower.get(m, 0)})")
        a = row.alignment
        cells.append(f"{a.get('words_replaced', 0)}/{a.get('words_inserted', 0)}/"
                     f"{a.get('words_deleted', 0)}, {a.get('mentions_moved', 0)}/"
                     f"{a.get('mentions_expanded', 0)}/{a.get('mentions_unaligned', 0)}, "
                     f"{a.get('key_mentions_missing', 0)}")
        w = row.word_problems
        cells.append(f"{w.get('insert', 0)}/{w.get('delete', 0)}/{w.get('replace', 0)}")
        lines.append(cells)
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        out += ["| " + " | ".join(c) + " |" for c in lines]
        return "\n".join(out)
    return "\n".join("\t".join(c) for c in [head, *lines])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default="head,exact+singletons")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    modes = args.modes.split(",")
    rows = []
    for kind in args.kinds.split(","):
        rows.append(compare_kind(kind, modes))
        print(table(rows[-1:], modes, args.markdown).splitlines()[-1], file=sys.stderr,
              flush=True)
    rows += [compare_multidoc(k, modes) for k in ("gold", "mixed", "newline", "nonseq")]
    print(table(rows, modes, args.markdown))
    return 0


if __name__ == "__main__":
    sys.exit(main())
