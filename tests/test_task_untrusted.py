"""``corefkit task`` with hostile submissions (issue 22, "Data loss and leaks").

Submissions are untrusted input. A symbolic link to the gold was scored 100.00 and ranked
first; a link to a private file put that file's first line into the published leaderboard
(txt, csv, json) through the reader's error message; an MMAX2 submission whose
common_paths.xml named ``../../gold/Markables/`` was scored as the gold. Now an entry that is a
link, or not a regular file or folder, or a folder holding one, is a submission refused
without being read, and no reader opens a file outside the submissions folder or through a
link while it reads a submission.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import FIXTURES, ROOT

GOLD = ROOT / "examples" / "conll2012" / "key.conll"
EXAMPLES = ROOT / "examples" / "task" / "submissions"
SECRET = "SECRET-7f3a private first line: root:x:0:0"


def task_file(folder: Path, gold: Path, layout: str = "file", **more: object) -> Path:
    data = {"name": "hostile", "gold": str(gold), "validation": {"level": 1},
            "ranking": {"primary": "muc"}, "significance": {"test": "none"},
            "submissions": {"layout": layout, **more}}
    path = folder / "task.json"
    path.write_text(json.dumps(data))
    return path


def run_task(capsys: pytest.CaptureFixture[str], task: Path, submissions: Path, out: Path,
             *options: str) -> tuple[int, str, str]:
    code = main(["task", str(task), str(submissions), "-o", str(out), *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def outputs(out: Path) -> str:
    """Everything the leaderboard folder holds, as text."""
    return "\n".join(p.read_text() for p in sorted(out.rglob("*")) if p.is_file())


def board(out: Path) -> dict:
    return json.loads((out / "leaderboard.json").read_text())


@pytest.fixture
def submissions(tmp_path: Path) -> Path:
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copy(EXAMPLES / "team-a.conll", folder / "team-a.conll")
    shutil.copy(EXAMPLES / "team-b.conll", folder / "team-b.conll")
    return folder


@pytest.fixture(params=[[], ["-j", "2"]], ids=["serial", "jobs2"])
def jobs(request: pytest.FixtureRequest) -> list[str]:
    """Scoring in this process, or in worker processes (where no confinement is set: what
    they read must have been checked before)."""
    return list(request.param)


def test_a_link_to_the_gold_is_refused_not_ranked_first(tmp_path, capsys, submissions, jobs):
    os.symlink(GOLD, submissions / "cheat.conll")
    code, out, err = run_task(capsys, task_file(tmp_path, GOLD), submissions, tmp_path / "o",
                              *jobs)
    found = board(tmp_path / "o")
    assert code == 0
    assert [e["name"] for e in found["entries"]] == ["team-b", "team-a"]
    assert [(r["name"], r["stage"]) for r in found["rejected"]] == [("cheat", "refused")]
    assert "is a symbolic link" in found["rejected"][0]["reason"]
    assert "100.00" not in out  # nothing scored the gold against itself
    assert "cheat: refused: is a symbolic link" in out


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_a_link_to_a_private_file_leaks_nothing_of_it(tmp_path, capsys, submissions, fmt):
    private = tmp_path / "private"
    private.mkdir()
    (private / "passwd").write_text(SECRET + "\nsecond line\n")
    os.symlink(private / "passwd", submissions / "leak.conll")
    os.symlink("../private/passwd", submissions / "relative.conll")
    code, out, err = run_task(capsys, task_file(tmp_path, GOLD), submissions, tmp_path / "o",
                              "-f", fmt)
    assert code == 0
    everything = "\n".join([out, err, outputs(tmp_path / "o")])
    assert "SECRET" not in everything and "root:x" not in everything
    assert str(private) not in everything  # not even where the link points
    rejected = {r["name"]: r["stage"] for r in board(tmp_path / "o")["rejected"]}
    assert rejected == {"leak": "refused", "relative": "refused"}


def test_a_dangling_link_and_a_pipe_are_refused_without_waiting(tmp_path, submissions):
    os.symlink(tmp_path / "nowhere.conll", submissions / "dangling.conll")
    os.mkfifo(submissions / "pipe.conll")
    task = task_file(tmp_path, GOLD)
    done = subprocess.run([sys.executable, "-m", "corefkit", "task", str(task), str(submissions),
                           "-f", "json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    rejected = {r["name"]: r["reason"] for r in json.loads(done.stdout)["rejected"]}
    assert rejected["dangling"].startswith("is a symbolic link")
    assert rejected["pipe"].startswith("is not a regular file or folder")


def test_folder_submissions_with_links_are_refused(tmp_path, capsys):
    """Folder layout: a linked folder, and a folder holding a link, are refused unread."""
    gold = tmp_path / "gold"
    gold.mkdir()
    shutil.copy(GOLD, gold / "key.conll")
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "honest").mkdir()
    shutil.copy(EXAMPLES / "team-a.conll", submissions / "honest" / "key.conll")
    os.symlink(gold, submissions / "linked")  # the gold folder itself
    (submissions / "inner").mkdir()
    os.symlink(gold / "key.conll", submissions / "inner" / "key.conll")
    (submissions / "deep" / "sub").mkdir(parents=True)
    shutil.copy(EXAMPLES / "team-a.conll", submissions / "deep" / "key.conll")
    os.symlink(gold, submissions / "deep" / "sub" / "up")
    task = task_file(tmp_path, gold, layout="folder")
    code, out, _ = run_task(capsys, task, submissions, tmp_path / "o")
    found = board(tmp_path / "o")
    assert code == 0 and [e["name"] for e in found["entries"]] == ["honest"]
    reasons = {r["name"]: (r["stage"], r["reason"]) for r in found["rejected"]}
    assert reasons["linked"] == ("refused", "is a symbolic link; a submission must be a file or "
                                 "folder inside the submissions folder, not a link (not read)")
    assert reasons["inner"][0] == "refused" and "key.conll is a symbolic link" in reasons["inner"][1]
    assert reasons["deep"][0] == "refused" and "sub/up is a symbolic link" in reasons["deep"][1]


def test_a_path_leaving_the_submissions_folder_is_never_read(tmp_path, capsys, jobs):
    """An MMAX2 project names its files through common_paths.xml: ``../../gold/Markables/``
    made corefkit score the gold's own markables as the submission (100.00)."""
    gold = tmp_path / "gold"
    shutil.copytree(FIXTURES / "mmax2" / "tiny", gold)
    submissions = tmp_path / "submissions"
    shutil.copytree(gold, submissions / "honest")
    evil = submissions / "evil"
    shutil.copytree(gold, evil)
    shutil.rmtree(evil / "Markables")
    paths = evil / "common_paths.xml"
    paths.write_text(paths.read_text().replace("<markable_path>Markables/</markable_path>",
                                               "<markable_path>../../gold/Markables/"
                                               "</markable_path>"))
    task = task_file(tmp_path, gold, layout="folder")
    code, out, _ = run_task(capsys, task, submissions, tmp_path / "o", *jobs)
    found = board(tmp_path / "o")
    assert code == 0 and [e["name"] for e in found["entries"]] == ["honest"]
    (rejected,) = found["rejected"]
    assert rejected["name"] == "evil" and "lies outside the folder" in rejected["reason"]


def test_every_reader_opens_through_the_one_check(tmp_path):
    """Readers that open files themselves (UIMA CAS through its cassis bridge) go through
    paths.open_input too: inside a submission's confinement a link or a file outside is
    refused, and a named pipe is refused instead of waited for."""
    from corefkit.converters.paths import InputError, confined
    from corefkit.interop import cassis as bridge

    outside = tmp_path / "gold.xmi"
    outside.write_text("<xmi/>")
    folder = tmp_path / "submission"
    folder.mkdir()
    os.symlink(outside, folder / "linked.xmi")
    os.mkfifo(folder / "pipe.xmi")
    (folder / "own.xmi").write_text("<own/>")
    with confined(folder):
        assert bridge.read_bytes(str(folder / "own.xmi")) == b"<own/>"
        with pytest.raises(InputError, match="lies outside the folder"):
            bridge.read_bytes(str(outside))
        with pytest.raises(InputError, match="is or goes through a symbolic link"):
            bridge.read_bytes(str(folder / "linked.xmi"))
    with pytest.raises(InputError, match="is a named pipe"):
        bridge.read_bytes(str(folder / "pipe.xmi"))


def test_option_files_are_read_while_a_submission_is_confined(tmp_path):
    """The shipped dominant ranking (an option's file, read through paths.read_text while the
    scorer runs confined to the submissions folder) was refused as 'outside the folder'."""
    from corefkit.converters.paths import confined, read_text
    from corefkit.passes.dominant import load_ranking

    folder = tmp_path / "submissions"
    folder.mkdir()
    with confined(folder):
        assert load_ranking("ud") is not None
        assert read_text(str(GOLD)).startswith("#begin document")
