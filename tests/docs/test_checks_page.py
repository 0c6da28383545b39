"""docs/checks.md: every command on the page runs, with the exit code its comment gives, and
the error line it quotes is the one corefkit prints."""

from __future__ import annotations

import re
import shlex

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT

PAGE = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
COMMANDS = [line for block in re.findall(r"```sh\n(.*?)```", PAGE, flags=re.S)
            for line in block.splitlines() if line.startswith("corefkit ")]


def test_the_page_has_its_examples():
    assert len(COMMANDS) >= 6


@pytest.mark.parametrize("line", COMMANDS)
def test_each_command_runs_as_the_page_says(line, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    command, _, comment = line.partition("#")
    expected = re.search(r"exit (\d)", comment)
    code = main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    assert code == (int(expected.group(1)) if expected else 0), err
    for check in re.findall(r"[a-z]+\.[a-z-]+", comment):  # the check the comment names
        assert check in out + err, out + err
    if "same check and line" in comment:
        assert "two-documents.conll:54:" in err


def test_the_quoted_error_is_what_score_prints(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    quoted = re.search(r"```text\n(corefkit: error: .*?)\n```", PAGE, flags=re.S).group(1)
    main(["score", "examples/conll2012/key.conll", "examples/checks/changed-word.conll"])
    assert capsys.readouterr().err.strip() == quoted
