"""The README's promises: its Python example runs, its quick start names real commands."""

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
    code = blocks[0].replace("/tmp/copy.conll", str(tmp_path / "copy.conll"))
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
