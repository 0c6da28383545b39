"""fastcoref's output file: the writer.

One line a document: ``doc_key`` (left out for a document read without one), ``text``,
``clusters`` and ``clusters_strings``, as the jsonlines family's ``fastcoref`` shape builds them
(:func:`corefkit.converters.jsonlines.shapes.fastcoref`): the document's own text and token
offsets when it keeps them (read from fastcoref, brat or spaCy), else one sentence a line, the
words joined by single spaces (the reader splits such a text by its own rule: ``dog's`` is
``dog`` ``'`` ``s``; aligned to the words written, it is what was written). Document metadata
is written as further keys.

Lost (the loss report counts each): everything but the identity chains of words — zeros,
empty nodes, heads, speakers, split antecedents, bridging, discourse deixis, non-referring and
unlinked mentions, mention and entity attributes; a form holding white space is written with
``_`` (counted under ``tokens``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.jsonlines.shapes import fastcoref, written
from corefkit.converters.libraries.common import UNNAMED, add_extras, unnamed_losses
from corefkit.converters.jsonlines.writer import fastcoref_losses
from corefkit.converters.loss import ConversionReport, LossRecord, discontinuous_action
from corefkit.errors import Repair
from corefkit.model import Document


def loss_actions(**options: Any) -> dict[str, str]:
    return {"split_antecedents": "dropped (set entities stay ordinary chains)",
            "discontinuous": discontinuous_action(str(options.get("discontinuous", "drop")))}


def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """What the record cannot hold beyond the format's capabilities: what the reader's
    tokenisation rule makes of the text (tokens, sentences; as the jsonlines family's fastcoref
    shape counts it)."""
    w = written(doc, str(options.get("discontinuous", "drop")))
    return fastcoref_losses(doc, w) + unnamed_losses(doc)


def record_of(doc: Document, report: ConversionReport, discontinuous: str = "drop",
              ) -> dict[str, Any]:
    """The fastcoref record of a document (the jsonlines shape, without a made-up name)."""
    record = fastcoref(written(doc, discontinuous))
    if doc.attrs.get(UNNAMED):
        del record["doc_key"]
    clashes = add_extras(doc, record)
    if clashes:
        report.repairs.append(Repair(
            "jsonlines.metadata-clash",
            f"metadata {', '.join(repr(k) for k in clashes)} not written: the record uses "
            "those keys itself", document=doc.name, action="dropped"))
    return record


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 discontinuous: str = "drop") -> None:
    discontinuous_action(discontinuous)  # a usage error for an unknown mode, before writing
    for doc in documents:
        out.write(json.dumps(record_of(doc, report, discontinuous), ensure_ascii=False) + "\n")
