"""Atomic output: a file or folder appears whole, or not at all, and never over what it must
not replace.

Every writer of corefkit (converters, ``normalize``, ``report``, the task leaderboard) writes
through :func:`atomic_text_output` or :func:`atomic_directory_output`:

* **Nothing half-written.** On Linux a file is written as an unnamed temporary file
  (``O_TMPFILE``) in the target's folder and given its name only when complete (``linkat``
  through ``/proc/self/fd``); a run killed with SIGKILL leaves nothing behind, since the file
  never had a name. Elsewhere (or on a file system without ``O_TMPFILE``) the temporary file
  is named ``.corefkit-HOST-PID-RANDOM.tmp`` and renamed; one left by a killed run is removed
  by the next write into that folder once its process is gone (same host, process no longer
  running, same owner). A folder output is built under such a name and renamed likewise.
* **Nothing replaced unasked.** With ``replace=False`` the final step is a hard link, which
  fails when the name exists: a file that appeared since the caller's check is not
  replaced (:class:`OutputExists`, exit 2).
* **Rights.** A new file gets the rights of the user's umask (``0666 & ~umask``); a file that
  is replaced keeps its own (a ``0600`` file stays ``0600``).
* An existing target that is not a regular file (``/dev/null``, a named pipe read by another
  program) is written to directly: there is nothing to replace.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import secrets
import shutil
import socket
import stat
import sys
from collections.abc import Callable, Iterator
from typing import IO

from corefkit.errors import CorefkitError, UsageError

# Linux: unnamed temporary files; tests turn it off to exercise the named fallback
TMPFILE = hasattr(os, "O_TMPFILE")
PROC_FD = "/proc/self/fd"

_STALE = re.compile(r"\.corefkit-(?P<host>.+)-(?P<pid>\d+)-[0-9a-f]{8}(?:-old)?\.tmp")
_cleaned: set[str] = set()  # folders already rid of stale temporary files by this process


class OutputExists(UsageError):
    """The target exists and replacing it was not asked for."""


def _host() -> str:
    name = re.sub(r"[^A-Za-z0-9.]", "_", socket.gethostname())[:40]
    return name or "host"


def temporary_name(directory: str, old: bool = False) -> str:
    """A fresh ``.corefkit-HOST-PID-RANDOM.tmp`` path in ``directory``."""
    return os.path.join(directory, f".corefkit-{_host()}-{os.getpid()}-{secrets.token_hex(4)}"
                                   f"{'-old' if old else ''}.tmp")


def _running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process, or no right to ask: treat as running
        return True
    return True


def clean_stale(directory: str) -> list[str]:
    """Remove the temporary files and folders a killed corefkit run left in ``directory``:
    named by this host, owned by this user, of a process that no longer runs. Done once per
    folder per process; returns the paths removed."""
    directory = os.path.abspath(directory)
    if directory in _cleaned:
        return []
    _cleaned.add(directory)
    removed: list[str] = []
    host, uid = _host(), os.geteuid() if hasattr(os, "geteuid") else None
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return removed
    for entry in entries:
        found = _STALE.fullmatch(entry.name)
        if found is None or found["host"] != host or _running(int(found["pid"])):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if uid is not None and info.st_uid != uid:
                continue
            if stat.S_ISDIR(info.st_mode):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
            removed.append(entry.path)
        except OSError:
            continue
    return removed


def _existing(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CorefkitError(f"cannot write {path}: {exc.strerror or exc}") from None


class _Temporary:
    """The file being written: an unnamed one (``O_TMPFILE``) or a named one beside the
    target, until :meth:`commit` gives it the target's name."""

    def __init__(self, target: str, mode: int | None) -> None:
        self.target = target
        self.directory = os.path.dirname(os.path.abspath(target))
        self.named: str | None = None
        clean_stale(self.directory)  # what a killed run left here (once per folder)
        self.fd = self._unnamed() if TMPFILE and os.path.isdir(PROC_FD) else None
        if self.fd is None:
            named = self.named = temporary_name(self.directory)
            self.fd = self._open(lambda: os.open(
                named, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666))
        if mode is not None:  # a replaced file keeps its rights; a new one has the umask's
            os.fchmod(self.fd, mode)

    @property
    def descriptor(self) -> int:
        assert self.fd is not None, "the temporary file is closed"
        return self.fd

    def _open(self, opener: Callable[[], int]) -> int:
        try:
            return opener()
        except OSError as exc:
            raise CorefkitError(f"cannot write {self.target}: {exc.strerror or exc}") from None

    def _unnamed(self) -> int | None:
        try:
            return os.open(self.directory, os.O_TMPFILE | os.O_WRONLY | _CLOEXEC, 0o666)
        except OSError as exc:
            if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
                return None  # the file system (or kernel) has no O_TMPFILE: a named file
            raise CorefkitError(f"cannot write {self.target}: {exc.strerror or exc}") from None

    def commit(self, replace: bool) -> None:
        """Give the written file the target's name (replacing it only if ``replace``)."""
        if self.named is None:
            if not replace:
                self._link_unnamed(self.target)
                return
            named = temporary_name(self.directory)  # a name for an instant
            self._link_unnamed(named)
            self.named = named
        if replace:
            os.replace(self.named, self.target)
        else:
            self._link(self.named)
            os.unlink(self.named)
        self.named = None

    def _link_unnamed(self, name: str) -> None:
        """Give the unnamed file ``name``: ``linkat`` of ``/proc/self/fd/N`` following the
        link (``os.link`` follows it only when given a folder descriptor)."""
        folder = os.open(PROC_FD, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC)
        try:
            try:
                os.link(str(self.fd), name, src_dir_fd=folder, follow_symlinks=True)
            except FileExistsError:
                raise OutputExists(f"{self.target}: exists, and corefkit does not replace it "
                                   "(pass --overwrite to replace it)") from None
        finally:
            os.close(folder)

    def _link(self, source: str) -> None:
        try:
            os.link(source, self.target)
        except FileExistsError:
            raise OutputExists(f"{self.target}: exists, and corefkit does not replace it "
                               "(pass --overwrite to replace it)") from None
        except OSError as exc:  # a file system without hard links: check, then rename
            if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.EMLINK, errno.EXDEV) \
                    or self.named is None:
                raise
            if os.path.lexists(self.target):
                raise OutputExists(f"{self.target}: exists, and corefkit does not replace it "
                                   "(pass --overwrite to replace it)") from None
            os.rename(self.named, self.target)
            self.named = None
            return

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)
            self.fd = None
        if self.named is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.named)
            self.named = None


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@contextlib.contextmanager
def atomic_text_output(path: str | os.PathLike[str], *, replace: bool = True
                       ) -> Iterator[IO[str]]:
    """A text stream that becomes ``path`` only if the ``with`` block finishes without error.

    ``-`` writes to standard output directly. Output is UTF-8 with LF line ends. With
    ``replace=False`` an existing ``path`` is an :class:`OutputExists` error, also when it
    appears while the file is being written.
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
    existing = _existing(text)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        with _direct(text) as direct:  # /dev/null, a pipe: nothing to replace
            yield direct
        return
    if existing is not None and not replace:
        raise OutputExists(f"{text}: exists, and corefkit does not replace it (pass "
                           "--overwrite to replace it)")
    temporary = _Temporary(text, stat.S_IMODE(existing.st_mode) if existing else None)
    try:
        with open(temporary.descriptor, "w", encoding="utf-8", newline="\n",
                  closefd=False) as written:
            yield written
        try:
            temporary.commit(replace)
        except OSError as exc:
            raise CorefkitError(f"cannot write {text}: {exc.strerror or exc}") from None
    finally:
        temporary.close()


@contextlib.contextmanager
def _direct(path: str) -> Iterator[IO[str]]:
    """Write straight into an existing device or named pipe (refused when no one reads it)."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise CorefkitError(f"cannot write {path}: a named pipe that no program reads"
                                ) from None
        raise CorefkitError(f"cannot write {path}: {exc.strerror or exc}") from None
    os.set_blocking(fd, True)
    with open(fd, "w", encoding="utf-8", newline="\n") as out:
        yield out


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
    clean_stale(parent)
    tmp = temporary_name(parent)
    try:
        os.mkdir(tmp, 0o700)
    except OSError as exc:
        raise CorefkitError(f"cannot write {os.fspath(path)}: {exc.strerror}") from None
    try:
        yield tmp
        os.chmod(tmp, 0o777 & ~current_umask())  # private while written; outputs are not
        if os.path.lexists(target):
            old = temporary_name(parent, old=True)
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


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    umask = os.umask(0o022)
    os.umask(umask)
    return umask
