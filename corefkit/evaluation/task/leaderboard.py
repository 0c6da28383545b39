"""The leaderboard of a shared task and its renderings: table, CSV, JSON, output folder.

``leaderboard.json`` (schema ``corefkit/schemas/leaderboard.schema.json``) holds everything
the table and the CSV show, and ``reports/NAME.json`` each ranked submission's full score
report (``score-report.schema.json``, per document). They are what a report builder reads:
an HTML report is one more renderer registered with :func:`register_output`, e.g.
``register_output("leaderboard.html", render_html)``, written by :func:`write_outputs` into
the same folder with the others.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.checks.registry import Finding
from corefkit.errors import Repair, counted
from corefkit.evaluation.compare import csv_cell
from corefkit.evaluation.task.spec import Task
from corefkit.scoring.report import ScoreReport, fraction_text

STAGES = ("layout", "validation", "pairing", "scoring")


@dataclass(frozen=True)
class AdjacentTest:
    """The paired test of a submission against the next one in the ranking (primary value)."""

    other: str
    metric: str
    difference: float               # this submission's value minus the other's
    p_value: float | None           # the permutation test's (None: bootstrap test only)
    permutations: int | None
    exact: bool | None              # every assignment enumerated (2^documents ≤ permutations)
    ci_low: float | None            # paired bootstrap interval of the difference at 1 − α
    ci_high: float | None
    significant: bool

    def to_json(self) -> dict[str, Any]:
        return {"other": self.other, "metric": self.metric, "difference": self.difference,
                "p_value": self.p_value, "permutations": self.permutations,
                "exact": self.exact, "ci_low": self.ci_low, "ci_high": self.ci_high,
                "significant": self.significant}


@dataclass
class Entry:
    """A ranked submission."""

    name: str
    path: str
    report: ScoreReport
    values: dict[str, Fraction]     # ranking label (conll, muc.recall) -> exact value
    validation_warnings: int = 0
    rank: int = 0
    cluster: int | None = None      # 1 + significant differences above it (None: no test)
    versus_next: AdjacentTest | None = None

    def to_json(self) -> dict[str, Any]:
        report = self.report.to_json()
        return {
            "rank": self.rank, "cluster": self.cluster, "name": self.name, "path": self.path,
            "values": {k: float(v) for k, v in self.values.items()},
            "exact": {k: fraction_text(v) for k, v in self.values.items()},
            "documents": self.report.documents, "metrics": report["metrics"],
            "validation_warnings": self.validation_warnings, "warnings": report["warnings"],
            "versus_next": self.versus_next.to_json() if self.versus_next else None,
        }


@dataclass(frozen=True)
class Rejection:
    """A submission that was not scored, and why (``stage``: refused — not read at all: a
    symbolic link, a device —, layout, validation, pairing, scoring; ``findings``: the
    first few errors)."""

    name: str
    path: str
    stage: str
    reason: str
    findings: tuple[Finding, ...] = ()
    errors: int = 0
    warnings: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "path": self.path, "stage": self.stage,
                "reason": self.reason, "errors": self.errors, "warnings": self.warnings,
                "findings": [f.to_json() for f in self.findings]}


@dataclass
class Leaderboard:
    """Everything ``corefkit task`` found."""

    task: Task
    submissions: str
    documents: int
    metrics: list[str]
    entries: list[Entry]
    rejected: list[Rejection]
    options: dict[str, Any] = field(default_factory=dict)   # the scoring options reported
    warnings: list[Repair] = field(default_factory=list)
    version: str = ""

    def entry(self, name: str) -> Entry:
        return next(e for e in self.entries if e.name == name)

    def rejection(self, name: str) -> Rejection:
        return next(r for r in self.rejected if r.name == name)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "corefkit_version": self.version,
            "task": {**self.task.to_json(), "submissions_folder": self.submissions},
            "documents": self.documents,
            "metrics": list(self.metrics),
            "options": self.options,
            "entries": [e.to_json() for e in self.entries],
            "rejected": [r.to_json() for r in self.rejected],
            "warnings": [str(w) for w in self.warnings],
        }

    # ------------------------------------------------------------------ table
    def columns(self) -> list[str]:
        """The table's value columns: the ranking values, then the other metrics' F1."""
        labels = [k.label for k in self.task.ranking]
        return labels + [m for m in self.metrics if m not in labels]

    def to_table(self) -> str:
        task, sig = self.task, self.task.significance
        setting = task.scoring.get("profile") or self.options.get("semantics", "")
        ranked_by = ", then ".join(_key_text(k.label) for k in task.ranking)
        lines = [f"task: {task.name or task.file or '-'}",
                 (f"gold: {_shown(task.gold)} ({counted(self.documents, 'document')}; {setting}); "
                  f"submissions: {_shown(self.submissions)}"),
                 f"ranked by {ranked_by}; {_test_text(task)}", ""]
        columns = self.columns()
        width = max([len(e.name) for e in self.entries] + [10])
        widths = [max(len(c), 7) for c in columns]
        head = f"{'rank':>4} {'grp':>3}  {'submission':<{width}}" + "".join(
            f" {c:>{w}}" for c, w in zip(columns, widths))
        if sig.test != "none":
            head += f" {'p(next)':>8}  sig"
        lines += [head, "-" * len(head)]
        for e in self.entries:
            row = f"{e.rank:>4} {e.cluster or '':>3}  {e.name:<{width}}"
            for c, w in zip(columns, widths):
                value = e.values.get(c)
                row += f" {_percent(value if value is not None else _f1(e.report, c)):>{w}}"
            test = e.versus_next
            if test is not None:
                p = f"{test.p_value:.4f}" if test.p_value is not None else "-"
                row += f" {p:>8}  {'*' if test.significant else ''}"
            lines.append(row.rstrip())
        if not self.entries:
            lines.append("(no submission could be scored)")
        if sig.test != "none" and self.entries:
            lines += ["", ("sig *: significantly better than the next submission; grp: "
                           "submissions with no significant difference between them")]
        lines += self._rejected_lines()
        return "\n".join(lines) + "\n"

    def _rejected_lines(self) -> list[str]:
        if not self.rejected:
            return []
        lines = ["", f"rejected ({len(self.rejected)}, not scored):"]
        for r in self.rejected:
            more = r.errors - 1
            tail = f" (+{more} more error{'s' if more > 1 else ''})" if more > 0 else ""
            lines.append(f"  {r.name}: {r.stage}: {r.reason}{tail}")
        return lines

    # ------------------------------------------------------------------ CSV
    def csv_columns(self) -> list[str]:
        """rank, cluster, submission, status, path, the ranking values (``METRIC.SCORE``),
        every other score, the test against the next submission, and why a submission was
        rejected."""
        ranking = [f"{k.metric}.{k.score}" for k in self.task.ranking]
        scores = [f"{m}.{s}" for m in self.metrics
                  for s in (("f1",) if m == "conll" else ("recall", "precision", "f1"))]
        return (["rank", "cluster", "submission", "status", "path"] + ranking
                + [s for s in scores if s not in ranking]
                + ["p_value_next", "significant_next", "ci_low_next", "ci_high_next",
                   "stage", "reason"])

    def to_csv(self) -> str:
        """One row per ranked submission (status ``ranked``), then one per rejected one."""
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        columns = self.csv_columns()
        writer.writerow(columns)
        for e in self.entries:
            row: dict[str, Any] = {"rank": e.rank, "cluster": e.cluster, "submission": e.name,
                                   "status": "ranked", "path": e.path}
            for name, result in e.report.metrics.items():
                for part in ("recall", "precision", "f1"):
                    value = getattr(result, part, None) if name != "conll" or part == "f1" \
                        else None
                    if value is not None:
                        row[f"{name}.{part}"] = float(value)
            if e.versus_next is not None:
                t = e.versus_next
                row.update(p_value_next=t.p_value, significant_next=t.significant,
                           ci_low_next=t.ci_low, ci_high_next=t.ci_high)
            writer.writerow([csv_cell(row.get(c)) for c in columns])
        for r in self.rejected:
            writer.writerow([csv_cell({"submission": r.name, "status": "rejected", "path": r.path,
                                   "stage": r.stage, "reason": r.reason}.get(c))
                             for c in columns])
        return buffer.getvalue()


# ============================================================================ output folder
Renderer = Callable[[Leaderboard], str]
OUTPUTS: dict[str, Renderer] = {}


def register_output(name: str, render: Renderer) -> None:
    """Write ``render(leaderboard)`` as ``name`` in every output folder (the HTML report's
    hook); a later registration of the same name replaces the earlier one."""
    OUTPUTS[name] = render


def _json_text(board: Leaderboard) -> str:
    import json

    return json.dumps(board.to_json(), indent=2, ensure_ascii=False) + "\n"


register_output("leaderboard.json", _json_text)
register_output("leaderboard.csv", Leaderboard.to_csv)
register_output("leaderboard.txt", Leaderboard.to_table)


def write_outputs(board: Leaderboard, directory: str | os.PathLike[str]) -> list[str]:
    """Write every registered output and ``reports/NAME.json`` per ranked submission into
    ``directory`` (created, or replaced when it holds an earlier leaderboard; atomically).
    Returns the files written, relative to the folder."""
    import json

    from corefkit.converters.io import atomic_directory_output

    written = []
    with atomic_directory_output(directory, replaceable=_earlier_output) as tmp:
        for name, render in OUTPUTS.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="\n") as out:
                out.write(render(board))
            written.append(name)
        if board.entries:
            os.mkdir(os.path.join(tmp, "reports"))
        for e in board.entries:
            name = f"reports/{e.name}.json"
            with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="\n") as out:
                json.dump(e.report.to_json(), out, indent=2, ensure_ascii=False)
                out.write("\n")
            written.append(name)
    return written


def _earlier_output(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "leaderboard.json"))


def check_output(directory: str | os.PathLike[str]) -> None:
    """Refuse, before any submission is read, an output folder :func:`write_outputs` would
    refuse: a file, or a folder holding other files than an earlier leaderboard."""
    from corefkit.errors import CorefkitError

    text = os.fspath(directory)
    parent = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(parent):
        raise CorefkitError(f"{text}: the directory {parent} does not exist")
    if os.path.lexists(text) and (not os.path.isdir(text) or os.path.islink(text)):
        raise CorefkitError(f"{text}: exists and is not a directory")
    if os.path.isdir(text) and os.listdir(text) and not _earlier_output(text):
        raise CorefkitError(f"{text}: the directory exists and holds files corefkit did not "
                            "write; give a new or empty directory")


# ============================================================================ helpers
def _f1(report: ScoreReport, metric: str) -> Fraction | None:
    result = report.metrics.get(metric)
    if result is None:
        return None
    value = result.f1
    return value if isinstance(value, (int, Fraction)) else None


def _shown(path: str) -> str:
    """A path as the table shows it: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path) if os.path.isabs(path) else path
    except ValueError:  # another drive (Windows)
        return path
    return path if relative.startswith("..") else relative


def _percent(value: Fraction | None) -> str:
    return "n/a" if value is None else f"{100 * float(value):.2f}"


def _key_text(label: str) -> str:
    metric, _, score = label.partition(".")
    return f"{metric} {'F1' if not score or score == 'f1' else score}"


def _test_text(task: Task) -> str:
    sig = task.significance
    if sig.test == "none":
        return "no significance test"
    rule = ("p ≤ α" if sig.test == "permutation"
            else f"the {100 * (1 - sig.alpha):g}% bootstrap interval of the difference excludes 0")
    return (f"{sig.test} test over documents between neighbours on {task.primary.label} "
            f"(α = {sig.alpha:g}, significant when {rule}; {sig.permutations} permutations, "
            f"{sig.bootstrap} bootstrap replicates, seed {sig.seed})")
