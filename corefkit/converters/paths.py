"""What an input path names, checked once for every command: a file, a folder, a glob, ``-``.

Every command reads its inputs through :func:`input_kind` (what a path names, or one clear
line saying why it cannot be read), :func:`list_folder` (a folder's entries) and
:func:`open_input` (a regular file, opened so that a named pipe without a writer or a device
cannot make a run hang or fill the memory). A path that cannot be read — missing, a dangling
symbolic link, a symbolic-link loop, a named pipe, a device, a folder without the right to
list it — is an :class:`InputError`: one line naming the path and what it is, exit code 1
(docs/reference/files-and-exit-codes.md), the same in every command.

Inside :func:`confined` (``corefkit task`` reading a submission) every file opened and every
folder listed must lie inside the given folder and be reached without a symbolic link:
submissions are untrusted, and a link to the gold or to a private file is refused before a
byte of it is read.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import os
import stat
from collections.abc import Iterator
from typing import BinaryIO, Literal

from corefkit.errors import CorefkitError

Kind = Literal["stdin", "file", "folder", "glob"]

GLOB_CHARACTERS = "*?["
NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a named pipe does not wait for a writer


class InputError(CorefkitError):
    """An input path that cannot be read (not its content: the path itself)."""


class RefusedPath(InputError):
    """A path :func:`confined` does not let a reader open (outside the folder, a link)."""


# the folder every input must lie in (``corefkit task`` reading a submission), as given and
# with its symbolic links resolved, and the trusted paths outside it (the gold); or None
_CONFINED: contextvars.ContextVar[tuple[str, str, tuple[str, ...]] | None] = \
    contextvars.ContextVar("confined", default=None)


@contextlib.contextmanager
def confined(folder: str | os.PathLike[str], *trusted: str | os.PathLike[str]
             ) -> Iterator[None]:
    """Refuse, while the ``with`` block runs, any input outside ``folder`` or reached
    through a symbolic link below it (:func:`check_confined`); the ``trusted`` files and
    folders (the gold) are read as usual."""
    text = os.path.abspath(os.fspath(folder))
    allowed = tuple(os.path.abspath(os.fspath(t)) for t in trusted)
    token = _CONFINED.set((text, os.path.realpath(text), allowed))
    try:
        yield
    finally:
        _CONFINED.reset(token)


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def check_confined(path: str) -> None:
    """Inside :func:`confined`: an :class:`InputError` unless ``path`` lies in the folder and
    no part of it below the folder is a symbolic link (or it is a trusted path). The
    message names the path only, never what it points to."""
    found = _CONFINED.get()
    if found is None or path == "-":
        return
    root, real_root, trusted = found
    absolute = os.path.abspath(path)
    if any(_inside(absolute, t) for t in trusted):
        return
    if not _inside(absolute, root):
        raise RefusedPath(f"{path}: lies outside the folder {root}; only files inside it are "
                         "read")
    below = os.path.relpath(absolute, root)
    expected = real_root if below == os.curdir else os.path.join(real_root, below)
    if os.path.realpath(absolute) != expected:  # a part below the folder is a symbolic link
        raise RefusedPath(f"{path}: is or goes through a symbolic link; links are not "
                         "followed here")


def _stat_error(path: str, exc: OSError) -> InputError:
    """The one line for a path whose ``stat`` failed."""
    if exc.errno == errno.ELOOP:
        return InputError(f"{path}: is a symbolic link loop (too many levels of symbolic links)")
    if exc.errno == errno.ENOENT:
        if os.path.islink(path):
            return InputError(f"{path}: is a symbolic link to a file that does not exist")
        return InputError(f"{path}: no such file or directory")
    if exc.errno == errno.ENOTDIR:
        return InputError(f"{path}: no such file or directory (a part of the path is a file, "
                          "not a folder)")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return InputError(f"{path}: permission denied (a folder on the way cannot be entered)")
    return InputError(f"{path}: cannot read ({exc.strerror or exc})")


_NOT_REGULAR = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _not_regular(path: str, mode: int) -> InputError:
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
    return InputError(f"{path}: is {what}, not a regular file; give a file, or '-' with the "
                      "input on standard input")


def input_kind(path: str | os.PathLike[str]) -> Kind:
    """What ``path`` names: ``stdin`` (``-``), a regular ``file``, a ``folder``, or a ``glob``
    pattern (a path that does not exist and holds ``*``, ``?`` or ``[``); anything else is an
    :class:`InputError`. Nothing is opened."""
    text = os.fspath(path)
    if text == "-":
        return "stdin"
    try:
        info = os.stat(text)
    except OSError as exc:
        if exc.errno == errno.ENOENT and any(c in text for c in GLOB_CHARACTERS) \
                and not os.path.islink(text):
            return "glob"
        raise _stat_error(text, exc) from None
    check_confined(text)
    if stat.S_ISDIR(info.st_mode):
        return "folder"
    if stat.S_ISREG(info.st_mode):
        return "file"
    raise _not_regular(text, info.st_mode)


def list_folder(folder: str) -> list[str]:
    """The names in ``folder``, sorted; an :class:`InputError` when it cannot be listed."""
    check_confined(folder)
    try:
        return sorted(os.listdir(folder))
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise InputError(f"{folder}: permission denied (the folder cannot be listed)"
                             ) from None
        raise _stat_error(folder, exc) from None


def walk_folder(folder: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk`` of ``folder`` (symbolic links to folders are not entered, hidden folders
    are skipped, names sorted), raising an :class:`InputError` for a folder that cannot be
    listed instead of skipping it silently."""

    def refuse(exc: OSError) -> None:
        where = exc.filename if isinstance(exc.filename, str) else folder
        if exc.errno in (errno.EACCES, errno.EPERM):
            raise InputError(f"{where}: permission denied (the folder cannot be listed)")
        raise _stat_error(where, exc)

    check_confined(folder)
    for root, dirs, files in os.walk(folder, onerror=refuse):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        yield root, dirs, sorted(files)


def is_regular_file(path: str) -> bool:
    """``path`` is a regular file (following symbolic links); never raises."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


@contextlib.contextmanager
def open_input(path: str, *, option: bool = False) -> Iterator[BinaryIO]:
    """A regular file opened for binary reading, or an :class:`InputError`.

    The file is opened without blocking and its type checked on the open descriptor, so that
    a named pipe without a writer, a device such as ``/dev/zero`` or anything swapped in after
    a check is refused instead of hanging or filling the memory. An ``option`` file (a rules
    table, a level map: named by the user or the organizer, or shipped with corefkit) is not
    a submission's content, so :func:`confined` does not apply to it.
    """
    if not option:
        check_confined(path)
    try:
        fd = os.open(path, os.O_RDONLY | NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.EISDIR:
            raise InputError(f"{path}: is a folder, expected a file") from None
        if exc.errno in (errno.EACCES, errno.EPERM):
            try:
                folder = stat.S_ISDIR(os.stat(path).st_mode)
            except OSError as missing:  # a folder on the way cannot be entered
                raise _stat_error(path, missing) from None
            if folder:
                raise InputError(f"{path}: is a folder, expected a file") from None
            raise InputError(f"{path}: cannot read (permission denied)") from None
        raise _stat_error(path, exc) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{path}: is a folder, expected a file")
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
        if NONBLOCK:
            os.set_blocking(fd, True)
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with handle:
        yield handle


def read_text(path: str, encoding: str = "utf-8") -> str:
    """The text of a regular file (an option's file: a level map, a rules table), read
    through :func:`open_input`: a path that cannot be read is an :class:`InputError`."""
    with open_input(path, option=True) as handle:
        return handle.read().decode(encoding)
