"""The jsonlines family: the reader.

One JSON object per line, one document per object, read and yielded one line at a time (a
whole book on one line is one document; blank lines are skipped). The variant is told by the
first record's keys (:func:`corefkit.converters.jsonlines.spec.detect_variant`) unless
``jsonlines_variant`` names it, and every line is read as that variant.

Document names: ``doc_key`` (else ``document_id``, else ``id``). With ``jsonlines_doc_key``
``name-part`` (the default) a ``doc_key`` is split as e2e-coref builds it from a CoNLL-2012
``#begin document (name); part N`` line, ``name_N`` (``bc/cctv/00/cctv_0000_0`` is document
``bc/cctv/00/cctv_0000``, part 0), and a ``doc_key`` that is a whole begin argument
(``(name); part 000``) is read as one; ``whole`` takes the key as the name. wl-coref names a
part with ``part_id``. A record without a name is named after the file and its number
(``out_test-2``), with a warning: scorers pair documents by name.

Strict by default: a line that is not a JSON object, a missing or ill-shaped field, a span
outside the document is a :class:`FormatError` with file, line and check id; a subword span
that cuts a word is a repair that only ``--lenient`` accepts (see :mod:`.subwords`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from corefkit.converters.io import iter_lines
from corefkit.converters.jsonlines.build import Builder, is_int, shown
from corefkit.converters.jsonlines.characters import read_fastcoref
from corefkit.converters.jsonlines.spec import DOC_KEY_MODES, VARIANTS, detect_variant
from corefkit.converters.jsonlines.subwords import read_minimized
from corefkit.converters.jsonlines.words import (
    read_coref_data,
    read_e2e,
    read_maverick,
    read_preco,
    read_wl_coref,
)
from corefkit.converters.jsontext import parse
from corefkit.errors import FormatError, UsageError
from corefkit.model import Document

BAD_JSON = "jsonlines.bad-json"
NOT_OBJECT = "jsonlines.not-object"
UNKNOWN_VARIANT = "jsonlines.unknown-variant"
NO_ID = "jsonlines.no-id"

READERS: dict[str, Callable[[Builder], None]] = {
    "e2e": read_e2e,
    "dygie": read_e2e,
    "minimized": read_minimized,
    "wl-coref": read_wl_coref,
    "preco": read_preco,
    "fastcoref": read_fastcoref,
    "maverick": read_maverick,
    "coref-data": read_coref_data,
}

# a name may hold any character, a line break too (DOTALL; fullmatch, not "$", which also
# matches before a final newline)
BEGIN_ARGUMENT_RE = re.compile(r"\((.*)\);\s*part\s+(\S+)", re.DOTALL)
NAME_PART_RE = re.compile(r"(.+)_(\d+)", re.DOTALL)


def split_doc_key(key: str, mode: str = "name-part") -> tuple[str, str | None]:
    """(name, part) of a ``doc_key``: ``name_N`` as e2e-coref builds it, or a whole CoNLL-2012
    begin argument ``(name); part N``; ``mode`` ``whole`` keeps the key as the name."""
    if mode == "whole":
        return key, None
    found = BEGIN_ARGUMENT_RE.fullmatch(key)
    if found:
        return found.group(1), found.group(2)
    found = NAME_PART_RE.fullmatch(key)
    if found:
        return found.group(1), found.group(2)
    return key, None


def read_stream(stream: BinaryIO, file: str, *, jsonlines_variant: str | None = None,
                jsonlines_doc_key: str = "name-part") -> Iterator[Document]:
    """Documents of a jsonlines file, one line at a time."""
    if jsonlines_variant is not None and jsonlines_variant not in VARIANTS:
        raise UsageError(f"unknown jsonlines variant {jsonlines_variant!r}; expected one of "
                         f"{', '.join(VARIANTS)}")
    if jsonlines_doc_key not in DOC_KEY_MODES:
        raise UsageError(f"unknown --jsonlines-doc-key {jsonlines_doc_key!r}; expected one of "
                         f"{', '.join(DOC_KEY_MODES)}")
    stem = os.path.splitext(os.path.basename(file))[0] or os.path.basename(file)
    variant = jsonlines_variant
    ordinal = 0
    for number, line in iter_lines(stream, file):
        if not line.strip():
            continue
        record = parse_line(line, file, number)
        if variant is None:
            variant = detect_variant(record)
            if variant is None:
                keys = ", ".join(repr(k) for k in list(record)[:8]) or "no keys"
                raise FormatError(f"the first record's keys ({keys}) are those of no jsonlines "
                                  "variant; pass --jsonlines-variant", file=file, line=number,
                                  check=UNKNOWN_VARIANT)
        ordinal += 1
        doc, unnamed = _document(record, file, number, ordinal, stem, jsonlines_doc_key)
        builder = Builder(record, variant, file, number, doc)
        if unnamed:
            doc.attrs["jsonlines_unnamed"] = True
            builder.repair(NO_ID, "the record has no doc_key, document_id or id; named it "
                           "after the file and its place (scorers pair documents by name)")
        READERS[variant](builder)
        yield doc


def parse_line(line: str, file: str, number: int) -> dict[str, Any]:
    record = parse(line, file=file, check=BAD_JSON, first_line=number,
                   hint="each line must be one JSON object")
    if not isinstance(record, dict):
        raise FormatError(f"the line is a JSON {type(record).__name__}, not an object "
                          f"({shown(record, 40)}); each line must be one document object",
                          file=file, line=number, check=NOT_OBJECT)
    return record


def _document(record: dict[str, Any], file: str, line: int, ordinal: int, stem: str,
              mode: str) -> tuple[Document, bool]:
    """A document named after the record (and whether it had to be named after the file)."""
    for key in ("doc_key", "document_id", "id"):
        value = record.get(key)
        if value is None:
            continue
        if not isinstance(value, str) and not is_int(value):
            raise FormatError(f"{key} should be a string or an integer, not {shown(value)}",
                              file=file, line=line, check="jsonlines.bad-field")
        name, part = (split_doc_key(str(value), mode) if key == "doc_key"
                      else (str(value), None))
        doc = Document(name, part, file=file)
        if key == "doc_key":
            doc.attrs["jsonlines_doc_key"] = value
        return doc, False
    return Document(f"{stem}-{ordinal}", None, file=file), True

