"""GAP TSV: the reader. Every example (row) is a document.

The document's id is the example's ``ID`` and its text the ``Text`` column, tokenised by the
rule of :mod:`corefkit.converters.offsets` (whitespace-separated runs, cut where the pronoun,
A or B starts or ends: *Cassidy's* with the name *Cheryl Cassidy* gives ``Cassidy`` ``'s``);
the text has no line breaks, so the document is one sentence. The pronoun and the names A and
B are mentions (``mention_type`` ``pronoun`` / ``name``, ``gap_role`` ``pronoun``/``A``/``B``);
a TRUE label puts the name in the pronoun's entity, every other mention is a singleton. Only
these three mentions are annotated: the other mentions of the names in the text are not, so
the documents are not complete coreference annotation. The URL is the document's metadata
``url``; the row is kept in ``doc.attrs["gap_example"]`` for the GAP writer.

Malformed rows are refused (``gap.bad-header``, ``gap.bad-columns``, ``gap.bad-offset``,
``gap.bad-label``); an ID used twice (``gap.duplicate-id``: the official scorer scores the
first), both labels TRUE (``gap.both-true``) and a pronoun outside GAP's list
(``gap.unknown-pronoun``) are kept and reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

from corefkit.converters.gap.rows import GapExample, example_repairs, read_examples
from corefkit.converters.offsets import CharIndex, build_document, tokenize
from corefkit.errors import Repair
from corefkit.model import Document

EXAMPLE = "gap_example"  # doc.attrs: the example's row as a dict (GapExample.to_json)
ROLES = ("pronoun", "A", "B")


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    """The documents of a GAP file, one per example."""
    first_line: dict[str, int | None] = {}
    for example in read_examples(stream, file):
        doc = example_document(example, file)
        doc.repairs.extend(example_repairs(example, file))
        if example.id in first_line:
            doc.repairs.append(Repair(
                "gap.duplicate-id", f"ID {example.id!r} is used by the row of line "
                f"{first_line[example.id]} already; scorers pair examples by ID and keep the "
                "first", file=file, line=example.line, document=example.id))
        else:
            first_line[example.id] = example.line
        yield doc


def example_document(example: GapExample, file: str | None = None) -> Document:
    """The document of one example (see the module's text)."""
    spans = {role: example.span(role) for role in ROLES}
    cuts = [offset for span in spans.values() for offset in span]
    doc = build_document(example.id, example.text, tokenize(example.text, cuts), file=file)
    doc.line = example.line
    index = CharIndex([t.attrs["_chars"] for t in doc.tokens])
    pronoun_entity = doc.new_entity()
    for role in ROLES:
        tokens, _ = index.tokens(*spans[role])
        linked = role == "pronoun" or (example.a_coref if role == "A" else example.b_coref)
        entity = pronoun_entity if linked else doc.new_entity()
        doc.add_mention(tokens, entity, line=example.line, attrs={
            "mention_type": "pronoun" if role == "pronoun" else "name", "gap_role": role})
    if example.url:
        doc.meta["url"] = example.url
    doc.attrs[EXAMPLE] = example.to_json()
    return doc
