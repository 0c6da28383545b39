"""Whose annotation of which document: the inputs of ``corefkit agree``, read and paired.

Three shapes of input:

* **one source per annotator** (two or more files, folders or globs, any format, named by
  ``labels`` or by their file names): documents are paired by name (id and part); when every
  source holds exactly one document they are paired whatever their names (CorefAnnotator names
  each file after its annotator);
* **one corpus with annotator layers** (``layers``): the same files read once per layer, with
  the reader option ``layer`` (LCC: ``manualCoreferences@1``, the gold, and ``@2``);
* **an INCEpTION project export** (a folder with ``annotation/<document>/<user>.<ext>``, or
  that ``annotation`` folder itself): one annotator per user file, documents paired by their
  folder; ``curation/<document>/CURATION_USER.<ext>`` joins as the annotator ``curation`` when
  asked for.

A document that fewer than two annotators have is left out, and said so.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.errors import CorefkitError, Repair, UsageError
from corefkit.model import Document

CURATION = "curation"
CURATION_USER = "CURATION_USER"


@dataclass
class Group:
    """One document as each of its annotators annotated it (as read)."""

    name: str
    part: str | None
    labels: list[str]
    documents: list[Document]


@dataclass
class Inputs:
    """Every annotator (in order), the documents paired, and what pairing had to say."""

    labels: list[str]
    sources: dict[str, str]
    groups: list[Group]
    notes: list[Repair] = field(default_factory=list)


def collect(sources: Sequence[Any], *, labels: Sequence[str] = (), layers: Sequence[str] = (),
            format: str | None = None, read_options: dict[str, Any] | None = None,
            lenient: bool = False, passes: Sequence[str] = (),
            curation: bool = False) -> Inputs:
    """Read the annotations (see the module's description) and pair their documents."""
    options = dict(read_options or {})
    if layers:
        if len(sources) != 1:
            raise UsageError("--layers compares the layers of one corpus: give one input, not "
                             f"{len(sources)}")
        if "layer" in options:
            raise UsageError("give the layers to compare with --layers, not --layer")
        if len(layers) < 2:
            raise UsageError("--layers needs two or more layers to compare")
        names = _labels(labels, list(layers))
        read = [(name, _read(sources[0], format, {**options, "layer": layer}, lenient, passes))
                for name, layer in zip(names, layers)]
        described = {name: f"{_describe(sources[0])} layer {layer}"
                     for name, layer in zip(names, layers)}
        return _pair(read, described)
    if len(sources) == 1 and _is_path(sources[0]):
        project = project_folder(os.fspath(sources[0]))
        if project is not None:
            return _project(project, labels, format, options, lenient, passes, curation)
    if len(sources) < 2:
        raise UsageError("give two or more annotations of the same documents (one file or "
                         "folder per annotator), one corpus with --layers, or an INCEpTION "
                         "project export (annotation/<document>/<user>.tsv)")
    names = _labels(labels, [_stem(s) for s in sources] if not labels else [], len(sources))
    read = [(name, _read(s, format, options, lenient, passes))
            for name, s in zip(names, sources)]
    return _pair(read, {name: _describe(s) for name, s in zip(names, sources)})


# ------------------------------------------------------------------------------ reading
def _is_path(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike))


def _describe(source: Any) -> str:
    return os.fspath(source) if _is_path(source) else "<documents>"


def _stem(source: Any) -> str:
    if not _is_path(source):
        raise UsageError("name annotations given as documents with labels")
    name = os.path.basename(os.path.normpath(os.fspath(source)))
    if name.endswith(".gz"):
        name = name[:-3]
    for ending in (".nkas.json", ".CoNLL2012.conll"):
        if name.endswith(ending):
            return name[:-len(ending)]
    stem, dot, _ = name.rpartition(".")
    return stem if dot and stem else name


def _labels(given: Sequence[str], defaults: list[str], count: int | None = None) -> list[str]:
    expected = len(defaults) if count is None else count
    if given and len(given) != expected:
        raise UsageError(f"{len(given)} labels given for {expected} annotations: give one "
                         "--label per annotation, in order")
    names = list(given) if given else defaults
    if len(set(names)) < len(names):
        twice = sorted({n for n in names if names.count(n) > 1})
        raise UsageError(f"two annotations are named {', '.join(twice)}: name each with --label")
    if any(not n or any(c in n for c in "\t\n") for n in names):
        raise UsageError("an annotator's label must be a non-empty line")
    return names


def _read(source: Any, format: str | None, options: dict[str, Any], lenient: bool,
          passes: Sequence[str]) -> list[Document]:
    from corefkit.passes import apply_passes
    from corefkit.scoring.engine import documents_of

    if _is_path(source) and not os.path.exists(os.fspath(source)) and not any(
            c in os.fspath(source) for c in "*?["):
        raise CorefkitError(f"{os.fspath(source)}: no such file or directory")
    docs: Iterable[Document] = documents_of(source, format, options, lenient)
    if passes:
        docs = apply_passes(docs, passes)
    found = list(docs)
    if not found:
        raise CorefkitError(f"{_describe(source)}: holds no document")
    return found


# ------------------------------------------------------------------------------ pairing
def _pair(read: list[tuple[str, list[Document]]], described: dict[str, str]) -> Inputs:
    labels = [name for name, _ in read]
    notes: list[Repair] = []
    if all(len(docs) == 1 for _, docs in read):
        docs = [d[0] for _, d in read]
        names = {d.pair_key() for d in docs}
        if len(names) > 1:
            notes.append(Repair(
                "agree.paired-single-documents",
                f"each annotation holds one document ({', '.join(d.name for d in docs)}): "
                f"compared as one document, {docs[0].name!r}", action="kept"))
        first = docs[0]
        return Inputs(labels, described, [Group(first.id, first.part, labels, docs)], notes)
    order: list[tuple[str, str]] = []
    found: dict[tuple[str, str], dict[str, Document]] = {}
    for name, docs in read:
        for doc in docs:
            key = doc.pair_key()
            if key not in found:
                order.append(key)
                found[key] = {}
            if name in found[key]:
                raise CorefkitError(f"{described[name]}: document {doc.name!r} occurs twice")
            found[key][name] = doc
    groups = []
    for key in order:
        have = found[key]
        present = [name for name in labels if name in have]
        first = have[present[0]]
        if len(present) < 2:
            notes.append(Repair("agree.unpaired-document",
                                f"document {first.name!r} is annotated by {present[0]} only: "
                                "left out", file=first.file, document=first.name,
                                action="dropped"))
            continue
        if len(present) < len(labels):
            missing = [n for n in labels if n not in have]
            notes.append(Repair("agree.missing-annotator",
                                f"document {first.name!r} is not annotated by "
                                f"{', '.join(missing)}: compared among {', '.join(present)}",
                                file=first.file, document=first.name, action="kept"))
        groups.append(Group(first.id, first.part, present, [have[n] for n in present]))
    if not groups:
        raise CorefkitError("no document is annotated by two or more of the annotators "
                            "(documents are paired by their names)")
    return Inputs(labels, described, groups, notes)


# ------------------------------------------------------------------------------ INCEpTION
def project_folder(path: str) -> str | None:
    """The ``annotation`` folder of an INCEpTION project export at ``path`` (or ``path``
    itself when it is that folder), else None."""
    if not os.path.isdir(path):
        return None
    inner = os.path.join(path, "annotation")
    if os.path.isdir(inner) and not os.path.islink(inner):
        return inner
    if os.path.basename(os.path.normpath(path)) == "annotation":
        return path
    return None


def _user_files(folder: str) -> list[tuple[str, str]]:
    """(user, file) of a document folder, symlinks left out."""
    found = []
    for name in sorted(os.listdir(folder)):
        full = os.path.join(folder, name)
        if name.startswith(".") or os.path.islink(full) or not os.path.isfile(full):
            continue
        found.append((_stem(full), full))
    return found


def _project(annotation: str, labels: Sequence[str], format: str | None,
             options: dict[str, Any], lenient: bool, passes: Sequence[str],
             curation: bool) -> Inputs:
    if labels:
        raise UsageError("the annotators of an INCEpTION project are its users: --label does "
                         "not apply")
    root = os.path.dirname(os.path.normpath(annotation))
    folders = [d for d in sorted(os.listdir(annotation)) if not d.startswith(".")
               and os.path.isdir(os.path.join(annotation, d))
               and not os.path.islink(os.path.join(annotation, d))]
    if not folders:
        raise CorefkitError(f"{annotation}: no document folder (annotation/<document>/<user> "
                            "files)")
    notes: list[Repair] = []
    users: list[str] = []
    groups: list[Group] = []
    for folder in folders:
        files = _user_files(os.path.join(annotation, folder))
        if curation:
            cured = os.path.join(root, "curation", folder)
            if os.path.isdir(cured) and not os.path.islink(cured):
                files += [(CURATION, f) for user, f in _user_files(cured)
                          if user == CURATION_USER]
        names = [user for user, _ in files]
        for user in names:
            if user not in users:
                users.append(user)
        if len(files) < 2:
            notes.append(Repair("agree.unpaired-document",
                                f"document {folder!r} has {len(files)} annotation file"
                                f"{'s' if len(files) != 1 else ''}: left out",
                                file=os.path.join(annotation, folder), document=folder,
                                action="dropped"))
            continue
        docs = []
        for user, path in files:
            read = _read(path, format, options, lenient, passes)
            if len(read) != 1:
                raise CorefkitError(f"{path}: holds {len(read)} documents; an INCEpTION "
                                    "annotation file holds one")
            docs.append(read[0])
        groups.append(Group(folder, None, names, docs))
    if not groups:
        raise CorefkitError(f"{annotation}: no document has two or more annotation files")
    ordered = [u for u in users if u != CURATION] + ([CURATION] if CURATION in users else [])
    for group in groups:
        order = sorted(range(len(group.labels)), key=lambda i: ordered.index(group.labels[i]))
        group.labels = [group.labels[i] for i in order]
        group.documents = [group.documents[i] for i in order]
        if len(group.labels) < len(ordered):
            missing = [u for u in ordered if u not in group.labels]
            notes.append(Repair("agree.missing-annotator",
                                f"document {group.name!r} is not annotated by "
                                f"{', '.join(missing)}: compared among "
                                f"{', '.join(group.labels)}", document=group.name,
                                action="kept"))
    return Inputs(ordered, {u: f"{annotation}/*/{u}" for u in ordered}, groups, notes)
