"""The corefkit exception hierarchy and the records readers and writers leave behind.

Every error a user can cause derives from :class:`CorefkitError`; the CLI turns it into one
line on stderr and a non-zero exit code. Irregularities that a reader repairs instead of
rejecting become :class:`Repair` records (see ``formats/README.md``: accepted, repaired,
rejected).
"""

from __future__ import annotations

from dataclasses import dataclass


class CorefkitError(Exception):
    """Base class of every error corefkit raises on purpose."""


class UsageError(CorefkitError):
    """A request that cannot be carried out as asked (unknown metric, format, option)."""


class ModelError(CorefkitError):
    """An operation that would break an invariant of the document model."""


class FormatError(CorefkitError):
    """Malformed input, located in its file.

    ``check`` is a stable identifier such as ``conll.unbalanced-close``; the message says what
    was found, what was expected and, where possible, what to do.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        check: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.check = check

    def __str__(self) -> str:
        where = location(self.file, self.line, self.column)
        text = f"{where}: {self.message}" if where else self.message
        if self.check:
            text += f" ({self.check})"
        return text


class LossError(CorefkitError):
    """A conversion would lose information and the caller asked to fail instead."""


def location(file: str | None, line: int | None = None, column: int | None = None) -> str:
    """``file:line:column`` with the missing parts left out; a file name's control characters
    (a newline, a tab) are escaped, so that a message stays one line."""
    parts = [shown_name(file) if file is not None else None, line, column]
    return ":".join(str(p) for p in parts if p is not None)


def shown_name(name: str) -> str:
    """A file name as messages show it: control characters escaped (``a\\nb`` for a name
    with a newline, ``\\x1b`` for an escape) and a backslash doubled only when something was
    escaped, so that ordinary names are shown as they are."""
    if name.isprintable():
        return name
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name.replace("\\", "\\\\"))


def one_line(text: str) -> str:
    """``text`` with its control characters (newlines, carriage returns, tabs, escapes)
    escaped as ``\\n``, ``\\r``, ...: what a one-line message prints, whatever file name or
    value it quotes."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``1 document``, ``2 documents``, ``0 entities`` (``plural`` when it is not noun + s)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


@dataclass(frozen=True)
class Repair:
    """Something a reader or writer changed so that the model could hold it, or warned about.

    ``action`` says what was done (``kept``, ``dropped``, ``renamed``, ...).
    """

    check: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    document: str | None = None
    action: str = "kept"

    def __str__(self) -> str:
        where = location(self.file, self.line, self.column)
        head = f"{where}: " if where else ""
        doc = f" [document {self.document}]" if self.document else ""
        return f"{head}warning: {self.message} ({self.check}){doc}"
