"""What the readers of NLP libraries' outputs share.

* :class:`Place` — where a document is (file, line, name): its errors are
  :class:`~corefkit.errors.FormatError`\\ s that name the document, its warnings repairs.
* :func:`whole_text`, :func:`load_json`, :func:`json_lines` — a file as text, as one JSON
  value, or as one JSON object a line; each reader passes its own check ids.
* :class:`Chains` — mentions added to entities once: a span given twice in one cluster is
  kept once and reported.
* :func:`text_document` — a document over a raw text whose mentions are character offsets:
  tokens by the rule of the jsonlines family's fastcoref variant (runs of word characters and
  single other characters, cut wherever a mention starts or ends inside one: ``dog's`` is
  ``dog`` ``'`` ``s``, which the alignment maps inside the key's ``dog`` ``'s``), each token
  keeping its characters, the document its text, so that writers give the same text and
  offsets back.

Every reader checks its offsets against its text before it builds anything: a file whose
offsets contradict its text is refused, naming the document and the offset.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, TypeGuard

from corefkit.converters.io import iter_lines
from corefkit.converters.loss import LossRecord
from corefkit.converters.loss import record as loss_record
from corefkit.converters.offsets import CHARS, TEXT, CharIndex
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Entity, Token

CharSpan = tuple[int, int]          # characters, end exclusive
UNNAMED = "jsonlines_unnamed"      # doc.attrs: the file gave the document no name


def shown(value: Any, limit: int = 60) -> str:
    """A JSON value as a message quotes it (cut when long)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def stem_of(file: str) -> str:
    base = os.path.basename(file)
    return os.path.splitext(base)[0] or base


@dataclass
class Place:
    """Where a document is read from: its errors and warnings name it."""

    file: str
    line: int | None
    name: str

    def error(self, check: str, message: str) -> FormatError:
        return FormatError(f"document {self.name!r}: {message}", file=self.file, line=self.line,
                           check=check)

    def warn(self, doc: Document, check: str, message: str, action: str = "kept") -> None:
        doc.repairs.append(Repair(check, f"document {self.name!r}: {message}", self.file,
                                  self.line, None, doc.name, action))


# ---------------------------------------------------------------------------- reading files
def whole_text(stream: BinaryIO, file: str) -> str:
    """A whole file as text (UTF-8, a BOM skipped); bad bytes are located."""
    raw = stream.read()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise FormatError(f"not UTF-8 (byte {exc.start})", file=file, line=line,
                          check="text.invalid-utf8") from None


def load_json(text: str, file: str, bad_json: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg}", file=file, line=exc.lineno,
                          column=exc.colno, check=bad_json) from None
    except RecursionError:
        raise FormatError("not valid JSON: nested too deeply", file=file, line=1,
                          check=bad_json) from None


def json_lines(stream: BinaryIO, file: str, bad_json: str,
               not_object: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for every non-blank line, each one JSON object."""
    for number, line in iter_lines(stream, file):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FormatError(f"not valid JSON: {exc.msg} (each line must be one JSON object)",
                              file=file, line=number, column=exc.colno, check=bad_json) from None
        except RecursionError:
            raise FormatError("not valid JSON: nested too deeply", file=file, line=number,
                              check=bad_json) from None
        if not isinstance(record, dict):
            raise FormatError(f"the line is a JSON {type(record).__name__}, not an object "
                              f"({shown(record, 40)}); each line must be one document object",
                              file=file, line=number, check=not_object)
        yield number, record


def jsonlines_documents(stream: BinaryIO, file: str, variant: str, bad_json: str,
                        not_object: str) -> Iterator[tuple[Document, dict[str, Any], Place]]:
    """(document, record, place) for every line of a jsonlines library output (fastcoref's,
    Maverick's): the document named by its ``doc_key`` (else after the file and its line's
    place) and marked as the jsonlines family's ``variant``, whose writer keeps the record's
    shape and key order."""
    stem = stem_of(file)
    for ordinal, (number, record) in enumerate(json_lines(stream, file, bad_json, not_object),
                                               1):
        doc = named(record, ("doc_key",), stem, ordinal, file)
        doc.line = number
        if "doc_key" in record:
            doc.attrs["jsonlines_doc_key"] = record["doc_key"]
        doc.attrs["jsonlines_variant"] = variant
        doc.attrs["jsonlines_keys"] = list(record)
        yield doc, record, Place(file, number, doc.name)


def named(record: dict[str, Any], keys: Sequence[str], stem: str, ordinal: int,
          file: str) -> Document:
    """A document named by the first of ``keys`` the record has (a string), else after the
    file and its place (``out-3``), marked unnamed."""
    from corefkit.converters.jsonlines.reader import split_doc_key

    for key in keys:
        value = record.get(key)
        if isinstance(value, str) and value:
            name, part = split_doc_key(value) if key == "doc_key" else (value, None)
            return Document(name, part, file=file)
    doc = Document(f"{stem}-{ordinal}", None, file=file)
    doc.attrs[UNNAMED] = True
    return doc


def unnamed_losses(doc: Document) -> list[LossRecord]:
    """A document read without a name is written without one: a reader names it after its
    file (and place), which the loss report says."""
    if not doc.attrs.get(UNNAMED):
        return []
    return loss_record(doc, "names", [doc.name],
                  "changed (the record has no name: a reader names it after its file)")


# ---------------------------------------------------------------------------- mentions
@dataclass
class Chains:
    """Adds mentions (first and last token) to entities, each span once per entity."""

    doc: Document
    place: Place
    duplicate: str                      # the check id of a span given twice in one cluster
    seen: set[tuple[int, int, int]] = field(default_factory=set)

    def entity(self, original_id: str) -> Entity:
        return self.doc.new_entity(attrs={"original_id": original_id})

    def add(self, entity: Entity, first: int, last: int, where: str,
            head: int | None = None) -> None:
        key = (entity.id, first, last)
        if key in self.seen:
            self.place.warn(self.doc, self.duplicate, f"{where} repeats a mention of its "
                            f"cluster (tokens {first + 1}-{last + 1}); kept once", "dropped")
            return
        self.seen.add(key)
        self.doc.add_span(first, last, entity, head=head)

    def finish(self) -> None:
        """Entities without mentions (empty clusters hold nothing) are removed."""
        for entity in list(self.doc.entities):
            if self.doc.size(entity) == 0:
                self.doc.remove_entity(entity)


# ---------------------------------------------------------------------------- raw text
def visible_before(text: str) -> list[int]:
    """For each offset, how many visible (non-space) characters of ``text`` come before it: a
    span holds one exactly when the counts at its ends differ (time O(1) a span)."""
    counts = [0] * (len(text) + 1)
    seen = 0
    for i, char in enumerate(text):
        if not char.isspace():
            seen += 1
        counts[i + 1] = seen
    return counts


def check_char_span(place: Place, check: str, text: str, span: CharSpan, where: str,
                    given: Any, visible: Sequence[int]) -> None:
    """A character span (end exclusive) that lies in ``text`` and holds a visible character
    (``visible``: :func:`visible_before` of the text)."""
    start, end = span
    if not 0 <= start < end <= len(text):
        raise place.error(check, f"{where} = {shown(given)} is not a range of characters of "
                          f"the text ({len(text)} characters)")
    if visible[end] == visible[start]:
        raise place.error(check, f"{where} = {shown(given)} holds only white space")


def excerpt(text: str, start: int, end: int, limit: int = 60) -> str:
    """``text[start:end]`` as a message quotes it (cut when long, at a cost bounded by
    ``limit``)."""
    if end - start <= limit:
        return repr(text[start:end])
    return repr(text[start:start + limit - 3] + "...")


def text_document(doc: Document, text: str,
                  spans: Sequence[CharSpan]) -> dict[CharSpan, tuple[int, int]]:
    """Tokens and sentences of ``doc`` from a raw ``text`` by the rule of the jsonlines
    family's fastcoref variant (:mod:`corefkit.converters.jsonlines.characters`: a token is a
    run of word characters or one other visible character, a sentence ends after ``.``, ``!``
    or ``?`` and the closing quotes or brackets after them), cut at every span boundary; the
    first and last token of each span (spans checked with :func:`check_char_span`)."""
    from corefkit.converters.jsonlines.characters import sentence_bounds
    from corefkit.converters.jsonlines.characters import tokenize as split

    ranges, _ = split(text, {c for span in spans for c in span})
    for a, z in sentence_bounds(text, ranges):
        doc.add_sentence([Token(text[s:e], -1, -1, {CHARS: (s, e)}) for s, e in ranges[a:z]])
    doc.attrs[TEXT] = text
    index = CharIndex([t.attrs[CHARS] for t in doc.tokens])
    found: dict[CharSpan, tuple[int, int]] = {}
    for span in spans:
        tokens, _ = index.tokens(*span)
        found[span] = (tokens[0], tokens[-1])
    return found


def text_of_spans(text: str, spans: Sequence[CharSpan]) -> list[str]:
    return [text[s:e] for s, e in spans]


# ---------------------------------------------------------------------------- other keys
JSON_META = "jsonlines_json_meta"  # doc.attrs: meta keys whose values are JSON text


def keep_extras(doc: Document, record: dict[str, Any], used: Sequence[str]) -> None:
    """Keys a reader does not interpret become document metadata (nothing is dropped):
    strings as they are, other values as JSON text (their keys listed in
    ``doc.attrs[JSON_META]``, so that a writer gives the JSON value back)."""
    json_keys = []
    for key, value in record.items():
        if key in used:
            continue
        if isinstance(value, str):
            doc.meta[key] = value
        else:
            doc.meta[key] = json.dumps(value, ensure_ascii=False)
            json_keys.append(key)
    if json_keys:
        doc.attrs[JSON_META] = json_keys


def add_extras(doc: Document, record: dict[str, Any], skip: Sequence[str] = ()) -> list[str]:
    """Document metadata (but the keys of ``skip``) written into a record beside its own
    keys; the keys it could not write (the record uses them itself)."""
    json_keys = set(doc.attrs.get(JSON_META) or ())
    clashes = []
    for key, value in doc.meta.items():
        if key in skip:
            continue
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
    return clashes
