"""Stanza JSON checks: the reader's rejections and warnings."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "stanza-json"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("stanza-json." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-json", 1, ERROR, "the file is not valid JSON"),
    _reader("bad-shape", 1, ERROR,
            "not a list of sentences of word objects with text, ids and coref_chains entries "
            "as Stanza's doc.to_dict() writes them"),
    _reader("unbalanced", 1, ERROR,
            "an is_end or middle attachment with no is_start before it in the sentence, or an "
            "is_start never ended in its sentence"),
    _reader("offset-text", 1, ERROR,
            "start_char/end_char that do not span the token's text, go backwards, or hold "
            "other characters of the document's text: the offsets contradict the text"),
    _reader("representative-text", 1, ERROR,
            "a representative_text that is not the text of the chain's representative mention, "
            "or differs between its words"),
    _reader("duplicate-mention", 3, WARNING, "the same mention twice in one chain; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
