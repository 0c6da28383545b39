"""Stanza's ``Document.to_dict()`` JSON: the reader.

The file is one document: a list of sentences, each a list of objects — a word ``{"id": 3,
"text", "start_char", "end_char", "coref_chains": [...], …}``, a multi-word token ``{"id":
[1, 2], "text", "start_char", "end_char"}`` followed by its words, or an empty node ``{"id":
[3, 1], "text"}`` (a two-number id is a multi-word token when the next object is its first
word). ``doc.to_serialized()`` JSON (``{"text", "sentences", "comments"}``) holds the same list
under ``sentences`` beside the document's text. Each attachment (``index``,
``representative_text``, ``is_start``, ``is_end``, ``is_representative``; flags left out when
false) is rebuilt into mentions as :mod:`corefkit.converters.libraries.stanza.chains` says.

Checked, and refused with the document and the place when contradicted: every token with
``start_char``/``end_char`` spans as many characters as its text, after the previous one, and
is exactly those characters of the document's ``text`` when the file gives it; a chain's
``representative_text`` is the text of the mention its representative words make (white space
aside; Stanza joins the words' or their multi-word token's texts by their SpaceAfter).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.libraries.common import (
    Place,
    is_int,
    load_json,
    shown,
    stem_of,
    whole_text,
)
from corefkit.converters.libraries.stanza.chains import Attachment, Found, mentions
from corefkit.converters.libraries.stanza.reader import add_chains
from corefkit.errors import FormatError
from corefkit.model import Document, Token

BAD_JSON = "stanza-json.bad-json"
BAD_SHAPE = "stanza-json.bad-shape"
UNBALANCED = "stanza-json.unbalanced"
OFFSET_TEXT = "stanza-json.offset-text"
REPRESENTATIVE = "stanza-json.representative-text"
DUPLICATE = "stanza-json.duplicate-mention"
FIELDS = ("lemma", "upos", "xpos", "feats", "deprel", "deps", "misc")


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    data = load_json(whole_text(stream, file), file, BAD_JSON)
    doc = Document(stem_of(file), None, file=file)
    place = Place(file, 1, doc.name)     # one JSON value: the document starts on line 1
    text = None
    if isinstance(data, dict):
        text, data = data.get("text"), data.get("sentences")
        if text is not None and not isinstance(text, str):
            raise place.error(BAD_SHAPE, f"text should be a string, not {shown(text)}")
    if not isinstance(data, list) or not all(isinstance(s, list) for s in data):
        raise place.error(BAD_SHAPE, "the file should hold a list of sentences, each a list of "
                          "word objects (Stanza's doc.to_dict())")
    spans: list[tuple[int, int, int]] = []
    surfaces: dict[int, tuple[int, int, str]] = {}    # word token -> its multi-word token
    representatives: dict[int, list[Found]] = {}
    stated: dict[int, str] = {}
    last = [-1]
    for number, sentence in enumerate(data, 1):
        start = doc.token_count
        words = _sentence(doc, place, number, sentence, text, last, surfaces, stated)

        def fail(i: int, message: str, number: int = number, start: int = start) -> FormatError:
            token = doc.tokens[start + i]
            return place.error(UNBALANCED, f"sentence {number}: word {token.id} "
                               f"{token.form!r} {message}")

        for found in mentions(words, fail):
            spans.append((found.chain, start + found.first, start + found.last))
            if found.representative:
                representatives.setdefault(found.chain, []).append(
                    Found(found.chain, start + found.first, start + found.last, True))
    _check_representatives(doc, place, representatives, stated, surfaces)
    add_chains(doc, place, spans, DUPLICATE)
    yield doc


def _sentence(doc: Document, place: Place, number: int, items: list[Any], text: str | None,
              last: list[int], surfaces: dict[int, tuple[int, int, str]],
              stated: dict[int, str]) -> list[list[Attachment]]:
    tokens: list[Token] = []
    words: list[list[Attachment]] = []
    mwt: tuple[int, int, str] | None = None     # first and last word id, the token's text
    for k, item in enumerate(items):
        where = f"sentence {number}, object {k + 1}"
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise place.error(BAD_SHAPE, f"{where} should be an object with a text string, not "
                              f"{shown(item)}")
        ident: Any = item.get("id")
        form = item["text"]
        following = items[k + 1].get("id") if k + 1 < len(items) and isinstance(
            items[k + 1], dict) else None
        pair = isinstance(ident, list) and len(ident) == 2 and all(is_int(x) for x in ident)
        if pair and following == ident[0]:
            _offsets(place, where, item, form, text, last)
            mwt = (ident[0], ident[1], form)
            continue
        if not (is_int(ident) or pair):
            raise place.error(BAD_SHAPE, f"{where} has the id {shown(ident)}, not a word number "
                              "or a [word, n] empty node")
        token = Token(form, id=f"{ident[0]}.{ident[1]}" if pair else str(ident), is_empty=pair)
        for field in FIELDS:
            value = item.get(field)
            if isinstance(value, str):
                setattr(token, field, value)
        if is_int(item.get("head")):
            token.head = str(item["head"])
        index = doc.token_count + len(tokens)
        if mwt is not None and is_int(ident) and mwt[0] <= ident <= mwt[1]:
            first = index - (ident - mwt[0])
            surfaces[index] = (first, first + mwt[1] - mwt[0], mwt[2])
        else:
            mwt = None
        if "start_char" in item or "end_char" in item:
            _offsets(place, where, item, form, text, last)
        words.append(_attachments(place, where, item.get("coref_chains"), stated))
        tokens.append(token)
    doc.add_sentence(tokens)
    return words


def _offsets(place: Place, where: str, item: dict[str, Any], form: str, text: str | None,
             last: list[int]) -> None:
    start, end = item.get("start_char"), item.get("end_char")
    if not (is_int(start) and is_int(end)):
        raise place.error(OFFSET_TEXT, f"{where} ({form!r}): start_char {shown(start)} and "
                          f"end_char {shown(end)} should be character offsets")
    if end - start != len(form) or start < last[0]:
        raise place.error(OFFSET_TEXT, f"{where} ({form!r}) has start_char {start} and "
                          f"end_char {end}: " + ("not the length of its text" if
                                                 end - start != len(form) else
                                                 f"before the previous token's end ({last[0]})"))
    if text is not None and text[start:end] != form:
        raise place.error(OFFSET_TEXT, f"{where} ({form!r}) is at characters {start}-{end}, "
                          f"which hold {text[start:end]!r} in the text")
    last[0] = end


def _attachments(place: Place, where: str, value: Any,
                 stated: dict[int, str]) -> list[Attachment]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise place.error(BAD_SHAPE, f"{where}: coref_chains should be a list, not "
                          f"{shown(value)}")
    found = []
    for item in value:
        if not (isinstance(item, dict) and is_int(item.get("index"))
                and all(isinstance(item.get(f, False), bool)
                        for f in ("is_start", "is_end", "is_representative"))):
            raise place.error(BAD_SHAPE, f"{where}: {shown(item)} is not a coref_chains entry "
                              "(index, representative_text, is_start, is_end, "
                              "is_representative)")
        index = item["index"]
        text = item.get("representative_text")
        if isinstance(text, str):
            if stated.setdefault(index, text) != text:
                raise place.error(REPRESENTATIVE, f"{where}: chain {index} has the "
                                  f"representative_text {text!r} here and "
                                  f"{stated[index]!r} before")
        found.append(Attachment(index, item.get("is_start", False), item.get("is_end", False),
                                item.get("is_representative", False)))
    return found


def _check_representatives(doc: Document, place: Place, found: dict[int, list[Found]],
                           stated: dict[int, str],
                           surfaces: dict[int, tuple[int, int, str]]) -> None:
    """Each chain's representative_text against the words of its representative mention."""
    for chain, text in stated.items():
        if text == "_":
            continue   # a chain of zeros only
        # a mention of more words than the text has characters cannot be it (and is not
        # spelled: no chain costs more than its representative_text, stated on each word)
        candidates = [f for f in found.get(chain, []) if f.last - f.first < len(text) + 1]
        spelled = [_surface(doc, f.first, f.last, surfaces) for f in candidates]
        wanted = "".join(text.split())
        if wanted not in ["".join(s.split()) for s in spelled]:
            shown_as = spelled[0] if spelled else "no mention marked representative"
            raise place.error(REPRESENTATIVE, f"chain {chain}: representative_text {text!r} "
                              f"is not the text of its representative mention ({shown_as!r}): "
                              "the attachments contradict the text")


def _surface(doc: Document, first: int, last: int,
             surfaces: dict[int, tuple[int, int, str]]) -> str:
    """The mention's text: a multi-word token wholly inside it as its own text."""
    pieces = []
    i = first
    while i <= last:
        mwt = surfaces.get(i)
        if mwt is not None and mwt[0] >= first and mwt[1] <= last:
            if i == mwt[0]:
                pieces.append(mwt[2])
            i += 1
            continue
        pieces.append(doc.tokens[i].form)
        i += 1
    return " ".join(pieces)
