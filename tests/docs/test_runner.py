"""The example runner itself: transcripts, output matching, illustrative blocks."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from tests.docs.runner import Block, Sandbox, blocks, check_console, matches, parse_only, transcript


def block(text: str, language: str = "console") -> Block:
    return Block(Path(__file__), 1, language, text)


def test_a_transcript_has_commands_outputs_and_exit_codes():
    commands = transcript(block("$ corefkit formats gap \\\n    conll2012\ngap ...\n...\n\n"
                                "$ corefkit validate x.conll   # exits 1\n"))
    assert [c.line for c in commands] == ["corefkit formats gap  conll2012",
                                          "corefkit validate x.conll"]
    assert commands[0].expected == ["gap ...", "..."] and commands[0].exit_code == 0
    assert commands[1].expected == [] and commands[1].exit_code == 1


def test_ellipsis_lines_and_ellipsis_in_lines():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "d"], ["a", "d"])
    assert matches(["x ... z"], ["x yyy z  "])
    assert not matches(["a", "d"], ["a", "b", "d"])
    assert not matches(["x ... z"], ["x y"])
    assert not matches(["a"], ["a", "b"])


def test_fences_keep_the_indentation_of_output(tmp_path):
    path = tmp_path / "page.md"
    path.write_text("# t\n\n```console\n$ corefkit x\n  indented\n```\n\n"
                    "```py\nprint(1)\n```\n", encoding="utf-8")
    found = blocks(path)
    assert [b.language for b in found] == ["console", "py"]
    assert found[0].text == "$ corefkit x\n  indented\n" and found[0].line == 3


def test_a_wrong_output_or_exit_code_fails(tmp_path):
    sandbox = Sandbox.make(tmp_path)
    with pytest.raises(AssertionError, match="printed"):
        check_console(block("$ corefkit passes remove-singletons\nno such output\n"), sandbox)
    with pytest.raises(AssertionError, match="exited 2, not 0"):
        check_console(block("$ corefkit formats --no-such-option\n"), sandbox)
    with pytest.raises(AssertionError, match="not a command the examples may run"):
        check_console(block("$ rm -rf somewhere\n"), sandbox)
    assert check_console(block("$ D=examples/conll2012\n$ corefkit stats $D/key.conll > s.txt\n"
                               "$ cat s.txt\ncorpus: examples/conll2012/key.conll\n...\n"),
                         sandbox) == 3


def test_illustrative_blocks_are_parsed_not_run(tmp_path):
    sandbox = Sandbox.make(tmp_path)
    shown = block("# illustrative: your own files\n$ corefkit score mine.conll theirs.conll -m muc\n")
    assert shown.illustrative
    assert check_console(shown, sandbox) == 0          # nothing ran: the files do not exist
    with pytest.raises(click.NoSuchOption):
        parse_only("corefkit score mine.conll theirs.conll --no-such-option")
    with pytest.raises(click.BadParameter):
        parse_only("corefkit score mine.conll theirs.conll --semantics nosuch")
