"""The command lines of the "Token forms" sections of ``docs/formats/*.md`` run as written and
print what the pages show.

A ``console`` block holds commands (``$ corefkit ...``, ``# exits N`` when the command is
expected to fail), each followed by its output (standard error and output, line by line). They
run in a fresh folder beside which ``../shared`` is the shared data, as in the site's example
runner.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import SHARED

PAGES = sorted((Path(__file__).resolve().parents[2] / "docs" / "formats").glob("*.md"))
SECTION_RE = re.compile(r"^## Token forms\n(.*?)(?=^## |\Z)", re.S | re.M)
BLOCK_RE = re.compile(r"```console\n(.*?)```", re.S)
EXITS_RE = re.compile(r"\s+#\s*exits\s+(\d+)\s*$")


def blocks() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for section in SECTION_RE.findall(page.read_text(encoding="utf-8")):
            for k, block in enumerate(BLOCK_RE.findall(section)):
                found.append((f"{page.name}#{k + 1}", block))
    return found


def test_the_pages_have_examples() -> None:
    assert blocks(), "no console block in the Token forms sections of docs/formats"


@pytest.mark.parametrize(("where", "block"), blocks(), ids=[w for w, _ in blocks()])
def test_console_block(where: str, block: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "shared").symlink_to(SHARED)
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    commands: list[tuple[str, int, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            exits = EXITS_RE.search(line)
            command = line[2:exits.start()] if exits else line[2:]
            commands.append((command, int(exits.group(1)) if exits else 0, []))
        else:
            commands[-1][2].append(line)
    for command, status, expected in commands:
        words = shlex.split(command)
        assert words[0] == "corefkit", where
        code = main(words[1:])
        out = capsys.readouterr()
        shown = (out.err + out.out).splitlines()
        assert shown == expected, f"{where}: {command}"
        assert code == status, f"{where}: {command}"
