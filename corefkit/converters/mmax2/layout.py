"""MMAX2 project layout shared by the reader and the writer: scheme types and span strings.

Specification: ``formats/mmax2.md``. A project is a ``.mmax`` file naming a words file, plus a
``common_paths.xml`` saying where the words (``Basedata/``), the markable files (one per
annotation level, ``Markables/``) and the schemes (``Schemes/``) are. A markable's span names
words by id: maximal runs ``word_1..word_5`` joined by commas (``word_1..word_5,word_7``).
Schemes declare coreference attributes as ``markable_set`` or ``markable_pointer``.
"""

from __future__ import annotations

SET_TYPE = "markable_set"
POINTER_TYPE = "markable_pointer"


class SpanError(Exception):
    """A span that names unknown words or runs backwards (the caller adds file and line)."""


def parse_span(span: str, index: dict[str, int]) -> tuple[tuple[int, ...], bool]:
    """Token indices of a span (sorted union of its fragments) and whether fragments overlap.

    ``index`` maps word ids to token indices.
    """
    if "," not in span:
        a, b = _fragment(span, index)
        return tuple(range(a, b + 1)), False
    covered: set[int] = set()
    total = 0
    for piece in span.split(","):
        a, b = _fragment(piece, index)
        total += b - a + 1
        covered.update(range(a, b + 1))
    tokens = tuple(sorted(covered))
    return tokens, total > len(tokens)


def _fragment(text: str, index: dict[str, int]) -> tuple[int, int]:
    text = text.strip()
    if not text:
        raise SpanError("empty span fragment")
    if ".." in text:
        first, _, last = text.partition("..")
        first, last = first.strip(), last.strip()
    else:
        first = last = text
    a = index.get(first)
    if a is None:
        raise SpanError(f"unknown word id {first!r} in span fragment {text!r}")
    b = a if last is first else index.get(last)
    if b is None:
        raise SpanError(f"unknown word id {last!r} in span fragment {text!r}")
    if b < a:
        raise SpanError(f"span fragment {text!r} ends before it starts")
    return a, b


def span_string(ids: list[str], positions: tuple[int, ...]) -> str:
    """MMAX2 span syntax for word positions: maximal runs ``a..b`` joined by commas."""
    runs: list[list[int]] = []
    for w in positions:
        if runs and runs[-1][1] + 1 == w:
            runs[-1][1] = w
        else:
            runs.append([w, w])
    return ",".join(ids[a] if a == b else f"{ids[a]}..{ids[b]}" for a, b in runs)
