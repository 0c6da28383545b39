"""Maverick output checks: the reader's rejections and warnings."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "maverick"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("maverick." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-json", 1, ERROR, "a line that is not valid JSON (each line is one document)"),
    _reader("not-object", 1, ERROR, "a line whose JSON value is not an object"),
    _reader("bad-shape", 1, ERROR,
            "a record without a tokens list of strings, clusters that are not lists of [start, "
            "end], or mention strings not parallel to them"),
    _reader("bad-offsets", 1, ERROR,
            "token offsets that are not [start, end] inside the tokens (end inclusive)"),
    _reader("mention-text", 1, ERROR,
            "a clusters_token_text (clusters_text_mentions) string that is not the mention's "
            "tokens joined by spaces: the offsets contradict the tokens"),
    _reader("char-offsets", 1, ERROR,
            "clusters_char_offsets not parallel to the token offsets, outside the text, or "
            "holding other characters than the mention's tokens or its clusters_char_text"),
    _reader("duplicate-mention", 3, WARNING, "the same offsets twice in one cluster; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
