"""CoreNLP XML checks: the reader's rejections and warnings."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "corenlp"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("corenlp." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-xml", 1, ERROR, "the file is not well-formed XML"),
    _reader("bad-shape", 1, ERROR,
            "not CoreNLP's <root><document>, a token without <word>, or a mention without "
            "numbers in <sentence>, <start>, <end>, <head>"),
    _reader("bad-offsets", 1, ERROR,
            "a mention outside its sentence's tokens, or whose head is not one of its tokens"),
    _reader("mention-text", 1, ERROR,
            "a mention <text> that is not its tokens' words joined by spaces: the offsets "
            "contradict the text"),
    _reader("offset-text", 1, ERROR,
            "token character offsets that go backwards, or hold other characters of the "
            "--corenlp-text file than the token's word"),
    _reader("duplicate-mention", 3, WARNING, "the same mention twice in one chain; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
