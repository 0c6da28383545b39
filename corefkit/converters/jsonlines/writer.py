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

import bisect
import gc
import json
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.jsonlines.characters import sentence_bounds
from corefkit.converters.jsonlines.characters import tokenize as fastcoref_tokenize
from corefkit.converters.jsonlines.shapes import (
    SHAPES,
    Written,
    _document_heads,
    plain_name,
    text_layout,
    visible,
    written,
)
from corefkit.converters.jsonlines.spec import SHAPES as SHAPE_NAMES
from corefkit.converters.loss import (
    COLUMN_FIELDS,
    ConversionReport,
    LossRecord,
    column_value,
    discontinuous_action,
    record,
    speaker_of,
    speakers_by_sentence_lost,
    tokens_with_column,
)
from corefkit.errors import Repair, UsageError, counted
from corefkit.model import Document, Mention, Token

NO_SENTENCES = ("maverick",)
# the shape a variant is written back in, and the keys a record of it may lack
NATURAL_SHAPE = {"e2e": "e2e", "dygie": "e2e", "wl-coref": "wl-coref", "preco": "preco",
                 "fastcoref": "fastcoref", "maverick": "maverick", "coref-data": "coref-data"}
OPTIONAL = {"speakers", "speaker", "part_id", "span_clusters", "clusters", "doc_key"}


def kept_conll_columns(doc: Document, **options: Any) -> frozenset[str]:
    """The CoNLL-2012 columns this writer keeps: POS (the model's XPOS) in the shapes that
    write it (wl-coref as ``pos``, e2e when it was read so, coref-data with every CoNLL-U
    column), and the predicate lemma (the model's LEMMA) in coref-data; no other."""
    shape = _shape(options.get("jsonlines_shape"), doc)
    if shape == "coref-data":
        return frozenset({"POS", "predicate lemma"})
    if shape == "wl-coref" or (shape == "e2e" and doc.attrs.get("jsonlines_pos")):
        return frozenset({"POS"})
    return frozenset()


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
    """What the chosen shape cannot hold of this document, beyond the format's capabilities:
    heads outside wl-coref, mentions across sentences in the sentence-relative shapes,
    speakers, parts and sentences where the shape has no place for them, the token columns
    each shape has or has not, and in the fastcoref shape what its reader's tokenisation rule
    makes of the text."""
    shape = _shape(options.get("jsonlines_shape"), doc)
    w = written(doc, str(options.get("discontinuous", "drop")))
    found = record(doc, "heads", _lost_heads(doc, w, shape))
    if shape in ("preco", "coref-data"):
        sentence_of = w.sentence_of()
        found += record(doc, "cross_sentence", [m for chain in w.clusters
                                                for (a, b), m in chain
                                                if sentence_of[a] != sentence_of[b]])
    found += record(doc, "speakers", _lost_speakers(doc, w, shape))
    if shape in ("preco", "coref-data") and doc.pair_key()[1] != "0":
        found += record(doc, "parts", [f"part {doc.part}"],
                        f"dropped (the {shape} shape has no part: it goes into the id)")
        found += record(doc, "names", [f"{doc.name!r} as {plain_name(doc)!r}"],
                        f"changed (the {shape} id holds the part)")
    if shape in NO_SENTENCES and len(w.sentences) > 1:
        found += record(doc, "sentences", [doc.sentences[w.tokens[a].sentence]
                                           for a, _ in w.sentences],
                        f"changed (the {shape} shape has no sentence boundaries: one list of "
                        "words)")
    if shape == NATURAL_SHAPE.get(str(doc.attrs.get("jsonlines_variant"))) and \
            doc.attrs.get("jsonlines_unnamed"):
        found += record(doc, "names", [doc.name],
                        "changed (the record has no name: a reader names it after its file)")
    found += _column_losses(doc, w, shape)
    if shape == "fastcoref":
        found += fastcoref_losses(doc, w)
    return found


def _lost_heads(doc: Document, w: Written, shape: str) -> list[Mention]:
    mentions = [m for chain in w.clusters for _, m in chain]
    if shape == "wl-coref" and mentions and all(w.head(m) is not None for m in mentions):
        return []  # those of mentions that are not written: the registry's cascade
    return [m for m in doc.sorted_mentions() if m.head is not None and not m.head_derived]


def _lost_speakers(doc: Document, w: Written, shape: str) -> list[Token]:
    if shape in ("e2e", "wl-coref"):
        return []
    if shape == "coref-data":  # one speaker a sentence
        return speakers_by_sentence_lost(doc, w.tokens)
    return [t for t in w.tokens if speaker_of(doc, t)]


def _column_losses(doc: Document, w: Written, shape: str) -> list[LossRecord]:
    """The token columns a shape writes back (coref-data: every CoNLL-U column; wl-coref: XPOS
    as ``pos``, DEPREL, and HEAD when every word's head is known; e2e: XPOS as ``pos`` when it
    was read so), compared with what each word has."""
    def kept_by_shape(token: Token, feature: str) -> Any:
        if shape == "coref-data":
            return column_value(token, feature)
        if feature == "pos" and (shape == "wl-coref" or (
                shape == "e2e" and doc.attrs.get("jsonlines_pos"))):
            return column_value(_only(token, xpos=token.xpos), "pos")
        if feature == "syntax" and shape == "wl-coref":
            head = token.head if tree else None
            return column_value(_only(token, head=head, deprel=token.deprel), "syntax")
        return None

    tree = shape == "wl-coref" and _document_heads(w) is not None
    found: list[LossRecord] = []
    for feature in (*COLUMN_FIELDS, "misc"):
        dropped: list[Token] = []
        changed: list[Token] = []
        for token in tokens_with_column(w.tokens, feature):
            value = column_value(token, feature)
            kept = kept_by_shape(token, feature)
            if kept is None:
                dropped.append(token)
            elif kept != value:
                changed.append(token)
        found += record(doc, feature, dropped, f"dropped (not in the {shape} shape)")
        found += record(doc, feature, changed, f"changed (in part in the {shape} shape)")
    return found


def _only(token: Token, **fields: Any) -> Token:
    """A stand-in token with only ``fields`` set (what a shape keeps of ``token``)."""
    return Token(token.form, **fields)


def fastcoref_losses(doc: Document, w: Written) -> list[LossRecord]:
    """What the fastcoref reader's rules (:mod:`.characters`) make of the written text: the
    words whose characters are not exactly one token of the same form (split, merged or
    changed), the words it finds no token for, and the sentences its sentence rule does not
    end where the document's end."""
    text, offsets = text_layout(doc)
    spans = [offsets[t.index] for t in w.tokens]
    cuts = {c for chain in w.clusters for (a, b), _ in chain for c in (spans[a][0], spans[b][1])}
    ranges, _ = fastcoref_tokenize(text, cuts)
    covered = [False] * len(ranges)
    starts = [start for start, _ in ranges]
    dropped: list[Token] = []
    changed: list[Token] = []
    for token, (start, end) in zip(w.tokens, spans):
        first = bisect.bisect_left(starts, start)
        stop = bisect.bisect_left(starts, end) if end > start else first
        inside = [k for k in range(first, stop) if ranges[k][1] <= end]
        for k in inside:
            covered[k] = True
        if not inside:
            dropped.append(token)
        elif len(inside) != 1 or ranges[inside[0]] != (start, end) or text[start:end] != token.form:
            changed.append(token)
    added = [f"characters {a}-{b} {text[a:b]!r}" for k, (a, b) in enumerate(ranges)
             if not covered[k]]
    no_token = set(dropped)
    gone, cut = [], []
    for chain in w.clusters:
        for (a, b), mention in chain:
            kept = [t for t in w.tokens[a:b + 1] if t not in no_token]
            if not visible(text, spans[a][0], spans[b][1]):
                gone.append(mention)
            elif len(kept) < b - a + 1:
                cut.append(mention)
    found = record(doc, "mentions_over_lost_tokens", gone,
                   "dropped (their characters are white space only)")
    found += record(doc, "mentions_over_lost_tokens", cut,
                    "changed (written without the tokens that are lost)")
    found += record(doc, "tokens", dropped, "dropped (the fastcoref reader finds no token there)")
    found += record(doc, "tokens", changed + added,
                    "changed (the fastcoref shape holds the text: its reader splits it by its "
                    "own rule)")
    bounds = {(ranges[a][0], ranges[b - 1][1]) for a, b in sentence_bounds(text, ranges)}
    ended = [doc.sentences[w.tokens[a].sentence] for a, b in w.sentences
             if (spans[a][0], spans[b - 1][1]) not in bounds]
    return found + record(doc, "sentences", ended,
                          "changed (the fastcoref reader ends sentences by its own rule)")
