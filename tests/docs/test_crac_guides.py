"""Every command of the CRAC guides (docs/guides/crac-organizers.md, crac-participants.md) runs,
in order, in a folder beside the shared data, on the demonstration task that
examples/crac/demo.py builds; the task file the organizers' page shows is the one it writes."""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import ROOT, SHARED
from tests.docs.test_tool_format_pages import commands

PAGES = ["docs/guides/crac-organizers.md", "docs/guides/crac-participants.md"]


def _demo_main():
    spec = importlib.util.spec_from_file_location("crac_demo", ROOT / "examples/crac/demo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module.main


@pytest.mark.parametrize("page", PAGES)
def test_every_command_of_the_crac_guides_runs(page: str, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "shared").symlink_to(SHARED)   # ../shared, as from the project's root
    (tmp_path / "project").mkdir()
    monkeypatch.chdir(tmp_path / "project")
    lines = commands(page)
    assert lines, f"{page} shows no command"
    for line in lines:
        argv = shlex.split(line)
        if argv[:2] == ["python", "examples/crac/demo.py"]:
            code = _demo_main()(argv[2:])
        else:
            assert argv[0] == "corefkit", line
            code = main(argv[1:])
        out = capsys.readouterr()
        assert code == 0, f"{line!r} exited {code}: {out.err[-800:]}"
        if "--by entity-size --buckets" in line:
            assert '"strata"' in out.out
        if line.startswith("corefkit task crac/task.toml") and "-f csv" not in line:
            assert "team-typo: pairing: dataset la_proiel-corefud" in out.out
        if line.startswith("corefkit task crac/task-llm.toml"):  # every answer scored
            assert "llm-rewritten" in out.out and "rejected" not in out.out
        if "--response-from text2text" in line:
            assert "alignment (boundary expand" in out.out
    if page.endswith("organizers.md"):
        assert (Path("crac/board/leaderboard.json")).is_file()
        assert Path("crac/codabench.zip").is_file() and Path("crac/codalab.zip").is_file()


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
