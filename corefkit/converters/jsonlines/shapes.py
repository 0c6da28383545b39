"""The records the jsonlines writer emits, one function per shape.

Every shape starts from :class:`Written`: the document's words (empty nodes are not written),
grouped in sentences, and its identity chains as ``(first, last)`` word spans. Chains come in
the order they were read from jsonlines (clusters in file order, mentions in cluster order, so
that a jsonlines file is written back as it was), else by their first mention, mentions by
position. Zeros, unlinked and non-identity mentions are not written (the loss report counts
them); discontinuous ones as ``loss.writable_tokens`` says.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from corefkit.converters.jsonlines.reader import split_doc_key
from corefkit.converters.loss import writable_tokens
from corefkit.converters.offsets import generated_layout, kept_layout
from corefkit.model import IDENTITY, Document, Mention, Token

Span = tuple[int, int]
MISSING_HEADS = (None, "_", "")


@dataclass
class Written:
    """What a document looks like in any jsonlines shape."""

    doc: Document
    tokens: list[Token]
    sentences: list[tuple[int, int]]        # word ranges, end exclusive
    clusters: list[list[tuple[Span, Mention]]]
    row_of: dict[int, int] = field(default_factory=dict)   # token index -> word

    @property
    def forms(self) -> list[str]:
        return [t.form for t in self.tokens]

    def sentence_forms(self) -> list[list[str]]:
        forms = self.forms
        return [forms[a:b] for a, b in self.sentences]

    def sentence_of(self) -> list[int]:
        found = [0] * len(self.tokens)
        for index, (a, b) in enumerate(self.sentences):
            found[a:b] = [index] * (b - a)
        return found

    def spans(self) -> list[list[list[int]]]:
        return [[[a, b] for (a, b), _ in chain] for chain in self.clusters]

    def head(self, mention: Mention) -> int | None:
        return self.row_of.get(mention.head) if mention.head is not None else None


def written(doc: Document, discontinuous: str = "drop") -> Written:
    """The document as every shape writes it (the last one is cached: the registry asks for
    the losses of a document just before the writer writes it)."""
    cached = _LAST.get("written")
    if cached is not None and cached[0] is doc and cached[1] == discontinuous:
        return cached[2]
    tokens = [t for t in doc.tokens if not t.is_empty]
    row_of = {t.index: row for row, t in enumerate(tokens)}
    bounds: list[tuple[int, int]] = []
    start = 0
    for _, group in itertools.groupby(t.sentence for t in tokens):
        stop = start + sum(1 for _ in group)
        bounds.append((start, stop))
        start = stop
    from_jsonlines = "jsonlines_variant" in doc.attrs
    clusters = []
    for entity in doc.entities_in(IDENTITY):
        chain: list[tuple[Span, Mention]] = []
        seen: set[Span] = set()
        for mention in doc.mentions_of(entity, ordered=not from_jsonlines):
            span = _rows(writable_tokens(mention, discontinuous), row_of)
            if span is not None and span not in seen:
                seen.add(span)
                chain.append((span, mention))
        if chain:
            clusters.append(chain)
    if not from_jsonlines:
        clusters.sort(key=lambda chain: (chain[0][0][0], -chain[0][0][1]))
    result = Written(doc, tokens, bounds, clusters, row_of)
    _LAST["written"] = (doc, discontinuous, result)
    return result


_LAST: dict[str, tuple[Document, str, Written]] = {}


def _rows(chosen: tuple[int, ...] | None, row_of: dict[int, int]) -> Span | None:
    """The first and last written word of a mention's tokens (None: none is written)."""
    if not chosen:
        return None
    first = next((row_of[t] for t in chosen if t in row_of), None)
    if first is None:
        return None
    last = next(row_of[t] for t in reversed(chosen) if t in row_of)
    return first, last


def doc_key(doc: Document) -> Any:
    """The e2e ``doc_key``: the one read when it still names the document, else ``name_N``
    as e2e-coref builds it from ``#begin document (name); part N``."""
    stored = doc.attrs.get("jsonlines_doc_key")
    if stored is not None and any(split_doc_key(str(stored), mode) == (doc.id, doc.part)
                                  for mode in ("name-part", "whole")):
        return stored
    part = doc.part if doc.part not in (None, "") else "0"
    return f"{doc.id}_{int(part) if part.isdecimal() else part}"


def plain_name(doc: Document) -> str:
    """A name for shapes without parts: the id, with ``_N`` for a part other than 0."""
    return doc.id if doc.pair_key()[1] == "0" else str(doc_key(doc))


def speakers(w: Written) -> list[str]:
    """Each word's speaker: its own, else its sentence's, else the file's "no speaker"."""
    placeholder = str(w.doc.attrs.get("jsonlines_no_speaker", "-"))
    by_sentence = {s.index: s.speaker or placeholder for s in w.doc.sentences}
    return [t.speaker or by_sentence.get(t.sentence, placeholder) for t in w.tokens]


def _nest(w: Written, values: list[Any]) -> list[list[Any]]:
    return [values[a:b] for a, b in w.sentences]


# ---------------------------------------------------------------------------- shapes
def e2e(w: Written) -> dict[str, Any]:
    record: dict[str, Any] = {
        "doc_key": doc_key(w.doc),
        "sentences": w.sentence_forms(),
        "speakers": _nest(w, speakers(w)),
        "clusters": w.spans(),
    }
    if w.doc.attrs.get("jsonlines_pos"):
        tags = [t.xpos or "-" for t in w.tokens]
        record["pos"] = tags if w.doc.attrs.get("jsonlines_flat_pos") else _nest(w, tags)
    return record


def wl_coref(w: Written) -> dict[str, Any]:
    count = len(w.tokens)
    part = w.doc.part if w.doc.part not in (None, "") else "0"
    part_id: Any = int(part) if part.isdecimal() else part
    record: dict[str, Any] = {
        "document_id": w.doc.id,
        "cased_words": w.forms,
        "sent_id": w.sentence_of(),
        "part_id": [part_id] * count if w.doc.attrs.get("jsonlines_part_list", True)
        else part_id,
        "speaker": speakers(w),
    }
    for key, name in (("pos", "xpos"), ("deprel", "deprel")):
        values = [getattr(t, name) for t in w.tokens]
        if any(v is not None for v in values):
            record[key] = [v if v is not None else "-" for v in values]
    tree = _document_heads(w)
    if tree is not None:
        record["head"] = tree
    record["span_clusters"] = [[[a, b + 1] for (a, b), _ in chain] for chain in w.clusters]
    heads = [[w.head(m) for _, m in chain] for chain in w.clusters]
    if heads and all(h is not None for chain in heads for h in chain):
        record["word_clusters"] = heads
        record["head2span"] = _head2span(w, heads)
    return record


def _document_heads(w: Written) -> list[int | None] | None:
    """The syntactic head of every word as a word index (None for the root), when every
    word's head is known."""
    found: list[int | None] = []
    for a, b in w.sentences:
        by_id = {t.id: a + i for i, t in enumerate(w.tokens[a:b]) if t.id is not None}
        for token in w.tokens[a:b]:
            if token.head in MISSING_HEADS:
                return None
            if token.head == "0":
                found.append(None)
            elif token.head in by_id:
                found.append(by_id[token.head])
            else:
                return None
    return found if found else None


def _head2span(w: Written, heads: list[list[int | None]]) -> list[list[int]]:
    """wl-coref's ``head2span``: each head word once, with its shortest span."""
    best: dict[int, Span] = {}
    for chain, chain_heads in zip(w.clusters, heads):
        for (span, _), head in zip(chain, chain_heads):
            assert head is not None
            known = best.get(head)
            if known is None or span[1] - span[0] < known[1] - known[0]:
                best[head] = span
    return [[head, a, b + 1] for head, (a, b) in best.items()]


def preco(w: Written) -> dict[str, Any]:
    sentence_of = w.sentence_of()
    clusters = []
    for chain in w.clusters:
        mentions = [[sentence_of[a], a - w.sentences[sentence_of[a]][0],
                     b - w.sentences[sentence_of[a]][0] + 1]
                    for (a, b), _ in chain if sentence_of[a] == sentence_of[b]]
        if mentions:
            clusters.append(mentions)
    return {"id": plain_name(w.doc), "sentences": w.sentence_forms(),
            "mention_clusters": clusters}


def maverick(w: Written) -> dict[str, Any]:
    forms = w.forms
    return {
        "doc_key": doc_key(w.doc),
        "tokens": forms,
        "clusters_token_offsets": w.spans(),
        "clusters_token_text": [[" ".join(forms[a:b + 1]) for (a, b), _ in chain]
                                for chain in w.clusters],
    }


CONLLU_FIELDS = ("lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")


def coref_data(w: Written) -> dict[str, Any]:
    sentence_of = w.sentence_of()
    sentences = []
    for index, (a, b) in enumerate(w.sentences):
        original = w.doc.sentences[w.tokens[a].sentence] \
            if 0 <= w.tokens[a].sentence < len(w.doc.sentences) else None
        extra = dict(original.attrs.get("coref_data", {})) if original is not None else {}
        item: dict[str, Any] = {"id": extra.pop("id", index + 1),
                                "speaker": original.speaker if original is not None else None,
                                "text": extra.pop("text", " ".join(w.forms[a:b]))}
        item["tokens"] = [_coref_data_token(t, j) for j, t in enumerate(w.tokens[a:b])]
        item.update(extra)
        sentences.append(item)
    chains = []
    for chain in w.clusters:
        mentions = [[sentence_of[a], a - w.sentences[sentence_of[a]][0],
                     b - w.sentences[sentence_of[a]][0]]
                    for (a, b), _ in chain if sentence_of[a] == sentence_of[b]]
        if mentions:
            chains.append(mentions)
    text = w.doc.attrs.get("coref_data_text")
    if not isinstance(text, str):
        text = " ".join(w.forms)
    return {"id": plain_name(w.doc), "text": text, "sentences": sentences,
            "coref_chains": chains}


def _coref_data_token(token: Token, position: int) -> dict[str, Any]:
    ident: Any = int(token.id) if token.id is not None and token.id.isdecimal() \
        else position + 1
    item: dict[str, Any] = {"id": ident, "text": token.form}
    for name in CONLLU_FIELDS:
        value = getattr(token, name)
        if value is not None:
            item[name] = int(value) if name == "head" and value.isdecimal() else value
    item.update(token.attrs.get("coref_data", {}))
    return item


def text_layout(doc: Document) -> tuple[str, dict[int, Span]]:
    """The text the fastcoref shape writes and each word's offsets: the document's own text
    and offsets when it keeps them (read from fastcoref or brat), else one sentence a line,
    words joined by spaces (:mod:`corefkit.converters.offsets`)."""
    layout = kept_layout(doc)
    if layout is not None:
        return layout
    text, offsets = generated_layout(doc)
    return text, offsets


def visible(text: str, start: int, end: int) -> bool:
    """Whether characters ``start:end`` hold something a reader can make a token of: a
    mention over white space only (or nothing) is no fastcoref mention."""
    return bool(text[start:end].strip())


def fastcoref(w: Written) -> dict[str, Any]:
    """The text (:func:`text_layout`) and the clusters as character offsets."""
    text, offsets = text_layout(w.doc)
    spans = [offsets[t.index] for t in w.tokens]
    clusters = [[[spans[a][0], spans[b][1]] for (a, b), _ in chain
                 if visible(text, spans[a][0], spans[b][1])] for chain in w.clusters]
    clusters = [chain for chain in clusters if chain]
    return {"doc_key": doc_key(w.doc), "text": text, "clusters": clusters,
            "clusters_strings": [[text[s:e] for s, e in chain] for chain in clusters]}


SHAPES: dict[str, Callable[[Written], dict[str, Any]]] = {
    "e2e": e2e, "wl-coref": wl_coref, "preco": preco, "maverick": maverick,
    "coref-data": coref_data, "fastcoref": fastcoref,
}

