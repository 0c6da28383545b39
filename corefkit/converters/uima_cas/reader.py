"""UIMA CAS: the reader of XMI and CAS JSON files (through dkpro-cassis).

A path is a CAS file (``.xmi``, ``.xmi.gz``, or CAS JSON) or a directory, which stands for every
``.xmi``/``.xmi.gz`` under it. Each file is read with its type system: ``--cas-typesystem``
(one or more files, comma-separated, merged), else the ``TypeSystem.xml`` beside it as
INCEpTION exports it. Types the XMI uses that the type system lacks are refused by name, or
skipped with ``--lenient`` (as dkpro-cassis' lenient loading skips them).

Tokens and sentences are the CAS's DKPro Core ``Token`` and ``Sentence`` annotations (tokens
outside every sentence make sentences of their own); a CAS without tokens (CorefAnnotator's)
is tokenized by :func:`corefkit.converters.offsets.tokenize`, cut at the mentions' boundaries.
The document's id is its ``DocumentMetaData`` title (else its id, else the file name).
Coreference: :mod:`.layers` and the schemes of :mod:`corefkit.converters.tool_layers`.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterator
from typing import Any

from corefkit.converters.offsets import CHARS, TEXT, build_document, tokenize
from corefkit.converters.tool_layers.build import Builder
from corefkit.converters.tool_layers.records import CorefLayers
from corefkit.converters.tool_layers.schemes import SchemeError, choose
from corefkit.converters.uima_cas.layers import (
    METADATA,
    SENTENCE,
    TOKEN,
    CasLayers,
    declared_layers,
)
from corefkit.errors import CorefkitError, FormatError, Repair
from corefkit.interop import cassis as bridge
from corefkit.model import Document

PREFIX = "cas."
SUFFIXES = (".xmi", ".xmi.gz", ".json")


def find_files(directory: str) -> list[str]:
    found: list[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            full = os.path.join(root, name)
            if not name.startswith(".") and name.lower().endswith((".xmi", ".xmi.gz")) \
                    and not os.path.islink(full):
                found.append(full)
    return found


def read_path(path: str, file: str | None = None, *, cas_typesystem: str | None = None,
              lenient: bool = False, **options: Any) -> Iterator[Document]:
    files = find_files(path) if os.path.isdir(path) else [path]
    if not files:
        raise FormatError("the directory holds no .xmi file", file=path, check="cas.no-files")
    for one in files:
        display = file if file is not None and len(files) == 1 else one
        yield _Reader(one, display, cas_typesystem, lenient, options).read()


class _Reader:
    def __init__(self, path: str, display: str, typesystem: str | None, lenient: bool,
                 options: dict[str, Any]) -> None:
        self.path, self.display = path, display
        self.typesystem = typesystem
        self.lenient = lenient
        self.options = {k: v for k, v in options.items() if v not in (None, "")}
        self.repairs: list[Repair] = []
        name = os.path.basename(path)
        for suffix in SUFFIXES:
            if name.lower().endswith(suffix):
                name = name[:-len(suffix)]
                break
        self.stem = name or "document"

    def error(self, check: str, message: str) -> FormatError:
        return FormatError(message, file=self.display, check=check)

    def report(self, check: str, line: int | None, message: str, action: str = "kept") -> None:
        """A repair; the shared builder names its checks without the format's prefix."""
        check = check if "." in check else PREFIX + check
        self.repairs.append(Repair(check, message, file=self.display, line=line,
                                   document=self.stem, action=action))

    def type_system_files(self) -> list[str]:
        if self.typesystem:
            return [p.strip() for p in self.typesystem.split(",") if p.strip()]
        beside = bridge.typesystem_beside(self.path)
        if beside is None:
            raise self.error("cas.no-typesystem", "no type system: INCEpTION and WebAnno export "
                             "TypeSystem.xml beside the XMI, and there is none here; pass "
                             "--cas-typesystem FILE[,FILE...] (cassis' bundled DKPro Core type "
                             "system is not a substitute: it lacks DocumentMetaData, which every "
                             "WebAnno and INCEpTION XMI carries)")
        return [beside]

    def load(self) -> Any:
        data = bridge.read_bytes(self.path)
        ts = bridge.load_typesystems(self.type_system_files())
        is_json = data.lstrip()[:1] == b"{"
        if not is_json:
            missing = bridge.undefined_types(data, ts)
            if missing:
                shown = ", ".join(missing[:8]) + (" ..." if len(missing) > 8 else "")
                if not self.lenient:
                    raise self.error("cas.undefined-types",
                                     f"the XMI uses {len(missing)} types its "
                                     f"type system does not define: {shown}; pass a type system "
                                     "that defines them (--cas-typesystem), or --lenient to "
                                     "skip their annotations")
                self.report("cas.undefined-types", None,
                            f"skipped the annotations of {len(missing)} "
                            f"types the type system does not define: {shown}", "dropped")
        try:
            cas = bridge.load_cas(data, ts, json=is_json, lenient=self.lenient)
        except CorefkitError:
            raise
        except Exception as exc:  # cassis raises plain exceptions on malformed files
            error = self.error("cas.unreadable", f"dkpro-cassis cannot read the file: "
                               f"{bridge._short(exc)}")
            line, column = bridge.xml_error_place(exc)
            if line:
                error = FormatError(error.message, file=self.display, line=line,
                                    column=column, check="cas.unreadable")
            raise error from None
        return cas, ts

    def read(self) -> Document:
        cas, ts = self.load()
        # the layers that hold annotations in this CAS (a type system declares many more)
        used = {fs.type.name for fs in cas.select_all_fs()}
        try:
            scheme = choose([layer for layer in declared_layers(ts) if layer.name in used],
                            self.options)
        except SchemeError as exc:
            raise self.error("cas.scheme", str(exc)) from None
        layers = CasLayers(cas, ts).read(scheme) if scheme is not None else CorefLayers()
        doc = self.document(cas, ts, layers)
        if scheme is None:
            self.report("cas.no-coreference-layer", None, "the type system declares no chain layer "
                        "and no relation layer over a span layer: the document has no "
                        "coreference")
        else:
            Builder(doc, scheme, self.report).build(layers)
        doc.repairs = self.repairs
        return doc

    def document(self, cas: Any, ts: Any, layers: CorefLayers) -> Document:
        text = cas.sofa_string or ""
        doc_id = self.stem
        if ts.contains_type(METADATA):
            for meta in cas.select(METADATA):
                doc_id = meta.get("documentTitle") or meta.get("documentId") or doc_id
                break
        tokens = sorted(((t.begin, t.end) for t in cas.select(TOKEN)) if ts.contains_type(TOKEN)
                        else [])
        if tokens:
            sentences = sorted((s.begin, s.end) for s in cas.select(SENTENCE)) \
                if ts.contains_type(SENTENCE) else []
            grouped = _group(tokens, sentences)
        else:
            cuts = {o for s in _all_spans(layers) for o in s}
            grouped = tokenize(text, cuts)
            self.report("cas.no-tokens", None,
                        "the CAS has no Token annotations; tokenized its text "
                        "at whitespace and at the mentions' boundaries")
        doc = build_document(str(doc_id), text, grouped, file=self.display)
        doc.line = 1
        doc.attrs[TEXT] = text
        for sentence, spans in zip(doc.sentences, grouped):
            sentence.attrs[CHARS] = (spans[0][0], spans[-1][1])
        return doc


def _group(tokens: list[tuple[int, int]],
           sentences: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Tokens by the sentence that covers them; tokens outside every sentence make runs of
    their own."""
    starts = [a for a, _ in sentences]
    grouped: list[list[tuple[int, int]]] = []
    last_key: object = None
    for begin, end in tokens:
        at = bisect.bisect_right(starts, begin) - 1
        key: object = at if at >= 0 and end <= sentences[at][1] else None
        if not grouped or key != last_key or key is None and last_key is not None:
            grouped.append([])
        grouped[-1].append((begin, end))
        last_key = key
    return grouped


def _all_spans(layers: CorefLayers) -> list[tuple[int, int]]:
    found = [(s.begin, s.end) for s in layers.spans]
    for chain in layers.chains:
        for link in chain.links:
            found.append((link.begin, link.end))
            found.extend(link.parts)
    return found
