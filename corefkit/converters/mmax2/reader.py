"""MMAX2 XML: the reader of stand-off MMAX2 projects, driven by level maps.

Specification: ``formats/mmax2.md``; cross-format rules: ``formats/conversion-notes.md``.

A project is a ``.mmax`` file naming a words file, plus a ``common_paths.xml`` saying where
the words, the markable files (one per annotation level) and the schemes are (``project``).
MMAX2 fixes no coreference attribute: a **level map** (``levelmap``) says which level holds
the mentions and which attributes encode identity, non-reference, split antecedents,
bridging, discourse deixis, minimum spans and heads (``mentions``).

A project is several files, so the reader takes a path (a ``.mmax`` file, or a directory:
every project under it) instead of a byte stream. This module reads the project file, the
levels and their schemes, decides which level gives sentences and which hold mentions, and
builds the sentences.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

from corefkit.converters.mmax2.layout import POINTER_TYPE, SET_TYPE, SpanError, parse_span
from corefkit.converters.mmax2.levelmap import LevelMap, load_level_map
from corefkit.converters.mmax2.markables import Level, Markable, Scheme, SchemeAttribute
from corefkit.converters.mmax2.mentions import MentionBuilder
from corefkit.converters.mmax2.project import find_child, local_name
from corefkit.errors import FormatError
from corefkit.model import Document, Sentence


def find_projects(directory: str) -> list[str]:
    """Every ``.mmax`` project file under ``directory`` (recursively, hidden folders skipped)."""
    found: list[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in sorted(files)
                     if f.lower().endswith(".mmax") and not f.startswith("."))
    return found


def read_path(
    path: str,
    file: str | None = None,
    *,
    level_map: str | LevelMap | None = None,
    common_paths: str | None = None,
    lenient: bool = False,
) -> Iterator[Document]:
    """The documents of an MMAX2 project file, or of every project under a directory.

    ``level_map`` is a shipped map's name (default ``generic``) or a JSON file;
    ``common_paths`` a ``common_paths.xml`` for projects that have none beside them;
    ``lenient`` turns bad markables (unknown words, dangling pointers, duplicate ids) and XML
    syntax errors into warnings: the markable is skipped, the parser recovers what it can.
    """
    mapping = load_level_map(level_map)
    if common_paths is not None and not os.path.isfile(common_paths):
        raise FormatError("the common paths file given does not exist", file=common_paths,
                          check="mmax2.missing-file")
    projects = find_projects(path) if os.path.isdir(path) else [path]
    if not projects:
        raise FormatError("the directory holds no .mmax project", file=path,
                          check="mmax2.no-project")
    cache: dict[str, Any] = {}
    for project in projects:
        display = file if file is not None and len(projects) == 1 else project
        reader = _ProjectReader(project, display, mapping, common_paths, lenient, cache)
        try:
            doc = reader.read()
        except FormatError as exc:
            # what was repaired before: the validator reports it too
            exc.repairs = list(reader.doc.repairs)  # type: ignore[attr-defined]
            raise
        yield doc


class _ProjectReader(MentionBuilder):
    """Reads one project into a :class:`Document`."""

    def read(self) -> Document:
        root = self.parse(self.path, "project file")
        if local_name(root.tag) != "mmax_project":
            raise FormatError(
                f"the root element is <{local_name(root.tag)}>, expected <mmax_project>: "
                "not an MMAX2 project file", file=self.display, line=root.sourceline,
                check="mmax2.not-a-project")
        words = find_child(root, "words")
        if words is None or not (words.text or "").strip():
            raise FormatError("the project names no words file (<words>FILE</words>)",
                              file=self.display, line=root.sourceline, check="mmax2.no-words")
        if root.get("document"):  # written by corefkit for a name that is no file name
            self.doc.id = root.get("document")
            self.doc.part = root.get("part")
        words_name = words.text.strip().replace("\\", "/")
        words_path, levels = self.locate(words_name, words.sourceline, root)
        self.read_words(words_path, words.sourceline)
        for level in levels:
            self.read_level(level)
        self.classify_levels(levels)
        sentence = next((lv for lv in levels if lv.role == "sentence"), None)
        self.build_sentences(sentence)
        mention_levels = [lv for lv in levels if lv.role == "mention"]
        # mention lines are lines of these files (the validator locates its findings with it)
        self.doc.attrs["mmax_level_files"] = {lv.name: self.show(lv.path) for lv in mention_levels}
        if not mention_levels:
            listed = ", ".join(lv.name for lv in levels) or "none"
            self.repair("mmax2.no-coref-level",
                        f"no level holds mentions according to the level map {self.map.name!r} "
                        f"(levels: {listed}); the document has no mentions", self.display)
        self.build_mentions(levels, mention_levels)
        return self.doc

    # ------------------------------------------------------------------ levels
    def read_level(self, level: Level) -> None:
        shown = level.shown
        if level.scheme_path is not None:
            level.scheme = self.read_scheme(level.scheme_path)
        if not os.path.isfile(level.path):
            # decided once the levels' roles are known (a missing mention level is an error)
            level.role = "missing"
            return
        root = self.parse(level.path, f"{level.name} level file")
        for order, el in enumerate(root.iter("{*}markable")):
            attrs = dict(el.attrib)
            mid = attrs.pop("id", None)
            span = attrs.pop("span", None)
            attrs.pop("mmax_level", None)
            line = el.sourceline
            if not mid:
                self.reject("mmax2.bad-markable", "markable without an id", shown, line)
                continue
            if mid in level.by_id or mid in level.skipped:
                self.reject("mmax2.duplicate-markable-id",
                            f"markable id {mid!r} is used twice in level {level.name!r}",
                            shown, line)
                continue
            if span is None:
                level.skipped.add(mid)
                self.reject("mmax2.bad-span", f"markable {mid} has no span", shown, line)
                continue
            try:
                tokens, overlap = parse_span(span, self.word_index)
            except SpanError as exc:
                level.skipped.add(mid)
                self.reject("mmax2.bad-span", f"markable {mid}: {exc}", shown, line)
                continue
            markable = Markable(mid, level, tokens, attrs, line, order, overlap)
            level.by_id[mid] = markable
            level.markables.append(markable)

    def read_scheme(self, path: str) -> Scheme | None:
        key = f"scheme:{os.path.abspath(path)}"
        if key in self.cache:
            return self.cache[key]
        if not os.path.isfile(path):
            return None
        root = self.parse(path, "scheme file")
        attributes = []
        for el in root.iter("{*}attribute"):
            name = (el.get("name") or "").strip()
            if not name:
                continue
            values: dict[str, list[str]] = {}
            for value in el.iter("{*}value"):
                vname = (value.get("name") or "").strip().lower()
                nexts = [n for n in re.split(r"[,;\s]+", value.get("next") or "") if n]
                values.setdefault(vname, []).extend(nexts)
            attributes.append(SchemeAttribute(
                name, el.get("id") or name, (el.get("type") or "freetext").strip().lower(),
                values, el.get("target_domain")))
        scheme = Scheme(attributes)
        self.cache[key] = scheme
        return scheme

    def classify_levels(self, levels: list[Level]) -> None:
        """Decide which level gives sentences, which hold mentions, which stay opaque."""
        m = self.map
        for name in m.sentence_levels:
            found = next((lv for lv in levels if lv.name.lower() == name), None)
            if found is not None:
                if found.role == "missing":
                    self.repair("mmax2.missing-level-file",
                                f"the sentence level file {self.show(found.path)} does not exist",
                                found.source, found.line)
                    found.role = "ignored"
                else:
                    found.role = "sentence"
                break
        for level in levels:
            if level.role in ("sentence", "ignored"):
                continue
            declared_sets = set(level.scheme.of_type(SET_TYPE)) if level.scheme else set()
            carried = any(n in mk.low for mk in level.markables[:50] for n in m.set_attributes)
            is_mention = level.name.lower() in m.mention_levels or (
                m.mention_levels_from_scheme and (bool(declared_sets) or carried))
            if level.role == "missing":
                if is_mention:
                    message = (f"the {level.name} level file {level.shown} does not "
                               "exist")
                    if not self.lenient:
                        raise FormatError(f"{message}; pass --lenient to read the project "
                                          "without it", file=level.source, line=level.line,
                                          check="mmax2.missing-file")
                    self.repair("mmax2.missing-file", f"{message}; read as an empty level",
                                level.source, level.line, action="repaired")
                    level.role = "opaque"  # an empty mention level, decided below
                else:
                    self.repair("mmax2.missing-level-file",
                                f"the {level.name} level file {level.shown} does not "
                                "exist; level left out", level.source, level.line)
                    level.role = "ignored"
                    continue
            if level.scheme is None:
                what = (f"the scheme file {self.show(level.scheme_path)} does not exist"
                        if level.scheme_path else "no scheme file is named for it")
                self.once("mmax2.no-scheme", level.name,
                          f"level {level.name!r}: {what}; its attributes are read as free text "
                          "and only the level map says which hold coreference", level.source,
                          level.line)
            if is_mention:
                level.role = "mention"
                names = set(m.set_attributes)
                if m.sets_from_scheme:
                    names |= declared_sets
                level.set_names = frozenset(names)
            pointers = set(m.rule_pointers)
            if level.scheme is not None:
                pointers |= set(level.scheme.of_type(POINTER_TYPE))
            level.pointer_names = frozenset(pointers)

    # ------------------------------------------------------------------ sentences
    def build_sentences(self, level: Level | None) -> None:
        doc = self.doc
        n = len(doc.tokens)
        pieces: list[tuple[int, int, dict[str, str]]] = []
        if level is None:
            if n:
                self.repair("mmax2.no-sentences",
                            "no sentence level; the whole document is read as one sentence",
                            self.display)
                pieces.append((0, n, {}))
        else:
            shown = level.shown
            spans = sorted((mk for mk in level.markables if mk.tokens),
                           key=lambda mk: (mk.tokens[0], mk.tokens[0] - mk.tokens[-1], mk.order))
            end = 0      # first token not yet in a sentence
            gaps = []
            for mk in spans:
                first, last = mk.tokens[0], mk.tokens[-1]
                if last - first + 1 != len(mk.tokens):
                    self.repair("mmax2.sentence-with-gap",
                                f"sentence markable {mk.id} ({self.span_text(mk.tokens)}) has a "
                                "gap; read as one sentence from its first to its last word", shown,
                                mk.line, action="repaired")
                if first < end:
                    self.repair("mmax2.sentence-overlap",
                                f"sentence markable {mk.id} ({self.span_text(mk.tokens)}) overlaps "
                                "an earlier sentence; left out", shown, mk.line, action="dropped")
                    continue
                if first > end:
                    gaps.append((end, first))
                    pieces.append((end, first, {}))
                pieces.append((first, last + 1, mk.attrs))
                end = last + 1
            if end < n:
                gaps.append((end, n))
                pieces.append((end, n, {}))
            if gaps:
                a, b = gaps[0]
                self.repair("mmax2.sentence-gap",
                            f"{len(gaps)} stretch(es) of words lie in no sentence markable (first: "
                            f"{self.word_ids[a]}..{self.word_ids[b - 1]}); each became a sentence",
                            shown, action="repaired")
        tokens = doc.tokens
        for index, (start, stop, attrs) in enumerate(pieces):
            doc.sentences.append(Sentence(index, start, stop, attrs=dict(attrs)))
            for i in range(start, stop):
                tokens[i].sentence = index
