"""Stanford CoreNLP's JSON output: the reader.

One JSON object: ``docId`` (names the document, else the file), ``sentences`` (each with
``tokens``: ``word``, ``originalText``, ``characterOffsetBegin``, ``characterOffsetEnd``,
``before``, ``after``, …) and ``corefs``: chain id → list of mentions (``sentNum``,
``startIndex``, ``endIndex`` exclusive, ``headIndex``, all 1-based, ``text``, …). The JSON
keeps one-mention chains.

The document's text is its tokens' ``before``, ``originalText`` and ``after``: each token's
offsets must span its ``originalText`` (else its word), after the previous token's end by the
length of what lies between (``after``); the tokens' forms are the original texts, and the
document keeps the text and offsets, so that a writer of a character-offset format gives them
back. A mention must lie in its sentence, its head in it, and its ``text`` be its words joined
by spaces. Contradictions refuse the file, naming the document and the mention or token.
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
from corefkit.converters.libraries.corenlp.mentions import Mention, add_chains, unescaped
from corefkit.converters.offsets import CHARS, TEXT
from corefkit.model import Document, Token

BAD_JSON = "corenlp-json.bad-json"
BAD_SHAPE = "corenlp-json.bad-shape"
BAD_OFFSETS = "corenlp-json.bad-offsets"
MENTION_TEXT = "corenlp-json.mention-text"
OFFSET_TEXT = "corenlp-json.offset-text"
DUPLICATE = "corenlp-json.duplicate-mention"


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    data = load_json(whole_text(stream, file), file, BAD_JSON)
    name = data.get("docId") if isinstance(data, dict) else None
    name = name if isinstance(name, str) and name else stem_of(file)
    place = Place(file, 1, name)     # one JSON value: the document starts on line 1
    if not isinstance(data, dict) or not isinstance(data.get("sentences"), list):
        raise place.error(BAD_SHAPE, "the file should be a JSON object with a sentences list "
                          "(CoreNLP's -outputFormat json)")
    doc = Document(name, None, file=file)
    words, originals = _sentences(doc, place, data["sentences"])
    corefs = data.get("corefs") or {}
    if not isinstance(corefs, dict):
        raise place.error(BAD_SHAPE, f"corefs should be an object of chains, not "
                          f"{shown(corefs)}")
    mentions = []
    for chain, items in corefs.items():
        if not isinstance(items, list):
            raise place.error(BAD_SHAPE, f"corefs[{chain!r}] should be a list of mentions")
        for j, item in enumerate(items):
            where = f"corefs[{chain!r}][{j}]"
            if not isinstance(item, dict):
                item = {}
            sentence, start, end = (item.get(k) for k in ("sentNum", "startIndex", "endIndex"))
            if not (is_int(sentence) and is_int(start) and is_int(end)):
                raise place.error(BAD_SHAPE, f"{where} should have integer sentNum, startIndex "
                                  f"and endIndex, not {shown(items[j])}")
            head = item.get("headIndex")
            text = item.get("text")
            mentions.append(Mention(str(chain), sentence, start, end,
                                    head if is_int(head) else None,
                                    text if isinstance(text, str) else None, where))
    add_chains(doc, place, mentions, words, originals, BAD_OFFSETS, MENTION_TEXT, DUPLICATE)
    yield doc


def _sentences(doc: Document, place: Place,
               sentences: list[Any]) -> tuple[list[list[str]], list[list[str]]]:
    words: list[list[str]] = []
    originals: list[list[str]] = []
    chars: list[str] = []           # the text, piece by piece
    length = 0
    whole = True
    for s, sentence in enumerate(sentences):
        tokens = sentence.get("tokens") if isinstance(sentence, dict) else None
        if not isinstance(tokens, list):
            raise place.error(BAD_SHAPE, f"sentences[{s}] should be an object with a tokens "
                              "list")
        made, row, original_row = [], [], []
        for t, token in enumerate(tokens):
            where = f"sentences[{s}].tokens[{t}]"
            if not isinstance(token, dict) or not isinstance(token.get("word"), str):
                raise place.error(BAD_SHAPE, f"{where} should be an object with a word, not "
                                  f"{shown(token)}")
            word = token["word"]
            original = token.get("originalText")
            form = original if isinstance(original, str) and original else unescaped(word)
            begin, end = token.get("characterOffsetBegin"), token.get("characterOffsetEnd")
            attrs = {}
            if is_int(begin) and is_int(end):
                if end - begin != len(form) or begin < length:
                    raise place.error(OFFSET_TEXT, f"{where} ({form!r}) has the offsets "
                                      f"{begin}-{end}: " + (
                                          f"{end - begin} characters for a text of {len(form)}"
                                          if end - begin != len(form) else
                                          f"before the previous token's end ({length})"))
                before = token.get("before")
                if not isinstance(before, str):
                    whole = False    # the text between tokens is unknown: no text is kept
                elif chars and begin - length != len(before):
                    raise place.error(OFFSET_TEXT, f"{where} ({form!r}) starts at {begin}, "
                                      f"but {len(before)} characters ({before[:20]!r}) lie "
                                      f"between it and the previous token's end ({length})")
                elif not chars and begin != len(before):
                    whole = False    # the text before the first token is not all there
                chars += [before if isinstance(before, str) else "", form]
                length = end
                attrs[CHARS] = (begin, end)
            made.append(Token(form, -1, -1, attrs, lemma=_text(token, "lemma"),
                              xpos=_text(token, "pos")))
            row.append(word)
            original_row.append(form)
        doc.add_sentence(made)
        words.append(row)
        originals.append(original_row)
    if whole and chars and all(CHARS in t.attrs for t in doc.tokens):
        doc.attrs[TEXT] = "".join(chars)
    return words, originals


def _text(token: dict[str, Any], key: str) -> str | None:
    value = token.get(key)
    return value if isinstance(value, str) else None
