"""WebAnno TSV 3.x: the reader (one document per file).

Specification: INCEpTION's user guide, "WebAnno TSV 3.3 File format"
(``inception-io-webanno-tsv/src/main/resources/META-INF/asciidoc/user-guide/webannotsv.adoc``
in github.com/inception-project/inception); see :mod:`.spec`. The header is read by
:mod:`.header`, the rows and the text by :mod:`.body`, the annotations of every layer by
:mod:`.layers`; which layer holds coreference is the scheme's business
(:mod:`corefkit.converters.tool_layers.schemes`), and
:mod:`corefkit.converters.tool_layers.build` makes the mentions and entities.

The document's id is the file name without its extension. Tokens keep their characters
(``token.attrs[CHARS]``, code points of ``doc.attrs[TEXT]``, the text INCEpTION rebuilds from
the ``#Text`` lines) and the raw cells of their row, sub-token rows included, so that the
writer gives back the layers corefkit does not interpret; those layers are also listed in
``doc.attrs["opaque_levels"]`` (by layer: id, tokens, features), which other formats report
as lost.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, BinaryIO

from corefkit.converters.io import iter_lines
from corefkit.converters.offsets import CHARS, TEXT
from corefkit.converters.tool_layers.build import Builder
from corefkit.converters.tool_layers.records import Chain, CorefLayers, Relation, Span
from corefkit.converters.tool_layers.schemes import CHAIN_SHAPE, Scheme, SchemeError, choose
from corefkit.converters.webanno_tsv.body import Body, BodyError, BodyReader, Unit, to_code_points
from corefkit.converters.webanno_tsv.header import Header, HeaderError, parse_format, parse_line
from corefkit.converters.webanno_tsv.layers import Annotation, LayerAssembler, RelationRecord
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Token

PREFIX = "webanno-tsv."
STATE = "_webanno_tsv"       # doc.attrs: the header and layout, for the writer
CELLS = "_tsv_cells"         # token.attrs: the annotation cells of the token's row
SUBTOKENS = "_tsv_subtokens"  # token.attrs: [(begin, end, cells)] of its sub-token rows


def read_stream(stream: BinaryIO, file: str, **options: Any) -> Iterator[Document]:
    """The document of a WebAnno TSV 3.x file (reader options: see :mod:`.spec`)."""
    yield _Reader(file, options).read(stream)


def document_id(file: str) -> str:
    base = os.path.basename(file)
    stem, ext = os.path.splitext(base)
    return (stem if ext.lower() == ".tsv" else base) or "document"


class _Reader:
    def __init__(self, file: str, options: dict[str, Any]) -> None:
        self.file = file
        self.options = {k: v for k, v in options.items() if v not in (None, "")}
        self.repairs: list[Repair] = []
        self.doc_id = document_id(file) if file != "<stdin>" else "stdin"

    def error(self, check: str, message: str, line: int | None,
              column: int | None = None) -> FormatError:
        return FormatError(message, file=self.file, line=line, column=column, check=check)

    def report(self, check: str, line: int | None, message: str, action: str = "kept") -> None:
        """A repair; the shared builder names its checks without the format's prefix."""
        check = check if "." in check else PREFIX + check
        self.repairs.append(Repair(check, message, file=self.file, line=line,
                                   document=self.doc_id, action=action))

    def read(self, stream: BinaryIO) -> Document:
        lines = iter_lines(stream, self.file)
        header = self.header(lines)
        assembler = LayerAssembler(header)
        try:
            body = BodyReader(header).read(lines)
            for unit in body.units:
                assembler.row(unit)
        except BodyError as exc:
            raise self.error(exc.check, exc.message, exc.line, exc.column) from None
        to_code_points(body)
        if body.extra_rows:
            self.report("webanno-tsv.extra-columns", body.extra_rows[0],
                        f"{len(body.extra_rows)} rows have more fields than the header declares "
                        f"columns (first: line {body.extra_rows[0]}); the extra ones are ignored, "
                        "as INCEpTION ignores them", "dropped")
        doc = self.document(header, body)
        try:
            scheme = choose(header.layers, self.options)
        except SchemeError as exc:
            raise self.error("webanno-tsv.scheme", str(exc), 2) from None
        if scheme is None:
            self.report("webanno-tsv.no-coreference-layer", 2,
                        "the file declares no chain layer and no "
                        "relation layer over a span layer: the document has no coreference")
            layers = CorefLayers()
        else:
            layers = self.coref_layers(scheme, assembler, body)
        if scheme is not None:
            Builder(doc, scheme, self.report).build(layers)
            doc.attrs[STATE]["ids_everywhere"] = bool(layers.spans) and all(
                s.key is not None for s in layers.spans)
        doc.attrs[STATE]["sparse"] = sorted(assembler.sparse)
        doc.attrs[STATE]["unescaped"] = assembler.unescaped
        self.opaque(doc, header, scheme, assembler)
        doc.repairs = self.repairs
        return doc

    # ----------------------------------------------------------------- header
    def header(self, lines: Iterator[tuple[int, str]]) -> Header:
        first = next(lines, None)
        if first is None:
            raise self.error("webanno-tsv.no-header",
                             "the file is empty; a WebAnno TSV file starts with "
                             "'#FORMAT=WebAnno TSV 3.x'", 1)
        try:
            header = parse_format(first[1], first[0])
            blanks = 0
            for number, line in lines:
                if not line:
                    blanks += 1
                    if blanks == 2:
                        break
                    continue
                if blanks or not line.startswith("#") or line.startswith("#Text="):
                    raise HeaderError("the header ends with two blank lines before the first "
                                      "sentence", number)
                parse_line(header, line, number)
        except HeaderError as exc:
            raise self.error("webanno-tsv.bad-header", exc.message, exc.line) from None
        for layer in header.layers:
            if layer.kind == "relation" and not any(o.name == layer.base for o in header.layers):
                self.report("webanno-tsv.unknown-base-layer", 2,
                            f"the relation layer {layer.name} connects "
                            f"{layer.base}, which the header does not declare")
        return header

    # ----------------------------------------------------------------- text layer
    def document(self, header: Header, body: Body) -> Document:
        doc = Document(self.doc_id, file=self.file)
        doc.line = 1
        text = body.text
        for block in body.sentences:
            tokens: list[Token] = []
            for unit in block.tokens:
                form = text[unit.begin:unit.end]
                if form != unit.form:
                    self.report("webanno-tsv.token-text-mismatch", unit.line,
                                f"the token {unit.address} is {unit.form!r} but its offsets hold "
                                f"{form!r} in the #Text lines; took the text's", "replaced")
                tokens.append(Token(form, -1, -1, {CHARS: (unit.begin, unit.end),
                                                   CELLS: tuple(unit.cells)}))
            for unit in block.subtokens:
                parent = tokens[unit.token - block.tokens[0].token]
                parent.attrs.setdefault(SUBTOKENS, []).append(
                    (unit.begin, unit.end, tuple(unit.cells)))
            sentence = doc.add_sentence(tokens, sent_id=block.sent_id)
            sentence.attrs[CHARS] = (block.begin, block.end)
            sentence.attrs["line"] = block.line
        doc.attrs[TEXT] = text
        doc.attrs[STATE] = {"header": header, "trailing_tab": body.trailing_tab}
        for key, value in header.meta:
            if value is not None:
                doc.meta[key] = value
        return doc

    # ----------------------------------------------------------------- coreference
    def coref_layers(self, scheme: Scheme, assembler: LayerAssembler, body: Body) -> CorefLayers:
        if scheme.shape == CHAIN_SHAPE:
            assert scheme.chain_layer is not None
            chains: dict[int, list[tuple[int, Annotation]]] = {}
            for (chain, link), annotation in assembler.links.get(scheme.chain_layer, {}).items():
                chains.setdefault(chain, []).append((link, annotation))
            found = CorefLayers()
            for number in sorted(chains, key=lambda n: min(a.line for _, a in chains[n])):
                links = [self.span(a) for _, a in sorted(chains[number], key=lambda x: x[0])]
                found.chains.append(Chain(links, str(number), links[0].line))
            return found
        assert scheme.span_layer is not None and scheme.relation_layer is not None
        spans = {id(a): self.span(a) for a in assembler.spans.get(scheme.span_layer, [])}
        found = CorefLayers(spans=list(spans.values()))
        addresses = {unit.address: unit for unit in body.units}
        for record in assembler.relations.get(scheme.relation_layer, []):
            target = self.endpoint(assembler, scheme.span_layer, record.target_unit,
                                   record.target_id, record, "target")
            unit = addresses.get(record.source)
            if unit is None:
                self.report("webanno-tsv.dangling-relation", record.line,
                            f"the relation's source {record.source} is no row of the file; left "
                            "out", "dropped")
                continue
            source = self.endpoint(assembler, scheme.span_layer, unit, record.source_id, record,
                                   "source")
            if source is None or target is None:
                continue
            found.relations.append(Relation(spans[id(source)], spans[id(target)],
                                            record.features, record.line))
        return found

    def endpoint(self, assembler: LayerAssembler, layer: str, unit: Unit, key: str | None,
                 record: RelationRecord, what: str) -> Annotation | None:
        if key is not None:
            found = assembler.by_id.get((layer, key))
            if found is None or id(unit) not in found.unit_ids:
                self.report("webanno-tsv.dangling-relation", record.line,
                            f"the relation's {what} {unit.address}[{key}] is no {layer} "
                            "annotation of that row; left out", "dropped")
                return None
            return found
        here = assembler.on_unit.get((layer, id(unit)), [])
        if len(here) == 1:
            return here[0]
        self.report("webanno-tsv.dangling-relation", record.line,
                    f"the relation's {what} {unit.address} has {len(here) or 'no'} {layer} "
                    "annotations and the relation names none by id; left out", "dropped")
        return None

    def span(self, annotation: Annotation) -> Span:
        units = annotation.units
        tokens = [u.token for u in units]
        if any(b - a > 1 for a, b in zip(tokens, tokens[1:])):
            self.report("webanno-tsv.span-gap", annotation.line,
                        f"the annotation {annotation.key} of {annotation.layer} skips rows between "
                        f"{units[0].address} and {units[-1].address}; read as covering them, as "
                        "INCEpTION does")
        return Span(units[0].begin, units[-1].end, dict(annotation.features), annotation.key,
                    annotation.line)

    # ----------------------------------------------------------------- other layers
    def opaque(self, doc: Document, header: Header, scheme: Scheme | None,
               assembler: LayerAssembler) -> None:
        used = set() if scheme is None else {scheme.chain_layer, scheme.span_layer,
                                             scheme.relation_layer}
        levels: dict[str, list[tuple[str, tuple[int, ...], dict[str, str]]]] = {}
        for layer in header.layers:
            if layer.name in used:
                continue
            kept: list[tuple[str, tuple[int, ...], dict[str, str]]] = []
            for n, annotation in enumerate(assembler.spans.get(layer.name, []), 1):
                kept.append((annotation.key or str(n), _tokens(annotation.units),
                             dict(annotation.features)))
            for (chain, link), annotation in assembler.links.get(layer.name, {}).items():
                kept.append((f"{chain}-{link}", _tokens(annotation.units),
                             dict(annotation.features)))
            for n, record in enumerate(assembler.relations.get(layer.name, []), 1):
                kept.append((str(n), (record.target_unit.token,),
                             {**record.features, "source": record.source}))
            if kept:
                levels[layer.name] = kept
        if levels:
            doc.attrs["opaque_levels"] = levels


def _tokens(units: list[Unit]) -> tuple[int, ...]:
    first, last = units[0].token, units[-1].token
    return tuple(range(min(first, last), max(first, last) + 1))
