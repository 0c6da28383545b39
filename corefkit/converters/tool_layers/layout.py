"""The text an annotation-tool writer (WebAnno TSV, UIMA CAS) writes: the document's own, or one
made from its tokens.

A document read from a character-offset format keeps its text (``doc.attrs[TEXT]``) and token
offsets; the writer writes them back when they still fit the tokens and no token holds a TAB
or a line break (a row could not hold it). Otherwise the text is made as
:func:`corefkit.converters.offsets.generated_layout` makes it: one sentence per line, tokens
joined by single spaces (whitespace inside a form becomes ``_``). A sentence starts at its
first token (INCEpTION requires it) and ends at the end of its ``#Text`` as read, else at its
last token.
"""

from __future__ import annotations

from dataclasses import dataclass

from corefkit.converters.offsets import CHARS, generated_layout, kept_layout
from corefkit.model import Document

ROW_BREAKERS = ("\t", "\n", "\r")


@dataclass
class Layout:
    text: str
    offsets: dict[int, tuple[int, int]]     # token index -> code points
    sentences: list[tuple[int, int]]        # per sentence: (begin, end) code points
    kept: bool                              # the document's own text
    changed_forms: int = 0


def layout(doc: Document) -> Layout:
    kept = kept_layout(doc)
    if kept is not None:
        text, offsets = kept
        forms_fit = all(not any(c in text[b:e] for c in ROW_BREAKERS) and b < e
                        for b, e in offsets.values())
        if forms_fit and all(t.index in offsets for t in doc.tokens if not t.is_empty):
            return Layout(text, offsets, _sentences(doc, text, offsets), True)
    text, offsets, changed = generated_layout(doc)
    return Layout(text, offsets, _sentences(doc, text, offsets, own=False), False, changed)


def _sentences(doc: Document, text: str, offsets: dict[int, tuple[int, int]],
               own: bool = True) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    spans = []
    for sentence in doc.sentences:
        words = [offsets[i] for i in sentence.token_indices() if i in offsets]
        spans.append((words[0][0], words[-1][1]) if words else None)
    for n, (sentence, span) in enumerate(zip(doc.sentences, spans)):
        if span is None:
            found.append((-1, -1))
            continue
        begin, end = span
        stated = sentence.attrs.get(CHARS)
        following = next((s[0] for s in spans[n + 1:] if s is not None), len(text))
        if own and isinstance(stated, (tuple, list)) and len(stated) == 2 \
                and int(stated[0]) == begin and end <= int(stated[1]) <= min(following, len(text)):
            end = int(stated[1])
        found.append((begin, end))
    return found


def utf16_offsets(text: str) -> list[int] | None:
    """For each code-point offset of ``text`` its UTF-16 offset (None: they are the same)."""
    if text.isascii() or all(ord(ch) <= 0xFFFF for ch in text):
        return None
    found = [0]
    for ch in text:
        found.append(found[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return found
