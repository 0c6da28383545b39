"""Which files a folder holds for corefkit, and why every other file in it is left out.

Every command that takes a folder reads it through :func:`expand_folder`: the walk is recursive
and the same for every format. Each regular file below the folder is either read as one format
(its content says which, else a name only that format uses; formats/README.md, "Detecting the
format") or skipped with a reason the summary shows: documentation and licence files, the parts
of a multi-file document (an MMAX2 project's base data and markables, a brat ``.txt``, the
UIMA type system a CAS file is read with),
compressed files, files of no known format, files whose only clue is an extension several
formats share (``.tsv``: GAP, WebAnno TSV and other tables, told apart by their content),
hidden entries, pipes and devices.

The walk is safe on untrusted folders: it never follows a symbolic link to a folder (so it
cannot loop, and a link to a folder inside is read where that folder lies) and never follows a
link to a file outside the folder; such links are skipped with their reason. Nothing but a
regular file is ever opened (a FIFO without a writer would block the run).
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from corefkit.converters.base import FormatSpec


SNIFF_BYTES = 64 * 1024

# whether a format's name patterns match a path (third argument: the format was named, so its
# named_patterns count too)
Named = Callable[["FormatSpec", str, bool], bool]

# the reasons a file is skipped, in the order the summary lists them
DOCUMENTATION = "documentation or licence"
PART = ("part of a multi-file document (read through its MMAX2 project, brat .ann or UIMA CAS "
        "file)")
COMPRESSED = "compressed (decompress it to read it)"
UNKNOWN = "no known format"
AMBIGUOUS = "no known format (an extension other kinds of file share)"
OTHER_FORMAT = "another format than the one asked for"
HIDDEN = "hidden"
LINK_OUT = "symbolic link out of the folder"
LINK_FOLDER = "symbolic link to a folder (not followed)"
LINK_BROKEN = "broken symbolic link"
SPECIAL = "not a regular file (pipe, socket or device)"
UNREADABLE = "cannot be read"
REASONS = (DOCUMENTATION, PART, COMPRESSED, UNKNOWN, AMBIGUOUS, OTHER_FORMAT, HIDDEN, LINK_OUT,
           LINK_FOLDER, LINK_BROKEN, SPECIAL, UNREADABLE)

_DOC_EXTENSIONS = (".md", ".markdown", ".rst", ".pdf", ".html", ".htm")
_DOC_NAME_RE = re.compile(r"(?:^|[-_.])(?:readme|licen[cs]e|copying|notice|authors|changelog"
                          r"|changes|citation)(?:[-_.]|$)", re.IGNORECASE)
_COMPRESSED = (".gz", ".bz2", ".xz", ".zip", ".zst", ".7z", ".tgz", ".tar", ".lz4")


@dataclass(frozen=True)
class Skipped:
    """A file (or folder) under an expanded folder that is not read, and why."""

    path: str
    reason: str
    detail: str = ""


@dataclass
class Expansion:
    """What a folder holds: ``files`` as (file, format) in path order, and what was skipped."""

    folder: str
    files: list[tuple[str, str]] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        """Files read per format."""
        return Counter(fmt for _, fmt in self.files)

    def unreadable(self) -> list[Skipped]:
        return [s for s in self.skipped if s.reason == UNREADABLE]

    def summary(self, examples: int = 3) -> list[str]:
        """The lines that say what was read (files per format) and what was skipped and why,
        with the first few skipped paths of each reason."""
        counts = self.counts()
        read = ", ".join(f"{n} {fmt}" for fmt, n in sorted(counts.items()))
        lines = [f"{self.folder}: read {plural(len(self.files), 'file')}"
                 + (f" ({read})" if read else "")]
        if not self.skipped:
            return lines
        lines[0] += f"; skipped {plural(len(self.skipped), 'file')}"
        by_reason: dict[str, list[Skipped]] = {}
        for skipped in self.skipped:
            by_reason.setdefault(skipped.reason, []).append(skipped)
        for reason in REASONS:
            group = by_reason.get(reason)
            if not group:
                continue
            shown = [_shown(s, self.folder) for s in group[:examples]]
            more = f" and {len(group) - examples} more" if len(group) > examples else ""
            kinds = ""
            if reason in (UNKNOWN, AMBIGUOUS) and len(group) > examples:
                extensions = Counter(s.detail for s in group)
                kinds = " [" + ", ".join(f"{n} {ext}" for ext, n in extensions.most_common()) + "]"
            lines.append(f"  skipped {len(group)}, {reason}{kinds}: {', '.join(shown)}{more}")
        return lines


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _shown(skipped: Skipped, folder: str) -> str:
    path = os.path.relpath(skipped.path, folder) if skipped.path != folder else skipped.path
    return f"{path} ({skipped.detail})" if skipped.detail else path


# ---------------------------------------------------------------------------- the walk
def walk(folder: str) -> Iterator[tuple[str, Skipped | None]]:
    """(path, None) for every regular file below ``folder`` that may be read, (path, reason)
    for every entry that is not; sorted, depth first, no link followed out or into a loop."""
    base = os.path.realpath(folder)
    errors: list[OSError] = []
    for root, dirs, files in os.walk(folder, onerror=errors.append):
        while errors:
            error = errors.pop()
            yield error.filename or root, Skipped(error.filename or root, UNREADABLE,
                                                  error.strerror or str(error))
        kept = []
        for name in sorted(dirs):
            full = os.path.join(root, name)
            if name.startswith("."):
                yield full, Skipped(full, HIDDEN)
            elif os.path.islink(full):
                yield full, Skipped(full, LINK_FOLDER if _inside(full, base) else LINK_OUT)
            else:
                kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            full = os.path.join(root, name)
            yield full, _entry_problem(full, name, base)
    while errors:  # the last folder listed, or the folder itself
        error = errors.pop()
        where = error.filename or folder
        yield where, Skipped(where, UNREADABLE, error.strerror or str(error))


def _inside(path: str, base: str) -> bool:
    real = os.path.realpath(path)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def _entry_problem(path: str, name: str, base: str) -> Skipped | None:
    if name.startswith("."):
        return Skipped(path, HIDDEN)
    try:
        if os.path.islink(path):
            if not _inside(path, base):
                return Skipped(path, LINK_OUT)
            mode = os.stat(path).st_mode  # the target, inside the folder
        else:
            mode = os.lstat(path).st_mode
    except OSError as exc:
        if os.path.islink(path):
            return Skipped(path, LINK_BROKEN, exc.strerror or "")
        return Skipped(path, UNREADABLE, exc.strerror or str(exc))
    if stat.S_ISDIR(mode):
        return Skipped(path, LINK_FOLDER)
    if not stat.S_ISREG(mode):
        return Skipped(path, SPECIAL)
    return None


# ---------------------------------------------------------------------------- classification
def is_documentation(name: str) -> bool:
    """README, LICENSE and the like, and text documents (.md, .rst, .pdf, .html)."""
    return name.lower().endswith(_DOC_EXTENSIONS) or _DOC_NAME_RE.search(name) is not None


def classify(path: str, specs: list[FormatSpec], wanted: FormatSpec | None,
             sniff: Callable[[str], str | None], named: Named
             ) -> tuple[str | None, Skipped | None]:
    """The format a regular file is read as, or why it is skipped.

    ``sniff`` gives the format a file's head shows, ``named`` says whether a format's name
    patterns match (with its third argument, also the patterns taken only when the format is
    named, :attr:`FormatSpec.named_patterns`: ``*.txt`` for text2text). The content decides
    first; then a name that one format uses and no other (not an extension a format shares,
    see :attr:`FormatSpec.shared_extension`). With
    ``wanted`` (``--from``), a file is read when its content is that format's or says nothing
    and its name is that format's (for a shared extension, the content must say so: such a
    format's files start with a header); a file of another format is skipped.
    """
    name = os.path.basename(path)
    by_name = [s for s in specs if named(s, path, False)]
    wanted_by_name = wanted is not None and named(wanted, path, True)
    if not by_name:
        if is_documentation(name):
            return None, Skipped(path, DOCUMENTATION)
        if name.lower().endswith(_COMPRESSED):
            return None, Skipped(path, COMPRESSED)
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES).decode("utf-8", errors="replace")
    except OSError as exc:
        if wanted_by_name or (wanted is None and by_name):
            return (wanted or by_name[0]).name, None  # its reader reports the problem
        return None, Skipped(path, UNREADABLE, exc.strerror or str(exc))
    for spec in specs:
        if spec.part_of is not None and spec.part_of(path, head):
            return None, Skipped(path, PART, spec.name)
    found = sniff(head)
    if found is not None:
        if wanted is not None and found != wanted.name:
            return None, Skipped(path, OTHER_FORMAT, found)
        return found, None
    if wanted is not None:
        if wanted_by_name and wanted.shared_extension:
            # a header the format requires is missing: one of the extension's other tables
            return None, Skipped(path, AMBIGUOUS, _extension(name))
        if wanted_by_name:
            return wanted.name, None
        return None, Skipped(path, UNKNOWN if not by_name else OTHER_FORMAT,
                             by_name[0].name if by_name else _extension(name))
    strong = [s for s in by_name if not s.shared_extension]
    if len(strong) == 1:
        return strong[0].name, None
    if by_name:
        return None, Skipped(path, AMBIGUOUS, _extension(name))
    return None, Skipped(path, UNKNOWN, _extension(name))


def _extension(name: str) -> str:
    extension = os.path.splitext(name)[1]
    return extension if extension else "no extension"


def expand_folder(folder: str, specs: list[FormatSpec], wanted: FormatSpec | None,
                  sniff: Callable[[str], str | None],
                  named: Named) -> Expansion:
    """Every file below ``folder``, read as a format or skipped with its reason."""
    expansion = Expansion(folder)
    for path, problem in walk(folder):
        if problem is not None:
            expansion.skipped.append(problem)
            continue
        fmt, skipped = classify(path, specs, wanted, sniff, named)
        if fmt is not None:
            expansion.files.append((path, fmt))
        elif skipped is not None:
            expansion.skipped.append(skipped)
    expansion.files.sort()  # path order, whatever the depth
    expansion.skipped.sort(key=lambda s: s.path)
    _notify(expansion)
    return expansion


# ---------------------------------------------------------------------------- observers
# the folders expanded since the command line last asked, by folder (the last expansion of
# each): the command line reports what each folder's expansion read and skipped. Kept here,
# not handed in, so that the command line imports this module only when a command read a
# folder (``corefkit --help`` imports no converter).
_RECENT: dict[str, Expansion] = {}


def take_recent() -> dict[str, Expansion]:
    """The folders expanded since the last call, by folder; forgets them."""
    found = dict(_RECENT)
    _RECENT.clear()
    return found


def forget(folder: str | None = None) -> None:
    """Leave a folder (default: every folder) out of what is reported: a command that
    reported it itself, or was asked to be quiet."""
    if folder is None:
        _RECENT.clear()
    else:
        _RECENT.pop(folder, None)


def _notify(expansion: Expansion) -> None:
    _RECENT[expansion.folder] = expansion
