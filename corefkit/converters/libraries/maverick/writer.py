"""Maverick's ``predict()`` output as jsonlines: the writer.

One line a document, the dictionary ``predict()`` returns for plain-text input: ``tokens``, and
per cluster ``clusters_token_offsets`` (end inclusive) and ``clusters_token_text``, and
``clusters_char_offsets`` (end inclusive) and ``clusters_char_text`` over ``text`` — the
document's own text when it keeps one (read from fastcoref, brat, spaCy), else its words joined
by single spaces, a sentence a line (``text`` is corefkit's addition: Maverick returns none;
both are ``null`` when a word holds white space, so that no text spells the words).
``doc_key`` names the document (left out for a document read without one); metadata are
further keys.

Lost (the loss report counts each): everything but the identity chains of words — zeros,
empty nodes, heads, speakers, split antecedents, bridging, discourse deixis, non-referring and
unlinked mentions, mention and entity attributes; sentence boundaries (Maverick's tokens are
one list: ``maverick.flat-tokens``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.jsonlines.shapes import maverick, written
from corefkit.converters.libraries.common import UNNAMED, add_extras, unnamed_losses
from corefkit.converters.loss import ConversionReport, LossRecord, discontinuous_action, record
from corefkit.converters.offsets import kept_layout, replaced_layout
from corefkit.errors import Repair
from corefkit.model import Document


def loss_actions(**options: Any) -> dict[str, str]:
    return {"split_antecedents": "dropped (set entities stay ordinary chains)",
            "discontinuous": discontinuous_action(str(options.get("discontinuous", "drop")))}


def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """What the record cannot hold beyond the format's capabilities: sentence breaks
    (Maverick's tokens are one list)."""
    w = written(doc, str(options.get("discontinuous", "drop")))
    found = unnamed_losses(doc)
    if len(w.sentences) > 1:
        found += record(doc, "sentences", [doc.sentences[w.tokens[a].sentence]
                                           for a, _ in w.sentences],
                        "changed (Maverick's tokens are one list: no sentence breaks)")
    return found


def record_of(doc: Document, report: ConversionReport, discontinuous: str = "drop",
              ) -> dict[str, Any]:
    w = written(doc, discontinuous)
    record = maverick(w)
    if doc.attrs.get(UNNAMED):
        del record["doc_key"]
    layout = kept_layout(doc)
    if layout is not None:
        text, offsets = layout
        changed = 0
    else:
        text, offsets, changed = replaced_layout(doc)
    if changed:   # a form holding white space: no text spells the tokens (as for token input)
        record.update(clusters_char_offsets=None, clusters_char_text=None)
    else:
        spans = [offsets[t.index] for t in w.tokens]
        chars = [[[spans[a][0], spans[b][1] - 1] for (a, b), _ in chain]
                 for chain in w.clusters]
        record.update(clusters_char_offsets=chars,
                      clusters_char_text=[[text[s:e + 1] for s, e in chain] for chain in chars],
                      text=text)
    clashes = add_extras(doc, record)
    if clashes:
        report.repairs.append(Repair(
            "jsonlines.metadata-clash", f"metadata {', '.join(repr(k) for k in clashes)} not "
            "written: the record uses those keys itself", document=doc.name, action="dropped"))
    return record


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 discontinuous: str = "drop") -> None:
    discontinuous_action(discontinuous)
    for doc in documents:
        out.write(json.dumps(record_of(doc, report, discontinuous), ensure_ascii=False) + "\n")
