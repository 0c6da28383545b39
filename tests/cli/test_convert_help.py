"""What ``convert --help`` and ``normalize --help`` say ``--to`` defaults to is what they do.

Before: convert's help promised "else the input format", but a file target whose name says no
format (``out.txt``) or ``-`` is a usage error that asks for ``--to``.
"""

from __future__ import annotations

import os
import shutil

import pytest
from click.testing import CliRunner

from corefkit.cli.convert import convert, normalize
from corefkit.cli.main import main
from tests.conftest import SHARED

SOURCE = SHARED / "corpora" / "litbank" / "105_persuasion_brat.conll"


def _help(command) -> str:
    text = CliRunner().invoke(command, ["--help"], terminal_width=200).output
    return " ".join(text.split())


def test_convert_help_says_when_to_is_required():
    text = _help(convert)
    assert "the format the target's name says" in text
    assert "for a folder target, the input format when every input file has the same one" in text
    assert "otherwise --to is required, also for '-'" in text
    assert "else the input format" not in text


def test_normalize_help_says_the_input_format_is_the_default():
    assert "the format the target's name says, else the input format" in _help(normalize)


def _run(capsys, *args) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("target", ["out.txt", "-"])
def test_convert_asks_for_to_when_the_target_names_no_format(tmp_path, capsys, target):
    shown = target if target == "-" else tmp_path / target
    code, err = _run(capsys, "convert", SOURCE, shown)
    assert code == 2 and "pass --to" in err
    assert not (tmp_path / "out.txt").exists()


def test_convert_takes_the_name_or_the_folder_target_format(tmp_path, capsys):
    assert _run(capsys, "convert", SOURCE, tmp_path / "a.conllu")[0] == 0
    assert (tmp_path / "a.conllu").read_text().startswith("# newdoc")
    folder = tmp_path / "folder"
    assert _run(capsys, "convert", SOURCE, f"{folder}{os.sep}")[0] == 0
    assert os.listdir(folder) == [SOURCE.name]  # written as CoNLL-2012, the input's format
    shutil.rmtree(folder)


def test_normalize_writes_the_input_format_to_any_name(tmp_path, capsys):
    code, _ = _run(capsys, "normalize", SOURCE, tmp_path / "out.txt", "--pass",
                   "remove-singletons")
    assert code == 0 and (tmp_path / "out.txt").read_text().startswith("#begin document")


def test_a_name_several_formats_use_keeps_the_input_format(tmp_path):
    # found by the mutation sweep: .tsv named GAP first, so normalizing a WebAnno TSV file
    # into x.tsv asked for the GAP file it answers (exit 2)
    source = SHARED / "corpora" / "webanno-tsv" / "gum" / "GENTLE_poetry_death.tsv"
    target = tmp_path / "norm.tsv"
    assert main(["normalize", str(source), str(target), "--pass", "merge-same-span",
                 "-q"]) == 0
    assert target.read_text(encoding="utf-8").startswith("#FORMAT=WebAnno TSV 3.")
    converted = tmp_path / "copy.tsv"
    assert main(["convert", str(source), str(converted), "-q"]) == 0
    assert converted.read_text(encoding="utf-8").startswith("#FORMAT=WebAnno TSV 3.")
