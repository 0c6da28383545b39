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
from itertools import accumulate

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


# ASCII characters that normalize to something else than their lower case
_ASCII = str.maketrans({c: v for c, v in _EQUIVALENT.items() if c.isascii()}
                       | {c: "" for c in " \t\n\r\x0b\x0c"}
                       | {chr(c): "" for c in range(32)} | {"\x7f": ""})


@lru_cache(maxsize=65536)
def normal_text(form: str) -> str:
    """A form's characters as compared (:func:`normal_char` of each, joined)."""
    if form.isascii():
        return form.translate(_ASCII).lower()
    return "".join(normal_char(c) for c in form)


@lru_cache(maxsize=65536)
def comparable(form: str) -> str:
    """A word as the word alignment compares it."""
    whole = _WORDS.get(form)
    if whole is not None:
        return whole
    return normal_text(form)


def characters(forms: Sequence[str]) -> tuple[str, array]:
    """The normalized characters of ``forms`` run together, and where each form starts in
    the string (``len(forms) + 1`` offsets; the form of a character is found by bisection)."""
    pieces = [normal_text(form) for form in forms]
    starts = array("i", [0])
    starts.extend(accumulate(len(p) for p in pieces))
    return "".join(pieces), starts


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
