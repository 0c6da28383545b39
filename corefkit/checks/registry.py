"""The check registry and the finding record every check produces.

A *check* is one kind of annotation problem with a stable id (``conll.unclosed``,
``mention.same-span``), a level, a severity and a one-line explanation. Levels say how deep a
check looks, and ``--level N`` runs the checks of levels 1..N:

1. the file: can it be read at all (encoding, syntax, brackets, structure);
2. the format's conventions (document names, id spelling, bracket order, repairs of
   documented irregularities);
3. the annotation: what the document model holds (duplicate and crossing mentions, split
   antecedents, bridging, zeros, non-referring markables).

Reader repairs and rejections (``formats/README.md``) are findings under the reader's own check
ids, so the ids here and on the format pages are the same thing. A *finding* is one
occurrence, located by file and line.

The registry holds the checks registered so far; modules register theirs when imported (each
format's ``checks`` module, loaded by :func:`corefkit.converters.registry.load_format_checks`,
and the model, file and pair checks of :mod:`corefkit.validation`, which that package
imports). :mod:`corefkit.validation.catalog` looks checks up after loading them all.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from corefkit.errors import UsageError, one_line, shown_name

ERROR = "error"
WARNING = "warning"
SEVERITIES = (ERROR, WARNING)
LEVELS = (1, 2, 3)


@dataclass(frozen=True)
class Check:
    """One kind of problem: stable id, level 1..3, severity, one-line explanation.

    ``format`` is the format whose files it concerns (None: every format, on the model).
    ``origin`` says who finds it: ``reader`` (a repair or rejection of the format's reader),
    ``validator`` (a function of this package) or ``pair`` (the key/response comparison).
    """

    id: str
    level: int
    severity: str
    explanation: str
    format: str | None = None
    origin: str = "validator"
    # what a plain corefkit.read() refuses (the library reader, without the commands' checks):
    # by default the errors of level 1, the file cannot be read as it is; a check may say
    # otherwise (a dangling SplitAnte of level 3 is refused, a CR LF line end of level 1 is
    # read as it stands)
    malformed: bool | None = None

    @property
    def refused(self) -> bool:
        """True if every command refuses this incident by default: one severity drives
        ``validate`` and every other command (an error is refused unless the user passes
        ``--lenient``; a warning is a warning everywhere)."""
        return self.severity == ERROR

    @property
    def read_refused(self) -> bool:
        """True if a plain ``corefkit.read`` (``checks=False``) refuses it by default: the
        reader cannot make a faithful document of the input without the user's consent."""
        if self.malformed is not None:
            return self.malformed
        return self.severity == ERROR and self.level == 1

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"check {self.id}: level must be 1, 2 or 3")
        if self.severity not in SEVERITIES:
            raise ValueError(f"check {self.id}: severity must be error or warning")
        if self.origin not in ("reader", "validator", "pair"):
            raise ValueError(f"check {self.id}: unknown origin {self.origin!r}")


@dataclass(frozen=True)
class Finding:
    """One problem found: where it is, what it is, and what the check means."""

    level: int
    severity: str
    check: str
    file: str | None
    line: int | None
    document: str | None
    sentence: str | None
    message: str
    explanation: str

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def to_json(self) -> dict[str, Any]:
        """The JSON object of ``corefkit validate --format json`` (one per finding)."""
        return {
            "level": self.level, "severity": self.severity, "check": self.check,
            "file": self.file, "line": self.line, "document": self.document,
            "sentence": self.sentence, "message": self.message,
            "explanation": self.explanation,
        }

    def to_text(self) -> str:
        """``FILE:LINE: [ERROR|WARNING] check-id: message (document, sentence)``."""
        where = f"{shown_name(self.file or '<input>')}:{self.line if self.line is not None else 0}"
        context = []
        if self.document is not None:
            context.append(f"document {self.document}")
        if self.sentence is not None:
            context.append(f"sentence {self.sentence}")
        tail = f" ({', '.join(context)})" if context else ""
        return one_line(f"{where}: [{self.severity.upper()}] {self.check}: {self.message}{tail}")


_CHECKS: dict[str, Check] = {}


def register(*checks: Check) -> None:
    """Add checks to the registry; an id can be registered once only."""
    for check in checks:
        known = _CHECKS.get(check.id)
        if known is not None and known != check:
            raise ValueError(f"check id {check.id} is registered twice with different meanings")
        _CHECKS[check.id] = check


def get_check(check_id: str) -> Check | None:
    """The registered check with this id, or None (of the checks registered so far:
    :func:`corefkit.validation.catalog.get_check` first loads every module that registers
    checks)."""
    return _CHECKS.get(check_id)


def all_checks() -> list[Check]:
    """Every check registered so far, sorted by (format, id); the model checks come first."""
    return sorted(_CHECKS.values(), key=lambda c: (c.format or "", c.id))


def unregistered(check_id: str, *, rejected: bool) -> Check:
    """The stand-in for an id a reader used that the registry does not describe.

    Readers are allowed to grow new ids before this registry learns them; such findings keep
    the reader's id, with the severity its outcome implies.
    """
    if rejected:
        return Check(check_id, 1, ERROR, "the reader rejected the input (check not described in "
                     "the registry)", origin="reader")
    return Check(check_id, 2, WARNING, "the reader repaired the input (check not described in "
                 "the registry)", origin="reader")


def expand_patterns(patterns: Iterable[str], option: str) -> frozenset[str]:
    """Check ids named by ids or shell patterns (``conll.*``) among the checks registered so
    far; unknown names are usage errors."""
    ids = sorted(_CHECKS)
    chosen: set[str] = set()
    for pattern in patterns:
        for piece in pattern.split(","):
            piece = piece.strip()
            if not piece:
                continue
            matched = [i for i in ids if fnmatch.fnmatchcase(i, piece)]
            if not matched:
                close = [i for i in ids if piece.split(".")[-1] in i][:5]
                hint = f"; did you mean {', '.join(close)}?" if close else \
                    "; 'corefkit validate --list-checks' lists them"
                raise UsageError(f"{option}: no check is called {piece!r}{hint}")
            chosen.update(matched)
    return frozenset(chosen)
