"""``benchmarks/perf_bench.py`` runs and reports every row of issue 27's table.

The command of ``docs/performance.md``, with ``--quick`` (tiny inputs, one run each): this
checks the script (its inputs, its commands, the peers' command lines when they are
installed, its table), not the timings. The peers are taken from ``$COREFKIT_PEERS`` (else
``~/corefkit-peers``); without them the peer columns are dashes.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PEERS = Path(os.environ.get("COREFKIT_PEERS", Path.home() / "corefkit-peers"))
ROWS = ("1 OntoGUM-class", "2 CoNLL-UA", "3 CorefUD", "4 in-memory Scorer.update",
        "tokens: stats", "tokens: convert to CorefUD", "6 10× the data", "7 --jobs 2")


def page_command() -> list[str]:
    """The command line shown on docs/performance.md."""
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    block = page.split("```\n", 2)[1]
    words = block.split()
    assert words[:2] == [".venv/bin/python", "benchmarks/perf_bench.py"], block
    return words


def test_the_page_command_in_quick_mode_reports_every_row(tmp_path):
    words = page_command()
    command = [sys.executable, str(ROOT / words[1]), *words[2:], "--quick",
               "--data", str(tmp_path)]
    peers = (PEERS / "bin").is_dir()
    at = command.index("--peers-dir") + 1
    if peers:
        command[at] = str(PEERS)
    else:
        del command[at - 1:at + 1]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    table = done.stdout.split("\n\n")[-1].strip().splitlines()
    assert table[0].startswith("| workload |")
    body = table[2:]
    assert len(body) == len(ROWS)
    for label, line in zip(ROWS, body):
        assert label in line, (label, line)
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[1].endswith(" MB") and " s, CPU " in cells[1], line
    if peers:  # the three rows against a peer have the peer's figures and a ratio
        for line in body[:3]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            assert cells[3] != "–" and cells[4].endswith("×)"), line
    assert (tmp_path / "book.conllu").stat().st_size > 0
