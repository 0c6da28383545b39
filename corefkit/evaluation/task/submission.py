"""The submissions of a shared task, one at a time: finding them, reading and checking the
gold, accepting or refusing a submission (validation, then strict pairing with the gold), and
scoring it with the task's setting. :mod:`~corefkit.evaluation.task.runner` (one dataset) and
:mod:`~corefkit.evaluation.task.datasets` (many) are built on these.
"""

from __future__ import annotations

import fnmatch
import os
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import WARNING, Finding
from corefkit.converters.paths import InputError, confined
from corefkit.errors import CorefkitError, Repair, UsageError, counted
from corefkit.evaluation.task.leaderboard import Entry, Rejection
from corefkit.evaluation.task.spec import Task
from corefkit.model import Document
from corefkit.validation.engine import STOPPED, Run, iterate
from corefkit.validation.pair import DOCUMENTS as PAIR_DOCUMENTS
from corefkit.validation.pair import NO_PLUGIN
from corefkit.validation.pair import _Side as DocumentSummary
from corefkit.validation.pair import compare as pair_incidents


@dataclass(frozen=True)
class Submission:
    name: str
    path: str
    refused: str | None = None  # why it is not read at all (a symbolic link, a device, ...)


@dataclass(frozen=True)
class Prepared:
    """What every submission is checked and scored against."""

    gold_format: str
    submission_format: str | None       # None: detected per file
    metrics: tuple[str, ...]            # scored: the setting's, ranking metrics, components
    gold: tuple[DocumentSummary, ...]
    documents: int


# ============================================================================ the gold
def prepare(task: Task) -> Prepared:
    """Resolve the setting and read and check the gold (an error if it does not pass the
    task's validation level: every submission would be measured against it)."""
    from corefkit.converters.registry import expand_paths, get
    from corefkit.scoring.config import ScoreConfig
    from corefkit.scoring.metrics.registry import parse_metrics

    from corefkit.converters.paths import input_kind

    try:
        input_kind(task.gold)
    except InputError as exc:
        raise InputError(f"the gold: {exc}") from None
    gold_format = get(task.gold_format).name if task.gold_format else \
        expand_paths(task.gold)[0][1]
    wanted = task.submissions.format
    submission_format = None if wanted == "auto" else get(wanted or gold_format).name
    options = {k: v for k, v in task.scoring.items()
               if k not in ("passes", "read_options", "align")}
    config = ScoreConfig.build(detected_format=gold_format, **options)
    names = list(config.metrics) + [k.metric for k in task.ranking]
    if task.primary.metric == "conll" and task.significance.test != "none":
        names += ["muc", "bcub", "ceafe"]  # the test resamples conll from its components
    metrics = tuple(parse_metrics(list(dict.fromkeys(names)), config.semantics))
    # every level: scoring refuses a gold with an error of any level, and a problem of the
    # gold is the task's, not each submission's
    run = Run(format=gold_format, level=3, exclude=task.exclude,
              read_options=task.scoring.get("read_options"))
    summaries: list[DocumentSummary] = []

    def observe(doc: Document, plugin: FormatPlugin, file: str) -> None:
        summaries.append(DocumentSummary.of(doc, plugin, file))

    for _ in iterate(run, task.gold, observe):
        pass
    errors = [f for f in run.result if f.is_error]
    if errors:
        shown = "; ".join(f.to_text() for f in errors[:task.show])
        raise CorefkitError(f"the gold {task.gold} does not pass validation "
                            f"({counted(len(errors), 'error')}): {shown}; fix it, or leave the "
                            "checks out with [validation] exclude")
    return Prepared(gold_format, submission_format, metrics, tuple(summaries), len(summaries))


# ============================================================================ submissions
def discover(directory: str, task: Task) -> tuple[list[Submission], list[Repair]]:
    """The submissions in ``directory`` (sorted by name) and notes on what was left out.

    Submissions are untrusted: an entry that is a symbolic link, or not a regular file or
    folder, or a folder holding one, is a submission refused without being read
    (:func:`untrusted_entry`), so that no link can make the gold or a private file count as
    a submission or show in the leaderboard."""
    from corefkit.converters.paths import input_kind, list_folder

    if input_kind(directory) != "folder":  # a path that cannot be read: InputError, exit 1
        raise UsageError(f"{directory}: not a folder of submissions")
    layout = task.submissions
    kind = "folder" if layout.layout == "folder" else "file"
    found: list[tuple[str, str, str | None]] = []
    notes: list[Repair] = []
    for entry in list_folder(directory):
        full = os.path.join(directory, entry)
        if entry.startswith(".") or (layout.pattern and not fnmatch.fnmatch(entry, layout.pattern)):
            continue
        refused = untrusted_entry(full)
        if refused is None and os.path.isdir(full) != (kind == "folder"):
            notes.append(Repair("task.ignored", f"{entry} is not a {kind} (layout "
                                f"{layout.layout}): not a submission", file=full,
                                action="ignored"))
            continue
        found.append((entry, full, refused))
    if not found:
        what = f" matching {layout.pattern!r}" if layout.pattern else ""
        raise UsageError(f"{directory}: no submission {kind}{what} in it (layout "
                         f"{layout.layout})")
    stems = [os.path.splitext(e)[0] if layout.layout == "file" else e for e, _, _ in found]
    names = [s if stems.count(s) == 1 else e for s, (e, _, _) in zip(stems, found)]
    return [Submission(n, p, r) for n, (_, p, r) in zip(names, found)], notes


def refusal(submission: Submission) -> Rejection | None:
    """The rejection of a submission refused unread (:func:`untrusted_entry`), or None."""
    if submission.refused is None:
        return None
    return Rejection(submission.name, submission.path, "refused", submission.refused, errors=1)


def untrusted_entry(path: str) -> str | None:
    """Why the submission ``path`` is refused unread, or None: a symbolic link (whatever it
    points to: the message never says), anything but a regular file or folder, or a folder
    holding a symbolic link or such a file (at any depth) or one that cannot be listed."""
    import stat

    try:
        info = os.lstat(path)
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(info.st_mode):
        return "is a symbolic link; a submission must be a file or folder inside the " \
               "submissions folder, not a link (not read)"
    if stat.S_ISREG(info.st_mode):
        return None
    if not stat.S_ISDIR(info.st_mode):
        return "is not a regular file or folder (a pipe, socket or device; not read)"
    problems: list[str] = []
    for root, dirs, files in os.walk(path, onerror=lambda exc: problems.append(
            f"{os.path.relpath(str(exc.filename), path)} cannot be listed")):
        for name in sorted(dirs + files):
            try:
                mode = os.lstat(os.path.join(root, name)).st_mode
            except OSError:
                mode = 0  # vanished or unreadable: refused below as not a file or folder
            inside = os.path.relpath(os.path.join(root, name), path)
            if stat.S_ISLNK(mode):
                problems.append(f"{inside} is a symbolic link")
            elif not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                problems.append(f"{inside} is not a regular file or folder")
        if problems:
            break
    if problems:
        return (f"the folder holds what is not read: {problems[0]}; a submission holds only "
                "files and folders, no links (not read)")
    return None


def check_submission(submission: Submission, task: Task, prepared: Prepared
                     ) -> list[Finding] | Rejection:
    """Validation, then pairing with the gold: the warnings found, or the rejection."""
    run = Run(format=prepared.submission_format, level=task.level, exclude=task.exclude,
              read_options=task.scoring.get("read_options"))
    summaries: list[DocumentSummary] = []

    def observe(doc: Document, plugin: FormatPlugin, file: str) -> None:
        summaries.append(DocumentSummary.of(doc, plugin, file))

    try:
        with confined(os.path.dirname(submission.path)):  # nothing read outside, no link
            for _ in iterate(run, submission.path, observe):
                pass
    except UsageError as exc:  # a folder without a file of the format
        return Rejection(submission.name, submission.path, "layout", str(exc), errors=1)
    except InputError as exc:  # a path that cannot be read: named, never its content
        return Rejection(submission.name, submission.path, "refused", str(exc), errors=1)
    checked = list(run.result)
    if task.track == "llm":  # the answer's own format repaired, as the track repairs it
        checked = [_repaired(f, prepared.submission_format) for f in checked]
    if any(f.is_error for f in checked):
        return _rejection(submission, "validation", checked, task.show)
    pairing = Run(level=1)  # the pair checks always run: they are what makes scores comparable
    incidents = pair_incidents(list(prepared.gold), summaries)
    if task.scoring.get("align"):  # aligned to the gold's words: only the documents must pair
        incidents = [i for i in incidents if i.check == PAIR_DOCUMENTS]
        if _pairs_by_content(prepared.submission_format):
            incidents = []  # unnamed (LLM answers, a line each): the scorer pairs by content
    found = [pairing.make_finding(incident, NO_PLUGIN, None, incident.file or "")
             for incident in incidents]
    findings = [f for f in found if f is not None]
    if any(f.is_error for f in findings):
        return _rejection(submission, "pairing", findings, task.show)
    return [*checked, *findings]


def _repaired(finding: Finding, answer_format: str | None) -> Finding:
    """On the LLM track, a repair of the answer's format (a bracket, a tag's case, a mention
    never closed: what text2text-coref's ``clean`` repairs) is a warning, not a refusal; an
    answer the lenient reader could not read to its end stays an error."""
    if not finding.is_error or answer_format is None \
            or not finding.check.startswith(answer_format + ".") \
            or finding.message.endswith(STOPPED):
        return finding
    return replace(finding, severity=WARNING)


def _pairs_by_content(name: str | None) -> bool:
    if name is None:
        return False
    from corefkit.converters.registry import get

    return bool(get(name).pairs_by_content)


def _rejection(submission: Submission, stage: str, findings: list[Finding], show: int
               ) -> Rejection:
    errors = [f for f in findings if f.is_error]
    return Rejection(submission.name, submission.path, stage, errors[0].to_text(),
                     tuple(errors[:show]), len(errors), len(findings) - len(errors))


def score_submission(submission: Submission, task: Task, prepared: Prepared, warnings: int,
                     engine: dict[str, Any]) -> Entry | Rejection:
    """The scored entry (values of the ranking keys as exact fractions), or the rejection
    when the scorer refuses the submission."""
    from corefkit.evaluation.significance import exact_score
    from corefkit.scoring.api import score

    options = score_options(task)
    try:
        # the submission as it was checked: inside its folder, no link (the gold is trusted)
        with confined(os.path.dirname(submission.path), task.gold), \
                excluded_checks(task):
            report = score(task.gold, submission.path, list(prepared.metrics),
                           key_format=prepared.gold_format,
                           response_format=prepared.submission_format, per_document=True,
                           **options, **engine)
    except UsageError:
        raise
    except CorefkitError as exc:
        return Rejection(submission.name, submission.path, "scoring", str(exc), errors=1)
    values: dict[str, Fraction] = {}
    for key in task.ranking:
        value = exact_score(report, key.metric, key.score)
        if value is None:
            raise UsageError(f"[ranking]: {key.label} has no value to rank by")
        values[key.label] = Fraction(value)
    return Entry(submission.name, submission.path, report, values, warnings)


def excluded_checks(task: Task) -> AbstractContextManager[None]:
    """The block in which a submission is scored: what the task's validation leaves out
    (``[validation] exclude``, and the checks above its ``level``) scoring's reading leaves
    out too, so that a submission validation accepted is scored, not refused by the reader.
    The gold was validated at every level (:func:`prepare`)."""
    from corefkit.converters.gate import excluding
    from corefkit.validation.catalog import all_checks, expand_patterns

    above = {check.id for check in all_checks() if check.level > task.level}
    return excluding(expand_patterns(task.exclude, "[validation] exclude") | above)


def score_options(task: Task) -> dict[str, Any]:
    """The keyword options of :func:`corefkit.score` for a submission of ``task``: its
    setting, and on the LLM track the answers read leniently (each repair a warning)."""
    options = {k: v for k, v in task.scoring.items() if k != "metrics"}
    if task.track == "llm":
        options["lenient"] = True
    return options


# ============================================================================ rows
def document_rows(entry: Entry, task: Task) -> dict[str, np.ndarray]:
    """The primary metric's count vector of every document (name -> row)."""
    from corefkit.evaluation.significance import statistic

    try:
        stat = statistic(task.primary.metric, entry.report)
    except UsageError as exc:
        raise UsageError(f"[significance]: cannot test {task.primary.label}: {exc}; rank by "
                         "another primary metric or set test = \"none\"") from None
    return {d.name: np.array(stat.row(d.metrics), dtype=np.float64)
            for d in entry.report.per_document or []}
