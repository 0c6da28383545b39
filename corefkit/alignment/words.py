"""Which key words each response word stands for.

:func:`link_words` gives every response word a :data:`Link` — the first and last key word its
text covers and whether it starts or ends *inside* a key word — or None when the response word
has no counterpart in the key (an inserted word). Two ways, chosen per document:

* **characters** — when both texts are the same once whitespace, case and equivalent
  characters are set aside (:mod:`corefkit.alignment.text`): only the tokenization differs,
  and each response word covers exactly the key characters at the same place. This is exact.
* **words** — otherwise (LLM output: words inserted, deleted, replaced, truncation): an edit
  script over normalized words (:mod:`corefkit.alignment.script`); equal words pair one to one,
  and each changed stretch is aligned on its own: by characters when its texts are equal
  (re-split tokens, ``I'm`` for ``I 'm``), word for word when both sides have as many words
  (replacements: typos, case, synonyms), else by a character-level edit script.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from corefkit.alignment.script import EQUAL, edit_script
from corefkit.alignment.text import characters, comparable, interned

Link = tuple[int, int, bool, bool]   # first key word, last key word, starts inside, ends inside

CHARACTERS = "characters"
WORDS = "words"
# a changed stretch longer than this (key chars × response chars) pairs words by proportion
FUZZY_LIMIT = 250_000


@dataclass
class WordLinks:
    """The response words' links and what the word alignment counted."""

    links: list[Link | None]
    mode: str
    equal: int = 0        # response words equal to their key word (word mode)
    replaced: int = 0     # response words standing for other key words (word mode)
    inserted: int = 0     # response words without a counterpart
    deleted: int = 0      # key words without a counterpart


class _Texts:
    """Both sides' normalized characters, with the word each character belongs to."""

    def __init__(self, key: Sequence[str], response: Sequence[str]) -> None:
        self.key_text, self.key_starts = characters(key)
        self.response_text, self.response_starts = characters(response)

    def key_chars(self, a1: int, a2: int) -> str:
        return self.key_text[self.key_starts[a1]:self.key_starts[a2]]

    def response_chars(self, b1: int, b2: int) -> str:
        return self.response_text[self.response_starts[b1]:self.response_starts[b2]]

    def link(self, first_char: int, last_char: int) -> Link:
        """The link of a response word whose characters go to key characters
        ``first_char``..``last_char`` (inclusive)."""
        starts = self.key_starts
        first = bisect_right(starts, first_char) - 1
        last = bisect_right(starts, last_char, first) - 1
        # a word without characters shares its start with the next: take the word that has it
        return (first, last, starts[first] != first_char, starts[last + 1] != last_char + 1)


def link_words(key: Sequence[str], response: Sequence[str]) -> WordLinks:
    """The link of every response word to the key words (see the module's description)."""
    texts = _Texts(key, response)
    links: list[Link | None] = [None] * len(response)
    if texts.key_text == texts.response_text:
        _by_characters(texts, 0, len(key), 0, len(response), links)
        return WordLinks(links, CHARACTERS)
    table: dict[str, int] = {}
    a = interned([comparable(w) for w in key], table)
    b = interned([comparable(w) for w in response], table)
    found = WordLinks(links, WORDS)
    for tag, a1, a2, b1, b2 in edit_script(a, b):
        if tag == EQUAL:
            for offset in range(b2 - b1):
                links[b1 + offset] = (a1 + offset, a1 + offset, False, False)
            found.equal += b2 - b1
        else:
            _changed(texts, a1, a2, b1, b2, links)
            covered = sum(1 for j in range(b1, b2) if links[j] is not None)
            found.replaced += covered
            found.inserted += b2 - b1 - covered
    cover = bytearray(len(key))
    for link in links:
        if link is not None:
            cover[link[0]:link[1] + 1] = b"\x01" * (link[1] - link[0] + 1)
    found.deleted = len(key) - sum(cover)
    return found


def _changed(texts: _Texts, a1: int, a2: int, b1: int, b2: int,
             links: list[Link | None]) -> None:
    """Links for a changed stretch: key words a1:a2, response words b1:b2."""
    n, m = a2 - a1, b2 - b1
    if n == 0 or m == 0:
        return
    key_chars, response_chars = texts.key_chars(a1, a2), texts.response_chars(b1, b2)
    if key_chars and key_chars == response_chars:
        _by_characters(texts, a1, a2, b1, b2, links)
    elif n == m:
        for offset in range(m):
            links[b1 + offset] = (a1 + offset, a1 + offset, False, False)
    elif key_chars and response_chars and len(key_chars) * len(response_chars) <= FUZZY_LIMIT:
        _by_fuzzy_characters(texts, a1, a2, b1, b2, links)
    else:
        for offset in range(m):
            word = a1 + offset * n // m
            links[b1 + offset] = (word, word, False, False)


def _by_characters(texts: _Texts, a1: int, a2: int, b1: int, b2: int,
                   links: list[Link | None]) -> None:
    """Words b1:b2 over words a1:a2 whose characters are the same string."""
    shift = texts.key_starts[a1] - texts.response_starts[b1]
    starts = texts.response_starts
    for j in range(b1, b2):
        begin, end = starts[j], starts[j + 1]
        if end > begin:
            links[j] = texts.link(begin + shift, end - 1 + shift)


def _by_fuzzy_characters(texts: _Texts, a1: int, a2: int, b1: int, b2: int,
                         links: list[Link | None]) -> None:
    """Words b1:b2 over words a1:a2 through a character-level edit script."""
    from rapidfuzz.distance import Levenshtein

    key_base, response_base = texts.key_starts[a1], texts.response_starts[b1]
    key_chars, response_chars = texts.key_chars(a1, a2), texts.response_chars(b1, b2)
    target = array("i", [-1]) * len(response_chars)
    for op in Levenshtein.opcodes(key_chars, response_chars):
        if op.tag == "insert" or op.tag == "delete":
            continue
        width_key, width_response = op.src_end - op.src_start, op.dest_end - op.dest_start
        for k in range(width_response):
            target[op.dest_start + k] = key_base + op.src_start + k * width_key // width_response
    for j in range(b1, b2):
        begin, end = texts.response_starts[j] - response_base, \
            texts.response_starts[j + 1] - response_base
        chars = [target[c] for c in range(begin, end) if target[c] >= 0]
        if chars:
            links[j] = texts.link(min(chars), max(chars))
