"""fastcoref output checks: the reader's rejections and warnings."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "fastcoref"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("fastcoref." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-json", 1, ERROR, "a line that is not valid JSON (each line is one document)"),
    _reader("not-object", 1, ERROR, "a line whose JSON value is not an object"),
    _reader("bad-shape", 1, ERROR,
            "a record without a text string or a clusters list, or clusters_strings not "
            "parallel to clusters"),
    _reader("bad-offsets", 1, ERROR,
            "a mention that is not [start, end] character offsets into the text (end "
            "exclusive), or that holds only white space"),
    _reader("mention-text", 1, ERROR,
            "a clusters_strings entry that is not the text at its offsets: the offsets "
            "contradict the text"),
    _reader("duplicate-mention", 3, WARNING, "the same offsets twice in one cluster; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
