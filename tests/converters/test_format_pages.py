"""The command lines of ``docs/formats/*.md`` run as written and print what the pages show.

A ``console`` block holds commands (``$ corefkit ...``), each followed by its output (standard
error and output, line by line). They run in a folder holding ``book.jsonlines``: one document
whose second word is a bare newline, as BookCoref has 1,549 of them.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from corefkit.cli.main import main

PAGES = sorted((Path(__file__).resolve().parents[2] / "docs" / "formats").glob("*.md"))
BLOCK_RE = re.compile(r"```console\n(.*?)```", re.S)


def blocks() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for k, block in enumerate(BLOCK_RE.findall(page.read_text(encoding="utf-8"))):
            found.append((f"{page.name}#{k + 1}", block))
    return found


def test_the_pages_have_examples() -> None:
    assert blocks(), "no console block in docs/formats"


@pytest.mark.parametrize(("where", "block"), blocks(), ids=[w for w, _ in blocks()])
def test_console_block(where: str, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    record = {"doc_key": "book", "sentences": [["Call", "\n", "me", "Ishmael", "."]],
              "clusters": [[[0, 0], [2, 2]]]}
    (tmp_path / "book.jsonlines").write_text(json.dumps(record) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    commands: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:], []))
        else:
            commands[-1][1].append(line)
    for command, expected in commands:
        words = shlex.split(command)
        assert words[0] == "corefkit", where
        code = main(words[1:])
        out = capsys.readouterr()
        shown = (out.err + out.out).splitlines()
        assert shown == expected, f"{where}: {command}"
        assert (code == 0) == (not any(x.startswith("corefkit: error") for x in expected))
