"""spaCy coreference span-group checks: the reader's rejections and warnings."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "spacy"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("spacy." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-json", 1, ERROR, "a line that is not valid JSON (each line is one document)"),
    _reader("not-object", 1, ERROR, "a line whose JSON value is not an object"),
    _reader("bad-shape", 1, ERROR,
            "a record without a text string or a tokens list of {start, end} objects, or span "
            "groups that are not lists of {start, end} objects"),
    _reader("token-offsets", 1, ERROR,
            "tokens out of order or outside the text, visible characters in no token, or a "
            "sentence that does not start where a token does"),
    _reader("bad-offsets", 1, ERROR,
            "a coreference span outside the text, or not starting and ending where tokens do: "
            "the offsets contradict the tokens"),
    _reader("head-mentions", 2, WARNING,
            "only coref_head_clusters_N groups (one-word heads), no coref_clusters_N: the heads "
            "are read as the mentions"),
    _reader("unmatched-heads", 2, WARNING,
            "a coref_head_clusters_N group that does not give each mention of coref_clusters_N "
            "a one-word head inside it; its heads are not read"),
    _reader("duplicate-mention", 3, WARNING, "the same span twice in one cluster; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
