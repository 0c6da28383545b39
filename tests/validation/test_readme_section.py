"""The documentation's validate section (docs/guides/build-and-check-a-corpus.md): its example
runs and its check ids exist."""

from __future__ import annotations

import re

from corefkit.validation import all_checks
from tests.conftest import ROOT

PAGE = ROOT / "docs" / "guides" / "build-and-check-a-corpus.md"
SECTION = PAGE.read_text().split("## Validate", 1)[1].split("\n## ", 1)[0]


def test_python_example_prints_what_its_comments_say(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    [code] = re.findall(r"```py\n(.*?)```", SECTION, flags=re.S)
    exec(compile(code, str(PAGE), "exec"), {})
    assert capsys.readouterr().out == "2 files, 4 documents: 0 errors, 0 warnings\n0\n"


def test_every_check_id_named_is_registered():
    ids = {c.id for c in all_checks()}
    named = set(re.findall(r"`((?:[a-z0-9]+)\.[a-z0-9]+(?:-[a-z0-9]+)*)`", SECTION))
    assert named and named <= ids
