#!/usr/bin/env python3
"""Differential test of ``corefkit gap-score`` against the official GAP scorer.

For each GAP file (default: both files of ../shared/corpora/jsonlines/gap) the harness writes
perturbed system files — gold decisions with labels flipped, rows dropped (missing output),
IDs repeated with other labels (the first counts), labels in lower case or not TRUE/FALSE,
IDs the gold lacks, a header line, rows shuffled — scores each with the official
``gap_scorer.py`` (google-research-datasets/gap-coreference, a Python 2 program) and with
corefkit, and compares:

* the scorecard: corefkit's ``--format official`` text against the official output, byte for
  byte (the official's diagnostic lines before the scorecard left out);
* the counts: TP, FP, FN, TN of every group, exactly;
* the exact values: corefkit's fractions rounded to the printed digits (percentages to 0.05,
  the bias to 0.005) against the printed numbers.

    git clone https://github.com/google-research-datasets/gap-coreference /tmp/gap
    python2 -m pip install --target /tmp/py2 enum34        # constants.py needs enum
    .venv/bin/python benchmarks/gap_differential.py --scorer-dir /tmp/gap --pythonpath /tmp/py2

Exit status 1 when a value differs. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

from corefkit.evaluation.gap import GROUPS, GapReport, gap_score  # noqa: E402

GAP = HERE.parent.parent / "shared" / "corpora" / "jsonlines" / "gap"
SCORE_RE = re.compile(r"^(\w+) recall: ([\d.]+) precision: ([\d.]+) f1: ([\d.]+)$")
COUNTS_RE = re.compile(r"^\t\t(tp|fn) (\d+)\t(fp|tn) (\d+)$")


def gold_rows(path: Path) -> list[tuple[str, str, str]]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [(f[0], f[6], f[9]) for f in (line.split("\t") for line in lines if line.strip())]


def perturb(rows: list[tuple[str, str, str]], rng: random.Random) -> str:
    """A system file: the gold decisions with the errors and oddities of the module's text."""
    flip = rng.choice([0.0, 0.05, 0.2, 0.5, 1.0])
    drop = rng.choice([0.0, 0.0, 0.02, 0.1])
    lower, bad, repeat = (rng.choice([0.0, rate]) for rate in (0.05, 0.01, 0.02))
    out: list[str] = []
    for ident, a, b in rows:
        if rng.random() < drop:
            continue
        a = ("FALSE" if a == "TRUE" else "TRUE") if rng.random() < flip else a
        b = ("FALSE" if b == "TRUE" else "TRUE") if rng.random() < flip else b
        if rng.random() < lower:
            a = a.lower()
        if rng.random() < bad:
            b = rng.choice(["maybe", "1", "", "TRUE ", "False"])
        out.append(f"{ident}\t{a}\t{b}")
        if rng.random() < repeat:  # the same ID again, other labels: the first one counts
            out.append(f"{ident}\t{'TRUE' if a != 'TRUE' else 'FALSE'}\t{b}")
    if rng.random() < 0.5:
        rng.shuffle(out)
    if rng.random() < 0.3:
        out.append(f"not-in-gold-{rng.randrange(1000)}\tTRUE\tFALSE")
    if rng.random() < 0.3:
        out.insert(0, "ID\tA-coref\tB-coref")
    return "\n".join(out) + "\n"


def official(python: str, pythonpath: str | None, scorer: Path, gold: Path,
             system: Path) -> str:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    result = subprocess.run([python, str(scorer / "gap_scorer.py"), "--gold_tsv", str(gold),
                             "--system_tsv", str(system)], capture_output=True, text=True,
                            cwd=scorer, timeout=300, env=env, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the official scorer failed: {result.stderr.strip()[-500:]}")
    text = result.stdout
    start = text.find("Overall recall:")
    if start < 0:
        raise RuntimeError(f"no scorecard in the official output: {text[-500:]}")
    return text[start:]


def parse(scorecard: str) -> tuple[dict[str, tuple[float, ...]], dict[str, dict[str, int]],
                                     float | None]:
    values: dict[str, tuple[float, ...]] = {}
    counts: dict[str, dict[str, int]] = {}
    group = ""
    bias: float | None = None
    for line in scorecard.splitlines():
        found = SCORE_RE.match(line)
        if found:
            group = {"Overall": "overall"}.get(found.group(1), found.group(1).lower())
            values[group] = tuple(float(found.group(i)) for i in (2, 3, 4))
            counts[group] = {}
        found = COUNTS_RE.match(line)
        if found:
            counts[group][found.group(1)] = int(found.group(2))
            counts[group][found.group(3)] = int(found.group(4))
        if line.startswith("Bias (F/M): "):
            shown = line.split(": ", 1)[1].strip()
            bias = None if shown == "-" else float(shown)
    return values, counts, bias


def compare(report: GapReport, scorecard: str) -> list[str]:
    """The differences between corefkit's report and the official scorecard."""
    problems = []
    if report.to_official() + "\n\n" != scorecard:
        problems.append("scorecard text differs")
    values, counts, bias = parse(scorecard)
    for group in GROUPS:
        c = report.counts[group]
        mine = {"tp": c.tp, "fp": c.fp, "fn": c.fn, "tn": c.tn}
        if counts.get(group) != mine:
            problems.append(f"{group}: counts {mine} vs {counts.get(group)}")
        exact = (c.recall * 100, c.precision * 100, c.f1 * 100)
        for name, value, printed in zip(("recall", "precision", "f1"), exact, values[group]):
            if abs(value - Fraction(printed)) > Fraction(1, 20) + Fraction(1, 10**9):
                problems.append(f"{group} {name}: {float(value):.6f} vs printed {printed}")
    mine_bias = report.bias
    if (mine_bias is None) != (bias is None) or (
            mine_bias is not None and bias is not None
            and abs(mine_bias - Fraction(bias)) > Fraction(1, 200) + Fraction(1, 10**9)):
        problems.append(f"bias {mine_bias} vs printed {bias}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scorer-dir", required=True, type=Path,
                        help="a checkout of google-research-datasets/gap-coreference")
    parser.add_argument("--python", default="python2", help="interpreter of the official "
                        "scorer, a Python 2 with enum34 (default python2)")
    parser.add_argument("--pythonpath", default=None,
                        help="PYTHONPATH for the official scorer (where enum34 is installed)")
    parser.add_argument("--gold", nargs="*", type=Path,
                        default=[GAP / "gap-validation.tsv", GAP / "gap-development.tsv"])
    parser.add_argument("--systems", type=int, default=10, help="system files per gold file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None, help="keep the system files here")
    parser.add_argument("--verbose", "-v", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    failures = runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for gold in args.gold:
            rows = gold_rows(gold)
            for n in range(args.systems):
                system = folder / f"{gold.stem}-system-{n}.tsv"
                system.write_text(perturb(rows, rng) if n else
                                  "\n".join("\t".join(r) for r in rows) + "\n", encoding="utf-8")
                problems = compare(gap_score(gold, system),
                                   official(args.python, args.pythonpath, args.scorer_dir,
                                            gold, system))
                runs += 1
                failures += bool(problems)
                if problems or args.verbose:
                    print(f"{system.name}: {'; '.join(problems) or 'equal'}")
    print(f"{runs} system files scored by both: {runs - failures} equal, {failures} differing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
