"""Format detection from the first 64 KB of a file (formats/README.md, "Detecting the format").

The detectors live here, apart from the converters, so that telling a format costs a few
regular expressions and never imports (and compiles) every reader module; each converter's
``sniff`` is the function of this module for its format.
"""

from __future__ import annotations

import re

BOM = "\ufeff"

CONLL2012_RE = re.compile(r"^#\s*begin document", re.MULTILINE)
COREFUD_DECLARATION_RE = re.compile(r"^#\s*global\.Entity\s*=", re.MULTILINE)
COREFUD_TOKEN_RE = re.compile(r"^[0-9][^\t\n]*(?:\t[^\t\n]*){8}\t[^\t\n]*Entity=", re.MULTILINE)
UA_EXPLODED_RE = re.compile(r"^#\s*global\.columns\s*=[^\n]*\bIDENTITY\b", re.MULTILINE)
MMAX2_RE = re.compile(r"<mmax_project[\s/>]")


def conll2012(head: str) -> bool:
    """A ``#begin document`` line (any spelling the reader accepts)."""
    return CONLL2012_RE.search(head) is not None


def corefud(head: str) -> bool:
    """A ``# global.Entity`` line, or a 10-column token line whose MISC has ``Entity=``."""
    return COREFUD_DECLARATION_RE.search(head) is not None or COREFUD_TOKEN_RE.search(head) is not None


def ua_exploded(head: str) -> bool:
    """A ``# global.columns`` line that names IDENTITY."""
    return UA_EXPLODED_RE.search(head) is not None


def mmax2(head: str) -> bool:
    """The text of a ``.mmax`` project file."""
    return MMAX2_RE.search(head) is not None


def lcc(head: str) -> bool:
    """A JSON object that has ``annotationLayers``."""
    return head.lstrip(BOM + " \t\r\n").startswith("{") and '"annotationLayers"' in head


DETECTORS = {"conll2012": conll2012, "corefud": corefud, "ua-exploded": ua_exploded,
             "mmax2": mmax2, "lcc": lcc}
