"""docs/checks.md: every command on the page runs, with the exit code its comment gives, and
the error line it quotes is the one corefkit prints."""

from __future__ import annotations

import re
import shlex

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT

PAGE = (ROOT / "docs" / "checks.md").read_text(encoding="utf-8")
COMMANDS = [line[2:] for block in re.findall(r"```console\n(.*?)```", PAGE, flags=re.S)
            for line in block.splitlines() if line.startswith("$ corefkit ")]
# the check a refused command names (the page says it in its prose)
NAMED = {"validate examples/checks/two-documents.conll": "conll.duplicate-document",
         "stats examples/checks/two-documents.conll": "conll.duplicate-document",
         "examples/checks/changed-word.conll": "pair.tokens"}


def test_the_page_has_its_examples():
    assert len(COMMANDS) >= 6
    for named, check in NAMED.items():
        assert any(named in c for c in COMMANDS) and f"`{check}`" in PAGE


@pytest.mark.parametrize("line", COMMANDS)
def test_each_command_runs_as_the_page_says(line, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    command, _, comment = line.partition("#")
    expected = re.search(r"exits (\d)", comment)
    code = main(shlex.split(command)[1:])
    out, err = capsys.readouterr()
    assert code == (int(expected.group(1)) if expected else 0), err
    for named, check in NAMED.items():  # a refused command names its check
        if named in command and ("--lenient" in command or expected):
            assert check in out + err, out + err
    if expected and command.startswith("corefkit stats"):  # the same check and line
        assert "two-documents.conll:54:" in err


def test_the_quoted_error_is_what_score_prints(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    quoted = re.search(r"```text\n(corefkit: error: .*?)\n```", PAGE, flags=re.S).group(1)
    main(["score", "examples/conll2012/key.conll", "examples/checks/changed-word.conll"])
    assert capsys.readouterr().err.strip() == quoted
