"""The CRAC guides (docs/guides/crac-organizers.md, crac-participants.md): their commands and
the output they show run in tests/docs/test_examples.py, on the demonstration task that
examples/crac/demo.py builds; here, the task files the organizers' page shows are the ones
the demo writes."""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

from tests.conftest import ROOT, SHARED

PAGES = ["docs/guides/crac-organizers.md", "docs/guides/crac-participants.md"]


def _demo_main():
    spec = importlib.util.spec_from_file_location("crac_demo", ROOT / "examples/crac/demo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.main


def test_the_task_file_shown_is_the_one_the_demo_writes(tmp_path: Path) -> None:
    page = (ROOT / PAGES[0]).read_text(encoding="utf-8")
    shown = re.search(r"```toml\n(.*?)```", page, flags=re.S).group(1)  # type: ignore[union-attr]
    assert _demo_main()([os.fspath(tmp_path / "crac"), "--documents", "1", "--shared",
                         os.fspath(SHARED)]) == 0
    written = (tmp_path / "crac" / "task.toml").read_text(encoding="utf-8").splitlines()
    for line in shown.splitlines():
        if not line.startswith("exclude = [...]"):
            assert line in written, line
    shown_llm = re.findall(r"```toml\n(.*?)```", page, flags=re.S)[1]
    written_llm = (tmp_path / "crac" / "task-llm.toml").read_text(encoding="utf-8")
    for line in shown_llm.splitlines():
        assert line in written_llm.splitlines(), line
