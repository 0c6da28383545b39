"""GAP TSV checks: the reader's rejections and what it reports about well-formed rows.

A GAP file is refused at a header that is not GAP's, a row without its 11 columns or ID, an
offset that does not point at its string, or a label other than TRUE/FALSE. Kept and
reported: an ID used twice (scorers pair examples by ID and keep the first), both names TRUE
(never in GAP), and a pronoun outside GAP's gendered list (the official scorer stops there).
Every finding points at the example's line.
"""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "gap"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("gap." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("bad-header", 1, ERROR,
            "the first line is not GAP's header (ID, Text, Pronoun, Pronoun-offset, A, "
            "A-offset, A-coref, B, B-offset, B-coref, URL)"),
    _reader("bad-columns", 1, ERROR,
            "a row without 11 TAB-separated fields, without an ID, or with an empty pronoun or "
            "name"),
    _reader("bad-offset", 1, ERROR,
            "an offset that is not a number or does not point at its string in the text"),
    _reader("bad-label", 1, ERROR, "an A-coref or B-coref that is not TRUE or FALSE"),
    _reader("duplicate-id", 2, ERROR,
            "two examples with the same ID; scorers pair examples by ID and score the first"),
    _reader("both-true", 2, WARNING,
            "A-coref and B-coref both TRUE; GAP never labels a row so (the two names would "
            "corefer)"),
    _reader("unknown-pronoun", 2, WARNING,
            "a pronoun outside GAP's list (she, her, hers, he, his, him): no gender, and the "
            "official scorer stops at it"),
)


PLUGIN = FormatPlugin(FORMAT)
