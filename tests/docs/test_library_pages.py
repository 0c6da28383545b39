"""Every command and Python example on the pages of the NLP libraries' formats and the
raw-text guide runs, with the exit code it says (``# exit N``, else 0)."""

from __future__ import annotations

import re
import shlex

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT, SHARED

PAGES = ["docs/guides/raw-text-systems.md", "docs/formats/fastcoref.md",
         "docs/formats/maverick.md", "docs/formats/spacy.md", "docs/formats/stanza.md",
         "docs/formats/stanza-json.md", "docs/formats/corenlp.md", "docs/formats/corenlp-json.md"]
LIBRARY_FORMATS = ["fastcoref", "maverick", "spacy", "stanza", "stanza-json", "corenlp",
                   "corenlp-json"]


def blocks(page: str, language: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def _paths(text: str) -> str:
    return text.replace("../shared", str(SHARED)).replace("examples/", str(ROOT / "examples") + "/")


def commands() -> list[tuple[str, str]]:
    return [(page, line) for page in PAGES for block in blocks(page, "sh")
            for line in block.splitlines() if line.strip()]


def test_every_page_has_commands():
    assert {page for page, _ in commands()} == set(PAGES)


@pytest.mark.parametrize("page,line", commands())
def test_command_runs(page, line, tmp_path, monkeypatch, capsys):
    command, _, comment = line.partition("  #")
    expected = int(m.group(1)) if (m := re.search(r"exit (\d+)", comment)) else 0
    monkeypatch.chdir(tmp_path)
    for earlier_page, earlier in commands():   # files an earlier command of the page wrote
        if (earlier_page, earlier) == (page, line):
            break
        if earlier_page == page and " convert " in f" {earlier} " and "# exit" not in earlier:
            assert main(shlex.split(_paths(earlier))[1:]) == 0
    capsys.readouterr()
    words = shlex.split(_paths(command))
    assert words[0] == "corefkit", line
    code = main(words[1:])
    out, err = capsys.readouterr()
    assert code == expected, (line, err[-2000:])
    if expected:
        assert err.count("corefkit: error:") == 1


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p, "python")])
def test_python_examples_run(page, monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    for block in blocks(page, "python"):
        exec(compile(_paths(block), page, "exec"), {})
    capsys.readouterr()


def test_the_guide_shows_what_score_prints(capsys):
    """The alignment lines quoted in the guide are those the first command prints."""
    [block] = [b for b in blocks(PAGES[0], "text") if b.startswith("alignment (")]
    first = next(line for page, line in commands() if page == PAGES[0])
    assert main(shlex.split(_paths(first))[1:]) == 0
    out = capsys.readouterr().out
    assert block.strip() in out


@pytest.mark.parametrize("name", LIBRARY_FORMATS)
def test_each_library_format_has_its_page_with_the_generated_parts(name):
    """The site generates each format's summary, options and losses from its spec into these
    three places of docs/formats/NAME.md."""
    text = (ROOT / "docs" / "formats" / f"{name}.md").read_text(encoding="utf-8")
    for part in ("format-summary", "format-options", "format-losses"):
        assert text.count(f"<!-- corefkit:{part} {name} -->") == 1, (name, part)


def test_the_library_formats_are_all_registered():
    from corefkit.converters.registry import formats

    assert set(LIBRARY_FORMATS) <= {spec.name for spec in formats()}
