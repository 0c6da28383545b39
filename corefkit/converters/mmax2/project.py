"""MMAX2 input: one project's files — its XML, where its words and levels are, its words.

Specification: ``formats/mmax2.md``. The words file and the level files are found through a
``common_paths.xml``: the one beside the project, the one given (``--mmax-common-paths``), a
``common_files/*common_paths*.xml`` in an enclosing folder, or else the MMAX2 convention
(``Basedata/`` and ``Markables/`` beside the project). XML is parsed without DTDs, network
or entity expansion; errors name the file, line and column.
"""

from __future__ import annotations

import glob
import os
import re
from typing import Any

from lxml import etree

from corefkit.converters.mmax2.layout import span_string
from corefkit.converters.mmax2.levelmap import LevelMap
from corefkit.converters.mmax2.markables import Level
from corefkit.converters.paths import InputError, RefusedPath, open_input
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Token

_PARSERS: dict[bool, etree.XMLParser] = {}


def _parser(recover: bool) -> etree.XMLParser:
    """A parser that never loads DTDs, never touches the network, never expands entities."""
    parser = _PARSERS.get(recover)
    if parser is None:
        parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False,
                                 recover=recover, huge_tree=True)
        _PARSERS[recover] = parser
    return parser


_WORDS_WITH_ATTRIBUTES = etree.XPath("count(//*[local-name()='word'][@*[2]])")


def local_name(tag: Any) -> str | None:
    """The local name of an element tag (None for comments and processing instructions)."""
    if not isinstance(tag, str):
        return None
    return tag.rsplit("}", 1)[-1]


def find_child(root: Any, name: str) -> Any:
    for el in root:
        if local_name(el.tag) == name:
            return el
    return None


class ProjectFiles:
    """The files of one project being read, and the repairs found in them."""

    def __init__(self, path: str, display: str, level_map: LevelMap, common_paths: str | None,
                 lenient: bool, cache: dict[str, Any]) -> None:
        self.path = path
        self.display = display
        self.dir = os.path.dirname(path)
        self.base = os.path.splitext(os.path.basename(path))[0]
        self.map = level_map
        self.common_paths = common_paths
        self.lenient = lenient
        self.cache = cache
        self.doc = Document(self.base, file=display)
        self.word_index: dict[str, int] = {}
        self.word_ids: list[str] = []
        self.reported: set[tuple[str, str]] = set()

    # ------------------------------------------------------------------ reports
    def repair(self, check: str, message: str, file: str | None = None, line: int | None = None,
               action: str = "kept", column: int | None = None) -> None:
        self.doc.repairs.append(Repair(check, message, file, line, column, self.doc.id, action))

    def once(self, check: str, key: str, message: str, file: str | None = None,
             line: int | None = None) -> None:
        if (check, key) not in self.reported:
            self.reported.add((check, key))
            self.repair(check, message, file, line)

    def reject(self, check: str, message: str, file: str, line: int | None) -> None:
        """A bad markable: an error, or in lenient mode a warning and the markable skipped."""
        if not self.lenient:
            raise FormatError(f"{message}; fix the markable, or pass --lenient to skip it",
                              file=file, line=line, check=check)
        self.repair(check, f"{message}; markable skipped", file, line, action="skipped")

    # ------------------------------------------------------------------ files
    def show(self, path: str) -> str:
        return os.path.normpath(path)

    def parse(self, path: str, what: str, *, missing_line: int | None = None,
              missing_file: str | None = None) -> Any:
        """The root element of an XML file, or a FormatError naming file, line and column."""
        shown = self.show(path)
        try:
            with open_input(path) as handle:
                data = handle.read()
        except InputError as exc:
            if not isinstance(exc, RefusedPath) and not os.path.lexists(path):
                raise FormatError(
                    f"the {what} {shown} does not exist", file=missing_file or self.display,
                    line=missing_line, check="mmax2.missing-file") from None
            raise FormatError(f"cannot read the {what}: {exc}", file=shown,
                              check="mmax2.missing-file") from None
        except OSError as exc:
            raise FormatError(f"cannot read the {what} ({exc.strerror})", file=shown,
                              check="mmax2.missing-file") from None
        parser = _parser(self.lenient)
        try:
            root = etree.fromstring(data, parser)
        except etree.XMLSyntaxError as exc:
            line, column = exc.position if exc.position else (exc.lineno, None)
            text = " ".join((exc.msg or str(exc)).split())  # libxml2 may end it in a line break
            message = re.sub(r",? line \d+, column \d+$", "", text)
            raise FormatError(f"malformed XML in the {what}: {message}", file=shown,
                              line=line, column=column, check="mmax2.xml-syntax") from None
        if root is None:
            raise FormatError(f"the {what} holds no XML element", file=shown,
                              check="mmax2.xml-syntax")
        errors = [e for e in parser.error_log if e.level >= etree.ErrorLevels.ERROR]
        if self.lenient and errors:
            first = errors[0]
            detail = " ".join(first.message.split())
            self.repair("mmax2.xml-syntax",
                        f"malformed XML in the {what} ({detail}); read what the parser "
                        "could recover", shown, first.line, column=first.column, action="repaired")
        return root

    def resolve_dir(self, text: str | None) -> str:
        """A directory named in common paths: backslashes allowed, empty = the project's."""
        text = (text or "").strip().replace("\\", "/")
        if not text:
            return self.dir
        if os.path.isabs(text):
            return text
        return os.path.normpath(os.path.join(self.dir, text))

    # ------------------------------------------------------------------ common paths
    def locate(self, words_name: str, words_line: int | None,
               project_root: Any) -> tuple[str, list[Level]]:
        """The words file and the levels, from common paths (local, given, global, assumed)."""
        local = os.path.join(self.dir, "common_paths.xml")
        chosen: str | None = None
        if os.path.isfile(local):
            chosen = local
            if self.common_paths is not None:
                self.once("mmax2.common-paths-local", "",
                          f"the project has its own common_paths.xml; the one given "
                          f"({self.common_paths}) is not used for it", self.display)
        elif self.common_paths is not None:
            chosen = self.common_paths
        else:
            chosen = self.global_common_paths()
            if chosen is not None:
                self.repair("mmax2.global-paths-found",
                            f"no common_paths.xml beside the project; used {self.show(chosen)} "
                            "(pass --mmax-common-paths to choose another)", self.display)
        if chosen is None:
            return self.assumed_paths(words_name, words_line)
        root = self.parse(chosen, "common paths file")
        shown = self.show(chosen)
        paths = {}
        for tag in ("basedata_path", "scheme_path", "markable_path"):
            el = find_child(root, tag)
            paths[tag] = self.resolve_dir(el.text if el is not None else "")
        words_path = os.path.join(paths["basedata_path"], words_name)
        annotations = find_child(root, "annotations")
        source, source_file = (annotations, shown)
        if annotations is None:  # old projects list their levels in the .mmax file
            source, source_file = (find_child(project_root, "annotations"), self.display)
        levels = []
        seen: set[str] = set()
        for el in (source if source is not None else ()):
            if local_name(el.tag) != "level":
                continue
            name = (el.get("name") or "").strip()
            if not name:
                raise FormatError("a <level> without a name attribute", file=source_file,
                                  line=el.sourceline, check="mmax2.bad-common-paths")
            if name in seen:
                raise FormatError(f"level {name!r} is listed twice", file=source_file,
                                  line=el.sourceline, check="mmax2.bad-common-paths")
            seen.add(name)
            pattern = (el.text or "").strip().replace("\\", "/") or f"$_{name}_level.xml"
            file = pattern.replace("$", self.base)
            path = file if os.path.isabs(file) else os.path.join(paths["markable_path"], file)
            scheme = (el.get("schemefile") or "").strip().replace("\\", "/")
            scheme_path = os.path.join(paths["scheme_path"], scheme) if scheme else None
            levels.append(Level(name, path, scheme_path, source_file, el.sourceline))
        return words_path, levels

    def global_common_paths(self) -> str | None:
        """A ``*common_paths*.xml`` in a ``common_files/`` folder of an enclosing directory."""
        start = self.dir or os.curdir
        for up in range(4):  # the project's folder and three above it
            directory = os.path.normpath(os.path.join(start, *[os.pardir] * up))
            folder = os.path.join(directory, "common_files")
            key = f"global:{folder}"
            if key not in self.cache:
                self.cache[key] = sorted(glob.glob(os.path.join(glob.escape(folder),
                                                                "*common_paths*.xml")))
            candidates = self.cache[key]
            if candidates:
                names = {os.path.basename(c): c for c in candidates}
                for preferred in ("global_common_paths.xml", "common_paths.xml"):
                    if preferred in names:
                        return names[preferred]
                if len(candidates) == 1:
                    return candidates[0]
                raise FormatError(
                    f"several common paths files in {self.show(folder)} "
                    f"({', '.join(sorted(names))}); pass --mmax-common-paths to choose one",
                    file=self.display, check="mmax2.ambiguous-common-paths")
            if os.path.dirname(os.path.abspath(directory)) == os.path.abspath(directory):
                break  # the file system's root
        return None

    def assumed_paths(self, words_name: str, words_line: int | None) -> tuple[str, list[Level]]:
        """The MMAX2 convention, when no common paths file exists anywhere."""
        words_path = os.path.join(self.dir, "Basedata", words_name)
        if not os.path.isfile(words_path) and os.path.isfile(os.path.join(self.dir, words_name)):
            words_path = os.path.join(self.dir, words_name)
        levels: list[Level] = []
        prefix = f"{self.base}_"
        for folder in (os.path.join(self.dir, "Markables"), self.dir):
            if not os.path.isdir(folder):
                continue
            for name in sorted(os.listdir(folder)):
                if name.startswith(prefix) and name.endswith("_level.xml"):
                    level = name[len(prefix):-len("_level.xml")]
                    if not level or any(lv.name == level for lv in levels):
                        continue
                    scheme = None
                    for scheme_dir in (os.path.join(self.dir, "Schemes"), self.dir):
                        candidate = os.path.join(scheme_dir, f"{level}_scheme.xml")
                        if os.path.isfile(candidate):
                            scheme = candidate
                            break
                    levels.append(Level(level, os.path.join(folder, name), scheme,
                                         self.display, None))
            if levels:
                break
        listed = ", ".join(lv.name for lv in levels) or "none"
        self.repair("mmax2.assumed-paths",
                    f"no common_paths.xml found; assumed Basedata/ and Markables/ beside the "
                    f"project (levels: {listed}); pass --mmax-common-paths if that is wrong",
                    self.display)
        return words_path, levels

    # ------------------------------------------------------------------ words
    def read_words(self, path: str, line: int | None) -> None:
        root = self.parse(path, "words file", missing_line=line)
        shown = self.show(path)
        tokens = self.doc.tokens
        index = self.word_index
        ids = self.word_ids
        # extra word attributes (part of speech, timing, ...) are kept as token attributes;
        # most words files have none, and then the loop need not look (a third faster)
        with_attributes = _WORDS_WITH_ATTRIBUTES(root) > 0
        append = tokens.append
        for n, el in enumerate(root.iter("{*}word")):
            wid = el.get("id")
            if wid is None:
                raise FormatError("a <word> without an id attribute", file=shown,
                                  line=el.sourceline, check="mmax2.bad-word")
            index[wid] = n
            ids.append(wid)
            attrs = None
            if with_attributes and len(el.attrib) > 1:
                attrs = {k: v for k, v in el.items() if k != "id"}
            append(Token(el.text or "", n, -1, attrs))
        if len(index) != len(ids):  # a word id used twice: find the second one for the message
            seen: set[str] = set()
            for el in root.iter("{*}word"):
                wid = el.get("id")
                if wid in seen:
                    raise FormatError(
                        f"word id {wid!r} is used twice; word ids must be unique",
                        file=shown, line=el.sourceline, check="mmax2.duplicate-word-id")
                seen.add(wid)
        if ids != [f"word_{i}" for i in range(1, len(ids) + 1)]:
            # the writer keeps non-standard ids, so that attributes naming words stay valid
            self.doc.attrs["mmax_word_ids"] = list(ids)

    def span_text(self, tokens: tuple[int, ...]) -> str:
        return span_string(self.word_ids, tokens)
