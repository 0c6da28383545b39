"""A document's words as key/response pairing compares them, and their first difference.

Scorers pair mentions by word position, so a key document and its response must hold the same
words. :class:`Words` is what a document gives for that comparison: its word forms in order
(empty nodes left out: zeros are annotation, not text), where each sentence starts, and
optionally a *signature*, what its reader knows about the words for free. A reader that defers
building its tokens (CoNLL-2012: scoring never needs token objects) hands over its token
lines (:class:`TokenLines`), so that the usual case, a response made from the key's own lines,
is settled by comparing lines, and the forms are split out only when other columns differ.

:func:`first_difference` names the first word where two documents differ (or where one of
them ends); it is linear in the words compared and stops at the first difference.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress, count
from operator import ne
from typing import Any, Protocol


class Signature(Protocol):
    """What a reader knows for free about a document's words: ``same_words(other)`` is True
    when the two documents certainly hold the same words, False when they certainly do not,
    None when it cannot tell (the forms decide)."""

    def same_words(self, other: object) -> bool | None: ...


class TokenLines:
    """The token lines of a document whose last TAB-separated field is the coreference cell
    (CoNLL-2012 with one layout): documents whose lines are equal but for that cell hold the
    same words. Lines compared in C first; only the lines that differ are cut."""

    __slots__ = ("lines",)

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def same_words(self, other: object) -> bool | None:
        if not isinstance(other, TokenLines) or len(other.lines) != len(self.lines):
            return None
        a, b = self.lines, other.lines
        for i in compress(count(), map(ne, a, b)):
            if a[i].rpartition("\t")[0] != b[i].rpartition("\t")[0]:
                return None  # other columns differ too: the forms decide
        return True


class Words:
    """The word forms of one document, computed on demand.

    ``count`` is the number of words; ``forms`` (a list, or a callable that makes it on first
    use) the forms, or None when the format has no word forms (a CoNLL-2012 layout without a
    word column: only the count can be compared); ``sentence_starts`` the word ordinal where
    each sentence starts, and ``sentence_ids`` each sentence's id (None where it has none);
    ``signature`` what the reader knows for free about the words (:class:`Signature`).
    """

    __slots__ = ("count", "_forms", "_make", "sentence_starts", "sentence_ids", "signature")

    def __init__(self, count: int, forms: list[str] | Callable[[], list[str]] | None,
                 sentence_starts: list[int], sentence_ids: list[str | None] | None = None,
                 signature: Signature | None = None) -> None:
        self.count = count
        self._forms: list[str] | None = forms if isinstance(forms, list) else None
        self._make = forms if callable(forms) else None
        self.sentence_starts = sentence_starts
        self.sentence_ids = sentence_ids
        self.signature = signature

    def __reduce__(self) -> tuple[Any, ...]:
        # to another process (scoring workers send reduced documents): the forms themselves,
        # without the factory and the signature it was made from
        return (Words, (self.count, self.forms, self.sentence_starts, self.sentence_ids))

    @property
    def known(self) -> bool:
        """False when the format holds no word forms (only the count is known)."""
        return self._forms is not None or self._make is not None

    @property
    def forms(self) -> list[str] | None:
        if self._forms is None and self._make is not None:
            self._forms, self._make = self._make(), None
        return self._forms

    def sentence_of(self, ordinal: int) -> tuple[int, int]:
        """(sentence index, 1-based word number in that sentence) of the ``ordinal``-th word
        (0-based); past the end: the last sentence, one past its last word."""
        starts = self.sentence_starts
        if not starts:
            return 0, ordinal + 1
        index = max(0, bisect.bisect_right(starts, ordinal) - 1)
        return index, ordinal - starts[index] + 1


@dataclass(frozen=True)
class WordDifference:
    """Where two documents' words first differ: the word's 0-based ordinal, its form on each
    side (None: that side has ended, or holds no forms), and the two word counts."""

    ordinal: int
    key_word: str | None
    response_word: str | None
    key_count: int
    response_count: int

    def describe(self, where: Words, also: str | None = None) -> str:
        """``word 12 is 'a' in the key but 'b' in the response (sentence 2 (s-2), its word
        3)``: words numbered in the document, sentences as ``where`` (the response's words)
        has them; where one side ended early, both counts and what the other goes on with.
        ``also`` joins the parenthesis (the key's place)."""
        sentence, word = where.sentence_of(self.ordinal)
        label = str(sentence + 1)
        ids = where.sentence_ids
        if ids is not None and 0 <= sentence < len(ids) and ids[sentence]:
            label += f" ({ids[sentence]})"
        place = f"sentence {label}, its word {word}" + (f"; {also}" if also else "")
        n = self.ordinal + 1
        if self.key_word is not None and self.response_word is not None:
            return (f"word {n} is {self.key_word!r} in the key but {self.response_word!r} in "
                    f"the response ({place})")
        counts = (f"the key has {self.key_count} word{'' if self.key_count == 1 else 's'} and "
                  f"the response {self.response_count}")
        if self.key_count > self.response_count:
            shown = f" ({self.key_word!r})" if self.key_word is not None else ""
            return f"{counts}; the response ends before key word {n}{shown} ({place})"
        shown = f" ({self.response_word!r})" if self.response_word is not None else ""
        return f"{counts}; the response has extra words from word {n}{shown} ({place})"


def first_difference(key: Words, response: Words) -> WordDifference | None:
    """The first word where ``key`` and ``response`` differ, or None when they hold the same
    words. Forms are compared when both sides have them, else only the counts."""
    if key.signature is not None and response.signature is not None \
            and key.count == response.count and key.signature.same_words(response.signature):
        return None
    a, b = key.forms, response.forms
    if a is not None and b is not None:
        if a == b:
            return None
        for i, (k, r) in enumerate(zip(a, b)):
            if k != r:
                return WordDifference(i, k, r, len(a), len(b))
        n = min(len(a), len(b))
        return WordDifference(n, a[n] if n < len(a) else None, b[n] if n < len(b) else None,
                              len(a), len(b))
    if key.count == response.count:
        return None
    n = min(key.count, response.count)
    return WordDifference(n, a[n] if a is not None and n < len(a) else None,
                          b[n] if b is not None and n < len(b) else None,
                          key.count, response.count)


__all__ = ["WordDifference", "Words", "first_difference"]
