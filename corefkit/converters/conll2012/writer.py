"""CoNLL-2012 (OntoNotes coreference column): the writer.

Specification: ``formats/conll2012.md``. The writer emits the 5-column OntoNotes layout that
every scorer reads, or the source layout (the columns, begin line and empty-cell marker the
document was read with), or GUM's 3-column layout. CoNLL-2012 cannot hold split antecedents:
a set entity is written as its own chain and reported as lost.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import IO

from corefkit.converters.conll2012.reader import BEGIN_RE, parse_begin
from corefkit.converters.conll2012.spec import LAYOUTS
from corefkit.converters.loss import (
    EVERY_COLUMN,
    ConversionReport,
    LossRecord,
    crossing_same_entity_mentions,
    discontinuous_action,
    record,
    speaker_of,
    tokens_with_column,
    writable_tokens,
)
from corefkit.errors import Repair, UsageError
from corefkit.model import IDENTITY, Document, Entity, Mention

def loss_actions(**options: object) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {"split_antecedents": "dropped (set entities stay ordinary chains)",
            "discontinuous": discontinuous_action(str(options.get("discontinuous", "drop")))}


# what only the source layout holds: the columns a document read from CoNLL-2012 had (the
# others, token_columns, are reported per column by the registry: conll_column_losses)
SOURCE_COLUMNS = ("lemmas", "pos")


def partial_losses(doc: Document, *, layout: str = "default", keep_ids: bool = False,
                   discontinuous: str = "drop") -> list[LossRecord]:
    """The columns between the word and the coreference (POS, parse bits, lemma, sense,
    speaker, named entities, ...) are written only in the ``source`` layout, for the tokens
    read from CoNLL-2012 with them; elsewhere every lemma, tag, speaker and opaque column of
    the words is lost. The ``gum`` layout has no sentence breaks."""
    source = layout == "source" and "conll_begin" in doc.attrs
    words = [t for t in doc.tokens if not t.is_empty
             and not (source and "conll_columns" in t.attrs)]
    records = []
    if layout == "gum":
        sentences = [s for s in doc.sentences
                     if any(not doc.tokens[i].is_empty for i in s.token_indices())]
        if len(sentences) > 1:
            records += record(doc, "sentences", sentences,
                              "changed (the GUM layout has no sentence breaks)")
    for feature in SOURCE_COLUMNS:
        records += record(doc, feature, tokens_with_column(words, feature))
    if not any(s.speaker for s in doc.sentences) and all(t.speaker is None for t in words):
        return records
    return records + record(doc, "speakers", [t for t in words if speaker_of(doc, t)])


def kept_conll_columns(doc: Document, *, layout: str = "default", **options: object
                       ) -> frozenset[str]:
    """The CoNLL-2012 columns this writer keeps: every one in the source layout (for a
    document read from CoNLL-2012), none in the 5-column and GUM layouts."""
    return EVERY_COLUMN if layout == "source" and "conll_begin" in doc.attrs else frozenset()


def write_stream(
    documents: Iterable[Document],
    out: IO[str],
    report: ConversionReport,
    *,
    layout: str = "default",
    keep_ids: bool = False,
    discontinuous: str = "drop",
) -> None:
    """Write documents as CoNLL-2012.

    ``layout``: ``default`` (5 TAB-separated columns), ``source`` (the columns, begin line and
    empty-cell marker the document was read with, when it came from CoNLL-2012) or ``gum``
    (GUM's 3 columns). ``keep_ids`` writes the original id strings instead of 0…n-1.
    ``discontinuous``: ``drop``, ``extent`` or ``first`` (see ``loss.writable_tokens``).
    """
    if layout not in LAYOUTS:
        raise UsageError(f"unknown CoNLL-2012 layout {layout!r}; expected one of {', '.join(LAYOUTS)}")
    discontinuous_action(discontinuous)  # a usage error for an unknown mode
    for doc in documents:
        _write_document(doc, out, report, layout, keep_ids, discontinuous)


def _written_mentions(doc: Document, report: ConversionReport,
                      discontinuous: str = "drop") -> list[tuple[Mention, int, int, Entity]]:
    """The mentions CoNLL-2012 can hold, as (mention, first row, last row, entity).

    Rows count written tokens (empty nodes are not written). Zeros, unlinked and
    non-identity mentions are left out, and discontinuous ones unless ``discontinuous``
    approximates them (the loss report counts them); of two crossing mentions of one entity
    the later one is left out.
    """
    crossing = set(crossing_same_entity_mentions(doc))
    row_of = {}
    row = 0
    for token in doc.tokens:
        if not token.is_empty:
            row_of[token.index] = row
            row += 1
    written = []
    for mention in doc.sorted_mentions():
        entity = doc.entity_of(mention)
        tokens = writable_tokens(mention, discontinuous)
        if (entity is None or entity.layer != IDENTITY or entity.pseudo
                or tokens is None or mention in crossing):
            continue
        rows = [row_of[t] for t in tokens if t in row_of]
        if not rows:
            continue  # a zero mention
        written.append((mention, rows[0], rows[-1], entity))
    return written


def _cells(doc: Document, report: ConversionReport, keep_ids: bool,
           discontinuous: str = "drop") -> dict[int, list[str]]:
    """Chunk lists per written row, in the canonical order of conversion-notes §5."""
    written = _written_mentions(doc, report, discontinuous)
    ids: dict[Entity, str] = {}
    for _, _, _, entity in written:  # numbered by first mention in canonical order
        if entity not in ids:
            original = str(entity.attrs.get("original_id", ""))
            ids[entity] = original if keep_ids and original else str(len(ids))
    renumbered = {str(e.attrs["original_id"]): i for e, i in ids.items()
                  if "original_id" in e.attrs and str(e.attrs["original_id"]) != i}
    if renumbered:
        report.id_maps[doc.name] = renumbered
    rank = {e: i for i, e in enumerate(ids)}
    openers: dict[int, list[tuple[int, int, Entity]]] = {}
    closers: dict[int, list[tuple[int, int, Entity]]] = {}
    singles: dict[int, list[Entity]] = {}
    for _, first, last, entity in written:
        if first == last:
            singles.setdefault(first, []).append(entity)
        else:
            openers.setdefault(first, []).append((first, last, entity))
            closers.setdefault(last, []).append((first, last, entity))
    cells: dict[int, list[str]] = {}
    touching: set[tuple[int, Entity]] = set()
    for row in sorted(set(openers) | set(closers) | set(singles)):
        # closers: latest start first (inner before outer); equal spans: reverse entity order
        close = sorted(closers.get(row, ()), key=lambda c: (-c[0], -rank[c[2]]))
        # openers: latest end first (outer before inner); equal spans: entity order
        open_ = sorted(openers.get(row, ()), key=lambda o: (-o[1], rank[o[2]]))
        one = sorted(singles.get(row, ()), key=rank.__getitem__)
        close_chunks = [f"{ids[e]})" for _, _, e in close]
        open_chunks = [f"({ids[e]}" for _, _, e in open_]
        one_chunks = [f"({ids[e]})" for e in one]
        if open_:
            cells[row] = close_chunks + open_chunks + one_chunks
        else:
            cells[row] = one_chunks + close_chunks
        closing = {e for _, _, e in close}
        for _, _, e in open_:
            if e in closing and (row, e) not in touching:
                touching.add((row, e))
                report.repairs.append(Repair(
                    "conll.shared-token-same-entity",
                    f"two mentions of entity {ids[e]} share token row {row} ('{ids[e]})|({ids[e]}'); "
                    "the reference scorer reads all openers of a line before its closers and "
                    "misreads this", document=doc.name))
    return cells


def _write_document(doc: Document, out: IO[str], report: ConversionReport, layout: str,
                    keep_ids: bool, discontinuous: str = "drop") -> None:
    cells = _cells(doc, report, keep_ids, discontinuous)
    source = layout == "source" and "conll_begin" in doc.attrs
    if layout == "source" and not source:
        report.repairs.append(Repair(
            "conll.no-source-layout",
            "the document was not read from CoNLL-2012; wrote the default layout instead",
            document=doc.name))
    part = doc.part if doc.part is not None else "0"
    part_number = str(int(part)) if part.isdecimal() else part
    if source:
        begin = doc.attrs["conll_begin"]
        found = BEGIN_RE.match(begin)
        if found is None or parse_begin(found.group(1))[0] != doc.id:
            begin = f"#begin document ({doc.id}); part {part}"
        end = doc.attrs.get("conll_end", "#end document")
        empty = doc.attrs.get("conll_empty", "-")
        separator = "|"
        blank_lines = doc.attrs.get("conll_blank_lines", True)
    elif layout == "gum":
        begin = f"# begin document {doc.id}"
        end = "# end document"
        empty = "_"
        separator = ""
        blank_lines = False
    else:
        # the part as the source spelt it (the reference scorer pairs documents by this text);
        # OntoNotes' three digits only for documents whose source had no part
        begin = f"#begin document ({doc.id}); part {doc.part if doc.part else '000'}"
        end = "#end document"
        empty = "-"
        separator = "|"
        blank_lines = True
    lines = [begin]
    row = 0
    tokens = doc.tokens  # a property: looked up once, not per token
    for sentence in doc.sentences:
        word = 0
        for index in range(sentence.start, sentence.stop):
            token = tokens[index]
            if token.is_empty:
                continue
            chunks = cells.get(row)
            cell = separator.join(chunks) if chunks else empty
            if source and "conll_columns" in token.attrs:
                lines.append("\t".join([*token.attrs["conll_columns"], cell]))
            else:
                form = token.form  # the registry refuses forms with white space
                if layout == "gum":
                    lines.append(f"{row}\t{form}\t{cell}")
                else:
                    lines.append(f"{doc.id}\t{part_number}\t{word}\t{form}\t{cell}")
            row += 1
            word += 1
        if blank_lines and word:
            lines.append("")
    lines.append(end)
    out.write("\n".join(lines) + "\n")
