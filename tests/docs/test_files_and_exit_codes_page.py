"""Every command of docs/reference/files-and-exit-codes.md runs and prints what the page shows.

The page's ``console`` blocks are transcripts: a ``$ corefkit ...`` line is run (in this
process, in a scratch folder where ``examples/`` and ``../shared`` resolve as from the project
root), ``# exits N`` gives the exit code expected (else 0), and the lines up to the next
``$`` are its standard output and error, compared line by line; ``...`` stands for any text
(a line of its own: any number of lines). The commands of a page run in order and share the
folder, so that a later command sees what an earlier one wrote.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT, SHARED

PAGE = ROOT / "docs" / "reference" / "files-and-exit-codes.md"
EXITS = re.compile(r"\s+#\s*exits\s+(\d+)\s*$")


def transcripts() -> list[list[tuple[str, int, list[str]]]]:
    """Per console block: (command, exit code, expected lines) of each ``$`` line."""
    found = []
    for block in re.findall(r"^```console\n(.*?)^```", PAGE.read_text(encoding="utf-8"),
                            flags=re.S | re.M):
        commands: list[tuple[str, int, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                exits = EXITS.search(line)
                command = line[2:exits.start()] if exits else line[2:]
                commands.append((command, int(exits.group(1)) if exits else 0, []))
            else:
                assert commands, f"output before the first command: {line!r}"
                commands[-1][2].append(line)
        found.append(commands)
    return found


def matches(expected: list[str], actual: list[str]) -> bool:
    def line(pattern: str, text: str) -> bool:
        return re.fullmatch(".*".join(map(re.escape, pattern.split("..."))), text) is not None

    def walk(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(actual)
        if expected[i] == "...":
            return any(walk(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line(expected[i], actual[j]) and walk(i + 1, j + 1)

    return walk(0, 0)


def test_the_page_has_commands_that_fail_and_succeed():
    codes = [code for block in transcripts() for _, code, _ in block]
    assert len(codes) >= 10 and {0, 1, 2} <= set(codes)


def test_every_command_prints_what_the_page_shows(tmp_path, monkeypatch, capsys):
    work = tmp_path / "work"
    work.mkdir()
    (work / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "shared").symlink_to(SHARED)
    monkeypatch.chdir(work)
    for block in transcripts():
        for command, expected_code, expected in block:
            words = shlex.split(command)
            assert words[0] == "corefkit", command
            capsys.readouterr()
            code = main(words[1:])
            out, err = capsys.readouterr()
            assert code == expected_code, (command, err)
            if expected:
                shown = [line.rstrip() for line in (out + err).splitlines()]
                assert matches([line.rstrip() for line in expected], shown), \
                    f"{command!r} printed\n" + "\n".join(shown)
    assert not (ROOT / "examples" / "conll2012" / "key.conllu").exists()  # nothing written there


def test_the_page_names_test_modules_that_exist():
    named = re.findall(r"`(tests/[\w/]+\.py)`", PAGE.read_text(encoding="utf-8"))
    assert named and all((ROOT / path).is_file() for path in named), named
    assert Path(__file__).relative_to(ROOT).as_posix() in named
