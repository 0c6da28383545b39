"""Interrupted runs (issue 22, "Data loss and leaks"): real signals sent to real processes.

SIGKILL left ``.corefkit-*.tmp`` files beside the target; killing a parallel folder convert
left its workers running (and writing); Ctrl-C on ``convert --jobs 2`` kept writing and did
not say which files were finished; Ctrl-C under ``--engine dask`` printed worker tracebacks.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import CORPORA, ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads /proc to find the processes of a run")

SOURCE = CORPORA / "litbank" / "105_persuasion_brat.conll"
DOCUMENTS = 30  # copies of a LitBank document per input file (about 3 MB)


def inputs(folder: Path, files: int, documents: int = DOCUMENTS) -> list[Path]:
    """``files`` CoNLL-2012 files of ``documents`` documents each, big enough to interrupt."""
    folder.mkdir(parents=True, exist_ok=True)
    text = SOURCE.read_text()
    made = []
    for f in range(files):
        path = folder / f"in{f}.conll"
        path.write_text("".join(text.replace("105_persuasion_brat", f"doc{f}_{i}")
                                for i in range(documents)))
        made.append(path)
    return made


class Run(subprocess.Popen):  # type: ignore[type-arg]
    """A corefkit process whose stderr goes to a file (a pipe would wait for every process
    that inherited it, not for this one)."""

    def __init__(self, command: list[str], log: Path) -> None:
        self.log = log
        with open(log, "w") as err:
            super().__init__(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err,
                             start_new_session=True)

    def finish(self, seconds: float) -> str:
        """Wait for this process (not its children) to end; its stderr."""
        try:
            self.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"still running after {seconds} s; processes of the run: "
                                 f"{describe(alive_in_session(self.pid))}") from None
        return self.log.read_text()


def describe(pids: list[int]) -> list[str]:
    found = []
    for pid in pids:
        try:
            found.append(f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_text()
                         .replace("\0", " ")[:120])
        except OSError:
            continue
    return found


LOGS = iter(range(1_000_000))


def start(*args: str, code: str | None = None) -> Run:
    """``corefkit ARGS`` (or the Python ``code``) in a new session of its own."""
    command = [sys.executable, "-c", code, *args] if code else \
        [sys.executable, "-m", "corefkit", *args]
    return Run(command, Path(tempfile.gettempdir()) / f"corefkit-run-{os.getpid()}-{next(LOGS)}")


def alive_in_session(session: int) -> list[int]:
    """The processes of a session that still run (zombies do not)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()
        if int(fields[3]) == session and fields[0] != "Z":
            found.append(int(entry))
    return found


def wait_for(condition, seconds: float = 120, step: float = 0.05) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s in vain")
        time.sleep(step)


@pytest.fixture
def session() -> Iterator[list[Run]]:
    """The runs a test starts; whatever of them survives the test is killed."""
    runs: list[Run] = []
    yield runs
    for run in runs:
        for pid in alive_in_session(run.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        run.wait(timeout=30)
        run.log.unlink(missing_ok=True)


def unnamed_file_open(pid: int, folder: Path) -> bool:
    """The process holds an unnamed temporary file (O_TMPFILE) in ``folder``."""
    pattern = re.compile(rf"{re.escape(str(folder))}/#\d+ \(deleted\)")
    try:
        names = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
    except OSError:
        return False
    return any(pattern.fullmatch(name) for name in names)


def ignores_sigint(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    ignored = int(next(line.split()[1] for line in status.splitlines()
                       if line.startswith("SigIgn:")), 16)
    return bool(ignored & (1 << (signal.SIGINT - 1)))


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".corefkit-"))


def test_sigkill_during_a_write_leaves_no_temporary_file(tmp_path, session):
    (big,) = inputs(tmp_path / "in", 1)
    out = tmp_path / "out"
    out.mkdir()
    run = start("convert", str(big), str(out / "big.conllu"), "-q")
    session.append(run)
    wait_for(lambda: unnamed_file_open(run.pid, out) or run.poll() is not None)
    assert run.poll() is None, "the conversion ended before it could be killed"
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=30)
    assert os.listdir(out) == []  # no half-written file, no temporary file


NAMED = ("import sys; import corefkit.converters.atomic as atomic; atomic.TMPFILE = False; "
         "from corefkit.cli.main import main; sys.exit(main(sys.argv[1:]))")


def test_a_named_temporary_file_left_by_sigkill_is_removed_by_the_next_run(tmp_path, session):
    """Where O_TMPFILE is missing the temporary file has a name; SIGKILL cannot be caught, so
    the next write into the folder removes what a dead run left."""
    (big,) = inputs(tmp_path / "in", 1)
    out = tmp_path / "out"
    out.mkdir()
    run = start("convert", str(big), str(out / "big.conllu"), "-q", code=NAMED)
    session.append(run)
    wait_for(lambda: bool(temporaries(out)) or run.poll() is not None)
    assert run.poll() is None, "the conversion ended before it could be killed"
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=30)
    left = temporaries(out)
    assert len(left) == 1 and f"-{run.pid}-" in left[0]
    done = subprocess.run([sys.executable, "-m", "corefkit", "convert", str(SOURCE),
                           str(out / "small.conll"), "-q"], cwd=ROOT, timeout=120)
    assert done.returncode == 0
    assert sorted(os.listdir(out)) == ["small.conll"]


def complete(path: Path) -> bool:
    return path.read_text().count("# newdoc id") == DOCUMENTS


def test_killing_a_parallel_convert_kills_its_workers(tmp_path, session):
    inputs(tmp_path / "in", 6)
    out = tmp_path / "out"
    run = start("convert", f"{tmp_path / 'in'}/", f"{out}/", "--to", "corefud", "-j", "2", "-q")
    session.append(run)
    # the parent, the forkserver and two busy workers
    wait_for(lambda: len(alive_in_session(run.pid)) >= 4 or run.poll() is not None)
    time.sleep(0.5)
    assert run.poll() is None
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=30)
    wait_for(lambda: not alive_in_session(run.pid), seconds=15)
    written = sorted(os.listdir(out)) if out.exists() else []
    time.sleep(1)
    assert (sorted(os.listdir(out)) if out.exists() else []) == written  # nothing more
    assert len(written) < 6 and all(complete(out / name) for name in written)


@pytest.mark.parametrize("whom", ["parent", "group"])
def test_ctrl_c_on_a_parallel_convert_stops_and_lists_what_is_finished(tmp_path, session, whom):
    """SIGINT to the parent (kill) or to the whole group (Ctrl-C in a terminal)."""
    inputs(tmp_path / "in", 6)
    out = tmp_path / "out"
    run = start("convert", f"{tmp_path / 'in'}/", f"{out}/", "--to", "corefud", "-j", "2", "-q")
    session.append(run)
    wait_for(lambda: (out.exists() and any(out.iterdir())) or run.poll() is not None)
    assert run.poll() is None, "the conversion ended before it could be interrupted"
    sent = time.monotonic()
    if whom == "parent":
        run.send_signal(signal.SIGINT)
    else:
        os.killpg(run.pid, signal.SIGINT)
    err = run.finish(120)
    assert time.monotonic() - sent < 30  # at once, not after the remaining files
    assert run.returncode == 130
    written = sorted(os.listdir(out))
    assert 1 <= len(written) < 6 and all(complete(out / name) for name in written)
    listed = ", ".join(str(out / name) for name in written)
    assert err == (f"corefkit: interrupted: {len(written)} of 6 files were written completely: "
                   f"{listed}; the other {6 - len(written)} were not written\n")
    wait_for(lambda: not alive_in_session(run.pid), seconds=15)
    time.sleep(1)
    assert sorted(os.listdir(out)) == written  # nothing written after the message


def test_ctrl_c_on_a_single_conversion_writes_nothing(tmp_path, session):
    (big,) = inputs(tmp_path / "in", 1, documents=3 * DOCUMENTS)  # long enough to interrupt
    out = tmp_path / "out"
    out.mkdir()
    run = start("convert", str(big), str(out / "big.conllu"), "-q")
    session.append(run)
    wait_for(lambda: unnamed_file_open(run.pid, out) or run.poll() is not None)
    run.send_signal(signal.SIGINT)
    err = run.finish(120)
    assert run.returncode == 130 and err == "corefkit: interrupted: nothing was written\n"
    assert os.listdir(out) == []


def test_ctrl_c_under_dask_prints_one_line(tmp_path, session):
    pytest.importorskip("distributed")
    inputs(tmp_path / "key", 4)
    run = start("score", f"{tmp_path / 'key'}/", f"{tmp_path / 'key'}/", "--engine", "dask",
                "-j", "2")
    session.append(run)
    # the cluster is up (its two workers run) when corefkit handles Ctrl-C again: while it
    # starts, SIGINT is ignored so that the workers inherit that
    wait_for(lambda: run.poll() is not None or (len(alive_in_session(run.pid)) >= 4
                                                and not ignores_sigint(run.pid)))
    time.sleep(1)
    assert run.poll() is None, "scoring ended before it could be interrupted"
    os.killpg(run.pid, signal.SIGINT)  # Ctrl-C in a terminal: the whole group
    err = run.finish(120)
    assert run.returncode == 130
    assert err == "corefkit: interrupted\n", err
    wait_for(lambda: not alive_in_session(run.pid), seconds=30)


def forkserver_started(session: int) -> bool:
    return any("forkserver" in name for name in describe(alive_in_session(session)))


@pytest.mark.parametrize("whom", ["parent", "group"])
def test_ctrl_c_while_the_workers_start_prints_no_traceback(tmp_path, session, whom):
    """SIGINT while the pool was starting its workers (the forkserver loading corefkit) left a
    worker the pool did not know yet: it was not stopped, and printed a FileNotFoundError
    traceback when it found the queues of the ended run gone."""
    inputs(tmp_path / "in", 4, documents=2)
    out = tmp_path / "out"
    run = start("convert", f"{tmp_path / 'in'}/", f"{out}/", "--to", "corefud", "-j", "2", "-q")
    session.append(run)
    wait_for(lambda: forkserver_started(run.pid) or run.poll() is not None, step=0.01)
    assert run.poll() is None, "the conversion ended before it could be interrupted"
    if whom == "parent":
        run.send_signal(signal.SIGINT)
    else:
        os.killpg(run.pid, signal.SIGINT)
    run.finish(120)
    wait_for(lambda: not alive_in_session(run.pid), seconds=30)
    err = run.log.read_text()  # with what every process of the run wrote
    assert run.returncode == 130 and "Traceback" not in err, err
    assert re.fullmatch(r"corefkit: interrupted: (no file was written \(of 4\)|"
                        r"\d of 4 files were written completely: .*)\n", err), err
    assert not (out.exists() and temporaries(out))
