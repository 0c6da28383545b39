"""The task file: loading (TOML or JSON), checking against ``schemas/task.schema.json``, and
the resolved :class:`Task`.

The schema is the single description of the file: :func:`check_schema` enforces it with the
few JSON Schema keywords it uses (``jsonschema`` is a development extra only), so that a typo
in a task file is a usage error naming the property, before any submission is read.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

from corefkit.converters.jsontext import parse
from corefkit.errors import FormatError, UsageError
from corefkit.schemas import DIRECTORY

SCHEMA = DIRECTORY / "task.schema.json"
SCORES = ("f1", "recall", "precision")
TESTS = ("permutation", "bootstrap", "none")
LAYOUTS = ("folder", "file")
# the [scoring] keys passed to corefkit.score as they are
SCORE_OPTIONS = ("profile", "semantics", "metrics", "match", "zero_match", "keep_zeros",
                 "remove_singletons", "passes", "remove_split_antecedents", "discourse_deixis",
                 "lea_split_importance", "read_options", "align")


# ============================================================================ the task
@dataclass(frozen=True)
class RankKey:
    """One value submissions are ranked by: a metric's recall, precision or F1."""

    metric: str
    score: str = "f1"

    @classmethod
    def parse(cls, text: str) -> RankKey:
        """``conll``, ``muc``, ``bcub.recall``: a metric name, optionally ``.SCORE``."""
        name, dot, part = text.strip().lower().rpartition(".")
        if not dot or part not in SCORES:
            name, part = text.strip().lower(), "f1"
        if not name:
            raise UsageError(f"[ranking]: {text!r} is not a metric (conll, muc, bcub.recall, ...)")
        if name == "conll" and part != "f1":
            raise UsageError(f"[ranking]: {text!r}: conll is an average of F1 values only")
        return cls(name, part)

    @property
    def label(self) -> str:
        return self.metric if self.score == "f1" else f"{self.metric}.{self.score}"


@dataclass(frozen=True)
class Significance:
    test: str = "permutation"
    permutations: int = 10_000
    bootstrap: int = 10_000
    alpha: float = 0.05
    seed: int = 0


@dataclass(frozen=True)
class Layout:
    layout: str = "folder"
    format: str | None = None      # None: the gold's format; "auto": detected per file
    pattern: str | None = None


@dataclass(frozen=True)
class Task:
    """A shared task: gold, official setting, acceptance, ranking, test and layout."""

    gold: str
    name: str = ""
    file: str | None = None
    gold_format: str | None = None
    scoring: dict[str, Any] = field(default_factory=dict)   # corefkit.score keyword options
    level: int = 2
    exclude: tuple[str, ...] = ()
    show: int = 5
    ranking: tuple[RankKey, ...] = (RankKey("conll"),)      # primary first, then tie-breakers
    significance: Significance = Significance()
    submissions: Layout = Layout()

    @property
    def primary(self) -> RankKey:
        return self.ranking[0]

    def to_json(self) -> dict[str, Any]:
        """The task as the leaderboard states it (resolved paths, defaults filled in)."""
        return {
            "name": self.name, "file": self.file, "gold": self.gold,
            "gold_format": self.gold_format, "scoring": dict(self.scoring),
            "validation": {"level": self.level, "exclude": list(self.exclude),
                           "show": self.show},
            "ranking": {"primary": self.primary.label,
                        "tie_breakers": [k.label for k in self.ranking[1:]]},
            "significance": asdict(self.significance),
            "submissions": asdict(self.submissions),
        }


# ============================================================================ loading
def load_task(source: str | os.PathLike[str] | Mapping[str, Any] | Task,
              base: str | os.PathLike[str] | None = None) -> Task:
    """The :class:`Task` of a task file (``.toml`` or ``.json``), of a mapping with the same
    content, or a task as it is. Relative paths of a file are relative to its folder; of a
    mapping to ``base`` (default the working directory)."""
    if isinstance(source, Task):
        return source
    if isinstance(source, Mapping):
        data, file = dict(source), None
        folder = os.fspath(base) if base is not None else os.getcwd()
    else:
        file = os.fspath(source)
        data = _read_file(file)
        folder = os.path.dirname(os.path.abspath(file))
    check_schema(data, _schema(), "task file" if file is None else file)
    return _build(data, folder, file)


def _read_file(path: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except OSError as exc:
        raise UsageError(f"{path}: cannot read the task file ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: the task file is not UTF-8") from None
    toml = path.lower().endswith(".toml") or (
        not path.lower().endswith(".json") and not text.lstrip().startswith("{"))
    try:
        data = (_toml_loads(path)(text) if toml
                else parse(text, file=path, check="task.file", hint="a task file"))
    except FormatError as exc:  # JSON: located, also too deep or too long a number
        raise UsageError(str(exc)) from None
    except (ValueError, RecursionError) as exc:  # tomllib.TOMLDecodeError, or nested too deeply
        detail = str(exc) if isinstance(exc, ValueError) else "nested too deeply"
        raise UsageError(f"{path}: not valid TOML: {detail}") from None
    if not isinstance(data, dict):
        raise UsageError(f"{path}: a task file holds one object (a table)")
    return data


def _toml_loads(path: str) -> Callable[[str], dict[str, Any]]:
    """``tomllib.loads`` (Python ≥ 3.11), else ``tomli.loads`` where it is installed."""
    if sys.version_info >= (3, 11):
        import tomllib

        return tomllib.loads
    try:  # not a dependency: used only where installed
        loads: Callable[[str], dict[str, Any]] = importlib.import_module("tomli").loads
        return loads
    except ImportError:
        raise UsageError(f"{path}: reading a TOML task file needs Python 3.11 or later, or the "
                         "tomli package (pip install tomli); or write the task file as JSON "
                         "(the same keys, corefkit/schemas/task.schema.json)") from None


def _build(data: dict[str, Any], folder: str, file: str | None) -> Task:
    scoring = {k: v for k, v in data.get("scoring", {}).items() if k in SCORE_OPTIONS}
    if isinstance(scoring.get("metrics"), list):
        scoring["metrics"] = ",".join(scoring["metrics"])
    if "passes" in scoring:
        from corefkit.passes.registry import parse_pass

        for text in scoring["passes"]:
            parse_pass(text)  # an unknown pass or option: a usage error now, not mid-run
        scoring["passes"] = tuple(scoring["passes"])
    validation = data.get("validation", {})
    ranking = data.get("ranking", {})
    keys = [RankKey.parse(ranking.get("primary", "conll"))]
    keys += [RankKey.parse(t) for t in ranking.get("tie_breakers", [])]
    repeated = sorted({k.label for k in keys if keys.count(k) > 1})
    if repeated:
        raise UsageError(f"[ranking]: {repeated[0]} is given twice")
    significance = Significance(**data.get("significance", {}))
    if significance.test == "bootstrap" and significance.bootstrap < 1:
        raise UsageError("[significance]: test = \"bootstrap\" needs bootstrap >= 1 replicates")
    gold = os.path.normpath(os.path.join(folder, data["gold"]))
    return Task(gold=gold, name=data.get("name", ""), file=file,
                gold_format=data.get("gold_format"), scoring=scoring,
                level=validation.get("level", 2), exclude=tuple(validation.get("exclude", ())),
                show=validation.get("show", 5), ranking=tuple(keys),
                significance=significance, submissions=Layout(**data.get("submissions", {})))


# ============================================================================ the schema
@cache
def _schema() -> dict[str, Any]:
    return dict(json.loads(SCHEMA.read_text(encoding="utf-8")))


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
}
_ANNOTATIONS = {"$schema", "$id", "title", "description", "$comment", "default"}
_KEYWORDS = {"type", "enum", "properties", "required", "additionalProperties", "items",
             "minItems", "minLength", "minimum", "maximum", "exclusiveMinimum",
             "exclusiveMaximum"} | _ANNOTATIONS


def check_schema(value: Any, schema: Mapping[str, Any], where: str, path: str = "") -> None:
    """A usage error naming the first place where ``value`` does not fit ``schema`` (the
    subset of JSON Schema 2020-12 the task schema uses)."""
    unknown = set(schema) - _KEYWORDS
    if unknown:  # a schema edit this checker does not follow: a bug, not a user error
        raise AssertionError(f"task schema keyword(s) not supported: {sorted(unknown)}")
    at = path or "the top level"

    def fail(message: str) -> None:
        raise UsageError(f"{where}: {at}: {message}")

    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else list(types)
        if not any(_TYPES[t](value) for t in names):
            fail(f"expected {' or '.join(names)}, got {_kind(value)} {value!r}"[:200])
    if "enum" in schema and value not in schema["enum"]:
        fail(f"expected one of {', '.join(map(json.dumps, schema['enum']))}, got {value!r}")
    if isinstance(value, str) and len(value) < schema.get("minLength", 0):
        fail("must not be empty")
    if _TYPES["number"](value):
        _check_bounds(value, schema, fail)
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            fail(f"needs at least {schema['minItems']} item(s)")
        for n, item in enumerate(value):
            check_schema(item, schema.get("items", {}), where, f"{path}[{n}]")
    if isinstance(value, dict):
        _check_object(value, schema, where, path, fail)


def _check_bounds(value: float, schema: Mapping[str, Any], fail: Callable[[str], None]) -> None:
    for keyword, holds, text in (("minimum", lambda b: value >= b, "at least"),
                                 ("maximum", lambda b: value <= b, "at most"),
                                 ("exclusiveMinimum", lambda b: value > b, "more than"),
                                 ("exclusiveMaximum", lambda b: value < b, "less than")):
        if keyword in schema and not holds(schema[keyword]):
            fail(f"must be {text} {schema[keyword]}, got {value}")


def _check_object(value: dict[str, Any], schema: Mapping[str, Any], where: str, path: str,
                  fail: Callable[[str], None]) -> None:
    properties = schema.get("properties", {})
    for name in schema.get("required", []):
        if name not in value:
            fail(f"{name!r} is required")
    for name, item in value.items():
        if name in properties:
            check_schema(item, properties[name], where, f"{path}.{name}" if path else name)
        elif schema.get("additionalProperties", True) is False:
            fail(f"unknown key {name!r}; expected one of {', '.join(properties)}")


def _kind(value: Any) -> str:
    for name in ("boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](value):
            return name
    return type(value).__name__
