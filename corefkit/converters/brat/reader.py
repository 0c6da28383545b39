"""brat standoff: the reader of ``.ann`` + ``.txt`` pairs (LitBank's coreference encoding).

A document is ``X.ann`` with ``X.txt`` beside it (document id ``X``); a directory stands for
every ``.ann`` under it. The ``.txt`` is read as UTF-8 exactly as stored: offsets are code
points, end exclusive (brat.nlplab.org/standoff.html).

**Coreference** (LitBank, ``litbank-brat/README.md``): every mention is annotated twice on the
same offsets — a *type layer* T line (``PRON_PER``: mention type ``PROP``/``NOM``/``PRON`` and
ACE category) and an *entity-label* T line whose type is the chain label (``the_victim-1``: a
name, ``-``, a number). A T line is an entity label when its type ends in ``-<digits>``;
every other T line is a type-layer annotation. All mentions carrying the same label form one
chain; the key is the whole label string (different chains share numbers). A span with a type
but no label (the predicate of a copula or an apposition) is a singleton entity, as in
LitBank's CoNLL release. brat's equivalence lines (``*<TAB>Coref T1 T2``) also join chains.

Each distinct span (its fragments) is one mention; a LitBank type ``X_Y`` becomes the mention
attributes ``mention_type`` = X and ``entity_type`` = Y, any other type ``brat_type``;
attributes (``A``/``M``), normalisations (``norm``) and notes (``note``) of its T lines are
mention attributes too. Relations (``cop``, ``appos``, ...) are kept in
``doc.attrs["brat_relations"]`` as ``{"id", "type", "args": [[role, mention id], ...]}``, their
arguments resolved by offsets (LitBank sometimes names the label line's id). Entities keep
their label as ``original_id``; an unlabelled one is marked ``_brat_unlabelled``.

**Tokens**: from the text by the rule of :mod:`corefkit.converters.offsets` (lines are
sentences, whitespace-separated runs cut at mention boundaries), or from a companion file's
words (``brat_tokens``, :mod:`corefkit.converters.brat.tokens`), so that LitBank's brat files
read with exactly the tokens of its CoNLL files; a span that then starts or ends inside a
token is widened to whole tokens (``brat.snapped-span``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from corefkit.converters.brat.annotations import (
    AnnFile,
    Fragments,
    TextBound,
    parse_ann,
)
from corefkit.converters.brat.tokens import companion_words
from corefkit.converters.io import iter_lines, open_binary
from corefkit.converters.paths import InputError, open_input
from corefkit.converters.offsets import (
    CharIndex,
    Misaligned,
    align,
    build_document,
    place,
    tokenize,
)
from corefkit.errors import FormatError, Repair, counted
from corefkit.model import Document, Entity, Mention

LABEL_RE = re.compile(r"^\S+-\d+$")
LITBANK_TYPE_RE = re.compile(r"^(PROP|NOM|PRON)_([A-Z]+)$")
RELATIONS = "brat_relations"     # doc.attrs: the relations, with mention ids
UNLABELLED = "_brat_unlabelled"  # entity.attrs: a span without a label (a singleton)
WHITESPACE_RE = re.compile(r"\s+")


def find_annotations(directory: str) -> list[str]:
    """Every ``.ann`` file under ``directory`` (recursively, hidden entries skipped)."""
    found: list[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in sorted(files)
                     if f.lower().endswith(".ann") and not f.startswith("."))
    return found


def read_path(path: str, file: str | None = None, *,
              brat_tokens: str | None = None) -> Iterator[Document]:
    """The document of an ``.ann`` file and its ``.txt``, or of every pair under a directory.

    ``brat_tokens``: a file or folder whose documents of the same names give the tokens.
    """
    annotations = find_annotations(path) if os.path.isdir(path) else [path]
    if not annotations:
        raise FormatError("the directory holds no .ann file", file=path,
                          check="brat.no-annotations")
    for ann in annotations:
        display = file if file is not None and len(annotations) == 1 else ann
        yield _DocumentReader(ann, display, brat_tokens).read()


def read_text(path: str) -> str:
    """A ``.txt`` file as stored (UTF-8, no newline translation)."""
    try:
        with open_input(path) as handle:
            data = handle.read()
    except InputError as exc:
        raise FormatError(f"cannot read the text file: {exc}", file=path,
                          check="brat.missing-text") from None
    except OSError as exc:
        raise FormatError(f"cannot read the text file ({exc.strerror})", file=path,
                          check="brat.missing-text") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FormatError(f"invalid UTF-8 (byte offset {exc.start}); convert the file to UTF-8",
                          file=path, line=line, check="text.invalid-utf8") from None


def _span_text(text: str, fragments: Fragments) -> str:
    return " ".join(WHITESPACE_RE.sub(" ", text[a:b]) for a, b in fragments)


class _DocumentReader:
    """Reads one ``.ann``/``.txt`` pair into a :class:`Document`."""

    def __init__(self, ann: str, display: str, companion: str | None) -> None:
        self.ann = ann
        self.display = display
        self.companion = companion
        self.doc_id = os.path.splitext(os.path.basename(ann))[0]
        self.txt = os.path.splitext(ann)[0] + ".txt"
        self.repairs: list[Repair] = []

    def repair(self, check: str, line: int | None, message: str, action: str = "kept") -> None:
        self.repairs.append(Repair(check, message, file=self.display, line=line,
                                   document=self.doc_id, action=action))

    def read(self) -> Document:
        if not os.path.isfile(self.txt):
            raise FormatError(f"no text file {os.path.basename(self.txt)} beside the annotation "
                              "file; brat keeps a document's text in X.txt beside X.ann",
                              file=self.display, check="brat.missing-text")
        text = read_text(self.txt)
        with open_binary(self.ann) as handle:
            parsed = parse_ann(iter_lines(handle, self.display), self.display, self.doc_id)
        self.repairs.extend(parsed.repairs)
        spans = self.spans(parsed, text)
        doc = self.tokens(text, spans)
        doc.file, doc.line = self.display, 1
        built = _Builder(self, doc, parsed, spans)
        built.mentions()
        built.equivalences()
        built.relations()
        built.attributes()
        doc.repairs = self.repairs
        return doc

    def spans(self, parsed: AnnFile, text: str) -> dict[Fragments, list[TextBound]]:
        """The T lines by span, in document order; lines off the text are refused."""
        found: dict[Fragments, list[TextBound]] = {}
        kept: list[TextBound] = []
        for record in parsed.textbounds:
            end = max(b for _, b in record.fragments)
            if end > len(text):
                self.repair("brat.offset-outside-text", record.line,
                            f"{record.id} ends at offset {end} but the text has {len(text)} "
                            "characters; offsets count Unicode code points, not bytes",
                            action="dropped")
                continue
            if WHITESPACE_RE.sub(" ", record.text) != _span_text(text, record.fragments):
                a, b = record.fragments[0]
                self.repair("brat.text-mismatch", record.line,
                            f"{record.id} quotes {record.text[:40]!r} but offsets {a}-{b} hold "
                            f"{text[a:b][:40]!r}; offsets count Unicode code points, not bytes",
                            action="kept")
            kept.append(record)
        kept.sort(key=lambda r: (r.fragments[0][0], -r.fragments[-1][1]))
        for record in kept:
            found.setdefault(record.fragments, []).append(record)
        return found

    def tokens(self, text: str, spans: dict[Fragments, list[TextBound]]) -> Document:
        if self.companion is None:
            cuts = {offset for fragments in spans for pair in fragments for offset in pair}
            return build_document(self.doc_id, text, tokenize(text, cuts))
        words = companion_words(self.companion, self.doc_id, self.display)
        try:
            sentences = align(text, words)
        except Misaligned as exc:
            line, column = place(text, exc.position)
            what = (f"the companion's word {exc.word!r} is not the next word of the text"
                    if exc.word is not None else "the text goes on after the companion's last word")
            raise FormatError(f"{what} (at {text[exc.position:exc.position + 20]!r}); the "
                              f"companion does not hold the words of {os.path.basename(self.txt)}",
                              file=self.txt, line=line, column=column,
                              check="brat.companion-mismatch") from None
        return build_document(self.doc_id, text, sentences, words)


class _Builder:
    """Mentions, chains, relations and attributes of one document."""

    def __init__(self, reader: _DocumentReader, doc: Document, parsed: AnnFile,
                 spans: dict[Fragments, list[TextBound]]) -> None:
        self.reader = reader
        self.doc = doc
        self.parsed = parsed
        self.spans = spans
        self.labels: dict[str, Entity] = {}
        self.by_id: dict[str, list[Mention]] = {}  # T id -> the mentions of its line

    def mentions(self) -> None:
        index = CharIndex([t.attrs["_chars"] for t in self.doc.tokens])
        for fragments, records in self.spans.items():
            tokens: list[int] = []
            snapped = False
            for a, b in fragments:
                covered, exact = index.tokens(a, b)
                tokens.extend(covered)
                snapped = snapped or (bool(covered) and not exact)
            first = records[0]
            if not tokens:
                self.reader.repair("brat.empty-span", first.line,
                                   f"{first.id} covers no visible character of the text; "
                                   "left out", action="dropped")
                continue
            if snapped:
                self.reader.repair("brat.snapped-span", first.line,
                                   f"{first.id} starts or ends inside a token; widened to whole "
                                   f"tokens ({self.doc.text(_tokens_only(tokens))!r})")
            self.span_mentions(tokens, records)

    def span_mentions(self, tokens: list[int], records: list[TextBound]) -> None:
        """One mention per chain label of a span (one in all when it has none)."""
        types = [r for r in records if not LABEL_RE.match(r.type)]
        labels: dict[str, TextBound] = {}
        for record in records:
            if LABEL_RE.match(record.type):
                if record.type in labels:
                    self.reader.repair("brat.duplicate-label", record.line,
                                       f"{record.id} repeats label {record.type!r} on the span of "
                                       f"{labels[record.type].id}; kept one", action="dropped")
                else:
                    labels[record.type] = record
        if len({r.type for r in types}) > 1 or len(types) > len({r.type for r in types}):
            shown = ", ".join(f"{r.id} {r.type}" for r in types)
            self.reader.repair("brat.duplicate-type", types[1].line,
                               f"the span has {len(types)} type annotations ({shown}); kept "
                               f"{types[0].type!r}", action="dropped")
        if len(labels) > 1:
            shown = ", ".join(repr(label) for label in labels)
            self.reader.repair("brat.same-span-labels", records[0].line,
                               f"the same span carries the labels {shown}: a mention of "
                               f"{counted(len(labels), 'chain')}; kept one mention in each")
        attrs = type_attributes(types[0].type) if types else {}
        line = (types or records)[0].line
        chains = list(labels.items()) or [("", records[0])]
        made = [self.doc.add_mention(tokens, self.entity(label), attrs=dict(attrs), line=line)
                for label, _ in chains]
        for (_, record), mention in zip(chains, made):
            self.by_id[record.id] = [mention]
        for record in types:
            self.by_id[record.id] = made

    def entity(self, label: str) -> Entity:
        if not label:
            return self.doc.new_entity(attrs={UNLABELLED: True})
        entity = self.labels.get(label)
        if entity is None:
            entity = self.labels[label] = self.doc.new_entity(attrs={"original_id": label})
        return entity

    def resolve(self, ident: str, line: int, what: str) -> list[Mention]:
        """The mentions a T id stands for (a type line: all of its span's)."""
        mentions = self.by_id.get(ident)
        if mentions is None:
            self.reader.repair("brat.dangling-reference", line,
                               f"{what} names {ident!r}, which is no text-bound annotation of "
                               "this file; left out", action="dropped")
            return []
        return mentions

    def equivalences(self) -> None:
        for record in self.parsed.equivalences:
            mentions = [found[0] for found in (
                self.resolve(i, record.line, f"equivalence {record.type!r}") for i in record.ids)
                if found]
            entities = [e for e in (self.doc.entity_of(m) for m in mentions) if e is not None]
            for other in entities[1:]:
                keep = self.doc.entity_of(mentions[0])
                assert keep is not None
                if other is not keep:
                    self.doc.merge_entities(keep, other)
                    keep.attrs.pop(UNLABELLED, None)

    def relations(self) -> None:
        records: list[dict[str, Any]] = []
        seen: dict[tuple[Any, ...], str] = {}
        for relation in self.parsed.relations:
            resolved = [(role, self.resolve(ident, relation.line, f"relation {relation.id}"))
                        for role, ident in relation.args]
            if not all(found for _, found in resolved):
                continue
            args = [(role, found[0]) for role, found in resolved]
            key = (relation.type, *((role, m.id) for role, m in args))
            if key in seen:
                self.reader.repair("brat.duplicate-relation", relation.line,
                                   f"{relation.id} repeats relation {seen[key]} "
                                   f"({relation.type}); kept one", action="dropped")
                continue
            seen[key] = relation.id
            records.append({"id": relation.id, "type": relation.type,
                            "args": [[role, m.id] for role, m in args]})
        if records:
            self.doc.attrs[RELATIONS] = records

    def attributes(self) -> None:
        for record in self.parsed.attributes:
            for mention in self.resolve(record.target, record.line,
                                        f"{record.id} ({record.name})"):
                known = mention.attrs.get(record.name)
                mention.attrs[record.name] = (record.value if known is None
                                              else f"{known},{record.value}")


def type_attributes(brat_type: str) -> dict[str, str]:
    found = LITBANK_TYPE_RE.match(brat_type)
    if found is not None:
        return {"mention_type": found.group(1), "entity_type": found.group(2)}
    return {"brat_type": brat_type}


def _tokens_only(tokens: list[int]) -> Mention:
    return Mention(-1, tuple(sorted(set(tokens))))
