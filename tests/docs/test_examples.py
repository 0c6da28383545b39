"""Every example of the documentation runs: the console transcripts and Python blocks of the
README and of every page under docs/ (the convention is in ``docs/contributing.md`` and
``tests/docs/runner.py``)."""

from __future__ import annotations

import doctest

import pytest

from tests.conftest import ROOT
from tests.docs.runner import Block, Sandbox, blocks, check_console

PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md") if "hooks" not in p.parts)
PAGES.append(ROOT / "README.md")
RUN = ("console",)
EXECUTED = ("python", "py")
# blocks that are neither run nor executed: what they show is data or another program
SHOWN = ("text", "sh", "bash", "json", "toml", "csv", "html", "xml", "")
# how many illustrative blocks the whole site may have (each must say why, and is parsed)
MAX_ILLUSTRATIVE = 6


def page_id(path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_page_examples_run(page, tmp_path):
    sandbox = Sandbox.make(tmp_path, page)
    for block in blocks(page):
        if block.language in RUN:
            check_console(block, sandbox)
        elif block.language in EXECUTED and not block.illustrative:
            sandbox.execute(block)
        elif block.language == "pycon":
            run_doctest(block, sandbox)
        else:
            assert block.language in SHOWN, f"{block.where}: unknown block language " \
                                            f"{block.language!r}"
            assert not any(line.startswith(("corefkit ", "$ corefkit"))
                           for line in block.text.splitlines()) or block.illustrative \
                or block.language == "text", \
                f"{block.where}: corefkit commands go in a console block (runnable)"


def run_doctest(block: Block, sandbox: Sandbox) -> None:
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, sandbox.namespace, block.where, str(block.path),
                              block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    from tests.docs.runner import working_in

    with working_in(sandbox.folder):
        runner.run(test)
    assert runner.failures == 0, f"{block.where}: the doctest fails"


def test_few_blocks_are_illustrative():
    found = [b.where for page in PAGES for b in blocks(page) if b.illustrative]
    assert len(found) <= MAX_ILLUSTRATIVE, found


def test_the_pages_run_many_commands():
    commands = sum(b.text.count("\n$ corefkit") + b.text.startswith("$ corefkit")
                   for page in PAGES for b in blocks(page) if b.language == "console")
    assert commands >= 60
