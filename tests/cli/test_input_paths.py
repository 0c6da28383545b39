"""Input paths that cannot be read, in every command that takes paths (issue 22, "Folders":
exit codes about files).

A missing file was exit 2 in ``validate`` and 1 elsewhere; a symbolic-link loop said "no such
file"; a named pipe without a writer hung every command; ``/dev/zero`` was read until the
memory ran out; an unreadable folder was an internal error (exit 3). Each is now one line
naming the path and what it is, exit 1, from every command (docs/reference/files-and-exit-codes.md).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT

KEY = ROOT / "examples" / "conll2012" / "key.conll"
RESPONSE = ROOT / "examples" / "conll2012" / "response.conll"
TASK = ROOT / "examples" / "task" / "task.toml"
SUBMISSIONS = ROOT / "examples" / "task" / "submissions"


def commands(bad: str, out: Path) -> dict[str, list[str]]:
    """Every command that reads input paths, with ``bad`` in an input position."""
    return {
        "score-key": ["score", bad, str(RESPONSE)],
        "score-response": ["score", str(KEY), bad],
        "compare": ["compare", "--key", bad, "--response", str(RESPONSE), "--label", "s@d"],
        "convert": ["convert", bad, str(out / "x.conllu")],
        "normalize": ["normalize", bad, str(out / "y.conll"), "--pass", "remove-singletons"],
        "validate": ["validate", bad],
        "stats": ["stats", bad],
        "analyze": ["analyze", str(KEY), bad],
        "report": ["report", str(KEY), bad, "-o", str(out / "r.html")],
        "task-file": ["task", bad, str(SUBMISSIONS)],
        "task-submissions": ["task", str(TASK), bad],
        "gap-score": ["gap-score", bad, str(KEY)],
    }


NAMES = list(commands("-", Path("/")))


def check(code: int, err: str, bad: str, what: str) -> None:
    assert code == 1, err
    assert err.count("\n") == 1 and err.startswith("corefkit: error: "), err
    assert f"{bad}: {what}" in err, err
    assert "internal error" not in err and "Traceback" not in err


def made(kind: str, folder: Path) -> str:
    """A path of ``kind`` in ``folder``."""
    if kind == "missing":
        return str(folder / "missing.conll")
    if kind == "dangling":
        os.symlink(folder / "nowhere.conll", folder / "dangling.conll")
        return str(folder / "dangling.conll")
    if kind == "loop":
        os.symlink(folder / "loop-b", folder / "loop-a")
        os.symlink(folder / "loop-a", folder / "loop-b")
        return str(folder / "loop-a")
    assert kind == "device"
    return "/dev/zero"


WHAT = {
    "missing": "no such file or directory",
    "dangling": "is a symbolic link to a file that does not exist",
    "loop": "is a symbolic link loop (too many levels of symbolic links)",
    "device": "is a character device, not a regular file",
}


@pytest.mark.parametrize("kind", list(WHAT))
@pytest.mark.parametrize("name", NAMES)
def test_a_path_that_cannot_be_read_is_one_line_and_exit_1(tmp_path, capsys, name, kind):
    bad = made(kind, tmp_path)
    code = main(commands(bad, tmp_path)[name])
    check(code, capsys.readouterr().err, bad, WHAT[kind])


def run_cli(args: list[str], *, timeout: float, user: bool = False) -> subprocess.CompletedProcess[str]:
    """``corefkit ARGS`` in a new process (as the unprivileged user ``nobody`` with ``user``)."""
    command = [sys.executable, "-m", "corefkit", *args]
    if user:
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("name", NAMES)
def test_a_named_pipe_without_a_writer_is_refused_not_waited_for(tmp_path, name):
    """Every command waited forever on a pipe nobody writes to."""
    pipe = tmp_path / "pipe.conll"
    os.mkfifo(pipe)
    done = run_cli(commands(str(pipe), tmp_path)[name], timeout=60)
    check(done.returncode, done.stderr, str(pipe), "is a named pipe (FIFO), not a regular file")


def unprivileged() -> Callable[[list[str]], subprocess.CompletedProcess[str]] | None:
    """A way to run corefkit where the rights of files count: this user when it is not root,
    else ``nobody`` through setpriv; None when neither is possible."""
    if os.geteuid() != 0:
        return lambda args: run_cli(args, timeout=120)
    if shutil.which("setpriv") is None:
        return None
    return lambda args: run_cli(args, timeout=120, user=True)


@pytest.fixture
def open_folder():
    """A folder every user can enter and write (pytest's own folders are private)."""
    folder = Path(tempfile.mkdtemp(prefix="corefkit-test-"))
    folder.chmod(0o777)
    yield folder
    for inside in folder.rglob("*"):
        if inside.is_dir():
            inside.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.parametrize("name", NAMES)
def test_an_unreadable_folder_is_exit_1_not_an_internal_error(open_folder, name):
    """PermissionError on a folder was exit 3 ("internal error") in every command."""
    runner = unprivileged()
    if runner is None:
        pytest.skip("running as root without setpriv: no way to meet a permission error")
    locked = open_folder / "locked"
    locked.mkdir()
    shutil.copy(KEY, locked / "key.conll")
    locked.chmod(0)
    done = runner(commands(str(locked), open_folder)[name])
    if name in ("task-file", "gap-score"):  # commands that read one file, never a folder
        check(done.returncode, done.stderr, str(locked), "is a folder, expected a file")
    else:
        check(done.returncode, done.stderr, str(locked),
              "permission denied (the folder cannot be listed)")
    inside = str(locked / "key.conll")  # a file in a folder that cannot be entered
    done = runner(commands(inside, open_folder)[name])
    check(done.returncode, done.stderr, inside,
          "permission denied (a folder on the way cannot be entered)")


def test_an_unreadable_file_is_exit_1(open_folder):
    runner = unprivileged()
    if runner is None:
        pytest.skip("running as root without setpriv: no way to meet a permission error")
    private = open_folder / "private.conll"
    shutil.copy(KEY, private)
    private.chmod(0o600)
    for name, args in commands(str(private), open_folder).items():
        done = runner(args)
        if name == "validate":  # a finding of the file, with the summary
            assert done.returncode == 1 and "file.unreadable" in done.stdout, done.stderr
        elif name == "task-submissions":  # a file is not a folder of submissions: usage
            assert done.returncode == 2 and "not a folder of submissions" in done.stderr
        else:
            check(done.returncode, done.stderr, str(private), "cannot read (permission denied)")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("option", [["stats", str(KEY), "--type-table"],
                                    ["score", str(KEY), str(RESPONSE), "--by-type", "all",
                                     "--type-rules"]])
def test_a_named_pipe_given_for_a_rules_file_is_refused(tmp_path, option):
    pipe = tmp_path / "rules.json"
    os.mkfifo(pipe)
    done = run_cli([*option, str(pipe)], timeout=60)
    # an option's file that cannot be read stays a usage error (exit 2), as before
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert f"{pipe}: is a named pipe (FIFO), not a regular file" in done.stderr
