"""MMAX2 XML: reader and writer of stand-off MMAX2 projects, driven by level maps.

Specification: ``formats/mmax2.md``; cross-format rules: ``formats/conversion-notes.md``.

A project is a ``.mmax`` file naming a words file, plus a ``common_paths.xml`` saying where
the words, the markable files (one per annotation level) and the schemes are. MMAX2 fixes no
coreference attribute: which level holds the mentions and which attributes encode identity
(a ``markable_set`` or antecedent pointers), non-reference, split antecedents, bridging,
discourse deixis, minimum spans and heads is said by a **level map** (JSON under
``corefkit/schemas/mmax2/``, or a file of the user's). The writer uses the same map to choose
the attribute names it writes: the first rule of each kind.

A project is several files, so the reader takes a path (a ``.mmax`` file, or a directory:
every project under it) instead of a byte stream, and the writer fills a directory that the
registry renames into place only when every document has been written.

What the map does not interpret is kept: every other markable attribute becomes a mention
attribute (verbatim), pointers the map does not know stay attributes whose markable ids are
renumbered on writing, and levels that are neither mentions nor sentences are kept whole in
``Document.attrs["opaque_levels"]`` and written back.
"""

from __future__ import annotations

import functools
import glob
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from lxml import etree


from corefkit.converters.loss import (
    FEATURES,
    ID_ATTRIBUTES,
    ConversionReport,
    LossRecord,
    describe_mention,
    find_losses,
)
from corefkit.errors import FormatError, Repair, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention, Sentence, Token

NO_VALUE = frozenset({"", "empty"})
MAP_FORMAT = "corefkit-mmax2-level-map/1"
MAPS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir,
                        "schemas", "mmax2")
DEFAULT_MAP = "generic"
NOMINAL_TYPES = frozenset({"nominal_list", "nominal_button"})
SET_TYPE = "markable_set"
POINTER_TYPE = "markable_pointer"
# Attributes of the model's own bookkeeping that are never written as markable attributes.
BOOKKEEPING = frozenset({"markable_id", "mmax_level"})
WRITER_MARK = "<!-- written by corefkit -->"
OWN_ENTRIES = frozenset({"common_paths.xml", "Basedata", "Markables", "Schemes",
                         "Customizations", "Styles"})
XML_NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
PROJECT_NAME_RE = re.compile(r"[^\w.-]")




# ============================================================================ level maps
@dataclass(frozen=True)
class PointerRule:
    """``attribute`` holds markable pointers (``;``-separated, ``level:id`` across levels).

    The rule applies to a markable when every ``when`` condition holds (attribute value,
    compared case-insensitively, among the accepted values). ``relation`` names the attribute
    holding a bridging relation; ``segment_level`` is where the writer puts discourse-deixis
    segments whose level is unknown.
    """

    attribute: str
    relation: str | None = None
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()
    segment_level: str | None = None

    def applies(self, low: dict[str, str]) -> bool:
        return all(low.get(name, "").strip().lower() in accepted for name, accepted in self.when)


@dataclass(frozen=True)
class NonReferringRule:
    """A markable is non-referring when ``attribute`` has one of ``values``; ``kind`` names
    the attribute holding its kind (expletive, predicate, ...)."""

    attribute: str
    values: tuple[str, ...]
    kind: str | None = None
    when: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def applies(self, low: dict[str, str]) -> bool:
        return (low.get(self.attribute, "").strip().lower() in self.values
                and all(low.get(n, "").strip().lower() in a for n, a in self.when))


@dataclass(frozen=True)
class LevelMap:
    """Which levels and attributes of an MMAX2 project mean what (all names lower case)."""

    name: str
    description: str
    source: str
    sentence_levels: tuple[str, ...]
    mention_levels: tuple[str, ...]
    mention_levels_from_scheme: bool
    set_attributes: tuple[str, ...]
    sets_from_scheme: bool
    identity_pointers: tuple[PointerRule, ...]
    non_referring: tuple[NonReferringRule, ...]
    split_antecedents: tuple[PointerRule, ...]
    bridging: tuple[PointerRule, ...]
    discourse_deixis: tuple[PointerRule, ...]
    min_span: tuple[str, ...]
    head: tuple[str, ...]
    kept_pointers: tuple[str, ...]

    @functools.cached_property
    def rule_pointers(self) -> frozenset[str]:
        """Every attribute the map reads as a pointer."""
        rules = (*self.identity_pointers, *self.split_antecedents, *self.bridging,
                 *self.discourse_deixis)
        return frozenset(r.attribute for r in rules) | frozenset(self.kept_pointers)

    @functools.cached_property
    def interpreted(self) -> frozenset[str]:
        """Every attribute a rule of the map looks at, other than set attributes."""
        names = set(self.rule_pointers) | set(self.min_span) | set(self.head)
        for rule in (*self.identity_pointers, *self.split_antecedents, *self.bridging,
                     *self.discourse_deixis):
            names.update(n for n, _ in rule.when)
            if rule.relation:
                names.add(rule.relation)
        for nonref in self.non_referring:
            names.add(nonref.attribute)
            names.update(n for n, _ in nonref.when)
            if nonref.kind:
                names.add(nonref.kind)
        return frozenset(names)


_MAP_KEYS = {
    "format", "name", "description", "sentence_levels", "mention_levels",
    "mention_levels_from_scheme", "identity", "non_referring", "split_antecedents", "bridging",
    "discourse_deixis", "min_span", "head", "kept_pointers",
}
_MAP_CACHE: dict[str, LevelMap] = {}


def shipped_maps() -> list[str]:
    """Names of the level maps shipped with corefkit."""
    return sorted(n[:-5] for n in os.listdir(MAPS_DIR) if n.endswith(".json"))


def load_level_map(spec: str | LevelMap | None = None) -> LevelMap:
    """A level map: a shipped map's name, the path of a JSON file, or a map itself."""
    if isinstance(spec, LevelMap):
        return spec
    name = spec or DEFAULT_MAP
    if os.path.isfile(name):
        path = name
    else:
        path = os.path.join(MAPS_DIR, f"{name}.json")
        if os.sep in name or "/" in name or not os.path.isfile(path):
            raise UsageError(
                f"unknown MMAX2 level map {name!r}: no such file, and not one of the shipped "
                f"maps ({', '.join(shipped_maps())})")
    key = os.path.abspath(path)
    cached = _MAP_CACHE.get(key)
    if cached is not None:
        return cached
    try:
        with open(path, encoding="utf-8-sig") as handle:
            data = json.load(handle)
    except json.JSONDecodeError as exc:
        raise FormatError(f"the level map is not valid JSON: {exc.msg}", file=path,
                          line=exc.lineno, column=exc.colno, check="mmax2.bad-map") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read the level map ({exc})", file=path,
                          check="mmax2.bad-map") from None
    level_map = _parse_map(data, path)
    _MAP_CACHE[key] = level_map
    return level_map


def _parse_map(data: Any, path: str) -> LevelMap:
    def bad(message: str) -> FormatError:
        return FormatError(f"level map: {message}", file=path, check="mmax2.bad-map")

    if not isinstance(data, dict):
        raise bad("expected a JSON object at the top")
    if data.get("format") != MAP_FORMAT:
        raise bad(f"'format' must be {MAP_FORMAT!r}, found {data.get('format')!r}")
    unknown = sorted(set(data) - _MAP_KEYS)
    if unknown:
        raise bad(f"unknown key(s) {', '.join(unknown)}; "
                  f"known keys: {', '.join(sorted(_MAP_KEYS))}")

    def names(value: Any, where: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise bad(f"{where!r} must be a list of non-empty strings")
        return tuple(v.strip().lower() for v in value)

    def flag(value: Any, where: str) -> bool:
        if value is None:
            return False
        if not isinstance(value, bool):
            raise bad(f"{where!r} must be true or false")
        return value

    def conditions(value: Any, where: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        if value is None:
            return ()
        if not isinstance(value, dict):
            raise bad(f"{where}.when must be an object of attribute: value(s)")
        found = []
        for attr, accepted in sorted(value.items()):
            if isinstance(accepted, str):
                accepted = [accepted]
            found.append((attr.strip().lower(), names(accepted, f"{where}.when.{attr}")))
        return tuple(found)

    def pointer_rules(value: Any, where: str, keys: set[str]) -> tuple[PointerRule, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise bad(f"{where!r} must be a list of rules")
        rules = []
        for i, item in enumerate(value):
            here = f"{where}[{i}]"
            if not isinstance(item, dict) or not isinstance(item.get("attribute"), str):
                raise bad(f"{here} must be an object with an 'attribute' string")
            extra = sorted(set(item) - keys)
            if extra:
                raise bad(f"{here} has unknown key(s) {', '.join(extra)}")
            relation = item.get("relation")
            segment = item.get("segment_level")
            for what, text in (("relation", relation), ("segment_level", segment)):
                if text is not None and not isinstance(text, str):
                    raise bad(f"{here}.{what} must be a string")
            rules.append(PointerRule(
                item["attribute"].strip().lower(),
                relation.strip().lower() if relation else None,
                conditions(item.get("when"), here),
                segment.strip() if segment else None,
            ))
        return tuple(rules)

    identity = data.get("identity") or {}
    if not isinstance(identity, dict) or set(identity) - {"sets", "sets_from_scheme", "pointers"}:
        raise bad("'identity' must be an object with 'sets', 'sets_from_scheme', 'pointers'")
    nonref = []
    raw_nonref = data.get("non_referring") or []
    if not isinstance(raw_nonref, list):
        raise bad("'non_referring' must be a list of rules")
    for i, item in enumerate(raw_nonref):
        here = f"non_referring[{i}]"
        if (not isinstance(item, dict) or not isinstance(item.get("attribute"), str)
                or set(item) - {"attribute", "values", "kind", "when"}):
            raise bad(f"{here} must be an object with 'attribute', 'values' and optional "
                      "'kind' and 'when'")
        values = names(item.get("values"), f"{here}.values")
        if not values:
            raise bad(f"{here}.values must name at least one value")
        kind = item.get("kind")
        if kind is not None and not isinstance(kind, str):
            raise bad(f"{here}.kind must be a string")
        nonref.append(NonReferringRule(item["attribute"].strip().lower(), values,
                                       kind.strip().lower() if kind else None,
                                       conditions(item.get("when"), here)))
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise bad("'name' must be a non-empty string")
    level_map = LevelMap(
        name=name,
        description=str(data.get("description", "")),
        source=path,
        sentence_levels=names(data.get("sentence_levels"), "sentence_levels"),
        mention_levels=names(data.get("mention_levels"), "mention_levels"),
        mention_levels_from_scheme=flag(data.get("mention_levels_from_scheme"),
                                        "mention_levels_from_scheme"),
        set_attributes=names(identity.get("sets"), "identity.sets"),
        sets_from_scheme=flag(identity.get("sets_from_scheme"), "identity.sets_from_scheme"),
        identity_pointers=pointer_rules(identity.get("pointers"), "identity.pointers",
                                        {"attribute", "when"}),
        non_referring=tuple(nonref),
        split_antecedents=pointer_rules(data.get("split_antecedents"), "split_antecedents",
                                        {"attribute", "when"}),
        bridging=pointer_rules(data.get("bridging"), "bridging", {"attribute", "relation", "when"}),
        discourse_deixis=pointer_rules(data.get("discourse_deixis"), "discourse_deixis",
                                       {"attribute", "when", "segment_level"}),
        min_span=names(data.get("min_span"), "min_span"),
        head=names(data.get("head"), "head"),
        kept_pointers=names(data.get("kept_pointers"), "kept_pointers"),
    )
    if not level_map.mention_levels and not level_map.mention_levels_from_scheme:
        raise bad("name at least one mention level, or set 'mention_levels_from_scheme'")
    return level_map


# ============================================================================ XML input
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


def _local(tag: Any) -> str | None:
    """The local name of an element tag (None for comments and processing instructions)."""
    if not isinstance(tag, str):
        return None
    return tag.rsplit("}", 1)[-1]


def _child(root: Any, name: str) -> Any:
    for el in root:
        if _local(el.tag) == name:
            return el
    return None


class _SpanError(Exception):
    """A span that names unknown words or runs backwards (the caller adds file and line)."""


@dataclass
class _SchemeAttribute:
    name: str                       # as spelled in the scheme
    id: str
    type: str                       # lower case
    values: dict[str, list[str]]    # lower-case value name -> ids enabled by it ("next")
    target_domain: str | None


class _Scheme:
    """An annotation scheme: attribute declarations and their ``next`` dependencies."""

    def __init__(self, attributes: list[_SchemeAttribute]) -> None:
        self.verdicts: dict[tuple, tuple[list, list]] = {}  # see _ProjectReader.check_scheme
        self.attributes = {a.name.lower(): a for a in attributes}
        self.linked = frozenset(n for n, a in self.attributes.items()
                                if a.type in (SET_TYPE, POINTER_TYPE))
        self.by_id = {a.id: a for a in attributes}
        dependent = {i for a in attributes for ids in a.values.values() for i in ids}
        self.dependent = {i for i in dependent if i in self.by_id}
        self.roots = [a.id for a in attributes if a.id not in self.dependent]

    def of_type(self, kind: str) -> list[str]:
        return [name for name, a in self.attributes.items() if a.type == kind]

    def enabled(self, low: dict[str, str]) -> set[str]:
        """Ids of the attributes a markable's values make available (MMAX2 ``next`` links)."""
        on: set[str] = set()
        stack = list(self.roots)
        while stack:
            aid = stack.pop()
            if aid in on:
                continue
            on.add(aid)
            attr = self.by_id[aid]
            value = low.get(attr.name.lower())
            if value is None:
                continue
            value = value.strip().lower()
            if attr.type in (SET_TYPE, POINTER_TYPE):
                filled = value not in NO_VALUE
                if "set" in attr.values or "not_set" in attr.values:
                    nexts = attr.values.get("set" if filled else "not_set", [])
                else:
                    nexts = [i for ids in attr.values.values() for i in ids] if filled else []
            elif value in attr.values:
                nexts = attr.values[value]
            elif value:
                # a value the scheme does not know (reported on its own): it cannot tell which
                # attributes it enables, so none of them is held against the markable
                nexts = [i for ids in attr.values.values() for i in ids]
            else:
                nexts = []
            stack.extend(i for i in nexts if i in self.by_id)
        return on


class _Level:
    """One annotation level of a project and, once read, its markables."""

    __slots__ = ("name", "path", "shown", "scheme_path", "source", "line", "scheme", "markables",
                 "by_id", "skipped", "role", "set_names", "pointer_names")

    def __init__(self, name: str, path: str, scheme_path: str | None, source: str,
                 line: int | None) -> None:
        self.name = name
        self.path = path
        self.shown = os.path.normpath(path)  # the name used in messages
        self.scheme_path = scheme_path
        self.source = source        # the file that lists the level, and its line there
        self.line = line
        self.scheme: _Scheme | None = None
        self.markables: list[_Markable] = []
        self.by_id: dict[str, _Markable] = {}
        self.skipped: set[str] = set()
        self.role = "opaque"        # mention | sentence | opaque
        self.set_names: frozenset[str] = frozenset()
        self.pointer_names: frozenset[str] = frozenset()


class _Markable:
    __slots__ = ("id", "level", "tokens", "attrs", "low", "line", "order", "overlap")

    def __init__(self, id: str, level: _Level, tokens: tuple[int, ...], attrs: dict[str, str],
                 line: int | None, order: int, overlap: bool) -> None:
        self.id = id
        self.level = level
        self.tokens = tokens
        self.attrs = attrs
        self.low = {k.lower(): v for k, v in attrs.items()}
        self.line = line
        self.order = order
        self.overlap = overlap


class _Record:
    """A mention-level markable as the level map reads it."""

    __slots__ = ("markable", "sets", "nonref", "identity", "splits", "bridges", "dd",
                 "min_tokens", "head", "kept", "mention")

    def __init__(self, markable: _Markable) -> None:
        self.markable = markable
        self.sets: list[str] = []
        self.nonref: str | None = None
        self.identity: list[_Markable] = []
        self.splits: list[_Markable] = []
        self.bridges: list[tuple[list[_Markable], str | None]] = []
        self.dd: list[_Markable] = []
        self.min_tokens: tuple[int, ...] | None = None
        self.head: int | None = None
        self.kept: dict[str, str] = {}
        self.mention: Mention | None = None


# ============================================================================ reading
def find_projects(directory: str) -> list[str]:
    """Every ``.mmax`` project file under ``directory`` (recursively, hidden folders skipped)."""
    found = []
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
        yield _ProjectReader(project, display, mapping, common_paths, lenient, cache).read()


class _ProjectReader:
    """Reads one project into a :class:`Document`."""

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
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            raise FormatError(
                f"the {what} {shown} does not exist", file=missing_file or self.display,
                line=missing_line, check="mmax2.missing-file") from None
        except OSError as exc:
            raise FormatError(f"cannot read the {what} ({exc.strerror})", file=shown,
                              check="mmax2.missing-file") from None
        parser = _parser(self.lenient)
        try:
            root = etree.fromstring(data, parser)
        except etree.XMLSyntaxError as exc:
            line, column = exc.position if exc.position else (exc.lineno, None)
            message = re.sub(r",? line \d+, column \d+$", "", exc.msg or str(exc))
            raise FormatError(f"malformed XML in the {what}: {message}", file=shown,
                              line=line, column=column, check="mmax2.xml-syntax") from None
        if root is None:
            raise FormatError(f"the {what} holds no XML element", file=shown,
                              check="mmax2.xml-syntax")
        errors = [e for e in parser.error_log if e.level >= etree.ErrorLevels.ERROR]
        if self.lenient and errors:
            first = errors[0]
            self.repair("mmax2.xml-syntax",
                        f"malformed XML in the {what} ({first.message}); read what the parser "
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

    # ------------------------------------------------------------------ the project
    def read(self) -> Document:
        root = self.parse(self.path, "project file")
        if _local(root.tag) != "mmax_project":
            raise FormatError(
                f"the root element is <{_local(root.tag)}>, expected <mmax_project>: "
                "not an MMAX2 project file", file=self.display, line=root.sourceline,
                check="mmax2.not-a-project")
        words = _child(root, "words")
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

    def locate(self, words_name: str, words_line: int | None,
               project_root: Any) -> tuple[str, list[_Level]]:
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
            el = _child(root, tag)
            paths[tag] = self.resolve_dir(el.text if el is not None else "")
        words_path = os.path.join(paths["basedata_path"], words_name)
        annotations = _child(root, "annotations")
        source, source_file = (annotations, shown)
        if annotations is None:  # old projects list their levels in the .mmax file
            source, source_file = (_child(project_root, "annotations"), self.display)
        levels = []
        seen: set[str] = set()
        for el in (source if source is not None else ()):
            if _local(el.tag) != "level":
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
            levels.append(_Level(name, path, scheme_path, source_file, el.sourceline))
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

    def assumed_paths(self, words_name: str, words_line: int | None) -> tuple[str, list[_Level]]:
        """The MMAX2 convention, when no common paths file exists anywhere."""
        words_path = os.path.join(self.dir, "Basedata", words_name)
        if not os.path.isfile(words_path) and os.path.isfile(os.path.join(self.dir, words_name)):
            words_path = os.path.join(self.dir, words_name)
        levels = []
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
                    levels.append(_Level(level, os.path.join(folder, name), scheme,
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

    def resolve_span(self, span: str) -> tuple[tuple[int, ...], bool]:
        """Token indices of a span (sorted union of its fragments) and whether fragments overlap."""
        if "," not in span:
            a, b = self.fragment(span)
            return tuple(range(a, b + 1)), False
        covered: set[int] = set()
        total = 0
        for piece in span.split(","):
            a, b = self.fragment(piece)
            total += b - a + 1
            covered.update(range(a, b + 1))
        tokens = tuple(sorted(covered))
        return tokens, total > len(tokens)

    def fragment(self, text: str) -> tuple[int, int]:
        text = text.strip()
        if not text:
            raise _SpanError("empty span fragment")
        index = self.word_index
        if ".." in text:
            first, _, last = text.partition("..")
            first, last = first.strip(), last.strip()
        else:
            first = last = text
        a = index.get(first)
        if a is None:
            raise _SpanError(f"unknown word id {first!r} in span fragment {text!r}")
        b = a if last is first else index.get(last)
        if b is None:
            raise _SpanError(f"unknown word id {last!r} in span fragment {text!r}")
        if b < a:
            raise _SpanError(f"span fragment {text!r} ends before it starts")
        return a, b

    # ------------------------------------------------------------------ levels
    def read_level(self, level: _Level) -> None:
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
                tokens, overlap = self.resolve_span(span)
            except _SpanError as exc:
                level.skipped.add(mid)
                self.reject("mmax2.bad-span", f"markable {mid}: {exc}", shown, line)
                continue
            markable = _Markable(mid, level, tokens, attrs, line, order, overlap)
            level.by_id[mid] = markable
            level.markables.append(markable)

    def read_scheme(self, path: str) -> _Scheme | None:
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
            attributes.append(_SchemeAttribute(
                name, el.get("id") or name, (el.get("type") or "freetext").strip().lower(),
                values, el.get("target_domain")))
        scheme = _Scheme(attributes)
        self.cache[key] = scheme
        return scheme

    def classify_levels(self, levels: list[_Level]) -> None:
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
    def build_sentences(self, level: _Level | None) -> None:
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

    def span_text(self, tokens: tuple[int, ...]) -> str:
        ids = self.word_ids
        runs = []
        for t in tokens:
            if runs and runs[-1][1] + 1 == t:
                runs[-1][1] = t
            else:
                runs.append([t, t])
        return ",".join(ids[a] if a == b else f"{ids[a]}..{ids[b]}" for a, b in runs)

    # ------------------------------------------------------------------ markables
    def targets(self, mk: _Markable, name: str, value: str) -> list[_Markable] | None:
        """The markables a pointer value names; None when a dangling pointer rejected ``mk``."""
        found = []
        levels = self.levels_by_name
        for piece in value.split(";"):
            piece = piece.strip()
            if not piece or piece.lower() in NO_VALUE:
                continue
            level_name, sep, mid = piece.partition(":")
            if sep:
                level = levels.get(level_name) or levels.get(level_name.lower())
            else:
                level, mid = mk.level, piece
            if level is not None and mid in level.skipped:
                self.repair("mmax2.pointer-to-skipped",
                            f"markable {mk.id}: {name} points to {piece}, which was skipped; "
                            "that target is left out", mk.level.shown, mk.line,
                            action="dropped")
                continue
            target = level.by_id.get(mid) if level is not None else None
            if target is None:
                where = f"level {level.name!r}" if level is not None else "any level"
                self.reject("mmax2.dangling-pointer",
                            f"markable {mk.id}: {name}={value!r} points to {piece}, which is not "
                            f"a markable of {where}", mk.level.shown, mk.line)
                return None
            found.append(target)
        return found

    def interpret(self, mk: _Markable) -> _Record | None:
        """Read one mention-level markable through the level map (None: skipped)."""
        m = self.map
        level = mk.level
        low = mk.low
        rec = _Record(mk)
        if level.pointer_names.isdisjoint(low) and m.interpreted.isdisjoint(low):
            # the common case: at most a set attribute, everything else is kept
            for name in level.set_names:
                if name in low:
                    value = low[name].strip()
                    if value.lower() not in NO_VALUE:
                        rec.sets.append(value)
            rec.kept = {k: v for k, v in mk.attrs.items() if k.lower() not in level.set_names}
            self.check_scheme(mk)
            return rec
        key_of = {k.lower(): k for k in mk.attrs}
        consumed: set[str] = set()
        shown = level.shown

        def take(*names: str) -> None:
            consumed.update(n for n in names if n)

        for name in level.set_names:
            if name in low:
                take(name)
                value = low[name].strip()
                if value.lower() not in NO_VALUE:
                    rec.sets.append(value)
        for rule in m.non_referring:
            if rule.applies(low):
                take(rule.attribute, *(n for n, _ in rule.when))
                kind = ""
                if rule.kind:
                    take(rule.kind)
                    kind = low.get(rule.kind, "").strip()
                rec.nonref = kind if kind and kind.lower() not in NO_VALUE else "unknown"
                break

        def pointer(rule: PointerRule, *, other_levels: bool = False) -> list[_Markable] | None:
            """Targets of a rule that applies (empty: it does not); None: markable rejected."""
            value = low.get(rule.attribute, "").strip()
            if value.lower() in NO_VALUE or not rule.applies(low):
                return []
            found = self.targets(mk, key_of[rule.attribute], value)
            if found is None:
                return None
            if not other_levels and any(t.level.role != "mention"
                                        and t.level.name.lower() not in self.segment_levels
                                        for t in found):
                # the model cannot hold a relation to a non-mention: keep the attribute as is
                self.once("mmax2.pointer-to-other-level", rule.attribute,
                          f"{key_of[rule.attribute]} points to markables that are not mentions "
                          f"(e.g. markable {mk.id}: {value}); kept as an attribute", shown,
                          mk.line)
                return []
            take(rule.attribute, *(n for n, _ in rule.when))
            return found

        for rule in m.identity_pointers:
            found = pointer(rule)
            if found is None:
                return None
            rec.identity.extend(found)
        for rule in m.split_antecedents:
            found = pointer(rule)
            if found is None:
                return None
            rec.splits.extend(found)
        for rule in m.bridging:
            found = pointer(rule)
            if found is None:
                return None
            if found:
                relation = None
                if rule.relation:
                    take(rule.relation)
                    relation = low.get(rule.relation, "").strip() or None
                    if relation is not None and relation.lower() in NO_VALUE:
                        relation = None
                rec.bridges.append((found, relation))
        for rule in m.discourse_deixis:
            found = pointer(rule, other_levels=True)
            if found is None:
                return None
            rec.dd.extend(found)
        for name in m.min_span:
            if name in low:
                take(name)
                value = low[name].strip()
                if value.lower() in NO_VALUE:
                    continue
                try:
                    tokens, _ = self.resolve_span(value)
                except _SpanError as exc:
                    self.repair("mmax2.bad-min-span", f"markable {mk.id}: {key_of[name]}: {exc}; "
                                "min span left out", shown, mk.line, action="dropped")
                    continue
                if not set(tokens) <= set(mk.tokens):
                    self.repair("mmax2.min-outside-span",
                                f"markable {mk.id}: {key_of[name]}={value!r} is not inside the "
                                "markable; min span left out", shown, mk.line, action="dropped")
                    continue
                rec.min_tokens = tokens
                break
        for name in m.head:
            if name in low:
                take(name)
                value = low[name].strip()
                if value.lower() in NO_VALUE:
                    continue
                head = self.word_index.get(value)
                if head is None or head not in mk.tokens:
                    self.repair("mmax2.bad-head",
                                f"markable {mk.id}: {key_of[name]}={value!r} is not one word of "
                                "the markable; head left out", shown, mk.line, action="dropped")
                    continue
                rec.head = head
                break
        # pointers nobody interprets stay attributes; their targets must still exist
        rule_pointers = m.rule_pointers
        for name in level.pointer_names:
            if name in low and name not in consumed:
                value = low[name].strip()
                if value.lower() in NO_VALUE:
                    continue
                if self.targets(mk, key_of[name], value) is None:
                    return None
                self.kept_pointers.add(name)
                if name not in rule_pointers:
                    self.once("mmax2.unknown-pointer", name,
                              f"pointer attribute {key_of[name]!r} is not in the level map "
                              f"{m.name!r}; kept as a mention attribute", shown, mk.line)
        rec.kept = {k: v for k, v in mk.attrs.items() if k.lower() not in consumed}
        self.check_scheme(mk)
        return rec

    def check_scheme(self, mk: _Markable) -> None:
        """Values the scheme does not list, attributes its ``next`` links do not enable."""
        scheme = mk.level.scheme
        if scheme is None:
            return
        # markables repeat a few value combinations: judge each combination once (set and
        # pointer values count only as filled or empty)
        linked = scheme.linked
        key = tuple([(name, value.strip().lower() not in NO_VALUE) if name in linked
                     else (name, value) for name, value in mk.low.items()])
        verdict = scheme.verdicts.get(key)
        if verdict is None:
            verdict = scheme.verdicts[key] = self.judge(scheme, mk.low)
        unknown, disabled = verdict
        for name, v in unknown:
            count, first = self.not_in_scheme.get((mk.level.name, name, v), (0, mk))
            self.not_in_scheme[(mk.level.name, name, v)] = (count + 1, first)
        for name, attr_name in disabled:
            self.repair(
                "mmax2.attribute-not-enabled",
                f"markable {mk.id}: {name}={mk.low[name]!r} although the scheme makes "
                f"{attr_name} depend on values this markable does not have; kept",
                mk.level.shown, mk.line)

    @staticmethod
    def judge(scheme: _Scheme, low: dict[str, str]) -> tuple[list[tuple[str, str]],
                                                             list[tuple[str, str]]]:
        unknown = []
        for name, value in low.items():
            attr = scheme.attributes.get(name)
            if attr is None or attr.type not in NOMINAL_TYPES:
                continue
            v = value.strip().lower()
            if v and v not in attr.values:
                unknown.append((name, v))
        disabled = []
        if scheme.dependent:
            enabled = scheme.enabled(low)
            for name, value in low.items():
                attr = scheme.attributes.get(name)
                if (attr is not None and attr.id in scheme.dependent and attr.id not in enabled
                        and value.strip().lower() not in NO_VALUE | {"none"}):
                    disabled.append((name, attr.name))
        return unknown, disabled

    def build_mentions(self, levels: list[_Level], mention_levels: list[_Level]) -> None:
        doc = self.doc
        self.levels_by_name = {lv.name: lv for lv in levels}
        self.levels_by_name.update({lv.name.lower(): lv for lv in levels
                                    if lv.name.lower() not in self.levels_by_name})
        self.kept_pointers: set[str] = set()
        self.not_in_scheme: dict[tuple[str, str, str], tuple[int, _Markable]] = {}
        self.segment_levels = {r.segment_level.lower() for r in self.map.discourse_deixis
                               if r.segment_level}
        level_rank = {lv.name: i for i, lv in enumerate(levels)}
        records: dict[_Markable, _Record] = {}
        for level in mention_levels:
            for mk in level.markables:
                rec = self.interpret(mk)
                if rec is not None:
                    records[mk] = rec
        for (level_name, attr, value), (count, first) in sorted(
                self.not_in_scheme.items(), key=lambda x: (x[0][0], x[0][1], x[0][2])):
            self.repair("mmax2.value-not-in-scheme",
                        f"level {level_name!r}: {attr}={value!r} is not a value of the scheme "
                        f"({count} markable(s), first {first.id}); kept",
                        first.level.shown, first.line)
        # Discourse-deixis segments on levels that are not mention levels become mentions:
        # every markable of a level the map names as the segment level (so that a segment
        # nothing points to, a one-mention DD entity, survives a round trip), and the
        # markables that DD pointers name on other levels.
        segments: set[_Markable] = set()
        for level in levels:
            if level.role == "opaque" and level.name.lower() in self.segment_levels:
                segments.update(level.markables)
        for rec in list(records.values()):
            segments.update(t for t in rec.dd if t.level.role != "mention")
        for target in sorted(segments - records.keys(), key=lambda mk: (mk.level.name, mk.order)):
            segment = self.interpret(target)
            if segment is not None:
                records[target] = segment
        self.report_spans(records)

        # identity and discourse-deixis chains: union-find over markables
        parent = {mk: mk for mk in records}

        def find(x: _Markable) -> _Markable:
            while parent[x] is not x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def union(a: _Markable, b: _Markable) -> None:
            ra, rb = find(a), find(b)
            if ra is not rb:
                parent[rb] = ra

        nonref = {mk for mk, rec in records.items() if rec.nonref is not None}
        set_members: dict[tuple[str, str], list[_Markable]] = {}
        for mk, rec in records.items():
            for value in rec.sets:
                set_members.setdefault((mk.level.name, value), []).append(mk)
        for (level_name, value), members in set_members.items():
            referring = [mk for mk in members if mk not in nonref]
            for mk in members:
                if mk in nonref and len(members) > 1:
                    self.repair("mmax2.nonref-in-set",
                                f"markable {mk.id} is non-referring but in set {value!r} with "
                                f"{len(members) - 1} other markable(s); left out of the set",
                                mk.level.shown, mk.line)
            for mk in referring[1:]:
                union(referring[0], mk)
        dd_marked: set[_Markable] = segments & records.keys()
        for mk, rec in records.items():
            for kind, found in (("identity", rec.identity), ("discourse-deixis", rec.dd)):
                for target in found:
                    if target not in records:
                        continue
                    if mk in nonref or target in nonref:
                        self.repair("mmax2.nonref-pointer",
                                    f"markable {mk.id}: {kind} pointer between a non-referring "
                                    f"markable and {target.id}; left out",
                                    mk.level.shown, mk.line, action="dropped")
                        continue
                    union(mk, target)
                    if kind == "discourse-deixis":
                        dd_marked.add(mk)
                        dd_marked.add(target)
        # a chain that holds a discourse-deixis anaphor or segment is a DD entity, as in the
        # UA formats, where the pronouns continuing a DD chain are in the DD column
        dd_roots = {find(mk) for mk in dd_marked}

        # mentions in document order, entities numbered by their first mention
        ordered = sorted(records, key=lambda mk: (mk.tokens[0] if mk.tokens else -1,
                                                  -(mk.tokens[-1] if mk.tokens else -1),
                                                  level_rank.get(mk.level.name, 0), mk.order))
        entities: dict[_Markable, Entity] = {}
        set_of_root: dict[_Markable, str] = {}
        for mk in ordered:
            rec = records[mk]
            if rec.sets and mk not in nonref:
                set_of_root.setdefault(find(mk), rec.sets[0])
        for mk in ordered:
            rec = records[mk]
            root = find(mk)
            layer = DISCOURSE_DEIXIS if root in dd_roots else IDENTITY
            attrs = {"markable_id": mk.id, "mmax_level": mk.level.name}
            attrs.update(rec.kept)
            entity = None
            if mk not in nonref:
                entity = entities.get(root)
                if entity is None:
                    original = set_of_root.get(root)
                    entity = doc.new_entity(layer=layer,
                                            attrs={"original_id": original} if original else None)
                    entities[root] = entity
            tokens = mk.tokens
            if tokens[-1] - tokens[0] + 1 == len(tokens):
                tokens = range(tokens[0], tokens[-1] + 1)  # add_mention's fast path
            rec.mention = doc.add_mention(
                tokens, entity, layer=layer, nonref=rec.nonref if mk in nonref else None,
                min_tokens=rec.min_tokens, head=rec.head, attrs=attrs, line=mk.line)

        # split antecedents and bridging, from the anaphor's markable
        for mk in ordered:
            rec = records[mk]
            anaphor = rec.mention
            shown = mk.level.shown
            if rec.splits:
                set_entity = self.stand_in(anaphor)
                for target in rec.splits:
                    antecedent = self.mention_of(records, target, mk, "split antecedent")
                    if antecedent is None:
                        continue
                    member = self.stand_in(antecedent)
                    if member is set_entity:
                        self.repair("mmax2.split-self",
                                    f"markable {mk.id}: split antecedent {target.id} is in the "
                                    "anaphor's own chain (a set cannot contain itself); left out",
                                    shown, mk.line, action="dropped")
                        continue
                    doc.add_to_set(member, set_entity, evidence=(anaphor, antecedent))
            for found, relation in rec.bridges:
                for target in found:
                    anchor = self.mention_of(records, target, mk, "bridging anchor")
                    if anchor is None:
                        continue
                    doc.add_bridging(anaphor, self.stand_in(anchor), relation=relation,
                                     anchor_mention=anchor)

        # levels nobody interprets are kept whole, for the writer
        opaque: dict[str, list[tuple[str, tuple[int, ...], dict[str, str]]]] = {}
        for level in levels:
            if level.role != "opaque":
                continue
            kept = [(mk.id, mk.tokens, dict(mk.attrs)) for mk in level.markables
                    if mk not in records]
            if kept:
                opaque[level.name] = kept
            for name in level.pointer_names:
                if any(name in mk.low for mk in level.markables):
                    self.kept_pointers.add(name)
        if opaque:
            doc.attrs["opaque_levels"] = opaque
        if self.kept_pointers:
            doc.attrs["mmax_pointers"] = sorted(self.kept_pointers)

    def mention_of(self, records: dict[_Markable, _Record], target: _Markable, mk: _Markable,
                   what: str) -> Mention | None:
        rec = records.get(target)
        if rec is None or rec.mention is None:
            self.repair("mmax2.pointer-to-skipped",
                        f"markable {mk.id}: {what} {target.id} is not a mention; left out",
                        mk.level.shown, mk.line, action="dropped")
            return None
        return rec.mention

    def stand_in(self, mention: Mention) -> Entity:
        """The mention's entity; a non-referring mention in a relation gets a pseudo entity."""
        entity = self.doc.entity_of(mention)
        if entity is None:
            entity = self.doc.new_entity(layer=mention.layer, pseudo=True)
            self.doc.set_entity(mention, entity)
        return entity

    def report_spans(self, records: dict[_Markable, _Record]) -> None:
        """Warnings about spans: overlapping fragments, far fragments, repeated spans."""
        tokens = self.doc.tokens
        seen: dict[tuple[str, tuple[int, ...]], _Markable] = {}
        for mk in sorted(records, key=lambda x: (x.level.name, x.order)):
            shown = mk.level.shown
            if mk.overlap:
                self.repair("mmax2.overlapping-fragments",
                            f"markable {mk.id}: span fragments overlap; read as their union "
                            f"{self.span_text(mk.tokens)}", shown, mk.line, action="repaired")
            if mk.tokens and mk.tokens[-1] - mk.tokens[0] + 1 != len(mk.tokens):
                parts = {tokens[a].sentence for a in (mk.tokens[0], mk.tokens[-1])}
                if len(parts) > 1:
                    self.repair("mmax2.far-fragments",
                                f"markable {mk.id}: the parts of the discontinuous span "
                                f"{self.span_text(mk.tokens)} lie in different sentences; kept",
                                shown, mk.line)
            key = (mk.level.name, mk.tokens)
            other = seen.get(key)
            if other is not None:
                self.repair("mmax2.same-span",
                            f"markables {other.id} and {mk.id} have the same span "
                            f"{self.span_text(mk.tokens)}; kept both", shown, mk.line)
            else:
                seen[key] = mk


# ============================================================================ writing
def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    actions = {
        "zeros": "dropped (empty nodes are not MMAX2 words)",
        "unlinked_mentions": "approximated (written without a set: read back as singletons)",
    }
    if options.get("heads"):
        actions["heads"] = "moved (to a head attribute of the level map)"
    return actions


def partial_losses(doc: Document, *, level_map: str | LevelMap | None = None,
                   heads: bool = False) -> list[LossRecord]:
    """What the level map chosen for writing has no attribute for (checked before writing)."""
    m = load_level_map(level_map)
    lacking = {
        "non_referring": not m.non_referring,
        "bridging": not m.bridging,
        "split_antecedents": not m.split_antecedents,
        "discourse_deixis": not m.discourse_deixis,
        "min_spans": not m.min_span,
        "heads": heads and not m.head,
    }
    missing = {feature for feature, lacks in lacking.items() if lacks}
    if not missing:
        return []
    action = f"dropped (the level map {m.name!r} has no attribute for them)"
    return find_losses(doc, set(FEATURES) - missing, {f: action for f in missing})


def replaceable_output(directory: str) -> bool:
    """True if ``directory`` holds only an MMAX2 output that corefkit wrote (safe to replace)."""
    try:
        names = os.listdir(directory)
        with open(os.path.join(directory, "common_paths.xml"), encoding="utf-8") as handle:
            marked = WRITER_MARK in handle.read(4096)
    except OSError:
        return False
    return marked and all(n in OWN_ENTRIES or n.lower().endswith(".mmax") for n in names)


def write_path(
    documents: Iterable[Document],
    directory: str,
    report: ConversionReport,
    *,
    level_map: str | LevelMap | None = None,
    heads: bool = False,
) -> None:
    """Write documents as MMAX2 projects sharing one directory and one ``common_paths.xml``.

    ``level_map`` chooses the attribute names (the first rule of each kind); ``heads``
    writes mention heads into the map's head attribute.
    """
    writer = _ProjectWriter(directory, load_level_map(level_map), report, heads)
    for doc in documents:
        writer.document(doc)
    writer.finish()


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                          "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
_INVALID_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_SPECIAL_RE = re.compile('[&<>"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def _escape(text: str) -> str:
    """Text for an XML attribute value or element content (characters XML 1.0 cannot hold
    become U+FFFD)."""
    if _SPECIAL_RE.search(text) is None:  # nearly always: one regex scan, no copy
        return text
    if _INVALID_XML_RE.search(text):
        text = _INVALID_XML_RE.sub("\ufffd", text)
    return text.translate(_ESCAPES)


@dataclass
class _SchemeEntry:
    type: str
    values: set[str]
    targets: set[str]


class _Kept:
    """A markable of an uninterpreted level, on its way back into a file."""

    __slots__ = ("id", "level", "words", "attrs")

    def __init__(self, id: str, level: str, words: tuple[int, ...], attrs: dict[str, Any]) -> None:
        self.id = id
        self.level = level
        self.words = words
        self.attrs = attrs


def _renumber(value: str, old_level: str, level: str,
              remap: dict[tuple[str, str], tuple[str, str]]) -> str:
    """A kept pointer value with its markable ids renumbered (unknown targets left as they were)."""
    out = []
    for piece in value.split(";"):
        piece = piece.strip()
        if not piece:
            continue
        target_level, sep, mid = piece.partition(":")
        found = remap.get((target_level.lower(), mid) if sep else (old_level.lower(), piece))
        if found is None:
            out.append(piece)
        else:
            out.append(found[1] if found[0] == level else f"{found[0]}:{found[1]}")
    return ";".join(out)


class _ProjectWriter:
    """Accumulates projects in one directory; the shared files are written by ``finish``."""

    def __init__(self, directory: str, level_map: LevelMap, report: ConversionReport,
                 heads: bool) -> None:
        m = level_map
        if not m.set_attributes and not m.identity_pointers:
            raise UsageError(f"the level map {m.name!r} names no set attribute and no identity "
                             "pointer, so it cannot be used to write coreference")
        self.dir = directory
        self.map = m
        self.report = report
        self.heads = heads
        self.coref_level = m.mention_levels[0] if m.mention_levels else "coref"
        self.mention_levels = set(m.mention_levels) or {self.coref_level}
        self.sentence_level = m.sentence_levels[0] if m.sentence_levels else "sentence"
        dd = m.discourse_deixis[0] if m.discourse_deixis else None
        self.segment_level = (dd.segment_level if dd and dd.segment_level else "segment")
        self.bases: set[str] = set()
        self.files: dict[str, set[str]] = {}               # level -> bases that have its file
        self.level_order: list[str] = [self.coref_level, self.sentence_level]
        self.schemes: dict[str, dict[str, _SchemeEntry]] = {}
        self.renamed_attrs: set[str] = set()
        for sub in ("Basedata", "Markables", "Schemes", "Customizations", "Styles"):
            os.makedirs(os.path.join(directory, sub), exist_ok=True)

    # ------------------------------------------------------------------ helpers
    def repair(self, doc: Document, check: str, message: str, action: str = "kept") -> None:
        self.report.repairs.append(Repair(check, message, document=doc.name, action=action))

    def loss(self, doc: Document, feature: str, examples: list[str], action: str) -> None:
        if examples:
            self.report.losses.append(LossRecord(feature, len(examples), action, examples[:5],
                                                 doc.name))

    def declare(self, level: str, name: str, kind: str, value: str | None = None,
                target: str | None = None) -> None:
        entry = self.schemes.setdefault(level, {}).get(name)
        if entry is None:
            entry = _SchemeEntry(kind, set(), set())
            self.schemes[level][name] = entry
        elif kind != "plain" and entry.type == "plain":
            entry.type = kind
        if value is not None and entry.type == "plain":
            entry.values.add(value)
        if target is not None:
            entry.targets.add(target)

    def project_name(self, doc: Document) -> str:
        name = doc.id
        _, part = doc.pair_key()
        if part != "0":
            name = f"{name}_part_{part}"
        safe = PROJECT_NAME_RE.sub("_", name).lstrip(".") or "document"
        unique = safe
        k = 2
        while unique.lower() in self.bases:
            unique = f"{safe}-{k}"
            k += 1
        self.bases.add(unique.lower())
        return unique

    def write_file(self, relative: str, text: str) -> None:
        with open(os.path.join(self.dir, relative), "w", encoding="utf-8", newline="\n") as out:
            out.write(text)

    def text_attributes(self, doc: Document, attrs: dict[str, Any],
                        skip: frozenset[str]) -> list[tuple[str, str]]:
        """Attributes as (lower-case XML name, text), leaving out ids and bookkeeping."""
        found = []
        for key, value in attrs.items():
            if key in skip or key in ID_ATTRIBUTES or key.startswith("_"):
                continue
            if isinstance(value, bool) or not isinstance(value, (str, int, float)):
                if key not in self.renamed_attrs:
                    self.renamed_attrs.add(key)
                    self.repair(doc, "mmax2.attribute-not-text",
                                f"attribute {key!r} holds a {type(value).__name__}, not text; "
                                "not written", action="dropped")
                continue
            name = key.lower()
            if not XML_NAME_RE.match(name):
                name = re.sub(r"[^a-z0-9_.-]", "_", name)
                if not re.match(r"[a-z_]", name):
                    name = f"_{name}"
            if name != key and key not in self.renamed_attrs:
                self.renamed_attrs.add(key)
                self.repair(doc, "mmax2.attribute-renamed",
                            f"attribute {key!r} written as {name!r} (MMAX2 attribute names are "
                            "lower-case XML names)", action="renamed")
            found.append((name, str(value)))
        return found

    # ------------------------------------------------------------------ one document
    def document(self, doc: Document) -> None:
        base = self.project_name(doc)
        word_ids = self.write_words(doc, base)
        self.word_ids = word_ids
        written, level_of, segments = self.placement(doc)

        # markable ids per level: mentions and kept markables, in position order
        entries: dict[str, list[tuple[tuple[int, int, int, int], Mention | _Kept]]] = {}
        for order, (mention, words) in enumerate(written.items()):
            entries.setdefault(level_of[mention], []).append(
                ((words[0], -words[-1], 1, order), mention))
        for level, markables in (doc.attrs.get("opaque_levels") or {}).items():
            for order, (mid, tokens, attrs) in enumerate(markables):
                words = self.positions(tokens)
                if words:
                    entries.setdefault(level, []).append(
                        ((words[0], -words[-1], 0, order), _Kept(str(mid), level, words, attrs)))
        new_id: dict[Mention | _Kept, str] = {}
        remap: dict[tuple[str, str], tuple[str, str]] = {}   # (old level, old id) -> new
        for level, items in entries.items():
            items.sort(key=lambda e: e[0])
            for n, (_, item) in enumerate(items, 1):
                new_id[item] = f"markable_{n}"
                if isinstance(item, Mention):
                    old_level = str(item.attrs.get("mmax_level", "") or "")
                    old_id = item.attrs.get("markable_id")
                else:
                    old_level, old_id = item.level, item.id
                if old_id is not None:
                    remap[(old_level.lower(), str(old_id))] = (level, f"markable_{n}")

        def ref(target: Mention, source_level: str) -> str:
            level = level_of[target]
            return new_id[target] if level == source_level else f"{level}:{new_id[target]}"

        generated = self.relations(doc, written, level_of, segments, ref)
        pointer_names = set(doc.attrs.get("mmax_pointers") or ())
        for level, items in entries.items():
            lines = [self.markables_head(level)]
            for _, item in items:
                if isinstance(item, Mention):
                    words = written[item]
                    old_level = str(item.attrs.get("mmax_level", "") or level)
                    attrs = dict(self.text_attributes(doc, item.attrs, BOOKKEEPING))
                    extra = generated.get(item, {})
                else:
                    words, old_level = item.words, item.level
                    attrs = dict(self.text_attributes(doc, item.attrs, BOOKKEEPING))
                    extra = {}
                for name in list(attrs):
                    if name in pointer_names:
                        attrs[name] = _renumber(attrs[name], old_level, level, remap)
                        self.declare(level, name, POINTER_TYPE)
                    elif name not in extra:
                        self.declare(level, name, "plain", attrs[name])
                for name, (value, kind) in extra.items():
                    attrs[name] = value
                    self.declare(level, name, kind, value)
                parts = [f'<markable id="{new_id[item]}" span="{self.span(words)}" '
                         f'mmax_level="{_escape(level)}"']
                parts.extend(f' {name}="{_escape(attrs[name])}"' for name in sorted(attrs))
                parts.append("/>")
                lines.append("".join(parts))
            lines.append("</markables>\n")
            self.write_file(os.path.join("Markables", f"{base}_{level}_level.xml"),
                            "\n".join(lines))
            self.used(level, base)

        # the sentence level, from the document's sentences
        lines = [self.markables_head(self.sentence_level)]
        n = 0
        for sentence in doc.sentences:
            words = self.positions(range(sentence.start, sentence.stop))
            if not words:
                continue
            n += 1
            attrs = dict(self.text_attributes(doc, sentence.attrs, BOOKKEEPING))
            for name, value in attrs.items():
                self.declare(self.sentence_level, name, "plain", value)
            extra = "".join(f' {k}="{_escape(attrs[k])}"' for k in sorted(attrs))
            lines.append(f'<markable id="markable_{n}" span="{self.span(words)}" '
                         f'mmax_level="{_escape(self.sentence_level)}"{extra}/>')
        lines.append("</markables>\n")
        self.write_file(os.path.join("Markables", f"{base}_{self.sentence_level}_level.xml"),
                        "\n".join(lines))
        self.used(self.sentence_level, base)
        # MMAX2 names a project after its file; a document whose name is no file name (or
        # that has a CoNLL-2012 part) keeps its name and part in attributes MMAX2 ignores
        named = f' document="{_escape(doc.id)}"' if base != doc.id or doc.part is not None else ""
        if doc.part is not None:
            named += f' part="{_escape(doc.part)}"'
        self.write_file(f"{base}.mmax",
                        f'<?xml version="1.0" encoding="UTF-8"?>\n<mmax_project{named}>\n'
                        f"<words>{_escape(base)}_words.xml</words>\n<turns></turns>\n"
                        "<gestures></gestures>\n<keyactions></keyactions>\n</mmax_project>\n")
        renumbered = {f"{old_level}:{old}": f"{level}:{new}"
                      for (old_level, old), (level, new) in sorted(remap.items())
                      if (old_level, old) != (level, new)}
        if renumbered:
            self.report.id_maps[doc.name] = renumbered

    def placement(self, doc: Document) -> tuple[dict[Mention, tuple[int, ...]], dict[Mention, str],
                                                 dict[Entity, list[Mention]]]:
        """The mentions written (with their word positions), each one's level, and the
        segments of each discourse-deixis entity."""
        m = self.map
        written: dict[Mention, tuple[int, ...]] = {}
        for mention in doc.sorted_mentions():
            words = self.positions(mention.tokens)
            if words:  # zero mentions have no words (the loss report counts them)
                written[mention] = words
        level_of: dict[Mention, str] = {}
        for mention in written:
            source = str(mention.attrs.get("mmax_level", "") or "").lower()
            level_of[mention] = source if source in self.mention_levels else self.coref_level
        segments: dict[Entity, list[Mention]] = {}
        lost = []
        # the levels the document's mentions came from (when it was read from MMAX2)
        source_levels = {str(mn.attrs.get("mmax_level", "") or "").lower()
                         for mn in written if mn.layer == IDENTITY} | self.mention_levels | {""}
        for entity in doc.entities_in(DISCOURSE_DEIXIS, pseudo=True):
            members = [mn for mn in doc.mentions_of(entity) if mn in written]
            if not members:
                continue
            if not m.discourse_deixis:  # reported by partial_losses
                lost.extend(members)
                continue
            # segments: the mentions that came from a non-mention level, else the first one
            chosen = [mn for mn in members
                      if str(mn.attrs.get("mmax_level", "") or "").lower() not in source_levels]
            segments[entity] = chosen or members[:1]
            for mn in segments[entity]:
                level_of[mn] = str(mn.attrs.get("mmax_level", "") or "") or self.segment_level
        if not m.non_referring:  # reported by partial_losses
            lost.extend(mn for mn in written if mn.nonref is not None)
        for mn in lost:
            written.pop(mn, None)
        return written, level_of, segments

    def markables_head(self, level: str) -> str:
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<!DOCTYPE markables SYSTEM "markables.dtd">\n'
                f'<markables xmlns="www.eml.org/NameSpaces/{_escape(level)}">')

    def span(self, words: tuple[int, ...]) -> str:
        """MMAX2 span syntax for word positions: maximal runs ``a..b`` joined by commas."""
        ids = self.word_ids
        runs: list[list[int]] = []
        for w in words:
            if runs and runs[-1][1] + 1 == w:
                runs[-1][1] = w
            else:
                runs.append([w, w])
        return ",".join(ids[a] if a == b else f"{ids[a]}..{ids[b]}" for a, b in runs)

    def used(self, level: str, base: str) -> None:
        self.files.setdefault(level, set()).add(base)
        if level not in self.level_order:
            self.level_order.append(level)

    def write_words(self, doc: Document, base: str) -> list[str]:
        """The words file; returns the word ids (one per written token)."""
        written = [t.index for t in doc.tokens if not t.is_empty]
        self.position = {t: i for i, t in enumerate(written)}
        kept = doc.attrs.get("mmax_word_ids")
        if (isinstance(kept, list) and len(kept) == len(written) and len(set(kept)) == len(kept)
                and all(isinstance(w, str) and w for w in kept)):
            ids = list(kept)
            shown = [_escape(w) for w in ids]
        else:
            ids = shown = [f"word_{i}" for i in range(1, len(written) + 1)]
        lines = ['<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE words SYSTEM "words.dtd">\n'
                 "<words>"]
        tokens = doc.tokens
        forms = [tokens[index].form for index in written]
        if _SPECIAL_RE.search(" ".join(forms)) is not None:  # one scan instead of one per word
            forms = [_escape(form) for form in forms]
        for wid, index, form in zip(shown, written, forms):
            token = tokens[index]
            if token.attrs:
                pairs = self.text_attributes(doc, token.attrs, frozenset({"id"}))
                extra = "".join(f' {k}="{_escape(v)}"' for k, v in sorted(pairs))
                lines.append(f'<word id="{wid}"{extra}>{form}</word>')
            else:
                lines.append(f'<word id="{wid}">{form}</word>')
        lines.append("</words>\n")
        self.write_file(os.path.join("Basedata", f"{base}_words.xml"), "\n".join(lines))
        return ids

    def positions(self, tokens: Iterable[int]) -> tuple[int, ...]:
        """Word positions of token indices (empty nodes have none)."""
        position = self.position
        return tuple(position[t] for t in tokens if t in position)

    # ------------------------------------------------------------------ relations
    def relations(self, doc: Document, written: dict[Mention, tuple[int, ...]],
                  level_of: dict[Mention, str], segments: dict[Entity, list[Mention]],
                  ref: Any) -> dict[Mention, dict[str, tuple[str, str]]]:
        """The attributes the level map generates, per mention: name -> (value, scheme type)."""
        m = self.map
        out: dict[Mention, dict[str, tuple[str, str]]] = {}
        in_output = written
        rank = {mn: i for i, mn in enumerate(written)}

        def put(mention: Mention, name: str, value: str, kind: str = "plain") -> None:
            out.setdefault(mention, {})[name] = (value, kind)

        def when(mention: Mention, rule: PointerRule | NonReferringRule) -> None:
            for name, accepted in rule.when:
                put(mention, name, accepted[0])

        def closest(entity: Entity, before: Mention) -> Mention | None:
            """The entity's written mention closest before ``before``, else its first one."""
            candidates = [mn for mn in doc.mentions_of(entity) if mn in in_output]
            if not candidates:
                return None
            earlier = [mn for mn in candidates if rank[mn] < rank[before]]
            return earlier[-1] if earlier else candidates[0]

        # identity: a set per entity with two or more written mentions, or pointer chains
        set_name = m.set_attributes[0] if m.set_attributes else None
        chains: dict[Entity, list[Mention]] = {}
        for mention in written:
            entity = doc.entity_of(mention)
            if entity is not None and entity.layer == IDENTITY and not entity.pseudo:
                chains.setdefault(entity, []).append(mention)
        numbers = {}
        for entity, chain in chains.items():
            if len(chain) > 1:
                numbers[entity] = len(numbers) + 1
        for mention in written:
            entity = doc.entity_of(mention)
            if set_name is not None and level_of[mention] in self.mention_levels:
                value = f"set_{numbers[entity]}" if entity in numbers else "empty"
                put(mention, set_name, value, SET_TYPE)
        if set_name is None:
            rule = m.identity_pointers[0]
            for entity in numbers:
                chain = chains[entity]
                for previous, mention in zip(chain, chain[1:]):
                    put(mention, rule.attribute, ref(previous, level_of[mention]), POINTER_TYPE)
                    when(mention, rule)

        # non-referring markables (none are written when the map has no rule for them)
        for mention in written:
            if mention.nonref is None:
                continue
            rule = m.non_referring[0]
            put(mention, rule.attribute, rule.values[0])
            if rule.kind:
                put(mention, rule.kind, str(mention.nonref))
            when(mention, rule)

        # bridging: a pointer to the anchor mention, with the relation
        lost = []
        by_anaphor: dict[Mention, list[tuple[Mention, str | None]]] = {}
        for bridge in doc.bridging():
            if bridge.anaphor not in in_output or not m.bridging:
                continue  # a zero anaphor, or no rule (both in the registry's loss report)
            anchor = bridge.anchor_mention
            if anchor is None or anchor not in in_output:
                anchor = closest(bridge.anchor, bridge.anaphor)
            if anchor is None:
                lost.append(describe_mention(doc, bridge.anaphor))
                continue
            by_anaphor.setdefault(bridge.anaphor, []).append((anchor, bridge.relation))
        self.loss(doc, "bridging", lost, "dropped (no mention of the anchor entity is written)")
        if m.bridging:
            rule = m.bridging[0]
            for anaphor, anchors in by_anaphor.items():
                source = level_of[anaphor]
                put(anaphor, rule.attribute, ";".join(ref(a, source) for a, _ in anchors),
                    POINTER_TYPE)
                relations = list(dict.fromkeys(r for _, r in anchors if r is not None))
                if relations and not rule.relation:
                    self.repair(doc, "mmax2.bridging-relations",
                                f"{describe_mention(doc, anaphor)}: the level map's bridging rule "
                                f"has no relation attribute; relation {relations[0]!r} not "
                                "written", action="dropped")
                elif relations:
                    put(anaphor, rule.relation, relations[0])
                    if len(relations) > 1:
                        self.repair(doc, "mmax2.bridging-relations",
                                    f"{describe_mention(doc, anaphor)} has bridging relations "
                                    f"{', '.join(relations)} but MMAX2 holds one per markable; "
                                    f"wrote {relations[0]!r}", action="approximated")
                when(anaphor, rule)

        # split antecedents: on the anaphor, pointing to one mention of each member
        lost = []
        antecedents: dict[Mention, list[Mention]] = {}
        memberships = doc.memberships()
        for set_entity, members in doc.accommodated_sets().items():
            evidence = [e for ms in memberships if ms.set_entity is set_entity
                        for e in ms.evidence]
            anaphors = [e for e in dict.fromkeys(evidence)
                        if e in in_output and doc.entity_of(e) is set_entity]
            if not anaphors:
                first = [mn for mn in doc.mentions_of(set_entity) if mn in in_output]
                anaphors = first[:1]
            if not m.split_antecedents:
                continue  # reported by partial_losses
            if not anaphors:
                lost.extend(f"entity {member.id} in set {set_entity.id}" for member in members)
                continue
            for anaphor in anaphors:
                for member in members:
                    recorded = [e for ms in memberships
                                if ms.set_entity is set_entity and ms.member is member
                                for e in ms.evidence if e in in_output
                                and doc.entity_of(e) is member]
                    if recorded:
                        earlier = [e for e in recorded if rank[e] < rank[anaphor]]
                        chosen = earlier[-1] if earlier else recorded[0]
                    else:
                        chosen = closest(member, anaphor)
                    if chosen is None:
                        lost.append(f"entity {member.id} in set {set_entity.id}")
                        continue
                    targets = antecedents.setdefault(anaphor, [])
                    if chosen not in targets:
                        targets.append(chosen)
        self.loss(doc, "split_antecedents", lost,
                  "dropped (the set or the member has no written mention)")
        if m.split_antecedents:
            rule = m.split_antecedents[0]
            for anaphor, targets in antecedents.items():
                source = level_of[anaphor]
                targets.sort(key=rank.__getitem__)
                put(anaphor, rule.attribute, ";".join(ref(t, source) for t in targets),
                    POINTER_TYPE)
                when(anaphor, rule)

        # discourse deixis: every other mention of a DD entity points to its segments
        if m.discourse_deixis:
            rule = m.discourse_deixis[0]
            for entity, chosen in segments.items():
                if not chosen:
                    continue
                for mention in doc.mentions_of(entity):
                    if mention in chosen or mention not in in_output:
                        continue
                    source = level_of[mention]
                    put(mention, rule.attribute, ";".join(ref(s, source) for s in chosen),
                        POINTER_TYPE)
                    when(mention, rule)

        # min spans and heads
        if m.min_span:
            for mention in written:
                if mention.min_tokens and not mention.min_derived:
                    words = tuple(sorted(set(self.positions(mention.min_tokens))))
                    if words:
                        put(mention, m.min_span[0], self.span(words))
        if self.heads and m.head:
            for mention in written:
                if mention.head is None or mention.head_derived:
                    continue
                words = self.positions((mention.head,))
                if words:
                    put(mention, m.head[0], self.span(words))
        return out

    # ------------------------------------------------------------------ shared files
    def finish(self) -> None:
        levels = [lv for lv in self.level_order if lv in self.files or
                  lv in (self.coref_level, self.sentence_level)]
        # every project must have a file for every level listed in common_paths.xml
        for level in levels:
            have = self.files.get(level, set())
            for base in sorted(self.all_bases - have):
                self.write_file(os.path.join("Markables", f"{base}_{level}_level.xml"),
                                '<?xml version="1.0" encoding="UTF-8"?>\n'
                                '<!DOCTYPE markables SYSTEM "markables.dtd">\n'
                                f'<markables xmlns="www.eml.org/NameSpaces/{_escape(level)}">\n'
                                "</markables>\n")
        level_lines = []
        for level in levels:
            startup = ' at_startup="visible"' if level == self.sentence_level else ""
            level_lines.append(
                f'<level name="{_escape(level)}" schemefile="{_escape(level)}_scheme.xml" '
                f'customization_file="{_escape(level)}_customization.xml"{startup}>'
                f"$_{_escape(level)}_level.xml</level>")
        self.write_file("common_paths.xml",
                        '<?xml version="1.0" encoding="UTF-8"?>\n'
                        f"{WRITER_MARK}\n"
                        "<common_paths>\n"
                        "<basedata_path>Basedata/</basedata_path>\n"
                        "<scheme_path>Schemes/</scheme_path>\n"
                        "<style_path>Styles/</style_path>\n"
                        "<customization_path>Customizations/</customization_path>\n"
                        "<markable_path>Markables/</markable_path>\n"
                        "<views>\n<stylesheet>default_style.xsl</stylesheet>\n</views>\n"
                        "<annotations>\n" + "\n".join(level_lines) + "\n</annotations>\n"
                        "</common_paths>\n")
        for level in levels:
            self.write_file(os.path.join("Schemes", f"{level}_scheme.xml"), self.scheme(level))
            self.write_file(os.path.join("Customizations", f"{level}_customization.xml"),
                            '<?xml version="1.0" encoding="UTF-8"?>\n<customization>\n'
                            "</customization>\n")
        self.write_file(os.path.join("Basedata", "words.dtd"),
                        "<!ELEMENT words (word*)>\n<!ELEMENT word (#PCDATA)>\n"
                        "<!ATTLIST word id ID #REQUIRED>\n")
        self.write_file(os.path.join("Markables", "markables.dtd"),
                        "<!ELEMENT markables (markable*)>\n<!ELEMENT markable EMPTY>\n"
                        "<!ATTLIST markable id ID #REQUIRED>\n")
        self.write_file(os.path.join("Styles", "default_style.xsl"), self.stylesheet(levels))

    @property
    def all_bases(self) -> set[str]:
        return {b for bases in self.files.values() for b in bases}

    def scheme(self, level: str) -> str:
        """A scheme declaring every attribute written on the level, with its type."""
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<annotationscheme>"]
        for name, entry in sorted(self.schemes.get(level, {}).items()):
            aid = f"attribute_{_escape(name)}"
            if entry.type == SET_TYPE:
                lines.append(f'<attribute id="{aid}" name="{_escape(name)}" type="markable_set" '
                             'color="green" width="2" style="lcurve">')
                lines.append(f'  <value id="{aid}_value" name="{_escape(name)}"/>')
            elif entry.type == POINTER_TYPE:
                lines.append(f'<attribute id="{aid}" name="{_escape(name)}" '
                             'type="markable_pointer" color="blue" width="1" style="lcurve">')
                lines.append(f'  <value id="{aid}_not_set" name="not_set"/>')
                lines.append(f'  <value id="{aid}_set" name="set"/>')
            else:
                values = sorted(entry.values)
                simple = 0 < len(values) <= 100 and all(
                    v and not any(c.isspace() for c in v) and len(v) <= 64 for v in values)
                if simple:
                    lines.append(f'<attribute id="{aid}" name="{_escape(name)}" '
                                 'type="nominal_list">')
                    for k, value in enumerate(values, 1):
                        lines.append(f'  <value id="{aid}_{k}" name="{_escape(value)}"/>')
                else:
                    lines.append(f'<attribute id="{aid}" name="{_escape(name)}" type="freetext">')
                    lines.append(f'  <value id="{aid}_text" name="{_escape(name)}"/>')
            lines.append("</attribute>")
        lines.append("</annotationscheme>\n")
        return "\n".join(lines)

    def stylesheet(self, levels: list[str]) -> str:
        """A display style: words separated by spaces, brackets around mention markables,
        a line break after each sentence."""
        shown = [lv for lv in levels if lv != self.sentence_level]
        spaces = "".join(f'\n  xmlns:l{i}="www.eml.org/NameSpaces/{_escape(lv)}"'
                         for i, lv in enumerate([self.sentence_level, *shown]))
        rules = []
        for i, _ in enumerate(shown, 1):
            rules.append(
                f'<xsl:template match="l{i}:markable" mode="opening">\n'
                "<xsl:value-of select=\"mmax:addLeftMarkableHandle(@mmax_level, @id, '[')\"/>\n"
                "</xsl:template>\n"
                f'<xsl:template match="l{i}:markable" mode="closing">\n'
                "<xsl:value-of select=\"mmax:addRightMarkableHandle(@mmax_level, @id, ']')\"/>\n"
                "</xsl:template>")
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"\n'
            '  xmlns:mmax="org.eml.MMAX2.discourse.MMAX2DiscourseLoader"'
            f"{spaces}>\n"
            '<xsl:output method="text" indent="no" omit-xml-declaration="yes"/>\n'
            '<xsl:strip-space elements="*"/>\n'
            '<xsl:template match="words">\n<xsl:apply-templates/>\n</xsl:template>\n'
            '<xsl:template match="word">\n'
            '<xsl:value-of select="mmax:registerDiscourseElement(@id)"/>\n'
            '<xsl:apply-templates select="mmax:getStartedMarkables(@id)" mode="opening"/>\n'
            '<xsl:value-of select="mmax:setDiscourseElementStart()"/>\n'
            "<xsl:apply-templates/>\n"
            '<xsl:value-of select="mmax:setDiscourseElementEnd()"/>\n'
            '<xsl:apply-templates select="mmax:getEndedMarkables(@id)" mode="closing"/>\n'
            "<xsl:text> </xsl:text>\n"
            "</xsl:template>\n"
            + "\n".join(rules) + "\n"
            '<xsl:template match="l0:markable" mode="opening"/>\n'
            '<xsl:template match="l0:markable" mode="closing">\n'
            "<xsl:text>\n</xsl:text>\n</xsl:template>\n"
            "</xsl:stylesheet>\n"
        )
