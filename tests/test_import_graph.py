"""The package's import graph: no circle, dependencies down the layers of DESIGN.md, no click
outside the command line (the rule is stated in :mod:`tests.import_graph`)."""

from __future__ import annotations

import subprocess
import sys
from textwrap import dedent

import pytest

from tests.conftest import ROOT
from tests.import_graph import (
    LAYERS,
    circles,
    click_importers,
    edges,
    layer,
    layer_violations,
    modules,
)

SOURCES = modules(ROOT)
EDGES = edges(SOURCES)


def describe(found: list[list[str]]) -> str:
    members = [set(component) for component in found]
    lines = []
    for component in members:
        lines.append("circle: " + ", ".join(sorted(component)))
        lines += [f"    {e}" for e in EDGES if e.source in component and e.target in component]
    return "\n".join(lines)


def test_the_graph_covers_the_package():
    assert "corefkit.scoring.metrics.registry" in SOURCES
    assert "corefkit" in SOURCES and "corefkit.checks.registry" in SOURCES
    assert len(SOURCES) > 150 and len(EDGES) > 500


def test_no_module_imports_another_that_imports_it_back():
    found = circles(EDGES)
    assert found == [], describe(found)


def test_every_module_has_a_layer():
    assert [m for m in SOURCES if layer(m) is None] == []


def test_imports_point_down_the_layers():
    assert layer_violations(EDGES) == []


def test_a_format_never_imports_scoring():
    assert [str(e) for e in EDGES if e.source.startswith("corefkit.converters.")
            and e.target.startswith(("corefkit.scoring", "corefkit.diagnosis",
                                     "corefkit.evaluation", "corefkit.report"))] == []


def test_no_library_module_imports_click():
    assert click_importers(SOURCES) == []


# ---------------------------------------------------------------- the check itself, on made-up graphs
def graph(**modules: str) -> dict[str, str]:
    """Module sources by dotted name (``a__b`` stands for ``a.b``)."""
    return {name.replace("__", "."): dedent(text) for name, text in modules.items()}


@pytest.mark.parametrize("back", [
    "from corefkit.a import x\n",                                       # module level
    "def f():\n    from corefkit.a import x\n",                         # inside a function
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from corefkit.a import X\n",
    "import importlib\ndef f():\n    importlib.import_module('corefkit.a')\n",  # by name
    "from corefkit import a\n",                                         # a submodule by from
])
def test_an_injected_circle_is_found_however_it_is_imported(back):
    made = graph(corefkit="", corefkit__a="from corefkit.b import y\n", corefkit__b=back)
    assert circles(edges(made)) == [["corefkit.a", "corefkit.b"]]


def test_a_longer_circle_is_found_and_a_chain_is_not():
    chain = graph(corefkit="", corefkit__a="import corefkit.b\n", corefkit__b="import corefkit.c\n",
                  corefkit__c="import corefkit.errors\n", corefkit__errors="")
    assert circles(edges(chain)) == []
    closed = dict(chain, **{"corefkit.c": "def f():\n    import corefkit.a\n"})
    assert circles(edges(closed)) == [["corefkit.a", "corefkit.b", "corefkit.c"]]


def test_a_registry_that_imports_its_members_back_is_a_circle():
    made = graph(corefkit="", corefkit__passes="",
                 corefkit__passes__registry="def load():\n    from corefkit.passes import one\n",
                 corefkit__passes__one="from corefkit.passes.registry import register\n")
    assert circles(edges(made)) == [["corefkit.passes.one", "corefkit.passes.registry"]]
    # filled from one place (the package), the registry imports nothing back
    fixed = dict(made, **{"corefkit.passes": "from corefkit.passes import one\n",
                          "corefkit.passes.registry": "REGISTRY = {}\n"})
    assert circles(edges(fixed)) == []


def test_naming_the_own_package_is_no_edge_but_importing_from_it_is():
    made = graph(corefkit="", corefkit__report="from corefkit.report.page import page\n",
                 corefkit__report__page="from importlib import resources\n"
                                        "def page():\n    resources.files('corefkit.report')\n")
    assert circles(edges(made)) == []
    back = dict(made, **{"corefkit.report.page": "from corefkit.report import title\n"})
    assert circles(edges(back)) == [["corefkit.report", "corefkit.report.page"]]


def test_a_format_importing_scoring_breaks_the_layers():
    made = graph(corefkit="", corefkit__converters__x__reader="def f():\n"
                 "    from corefkit.scoring.engine import run\n",
                 corefkit__scoring__engine="from corefkit.model import Document\n",
                 corefkit__model="")
    (problem,) = layer_violations(edges(made))
    assert problem.startswith("corefkit.converters.x.reader -> corefkit.scoring.engine")
    assert "higher layer" in problem


def test_siblings_of_a_layer_may_import_each_other_and_unplaced_modules_are_named():
    made = graph(corefkit="", corefkit__converters__convert="import corefkit.passes.registry\n",
                 corefkit__passes__registry="", corefkit__extra="import corefkit.model\n",
                 corefkit__model="")
    assert layer_violations(edges(made)) == [
        "corefkit.extra -> corefkit.model (module import, line 1): no layer places corefkit.extra"]


def test_click_outside_the_command_line_is_found():
    made = graph(corefkit__cli__main="import click\n",
                 corefkit__scoring__report="def f():\n    from click import echo\n")
    assert click_importers(made) == ["corefkit.scoring.report: line 2 imports click"]


def test_the_layers_are_those_of_the_design():
    order = [package for rank in LAYERS for package in rank]
    design = ["corefkit.model", "corefkit.checks", "corefkit.converters", "corefkit.validation",
              "corefkit.diagnosis", "corefkit.report", "corefkit", "corefkit.cli"]
    assert [p for p in order if p in design] == design


def test_every_module_imports_first():
    """What the graph cannot show: each module imported first in a process (its packages'
    ``__init__`` running before it, as they fill their registries) imports without error."""
    names = sorted(n for n in SOURCES if n != "corefkit.__main__")  # __main__ runs the CLI
    code = (
        "import importlib, sys\n"
        "failed = []\n"
        f"for name in {names!r}:\n"
        "    for loaded in [m for m in sys.modules if m.split('.')[0] == 'corefkit']:\n"
        "        del sys.modules[loaded]\n"
        "    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != '_Finder']\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except BaseException as exc:\n"
        "        failed.append(f'{name}: {exc!r}')\n"
        "print('\\n'.join(failed))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    assert done.stdout.strip() == "", done.stdout
