"""The text an annotation-tool writer (WebAnno TSV, UIMA CAS) writes: the document's own, or one
made from its tokens.

A document read from a character-offset format keeps its text (``doc.attrs[TEXT]``) and token
offsets; the writer writes them back when they still fit the tokens and no token holds a TAB
or a line break (a row could not hold it). Otherwise the text is made from the tokens
(:func:`generated`): one sentence per line, tokens joined by single spaces. A sentence starts at
its first token (INCEpTION requires it) and ends at the end of its ``#Text`` as read, else at
its last token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corefkit.converters.offsets import CHARS, kept_layout
from corefkit.model import Document

ROW_BREAKERS = ("\t", "\n", "\r")
ROW_BREAKER_RE = re.compile("[\t\n\r]")


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
    text, offsets, changed = generated(doc)
    return Layout(text, offsets, _sentences(doc, text, offsets, own=False), False, changed)


def generated(doc: Document) -> tuple[str, dict[int, tuple[int, int]], int]:
    """One sentence per line, tokens joined by single spaces; a TAB or line break inside a
    form becomes ``_`` (a row could not hold it), an empty form ``_``; spaces inside a form
    stay (a token may hold them)."""
    lines: list[str] = []
    offsets: dict[int, tuple[int, int]] = {}
    changed = 0
    pos = 0
    for sentence in doc.sentences:
        words: list[str] = []
        for index in sentence.token_indices():
            token = doc.tokens[index]
            if token.is_empty:
                continue
            form = token.form
            if not form or ROW_BREAKER_RE.search(form):
                form = ROW_BREAKER_RE.sub("_", form) or "_"
                changed += 1
            if words:
                pos += 1
            offsets[index] = (pos, pos + len(form))
            pos += len(form)
            words.append(form)
        if words:
            lines.append(" ".join(words))
            pos += 1
    return "".join(line + "\n" for line in lines), offsets, changed


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
