"""The reference scorer's semantics (CoNLL-2012 scorer v8.01 with its LEA branch).

Documents reduce to their identity chains as extents (:func:`~corefkit.scoring.align.
document_mentions`); key and response align by identical extents
(:func:`~corefkit.scoring.align.align_exact`, with the reference scorer's rules for repeated
mentions); mention identification and BLANC then count a repeated response extent the key lacks
as the reference does (:func:`~corefkit.scoring.metrics.standard.reference_repeats`). Singletons
are removed by the ``remove-singletons`` pass, before reduction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from corefkit.model import Document
from corefkit.scoring.align import (
    Alignment,
    DocumentMentions,
    Labeler,
    align_exact,
    document_mentions,
)
from corefkit.scoring.metrics.standard import reference_repeats
from corefkit.scoring.semantics.exact import ExactExtents


@dataclass(frozen=True)
class ReferenceSemantics(ExactExtents):
    """The reference scorer's rules (the default for every format but CoNLL-U and CoNLL-UA)."""

    remove_singletons: bool = False
    name: ClassVar[str] = "reference"
    label: ClassVar[str] = "reference-scorer-8.01"

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> DocumentMentions:
        return document_mentions(doc, labeler)

    def align(self, key: DocumentMentions, response: DocumentMentions | None) -> Alignment:
        return Alignment(align_exact(key, response))

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        aligned = alignment.aligned
        reference_repeats(counts, aligned.response, aligned.response_duplicates)
        return counts

