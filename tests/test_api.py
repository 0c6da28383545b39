"""The Python API (``import corefkit``): what it exports, that it stays light, that its
signatures are those of the functions behind it, and that every docstring example runs."""

from __future__ import annotations

import doctest
import inspect
import io
import subprocess
import sys
import tempfile

import pytest

import corefkit
from corefkit import _api
from tests.conftest import ROOT

PUBLIC = ["Scorer", "__version__", "agree", "analyze", "convert", "read", "report", "score",
          "score_clusters", "validate", "write"]


def test_all_and_dir_are_the_public_names():
    assert sorted(corefkit.__all__) == PUBLIC
    assert dir(corefkit) == PUBLIC
    for name in corefkit.__all__:
        assert getattr(corefkit, name) is not None


def run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT).stdout


def test_import_corefkit_is_light_and_its_namespace_clean():
    out = run("import sys, corefkit\n"
              "print(sorted(m for m in ('numpy', 'scipy', 'networkx', 'click', 'lxml', 'rich')"
              " if m in sys.modules))\n"
              "print(sorted(n for n in vars(corefkit) if not n.startswith('_')))")
    heavy, names = out.splitlines()
    assert heavy == "[]"
    assert names == str([n for n in PUBLIC if n not in ("Scorer", "__version__")])
    for leftover in ("Any", "TYPE_CHECKING", "annotations"):
        assert leftover not in names


def test_scorer_is_imported_when_first_used():
    out = run("import sys, corefkit\nprint('corefkit.scoring.clusters' in sys.modules)\n"
              "print(corefkit.Scorer.__module__)")
    assert out.split() == ["False", "corefkit.scoring.clusters"]
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        corefkit.nothing  # noqa: B018


# ---------------------------------------------------------------- the same parameters
def behind(name: str):
    """The function a public function of corefkit calls."""
    from corefkit.converters import convert, registry
    from corefkit.diagnosis import engine
    from corefkit.report import agreement
    from corefkit.scoring import api, clusters
    from corefkit.validation import engine as validation

    return {"read": registry.read, "write": registry.write, "convert": convert.convert,
            "validate": validation.validate, "score": api.score,
            "score_clusters": clusters.score_clusters, "analyze": engine.analyze,
            "agree": agreement.agree}[name]


def parameters(function) -> list[tuple[str, object, object]]:
    """(name, kind, default) of each parameter; ``**options`` of any name count as one."""
    return [("**", p.kind, None) if p.kind is p.VAR_KEYWORD else (p.name, p.kind, p.default)
            for p in inspect.signature(function).parameters.values()]


@pytest.mark.parametrize("name", ["read", "write", "convert", "validate", "score",
                                  "score_clusters", "analyze", "agree"])
def test_a_public_function_takes_the_parameters_of_the_function_behind_it(name):
    assert parameters(getattr(_api, name)) == parameters(behind(name))


def test_report_takes_the_options_that_build_and_its_scoring_read():
    from corefkit.report.build import build
    from corefkit.report.systems import SHARED_OPTIONS
    from corefkit.scoring.api import score

    ours = inspect.signature(_api.report).parameters
    theirs = inspect.signature(build).parameters
    scored = inspect.signature(score).parameters
    assert "**" not in [p for p, _, _ in parameters(_api.report)]
    for name, parameter in theirs.items():
        if parameter.kind is parameter.KEYWORD_ONLY:
            assert ours[name].default == parameter.default, name
    read = ("format", "key_format", "response_format", "read_options", "key_read_options",
            "response_read_options", "lenient")  # what build._read_all takes of **options
    for name in (*SHARED_OPTIONS, *read):
        assert ours[name].default == scored[name].default, name
    explicit = {n for n, p in theirs.items() if p.kind is p.KEYWORD_ONLY}
    assert set(ours) == {"key", "responses", "output", *explicit, *SHARED_OPTIONS, *read}


# ---------------------------------------------------------------- the examples
EXAMPLED = ["read", "write", "convert", "validate", "score", "score_clusters", "analyze",
            "report", "agree", "Scorer"]


@pytest.mark.parametrize("name", EXAMPLED)
def test_every_docstring_example_runs(name, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)  # the examples read examples/ from the project's root
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # and write below the test's
    obj = getattr(corefkit, name) if name == "Scorer" else getattr(_api, name)
    tests = doctest.DocTestFinder().find(obj, name, globs={"corefkit": corefkit})
    assert sum(len(t.examples) for t in tests) >= 2, f"{name} has no runnable example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    for test in tests:
        runner.run(test, out=out.write)
    assert runner.failures == 0, out.getvalue()


# ---------------------------------------------------------------- the old import paths
OLD_PATHS = [  # old module, a name it had, the module that holds the name now
    ("corefkit.scoring.errors", "TITLES", "corefkit.diagnosis.categories"),
    ("corefkit.scoring.error_analysis", "analyze", "corefkit.diagnosis.engine"),
    ("corefkit.scoring.error_report", "AnalysisReport", "corefkit.diagnosis.report"),
    ("corefkit.scoring.compare", "compare", "corefkit.evaluation.compare"),
    ("corefkit.scoring.compare", "permutation_test", "corefkit.evaluation.significance"),
    ("corefkit.scoring.gap", "gap_score", "corefkit.evaluation.gap"),
    ("corefkit.task", "run_task", "corefkit.evaluation.task"),
    ("corefkit.task.spec", "check_schema", "corefkit.evaluation.task.spec"),
    ("corefkit.task.runner", "run_task", "corefkit.evaluation.task.runner"),
    ("corefkit.task.leaderboard", "Leaderboard", "corefkit.evaluation.task.leaderboard"),
    ("corefkit.validation.checks", "Check", "corefkit.checks.registry"),
    ("corefkit.validation.checks", "get_check", "corefkit.validation.catalog"),
    ("corefkit.validation.model", "ModelChecks", "corefkit.checks.model"),  # issue 22
    ("corefkit.validation.plugins", "Incident", "corefkit.checks.plugins"),
    ("corefkit.validation.plugins", "plugin_for", "corefkit.converters.registry"),
    ("corefkit.validation.plugins", "sent_id_incidents", "corefkit.converters.conllu_comments"),
]


def test_every_old_path_is_tested():
    from corefkit._deprecated import MOVED

    assert sorted({old for old, _, _ in OLD_PATHS}) == sorted(MOVED)


@pytest.mark.parametrize(("old", "name", "new"), OLD_PATHS)
def test_an_old_import_path_warns_and_gives_the_same_object(old, name, new, monkeypatch):
    import importlib

    for loaded in [m for m in sys.modules if m == old or m.startswith(old + ".")]:
        monkeypatch.delitem(sys.modules, loaded)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated .*; import "):
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)


def test_an_old_path_to_a_moved_module_is_that_module():
    out = run("import warnings\nwarnings.simplefilter('error')\n"
              "import corefkit.evaluation.task as new\n"
              "try:\n    import corefkit.task\nexcept DeprecationWarning as w:\n    print(w)\n"
              "warnings.simplefilter('ignore')\n"
              "import corefkit.task as old, corefkit.task.spec as spec\n"
              "print(old is new, spec.__name__, old.__spec__.name)")
    warning, identity = out.splitlines()
    assert warning == ("corefkit.task is deprecated and goes away in the next release; "
                       "import corefkit.evaluation.task")
    assert identity == "True corefkit.evaluation.task.spec corefkit.evaluation.task"


def test_the_warning_points_at_the_importing_line(tmp_path):
    script = tmp_path / "old.py"
    script.write_text("import warnings\nwarnings.simplefilter('always')\n"
                      "from corefkit.scoring.gap import gap_score\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert f"{script}:3: DeprecationWarning: corefkit.scoring.gap is deprecated" in done.stderr


def test_nothing_of_the_project_uses_an_old_path():
    from corefkit._deprecated import MOVED

    places = [*(ROOT / "corefkit").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
              *(ROOT / "examples").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py"),
              *(ROOT / "docs").rglob("*.md"), ROOT / "README.md"]
    allowed = {ROOT / "corefkit" / "_deprecated.py", ROOT / "tests" / "test_api.py"}
    found = []
    for path in places:
        if path in allowed:
            continue
        text = path.read_text(encoding="utf-8")
        for old in MOVED:
            parent, _, last = old.rpartition(".")
            for spelling in (old, f"from {parent} import {last}"):
                index = text.find(spelling)
                # corefkit.task.x or corefkit.tasks is another name, not the old module
                if index >= 0 and not text[index + len(spelling):][:1].isalnum() \
                        and text[index + len(spelling):][:1] not in ("_",):
                    found.append(f"{path.relative_to(ROOT)}: {spelling}")
    assert found == []
