"""Stanza's CoNLL-U with ``coref_chains=`` in MISC: the reader.

The lines are read by corefkit's CoNLL-U reader (:mod:`corefkit.converters.corefud.reader`:
comments, multi-word tokens, empty nodes, ``# newdoc``; its checks apply), then each word's
MISC: ``coref_chains=`` holds its attachments (:mod:`.chains`), comma-separated, rebuilt into
mentions per sentence; each chain index is an entity. Files written before Stanza's June 2026
fix (stanza PR #1628) spell the key ``ner=`` (``ner=unit-repr-id3``): such values are read as
attachments, with a warning (``stanza.legacy-key``).

Offsets are checked against the text: every token (a multi-word token's range line, else the
word) with ``start_char``/``end_char`` spans as many characters as its form, after the previous
one; and the forms, put at their offsets, give the sentence's ``# text`` (Stanza writes it with
runs of white space made one space). A contradiction refuses the file, naming the document,
the sentence and the token's line.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from corefkit.converters.libraries.common import Chains, Place
from corefkit.converters.libraries.stanza.chains import Attachment, mentions
from corefkit.errors import FormatError
from corefkit.model import Document, Sentence, Token

BAD_CHAIN = "stanza.bad-chain"
UNBALANCED = "stanza.unbalanced"
OFFSET_TEXT = "stanza.offset-text"
LEGACY_KEY = "stanza.legacy-key"
DUPLICATE = "stanza.duplicate-mention"


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    from corefkit.converters.corefud.reader import read_stream as read_conllu

    for doc in read_conllu(stream, file):
        yield annotate(doc, file)


def _misc(text: str | None) -> list[tuple[str, str]]:
    items = []
    for item in (text or "").split("|"):
        key, sep, value = item.partition("=")
        if sep:
            items.append((key, value))
    return items


def annotate(doc: Document, file: str) -> Document:
    """The coreference chains of a CoNLL-U document read from its words' MISC."""
    spans: list[tuple[int, int, int]] = []     # chain, first token, last token
    legacy: list[int] = []
    for sentence in doc.sentences:
        lines = _lines(doc, sentence)
        place = Place(file, lines[0] if lines else doc.line, doc.name)
        _check_offsets(doc, sentence, lines, place)
        words: list[list[Attachment]] = []
        for index, line in zip(sentence.token_indices(), lines):
            words.append(_attachments(doc.tokens[index], Place(file, line, doc.name), legacy))

        def fail(i: int, message: str, sentence: Sentence = sentence,
                 lines: list[int] = lines) -> FormatError:
            token = doc.tokens[sentence.start + i]
            return Place(file, lines[i], doc.name).error(
                UNBALANCED, f"sentence {sentence.sent_id or sentence.index + 1}: word "
                f"{token.id or i + 1} {token.form!r} {message}")

        spans += [(found.chain, sentence.start + found.first, sentence.start + found.last)
                  for found in mentions(words, fail)]
    add_chains(doc, Place(file, doc.line, doc.name), spans, DUPLICATE)
    for token in doc.tokens:  # read into the model: a writer writes the chains its own way
        if token.misc and ("coref_chains=" in token.misc or "ner=" in token.misc):
            token.misc = _without_chains(token.misc)
    if legacy:
        Place(file, legacy[0], doc.name).warn(
            doc, LEGACY_KEY, f"{len(legacy)} word{'s' if len(legacy) > 1 else ''} carry "
            "coreference under ner= (Stanza before June 2026); read as coref_chains")
    return doc


def _without_chains(misc: str) -> str:
    """MISC without its coreference items: ``coref_chains=``, and ``ner=`` where it holds
    chain attachments (Stanza before June 2026); ``_`` when nothing is left."""
    kept = [item for item in misc.split("|")
            if not item.startswith("coref_chains=") and not (
                item.startswith("ner=") and all(Attachment.from_misc(a) is not None
                                                for a in item[4:].split(",")))]
    return "|".join(kept) or "_"


def add_chains(doc: Document, place: Place, spans: list[tuple[int, int, int]],
               duplicate: str) -> None:
    """Entities in chain-index order (``doc.coref``'s), each with its mentions."""
    chains = Chains(doc, place, duplicate)
    entities = {index: chains.entity(str(index)) for index in sorted({c for c, _, _ in spans})}
    for chain, first, last in spans:
        chains.add(entities[chain], first, last, f"chain {chain}")


def _lines(doc: Document, sentence: Sentence) -> list[int]:
    """The file line of each token of a sentence (range lines of multi-word tokens counted)."""
    line = sentence.attrs.get("token_line")
    if not isinstance(line, int):
        return [doc.line or 0] * (sentence.stop - sentence.start)
    found = []
    for index in sentence.token_indices():
        if doc.tokens[index].attrs.get("conllu_mwt") is not None:
            line += 1
        found.append(line)
        line += 1
    return found


def _attachments(token: Token, place: Place, legacy: list[int]) -> list[Attachment]:
    found: list[Attachment] = []
    for key, value in _misc(token.misc):
        if key not in ("coref_chains", "ner"):
            continue
        items = value.split(",")
        parsed = [Attachment.from_misc(item) for item in items]
        if key == "ner":
            if all(p is not None for p in parsed):
                legacy.append(place.line or 0)
            else:
                continue   # a named-entity tag
        for item, attachment in zip(items, parsed):
            if attachment is None:
                raise place.error(BAD_CHAIN, f"word {token.id} {token.form!r}: {key}={value} "
                                  f"holds {item!r}, which is not POSITION-[repr-]idN (POSITION "
                                  "unit, start, middle or end)")
            found.append(attachment)
    return found


def _check_offsets(doc: Document, sentence: Sentence, lines: list[int], place: Place) -> None:
    """start_char/end_char of the sentence's tokens against their forms and ``# text``."""
    units: list[tuple[int, str, int, int]] = []      # line, form, start, end
    for index, line in zip(sentence.token_indices(), lines):
        token = doc.tokens[index]
        mwt = token.attrs.get("conllu_mwt")
        if isinstance(mwt, str):
            fields = mwt.split("\t")
            if len(fields) == 10:
                _unit(units, line - 1, fields[1], fields[9], place)
        _unit(units, line, token.form, token.misc, place)
    last = -1
    for line, form, start, end in units:
        at = Place(place.file, line, place.name)
        if end - start != len(form):
            raise at.error(OFFSET_TEXT, f"{form!r} has start_char={start}|end_char={end}: "
                           f"{end - start} characters for a form of {len(form)}")
        if start < last:
            raise at.error(OFFSET_TEXT, f"{form!r} starts at character {start}, before the "
                           f"previous token ends ({last})")
        last = end
    text = next((c.split("=", 1)[1] for c in sentence.comments
                 if c.replace(" ", "").startswith("#text=")), None)
    if not units or text is None:
        return
    pieces, previous = [], units[0][2]
    for _, form, start, end in units:   # white space between tokens is one space in # text
        pieces.append((" " if start > previous else "") + form)
        previous = end
    rebuilt, given = " ".join("".join(pieces).split()), " ".join(text.split())
    if rebuilt != given:
        n = next((i for i, (a, b) in enumerate(zip(rebuilt, given)) if a != b),
                 min(len(rebuilt), len(given)))
        near = slice(max(0, n - 15), n + 15)
        raise place.error(OFFSET_TEXT, f"sentence {sentence.sent_id or sentence.index + 1}: "
                          f"the forms at their start_char/end_char give {rebuilt[near]!r} "
                          f"where # text has {given[near]!r}")


def _unit(units: list[tuple[int, str, int, int]], line: int, form: str, misc: str | None,
          place: Place) -> None:
    values = dict(_misc(misc))
    start, end = values.get("start_char"), values.get("end_char")
    if start is None and end is None:
        return
    if not (start and end and start.isdecimal() and end.isdecimal()):
        raise Place(place.file, line, place.name).error(
            OFFSET_TEXT, f"{form!r}: start_char={start} and end_char={end} should both be "
            "character offsets")
    units.append((line, form, int(start), int(end)))
