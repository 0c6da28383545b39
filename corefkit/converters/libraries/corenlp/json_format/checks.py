"""CoreNLP JSON checks: the reader's rejections and warnings."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "corenlp-json"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("corenlp-json." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-json", 1, ERROR, "the file is not valid JSON"),
    _reader("bad-shape", 1, ERROR,
            "not an object with sentences of tokens with a word, or corefs that are not chains "
            "of mentions with integer sentNum, startIndex, endIndex"),
    _reader("bad-offsets", 1, ERROR,
            "a mention outside its sentence's tokens, or whose head is not one of its tokens"),
    _reader("mention-text", 1, ERROR,
            "a mention text that is not its tokens' words joined by spaces: the offsets "
            "contradict the text"),
    _reader("offset-text", 1, ERROR,
            "token character offsets that do not span the token's original text, go "
            "backwards, or disagree with the white space (before) between tokens"),
    _reader("duplicate-mention", 3, WARNING, "the same mention twice in one chain; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
