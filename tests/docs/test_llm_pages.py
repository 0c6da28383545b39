"""Every command and Python example on the LLM-track, text2text and alignment pages runs.

Commands are the lines of ```sh blocks (``# exit N`` at the end says the exit code expected,
else 0); they run in a scratch folder, with ``../shared`` standing for the shared data as it
does from the project root. Python blocks run the same way.
"""

from __future__ import annotations

import re
import shlex

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT, SHARED

PAGES = ["docs/guides/llm-track.md", "docs/formats/text2text.md", "docs/reference/alignment.md"]


def blocks(page: str, language: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def commands() -> list[tuple[str, str]]:
    found = []
    for page in PAGES:
        for block in blocks(page, "sh"):
            found += [(page, line) for line in block.splitlines() if line.strip()]
    return found


def test_every_page_has_commands():
    assert {page for page, _ in commands()} == set(PAGES)


@pytest.mark.parametrize("page,line", commands())
def test_command_runs(page, line, tmp_path, monkeypatch, capsys):
    command, _, comment = line.partition("  #")
    expected = int(m.group(1)) if (m := re.search(r"exit (\d+)", comment)) else 0
    words = shlex.split(command.replace("../shared", str(SHARED)))
    assert words[0] == "corefkit", line
    monkeypatch.chdir(tmp_path)
    for earlier_page, earlier in commands():   # files an earlier command of the page wrote
        if earlier_page == page and earlier == line:
            break
        if earlier_page == page and " convert " in f" {earlier} ":
            main(shlex.split(earlier.replace("../shared", str(SHARED)))[1:])
    capsys.readouterr()
    code = main(words[1:])
    out, err = capsys.readouterr()
    assert code == expected, (line, err[-2000:])
    if expected:
        assert err.count("corefkit: error:") == 1


@pytest.mark.parametrize("page", PAGES)
def test_python_examples_run(page, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    for block in blocks(page, "python"):
        exec(compile(block.replace("../shared", str(SHARED)), page, "exec"), {})
    capsys.readouterr()
