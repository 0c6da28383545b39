"""brat standoff: the writer of a folder of ``.ann`` + ``.txt`` pairs with an ``annotation.conf``.

Every document becomes ``<id>.txt`` and ``<id>.ann`` (the id made a file name: characters
other than letters, digits, ``.``, ``_`` and ``-`` become ``_``, a part other than 0 is
appended, a repeated name gets ``-2``, ``-3`` ...; each change is reported), written in
LitBank's encoding so that brat and INCEpTION show mentions and chains:

* the text is the document's own (read from brat or GAP, when its tokens still fit it), else
  one sentence per line with the words joined by single spaces (LitBank's ``.txt`` layout);
* every mention has a *type-layer* T line — ``brat_type``, else ``<mention_type>_<entity_type>``
  (LitBank's ``PRON_PER``), else whichever of the two it has, else ``Mention`` — followed by an
  *entity-label* T line on the same offsets whose type is its chain's label: the label it was
  read with (``original_id`` of the form ``name-<number>``), else ``<first mention's
  words>-<n>``. A singleton read without a label (a LitBank copula or apposition predicate)
  is written without one again, and so is a mention without an entity (read back as a
  singleton); discontinuous mentions are written as fragments (``0 5;9 12``);
* relations read from brat (``cop``, ``appos``) are written as R lines between type-layer ids.

T ids are numbered in document order (type line, then label line, for each mention), R ids in
their original order; the same document always gives the same bytes. The folder's
``annotation.conf`` declares every type, label and relation written (with ``<OVERLAP>`` so
that brat accepts the two annotations on each span). A folder is replaced only when it is
empty or holds only an earlier output of this writer.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from typing import Any

from corefkit.converters.brat.reader import LABEL_RE, RELATIONS, UNLABELLED, type_attributes
from corefkit.converters.loss import ConversionReport, LossRecord, record, user_attributes
from corefkit.converters.offsets import Span, generated_layout, kept_layout, runs, tokenize
from corefkit.errors import Repair
from corefkit.model import IDENTITY, Document, Entity, Mention

CONF = "annotation.conf"
CONF_MARK = "# written by corefkit"
TYPE_ATTRIBUTES = frozenset({"brat_type", "mention_type", "entity_type"})
NAME_RE = re.compile(r"[^A-Za-z0-9._-]")
LABEL_CHAR_RE = re.compile(r"[^\w-]")
SPACE_RE = re.compile(r"\s")
DEFAULT_TYPE = "Mention"
LABEL_WORDS = 40  # characters of the first mention kept in a generated label


def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {
        "zeros": "dropped (empty nodes have no characters in the text)",
        "unlinked_mentions": "approximated (written without a chain label: read back as "
                             "singletons)",
    }


def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """What brat output holds only in part: of a mention's attributes the type layer (the
    reader takes ``PRON_PER`` back as mention and entity type, any other type as
    ``brat_type``), and the document's name as a file name."""
    dropped: list[Mention] = []
    changed: list[Mention] = []
    for mention in written_mentions(doc):
        own = {k: str(mention.attrs[k]) for k in user_attributes(mention.attrs)
               if mention.attrs[k] is not None and mention.attrs[k] != ""}
        if not own:
            continue
        back = type_attributes(_type_of(mention))
        kept = [k for k, v in own.items() if back.get(k) == v]
        if not kept:
            dropped.append(mention)
        elif len(kept) < len(own):
            changed.append(mention)
    found = record(doc, "mention_attributes", dropped,
                   "dropped (brat output writes the mention and entity type only)")
    found += record(doc, "mention_attributes", changed,
                    "changed (brat output writes the mention and entity type only)")
    stem = file_stem(doc)
    if stem != doc.id:
        found += record(doc, "names", [f"{doc.name!r} as {stem!r}"],
                        "changed (brat names a document by its file name)")
    return found


def written_mentions(doc: Document) -> list[Mention]:
    """The mentions brat output writes: identity mentions over words, not non-referring."""
    tokens = doc.tokens
    found = []
    for mention in doc.sorted_mentions():
        entity = doc.entity_of(mention)
        if mention.layer != IDENTITY or mention.nonref is not None or (
                entity is not None and entity.pseudo):
            continue
        if any(not tokens[t].is_empty for t in mention.tokens):
            found.append(mention)
    return found


def file_stem(doc: Document) -> str:
    """The file name (without extension) a document is written to, before repeated names
    get ``-2``, ``-3``..."""
    _, part = doc.pair_key()
    wanted = doc.id if part == "0" else f"{doc.id}-{part}"
    return NAME_RE.sub("_", wanted).lstrip(".") or "document"


def replaceable_output(directory: str) -> bool:
    """True if ``directory`` holds only a brat folder that corefkit wrote (safe to replace)."""
    try:
        names = os.listdir(directory)
        with open(os.path.join(directory, CONF), encoding="utf-8") as handle:
            marked = handle.readline().startswith(CONF_MARK)
    except OSError:
        return False
    return marked and all(n == CONF or n.endswith((".ann", ".txt")) for n in names)


def write_path(documents: Iterable[Document], directory: str, report: ConversionReport,
               **options: Any) -> None:
    """Write documents as ``.ann`` + ``.txt`` pairs and one ``annotation.conf``."""
    collection = _Collection(directory, report)
    for doc in documents:
        collection.document(doc)
    collection.finish()


class _Collection:
    """The folder being written: file names used, and every type the conf must declare."""

    def __init__(self, directory: str, report: ConversionReport) -> None:
        self.directory = directory
        self.report = report
        self.stems: set[str] = set()
        self.types: set[str] = set()
        self.labels: set[str] = set()
        self.relations: dict[str, tuple[str, ...]] = {}

    def repair(self, doc: Document, check: str, message: str, action: str) -> None:
        self.report.repairs.append(Repair(check, message, document=doc.name, action=action))

    def stem(self, doc: Document) -> str:
        stem = file_stem(doc)
        base, n = stem, 1
        while stem.lower() in self.stems:
            n += 1
            stem = f"{base}-{n}"
        self.stems.add(stem.lower())
        if stem != base:  # a name made a file name is in the loss report already
            self.report.losses += record(
                doc, "names", [f"{doc.name!r} as {stem!r}"],
                "changed (another document of the folder has its file name)")
        return stem

    def document(self, doc: Document) -> None:
        layout = kept_layout(doc)
        if layout is None or not reads_back(doc, *layout):
            # the reader splits a line at white space: words joined by spaces, one sentence a
            # line (the registry refuses forms with white space)
            text, offsets = generated_layout(doc)
        else:
            text, offsets = layout
        lines = _DocumentLines(doc, text, offsets).lines(self)
        stem = self.stem(doc)
        _write(os.path.join(self.directory, stem + ".txt"), text)
        _write(os.path.join(self.directory, stem + ".ann"), "".join(f"{x}\n" for x in lines))

    def finish(self) -> None:
        lines = [f"{CONF_MARK}: the types, chain labels and relations of the documents here",
                 "[entities]", *sorted(self.types), *sorted(self.labels - self.types),
                 "[relations]"]
        for name, roles in sorted(self.relations.items()):
            lines.append(f"{name}\t" + ", ".join(f"{role}:<ENTITY>" for role in roles))
        lines += ["<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>",
                  "[events]", "[attributes]"]
        _write(os.path.join(self.directory, CONF), "\n".join(lines) + "\n")


class _DocumentLines:
    """The annotation lines of one document."""

    def __init__(self, doc: Document, text: str, offsets: dict[int, Span]) -> None:
        self.doc = doc
        self.text = text
        self.offsets = offsets
        self.written = sorted(offsets)
        self.positions = {index: n for n, index in enumerate(self.written)}

    def fragments(self, mention: Mention) -> list[Span]:
        """The character fragments of a mention's visible tokens (runs of written words)."""
        order = sorted(self.positions[t] for t in mention.tokens if t in self.positions)
        written, offsets = self.written, self.offsets
        return [(offsets[written[a]][0], offsets[written[b]][1]) for a, b in runs(order)]

    def lines(self, collection: _Collection) -> list[str]:
        doc = self.doc
        written: list[tuple[Mention, list[Span], Entity | None]] = []
        for mention in doc.sorted_mentions():
            entity = doc.entity_of(mention)
            if mention.layer != IDENTITY or mention.nonref is not None or (
                    entity is not None and entity.pseudo):
                continue
            fragments = self.fragments(mention)
            if fragments:
                written.append((mention, fragments, entity))
        labels = self.labels([e for _, _, e in written if e is not None])
        lines: list[str] = []
        type_ids: dict[int, str] = {}
        for mention, fragments, entity in written:
            offsets = ";".join(f"{a} {b}" for a, b in fragments)
            quoted = " ".join(SPACE_RE.sub(" ", self.text[a:b]) for a, b in fragments)
            brat_type = _type_of(mention)
            collection.types.add(brat_type)
            type_ids[mention.id] = f"T{len(lines) + 1}"
            lines.append(f"T{len(lines) + 1}\t{brat_type} {offsets}\t{quoted}")
            label = labels.get(entity) if entity is not None else None
            if label is not None:
                collection.labels.add(label)
                lines.append(f"T{len(lines) + 1}\t{label} {offsets}\t{quoted}")
        return lines + self.relation_lines(type_ids, collection)

    def labels(self, entities: list[Entity]) -> dict[Entity, str]:
        """The chain label of each entity that gets one (see the module's text)."""
        doc = self.doc
        found: dict[Entity, str] = {}
        used: set[str] = set()
        ordered = list(dict.fromkeys(entities))
        for entity in ordered:
            if entity.attrs.get(UNLABELLED) and doc.size(entity) == 1:
                continue
            original = str(entity.attrs.get("original_id", ""))
            if LABEL_RE.match(original) and original not in used:
                found[entity] = original
                used.add(original)
        number = 0
        for entity in ordered:
            if entity in found or (entity.attrs.get(UNLABELLED) and doc.size(entity) == 1):
                continue
            first = doc.mentions_of(entity)[0]
            words = LABEL_CHAR_RE.sub("_", doc.text(first))[:LABEL_WORDS] or "entity"
            while f"{words}-{number}" in used:
                number += 1
            found[entity] = f"{words}-{number}"
            used.add(found[entity])
            number += 1
        return found

    def relation_lines(self, type_ids: dict[int, str], collection: _Collection) -> list[str]:
        lines: list[str] = []
        seen: set[tuple[Any, ...]] = set()
        for record in self.doc.attrs.get(RELATIONS) or ():
            try:
                name = str(record["type"])
                args = [(str(role), type_ids[mention_id]) for role, mention_id in record["args"]]
            except (KeyError, TypeError, ValueError):
                continue  # a relation whose mention was not written (or is gone)
            key = (name, *args)
            if key in seen or not args:
                continue
            seen.add(key)
            collection.relations.setdefault(name, tuple(role for role, _ in args))
            lines.append(f"R{len(lines) + 1}\t{name} " + " ".join(f"{r}:{t}" for r, t in args))
        return lines


def reads_back(doc: Document, text: str, offsets: dict[int, Span]) -> bool:
    """Whether the brat reader gets the document's words and sentences back from ``text``:
    its tokenisation rule (:func:`corefkit.converters.offsets.tokenize`: a line is a
    sentence, a token a run of non-space characters, cut where a written mention starts or
    ends) gives exactly the words' offsets, sentence by sentence."""
    cuts = {edge for mention in written_mentions(doc)
            for a, b in _DocumentLines(doc, text, offsets).fragments(mention) for edge in (a, b)}
    tokens = doc.tokens
    wanted = []
    for sentence in doc.sentences:
        spans = [offsets[i] for i in sentence.token_indices() if not tokens[i].is_empty]
        if spans:
            wanted.append(spans)
    return tokenize(text, cuts) == wanted


def _type_of(mention: Mention) -> str:
    """The type-layer type of a mention (see the module's text), without whitespace."""
    attrs = mention.attrs
    if attrs.get("brat_type"):
        value = str(attrs["brat_type"])
    elif attrs.get("mention_type") and attrs.get("entity_type"):
        value = f"{attrs['mention_type']}_{attrs['entity_type']}"
    else:
        value = str(attrs.get("mention_type") or attrs.get("entity_type") or DEFAULT_TYPE)
    value = SPACE_RE.sub("_", value)
    return value if not LABEL_RE.match(value) else value + "_"


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
