"""The CRAC LLM-track JSON (text2text-coref's ``conllu2json``): the reader.

A JSON list of documents ``{doc_id, tokens, clusters_token_offsets, clusters_text_mentions}``:
``tokens`` are the words (``##FORM`` for an empty node), each cluster a list of inclusive
``[start, end]`` token offsets, ``clusters_text_mentions`` the same mentions as text (checked
against the offsets, a warning where they differ). Clusters ``null`` (the ``--blind`` input) give
a document without mentions. Entities are named ``e1``, ``e2``, … in list order, as
``json2conllu`` names them. Offsets whose tokens disagree with the mention's stated text are
moved back to where the text is, by a shift that only grows through the document, up to
:data:`MAX_SHIFT` tokens (a repair: text2text-coref's ``conllu2json`` without ``-z`` writes
offsets that count empty nodes it leaves out).

LLM answers wrap JSON in prose or a Markdown fence; ``--lenient`` reads the outermost ``[`` …
``]`` and reports what it left out. A mention whose offsets lie outside its document is dropped
(a repair, refused by strict reading); anything that is not the shape above is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.jsontext import locate
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Token

FORMAT = "text2text-json"
MAX_SHIFT = 20   # tokens a mention's offsets are searched around for its stated text


def read_stream(stream: BinaryIO, file: str, *, lenient: bool = False) -> Iterator[Document]:
    raw = stream.read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise FormatError(f"not UTF-8 (byte {exc.start})", file=file, line=line,
                          check="text.invalid-utf8") from None
    data, skipped = _parse(text, file, lenient)
    if not isinstance(data, list):
        raise FormatError(f"the file holds a JSON {type(data).__name__}, not a list of "
                          "documents", file=file, line=1, check="text2text-json.bad-shape")
    for ordinal, record in enumerate(data, 1):
        doc = _document(record, ordinal, file, text)
        if skipped and ordinal == 1:
            doc.repairs.append(skipped)
        yield doc


def _parse(text: str, file: str, lenient: bool) -> tuple[Any, Repair | None]:
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        start, end = text.find("["), text.rfind("]")
        if lenient and 0 <= start < end:
            try:
                data = json.loads(text[start:end + 1])
            except (json.JSONDecodeError, RecursionError):
                pass
            else:
                line = text.count("\n", 0, start) + 1
                return data, Repair("text2text-json.prose", "text around the JSON list (prose "
                                    "or a Markdown fence) left out", file, line, None, None,
                                    "dropped")
        hint = "; pass --lenient to read the list inside prose or a fence" if not lenient else ""
        raise FormatError(f"not valid JSON: {exc.msg}{hint}", file=file, line=exc.lineno,
                          column=exc.colno, check="text2text-json.bad-json") from None
    except RecursionError:
        raise FormatError("not valid JSON: nested too deeply", file=file, line=1,
                          check="text2text-json.bad-json") from None


def _bad(message: str, file: str, ordinal: int, text: str, *steps: str | int) -> FormatError:
    """The refusal of document ``ordinal``, located at the value ``steps`` lead to in it."""
    where = locate(text, [ordinal - 1, *steps]) or locate(text, [ordinal - 1])
    line, column = where if where is not None else (None, None)
    return FormatError(f"document {ordinal}: {message}", file=file, line=line, column=column,
                       check="text2text-json.bad-shape")


def _document(record: Any, ordinal: int, file: str, text: str) -> Document:
    if not isinstance(record, dict):
        raise _bad(f"a JSON {type(record).__name__}, not an object", file, ordinal, text)
    name, tokens = record.get("doc_id"), record.get("tokens")
    if not isinstance(name, (str, int)) or isinstance(name, bool):
        raise _bad("doc_id should be a string", file, ordinal, text, "doc_id")
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise _bad("tokens should be a list of strings", file, ordinal, text, "tokens")
    doc = Document(str(name), None, file=file)
    made, word, empty = [], 0, 0
    for form in tokens:
        if form.startswith("##"):
            empty += 1
            made.append(Token(form[2:] or "_", id=f"{word}.{empty}", is_empty=True))
        else:
            word, empty = word + 1, 0
            made.append(Token(form, id=str(word)))
    doc.add_sentence(made)
    clusters = record.get("clusters_token_offsets")
    if clusters is None:
        return doc
    texts = record.get("clusters_text_mentions")
    if not isinstance(clusters, list) or not all(isinstance(c, list) for c in clusters):
        raise _bad("clusters_token_offsets should be a list of clusters (lists of [start, "
                   "end])", file, ordinal, text, "clusters_token_offsets")
    spans: list[tuple[int, int, int, int, str | None]] = []   # start, end, cluster, k, text
    for number, cluster in enumerate(clusters, 1):
        for k, span in enumerate(cluster):
            if not (isinstance(span, list) and len(span) == 2
                    and all(isinstance(x, int) and not isinstance(x, bool) for x in span)):
                raise _bad(f"cluster {number}: {span!r} is not [start, end]", file, ordinal,
                           text, "clusters_token_offsets", number - 1, k)
            start, end = span
            if not 0 <= start <= end < len(tokens):
                doc.repairs.append(Repair(
                    "text2text-json.bad-offsets", f"cluster {number}: [{start}, {end}] is "
                    f"outside the document's {len(tokens)} tokens; dropped", file, None, None,
                    doc.name, "dropped"))
                continue
            spans.append((start, end, number, k, _stated(texts, number, k)))
    entities = [doc.new_entity(attrs={"original_id": f"e{n}"})
                for n in range(1, len(clusters) + 1)]
    shift = 0   # offsets that run ahead of their text run ahead more further on
    for start, end, number, k, stated in sorted(spans):
        if stated is None:
            pass
        elif shift and start >= shift and _text(doc, start - shift, end - shift) == stated:
            start, end = start - shift, end - shift      # as the offsets before it
        elif stated != _text(doc, start, end):
            start, end, shift = _shifted(doc, stated, start, end, number, file, shift)
        doc.add_span(start, end, entities[number - 1])
    return doc


def _stated(texts: Any, number: int, k: int) -> str | None:
    try:
        stated = texts[number - 1][k]
    except (TypeError, IndexError, KeyError):
        return None
    return stated if isinstance(stated, str) else None


def _text(doc: Document, start: int, end: int) -> str:
    return " ".join(t.form if not t.is_empty else "##" + t.form
                    for t in doc.tokens[start:end + 1])


def _shifted(doc: Document, stated: str, start: int, end: int, number: int, file: str,
             shift: int) -> tuple[int, int, int]:
    """Offsets whose tokens disagree with the stated text: moved back by the least shift of at
    least ``shift`` (shifts only grow through a document) and at most :data:`MAX_SHIFT` that
    puts them on the text (text2text-coref's conllu2json without -z counts empty nodes that
    ``tokens`` leaves out, so its offsets run ahead); else kept, with a warning."""
    for back in range(max(shift, 1), MAX_SHIFT + 1):
        moved = start - back
        if moved >= 0 and _text(doc, moved, moved + end - start) == stated:
            doc.repairs.append(Repair(
                "text2text-json.shifted-offsets", f"cluster {number}: [{start}, {end}] hold "
                f"{_text(doc, start, end)!r}, not the mention's text {stated!r}, which is at "
                f"[{moved}, {moved + end - start}]; read there", file, None, None, doc.name,
                "repaired"))
            return moved, moved + end - start, back
    doc.repairs.append(Repair(
        "text2text-json.mention-text", f"cluster {number}: the text {stated!r} of [{start}, "
        f"{end}] differs from its tokens ({_text(doc, start, end)!r}); the offsets are used",
        file, None, None, doc.name, "kept"))
    return start, end, shift
