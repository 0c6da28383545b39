"""The jsonlines family: the writer.

One document per line, as ``json.dumps`` writes it by default (``", "`` and ``": "``
separators, non-ASCII as ``\\uXXXX`` escapes, as the Python tools of the family write their
files), so that any token — a bare newline, a ``|``, a space — stays inside its string.
``jsonlines_shape`` chooses the record (:mod:`.shapes`): ``e2e`` word level (``doc_key``
built as e2e-coref builds it), ``wl-coref``, ``preco``, ``maverick``, ``coref-data`` or
``fastcoref``. By default a document read from jsonlines keeps its variant's shape (minimized
subwords become e2e words) and any other document is written as e2e. Document metadata goes
back as top-level keys (the JSON values the reader kept as text are written as JSON again); a
key read from jsonlines is written in its place, and optional keys the record did not have
are not added, so a jsonlines file is written back byte for byte.

What a shape cannot hold is reported (``partial_losses``): heads outside wl-coref, mentions
across sentences in the sentence-relative shapes, speakers and parts where the shape has no
place for them. Everything the family cannot hold at all (zeros, discontinuous mentions,
split antecedents, bridging, non-referring markables...) is reported by the registry from
the format's capabilities.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.jsonlines.shapes import SHAPES, Written, written
from corefkit.converters.jsonlines.spec import SHAPES as SHAPE_NAMES
from corefkit.converters.loss import (
    MAX_EXAMPLES,
    ConversionReport,
    LossRecord,
    describe_mention,
    discontinuous_action,
)
from corefkit.errors import Repair, UsageError, counted
from corefkit.model import Document

NO_SENTENCES = ("maverick",)
# the shape a variant is written back in, and the keys a record of it may lack
NATURAL_SHAPE = {"e2e": "e2e", "dygie": "e2e", "wl-coref": "wl-coref", "preco": "preco",
                 "fastcoref": "fastcoref", "maverick": "maverick", "coref-data": "coref-data"}
OPTIONAL = {"speakers", "speaker", "part_id", "span_clusters", "clusters", "doc_key"}


def kept_conll_columns(doc: Document, **options: Any) -> frozenset[str]:
    """The CoNLL-2012 columns this writer keeps: POS (the model's XPOS) in the wl-coref
    shape, which writes it as ``pos``; no other."""
    return frozenset({"POS"}) if _shape(options.get("jsonlines_shape"), doc) == "wl-coref" \
        else frozenset()


def loss_actions(**options: object) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {"split_antecedents": "dropped (set entities stay ordinary chains)",
            "discontinuous": discontinuous_action(str(options.get("discontinuous", "drop")))}


def _shape(name: Any, doc: Document | None = None) -> str:
    """The shape asked for; by default the one a jsonlines document was read in (a PreCo file
    stays PreCo), else e2e."""
    if name is None:
        variant = doc.attrs.get("jsonlines_variant") if doc is not None else None
        return NATURAL_SHAPE.get(str(variant), "e2e")
    shape = str(name)
    if shape not in SHAPE_NAMES:
        raise UsageError(f"unknown --jsonlines-shape {shape!r}; expected one of "
                         f"{', '.join(SHAPE_NAMES)}")
    return shape


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 jsonlines_shape: str | None = None, discontinuous: str = "drop") -> None:
    """Write documents, one JSON object a line, in ``jsonlines_shape`` (default: each
    document's own variant when it was read from jsonlines, else e2e)."""
    _shape(jsonlines_shape)  # a usage error for an unknown shape, before anything is written
    discontinuous_action(discontinuous)  # a usage error for an unknown mode
    for doc in documents:
        shape = _shape(jsonlines_shape, doc)
        enabled = gc.isenabled()
        gc.disable()  # a record is many small lists and no cycles: no collector scans
        try:
            w = written(doc, discontinuous)
            record = SHAPES[shape](w)
            if NATURAL_SHAPE.get(str(doc.attrs.get("jsonlines_variant"))) == shape:
                _trim(doc, record)
            _add_metadata(doc, record, report)
            line = json.dumps(_ordered(doc, record))
        finally:
            if enabled:
                gc.enable()
        out.write(line + "\n")
        if shape in NO_SENTENCES and len(w.sentences) > 1:
            report.repairs.append(Repair(
                "jsonlines.flat-tokens", f"the {shape} shape has no sentence boundaries: "
                f"{counted(len(w.sentences), 'sentence')} written as one token list",
                document=doc.name,
                action="approximated"))


def _trim(doc: Document, record: dict[str, Any]) -> None:
    """Leave out of a document written back in its own shape the optional keys its record did
    not have, where they would say nothing (no speakers, part 0, no clusters, no name)."""
    source = set(doc.attrs.get("jsonlines_keys") or ())
    for key in [k for k in record if k in OPTIONAL and k not in source]:
        value = record[key]
        if key in ("speakers", "speaker"):
            empty = not any(t.speaker for t in doc.tokens) and not any(
                s.speaker for s in doc.sentences)
        elif key == "part_id":
            empty = doc.pair_key()[1] == "0"
        elif key == "doc_key":
            empty = bool(doc.attrs.get("jsonlines_unnamed"))
        else:
            empty = value == []
        if empty:
            del record[key]


def _add_metadata(doc: Document, record: dict[str, Any], report: ConversionReport) -> None:
    json_keys = set(doc.attrs.get("jsonlines_json_meta") or ())
    clashes = []
    for key, value in doc.meta.items():
        if key in record:
            clashes.append(key)
            continue
        if key in json_keys:
            try:
                record[key] = json.loads(value)
                continue
            except ValueError:
                pass
        record[key] = value
    if clashes:
        report.repairs.append(Repair(
            "jsonlines.metadata-clash", f"metadata {', '.join(repr(k) for k in clashes)} "
            "not written: the shape uses those keys itself", document=doc.name,
            action="dropped"))


def _ordered(doc: Document, record: dict[str, Any]) -> dict[str, Any]:
    """The record with the keys in the order they were read (new keys after them)."""
    keys = doc.attrs.get("jsonlines_keys")
    if not keys:
        return record
    ordered = {k: record[k] for k in keys if k in record}
    ordered.update((k, v) for k, v in record.items() if k not in ordered)
    return ordered


# ---------------------------------------------------------------------------- losses
def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """What the chosen shape cannot hold of this document, beyond the format's capabilities."""
    shape = _shape(options.get("jsonlines_shape"), doc)
    w = written(doc, str(options.get("discontinuous", "drop")))
    found: list[LossRecord] = []

    def add(feature: str, examples: list[str], action: str = "dropped") -> None:
        if examples:
            found.append(LossRecord(feature, len(examples), action,
                                    [e for e in examples[:MAX_EXAMPLES] if e], doc.name))

    add("heads", _lost_heads(doc, w, shape))
    if shape in ("preco", "coref-data"):
        sentence_of = w.sentence_of()
        add("cross_sentence", [describe_mention(doc, m) for chain in w.clusters
                               for (a, b), m in chain if sentence_of[a] != sentence_of[b]])
    add("speakers", _lost_speakers(doc, w, shape))
    if shape in ("preco", "coref-data") and doc.pair_key()[1] != "0":
        add("parts", [f"part {doc.part}"], f"approximated (in the {shape} id)")
    return found


def _lost_heads(doc: Document, w: Written, shape: str) -> list[str]:
    mentions = [m for chain in w.clusters for _, m in chain]
    if shape == "wl-coref" and mentions and all(w.head(m) is not None for m in mentions):
        return []
    return [describe_mention(doc, m) for m in mentions
            if m.head is not None and not m.head_derived]


def _lost_speakers(doc: Document, w: Written, shape: str) -> list[str]:
    if shape in ("e2e", "wl-coref"):
        return []
    sentences = doc.sentences
    if shape == "coref-data":  # one speaker a sentence
        return [f"token {t.index}" for t in w.tokens if t.speaker is not None
                and (not 0 <= t.sentence < len(sentences)
                     or sentences[t.sentence].speaker != t.speaker)]
    lost = [f"sentence {s.index}" for s in sentences if s.speaker]
    return lost + [f"token {t.index}" for t in w.tokens if t.speaker]
