"""MMAX2 level maps: which levels and attributes of a project hold coreference.

Specification: ``formats/mmax2.md``. MMAX2 fixes no coreference attribute: which level holds
the mentions and which attributes encode identity (a ``markable_set`` or antecedent pointers),
non-reference, split antecedents, bridging, discourse deixis, minimum spans and heads is said
by a **level map** (JSON under ``corefkit/schemas/mmax2/``, or a file of the user's). The
reader interprets markables through it; the writer uses the same map to choose the attribute
names it writes: the first rule of each kind.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any

from corefkit.converters.jsontext import parse
from corefkit.converters.paths import InputError, read_text
from corefkit.errors import FormatError, UsageError
from corefkit.schemas import DIRECTORY

MAP_FORMAT = "corefkit-mmax2-level-map/1"
MAPS_DIR = str(DIRECTORY / "mmax2")
DEFAULT_MAP = "generic"


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
        data = parse(read_text(path, "utf-8-sig"), file=path, check="mmax2.bad-map",
                     hint="a level map")
    except (OSError, UnicodeDecodeError, InputError) as exc:
        raise FormatError(f"cannot read the level map ({exc})", file=path,
                          check="mmax2.bad-map") from None
    level_map = _parse_map(data, path)
    _MAP_CACHE[key] = level_map
    return level_map


def _bad(path: str, message: str) -> FormatError:
    return FormatError(f"level map: {message}", file=path, check="mmax2.bad-map")


def _names(value: Any, where: str, path: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _bad(path, f"{where!r} must be a list of non-empty strings")
    return tuple(v.strip().lower() for v in value)


def _flag(value: Any, where: str, path: str) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise _bad(path, f"{where!r} must be true or false")
    return value


def _conditions(value: Any, where: str, path: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise _bad(path, f"{where}.when must be an object of attribute: value(s)")
    found = []
    for attr, accepted in sorted(value.items()):
        if isinstance(accepted, str):
            accepted = [accepted]
        found.append((attr.strip().lower(), _names(accepted, f"{where}.when.{attr}", path)))
    return tuple(found)


def _pointer_rules(value: Any, where: str, keys: set[str], path: str) -> tuple[PointerRule, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _bad(path, f"{where!r} must be a list of rules")
    rules = []
    for i, item in enumerate(value):
        here = f"{where}[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("attribute"), str):
            raise _bad(path, f"{here} must be an object with an 'attribute' string")
        extra = sorted(set(item) - keys)
        if extra:
            raise _bad(path, f"{here} has unknown key(s) {', '.join(extra)}")
        relation = item.get("relation")
        segment = item.get("segment_level")
        for what, text in (("relation", relation), ("segment_level", segment)):
            if text is not None and not isinstance(text, str):
                raise _bad(path, f"{here}.{what} must be a string")
        rules.append(PointerRule(
            item["attribute"].strip().lower(),
            relation.strip().lower() if relation else None,
            _conditions(item.get("when"), here, path),
            segment.strip() if segment else None,
        ))
    return tuple(rules)


def _non_referring_rules(raw_nonref: Any, path: str) -> tuple[NonReferringRule, ...]:
    nonref = []
    if not isinstance(raw_nonref, list):
        raise _bad(path, "'non_referring' must be a list of rules")
    for i, item in enumerate(raw_nonref):
        here = f"non_referring[{i}]"
        if (not isinstance(item, dict) or not isinstance(item.get("attribute"), str)
                or set(item) - {"attribute", "values", "kind", "when"}):
            raise _bad(path, f"{here} must be an object with 'attribute', 'values' and optional "
                             "'kind' and 'when'")
        values = _names(item.get("values"), f"{here}.values", path)
        if not values:
            raise _bad(path, f"{here}.values must name at least one value")
        kind = item.get("kind")
        if kind is not None and not isinstance(kind, str):
            raise _bad(path, f"{here}.kind must be a string")
        nonref.append(NonReferringRule(item["attribute"].strip().lower(), values,
                                       kind.strip().lower() if kind else None,
                                       _conditions(item.get("when"), here, path)))
    return tuple(nonref)


def _parse_map(data: Any, path: str) -> LevelMap:
    if not isinstance(data, dict):
        raise _bad(path, "expected a JSON object at the top")
    if data.get("format") != MAP_FORMAT:
        raise _bad(path, f"'format' must be {MAP_FORMAT!r}, found {data.get('format')!r}")
    unknown = sorted(set(data) - _MAP_KEYS)
    if unknown:
        raise _bad(path, f"unknown key(s) {', '.join(unknown)}; "
                         f"known keys: {', '.join(sorted(_MAP_KEYS))}")
    identity = data.get("identity") or {}
    if not isinstance(identity, dict) or set(identity) - {"sets", "sets_from_scheme", "pointers"}:
        raise _bad(path, "'identity' must be an object with 'sets', 'sets_from_scheme', "
                         "'pointers'")
    nonref = _non_referring_rules(data.get("non_referring") or [], path)
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise _bad(path, "'name' must be a non-empty string")
    level_map = LevelMap(
        name=name,
        description=str(data.get("description", "")),
        source=path,
        sentence_levels=_names(data.get("sentence_levels"), "sentence_levels", path),
        mention_levels=_names(data.get("mention_levels"), "mention_levels", path),
        mention_levels_from_scheme=_flag(data.get("mention_levels_from_scheme"),
                                         "mention_levels_from_scheme", path),
        set_attributes=_names(identity.get("sets"), "identity.sets", path),
        sets_from_scheme=_flag(identity.get("sets_from_scheme"), "identity.sets_from_scheme",
                               path),
        identity_pointers=_pointer_rules(identity.get("pointers"), "identity.pointers",
                                         {"attribute", "when"}, path),
        non_referring=nonref,
        split_antecedents=_pointer_rules(data.get("split_antecedents"), "split_antecedents",
                                         {"attribute", "when"}, path),
        bridging=_pointer_rules(data.get("bridging"), "bridging",
                                {"attribute", "relation", "when"}, path),
        discourse_deixis=_pointer_rules(data.get("discourse_deixis"), "discourse_deixis",
                                        {"attribute", "when", "segment_level"}, path),
        min_span=_names(data.get("min_span"), "min_span", path),
        head=_names(data.get("head"), "head", path),
        kept_pointers=_names(data.get("kept_pointers"), "kept_pointers", path),
    )
    if not level_map.mention_levels and not level_map.mention_levels_from_scheme:
        raise _bad(path, "name at least one mention level, or set 'mention_levels_from_scheme'")
    return level_map
