"""The leaderboard of a multi-dataset task and its renderings: the macro-averaged ranking
(primary value, variants, test against the next submission), one table per dataset, CSV and
JSON (``leaderboard.schema.json``: ``datasets`` and each entry's ``per_dataset``), and the
output folder (``leaderboard.json``, ``.csv``, ``.txt``, ``reports/NAME/DATASET.json``).
"""

from __future__ import annotations

import csv
import io
import json
import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.errors import Repair
from corefkit.evaluation.compare import csv_cell
from corefkit.evaluation.task.datasets import DatasetEntry, strata_table
from corefkit.evaluation.task.leaderboard import AdjacentTest, Rejection, _earlier_output
from corefkit.evaluation.task.spec import Dataset, Task
from corefkit.scoring.report import fraction_text


@dataclass
class DatasetLeaderboard:
    """Everything ``corefkit task`` found for a task with several datasets."""

    task: Task
    submissions: str
    datasets: list[tuple[Dataset, int]]          # each dataset and its gold documents
    metrics: list[str]
    entries: list[DatasetEntry]
    rejected: list[Rejection]
    options: dict[str, Any] = field(default_factory=dict)
    warnings: list[Repair] = field(default_factory=list)
    version: str = ""

    @property
    def documents(self) -> int:
        return sum(n for _, n in self.datasets)

    def entry(self, name: str) -> DatasetEntry:
        return next(e for e in self.entries if e.name == name)

    def rejection(self, name: str) -> Rejection:
        return next(r for r in self.rejected if r.name == name)

    def columns(self) -> list[str]:
        return [k.label for k in self.task.ranking] + [v.name for v in self.task.variants]

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict[str, Any]:
        return {
            "corefkit_version": self.version,
            "task": {**self.task.to_json(), "submissions_folder": self.submissions},
            "documents": self.documents,
            "datasets": [{"name": d.name, "gold": d.gold, "file": d.file_name, "documents": n}
                         for d, n in self.datasets],
            "metrics": list(self.metrics),
            "options": self.options,
            "entries": [_entry_json(e, self.task) for e in self.entries],
            "rejected": [r.to_json() for r in self.rejected],
            "warnings": [str(w) for w in self.warnings],
            "strata": {d: {n: {b: float(v) for b, v in r.items()} for n, r in rows.items()}
                       for d, rows in self.strata().items()},
        }

    # ------------------------------------------------------------------ table
    def to_table(self) -> str:
        task = self.task
        primary = task.primary.label
        lines = [f"task: {task.name or task.file or '-'}",
                 (f"{len(self.datasets)} datasets, {self.documents} documents; "
                  f"{task.scoring.get('profile') or self.options.get('semantics', '')}; "
                  f"ranked by the macro-average over datasets of {primary}; "
                  f"{_test_text(task)}"), ""]
        lines += self._table("macro-average over datasets", {e.name: e.values | e.variants
                                                             for e in self.entries},
                             {e.name: e.versus_next for e in self.entries}, ranked=True)
        for dataset, documents in self.datasets:
            values = {e.name: e.results[dataset.name].values for e in self.entries}
            tests = {e.name: e.per_dataset_tests.get(dataset.name) for e in self.entries}
            lines += ["", *self._table(f"dataset {dataset.name} ({documents} documents)", values,
                                       tests, ranked=False, dataset=dataset.name)]
        lines += self._strata_lines()
        if self.rejected:
            lines += ["", f"rejected ({len(self.rejected)}, not scored):"]
            lines += [f"  {r.name}: {r.stage}: {r.reason}" for r in self.rejected]
        return "\n".join(lines) + "\n"

    def _table(self, title: str, values: dict[str, dict[str, Fraction]],
               tests: dict[str, AdjacentTest | None], ranked: bool,
               dataset: str | None = None) -> list[str]:
        columns = self.columns()
        width = max([len(e.name) for e in self.entries] + [10])
        widths = [max(len(c), 7) for c in columns]
        head = (f"{'rank':>4} {'grp':>3}  " if ranked else "") + f"{'submission':<{width}}" + \
            "".join(f" {c:>{w}}" for c, w in zip(columns, widths))
        with_tests = self.task.significance.test != "none"
        if with_tests:
            head += f" {'p(next)':>8}  sig"
        lines = [title, head, "-" * len(head)]
        for e in self.entries:
            row = (f"{e.rank:>4} {e.cluster or '':>3}  " if ranked else "") + f"{e.name:<{width}}"
            row += "".join(f" {100 * float(values[e.name][c]):>{w}.2f}"
                           for c, w in zip(columns, widths))
            test = tests.get(e.name)
            if with_tests and test is not None:
                p = f"{test.p_value:.4f}" if test.p_value is not None else "-"
                row += f" {p:>8}  {'*' if test.significant else ''}"
            if dataset is not None and e.results[dataset].missing:
                row += "  (missing: counted 0)"
            elif dataset is None and e.missing:
                row += f"  (missing: {', '.join(e.missing)})"
            lines.append(row.rstrip())
        if not self.entries:
            lines.append("(no submission could be scored)")
        return lines

    def strata(self) -> dict[str, dict[str, dict[str, Fraction]]]:
        """dimension -> submission -> bucket -> CoNLL F1 averaged over the datasets
        (:func:`~corefkit.evaluation.task.datasets.strata_table`); empty without strata."""
        from corefkit.scoring.metrics.strata import dimensions

        if not self.task.strata:
            return {}
        return {d: {e.name: strata_table(e, d) for e in self.entries}
                for d in dimensions(self.task.strata)}

    def _strata_lines(self) -> list[str]:
        from corefkit.scoring.metrics.strata import TITLES, _sorted_labels

        lines: list[str] = []
        for dimension, rows in self.strata().items():
            buckets = _sorted_labels(tuple(dict.fromkeys(b for r in rows.values() for b in r)))
            width = max([len(n) for n in rows] + [10])
            head = f"{'submission':<{width}}" + "".join(f" {b:>7}" for b in buckets)
            lines += ["", f"long range: CoNLL F1 by {TITLES[dimension]}, averaged over the "
                      "datasets with key mentions in the bucket", head, "-" * len(head)]
            for name, values in rows.items():
                lines.append(f"{name:<{width}}" + "".join(
                    f" {100 * float(values[b]):>7.2f}" if b in values else f" {'-':>7}"
                    for b in buckets))
        return lines

    # ------------------------------------------------------------------ CSV
    def to_csv(self) -> str:
        """One row per (ranked submission, dataset) with the dataset ``macro`` first, then
        one per rejected submission."""
        columns = (["rank", "cluster", "submission", "status", "dataset", "missing"]
                   + self.columns() + ["p_value_next", "significant_next", "ci_low_next",
                                       "ci_high_next", "stage", "reason"])
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        for e in self.entries:
            rows = [("macro", e.values | e.variants, e.versus_next, bool(e.missing))]
            rows += [(d, r.values, e.per_dataset_tests.get(d), r.missing)
                     for d, r in e.results.items()]
            for dataset, values, test, missing in rows:
                row: dict[str, Any] = {"rank": e.rank, "cluster": e.cluster, "submission": e.name,
                                       "status": "ranked", "dataset": dataset, "missing": missing}
                row.update({c: float(values[c]) for c in self.columns()})
                if test is not None:
                    row.update(p_value_next=test.p_value, significant_next=test.significant,
                               ci_low_next=test.ci_low, ci_high_next=test.ci_high)
                writer.writerow([csv_cell(row.get(c)) for c in columns])
        for r in self.rejected:
            writer.writerow([csv_cell({"submission": r.name, "status": "rejected",
                                       "stage": r.stage, "reason": r.reason}.get(c))
                             for c in columns])
        return buffer.getvalue()


def _entry_json(e: DatasetEntry, task: Task) -> dict[str, Any]:
    per_dataset = {}
    for name, r in e.results.items():
        report = r.entry.report.to_json() if r.entry is not None else None
        per_dataset[name] = {
            "missing": r.missing, "file": os.path.basename(r.path) if r.path else None,
            "values": {k: float(v) for k, v in r.values.items()},
            "exact": {k: fraction_text(v) for k, v in r.values.items()},
            "documents": r.entry.report.documents if r.entry is not None else 0,
            "metrics": report["metrics"] if report else {},
            "versus_next": e.per_dataset_tests[name].to_json()
            if name in e.per_dataset_tests else None,
        }
    values = e.values | e.variants
    return {
        "rank": e.rank, "cluster": e.cluster, "name": e.name, "path": e.path,
        "values": {k: float(v) for k, v in e.values.items()},
        "exact": {k: fraction_text(v) for k, v in e.values.items()},
        "variants": {k: float(v) for k, v in e.variants.items()},
        "variants_exact": {k: fraction_text(v) for k, v in e.variants.items()},
        "documents": sum(d["documents"] for d in per_dataset.values()),
        "metrics": {}, "validation_warnings": sum(
            r.entry.validation_warnings for r in e.results.values() if r.entry is not None),
        "warnings": list(e.warnings), "missing": e.missing,
        "versus_next": e.versus_next.to_json() if e.versus_next else None,
        "per_dataset": per_dataset,
        "columns": {k: float(v) for k, v in values.items()},
    }


def _test_text(task: Task) -> str:
    sig = task.significance
    if sig.test == "none":
        return "no significance test"
    return (f"{sig.test} test between neighbours, documents exchanged within each dataset "
            f"(alpha {sig.alpha}, {sig.permutations} permutations, seed {sig.seed})")


def write_dataset_outputs(board: DatasetLeaderboard, directory: str | os.PathLike[str]
                          ) -> list[str]:
    """``leaderboard.json``, ``.csv``, ``.txt`` and ``reports/NAME/DATASET.json`` (atomically,
    replacing an earlier leaderboard folder)."""
    from corefkit.converters.io import atomic_directory_output

    written = []
    texts = {"leaderboard.json": json.dumps(board.to_json(), indent=2, ensure_ascii=False) + "\n",
             "leaderboard.csv": board.to_csv(), "leaderboard.txt": board.to_table()}
    with atomic_directory_output(directory, replaceable=_earlier_output) as tmp:
        for name, text in texts.items():
            with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="\n") as out:
                out.write(text)
            written.append(name)
        for e in board.entries:
            for dataset, r in e.results.items():
                if r.entry is None:
                    continue
                folder = os.path.join(tmp, "reports", e.name)
                os.makedirs(folder, exist_ok=True)
                name = f"reports/{e.name}/{dataset}.json"
                with open(os.path.join(tmp, name), "w", encoding="utf-8", newline="\n") as out:
                    json.dump(r.entry.report.to_json(), out, indent=2, ensure_ascii=False)
                    out.write("\n")
                written.append(name)
    return written
