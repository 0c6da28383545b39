"""Maverick's ``predict()`` output as jsonlines: the reader.

Each line is one ``predict()`` dictionary. ``tokens`` (strings) are the document's words, one
sentence (Maverick flattens sentence-split input); ``clusters_token_offsets`` hold ``[start,
end]`` token offsets, end inclusive (README: ``(0, 1)`` is "Barack Obama"); ``null`` or a
missing key is a document without clusters. What the record states is checked, and a
contradiction refuses the file, naming document and offset:

* every token offset lies in ``tokens``; a mention string (``clusters_token_text``, else
  ``clusters_text_mentions``) is the mention's tokens joined by single spaces;
* ``clusters_char_offsets`` (when not ``null``) has one ``[start, end]`` (end inclusive) for each
  token offset; with a ``text`` (Maverick returns none: corefkit's writer adds it, and so may the
  user) the tokens must be the text's words in order (white space between) and each pair is
  exactly the characters from the mention's first token to its last, and its
  ``clusters_char_text`` string; without one, a ``clusters_char_text`` string must have the
  offsets' length.

Other keys are kept as document metadata; ``doc_key`` names the document.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.libraries.common import (
    Chains,
    Place,
    excerpt,
    is_int,
    jsonlines_documents,
    keep_extras,
    shown,
)
from corefkit.model import Document, Token

BAD_JSON = "maverick.bad-json"
NOT_OBJECT = "maverick.not-object"
BAD_SHAPE = "maverick.bad-shape"
BAD_OFFSETS = "maverick.bad-offsets"
MENTION_TEXT = "maverick.mention-text"
CHAR_OFFSETS = "maverick.char-offsets"
DUPLICATE = "maverick.duplicate-mention"
TOKEN_TEXT_KEYS = ("clusters_token_text", "clusters_text_mentions")
USED = ("doc_key", "tokens", "clusters_token_offsets", *TOKEN_TEXT_KEYS, "clusters_char_offsets",
        "clusters_char_text", "text")

Span = tuple[int, int]


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    for doc, record, place in jsonlines_documents(stream, file, "maverick", BAD_JSON, NOT_OBJECT):
        yield build(doc, record, place)


def _clusters(place: Place, record: dict[str, Any], key: str) -> list[list[Span]]:
    value = record.get(key)
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, list) for c in value):
        raise place.error(BAD_SHAPE, f"{key} should be a list of clusters (lists of [start, "
                          f"end]), not {shown(value)}")
    found = []
    for k, cluster in enumerate(value):
        spans = []
        for j, span in enumerate(cluster):
            if not (isinstance(span, list) and len(span) == 2 and all(is_int(x) for x in span)):
                check = BAD_OFFSETS if key == "clusters_token_offsets" else CHAR_OFFSETS
                raise place.error(check, f"{key}[{k}][{j}] = {shown(span)} is not [start, end]")
            spans.append((span[0], span[1]))
        found.append(spans)
    return found


def _strings(place: Place, record: dict[str, Any], key: str,
             clusters: list[list[Span]]) -> list[list[str]] | None:
    """A mention-string list parallel to ``clusters`` (None when absent)."""
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != len(clusters) or not all(
            isinstance(s, list) and len(s) == len(c) and all(isinstance(x, str) for x in s)
            for s, c in zip(value, clusters)):
        raise place.error(BAD_SHAPE, f"{key} should hold one string for each mention of the "
                          "offsets, cluster by cluster")
    return value


def build(doc: Document, record: dict[str, Any], place: Place) -> Document:
    tokens = record.get("tokens")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise place.error(BAD_SHAPE, f"tokens should be a list of strings, not {shown(tokens)}")
    doc.add_sentence([Token(t) for t in tokens])
    clusters = _clusters(place, record, "clusters_token_offsets")
    for k, spans in enumerate(clusters):
        for j, (start, end) in enumerate(spans):
            if not 0 <= start <= end < len(tokens):
                raise place.error(BAD_OFFSETS, f"clusters_token_offsets[{k}][{j}] = [{start}, "
                                  f"{end}] is not a range of the {len(tokens)} tokens (the end "
                                  "is inclusive)")
    key = next((k for k in TOKEN_TEXT_KEYS if record.get(k) is not None), None)
    stated = _strings(place, record, key, clusters) if key else None
    if stated is not None:
        _check_token_texts(place, tokens, clusters, stated, str(key))
    _check_chars(place, record, tokens, clusters)
    chains = Chains(doc, place, DUPLICATE)
    for k, spans in enumerate(clusters):
        entity = chains.entity(str(k))
        for j, (start, end) in enumerate(spans):
            chains.add(entity, start, end, f"clusters_token_offsets[{k}][{j}]")
    chains.finish()
    keep_extras(doc, record, USED)
    return doc


def _check_token_texts(place: Place, tokens: list[str], clusters: list[list[Span]],
                       stated: list[list[str]], key: str) -> None:
    """Each stated string is its mention's tokens joined by single spaces (lengths compared
    first, by prefix sums, so that no mention costs more than its stated string)."""
    before = [0]
    for token in tokens:
        before.append(before[-1] + len(token))
    for k, (said, spans) in enumerate(zip(stated, clusters)):
        for j, (string, (start, end)) in enumerate(zip(said, spans)):
            length = before[end + 1] - before[start] + end - start
            if length != len(string) or string != " ".join(tokens[start:end + 1]):
                held = " ".join(tokens[start:min(end + 1, start + 8)])
                held += " ..." if end + 1 > start + 8 else ""
                raise place.error(MENTION_TEXT, f"clusters_token_offsets[{k}][{j}] = [{start}, "
                                  f"{end}] holds the tokens {held!r}, but {key}[{k}][{j}] is "
                                  f"{shown(string)}: the offsets contradict the tokens")


def _check_chars(place: Place, record: dict[str, Any], tokens: list[str],
                 clusters: list[list[Span]]) -> None:
    """``clusters_char_offsets`` against the token offsets, the text and their strings."""
    chars = _clusters(place, record, "clusters_char_offsets")
    if record.get("clusters_char_offsets") is None:
        return
    if len(chars) != len(clusters) or any(len(a) != len(b) for a, b in zip(chars, clusters)):
        raise place.error(CHAR_OFFSETS, "clusters_char_offsets should hold one [start, end] "
                          "for each mention of clusters_token_offsets, cluster by cluster")
    text = record.get("text")
    if text is not None and not isinstance(text, str):
        raise place.error(BAD_SHAPE, f"text should be a string, not {shown(text)}")
    strings = _strings(place, record, "clusters_char_text", chars)
    where_tokens = _token_spans(place, text, tokens) if text is not None else None
    for k, spans in enumerate(chars):
        for j, (start, end) in enumerate(spans):
            where = f"clusters_char_offsets[{k}][{j}] = [{start}, {end}]"
            said = strings[k][j] if strings is not None else None
            if said is not None and end - start + 1 != len(said):
                raise place.error(CHAR_OFFSETS, f"{where} spans {end - start + 1} characters, "
                                  f"but clusters_char_text[{k}][{j}] is {shown(said)}")
            if text is None or where_tokens is None:
                continue
            if not 0 <= start <= end < len(text):
                raise place.error(CHAR_OFFSETS, f"{where} is not a range of characters of the "
                                  f"text ({len(text)} characters; the end is inclusive)")
            first, last = clusters[k][j]
            if (start, end + 1) != (where_tokens[first][0], where_tokens[last][1]):
                wanted = f"[{where_tokens[first][0]}, {where_tokens[last][1] - 1}]"
                raise place.error(CHAR_OFFSETS, f"{where} holds {excerpt(text, start, end + 1)} "
                                  f"in the text, but the mention's tokens are at {wanted} "
                                  f"({excerpt(text, where_tokens[first][0], where_tokens[last][1])}"
                                  "): the offsets contradict the text")
            if said is not None and said != text[start:end + 1]:
                raise place.error(CHAR_OFFSETS, f"{where} holds {excerpt(text, start, end + 1)} "
                                  f"in the text, but clusters_char_text[{k}][{j}] is "
                                  f"{shown(said)}")


def _token_spans(place: Place, text: str, tokens: list[str]) -> list[tuple[int, int]]:
    """Where each token is in ``text`` (in order, white space between; Penn Treebank escapes
    stand for their characters)."""
    from corefkit.converters.offsets import Misaligned, align

    try:
        return align(text, [tokens])[0]
    except Misaligned as found:
        what = f"the token {found.word!r}" if found.word is not None else "no token"
        raise place.error(CHAR_OFFSETS, f"the tokens are not the words of the text: at "
                          f"character {found.position} the text has "
                          f"{excerpt(text, found.position, found.position + 20)}, where "
                          f"{what} should come") from None
