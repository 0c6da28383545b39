"""fastcoref's output file: the reader.

Each line is one document ``{"text", "clusters", "clusters_strings"}`` (other keys are kept as
document metadata; a ``doc_key``, which corefkit's writer adds, names the document, else it is
named after the file and its line's place, ``out_test-2``). ``clusters`` are lists of
``[start, end]`` character offsets into ``text``, end exclusive (fastcoref's README:
``get_clusters(as_strings=False)`` gives ``(0, 2)`` for "We"). Every offset is checked against
the text: it must lie in it and hold a visible character, and ``clusters_strings[k][j]`` must be
exactly ``text[start:end]`` — otherwise the file is refused, naming document and offset.

Tokens are the text's by :func:`corefkit.converters.libraries.common.text_document` (runs of
word characters and single other characters, cut at mention boundaries; sentences end after
``.``, ``!``, ``?``): the jsonlines ``fastcoref`` variant's rule. Each keeps its characters, so
the writer gives back the same text and offsets; the words a writer wrote come back split by
this rule (``FormatSpec.words_kept`` is False), the same once aligned to them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.libraries.common import (
    Chains,
    CharSpan,
    Place,
    check_char_span,
    excerpt,
    is_int,
    jsonlines_documents,
    keep_extras,
    shown,
    text_document,
    visible_before,
)
from corefkit.model import Document

BAD_JSON = "fastcoref.bad-json"
NOT_OBJECT = "fastcoref.not-object"
BAD_SHAPE = "fastcoref.bad-shape"
BAD_OFFSETS = "fastcoref.bad-offsets"
MENTION_TEXT = "fastcoref.mention-text"
DUPLICATE = "fastcoref.duplicate-mention"
USED = ("doc_key", "text", "clusters", "clusters_strings")


def read_stream(stream: BinaryIO, file: str) -> Iterator[Document]:
    for doc, record, place in jsonlines_documents(stream, file, "fastcoref", BAD_JSON, NOT_OBJECT):
        yield build(doc, record, place)


def char_clusters(place: Place, record: dict[str, Any], key: str, shape: str,
                  offsets: str) -> list[list[CharSpan]]:
    """``record[key]``: clusters of ``[start, end]`` integer pairs (end exclusive)."""
    value = record.get(key)
    if not isinstance(value, list) or not all(isinstance(c, list) for c in value):
        raise place.error(shape, f"{key} should be a list of clusters (lists of [start, end] "
                          f"character offsets), not {shown(value)}")
    clusters = []
    for k, cluster in enumerate(value):
        spans = []
        for j, span in enumerate(cluster):
            if not (isinstance(span, list) and len(span) == 2 and all(is_int(x) for x in span)):
                raise place.error(offsets, f"{key}[{k}][{j}] = {shown(span)} is not "
                                  "[start, end]")
            spans.append((span[0], span[1]))
        clusters.append(spans)
    return clusters


def check_strings(place: Place, record: dict[str, Any], key: str, text: str,
                  clusters: list[list[CharSpan]], offsets_key: str, shape: str,
                  mention_text: str) -> None:
    """Stated mention strings, parallel to the clusters, each the text at its offsets."""
    if key not in record:
        return
    stated = record[key]
    if not isinstance(stated, list) or len(stated) != len(clusters) or not all(
            isinstance(s, list) and len(s) == len(c) for s, c in zip(stated, clusters)):
        raise place.error(shape, f"{key} should hold one string for each mention of "
                          f"{offsets_key}, cluster by cluster")
    for k, (said, spans) in enumerate(zip(stated, clusters)):
        for j, (string, (start, end)) in enumerate(zip(said, spans)):
            # lengths first: a slice is taken only as long as the string the file states
            if not isinstance(string, str) or end - start != len(string) \
                    or string != text[start:end]:
                raise place.error(mention_text, f"{offsets_key}[{k}][{j}] = [{start}, {end}] "
                                  f"holds {excerpt(text, start, end)} in the text, but "
                                  f"{key}[{k}][{j}] is {shown(string)}: the offsets contradict "
                                  "the text")


def build(doc: Document, record: dict[str, Any], place: Place) -> Document:
    text = record.get("text")
    if not isinstance(text, str):
        raise place.error(BAD_SHAPE, f"text should be a string, not {shown(text)}")
    clusters = char_clusters(place, record, "clusters", BAD_SHAPE, BAD_OFFSETS)
    visible = visible_before(text)
    for k, spans in enumerate(clusters):
        for j, span in enumerate(spans):
            check_char_span(place, BAD_OFFSETS, text, span, f"clusters[{k}][{j}]", list(span),
                            visible)
    check_strings(place, record, "clusters_strings", text, clusters, "clusters", BAD_SHAPE,
                  MENTION_TEXT)
    tokens = text_document(doc, text, [s for spans in clusters for s in spans])
    chains = Chains(doc, place, DUPLICATE)
    for k, spans in enumerate(clusters):
        entity = chains.entity(str(k))
        for j, span in enumerate(spans):
            chains.add(entity, *tokens[span], f"clusters[{k}][{j}]")
    chains.finish()
    keep_extras(doc, record, USED)
    return doc
