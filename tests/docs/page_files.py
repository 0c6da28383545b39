"""The real files a documentation page names by a bare name (as a user's own files would be
named), copied from ``../shared`` into the page's sandbox before its examples run."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import CORPORA

GUM_TSV = CORPORA / "webanno-tsv" / "gum"
INCEPTION = CORPORA / "inception"

TOOL_FILES: dict[str, Path] = {
    "GUM_academic_art.tsv": GUM_TSV / "GUM_academic_art.tsv",
    "GUM_textbook_alamo.tsv": GUM_TSV / "GUM_textbook_alamo.tsv",
    "GUM_vlog_college.tsv": GUM_TSV / "GUM_vlog_college.tsv",
    "export/GUM_academic_art.tsv": GUM_TSV / "GUM_academic_art.tsv",
    "export/GUM_whow_ballet.tsv": GUM_TSV / "GUM_whow_ballet.tsv",
    "export/GENTLE_poetry_death.tsv": GUM_TSV / "GENTLE_poetry_death.tsv",
    "Text_1804.xmi": INCEPTION / "xmi-webanno-creta" / "Text_1804.xmi",
    "creta-coref.xml": INCEPTION / "xmi-webanno-creta" / "creta-coref.xml",
    "webanno-full-typesystem.xml": INCEPTION / "tsv3-suite" / "webanno-full-typesystem.xml",
    "Cato-SE.xmi.gz": INCEPTION / "gerdracor-coref-parallel" / "Cato-SE.xmi.gz",
    "Cato-AF.xmi.gz": INCEPTION / "gerdracor-coref-parallel" / "Cato-AF.xmi.gz",
    "corefannotator-types-v1.xml":
        INCEPTION / "gerdracor-coref-parallel" / "corefannotator-types-v1.xml",
}

PAGE_FILES: dict[str, dict[str, Path]] = {
    "docs/formats/webanno-tsv.md": TOOL_FILES,
    "docs/formats/uima-cas.md": TOOL_FILES,
    "docs/guides/corpus-builders.md": TOOL_FILES,
}
