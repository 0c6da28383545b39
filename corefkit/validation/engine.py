"""Running the checks: read each file, turn repairs, rejections and incidents into findings.

For every file the format's reader runs (leniently where the reader has a lenient mode, so
that one bad markable does not hide the rest); each document it yields goes through the
reader's repair records, the model checks and the format plugin's checks. A ``FormatError``
ends the reading of that file and becomes an error finding under its check id, after the
repairs the reader had made in the rejected document (``exc.repairs``, where a reader leaves
them: strict reading may have refused one of them first). Findings are filtered by level,
``include_only`` and ``exclude`` (rejections always pass: the rest of the file was not
checked, and hiding that would let a broken file pass), and the run stops after
``max_errors`` errors.
"""

from __future__ import annotations

import bisect
import functools
import glob
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from corefkit.checks.plugins import FileChecks, FormatPlugin, Incident, sentence_label
from corefkit.checks.registry import (
    ERROR,
    LEVELS,
    WARNING,
    Check,
    Finding,
    register,
    unregistered,
)
from corefkit.converters.io import display_name
from corefkit.converters.folders import Expansion
from corefkit.converters.paths import InputError, input_kind, is_regular_file
from corefkit.converters.registry import (
    expand,
    get,
    guess_format,
    own_options,
    plugin_for,
    read,
)
from corefkit.errors import CorefkitError, FormatError, Repair, UsageError
from corefkit.model import Document
from corefkit.model.storage import TOO_LARGE
from corefkit.validation.catalog import expand_patterns, get_check
from corefkit.checks.model import ModelChecks

UNREADABLE = "file.unreadable"
UNKNOWN_FORMAT = "file.unknown-format"
NO_DOCUMENTS = "file.no-documents"
INVALID_UTF8 = "text.invalid-utf8"

register(
    Check(UNREADABLE, 1, ERROR, "the file cannot be opened or read"),
    Check(UNKNOWN_FORMAT, 1, ERROR,
          "the file is in no format corefkit recognises; pass --from if it is one"),
    Check(NO_DOCUMENTS, 1, ERROR, "the file holds no document (it is empty, or holds only "
          "comments and blank lines)"),
    Check(INVALID_UTF8, 1, ERROR, "the file is not valid UTF-8 (the message gives the byte "
          "offset); convert it to UTF-8", origin="reader"),
    Check(TOO_LARGE, 1, ERROR,
          "a document whose mentions cover more token positions in all than corefkit holds "
          "(corefkit/model/storage.py: 4,000,000, or 100 per token of the document): "
          "thousands of mentions nested in each other or repeated over long spans",
          origin="reader"),
)

STOPPED = "; reading of this file stopped here, the rest of it was not checked"

Observer = Callable[[Document, FormatPlugin, str], None]


class ValidationResult(list):  # list[Finding]
    """The findings of a run, with what was checked: ``files``, ``documents``, ``stopped``."""

    def __init__(self, findings: Iterable[Finding] = ()) -> None:
        super().__init__(findings)
        self.files = 0
        self.documents = 0
        self.stopped = False
        self.folders: list[Expansion] = []  # the folders read: what each held and skipped
        self.max_errors: int | None = None

    @property
    def errors(self) -> int:
        return sum(1 for f in self if f.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self if f.severity == WARNING)

    def per_check(self) -> list[str]:
        """One line per check met: its id and how many errors or warnings it gave."""
        counts: dict[tuple[str, str], int] = {}
        for finding in self:
            key = (finding.check, finding.severity)
            counts[key] = counts.get(key, 0) + 1
        width = max((len(check) for check, _ in counts), default=0)
        return [f"{check:<{width}}  {n} {severity}{'' if n == 1 else 's'}"
                for (check, severity), n in sorted(counts.items(),
                                                   key=lambda item: (-item[1], item[0]))]

    def summary(self) -> str:
        """The closing line of ``corefkit validate``."""
        def count(n: int, word: str) -> str:
            return f"{n} {word}{'' if n == 1 else 's'}"

        text = (f"{count(self.files, 'file')}, {count(self.documents, 'document')}: "
                f"{count(self.errors, 'error')}, {count(self.warnings, 'warning')}")
        if self.stopped:
            text += f"; stopped after {count(self.max_errors or 0, 'error')} (--max-err)"
        return text


class Run:
    """One validation run: its options, counters and findings so far."""

    def __init__(self, *, format: str | None = None, level: int = 3,
                 include_only: Iterable[str] = (), exclude: Iterable[str] = (),
                 max_errors: int | None = None, read_options: dict[str, Any] | None = None,
                 jobs: int | None = None) -> None:
        if level not in LEVELS:
            raise UsageError(f"--level must be 1, 2 or 3, not {level!r}")
        if max_errors is not None and max_errors < 1:
            raise UsageError(f"--max-err must be at least 1, not {max_errors!r}")
        self.format = get(format).name if format is not None else None
        self.level = level
        include_only, exclude = tuple(include_only), tuple(exclude)
        self.include = expand_patterns(include_only, "--include-only") if include_only else None
        self.exclude = expand_patterns(exclude, "--exclude")
        self.read_options = dict(read_options or {})
        self.jobs = jobs
        # what a worker process needs to run the same checks on one file
        self.settings = {"format": format, "level": level, "include_only": include_only,
                         "exclude": exclude, "read_options": self.read_options}
        self.result = ValidationResult()
        self.result.max_errors = max_errors
        self.max_errors = max_errors
        self._errors = 0

    @property
    def stopped(self) -> bool:
        return self.result.stopped

    # ------------------------------------------------------------------ filtering
    def selected(self, check: Check) -> bool:
        if check.level > self.level or check.id in self.exclude:
            return False
        return self.include is None or check.id in self.include

    def emit(self, findings: list[Finding]) -> Iterator[Finding]:
        """Record and yield findings until the error limit is reached."""
        for finding in findings:
            if self.stopped:
                return
            self.result.append(finding)
            yield finding
            if finding.severity == ERROR:
                self._errors += 1
                if self.max_errors is not None and self._errors >= self.max_errors:
                    self.result.stopped = True

    def make_finding(self, incident: Incident, plugin: FormatPlugin, doc: Document | None,
                     file: str, *, rejected: bool = False, origin_reader: bool = False
                     ) -> Finding | None:
        """The finding of an incident, or None when the filters leave its check out.

        ``rejected``: the reader stopped here (always reported, always an error);
        ``origin_reader``: the id is the reader's own, never renamed by the plugin.
        """
        check_id = plugin.renamed.get(incident.check, incident.check) if not origin_reader \
            else incident.check
        check = get_check(check_id) or unregistered(check_id, rejected=rejected)
        if not rejected and not self.selected(check):
            return None
        document = incident.document if incident.document is not None else (
            doc.name if doc is not None else None)
        return Finding(check.level, ERROR if rejected else check.severity, check.id,
                       incident.file or (doc.file if doc is not None and doc.file else file),
                       incident.line, document, incident.sentence, incident.message,
                       check.explanation)

    # ------------------------------------------------------------------ inputs
    def inputs(self, path: Any) -> Iterator[tuple[str, str | None, Finding | None]]:
        """(file, format, finding) for each file a path names; the finding when the file
        cannot be validated at all (unreadable, unknown format)."""
        text = os.fspath(path)
        kind = input_kind(text)  # a path that cannot be read: one line, exit 1
        if kind in ("stdin", "folder"):
            found = expand(text, self.format)  # nothing to read: InputError, exit 1
            if kind == "folder":
                self.result.folders.append(found)
            for file, fmt in found.files:
                yield file, fmt, None
            for skipped in found.unreadable():
                yield skipped.path, None, self._file_finding(
                    UNREADABLE, skipped.path, f"cannot read it ({skipped.detail}); the rest "
                    "of the folder was checked")
            return
        if kind == "file":
            yield self._one_file(text)
            return
        matches = sorted(p for p in glob.glob(text) if is_regular_file(p))
        if not matches:
            raise InputError(f"{text}: the pattern matches no file")
        for match in matches:
            yield self._one_file(match)

    def _one_file(self, path: str) -> tuple[str, str | None, Finding | None]:
        if self.format is not None:
            return path, self.format, None
        if not os.access(path, os.R_OK):
            return path, None, self._file_finding(UNREADABLE, path, "cannot read the file")
        try:
            return path, guess_format(path), None
        except CorefkitError as exc:
            message = str(exc)
            if message.startswith(f"{path}: "):
                message = message[len(path) + 2:]
            return path, None, self._file_finding(UNKNOWN_FORMAT, path, message)

    def _file_finding(self, check_id: str, file: str, message: str,
                      line: int | None = None) -> Finding:
        check = get_check(check_id)
        assert check is not None
        return Finding(check.level, ERROR, check_id, file, line, None, None, message,
                       check.explanation)

    # ------------------------------------------------------------------ files
    def paths(self, paths: Iterable[Any], observer: Observer | None = None) -> Iterator[Finding]:
        """Findings of every file the paths name, file by file, in order; files are checked in
        ``jobs`` processes (default: the cores, when there is enough input) unless an
        ``observer`` must see the documents here."""
        from corefkit.parallel import map_files, workers_for

        inputs = [found for path in paths for found in self.inputs(path)]
        files = [file for file, fmt, problem in inputs if problem is None and file != "-"]
        workers = 1 if observer is not None else workers_for(self.jobs, files)
        if workers > 1:
            work = functools.partial(_file_findings, self.settings)
            done = dict(zip(files, map_files(work, [(f, fmt) for f, fmt, p in inputs
                                                    if p is None and f != "-"], workers)))
        for file, fmt, problem in inputs:
            if self.stopped:
                return
            self.result.files += 1
            if problem is not None:
                yield from self.emit([problem])
                continue
            assert fmt is not None
            if workers > 1 and file in done:
                findings, documents = done[file]
                self.result.documents += documents
                yield from self.emit(findings)
            else:
                yield from self.file(file, fmt, observer)

    def file(self, file: str, fmt: str, observer: Observer | None = None) -> Iterator[Finding]:
        """Findings of one file read as format ``fmt``."""
        plugin = plugin_for(fmt)
        # validate reports every incident: nothing is refused before the checks see it
        options: dict[str, Any] = {"lenient": True,
                                   **own_options(get(fmt), self.read_options, "read")}
        shown = display_name(file)
        checks: list[FileChecks] = [ModelChecks(shown, plugin)]
        if plugin.file_checks is not None:
            checks.append(plugin.file_checks(shown))
        count = 0
        documents = read(file, format=fmt, **options)
        try:
            for doc in documents:
                count += 1
                self.result.documents += 1
                if observer is not None:
                    observer(doc, plugin, shown)
                yield from self.emit(self._document_findings(doc, plugin, checks, shown))
                if self.stopped:
                    return
        except FormatError as exc:
            yield from self.emit([*self._carried(exc, plugin, shown),
                                  self._rejection(exc, plugin, shown)])
            count = -1
        except UsageError:
            raise
        except CorefkitError as exc:
            yield from self.emit([self._file_finding(UNREADABLE, shown, str(exc))])
            count = -1
        except OSError as exc:  # the disk, not the data: still a finding, never a traceback
            yield from self.emit([self._file_finding(
                UNREADABLE, shown, f"cannot read the file ({exc.strerror or exc})")])
            count = -1
        finally:
            close = getattr(documents, "close", None)
            if close is not None:
                close()
        if self.stopped:
            return
        late: list[Finding] = []
        for check in checks:
            for incident in check.finish():
                found = self.make_finding(incident, plugin, None, shown)
                if found is not None:
                    late.append(found)
        if count == 0:
            found = self.make_finding(Incident(NO_DOCUMENTS, "the file holds no document; is "
                                               "it empty, or in another format?", 1),
                                      plugin, None, shown)
            if found is not None:
                late.append(found)
        yield from self.emit(late)

    def documents(self, documents: Iterable[Document], name: str = "<documents>",
                  observer: Observer | None = None) -> Iterator[Finding]:
        """Findings of documents built in memory (their repairs and the model checks)."""
        plugin = plugin_for(self.format)
        checks: list[FileChecks] = [ModelChecks(name, plugin)]
        if plugin.file_checks is not None:
            checks.append(plugin.file_checks(name))
        self.result.files += 1
        for doc in documents:
            if not isinstance(doc, Document):
                raise UsageError(f"expected paths or Document objects, got {type(doc).__name__}")
            self.result.documents += 1
            if observer is not None:
                observer(doc, plugin, doc.file or name)
            yield from self.emit(self._document_findings(doc, plugin, checks, doc.file or name))
            if self.stopped:
                return

    def _document_findings(self, doc: Document, plugin: FormatPlugin, checks: list[FileChecks],
                           file: str) -> list[Finding]:
        found: list[Finding] = []
        places = _SentencePlaces(doc)
        for repair in doc.repairs:
            incident = _repair_incident(repair, places)
            if incident.line is None and incident.file in (None, doc.file):
                # a repair of the whole document (e.g. a missing end): point at its start
                incident = incident._replace(line=doc.line)
            finding = self.make_finding(incident, plugin, doc, file, origin_reader=True)
            if finding is not None:
                found.append(finding)
        for check in checks:
            for incident in check.document(doc):
                finding = self.make_finding(incident, plugin, doc, file)
                if finding is not None:
                    found.append(finding)
        found.sort(key=lambda f: (f.file != file, f.file or "",
                                  f.line if f.line is not None else -1))
        return found

    def _carried(self, exc: FormatError, plugin: FormatPlugin, file: str) -> list[Finding]:
        """The repairs a reader made in a document before rejecting it (a reader leaves them on
        the error as ``repairs``): strict reading may have stopped at one of them, so they are
        reported with the rejection."""
        found = []
        for repair in getattr(exc, "repairs", None) or ():
            incident = Incident(repair.check, repair.message, repair.line, None,
                                repair.file, repair.document)
            finding = self.make_finding(incident, plugin, None, file, origin_reader=True)
            if finding is not None:
                found.append(finding)
        return found

    def _rejection(self, exc: FormatError, plugin: FormatPlugin, file: str) -> Finding:
        incident = Incident(exc.check or UNREADABLE, exc.message + STOPPED, exc.line,
                            None, exc.file or file)
        finding = self.make_finding(incident, plugin, None, file, rejected=True, origin_reader=True)
        assert finding is not None
        return finding


def _repair_incident(repair: Repair, places: _SentencePlaces) -> Incident:
    return Incident(repair.check, repair.message, repair.line,
                    places.at(repair.file, repair.line), repair.file, repair.document)


class _SentencePlaces:
    """The sentence a reader's repair line falls in, found lazily.

    CoNLL-U readers record each sentence's first line; elsewhere the lines where mentions
    start map to their sentences. Lines of other files than the document's (MMAX2 markable
    files) have no sentence here.
    """

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.starts: list[int] | None = None
        self.by_line: dict[int, str | None] | None = None

    def at(self, file: str | None, line: int | None) -> str | None:
        doc = self.doc
        if line is None or (file is not None and doc.file is not None and file != doc.file):
            return None
        if self.starts is None:
            lines = [s.attrs.get("line") for s in doc.sentences]
            self.starts = [x for x in lines if isinstance(x, int)] \
                if lines and all(isinstance(x, int) for x in lines) else []
        if self.starts:
            index = bisect.bisect_right(self.starts, line) - 1
            if index < 0:
                return None
            sentence = doc.sentences[index]
            return sentence.sent_id or str(index + 1)
        if self.by_line is None:
            # a line whose mentions lie in several sentences (LCC: one JSON line holds a whole
            # layer) names no sentence
            found: dict[int, set[str | None]] = {}
            for mention in doc.mentions:
                if mention.line is not None and mention.tokens:
                    found.setdefault(mention.line, set()).add(sentence_label(doc, mention.start))
            self.by_line = {k: next(iter(v)) for k, v in found.items() if len(v) == 1}
        return self.by_line.get(line)


def validate(
    paths: Any,
    format: str | None = None,
    level: int = 3,
    include_only: Iterable[str] = (),
    exclude: Iterable[str] = (),
    max_errors: int | None = None,
    *,
    read_options: dict[str, Any] | None = None,
    jobs: int | None = None,
) -> ValidationResult:
    """Validate files, directories, globs or ``-`` (or ``Document`` objects); the findings.

    ``format`` forces the reader (default: detected per file); ``level`` runs the checks of
    levels 1..level; ``include_only`` / ``exclude`` take check ids or shell patterns
    (``conll.*``); ``max_errors`` stops the run after that many errors. The result is a list
    of :class:`Finding` with ``files``, ``documents``, ``stopped`` and ``summary()``. Files
    are checked in ``jobs`` processes (default: the cores, when there is enough input).
    Unknown check ids or levels raise :class:`~corefkit.errors.UsageError`, paths that
    name nothing to read (missing, a link loop, a pipe, a folder without files of a known
    format) :class:`~corefkit.converters.paths.InputError`; problems of a file's content never
    raise, they are findings.
    """
    run = Run(format=format, level=level, include_only=include_only, exclude=exclude,
              max_errors=max_errors, read_options=read_options, jobs=jobs)
    for _ in iterate(run, paths):
        pass
    return run.result


def _file_findings(settings: dict[str, Any], item: tuple[str, str]) -> tuple[list[Finding], int]:
    """A worker's share: the findings of one file and its number of documents."""
    run = Run(**settings)
    file, fmt = item
    findings = list(run.file(file, fmt))
    return findings, run.result.documents


def iterate(run: Run, paths: Any, observer: Observer | None = None) -> Iterator[Finding]:
    """The findings of ``run`` over ``paths`` as they are found (the CLI prints them so)."""
    items = _as_items(paths)
    if items and all(isinstance(item, Document) for item in items):
        yield from run.documents(items, observer=observer)
    elif any(isinstance(item, Document) for item in items):
        raise UsageError("give either paths or Document objects, not both")
    else:
        yield from run.paths(items, observer)


def _as_items(paths: Any) -> list[Any]:
    if isinstance(paths, (str, os.PathLike, Document)):
        return [paths]
    return list(paths)


__all__ = ["Run", "ValidationResult", "iterate", "validate"]
