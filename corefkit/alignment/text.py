"""How two texts are compared: characters and words as the alignment sees them.

Tokenizers and LLMs change more than token boundaries: they swap typographic quotes for straight
ones, dashes for hyphens, case, and an ellipsis for three dots. The alignment compares
*normalized* text, one character at a time (:func:`normal_char`) so that every normalized
character still knows the token it came from, and one word at a time (:func:`comparable`).
Whitespace and ``_`` (which the CRAC LLM-track text writes for a space inside a form) are not
text here: they carry token boundaries only.
"""

from __future__ import annotations

import unicodedata
from array import array
from collections.abc import Sequence
from functools import lru_cache

# characters written several ways for the same thing
_EQUIVALENT = {
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2033": '"', "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "`": "'",
    "\u00b4": "'", "\u2032": "'", "\u2013": "-", "\u2014": "-", "\u2012": "-", "\u2015": "-",
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2026": "...", "_": "",
}
# whole words that stand for one character (PTB quotes, ASCII dashes)
_WORDS = {"``": '"', "''": '"', "--": "-", "---": "-"}


@lru_cache(maxsize=8192)
def normal_char(char: str) -> str:
    """One character as compared: equivalents unified, NFKC, case folded; '' for whitespace."""
    same = _EQUIVALENT.get(char)
    if same is not None:
        return same
    if char.isspace() or unicodedata.category(char) in ("Cf", "Cc"):
        return ""
    return unicodedata.normalize("NFKC", char).casefold()


def comparable(form: str) -> str:
    """A word as the word alignment compares it."""
    whole = _WORDS.get(form)
    if whole is not None:
        return whole
    return "".join(normal_char(c) for c in form)


def characters(forms: Sequence[str]) -> tuple[str, array, array]:
    """The normalized characters of ``forms`` run together, the form each came from, and
    where each form starts in the string (``len(forms) + 1`` offsets)."""
    pieces: list[str] = []
    owner = array("i")
    starts = array("i", [0])
    size = 0
    for index, form in enumerate(forms):
        text = "".join(normal_char(c) for c in form)
        pieces.append(text)
        size += len(text)
        owner.extend([index] * len(text))
        starts.append(size)
    return "".join(pieces), owner, starts


def interned(words: Sequence[str], table: dict[str, int]) -> list[int]:
    """Each word's number in ``table`` (new words are added): sequences of small integers are
    what the edit-script library compares fastest."""
    out = []
    for word in words:
        number = table.get(word)
        if number is None:
            number = table[word] = len(table)
        out.append(number)
    return out
