"""Character offsets and tokens: the text layer of formats that annotate a plain text.

brat standoff and GAP annotate code points of a plain text; corefkit's model annotates tokens.
This module turns a text into tokens by one documented rule, or aligns a given token sequence
(a companion file's words) to the text, and maps character spans to token indices.

**The tokenisation rule** (:func:`tokenize`): every line of the text (lines end at ``\\n``
only) is a sentence, and a line without a visible character gives none; a token is a maximal
run of non-whitespace characters, cut further wherever an annotated span starts or ends inside
such a run. A text whose annotation starts and ends at spaces (LitBank: the words joined by
single spaces, one sentence per line) gets exactly its words; ``Ericsson,`` with a mention
``Ericsson`` gives the tokens ``Ericsson`` and ``,``. Offsets count code points of the text
as it is in the file (a ``\\r`` is a character, and whitespace).

Each token keeps its characters in ``token.attrs[CHARS]`` = ``(start, end)`` (end exclusive)
and the document its text in ``doc.attrs[TEXT]``, so that writers of character-offset formats
(:func:`kept_layout`) write the original text back, and otherwise lay the tokens out one
sentence per line, joined by single spaces (:func:`generated_layout`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence

from corefkit.model import Document, Token

TEXT = "text"      # doc.attrs: the text the character offsets count in
CHARS = "_chars"   # token.attrs: (start, end) of the token in doc.attrs[TEXT]
# mention.attrs: (start, end) of a mention that starts or ends inside a token (a WebAnno
# sub-token annotation); its tokens are the tokens it shares characters with
SUBTOKEN = "_subtoken"

Span = tuple[int, int]

# a BOM at the start of a text is a character (brat counts it) but never part of a word
WORD_RE = re.compile(r"[^\s\ufeff]+")
# Penn Treebank escapes a token sequence may use for characters of the text
PTB_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{",
               "-RCB-": "}", "``": '"', "''": '"'}


def tokenize(text: str, cuts: Iterable[int] = ()) -> list[list[Span]]:
    """Sentences of token spans by the rule of this module (see the module's text)."""
    cut = sorted(set(cuts))
    sentences: list[list[Span]] = []
    line_start = 0
    for line in text.split("\n"):
        tokens: list[Span] = []
        for found in WORD_RE.finditer(line):
            start, end = found.start() + line_start, found.end() + line_start
            i = bisect.bisect_right(cut, start)
            while i < len(cut) and cut[i] < end:
                tokens.append((start, cut[i]))
                start = cut[i]
                i += 1
            tokens.append((start, end))
        if tokens:
            sentences.append(tokens)
        line_start += len(line) + 1
    return sentences


class Misaligned(Exception):
    """A word that is not the next thing in the text (``word`` None: text left over)."""

    def __init__(self, position: int, word: str | None) -> None:
        super().__init__(position, word)
        self.position = position
        self.word = word


def align(text: str, sentences: Sequence[Sequence[str]]) -> list[list[Span]]:
    """The spans of given words in ``text``, which must hold them in order, separated by
    whitespace or nothing (Penn Treebank escapes such as ``-LRB-`` match their character).

    Raises :class:`Misaligned` at the first word that does not come next, or at the first
    visible character left over after the last word.
    """
    pos, n = 0, len(text)
    found: list[list[Span]] = []
    for words in sentences:
        spans: list[Span] = []
        for word in words:
            while pos < n and (text[pos].isspace() or text[pos] == "\ufeff"):
                pos += 1
            if not word.strip():  # a whitespace token: nothing of the text is its own
                spans.append((pos, pos))
                continue
            for form in (word, PTB_ESCAPES.get(word)):
                if form is not None and text.startswith(form, pos):
                    spans.append((pos, pos + len(form)))
                    pos += len(form)
                    break
            else:
                raise Misaligned(pos, word)
        found.append(spans)
    rest = WORD_RE.search(text, pos)
    if rest is not None:
        raise Misaligned(rest.start(), None)
    return found


def place(text: str, position: int) -> tuple[int, int]:
    """(line, column), both 1-based, of a character offset."""
    line_start = text.rfind("\n", 0, position) + 1
    return text.count("\n", 0, position) + 1, position - line_start + 1


class CharIndex:
    """Finds the tokens a character span covers (token spans sorted and disjoint)."""

    def __init__(self, spans: Sequence[Span]) -> None:
        self.starts = [s for s, _ in spans]
        self.ends = [e for _, e in spans]

    def tokens(self, start: int, end: int) -> tuple[range, bool]:
        """The tokens that share characters with ``[start, end)``, and whether none of them
        sticks out of it (the span starts and ends on token boundaries or whitespace)."""
        first = bisect.bisect_right(self.ends, start)
        last = bisect.bisect_left(self.starts, end) - 1
        if first > last:
            return range(0), False
        return range(first, last + 1), self.starts[first] >= start and self.ends[last] <= end


def build_document(doc_id: str, text: str, sentences: Sequence[Sequence[Span]],
                   forms: Sequence[Sequence[str]] | None = None,
                   file: str | None = None) -> Document:
    """A document whose tokens are the spans of ``text`` (forms: the text's, or given)."""
    doc = Document(doc_id, file=file)
    for n, spans in enumerate(sentences):
        words = forms[n] if forms is not None else [text[s:e] for s, e in spans]
        doc.add_sentence([Token(word, -1, -1, {CHARS: span}) for word, span in zip(words, spans)])
    doc.attrs[TEXT] = text
    return doc


def kept_layout(doc: Document) -> tuple[str, dict[int, Span]] | None:
    """The document's own text and token offsets, when it keeps them and they still fit
    (every visible token has offsets, in order, whose characters are its form)."""
    text = doc.attrs.get(TEXT)
    if not isinstance(text, str):
        return None
    offsets: dict[int, Span] = {}
    last = 0
    for token in doc.tokens:
        if token.is_empty:
            continue
        span = token.attrs.get(CHARS)
        if not isinstance(span, (tuple, list)) or len(span) != 2:
            return None
        start, end = int(span[0]), int(span[1])
        if start < last or end > len(text) or text[start:end] not in (
                token.form, PTB_ESCAPES.get(token.form)):
            return None
        offsets[token.index] = (start, end)
        last = end
    return text, offsets


def generated_layout(doc: Document) -> tuple[str, dict[int, Span]]:
    """A text for the document: one sentence per line, its visible tokens joined by single
    spaces, a final newline; and the token offsets. Forms are written as they are: a writer
    whose reader splits the text at white space refuses forms that hold some (the registry,
    :mod:`corefkit.converters.forms`), and the fastcoref shape reports what its reader's rule
    makes of them."""
    lines: list[str] = []
    offsets: dict[int, Span] = {}
    pos = 0
    tokens = doc.tokens
    for sentence in doc.sentences:
        words: list[str] = []
        for index in range(sentence.start, sentence.stop):
            token = tokens[index]
            if token.is_empty:
                continue
            form = token.form
            if words:
                pos += 1
            offsets[index] = (pos, pos + len(form))
            pos += len(form)
            words.append(form)
        if words:
            lines.append(" ".join(words))
            pos += 1  # the newline
    return "".join(line + "\n" for line in lines), offsets


def replaced_layout(doc: Document) -> tuple[str, dict[int, Span], int]:
    """:func:`generated_layout` for the writers of formats without a form rule (the library
    formats), which write white space inside a form as ``_`` and an empty form as ``_``
    themselves: the text, the offsets, and how many forms changed."""
    lines: list[str] = []
    offsets: dict[int, Span] = {}
    changed = 0
    pos = 0
    tokens = doc.tokens
    for sentence in doc.sentences:
        words: list[str] = []
        for index in range(sentence.start, sentence.stop):
            token = tokens[index]
            if token.is_empty:
                continue
            form = token.form
            if not form or FORM_SPACE_RE.search(form):
                form = FORM_SPACE_RE.sub("_", form) or "_"
                changed += 1
            if words:
                pos += 1
            offsets[index] = (pos, pos + len(form))
            pos += len(form)
            words.append(form)
        if words:
            lines.append(" ".join(words))
            pos += 1  # the newline
    return "".join(line + "\n" for line in lines), offsets, changed


FORM_SPACE_RE = re.compile(r"\s")


def runs(positions: Sequence[int]) -> list[tuple[int, int]]:
    """Maximal runs of consecutive integers, as (first, last) pairs."""
    found: list[tuple[int, int]] = []
    for p in positions:
        if found and found[-1][1] + 1 == p:
            found[-1] = (found[-1][0], p)
        else:
            found.append((p, p))
    return found
