"""Byte-level input and atomic output shared by every converter.

Input is read as bytes and decoded line by line so that invalid UTF-8 is reported with its
line and column instead of surfacing as a bare ``UnicodeDecodeError``; a leading BOM is
skipped and CRLF / CR line ends are accepted (formats/README.md, "Text level"). Output goes
to a temporary file in the target directory that is renamed into place only when the whole
write succeeded, so a failure never leaves a half-written file behind; formats that write a
directory (MMAX2 projects) get the same guarantee for the whole directory.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import IO, BinaryIO, TypeVar

T = TypeVar("T")

from corefkit.converters.paths import open_input
from corefkit.errors import CorefkitError, FormatError

def display_name(path: str | os.PathLike[str]) -> str:
    """The name used for a path in messages: ``<stdin>`` for ``-``, else the path as given."""
    text = os.fspath(path)
    return "<stdin>" if text == "-" else text


@contextlib.contextmanager
def open_binary(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a path (or ``-`` for standard input) for binary reading, with a clear error
    (:func:`corefkit.converters.paths.open_input`: regular files only)."""
    text = os.fspath(path)
    if text == "-":
        yield sys.stdin.buffer
        return
    with open_input(text) as handle:
        yield handle


def iter_lines(stream: BinaryIO, file: str, *,
               keep_ends: bool = False) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without line end) for every line of a byte stream.

    Lines are decoded as UTF-8 (a leading BOM is skipped; LF, CRLF and CR end lines, and
    ``keep_ends`` keeps the line end, read as ``\\n``, so that a caller can tell a last line
    cut off in its middle); a decoding error becomes a :class:`FormatError` naming the line,
    the column and the byte offset in the file.
    """
    text = io.TextIOWrapper(stream, encoding="utf-8-sig", newline=None)
    number = 0
    try:
        for number, line in enumerate(text, 1):  # noqa: B007 - number is used after the loop
            yield number, line if keep_ends or not line.endswith("\n") else line[:-1]
    except UnicodeDecodeError as exc:
        raise _locate_decode_error(stream, file, number, exc) from None
    finally:
        _detach(text)


def _detach(text: io.TextIOWrapper) -> None:
    """Leave the caller's stream open (it may be closed already when a reader is abandoned)."""
    with contextlib.suppress(ValueError):
        text.detach()


def iter_line_chunks(stream: BinaryIO, file: str, size: int = 1 << 16,
                     seen: dict[str, object] | None = None) -> Iterator[list[str]]:
    """Like :func:`iter_lines`, in lists of the lines of about ``size`` characters.

    Lines come without their line end (LF, CRLF and CR all end lines); the caller counts
    lines itself. Splitting happens in C and the generator steps once per chunk, which
    makes this several times faster than one step per line. A ``seen`` dict, when given,
    receives what the decoding hides at the end: ``newlines`` (the line ends met, as
    ``TextIOWrapper.newlines``) and ``bom`` (True if the file started with a byte-order mark).
    """
    text = io.TextIOWrapper(stream, encoding="utf-8" if seen is not None else "utf-8-sig",
                            newline=None)
    lines_read = 0
    rest = ""
    first = seen is not None
    try:
        while True:
            data = text.read(size)
            if first and seen is not None:
                first = False
                if data.startswith("\ufeff"):  # what utf-8-sig would drop
                    data = data[1:]
                    seen["bom"] = True
            if not data:
                if seen is not None:
                    seen["newlines"] = text.newlines
                if rest:
                    yield [rest]
                return
            lines = (rest + data).split("\n")
            rest = lines.pop()
            lines_read += len(lines)
            if lines:
                yield lines
    except UnicodeDecodeError as exc:
        raise _locate_decode_error(stream, file, lines_read, exc) from None
    finally:
        _detach(text)


def _locate_decode_error(stream: BinaryIO, file: str, lines_read: int,
                         exc: UnicodeDecodeError) -> FormatError:
    """Find the first invalid byte of the file (the slow path, taken only on error)."""
    try:
        stream.seek(0)
        data = stream.read()
    except (OSError, ValueError):  # not seekable (a pipe): say where reading stopped
        return FormatError(f"invalid UTF-8 after line {lines_read}; convert the input to UTF-8",
                           file=file, line=lines_read + 1, check="text.invalid-utf8")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        start = err.start
    else:  # pragma: no cover - the decoder failed before, so the bytes are invalid
        start = exc.start
    line_start = data.rfind(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    return FormatError(
        f"invalid UTF-8 (byte offset {start}); convert the file to UTF-8",
        file=file, line=data.count(b"\n", 0, start) + 1, column=column,
        check="text.invalid-utf8",
    )


def locate_decode_error(stream: BinaryIO, file: str) -> FormatError:
    """The error for the first invalid UTF-8 byte of a seekable stream known to have one."""
    return _locate_decode_error(stream, file, 0, UnicodeDecodeError("utf-8", b"", 0, 1, ""))


def line_at(path: str, offset: int) -> int:
    """The number of the line that starts at byte ``offset``."""
    lines = 1
    with open(path, "rb") as handle:
        while offset > 0:
            block = handle.read(min(offset, 1 << 22))
            if not block:
                break
            lines += block.count(b"\n")
            offset -= len(block)
    return lines


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


@contextlib.contextmanager
def atomic_text_output(path: str | os.PathLike[str]) -> Iterator[IO[str]]:
    """A text stream that becomes ``path`` only if the ``with`` block finishes without error.

    ``-`` writes to standard output directly. Output is UTF-8 with LF line ends.
    """
    text = os.fspath(path)
    if text == "-":
        out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n",
                               write_through=True)
        try:
            yield out
        finally:
            out.flush()
            out.detach()
        return
    directory = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(directory):
        raise CorefkitError(f"{text}: the folder {directory} does not exist")
    if os.path.isdir(text):
        raise CorefkitError(f"{text} is a folder; give a file name to write to")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".corefkit-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise CorefkitError(f"cannot write {text}: {exc.strerror}") from None
    try:
        os.chmod(tmp, 0o666 & ~current_umask())  # mkstemp makes it private; outputs are not
        with open(fd, "w", encoding="utf-8", newline="\n") as out:
            yield out
        os.replace(tmp, text)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


@contextlib.contextmanager
def atomic_directory_output(
    path: str | os.PathLike[str],
    *,
    replaceable: Callable[[str], bool] | None = None,
) -> Iterator[str]:
    """A temporary directory that becomes ``path`` only if the ``with`` block succeeds.

    ``path`` may not exist yet, or be an empty directory, or be a directory that
    ``replaceable(path)`` accepts (an earlier output of the same writer); anything else is
    refused, so that a conversion never deletes files it did not write.
    """
    target = os.path.abspath(os.fspath(path))
    parent = os.path.dirname(target)
    if not os.path.isdir(parent):
        raise CorefkitError(f"{os.fspath(path)}: the directory {parent} does not exist")
    if os.path.lexists(target):
        if not os.path.isdir(target) or os.path.islink(target):
            raise CorefkitError(f"{os.fspath(path)}: exists and is not a directory")
        if os.listdir(target) and not (replaceable is not None and replaceable(target)):
            raise CorefkitError(
                f"{os.fspath(path)}: the directory exists and holds files corefkit did not "
                "write; give a new or empty directory")
    try:
        tmp = tempfile.mkdtemp(prefix=".corefkit-", suffix=".tmp", dir=parent)
    except OSError as exc:
        raise CorefkitError(f"cannot write {os.fspath(path)}: {exc.strerror}") from None
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~current_umask())  # mkdtemp makes it private; outputs are not
        if os.path.lexists(target):
            old = tempfile.mkdtemp(prefix=".corefkit-old-", dir=parent)
            os.rmdir(old)
            os.rename(target, old)
            try:
                os.rename(tmp, target)
            except BaseException:
                os.rename(old, target)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def without_gc_pauses(items: Iterator[T]) -> Iterator[T]:
    """Run a reader with the cyclic garbage collector paused while it builds each item.

    Readers allocate hundreds of thousands of small objects and no reference cycles; the
    collector's repeated scans of them cost a third of the reading time. The collector is
    paused only while the reader runs and is back on while the caller works on each item.
    """
    while True:
        enabled = gc.isenabled()
        gc.disable()
        try:
            item = next(items)
        except StopIteration:
            return
        finally:
            if enabled:
                gc.enable()
        yield item
