"""Byte-level input and atomic output shared by every converter.

Input is read as bytes and decoded line by line so that invalid UTF-8 is reported with its
line and column instead of surfacing as a bare ``UnicodeDecodeError``; a leading BOM is
skipped and CRLF / CR line ends are accepted (formats/README.md, "Text level"). Input paths
are checked and opened by :mod:`corefkit.converters.paths`; output is written atomically by
:mod:`corefkit.converters.atomic` (its two entry points are importable from here too).
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO, TypeVar

# atomic output lives in corefkit.converters.atomic; these names stay importable from here
from corefkit.converters.atomic import (  # noqa: F401
    atomic_directory_output,
    atomic_text_output,
    current_umask,
)
from corefkit.converters.paths import open_input
from corefkit.errors import FormatError

T = TypeVar("T")


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
