"""What ``validate`` calls an error, every command refuses: the checks run while reading.

Readers report what they repair or reject through the registry's check ids
(:mod:`corefkit.checks.registry`), and strict reading refuses every repair whose check is an
error (:func:`corefkit.converters.registry.read`). The checks that look at the document a
reader made — the model checks (:mod:`corefkit.checks.model`) and each format's own
(``converters/<format>/checks.py``) — run here, on every document a command reads
(``score``, ``compare``, ``analyze``, ``report``, ``task``, ``convert``, ``normalize``,
``stats``), with the same ids, levels and severities as in ``validate``:

* strict (the default): the first error stops the command, as a :class:`FormatError` naming
  file, line, check id, document and sentence;
* lenient (``--lenient``): each error becomes a warning on the document (nothing is repaired:
  these checks describe, they do not change the document), and the command goes on.

Warnings of these checks are left to ``validate`` (commands show the warnings of their
readers), except those a format announces (``FormatPlugin.announced``): these are added to the
document's repairs, strict or lenient.
"""

from __future__ import annotations

import contextvars
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from corefkit.checks.model import ModelChecks
from corefkit.checks.plugins import FileChecks, FormatPlugin, Incident
from corefkit.checks.registry import Finding, get_check, unregistered
from corefkit.errors import FormatError, Repair
from corefkit.model import Document

LEVEL = 3  # what validate runs by default: every level

# the checks a task leaves out ([validation] exclude): neither refused nor reported while
# reading inside :func:`excluding`
_EXCLUDED: contextvars.ContextVar[frozenset[str]] = \
    contextvars.ContextVar("excluded", default=frozenset())


@contextmanager
def excluding(checks: Iterable[str]) -> Iterator[None]:
    """Read inside this block, the ``checks`` (ids) are neither refused nor reported: what a
    task's ``[validation] exclude`` leaves out of validation, its scoring leaves out too."""
    token = _EXCLUDED.set(_EXCLUDED.get() | frozenset(checks))
    try:
        yield
    finally:
        _EXCLUDED.reset(token)


def excluded(check: str) -> bool:
    """Whether ``check`` is left out of reading here (:func:`excluding`)."""
    return check in _EXCLUDED.get()


def make_finding(incident: Incident, plugin: FormatPlugin, doc: Document | None,
                 file: str) -> Finding | None:
    """The finding of an incident, as ``validate`` makes it at its default level (the ids a
    plugin renames, registered severity and level), or None above that level."""
    check_id = plugin.renamed.get(incident.check, incident.check)
    check = get_check(check_id) or unregistered(check_id, rejected=False)
    if check.level > LEVEL:
        return None
    document = incident.document if incident.document is not None else (
        doc.name if doc is not None else None)
    return Finding(check.level, check.severity, check.id,
                   incident.file or (doc.file if doc is not None and doc.file else file),
                   incident.line, document, incident.sentence, incident.message,
                   check.explanation)


class Gate:
    """The validator's checks over the documents of one file, as a command reads them."""

    def __init__(self, file: str, plugin: FormatPlugin, lenient: bool) -> None:
        self.file = file
        self.lenient = lenient
        self.plugin = plugin
        self.checks: list[FileChecks] = [ModelChecks(file, self.plugin, errors_only=True)]
        if self.plugin.file_checks is not None:
            self.checks.append(self.plugin.file_checks(file))
        for check in self.checks:
            check.errors_only = True

    def document(self, doc: Document) -> None:
        """Refuse the document's first error (strict), or add each error to its repairs as a
        warning (lenient); announced warnings are added to its repairs either way."""
        for finding in self._errors(doc):
            self._handle(finding, doc)

    def finish(self, last: Document | None) -> None:
        """The checks that look at a whole file, once it is read: refused, or warnings on the
        ``last`` document."""
        for check in self.checks:
            for incident in check.finish():
                finding = make_finding(incident, self.plugin, None, self.file)
                if finding is not None and self._shown(finding):
                    self._handle(finding, last)

    def _errors(self, doc: Document) -> Iterator[Finding]:
        for check in self.checks:
            for incident in check.document(doc):
                finding = make_finding(incident, self.plugin, doc, self.file)
                if finding is not None and self._shown(finding):
                    yield finding

    def _shown(self, finding: Finding) -> bool:
        if excluded(finding.check):
            return False
        return finding.is_error or finding.check in self.plugin.announced

    def _handle(self, finding: Finding, doc: Document | None) -> None:
        context = [f"document {finding.document}"] if finding.document is not None else []
        if finding.sentence is not None:
            context.append(f"sentence {finding.sentence}")
        where = f" ({', '.join(context)})" if context else ""
        if not finding.is_error:
            if doc is not None:
                doc.repairs.append(Repair(finding.check, finding.message,
                                          finding.file, finding.line, None, finding.document,
                                          "kept"))
            return
        if not self.lenient or doc is None:
            raise FormatError(f"{finding.message}{where}; fix the input, or pass --lenient to "
                              "read it anyway", file=finding.file, line=finding.line,
                              check=finding.check)
        doc.repairs.append(Repair(finding.check, f"{finding.message}{where}; read anyway "
                                  "(--lenient)", finding.file, finding.line, None,
                                  finding.document, "kept"))


def gated(documents: Iterator[Document], file: str, plugin: FormatPlugin,
          lenient: bool) -> Iterator[Document]:
    """``documents`` (of one file, read by ``plugin``'s format) through a :class:`Gate`. A document is
    passed on once the next one is read, so that the checks of the whole file can still add
    their warnings to the last one."""
    gate = Gate(file, plugin, lenient)
    last: Document | None = None
    for doc in documents:
        gate.document(doc)
        if last is not None:
            yield last
        last = doc
    gate.finish(last)
    if last is not None:
        yield last


__all__ = ["Gate", "excluded", "excluding", "gated"]
