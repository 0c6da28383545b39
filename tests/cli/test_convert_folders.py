"""Folder and glob conversions, file rights, unwritable targets and interrupted folder runs
(issue 13 bug 7), from the CLI and from corefkit.convert."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.errors import CorefkitError, UsageError

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
LITBANK = CORPORA / "litbank"
NAMES = sorted(p.name for p in LITBANK.glob("*.conll"))


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


@pytest.mark.parametrize("slash", ["", "/"])
def test_a_folder_goes_into_a_new_folder(tmp_path, capsys, slash):
    """Without the slash a new OUT became one concatenated file; with it, exit 3."""
    out = f"{tmp_path / 'out'}{slash}"
    code, err = run(capsys, "convert", f"{LITBANK}/", out, "--to", "conll2012")
    assert code == 0 and "internal error" not in err
    assert sorted(os.listdir(tmp_path / "out")) == NAMES
    assert f"to {len(NAMES)} files" in err


def test_the_readme_example_works_as_written(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.symlink(LITBANK, tmp_path / "litbank")
    code, _ = run(capsys, "convert", "litbank/", "out/", "--layout", "source", "-q")
    assert code == 0 and sorted(os.listdir(tmp_path / "out")) == NAMES


def test_a_glob_goes_into_a_folder(tmp_path, capsys):
    code, _ = run(capsys, "convert", f"{LITBANK}/1*.conll", tmp_path / "g", "-q")
    assert code == 0
    assert sorted(os.listdir(tmp_path / "g")) == [n for n in NAMES if n.startswith("1")]


def test_a_folder_never_overwrites_a_file(tmp_path, capsys):
    single = tmp_path / "single.conll"
    single.write_text("precious\n")
    code, err = run(capsys, "convert", LITBANK, single)
    assert code == 2 and "is a file" in err and err.count("\n") == 1
    assert single.read_text() == "precious\n"
    code, err = run(capsys, "convert", LITBANK, tmp_path / "new.conll")  # a file name: refused
    assert code == 2 and "give a folder, or '-'" in err
    assert not (tmp_path / "new.conll").exists()


def test_unwritable_targets_are_errors_not_crashes(tmp_path, capsys):
    code, err = run(capsys, "convert", LITBANK / NAMES[0], tmp_path / "missing" / "x.conll")
    assert code == 1 and "does not exist" in err and "internal error" not in err
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, err = run(capsys, "convert", LITBANK, blocker / "sub")
    assert code == 1 and "cannot create the folder" in err and "internal error" not in err


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_written_files_follow_the_umask(tmp_path, umask):
    """Every file was 0600 (mkstemp's mode), whatever the umask."""
    old = os.umask(umask)
    try:
        corefkit.convert(LITBANK / NAMES[0], tmp_path / "one.conll")
        corefkit.convert(LITBANK / NAMES[0], tmp_path / "one.conllu")
        corefkit.convert(LITBANK / NAMES[0], tmp_path / "project", output_format="mmax2")
    finally:
        os.umask(old)
    for path in (tmp_path / "one.conll", tmp_path / "one.conllu", tmp_path / "project"):
        expected = (0o777 if path.is_dir() else 0o666) & ~umask
        assert stat.S_IMODE(path.stat().st_mode) == expected, path
    inner = next((tmp_path / "project").glob("*.mmax"))
    assert stat.S_IMODE(inner.stat().st_mode) == 0o666 & ~umask


def test_a_stopped_folder_run_says_which_files_are_complete(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for name in NAMES[:2]:
        (source / name).write_bytes((LITBANK / name).read_bytes())
    (source / "zz_broken.conll").write_text("#begin document (x); part 0\nx 0 0 a (1\n"
                                           "#end document\n")
    with pytest.raises(CorefkitError) as info:
        corefkit.convert(source, tmp_path / "out")
    message = str(info.value)
    assert "2 of 3 files were written completely" in message and "zz_broken.conll" in message
    written = sorted(os.listdir(tmp_path / "out"))
    assert written == NAMES[:2]  # each complete: written to a temporary file and renamed
    for name in written:
        assert (tmp_path / "out" / name).read_text().endswith("#end document\n")


def test_the_api_does_what_the_cli_does(tmp_path, capsys):
    result = corefkit.convert(LITBANK, tmp_path / "api", output_format="corefud")
    code, _ = run(capsys, "convert", LITBANK, tmp_path / "cli", "--to", "corefud", "-q")
    assert code == 0 and result.report.documents == len(NAMES)
    assert sorted(os.listdir(tmp_path / "api")) == sorted(os.listdir(tmp_path / "cli"))
    for name in os.listdir(tmp_path / "api"):
        assert (tmp_path / "api" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()
    with pytest.raises(UsageError):
        corefkit.convert(LITBANK, tmp_path / "x.conll")
