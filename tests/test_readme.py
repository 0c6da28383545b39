"""The README's promises: its Python example runs, its quick start names real commands, it is
the front page (150-250 lines) and its links into the documentation resolve. (Every console
block of the README also runs, as every page's does: tests/docs/test_examples.py.)"""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text()


def test_python_example_runs(tmp_path, capsys, monkeypatch):
    section = README.split("## Python API", 1)[1]  # the in-memory example: test_clusters
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert blocks, "the README has a Python example"
    monkeypatch.chdir(ROOT)
    assert '"copy.conll"' in blocks[0]
    code = blocks[0].replace('"copy.conll"', repr(str(tmp_path / "copy.conll")))
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Fraction" in out or re.search(r"\d+/\d+", out)
    assert (tmp_path / "copy.conll").read_text().startswith("#begin document (news/mary)")


def test_quick_start_is_two_dev_commands():
    section = README.split("## Quick start", 1)[1].split("##", 1)[0]
    commands = re.findall(r"^(python3 dev\.py \w+)", section, flags=re.M)
    assert commands == ["python3 dev.py demo", "python3 dev.py test"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 dev.py test" in ci


def test_dev_script_demo_target_exists():
    result = subprocess.run([sys.executable, str(ROOT / "dev.py")], capture_output=True, text=True)
    assert result.returncode == 2 and "dev.py demo" in result.stderr
    assert os.path.exists(ROOT / "examples" / "conll2012" / "key.conll")
    assert os.path.exists(ROOT / "examples" / "conll2012" / "response.conll")


def test_the_readme_is_a_front_page():
    lines = README.splitlines()
    assert 150 <= len(lines) <= 250
    for section in ("## Quick start", "## Three users, three examples", "## Formats",
                    "## Metrics", "## Python API"):
        assert section in README


def test_every_link_of_the_readme_resolves():
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert len(links) >= 20
    for link in links:
        assert (ROOT / link).is_file(), link


def test_the_readme_names_every_format_and_command():
    from corefkit.cli.main import COMMANDS
    from corefkit.converters.registry import formats

    for spec in formats():
        assert f"docs/formats/{spec.name}.md" in README
    for name in COMMANDS:
        assert f"corefkit {name}" in README
