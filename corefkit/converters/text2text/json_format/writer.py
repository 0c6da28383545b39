"""The CRAC LLM-track JSON (text2text-coref's ``conllu2json``): the writer.

A JSON list, one object per document: ``doc_id``, ``tokens`` (the words of
:mod:`corefkit.converters.text2text.layout`, with ``##FORM`` empty nodes under
``text2text_zeros``), ``clusters_token_offsets`` (per entity in order of first mention, inclusive
``[start, end]`` offsets into ``tokens``) and ``clusters_text_mentions``; both ``null`` with
``text2text_blind``. Offsets always count exactly the tokens written (text2text-coref's
``conllu2json`` without ``-z`` counts empty nodes it leaves out of ``tokens``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.loss import ConversionReport, LossRecord, record
from corefkit.converters.text2text import writer as text_writer
from corefkit.converters.text2text.layout import lay_out
from corefkit.model import Document


def loss_actions(**options: Any) -> dict[str, str]:
    return {}


capabilities = text_writer.capabilities


def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    found = text_writer.shared_losses(doc, **options)
    if doc.name != doc.id:  # doc_id is the id: the part is not written
        found += record(doc, "names", [f"{doc.name!r} as {doc.id!r}"],
                        "changed (doc_id holds no part)")
    return found


def record_of(doc: Document, *, blind: bool = False, zeros: bool = False,
              bare_empty: bool = False) -> dict[str, Any]:
    written = lay_out(doc, zeros=zeros, bare_empty=bare_empty)
    if blind:
        return {"doc_id": doc.name, "tokens": written.words, "clusters_token_offsets": None,
                "clusters_text_mentions": None}
    offsets: dict[str, list[list[int]]] = {name: [] for name in written.order}
    texts: dict[str, list[str]] = {name: [] for name in written.order}
    for first, last, name, _ in written.mentions:
        offsets[name].append([first, last])
        texts[name].append(" ".join(written.words[first:last + 1]))
    return {"doc_id": doc.name, "tokens": written.words,
            "clusters_token_offsets": [offsets[n] for n in written.order],
            "clusters_text_mentions": [texts[n] for n in written.order]}


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 text2text_blind: bool = False, text2text_zeros: bool = False,
                 text2text_bare_empty: bool = False) -> None:
    out.write("[")
    for n, doc in enumerate(documents):
        record = record_of(doc, blind=text2text_blind, zeros=text2text_zeros,
                           bare_empty=text2text_bare_empty)
        out.write(("," if n else "") + "\n  " + json.dumps(record, ensure_ascii=False))
    out.write("\n]\n")
