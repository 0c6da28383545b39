"""spaCy ``Doc.to_json()`` lines with coreference span groups: the reader.

Each line is one document as ``Doc.to_json()`` writes it. Its ``tokens`` (``{"id", "start",
"end"}`` character offsets into ``text``, end exclusive, with ``tag``, ``pos``, ``morph``,
``lemma``, ``dep``, ``head`` when the pipeline set them) are the document's tokens — tokens of
white space only (spaCy makes one for extra spaces) are left out, as the alignment ignores white
space — and ``sents`` its sentences (one sentence without them). The span groups
``coref_clusters_1``, ``coref_clusters_2``, … are its clusters, in the order of their number; a
group ``coref_head_clusters_N`` of one-word spans parallel to ``coref_clusters_N`` gives the
mentions' heads, and without any ``coref_clusters_N`` group the head groups are the mentions
(the ``coref`` component without a ``span_resolver``; warning ``spacy.head-mentions``).

Offsets are checked against the text and the tokens, and a contradiction refuses the file,
naming the document and the offset: tokens in order inside the text, every visible character in
a token, sentences and mentions starting and ending where tokens do. Other keys (``ents``,
``cats``, other span groups) are kept as document metadata.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.libraries.common import (
    Chains,
    Place,
    is_int,
    json_lines,
    keep_extras,
    named,
    shown,
    stem_of,
)
from corefkit.converters.offsets import CHARS, TEXT
from corefkit.model import Document, Token

BAD_JSON = "spacy.bad-json"
NOT_OBJECT = "spacy.not-object"
BAD_SHAPE = "spacy.bad-shape"
TOKEN_OFFSETS = "spacy.token-offsets"
BAD_OFFSETS = "spacy.bad-offsets"
HEAD_MENTIONS = "spacy.head-mentions"
UNMATCHED_HEADS = "spacy.unmatched-heads"
DUPLICATE = "spacy.duplicate-mention"
CLUSTERS = "coref_clusters"
HEADS = "coref_head_clusters"
GROUP_RE = re.compile(r"^(coref_clusters|coref_head_clusters)_([1-9][0-9]*)$")
FIELDS = (("tag", "xpos"), ("pos", "upos"), ("morph", "feats"), ("lemma", "lemma"),
          ("dep", "deprel"))

Span = tuple[int, int]


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    stem = stem_of(file)
    for ordinal, (number, record) in enumerate(json_lines(stream, file, BAD_JSON, NOT_OBJECT),
                                               1):
        doc = named(record, ("doc_key",), stem, ordinal, file)
        doc.line = number
        yield build(doc, record, Place(file, number, doc.name))


class _Tokens:
    """spaCy's tokens: where each starts and ends, and which document token it became."""

    def __init__(self, place: Place, text: str, value: Any) -> None:
        if not isinstance(value, list):
            raise place.error(BAD_SHAPE, f"tokens should be a list of token objects, not "
                              f"{shown(value)}")
        self.spans: list[Span] = []
        self.items: list[dict[str, Any]] = []
        last = 0
        for i, item in enumerate(value):
            if not (isinstance(item, dict) and is_int(item.get("start"))
                    and is_int(item.get("end"))):
                raise place.error(BAD_SHAPE, f"tokens[{i}] should be an object with integer "
                                  f"start and end, not {shown(item)}")
            start, end = item["start"], item["end"]
            if not last <= start <= end <= len(text):
                raise place.error(TOKEN_OFFSETS, f"tokens[{i}] = [{start}, {end}] does not "
                                  f"follow the previous token inside the text ({len(text)} "
                                  "characters)")
            if text[last:start].strip():
                raise place.error(TOKEN_OFFSETS, f"the characters {text[last:start]!r} before "
                                  f"tokens[{i}] (at {last}) are in no token")
            self.spans.append((start, end))
            self.items.append(item)
            last = end
        if text[last:].strip():
            raise place.error(TOKEN_OFFSETS, f"the characters {text[last:last + 20]!r} at "
                              f"{last} are in no token")
        visible = [i for i, (s, e) in enumerate(self.spans) if text[s:e].strip()]
        self.starts = {self.spans[i][0]: i for i in visible}
        self.ends = {self.spans[i][1]: i for i in visible}


def build(doc: Document, record: dict[str, Any], place: Place) -> Document:
    text = record.get("text")
    if not isinstance(text, str):
        raise place.error(BAD_SHAPE, f"text should be a string, not {shown(text)}")
    tokens = _Tokens(place, text, record.get("tokens"))
    kept = _sentences(doc, place, text, tokens, record.get("sents"))
    groups = record.get("spans") or {}
    if not isinstance(groups, dict):
        raise place.error(BAD_SHAPE, f"spans should be an object of span groups, not "
                          f"{shown(groups)}")
    found: dict[str, dict[int, list[Span]]] = {CLUSTERS: {}, HEADS: {}}
    other = {}
    for name, spans in groups.items():
        match = GROUP_RE.match(name)
        if match is None:
            other[name] = spans
            continue
        found[match.group(1)][int(match.group(2))] = _group(place, text, tokens, name, spans)
    clusters, heads = found[CLUSTERS], found[HEADS]
    if not clusters and heads:
        place.warn(doc, HEAD_MENTIONS, f"only head groups ({HEADS}_N), no {CLUSTERS}_N: their "
                   "one-word spans are read as the mentions")
        clusters, heads, prefix = heads, {}, HEADS
    else:
        prefix = CLUSTERS
    chains = Chains(doc, place, DUPLICATE)
    for number in sorted(clusters):
        entity = chains.entity(str(number))
        spans = clusters[number]
        head_spans = _parallel_heads(doc, place, number, spans, heads.get(number))
        for j, (first, last) in enumerate(spans):
            a, b = kept[first], kept[last]
            head = kept[head_spans[j][0]] if head_spans is not None else None
            chains.add(entity, a, b, f"spans.{prefix}_{number}[{j}]", head=head)
    chains.finish()
    doc.attrs[TEXT] = text
    extras = {k: v for k, v in record.items() if k not in ("text", "tokens", "sents", "spans")}
    if other:
        extras["spans"] = other
    keep_extras(doc, extras, ("doc_key",))
    return doc


def _sentences(doc: Document, place: Place, text: str, tokens: _Tokens,
               sents: Any) -> list[int]:
    """The document's tokens in sentences (white-space tokens left out); for each spaCy token
    the index of the document token it became (-1 for white space)."""
    breaks = {0}
    if sents is not None:
        if not isinstance(sents, list):
            raise place.error(BAD_SHAPE, f"sents should be a list, not {shown(sents)}")
        starts = {s: i for i, (s, _) in enumerate(tokens.spans)}   # white space too
        for i, item in enumerate(sents):
            start = item.get("start") if isinstance(item, dict) else None
            if not is_int(start) or start not in starts:
                raise place.error(TOKEN_OFFSETS, f"sents[{i}] = {shown(item)} does not start "
                                  "where a token starts")
            breaks.add(starts[start])
    sentences: list[list[Token]] = []
    kept: list[int] = []
    count = 0
    for i, ((start, end), item) in enumerate(zip(tokens.spans, tokens.items)):
        if (i in breaks or not sentences) and (not sentences or sentences[-1]):
            sentences.append([])
        form = text[start:end]
        if not form.strip():
            kept.append(-1)
            continue
        sentences[-1].append(_token(form, (start, end), item, i, tokens))
        kept.append(count)
        count += 1
    for words in sentences:
        if words:
            doc.add_sentence(words)
    _heads(doc)
    return kept


def _token(form: str, span: Span, item: dict[str, Any], index: int, tokens: _Tokens) -> Token:
    token = Token(form, -1, -1, {CHARS: span})
    for key, field in FIELDS:
        value = item.get(key)
        if isinstance(value, str) and value:
            setattr(token, field, value)
    head = item.get("head")
    if is_int(head) and 0 <= head < len(tokens.spans):
        token.attrs["_spacy_head"] = head
        token.attrs["_spacy_index"] = index
    return token


def _heads(doc: Document) -> None:
    """spaCy's head indices (over the document) as CoNLL-U heads (over the sentence)."""
    position = {t.attrs.get("_spacy_index"): t for t in doc.tokens}
    for token in doc.tokens:
        head = token.attrs.pop("_spacy_head", None)
        if head is None:
            continue
        if head == token.attrs.get("_spacy_index"):
            token.head = "0"
        else:
            target = position.get(head)
            if target is not None and target.sentence == token.sentence:
                token.head = str(target.index - doc.sentences[token.sentence].start + 1)
    for token in doc.tokens:
        token.attrs.pop("_spacy_index", None)


def _group(place: Place, text: str, tokens: _Tokens, name: str, spans: Any) -> list[Span]:
    """A span group's spans as (first, last) spaCy tokens, checked against the tokens."""
    if not isinstance(spans, list):
        raise place.error(BAD_SHAPE, f"spans.{name} should be a list of spans, not "
                          f"{shown(spans)}")
    found = []
    for j, span in enumerate(spans):
        where = f"spans.{name}[{j}]"
        if not (isinstance(span, dict) and is_int(span.get("start"))
                and is_int(span.get("end"))):
            raise place.error(BAD_SHAPE, f"{where} should be an object with integer start and "
                              f"end, not {shown(span)}")
        start, end = span["start"], span["end"]
        if not 0 <= start < end <= len(text):
            raise place.error(BAD_OFFSETS, f"{where} = [{start}, {end}] is not a range of "
                              f"characters of the text ({len(text)} characters)")
        first, last = tokens.starts.get(start), tokens.ends.get(end)
        if first is None or last is None or last < first:
            edge = "start" if first is None else "end"
            raise place.error(BAD_OFFSETS, f"{where} = [{start}, {end}] ({text[start:end]!r}) "
                              f"does not {edge} where a token does: the offsets contradict "
                              "the tokens")
        found.append((first, last))
    return found


def _parallel_heads(doc: Document, place: Place, number: int, spans: list[Span],
                    heads: list[Span] | None) -> list[Span] | None:
    """The head group of a cluster when it gives every mention a one-token head inside it."""
    if heads is None:
        return None
    if len(heads) == len(spans) and all(h[0] == h[1] and s[0] <= h[0] <= s[1]
                                        for s, h in zip(spans, heads)):
        return heads
    place.warn(doc, UNMATCHED_HEADS, f"{HEADS}_{number} does not give each mention of "
               f"{CLUSTERS}_{number} a one-word head inside it, in the same order; its heads "
               "are not read", "dropped")
    return None
