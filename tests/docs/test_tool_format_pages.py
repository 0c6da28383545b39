"""Every command on the WebAnno TSV, UIMA CAS and corpus-builder pages runs, in order, in a
folder holding the files the pages name (copies of the real ones in ../shared)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest

from corefkit.cli.main import main
from corefkit.interop.cassis import INSTALL
from tests.conftest import CORPORA, ROOT

PAGES = ["docs/formats/webanno-tsv.md", "docs/formats/uima-cas.md",
         "docs/guides/corpus-builders.md"]
GUM = CORPORA / "webanno-tsv" / "gum"
INCEPTION = CORPORA / "inception"
FILES = {
    "GUM_academic_art.tsv": GUM / "GUM_academic_art.tsv",
    "GUM_textbook_alamo.tsv": GUM / "GUM_textbook_alamo.tsv",
    "GUM_vlog_college.tsv": GUM / "GUM_vlog_college.tsv",
    "export/GUM_academic_art.tsv": GUM / "GUM_academic_art.tsv",
    "export/GUM_whow_ballet.tsv": GUM / "GUM_whow_ballet.tsv",
    "export/GENTLE_poetry_death.tsv": GUM / "GENTLE_poetry_death.tsv",
    "Text_1804.xmi": INCEPTION / "xmi-webanno-creta" / "Text_1804.xmi",
    "creta-coref.xml": INCEPTION / "xmi-webanno-creta" / "creta-coref.xml",
    "webanno-full-typesystem.xml": INCEPTION / "tsv3-suite" / "webanno-full-typesystem.xml",
    "Cato-SE.xmi.gz": INCEPTION / "gerdracor-coref-parallel" / "Cato-SE.xmi.gz",
    "corefannotator-types-v1.xml":
        INCEPTION / "gerdracor-coref-parallel" / "corefannotator-types-v1.xml",
}


def commands(page: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, flags=re.S)
    found = [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ ")]
    assert all(line.startswith("$ ") for block in blocks for line in block.splitlines())
    return found


@pytest.mark.parametrize("page", PAGES)
def test_every_command_of_the_page_runs(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cassis")
    for name, source in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    lines = commands(page)
    assert lines, f"{page} shows no command"
    for line in lines:
        argv = shlex.split(line)
        assert argv[0] == "corefkit"
        code = main(argv[1:])
        out = capsys.readouterr()
        assert code == 0, f"{line!r} exited {code}: {out.err[-500:]}"


def test_the_install_line_is_the_one_the_error_gives() -> None:
    page = (ROOT / "docs/formats/uima-cas.md").read_text(encoding="utf-8")
    assert f"```text\n{INSTALL}\n```" in page
