"""CRAC LLM-track JSON checks: the reader's repairs and rejections."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "text2text-json"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("text2text-json." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-json", 1, ERROR, "the file is not valid JSON"),
    _reader("bad-shape", 1, ERROR,
            "not a list of {doc_id, tokens, clusters_token_offsets, clusters_text_mentions} "
            "objects with string tokens and [start, end] offsets"),
    _reader("prose", 1, ERROR,
            "text around the JSON list (prose, a Markdown fence); --lenient reads the list"),
    _reader("bad-offsets", 1, ERROR,
            "a mention whose offsets lie outside its document; --lenient drops it"),
    _reader("shifted-offsets", 1, ERROR,
            "a mention whose offsets hold other tokens than its stated text, which lies a few "
            "tokens away (conllu2json without -z counts empty nodes it leaves out); --lenient "
            "reads it where its text is"),
    _reader("mention-text", 2, WARNING,
            "a clusters_text_mentions entry that differs from the tokens at its offsets (the "
            "offsets are used)"),
)

PLUGIN = FormatPlugin(FORMAT)
