"""Stanza CoNLL-U checks: the reader's rejections and warnings (the CoNLL-U reader's own
checks, ``corefud.*``, apply to the lines)."""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "stanza"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("stanza." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-chain", 1, ERROR,
            "a coref_chains item that is not POSITION-[repr-]idN (POSITION unit, start, middle "
            "or end)"),
    _reader("unbalanced", 1, ERROR,
            "an end or middle attachment with no start before it in the sentence, or a start "
            "never ended in its sentence"),
    _reader("offset-text", 1, ERROR,
            "start_char/end_char that do not span the form, go backwards, or do not give the "
            "sentence's # text: the offsets contradict the text"),
    _reader("legacy-key", 2, WARNING,
            "coreference attachments under ner= (Stanza before June 2026); read as "
            "coref_chains"),
    _reader("duplicate-mention", 3, WARNING, "the same mention twice in one chain; kept once"),
)

PLUGIN = FormatPlugin(FORMAT)
