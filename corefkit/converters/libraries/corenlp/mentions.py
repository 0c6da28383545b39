"""What CoreNLP's XML and JSON share: tokens as forms, and chains of sentence-relative mentions.

A CoreNLP mention is (sentence, start, end, head), all 1-based, ``end`` exclusive (the XML's
``<start>``/``<end>``, the JSON's ``startIndex``/``endIndex``); its stated text is its tokens'
words joined by single spaces (``XMLOutputter`` joins the ``TextAnnotation``\\ s;
``CorefMention.mentionSpan`` the same). :func:`unescaped` undoes the Penn Treebank escapes
CoreNLP's tokenizer may put in ``word`` (``-LRB-`` for ``(``), and :func:`same_characters`
says whether a word stands for characters of the text (the alignment's comparison: ``````
for a straight quote, typographic quotes and dashes as their plain ones).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from corefkit.alignment.text import comparable
from corefkit.converters.libraries.common import Chains, Place
from corefkit.converters.offsets import PTB_ESCAPES
from corefkit.model import Document


@dataclass(frozen=True)
class Mention:
    chain: str
    sentence: int
    start: int
    end: int
    head: int | None
    text: str | None
    where: str


def unescaped(word: str) -> str:
    return PTB_ESCAPES.get(word, word)


def same_characters(word: str, chars: str) -> bool:
    return word == chars or unescaped(word) == chars or comparable(word) == comparable(chars)


def add_chains(doc: Document, place: Place, mentions: Sequence[Mention],
               words: Sequence[Sequence[str]], originals: Sequence[Sequence[str]] | None,
               bad_offsets: str, mention_text: str, duplicate: str) -> None:
    """Each chain an entity (in order of first appearance), its mentions checked against the
    sentences' tokens (``words``: CoreNLP's words, ``originals`` their original texts)."""
    chains = Chains(doc, place, duplicate)
    entities = {}
    for m in mentions:
        if not 1 <= m.sentence <= len(words):
            raise place.error(bad_offsets, f"{m.where}: sentence {m.sentence} is not one of the "
                              f"{len(words)} sentences")
        sentence = words[m.sentence - 1]
        if not 1 <= m.start < m.end <= len(sentence) + 1:
            raise place.error(bad_offsets, f"{m.where}: tokens {m.start} to {m.end} (end "
                              f"exclusive) are not tokens of sentence {m.sentence} "
                              f"({len(sentence)} tokens)")
        if m.head is not None and not m.start <= m.head < m.end:
            raise place.error(bad_offsets, f"{m.where}: the head {m.head} is not one of the "
                              f"mention's tokens {m.start} to {m.end - 1}")
        if m.text is not None and not _spells(m.text, sentence, m.start, m.end) and (
                originals is None
                or not _spells(m.text, originals[m.sentence - 1], m.start, m.end)):
            spelled = " ".join(sentence[m.start - 1:min(m.end - 1, m.start + 9)])
            spelled += " ..." if m.end - m.start > 10 else ""
            raise place.error(mention_text, f"{m.where}: tokens {m.start} to {m.end - 1} of "
                              f"sentence {m.sentence} are {spelled!r}, but the mention's text "
                              f"is {m.text[:200]!r}: the offsets contradict the text")
        if m.chain not in entities:
            entities[m.chain] = chains.entity(m.chain)
        base = doc.sentences[m.sentence - 1].start
        head = base + m.head - 1 if m.head is not None else None
        chains.add(entities[m.chain], base + m.start - 1, base + m.end - 2, m.where, head=head)


def _spells(text: str, words: Sequence[str], start: int, end: int) -> bool:
    """Whether ``text`` is words ``start`` to ``end - 1`` (1-based) joined by spaces; the words
    are joined only as far as the text is long, so a mention costs no more than its text."""
    pieces, length = [], -1
    for word in words[start - 1:end - 1]:
        length += len(word) + 1
        if length > len(text):
            return False
        pieces.append(word)
    return " ".join(pieces) == text
