"""The word-level jsonlines variants: e2e-coref (and DyGIE++), wl-coref, PreCo, Maverick and
coref-data.

* e2e / DyGIE++: ``sentences`` are token lists, ``speakers`` is nested like them, ``clusters``
  hold ``[start, end]`` inclusive offsets over the flattened document; a ``pos`` field shaped
  like the sentences (or flat, one tag a token) gives XPOS. Everything else (``constituents``,
  ``ner``, ``relations``, ``paragraphs``, ``predicted_clusters``, ``characters``...) is kept
  as document metadata and written back.
* wl-coref: flat per-word lists (``cased_words``, ``sent_id``, ``speaker``, ``pos``,
  ``deprel``, ``head`` as a document index or null); ``span_clusters`` (or the ``clusters`` of
  its first conversion step) hold ``[start, end)`` spans, ``word_clusters`` head words. Heads
  come from ``head2span`` or from ``word_clusters`` parallel to ``span_clusters`` (what
  ``predict.py`` writes) when every mention gets one; otherwise ``word_clusters`` and
  ``head2span`` are kept as they are. A file with ``word_clusters`` only gives one-token
  mentions.
* PreCo: ``mention_clusters`` of ``[sentence, start, end)``; the ``[" "]`` paragraph sentences
  are kept as sentences of one token.
* Maverick: a flat ``tokens`` list (one sentence) and ``clusters_token_offsets`` (inclusive).
* coref-data: ``sentences`` are objects with ``tokens`` (objects with CoNLL-U keys: ``text``,
  ``lemma``, ``upos``, ``xpos``, ``feats``, ``head``, ``deprel``, ``deps``, ``misc``; a
  fractional ``id`` is an empty node), ``coref_chains`` of ``[sentence, start, end]``
  inclusive.
"""

from __future__ import annotations

from typing import Any

from corefkit.converters.jsonlines.build import (
    BAD_FIELD,
    Builder,
    is_int,
    shown,
)
from corefkit.model import Sentence, Token

E2E_KEYS = ("doc_key", "sentences", "speakers", "clusters")
WL_KEYS = ("document_id", "cased_words", "sent_id", "part_id", "speaker", "pos", "deprel",
           "head", "span_clusters", "clusters")
CONLLU_KEYS = ("lemma", "upos", "xpos", "feats", "deprel", "deps", "misc")


def read_e2e(b: Builder) -> None:
    sentences = b.token_lists("sentences")
    b.set_sentences(sentences)
    used = list(E2E_KEYS)
    if "speakers" in b.record:
        b.set_speakers(b.like_sentences("speakers", sentences), "speakers")
    if _read_pos(b, sentences):
        used.append("pos")
    b.add_clusters("clusters", b.clusters("clusters"), b.inclusive_span)
    b.keep_extras(used)


def _read_pos(b: Builder, sentences: list[list[str]]) -> bool:
    """``pos`` nested like the sentences or flat: the tokens' XPOS (False: another shape)."""
    value = b.record.get("pos")
    if not isinstance(value, list):
        return False
    count = b.doc.token_count
    if len(value) == len(sentences) and all(
            isinstance(p, list) and len(p) == len(s) for p, s in zip(value, sentences)):
        tags = [tag for tags in value for tag in tags]
    elif len(value) == count and not any(isinstance(p, list) for p in value):
        tags = value
        b.doc.attrs["jsonlines_flat_pos"] = True
    else:
        return False
    if not all(isinstance(t, str) for t in tags):
        return False
    for token, tag in zip(b.doc.tokens, tags):
        token.xpos = tag
    b.doc.attrs["jsonlines_pos"] = True
    return True


# ---------------------------------------------------------------------------- wl-coref
def read_wl_coref(b: Builder) -> None:
    words = b.strings(b.require("cased_words"), "cased_words")
    count = len(words)
    sent_ids = b.ints(b.per_word("sent_id", count), "sent_id") if "sent_id" in b.record \
        else [0] * count
    for i in range(1, count):
        if sent_ids[i] < sent_ids[i - 1]:
            raise b.fail(BAD_FIELD, f"sent_id[{i}] = {sent_ids[i]} comes after "
                         f"{sent_ids[i - 1]}; sentence numbers must not decrease")
    tokens = [Token(word, i) for i, word in enumerate(words)]
    sentences: list[Sentence] = []
    for i, token in enumerate(tokens):
        if i == 0 or sent_ids[i] != sent_ids[i - 1]:
            if sentences:
                sentences[-1].stop = i
            sentences.append(Sentence(len(sentences), i, count))
        token.sentence = len(sentences) - 1
    b.doc.tokens = tokens
    b.doc.sentences = sentences
    _wl_part(b, count)
    if "speaker" in b.record:
        b.set_speakers(b.per_word("speaker", count), "speaker")
    for key, field in (("pos", "xpos"), ("deprel", "deprel")):
        if key in b.record:
            for token, tag in zip(tokens, b.strings(b.per_word(key, count), key)):
                setattr(token, field, tag)
    if "head" in b.record:
        _wl_heads(b, b.per_word("head", count))
    used = list(WL_KEYS)
    if "span_clusters" in b.record or "clusters" in b.record:
        key = "span_clusters" if "span_clusters" in b.record else "clusters"
        b.add_clusters(key, b.clusters(key), b.exclusive_span)
        if _mention_heads(b, key):
            used += ["word_clusters", "head2span"]
    elif "word_clusters" in b.record:
        b.add_clusters("word_clusters", b.clusters("word_clusters"), _head_word(b))
        used.append("word_clusters")
    elif b.cluster_like_keys():  # a renamed clusters key: refused (lenient: none)
        b.clusters("span_clusters")
    # else: wl-coref's prediction input, which has no clusters (pair.empty-* when scored)
    b.keep_extras(used)


def _wl_part(b: Builder, count: int) -> None:
    value = b.record.get("part_id")
    if value is None:
        return
    parts = b.ints(b.per_word("part_id", count), "part_id") if isinstance(value, list) \
        else [value]
    if not parts:
        return
    if not is_int(parts[0]) or any(p != parts[0] for p in parts):
        raise b.fail(BAD_FIELD, f"part_id should be one integer for the document, not "
                     f"{shown(value)}")
    b.doc.part = str(parts[0])
    b.doc.attrs["jsonlines_part_list"] = isinstance(value, list)


def _wl_heads(b: Builder, heads: list[Any]) -> None:
    """wl-coref ``head``: the document index of each word's syntactic head (null: root)."""
    tokens = b.doc.tokens
    for sentence in b.doc.sentences:
        for i in sentence.token_indices():
            tokens[i].id = str(i - sentence.start + 1)
    for i, head in enumerate(heads):
        if head is None:
            tokens[i].head = "0"
            continue
        if not is_int(head) or not 0 <= head < len(tokens):
            raise b.fail(BAD_FIELD, f"head[{i}] should be a word index or null, not "
                         f"{shown(head)}")
        if tokens[head].sentence != tokens[i].sentence:
            raise b.fail(BAD_FIELD, f"head[{i}] = {head} is a word of another sentence")
        tokens[i].head = tokens[head].id


def _mention_heads(b: Builder, key: str) -> bool:
    """Heads for the span mentions from ``head2span`` or a parallel ``word_clusters``; True
    when every mention got one (both keys are then written again from the heads)."""
    mentions = [b.doc.mentions_of(e, ordered=False) for e in b.doc.entities]
    flat = [m for chain in mentions for m in chain]
    if not flat:
        return False
    heads: dict[Any, int] = {}
    table = b.record.get("head2span")
    if isinstance(table, list):
        for row in table:
            if isinstance(row, list) and len(row) == 3 and all(is_int(v) for v in row):
                heads[(row[1], row[2] - 1)] = row[0]
    words = b.record.get("word_clusters")
    found: dict[Any, Any] = {m: heads.get((m.start, m.end)) for m in flat}
    if any(h is None for h in found.values()) and isinstance(words, list) and \
            len(words) == len(mentions) and all(
            isinstance(w, list) and len(w) == len(c) for w, c in zip(words, mentions)):
        found = {m: h for w, c in zip(words, mentions) for h, m in zip(w, c)}
    if any(not is_int(h) or not m.start <= h <= m.end for m, h in found.items()):
        return False
    for mention, head in found.items():
        mention.head = head
    return True


def _head_word(b: Builder) -> Any:
    count = b.doc.token_count

    def read(value: Any, where: str) -> tuple[int, int]:
        if not is_int(value):
            raise b.fail("jsonlines.bad-span", f"{where} should be a word index, not "
                         f"{shown(value)}")
        b.within(value, value, where, value, count)
        return value, value

    return read


# ---------------------------------------------------------------------------- PreCo
def read_preco(b: Builder) -> None:
    sentences = b.token_lists("sentences")
    b.set_sentences(sentences)
    b.add_clusters("mention_clusters", b.require("mention_clusters"),
                   _sentence_span(b, exclusive=True))
    b.keep_extras(("id", "doc_key", "sentences", "mention_clusters"))


def _sentence_span(b: Builder, exclusive: bool) -> Any:
    """``[sentence, start, end]`` relative to a sentence (end exclusive for PreCo)."""
    spans = b.doc.sentences

    def read(value: Any, where: str) -> tuple[int, int]:
        index, start, end = b.pair(value, where, 3)
        if not 0 <= index < len(spans):
            raise b.fail("jsonlines.bad-span", f"{where} = {shown(value)} names sentence "
                         f"{index}, but the document has {len(spans)}")
        last = end - 1 if exclusive else end
        if exclusive and end <= start:
            raise b.fail("jsonlines.bad-span", f"{where} = {shown(value)} is empty: the end "
                         "is exclusive and must be after the start")
        sentence = spans[index]
        b.within(start, last, where, value, len(sentence), f"sentence {index}")
        return sentence.start + start, sentence.start + last

    return read


# ---------------------------------------------------------------------------- Maverick
def read_maverick(b: Builder) -> None:
    words = b.strings(b.require("tokens"), "tokens")
    b.set_sentences([words])
    key = "clusters_token_offsets" if "clusters_token_offsets" in b.record else "clusters"
    b.add_clusters(key, b.clusters(key), b.inclusive_span)
    b.check_texts("clusters_token_text", b.record.get("clusters_token_text",
                                                      b.record.get("clusters_text_mentions")),
                  _chain_texts(b, key))
    b.keep_extras(("doc_key", "tokens", key, "clusters_token_text", "clusters_text_mentions",
                   "clusters_char_offsets", "clusters_char_text"))


def _chain_texts(b: Builder, key: str) -> list[list[str]]:
    """Each cluster's mention texts (forms joined by spaces), in file order."""
    value = b.record.get(key) or []
    tokens = b.doc.tokens
    texts = []
    for cluster in value:
        texts.append([" ".join(t.form for t in tokens[m[0]:m[1] + 1]) for m in cluster])
    return texts


# ---------------------------------------------------------------------------- coref-data
def read_coref_data(b: Builder) -> None:
    sentences = b.list_of(b.require("sentences"), "sentences")
    tokens: list[Token] = []
    spans: list[Sentence] = []
    for index, item in enumerate(sentences):
        if not isinstance(item, dict) or not isinstance(item.get("tokens"), list):
            raise b.fail(BAD_FIELD, f"sentences[{index}] should be an object with a 'tokens' "
                         f"list, not {shown(item)}")
        start = len(tokens)
        for j, raw in enumerate(item["tokens"]):
            tokens.append(_coref_data_token(b, raw, f"sentences[{index}].tokens[{j}]",
                                            start + j, index))
        sentence = Sentence(index, start, len(tokens))
        speaker = item.get("speaker")
        if isinstance(speaker, str) and speaker not in ("-", "_", ""):
            sentence.speaker = speaker
        rest = {k: v for k, v in item.items() if k not in ("tokens", "speaker")}
        if rest:
            sentence.attrs["coref_data"] = rest
        spans.append(sentence)
    b.doc.tokens = tokens
    b.doc.sentences = spans
    if isinstance(b.record.get("text"), str):
        b.doc.attrs["coref_data_text"] = b.record["text"]
    b.add_clusters("coref_chains", b.clusters("coref_chains"),
                   _sentence_span(b, exclusive=False))
    b.keep_extras(("id", "doc_key", "sentences", "coref_chains", "text"))


def _coref_data_token(b: Builder, raw: Any, where: str, index: int, sentence: int) -> Token:
    if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
        raise b.fail(BAD_FIELD, f"{where} should be an object with a 'text' string, not "
                     f"{shown(raw)}")
    token = Token(raw["text"], index, sentence)
    ident = raw.get("id")
    if isinstance(ident, float) and not ident.is_integer():
        token.is_empty = True
        token.id = repr(ident)
    elif isinstance(ident, (int, float)) and not isinstance(ident, bool):
        token.id = str(int(ident))
    elif isinstance(ident, str):
        token.id = ident
        token.is_empty = "." in ident
    rest = {}
    for key, value in raw.items():
        if key in ("text", "id"):
            continue
        if key in CONLLU_KEYS and isinstance(value, str):
            setattr(token, key, value)
        elif key == "head" and (is_int(value) or isinstance(value, str)):
            token.head = str(value)
        else:
            rest[key] = value
    if rest:
        token.attrs["coref_data"] = rest
    return token
