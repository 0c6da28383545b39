"""Byte-level input and atomic output shared by every converter.

Input is read as bytes and decoded line by line so that invalid UTF-8 is reported with its
line and column instead of surfacing as a bare ``UnicodeDecodeError``; a leading BOM is
skipped and CRLF / CR line ends are accepted (formats/README.md, "Text level"). Output goes
to a temporary file in the target directory that is renamed into place only when the whole
write succeeded, so a failure never leaves a half-written file behind.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, BinaryIO, TypeVar

T = TypeVar("T")

from corefkit.errors import CorefkitError, FormatError

BOM = "\ufeff"


def display_name(path: str | os.PathLike[str]) -> str:
    """The name used for a path in messages: ``<stdin>`` for ``-``, else the path as given."""
    text = os.fspath(path)
    return "<stdin>" if text == "-" else text


@contextlib.contextmanager
def open_binary(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """Open a path (or ``-`` for standard input) for binary reading, with a clear error."""
    text = os.fspath(path)
    if text == "-":
        yield sys.stdin.buffer
        return
    try:
        handle = open(text, "rb")
    except FileNotFoundError:
        raise CorefkitError(f"{text}: no such file") from None
    except IsADirectoryError:
        raise CorefkitError(f"{text}: is a directory, expected a file") from None
    except OSError as exc:
        raise CorefkitError(f"{text}: cannot read ({exc.strerror})") from None
    with handle:
        yield handle


def iter_lines(stream: BinaryIO, file: str) -> Iterator[tuple[int, str]]:
    """Yield (line number, text without line end) for every line of a byte stream.

    Lines are decoded as UTF-8; a decoding error becomes a :class:`FormatError` naming the
    line, the column and the byte offset in the file.
    """
    offset = 0
    number = 0
    for raw in stream:
        number += 1
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            column = len(raw[: exc.start].decode("utf-8", errors="replace")) + 1
            raise FormatError(
                f"invalid UTF-8 (byte offset {offset + exc.start}); convert the file to UTF-8",
                file=file, line=number, column=column, check="text.invalid-utf8",
            ) from None
        offset += len(raw)
        if number == 1 and text.startswith(BOM):
            text = text[1:]
        if text.endswith("\n"):
            text = text[:-1]
        if text.endswith("\r"):
            text = text[:-1]
        if "\r" in text:  # old Mac line ends: one physical line holds several
            for piece in text.split("\r"):
                yield number, piece
            continue
        yield number, text


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
        raise CorefkitError(f"{text}: the directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=".corefkit-", suffix=".tmp", dir=directory)
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as out:
            yield out
        os.replace(tmp, text)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
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
