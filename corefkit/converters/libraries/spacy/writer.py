"""spaCy ``Doc.to_json()`` lines with coreference span groups: the writer.

One line a document, as ``Doc.to_json()`` writes it and ``Doc.from_json()`` reads it back:
``text`` (the document's own when it keeps one, else its words joined by single spaces, a
sentence a line), ``sents`` and ``tokens`` as character offsets (with ``tag``, ``pos``,
``morph``, ``lemma``, ``dep`` and ``head`` where the document has them), and ``spans``: one
group ``coref_clusters_N`` a cluster (N from 1, clusters in order of first mention, mentions by
position), and ``coref_head_clusters_N`` beside it when every mention of the cluster has a
one-word head inside it. Document metadata are further keys (other span groups go back into
``spans``).

Lost (the loss report counts each): zeros, empty nodes, speakers, split antecedents, bridging,
discourse deixis, non-referring and unlinked mentions, mention and entity attributes, document
parts; heads of clusters that do not all have one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.jsonlines.shapes import Written, doc_key, written
from corefkit.converters.libraries.common import UNNAMED, add_extras, unnamed_losses
from corefkit.converters.loss import (
    MAX_EXAMPLES,
    ConversionReport,
    LossRecord,
    describe_mention,
    discontinuous_action,
    record,
)
from corefkit.converters.offsets import FORM_SPACE_RE, kept_layout, replaced_layout
from corefkit.errors import Repair
from corefkit.model import Document, Mention

FIELDS = (("xpos", "tag"), ("upos", "pos"), ("feats", "morph"), ("lemma", "lemma"),
          ("deprel", "dep"))


def loss_actions(**options: Any) -> dict[str, str]:
    return {"split_antecedents": "dropped (set entities stay ordinary chains)",
            "discontinuous": discontinuous_action(str(options.get("discontinuous", "drop")))}


def _head_of(w: Written, first: int, last: int, mention: Mention) -> int | None:
    if mention.head is None or mention.head_derived:
        return None
    row = w.row_of.get(mention.head)
    return row if row is not None and first <= row <= last else None


def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """Heads of clusters that are not all written (a cluster's heads go as one group)."""
    w = written(doc, str(options.get("discontinuous", "drop")))
    lost = []
    for chain in w.clusters:
        heads = [_head_of(w, a, b, m) for (a, b), m in chain]
        if any(h is None for h in heads):
            # the cluster's head group is not written: every stated head of it is lost
            lost += [describe_mention(doc, m) for (_, m) in chain
                     if m.head is not None and not m.head_derived]
    found = [LossRecord("heads", len(lost), "dropped", lost[:MAX_EXAMPLES], doc.name)] \
        if lost else []
    found += unnamed_losses(doc)
    if kept_layout(doc) is None:
        found += record(doc, "tokens", [t for t in w.tokens if not t.form
                                        or FORM_SPACE_RE.search(t.form)],
                        "changed (a form with white space, or none, is written with '_')")
    sentence_of = w.sentence_of()
    heads = [_head_index(w, t.head, sentence_of[i], i) for i, t in enumerate(w.tokens)]
    if heads and not all(h is not None for h in heads):
        treed = [t for t in w.tokens if t.head not in (None, "_", "")]
        found += record(doc, "syntax", [t for t in treed if t.deprel not in (None, "_", "")],
                        "changed (heads are written only when every word has one in its "
                        "sentence: the relation is kept)")
        found += record(doc, "syntax", [t for t in treed if t.deprel in (None, "_", "")])
    return found


def record_of(doc: Document, report: ConversionReport, discontinuous: str = "drop",
              ) -> dict[str, Any]:
    w = written(doc, discontinuous)
    layout = kept_layout(doc)
    if layout is not None:
        text, offsets = layout
    else:
        text, offsets, _ = replaced_layout(doc)   # changed forms: partial_losses
    spans = [offsets[t.index] for t in w.tokens]
    tokens = _tokens(w, spans, text)
    groups: dict[str, list[dict[str, Any]]] = {}
    for n, chain in enumerate(w.clusters, 1):
        groups[f"coref_clusters_{n}"] = [_span(spans, a, b) for (a, b), _ in chain]
        heads = [_head_of(w, a, b, m) for (a, b), m in chain]
        if heads and all(h is not None for h in heads):
            groups[f"coref_head_clusters_{n}"] = [_span(spans, h, h) for h in heads
                                                  if h is not None]
    record: dict[str, Any] = {
        "text": text,
        "sents": [{"start": spans[a][0], "end": spans[b - 1][1]} for a, b in w.sentences
                  if b > a],
        "tokens": tokens,
        "spans": groups,
    }
    if not doc.attrs.get(UNNAMED):   # after the keys of Doc.to_json(), whose first is text
        record["doc_key"] = doc_key(doc)
    _other_groups(doc, record)
    if not record["spans"]:
        del record["spans"]       # as Doc.to_json() leaves it out
    clashes = add_extras(doc, record, skip=("spans",))
    if clashes:
        report.repairs.append(Repair(
            "jsonlines.metadata-clash", f"metadata {', '.join(repr(k) for k in clashes)} not "
            "written: the record uses those keys itself", document=doc.name, action="dropped"))
    return record


def _tokens(w: Written, spans: list[tuple[int, int]], text: str) -> list[dict[str, Any]]:
    """spaCy's token objects, as ``Doc.to_json`` would write them for ``text``: white space
    other than one space after a token is a token of its own (spaCy's rule), and every token
    has the same keys (``Doc.from_json`` wants that): an attribute some tokens have is written
    for all (``""`` where unknown), heads only when every word has one in its sentence (a
    white-space token is its own head)."""
    sentence_of = w.sentence_of()
    heads = [_head_index(w, t.head, sentence_of[i], i) for i, t in enumerate(w.tokens)]
    with_heads = bool(heads) and all(h is not None for h in heads)
    values = {key: [getattr(t, field) if getattr(t, field) not in (None, "_") else ""
                    for t in w.tokens] for field, key in FIELDS}
    keys = [key for key, column in values.items() if any(column)]
    items: list[dict[str, Any]] = []
    row = [0] * len(spans)            # word -> spaCy token

    def add(start: int, end: int, word: int | None) -> None:
        item: dict[str, Any] = {"id": len(items), "start": start, "end": end}
        for key in keys:
            item[key] = values[key][word] if word is not None else ""
        if with_heads:
            item["head"] = word if word is not None else len(items)   # fixed below
        items.append(item)

    position = 0
    for word, (start, end) in enumerate(spans):
        if position < start:
            add(position, start, None)
        row[word] = len(items)
        add(start, end, word)
        position = end + 1 if text[end:end + 1] == " " else end
    if position < len(text):
        add(position, len(text), None)
    if with_heads:
        for item in items:
            word = item["head"]
            item["head"] = row[heads[word]] if text[item["start"]:item["end"]].strip() \
                else item["id"]
    return items


def _span(spans: list[tuple[int, int]], first: int, last: int) -> dict[str, Any]:
    return {"start": spans[first][0], "end": spans[last][1], "label": "", "kb_id": ""}


def _head_index(w: Written, head: str | None, sentence: int, row: int) -> int | None:
    """A CoNLL-U head id (over the sentence) as spaCy's (over the document; the root points
    at itself)."""
    if head is None or not head.isdecimal():
        return None
    if head == "0":
        return row
    a, b = w.sentences[sentence]
    target = a + int(head) - 1
    return target if a <= target < b else None


def _other_groups(doc: Document, record: dict[str, Any]) -> None:
    """Span groups that are not coreference, kept in the metadata when read, go back into
    ``spans``."""
    value = doc.meta.get("spans")
    if value is None:
        return
    try:
        other = json.loads(value)
    except ValueError:
        return
    if isinstance(other, dict):
        for name, group in other.items():
            record["spans"].setdefault(name, group)


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 discontinuous: str = "drop") -> None:
    discontinuous_action(discontinuous)
    for doc in documents:
        out.write(json.dumps(record_of(doc, report, discontinuous), ensure_ascii=False) + "\n")
