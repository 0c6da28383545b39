"""Competition bundles for Codabench and CodaLab whose scoring program calls corefkit.

``corefkit task bundle TASK --platform codabench|codalab -o competition.zip`` writes:

* ``competition.yaml`` as the platform reads it — Codabench (``version: 2``: ``pages``,
  ``tasks`` with ``scoring_program`` / ``reference_data`` folders, ``phases``, ``leaderboards``
  with ``columns`` of ``key``/``title``/``sorting``, ``docker_image``; docs.codabench.org,
  "Competition Bundle Structure"); CodaLab (``html`` pages, ``phases`` numbered with
  ``scoring_program: scoring_program.zip`` and ``reference_data: reference_data.zip``,
  ``leaderboard: leaderboards / columns`` with ``rank``, ``numeric_format``, ``sorting``;
  github codalab/codalab-competitions wiki, "User_Building a Competition Bundle");
* the reference data: ``task.json`` (the task with the gold paths inside the bundle) and
  ``gold/`` (each dataset's gold file or folder);
* the scoring program: ``evaluate.py``, its metadata (Codabench ``metadata.yaml``:
  ``command: python3 /app/program/evaluate.py /app/input /app/output``; CodaLab
  ``metadata``: ``command: python $program/evaluate.py $input $output``), ``requirements.txt``
  (``corefkit==VERSION`` and corefkit's dependencies) and, by default, corefkit itself
  (``corefkit/``, the package's pure-Python source, so that the program scores with exactly the
  organizer's version; its dependencies — NumPy, SciPy, ... — must be in the image:
  ``docker_image`` names it).

The platform runs the program with ``input/ref`` (the reference data) and ``input/res`` (the
participant's files, one per dataset, named as the gold files); it writes ``scores.json``
(Codabench: ``{"conll": 64.61, ...}``) or ``scores.txt`` (CodaLab: ``conll: 64.61`` lines)
into the output folder: the macro-averaged primary value, the variants and the primary value
per dataset, in percent, keyed as the leaderboard's columns. A refused submission (a file
that fails validation or pairing, two files for a dataset) exits 1 with the reason on stderr
and no scores: the platform shows it as failed.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import zipfile
from dataclasses import replace
from fractions import Fraction
from typing import Any

from corefkit.errors import UsageError
from corefkit.evaluation.task.spec import Task, load_task

PLATFORMS = ("codabench", "codalab")
DEFAULT_IMAGE = "python:3.11"
COMMANDS = {"codabench": "python3 /app/program/evaluate.py /app/input /app/output",
            "codalab": "python $program/evaluate.py $input $output"}


# ============================================================================ columns
def column_key(text: str) -> str:
    """A leaderboard column key: lower-case letters, digits and underscores."""
    return re.sub(r"[^a-z0-9_]+", "_", text.lower()).strip("_") or "value"


def columns(task: Task) -> list[tuple[str, str]]:
    """(key, title) of every leaderboard column: the primary macro-average first, the
    variants, then the primary value of each dataset."""
    primary = task.primary.label
    found = [(column_key(primary), f"{primary} (macro-average)")]
    found += [(column_key(v.name), f"{v.name} ({v.metric or primary})") for v in task.variants]
    found += [(column_key(f"{primary}_{d.name}"), f"{d.name} {primary}") for d in task.datasets]
    keys = [k for k, _ in found]
    repeated = sorted({k for k in keys if keys.count(k) > 1})
    if repeated:
        raise UsageError(f"two leaderboard columns would have the key {repeated[0]!r}; rename "
                         "a variant or a dataset")
    return found


def percent(value: Fraction) -> float:
    return float(100 * Fraction(value))


# ============================================================================ the bundle
def write_bundle(task_source: str | os.PathLike[str], platform: str,
                 output: str | os.PathLike[str], *, title: str | None = None,
                 vendor: bool = True, docker_image: str = DEFAULT_IMAGE) -> list[str]:
    """Write the competition bundle of a multi-dataset task as the zip ``output`` (a new
    file, written whole or not at all); the names in it."""
    if platform not in PLATFORMS:
        raise UsageError(f"unknown platform {platform!r}; expected {', '.join(PLATFORMS)}")
    task = load_task(task_source)
    if not task.datasets:
        raise UsageError("a bundle is made of a task with datasets (one file per dataset); "
                         "write the gold as datasets = [{gold = ...}]")
    target = os.fspath(output)
    if os.path.lexists(target):
        raise UsageError(f"{target}: exists; give a new file name")
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "bundle")
        os.mkdir(root)
        _reference(task, os.path.join(root, "reference_data"))
        _program(os.path.join(root, "scoring_program"), platform, vendor)
        _pages(task, root, platform)
        yaml = (_codabench_yaml if platform == "codabench" else _codalab_yaml)(
            task, title or task.name or "corefkit shared task", docker_image)
        with open(os.path.join(root, "competition.yaml"), "w", encoding="utf-8") as out:
            out.write(yaml)
        if platform == "codalab":  # CodaLab reads the program and the data as zips
            for part in ("scoring_program", "reference_data"):
                _zip_folder(os.path.join(root, part), os.path.join(root, f"{part}.zip"))
                shutil.rmtree(os.path.join(root, part))
        partial = os.path.join(tmp, "competition.zip")
        names = _zip_folder(root, partial)
        _move_into_place(partial, target)
    return names


def _reference(task: Task, folder: str) -> None:
    os.makedirs(os.path.join(folder, "gold"))
    datasets = []
    for d in task.datasets:
        inside = os.path.join(folder, "gold", d.file_name)
        if os.path.isdir(d.gold):
            shutil.copytree(d.gold, inside, symlinks=False)
        else:
            shutil.copyfile(d.gold, inside)
        datasets.append({"name": d.name, "gold": f"gold/{d.file_name}",
                         **({"format": d.format} if d.format else {})})
    data: dict[str, Any] = {"name": task.name, "datasets": datasets, "missing": task.missing,
            "scoring": {k: list(v) if isinstance(v, tuple) else v
                        for k, v in task.scoring.items()},
            "validation": {"level": task.level, "exclude": list(task.exclude),
                           "show": task.show},
            "ranking": {"primary": task.primary.label,
                        "tie_breakers": [k.label for k in task.ranking[1:]]},
            "significance": {"test": "none"},
            "variants": {v.name: {**v.overrides, **({"metric": v.metric} if v.metric else {})}
                         for v in task.variants},
            "submissions": {"layout": "folder"}, "track": task.track}
    if task.gold_format:
        data["gold_format"] = task.gold_format
    if task.submissions.format:
        data["submissions"]["format"] = task.submissions.format
    with open(os.path.join(folder, "task.json"), "w", encoding="utf-8") as out:
        json.dump(data, out, indent=2, ensure_ascii=False)
        out.write("\n")


EVALUATE = '''"""Scoring program of a corefkit competition bundle (written by corefkit {version}).

    python evaluate.py INPUT OUTPUT

INPUT/ref holds task.json and gold/, INPUT/res the submission's files; OUTPUT receives
{scores}. The corefkit beside this file (vendored) is used before any installed one.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: python evaluate.py INPUT OUTPUT\\n")
        return 2
    try:
        import corefkit
        from corefkit.evaluation.task.bundle import score_folder
    except ImportError as exc:
        sys.stderr.write("corefkit or one of its dependencies is missing ({{}}): use an image "
                         "with requirements.txt installed\\n".format(exc))
        return 1
    print("corefkit {{}} from {{}}".format(corefkit.__version__,
                                         os.path.dirname(corefkit.__file__)))
    return score_folder(argv[1], argv[2], platform="{platform}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
'''


def _program(folder: str, platform: str, vendor: bool) -> None:
    from corefkit._version import __version__

    os.makedirs(folder)
    scores = "scores.json" if platform == "codabench" else "scores.txt"
    with open(os.path.join(folder, "evaluate.py"), "w", encoding="utf-8") as out:
        out.write(EVALUATE.format(version=__version__, scores=scores, platform=platform))
    if platform == "codabench":
        with open(os.path.join(folder, "metadata.yaml"), "w", encoding="utf-8") as out:
            out.write(f"command: {COMMANDS['codabench']}\n")
    else:
        with open(os.path.join(folder, "metadata"), "w", encoding="utf-8") as out:
            out.write(f"command: {COMMANDS['codalab']}\n"
                      "description: corefkit scoring program\n")
    with open(os.path.join(folder, "requirements.txt"), "w", encoding="utf-8") as out:
        out.write(f"corefkit=={__version__}\n" + "".join(f"{r}\n" for r in _requirements()))
    if vendor:
        # the package this module belongs to: one folder up per dotted part of its name
        source = os.path.abspath(__file__)
        for _ in __name__.split("."):
            source = os.path.dirname(source)
        source = os.path.join(source, __name__.split(".")[0])
        shutil.copytree(source, os.path.join(folder, "corefkit"), symlinks=False,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


def _requirements() -> list[str]:
    from importlib import metadata

    try:
        required = metadata.requires("corefkit") or []
    except metadata.PackageNotFoundError:  # a vendored copy scoring: nothing to name
        return []
    return [r for r in required if "extra ==" not in r]


def _checked(task: Task) -> str:
    """What a submission's file must be, as the evaluation page says it."""
    if task.track == "llm":
        return (f"LLM track: each file is the model's answer in the {task.submissions.format} "
                "format, named as the test file or the dataset with that format's extension "
                "(en_gum-corefud-test.txt), one document per line; malformed tags are repaired (each reported) and the answer "
                "is aligned to the gold's words before it is scored")
    return (f"Each file must pass UD validation level {task.level} and hold the gold's "
            "documents, sentence ids and words")


def _pages(task: Task, root: str, platform: str) -> None:
    primary = task.primary.label
    datasets = "\n".join(f"* `{d.file_name}` ({d.name})" for d in task.datasets)
    variants = "\n".join(f"* {v.name}: {v.metric or primary}"
                         + (f" with {', '.join(f'{k} = {x}' for k, x in v.overrides.items())}"
                            if v.overrides else "") for v in task.variants) or "(none)"
    texts = {
        "overview": f"# {task.name or 'Shared task'}\n\nScored by corefkit; ranked by the "
                    f"macro-average over {len(task.datasets)} datasets of {primary}.\n",
        "evaluation": (f"# Evaluation\n\nSubmit a zip with one file per dataset, named as "
                       f"the dataset's test file:\n\n{datasets}\n\n{_checked(task)}; "
                       "a dataset without a file counts "
                       f"{'0' if task.missing == 'zero' else 'as a refusal'}.\nSetting: "
                       f"{json.dumps(task.scoring, default=list)}.\nExtra columns:\n\n"
                       f"{variants}\n"),
        "terms": "# Terms\n\nThe organizers' terms apply.\n",
        "data": f"# Data\n\n{datasets}\n",
    }
    folder = os.path.join(root, "pages")
    os.mkdir(folder)
    for name, text in texts.items():
        if platform == "codabench":
            path = os.path.join(folder, f"{name}.md")
            body = text
        else:
            path = os.path.join(root, f"{name}.html")
            body = "<pre>" + text.replace("&", "&amp;").replace("<", "&lt;") + "</pre>\n"
        with open(path, "w", encoding="utf-8") as out:
            out.write(body)
    if platform == "codalab":
        os.rmdir(folder)


def _q(text: str) -> str:
    """A YAML double-quoted scalar (JSON strings are YAML)."""
    return json.dumps(text, ensure_ascii=False)


def _codabench_yaml(task: Task, title: str, image: str) -> str:
    lines = ["version: 2", f"title: {_q(title)}",
             f"description: {_q('Scored by corefkit: ' + task.primary.label + ' macro-averaged over the datasets')}",
             f"docker_image: {_q(image)}", "terms: pages/terms.md", "pages:"]
    for name in ("overview", "evaluation", "data"):
        lines += [f"  - title: {_q(name.capitalize())}", f"    file: pages/{name}.md"]
    lines += ["tasks:", "  - index: 0", f"    name: {_q(title)}",
              "    scoring_program: scoring_program/", "    reference_data: reference_data/",
              "phases:", "  - index: 0", "    name: \"Evaluation\"", "    start: 2026-01-01",
              "    tasks:", "      - 0", "leaderboards:", "  - index: 0",
              "    title: \"Results\"", "    key: main", "    columns:"]
    for n, (key, heading) in enumerate(columns(task)):
        lines += [f"      - title: {_q(heading)}", f"        key: {key}", f"        index: {n}",
                  "        sorting: desc"]
    return "\n".join(lines) + "\n"


def _codalab_yaml(task: Task, title: str, image: str) -> str:
    lines = [f"title: {_q(title)}",
             f"description: {_q('Scored by corefkit: ' + task.primary.label + ' macro-averaged over the datasets')}",
             "has_registration: True", f"competition_docker_image: {_q(image)}", "html:",
             "  overview: overview.html", "  evaluation: evaluation.html",
             "  terms: terms.html", "  data: data.html", "phases:", "  1:",
             "    phasenumber: 1", "    label: \"Evaluation\"", "    start_date: 2026-01-01",
             "    max_submissions: 100", "    scoring_program: scoring_program.zip",
             "    reference_data: reference_data.zip", "leaderboard:", "  leaderboards:",
             "    RESULTS: &RESULTS", "      label: Results", "      rank: 1", "  columns:"]
    for n, (key, heading) in enumerate(columns(task)):
        lines += [f"    {key}:", "      leaderboard: *RESULTS", f"      label: {_q(heading)}",
                  f"      rank: {n + 1}", "      numeric_format: 2", "      sorting: desc"]
    return "\n".join(lines) + "\n"


def _zip_folder(folder: str, path: str) -> list[str]:
    names = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for base, dirs, files in os.walk(folder):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(base, name)
                inside = os.path.relpath(full, folder).replace(os.sep, "/")
                archive.write(full, inside)
                names.append(inside)
    return names


def _move_into_place(partial: str, target: str) -> None:
    """Copy the finished zip next to the target and rename it there (atomic, umask kept)."""
    directory = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(directory):
        raise UsageError(f"{target}: the directory {directory} does not exist")
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".corefkit-bundle-")
    os.close(handle)
    try:
        shutil.copyfile(partial, temporary)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        if os.path.lexists(target):
            raise UsageError(f"{target}: exists; give a new file name")
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


# ============================================================================ the program
def submission_folder(res: str) -> str:
    """The folder holding the submission's files: ``res``, or its only folder when the
    participant zipped a folder rather than the files."""
    entries = [e for e in os.listdir(res) if not e.startswith(".") and e != "__MACOSX"]
    if len(entries) == 1 and os.path.isdir(os.path.join(res, entries[0])) \
            and not os.path.islink(os.path.join(res, entries[0])):
        return os.path.join(res, entries[0])
    return res


def scores(task: Task, entry: Any) -> dict[str, float]:
    """The leaderboard columns of a scored submission, in percent."""
    values = {column_key(task.primary.label): percent(entry.values[task.primary.label])}
    values.update({column_key(v.name): percent(entry.variants[v.name]) for v in task.variants})
    values.update({column_key(f"{task.primary.label}_{d}"):
                   percent(r.values[task.primary.label]) for d, r in entry.results.items()})
    return values


def score_folder(input_dir: str, output_dir: str, platform: str = "codabench") -> int:
    """What ``evaluate.py INPUT OUTPUT`` does: score ``INPUT/res`` against ``INPUT/ref`` and
    write the scores file of ``platform``; 0, or 1 (with the reason on stderr) when the
    submission is refused."""
    from corefkit.errors import CorefkitError
    from corefkit.evaluation.task.datasets import (
        evaluate_submission,
        prepare_dataset,
    )
    from corefkit.evaluation.task.leaderboard import Rejection
    from corefkit.evaluation.task.runner import Submission

    ref, res = os.path.join(input_dir, "ref"), os.path.join(input_dir, "res")
    try:
        task = load_task(os.path.join(ref, "task.json"))
        task = replace(task, significance=replace(task.significance, test="none", bootstrap=0))
        engine = {"jobs": 1, "engine": "serial", "scheduler": None}
        prepared = [prepare_dataset(d, task, engine) for d in task.datasets]
        if not os.path.isdir(res):
            raise UsageError(f"{res}: no submission folder")
        result = evaluate_submission(Submission("submission", submission_folder(res)), task,
                                     prepared, engine)
    except CorefkitError as exc:
        sys.stderr.write(f"corefkit: error: {exc}\n")
        return 1
    if isinstance(result, Rejection):
        sys.stderr.write(f"corefkit: submission refused ({result.stage}): {result.reason}\n")
        return 1
    values = scores(task, result)
    os.makedirs(output_dir, exist_ok=True)
    if platform == "codabench":
        name, text = "scores.json", json.dumps(values, indent=2) + "\n"
    else:
        name, text = "scores.txt", "".join(f"{k}: {v!r}\n" for k, v in values.items())
    with open(os.path.join(output_dir, name), "w", encoding="utf-8") as out:
        out.write(text)
    for warning in result.warnings:
        print(f"corefkit: {warning}")
    return 0
