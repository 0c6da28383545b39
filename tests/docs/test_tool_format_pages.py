"""The UIMA CAS page shows the install line the error gives (its commands run with every
other page's in tests/docs/test_examples.py, with the files tests/docs/page_files.py names)."""

from __future__ import annotations

from corefkit.interop.cassis import INSTALL
from tests.conftest import ROOT


def test_the_install_line_is_the_one_the_error_gives() -> None:
    page = (ROOT / "docs/formats/uima-cas.md").read_text(encoding="utf-8")
    assert f"```text\n{INSTALL}\n```" in page
