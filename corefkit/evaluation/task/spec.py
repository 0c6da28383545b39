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
class Dataset:
    """One dataset of a multi-dataset task: its name and gold (file or folder)."""

    name: str
    gold: str
    format: str | None = None

    @property
    def file_name(self) -> str:
        """The name a submission's file for this dataset has (the gold file's)."""
        return os.path.basename(self.gold.rstrip(os.sep))


@dataclass(frozen=True)
class Variant:
    """An extra leaderboard column: scoring overrides and the value shown."""

    name: str
    overrides: dict[str, Any]
    metric: str | None = None      # None: the primary ranking value


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
    datasets: tuple[Dataset, ...] = ()       # several: one macro-averaged leaderboard
    missing: str = "zero"                    # a dataset without a submission file
    variants: tuple[Variant, ...] = ()
    strata: str | None = None
    track: str = "standard"                  # "llm": text answers aligned to the gold

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
            "submissions": asdict(self.submissions), "track": self.track,
            **({"datasets": [asdict(d) for d in self.datasets], "missing": self.missing,
                "variants": {v.name: {**v.overrides, "metric": v.metric or self.primary.label}
                             for v in self.variants},
                "strata": self.strata} if self.datasets else {}),
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
    from corefkit.converters.paths import open_input

    try:
        with open_input(path) as handle:  # a path that cannot be read: InputError, exit 1
            text = handle.read().decode("utf-8")
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
    datasets = _datasets(data, folder) if "datasets" in data else ()
    gold = os.path.normpath(os.path.join(folder, data["gold"])) if "gold" in data else \
        os.path.commonpath([d.gold for d in datasets]) if datasets else folder
    profile = scoring.get("profile")
    strata = data.get("strata", _profile_value(profile, "strata"))
    if strata is not None:
        from corefkit.scoring.metrics.strata import dimensions

        dimensions(strata)  # an unknown stratum: a usage error now
    track = data.get("track", "standard")
    layout = dict(data.get("submissions", {}))
    if track == "llm":  # the LLM track: answers in text2text, aligned to the gold's words
        scoring.setdefault("align", "expand")
        layout.setdefault("format", "text2text")
        if not scoring["align"]:
            raise UsageError("track = \"llm\": the answers are text, aligned to the gold's "
                             "words; [scoring] align cannot be false")
    return Task(gold=gold, name=data.get("name", ""), file=file,
                gold_format=data.get("gold_format"), scoring=scoring,
                level=validation.get("level", 2), exclude=tuple(validation.get("exclude", ())),
                show=validation.get("show", 5), ranking=tuple(keys),
                significance=significance, submissions=Layout(**layout),
                datasets=datasets, missing=data.get("missing", "zero"),
                variants=_variants(data, profile) if datasets else (),
                strata=strata if datasets else None, track=track)


def _profile_value(profile: str | None, key: str) -> Any:
    if profile is None:
        return None
    from corefkit.scoring.profiles import profile_settings

    return profile_settings(profile).get(key)


def _variants(data: dict[str, Any], profile: str | None) -> tuple[Variant, ...]:
    given = data.get("variants")
    if given is None:
        given = _profile_value(profile, "variants") or {}
    found = []
    for name, settings in given.items():
        overrides = {k: v for k, v in settings.items() if k != "metric"}
        metric = settings.get("metric")
        if metric is not None:
            metric = RankKey.parse(metric).label
        found.append(Variant(name, overrides, metric))
    return tuple(found)


def _datasets(data: dict[str, Any], folder: str) -> tuple[Dataset, ...]:
    """The datasets of a task: listed, or every file of a folder (named by dataset_name)."""
    given = data["datasets"]
    if isinstance(given, str):
        root = os.path.normpath(os.path.join(folder, given))
        if not os.path.isdir(root):
            raise UsageError(f"datasets: {root} is not a folder")
        entries = [e for e in sorted(os.listdir(root))
                   if not e.startswith(".") and os.path.isfile(os.path.join(root, e))]
        if not entries:
            raise UsageError(f"datasets: the folder {root} holds no file")
        found = [Dataset(dataset_name(e), os.path.join(root, e)) for e in entries]
    else:
        found = [Dataset(item.get("name") or dataset_name(item["gold"]),
                         os.path.normpath(os.path.join(folder, item["gold"])), item.get("format"))
                 for item in given]
    names = [d.name for d in found]
    for attribute, what in ((names, "name"), ([d.file_name for d in found], "gold file name")):
        repeated = sorted({n for n in attribute if attribute.count(n) > 1})
        if repeated:
            raise UsageError(f"datasets: two datasets have the {what} {repeated[0]!r}; "
                             "a submission's files are matched by it")
    return tuple(found)


def dataset_name(path: str) -> str:
    """``cs_pdt-corefud-test.conllu`` -> ``cs_pdt-corefud``: the file name without its
    extension and without a final ``-dev``/``-test``/``-train`` part."""
    stem = os.path.basename(path.rstrip(os.sep)).split(".")[0]
    for split in ("-dev", "-test", "-train"):
        if stem.endswith(split) and len(stem) > len(split):
            return stem[: -len(split)]
    return stem


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
             "exclusiveMaximum", "oneOf"} | _ANNOTATIONS


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
    if "oneOf" in schema:
        _check_one_of(value, schema["oneOf"], where, path, fail)


def _check_one_of(value: Any, options: list[dict[str, Any]], where: str, path: str,
                  fail: Callable[[str], None]) -> None:
    """Exactly one of ``options`` fits (the task file: gold or datasets): none names the
    first option's problem, several name what was given too much."""
    errors = []
    for option in options:
        try:
            check_schema(value, option, where, path)
        except UsageError as exc:
            errors.append(exc)
    if len(errors) == len(options):
        raise errors[0]
    if len(errors) < len(options) - 1:
        given = [o["required"][0] for o in options if "required" in o and o["required"][0]
                 in (value if isinstance(value, dict) else {})]
        fail(f"give only one of {', '.join(map(repr, given))}")


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
