"""Run the examples of the documentation: console transcripts and Python blocks.

The convention (``docs/contributing.md``, "Examples that run"):

* A fenced ``console`` block is a transcript. Each ``$ `` line is a command; the lines after
  it, up to the next ``$ `` line, are its expected output (standard output, then standard
  error), compared line by line with trailing spaces ignored: a line ``...`` stands for any
  number of lines, and ``...`` inside a line for any text. A command without output lines is
  run and must succeed, its output unchecked. A command that must fail ends with the comment
  ``# exits N``. A long command continues on the next line after a ``\\``.
* Commands are ``corefkit ...`` (run in this process, as the console script runs it),
  ``NAME=value`` (a variable for ``$NAME`` in later lines of the page), ``cat FILE`` and
  ``python FILE ARGS`` (run with this interpreter).
* A fenced ``python`` (or ``py``) block is executed; the blocks of one page share their names,
  in page order. A ``pycon`` block is a doctest.
* A block whose first line is ``# illustrative`` (a visible comment, for files the reader
  has and the repository has not) is not run; its ``corefkit`` lines are still parsed by the
  command line, so that no option in them can go stale.

Everything runs in a sandbox folder: ``examples/`` and ``corefkit/`` (its schemas) are the
repository's, ``../shared`` the shared data, and whatever a command writes stays in the
sandbox.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.conftest import ROOT, SHARED

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)(?P<info>[^\n`]*)$")
ILLUSTRATIVE = "# illustrative"
EXITS = re.compile(r"\s+#\s*exits\s+(\d+)\s*$")
ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$")


@dataclass
class Block:
    """A fenced code block of a Markdown file."""

    path: Path
    line: int           # of the opening fence, 1-based
    language: str
    text: str

    @property
    def illustrative(self) -> bool:
        first = self.text.lstrip().splitlines()[:1]
        return bool(first) and first[0].strip().lower().startswith(ILLUSTRATIVE)

    @property
    def where(self) -> str:
        shown = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{shown}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown file, with their language (first word of the info
    string) and text (dedented by the fence's indentation)."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opened = FENCE.match(lines[index])
        if not opened:
            index += 1
            continue
        indent, fence = len(opened["indent"]), opened["fence"]
        language = (opened["info"].split() or [""])[0].strip("{}.")
        body: list[str] = []
        start = index
        index += 1
        while index < len(lines) and lines[index].strip() != fence:
            text = lines[index]
            body.append(text[indent:] if text[:indent].strip() == "" else text.lstrip())
            index += 1
        found.append(Block(path, start + 1, language, "\n".join(body) + "\n"))
        index += 1
    return found


@dataclass
class Command:
    """One ``$`` command of a console block and the output shown after it."""

    line: str
    expected: list[str]
    exit_code: int = 0


def transcript(block: Block) -> list[Command]:
    """The commands of a console block."""
    commands: list[Command] = []
    lines = block.text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not line.startswith("$ "):
            if commands:
                commands[-1].expected.append(line)
            elif line.strip() and not line.lstrip().startswith("#"):
                raise AssertionError(f"{block.where}: output before the first '$ ' command")
            continue
        command = line[2:]
        while command.endswith("\\") and index < len(lines):
            command = command[:-1] + " " + lines[index].strip()
            index += 1
        exits = EXITS.search(command)
        code = int(exits.group(1)) if exits else 0
        commands.append(Command(command[:exits.start()] if exits else command, [], code))
    for command in commands:
        while command.expected and not command.expected[-1].strip():
            command.expected.pop()
    return commands


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines match ``expected``, with ``...`` lines and ``...`` in lines."""
    expected = [line.rstrip() for line in expected]
    actual = [line.rstrip() for line in actual]

    def line_matches(pattern: str, text: str) -> bool:
        parts = [re.escape(part) for part in pattern.split("...")]
        return re.fullmatch(".*".join(parts), text) is not None

    def walk(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(actual)
        if expected[i] == "...":
            return any(walk(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and line_matches(expected[i], actual[j]) and walk(i + 1, j + 1)

    return walk(0, 0)


@dataclass
class Sandbox:
    """A folder to run a page's examples in, and the variables its commands set."""

    folder: Path
    variables: dict[str, str] = field(default_factory=dict)
    namespace: dict[str, object] = field(default_factory=dict)

    @classmethod
    def make(cls, base: Path, page: Path | None = None) -> Sandbox:
        """The sandbox of a page: the repository's examples and schemas, ``../shared``, and
        the copies of real files the page names by their bare names (``PAGE_FILES``)."""
        from tests.docs.page_files import PAGE_FILES

        folder = base / "work"
        folder.mkdir(parents=True)
        (folder / "examples").symlink_to(ROOT / "examples")
        (folder / "corefkit").symlink_to(ROOT / "corefkit")   # its schemas and data tables
        (base / "shared").symlink_to(SHARED)
        named = PAGE_FILES.get(page.relative_to(ROOT).as_posix(), {}) if page else {}
        for name, source in named.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, folder / name)
        return cls(folder)

    def words(self, line: str) -> list[str]:
        expanded = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?",
                          lambda m: self.variables.get(m.group(1), m.group(0)), line)
        return shlex.split(expanded, comments=True)

    def run(self, line: str) -> tuple[int, str, str]:
        """Run one command line; returns exit code, standard output and standard error."""
        words = self.words(line)
        if len(words) == 1 and (assigned := ASSIGNMENT.match(words[0])):
            self.variables[assigned.group(1)] = assigned.group(2)
            return 0, "", ""
        redirect = None
        if ">" in words:
            at = words.index(">")
            redirect, words = words[at + 1], words[:at]
        with working_in(self.folder):
            code, out, err = self._run_words(words)
            if redirect is not None:
                Path(redirect).write_text(out, encoding="utf-8")
                out = ""
        return code, out, err

    def _run_words(self, words: list[str]) -> tuple[int, str, str]:
        if words[0] == "corefkit":
            return corefkit(words[1:])
        if words[0] == "cat":
            return 0, "".join(Path(w).read_text(encoding="utf-8") for w in words[1:]), ""
        if words[0] in ("python", "python3"):
            done = subprocess.run([sys.executable, *words[1:]], capture_output=True, text=True,
                                  env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
            return done.returncode, done.stdout, done.stderr
        raise AssertionError(f"not a command the examples may run: {' '.join(words)!r} "
                             f"(corefkit, NAME=value, cat, python; or mark the block "
                             f"'{ILLUSTRATIVE}')")

    def execute(self, block: Block) -> None:
        """Run a Python block in the page's namespace, in the sandbox."""
        with working_in(self.folder):
            code = compile(block.text, block.where, "exec")
            exec(code, self.namespace)  # noqa: S102 - the documentation's own example


@contextlib.contextmanager
def working_in(folder: Path) -> Iterator[None]:
    """``contextlib.chdir`` (Python 3.11) for Python 3.10."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def corefkit(args: list[str]) -> tuple[int, str, str]:
    """``corefkit ARGS`` in this process: exit code, standard output, standard error."""
    from corefkit.cli.main import main

    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", write_through=True)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
        out.flush()
        err.flush()
    return code, out_bytes.getvalue().decode("utf-8"), err_bytes.getvalue().decode("utf-8")


def parse_only(line: str) -> None:
    """Parse an illustrative ``corefkit`` line with the command line, without running it:
    an unknown command or option, or a bad value of a choice, fails."""
    import click

    from corefkit.cli.main import cli

    words = shlex.split(line, comments=True)
    words = words[:words.index(">")] if ">" in words else words
    assert words[0] == "corefkit", line
    root = click.Context(cli, info_name="corefkit")
    command = cli.get_command(root, words[1]) if len(words) > 1 else None
    assert command is not None, f"no such command: {line}"
    with command.make_context(words[1], list(words[2:]), parent=root) as sub:
        assert isinstance(sub, click.Context)


def check_console(block: Block, sandbox: Sandbox) -> int:
    """Run (or, for an illustrative block, parse) every command of a console block; returns
    how many commands ran."""
    ran = 0
    for command in transcript(block):
        if block.illustrative:
            if command.line.strip().startswith("corefkit"):
                parse_only(command.line)
            continue
        code, out, err = sandbox.run(command.line)
        shown = (out + err).splitlines()
        assert code == command.exit_code, (
            f"{block.where}: {command.line!r} exited {code}, not {command.exit_code}:\n{err}")
        if command.expected:
            assert matches(command.expected, shown), (
                f"{block.where}: {command.line!r} printed\n" + "\n".join(shown)
                + "\n\ninstead of\n" + "\n".join(command.expected))
        ran += 1
    return ran
