"""LCC layers and document fields as the reader and the writer both see them.

Which coreference layer a ``--layer`` value names (``parse_layer``), the LCC document fields,
and what a byte-stable round trip keeps on a document read from LCC: ``doc.attrs[STATE]`` holds
the JSON object, the layer read and the :func:`coreference_signature` taken when reading; the
writer writes the object back unchanged while the signature still matches (formats/lcc.md §5).
"""

from __future__ import annotations

import hashlib
import json

from corefkit.errors import UsageError
from corefkit.model import Document, Entity

COREF_LAYER = "manualCoreferences"
DEFAULT_VERSION = 1
STATE = "lcc"               # doc.attrs key: what a byte-stable round trip needs
DOCUMENT_KEYS = ("id", "corpusName", "corpusId", "name", "comment", "dateCreated", "dateModified",
                 "content", "source", "url", "lexemeCount", "tags", "annotationLayers")
META_KEYS = ("name", "url", "corpusName", "corpusId", "dateCreated", "dateModified", "comment",
             "source", "tags")


def parse_layer(value: str | None) -> tuple[str, int]:
    """``manualCoreferences@2``, ``@2`` or ``2`` → (layer type, version); None → version 1."""
    if value is None or value == "":
        return COREF_LAYER, DEFAULT_VERSION
    text = str(value).strip()
    kind, sep, version = text.rpartition("@")
    if not sep:
        kind, version = ("", text) if text.isdigit() else (text, str(DEFAULT_VERSION))
    kind = kind or COREF_LAYER
    if kind != COREF_LAYER or not version.isdigit():
        raise UsageError(f"cannot use LCC layer {value!r}: expected {COREF_LAYER}@VERSION "
                         f"(e.g. {COREF_LAYER}@1 for the gold annotation, @2 for the annotator's)")
    return kind, int(version)


def layer_name(layer: tuple[str, int]) -> str:
    return f"{layer[0]}@{layer[1]}"


def coreference_signature(doc: Document) -> str:
    """A digest of what the LCC coreference layer encodes: chains, sets, DD chains, types.

    The writer compares it with the digest taken when reading: equal means the links read
    can be written back as they were.
    """
    def tokens_of(entity: Entity) -> tuple[tuple[int, ...], ...]:
        return tuple(sorted(m.tokens for m in doc.mentions_of(entity)))

    chains = sorted((e.layer, tokens_of(e)) for e in doc.entities)
    sets = sorted((tokens_of(s.set_entity), tokens_of(s.member)) for s in doc.memberships())
    codes = sorted((m.layer, m.tokens, json.dumps(m.attrs.get("lcc_type")))
                   for m in doc.mentions if "lcc_type" in m.attrs)
    loose = sorted(m.tokens for m in doc.mentions if doc.entity_of(m) is None)
    digest = hashlib.sha256(repr((chains, sets, codes, loose)).encode("utf-8"))
    return digest.hexdigest()
