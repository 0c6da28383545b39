"""Mention types — name, nominal, pronoun, zero, other — from the best information a format carries.

The linguistically aware metrics of Chen & Ng (2013, §3) weigh a coreference link by the types
of the two mentions it joins, and ``corefkit stats`` counts mentions by type. Formats carry
very different evidence for it: an explicit attribute (MMAX2 ``np_form``, the level-1 class of
an LCC type code), a dependency tree with UPOS and FEATS (CorefUD), Penn Treebank POS and an
OntoNotes named-entity column (CoNLL-2012), MULTEXT-East tags (LCC), or nothing but word forms
(LitBank, CODI-CRAC). Which evidence decides, and how, is data: a rule table in
``corefkit/schemas/mention-types.json`` (or a file of the same shape), whose ``sources`` are tried
in order; the first source that decides a mention gives its type, and its name is reported with
the type so that a count always says what it rests on.

A source is ``{"name", "title", "head", "applies", "rules", "else"}``:

* ``rules``: ``[{"when": CONDITION, "type": TYPE}, ...]``, the first that holds decides;
* ``applies`` (optional): a condition saying that the source has evidence for the mention; the
  source then decides every such mention, with ``else`` when no rule holds. Without
  ``applies`` a source decides only the mentions one of its rules matches;
* ``head``: how the source finds a mention's head when none is annotated —
  ``{"tree": true|false, "fallback": "first"|"last", "skip": [TESTS], "stop": [TESTS]}``: the
  dependency-tree head when ``tree`` and the sentence has a tree, else the first or last of the
  mention's tokens that are not ``skip`` tokens, up to the first ``stop`` token after one kept.

Conditions are JSON objects: ``{"attribute": NAME, "match": REGEX}`` (a mention attribute; a
list, or LCC's comma-joined type codes, matches when one element does), ``{"head": TEST}``,
``{"any_token": TEST}``, ``{"all_tokens": TEST}`` with ``TEST = {"field": F, "match": REGEX}``
over ``form``, ``lemma``, ``upos``, ``xpos``, ``feats``, ``deprel`` or ``ner`` (the named-entity
class: an LCC NER layer, or the OntoNotes NE column of CoNLL-2012 files), ``{"zero": true}``
(every token is an empty node), ``{"capitalized": true}`` (the head begins with a capital and is
not the first word of its sentence, or the same word is capitalised inside a sentence elsewhere
in the document), and ``{"all": [...]}``, ``{"any": [...]}``, ``{"not": C}``, ``{}``.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from corefkit.errors import UsageError
from corefkit.model import IDENTITY, Document, Mention

NAME, NOMINAL, PRONOUN, ZERO, OTHER = "name", "nominal", "pronoun", "zero", "other"
TYPES = (NAME, NOMINAL, PRONOUN, ZERO, OTHER)
SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"
DEFAULT_TABLE = "default"
TOKEN_FIELDS = ("form", "lemma", "upos", "xpos", "feats", "deprel", "ner")
# The source reported for a mention no source decides (the table's "default" type).
NO_EVIDENCE = "none"

Condition = Callable[["_MentionView"], bool]
TokenTest = tuple[str, "re.Pattern[str]"]


@dataclass(frozen=True)
class MentionType:
    """A mention's type and the name of the table source that decided it."""

    type: str
    source: str


@dataclass(frozen=True)
class HeadRule:
    tree: bool = True
    fallback: str = "first"
    skip: tuple[TokenTest, ...] = ()
    stop: tuple[TokenTest, ...] = ()


@dataclass(frozen=True)
class TypeSource:
    name: str
    title: str
    rules: tuple[tuple[Condition, str], ...]
    applies: Condition | None = None
    otherwise: str | None = None
    head: HeadRule = field(default_factory=HeadRule)


@dataclass(frozen=True)
class TypeTable:
    """A compiled rule table: sources in the order they are tried."""

    name: str
    title: str
    sources: tuple[TypeSource, ...]
    default: str = OTHER
    path: str = ""

    def source_titles(self) -> dict[str, str]:
        return {s.name: s.title for s in self.sources}


# ============================================================================ loading
def available_tables() -> list[str]:
    """Names of the shipped tables: ``default`` is ``mention-types.json``, ``X`` is
    ``mention-types-X.json``."""
    names = []
    for path in sorted(SCHEMAS.glob("mention-types*.json")):
        stem = path.stem
        names.append(DEFAULT_TABLE if stem == "mention-types" else stem[len("mention-types-"):])
    return names


def load_type_table(name: str | os.PathLike[str] | TypeTable | None = None) -> TypeTable:
    """A shipped table by name (``default``) or a table file by path."""
    if isinstance(name, TypeTable):
        return name
    name = DEFAULT_TABLE if name in (None, "") else os.fspath(name)
    shipped = SCHEMAS / ("mention-types.json" if name == DEFAULT_TABLE
                         else f"mention-types-{name}.json")
    if shipped.is_file():
        return _load_file(str(shipped))
    if name.endswith(".json") or os.sep in name or os.path.isfile(name):
        return _load_file(os.path.abspath(name))
    raise UsageError(f"unknown mention-type table {name!r}; shipped tables: "
                     f"{', '.join(available_tables())}, or a path to a JSON file")


@functools.cache
def _load_file(path: str) -> TypeTable:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise UsageError(f"cannot read the mention-type table {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: the mention-type table is not valid "
                         f"JSON ({exc.msg})") from None
    return compile_type_table(data, where=path)


def compile_type_table(data: Any, where: str = "<mention-type table>") -> TypeTable:
    """Check a table's JSON value and compile its conditions (errors are UsageErrors)."""
    if not isinstance(data, dict):
        raise UsageError(f"{where}: a mention-type table is a JSON object")
    known = {"name", "title", "source", "description", "default", "sources"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(f"{where}: unknown key {', '.join(unknown)} (keys: {', '.join(sorted(known))})")
    default = data.get("default", OTHER)
    _check_type(default, f"{where}: default")
    sources = data.get("sources")
    if not isinstance(sources, list) or not sources:
        raise UsageError(f"{where}: 'sources' must be a non-empty list")
    compiled = []
    names: set[str] = set()
    for n, source in enumerate(sources):
        here = f"{where}: source {n + 1}"
        if not isinstance(source, dict) or not isinstance(source.get("name"), str):
            raise UsageError(f"{here} must be an object with a 'name'")
        bad = sorted(set(source) - {"name", "title", "head", "applies", "rules", "else"})
        if bad:
            raise UsageError(f"{here} ({source['name']}): unknown key {', '.join(bad)}")
        if source["name"] in names or source["name"] == NO_EVIDENCE:
            raise UsageError(f"{here}: the source name {source['name']!r} is used twice or reserved")
        names.add(source["name"])
        here = f"{where}: source {source['name']!r}"
        rules = source.get("rules", [])
        if not isinstance(rules, list):
            raise UsageError(f"{here}: 'rules' must be a list of {{\"when\", \"type\"}}")
        compiled_rules = []
        for rule in rules:
            if not isinstance(rule, dict) or set(rule) != {"when", "type"}:
                raise UsageError(f"{here}: a rule is {{\"when\": CONDITION, \"type\": TYPE}}, got {rule!r}")
            _check_type(rule["type"], here)
            compiled_rules.append((_condition(rule["when"], here), rule["type"]))
        otherwise = source.get("else")
        if otherwise is not None:
            _check_type(otherwise, f"{here}: else")
            if "applies" not in source:
                raise UsageError(f"{here}: 'else' needs 'applies' (which mentions the source decides)")
        applies = _condition(source["applies"], here) if "applies" in source else None
        compiled.append(TypeSource(source["name"], str(source.get("title", "")),
                                   tuple(compiled_rules), applies, otherwise,
                                   _head_rule(source.get("head", {}), here)))
    return TypeTable(str(data.get("name", where)), str(data.get("title", "")), tuple(compiled),
                     default, where)


def _check_type(value: Any, where: str) -> None:
    if value not in TYPES:
        raise UsageError(f"{where}: unknown mention type {value!r} (types: {', '.join(TYPES)})")


def _head_rule(value: Any, where: str) -> HeadRule:
    if not isinstance(value, dict) or set(value) - {"tree", "fallback", "skip", "stop"}:
        raise UsageError(f"{where}: 'head' takes 'tree', 'fallback', 'skip' and 'stop'")
    fallback = value.get("fallback", "first")
    if fallback not in ("first", "last"):
        raise UsageError(f"{where}: head 'fallback' must be 'first' or 'last', not {fallback!r}")
    tree = value.get("tree", True)
    if not isinstance(tree, bool):
        raise UsageError(f"{where}: head 'tree' must be true or false")
    return HeadRule(tree, fallback, _token_tests(value.get("skip", []), f"{where}: head skip"),
                    _token_tests(value.get("stop", []), f"{where}: head stop"))


def _regex(pattern: Any, where: str) -> re.Pattern[str]:
    if not isinstance(pattern, str):
        raise UsageError(f"{where}: a pattern must be a string, got {pattern!r}")
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"{where}: bad regular expression {pattern!r}: {exc}") from None


def _token_test(value: Any, where: str) -> TokenTest:
    if not isinstance(value, dict) or set(value) != {"field", "match"}:
        raise UsageError(f"{where}: a token test is {{\"field\": F, \"match\": REGEX}}, got {value!r}")
    if value["field"] not in TOKEN_FIELDS:
        raise UsageError(f"{where}: unknown token field {value['field']!r} "
                         f"(fields: {', '.join(TOKEN_FIELDS)})")
    return value["field"], _regex(value["match"], where)


def _token_tests(values: Any, where: str) -> tuple[TokenTest, ...]:
    if not isinstance(values, list):
        raise UsageError(f"{where}: expected a list of token tests")
    return tuple(_token_test(v, where) for v in values)


def _condition(value: Any, where: str) -> Condition:
    """Compile one condition object (see the module docstring) into a predicate."""
    if not isinstance(value, dict):
        raise UsageError(f"{where}: a condition is a JSON object, got {value!r}")
    if not value:
        return lambda view: True
    if set(value) == {"attribute", "match"}:
        name, regex = value["attribute"], _regex(value["match"], where)
        if not isinstance(name, str):
            raise UsageError(f"{where}: 'attribute' names a mention attribute, got {name!r}")
        return lambda view: any(regex.search(v) for v in view.attribute(name))
    if len(value) != 1:
        raise UsageError(f"{where}: a condition has exactly one key (or 'attribute' with "
                         f"'match'), got {', '.join(value)}")
    (key, arg), = value.items()
    if key in ("all", "any"):
        if not isinstance(arg, list):
            raise UsageError(f"{where}: '{key}' takes a list of conditions")
        parts = [_condition(c, where) for c in arg]
        if key == "all":
            return lambda view: all(p(view) for p in parts)
        return lambda view: any(p(view) for p in parts)
    if key == "not":
        inner = _condition(arg, where)
        return lambda view: not inner(view)
    if key in ("head", "any_token", "all_tokens"):
        name, regex = _token_test(arg, where)
        if key == "head":
            return lambda view: view.test(view.head, name, regex)
        if key == "any_token":
            return lambda view: any(view.test(t, name, regex) for t in view.mention.tokens)
        return lambda view: bool(view.mention.tokens) and all(
            view.test(t, name, regex) for t in view.mention.tokens)
    if key in ("zero", "capitalized"):
        if not isinstance(arg, bool):
            raise UsageError(f"{where}: '{key}' takes true or false")
        if key == "zero":
            return lambda view: view.zero is arg
        return lambda view: view.capitalized is arg
    raise UsageError(f"{where}: unknown condition {key!r} (conditions: attribute, head, any_token, "
                     "all_tokens, zero, capitalized, all, any, not)")


# ============================================================================ typing
class MentionTyper:
    """Types the mentions of one document; results and per-document facts are cached.

    ``typer(mention)`` gives a :class:`MentionType`. The typer reads the document and never
    changes it.
    """

    def __init__(self, doc: Document, table: TypeTable | str | None = None) -> None:
        self.doc = doc
        self.table = load_type_table(table)
        self._cache: dict[Mention, MentionType] = {}
        self._ids: dict[int, dict[str, int]] = {}
        self._ner: dict[int, str] | None = None
        self._capitals: set[str] | None = None
        self._initial: dict[int, int] = {}

    def __call__(self, mention: Mention) -> MentionType:
        found = self._cache.get(mention)
        if found is None:
            found = self._cache[mention] = self._decide(mention)
        return found

    def _decide(self, mention: Mention) -> MentionType:
        for source in self.table.sources:
            view = _MentionView(self, mention, source.head)
            if source.applies is not None and not source.applies(view):
                continue
            for condition, kind in source.rules:
                if condition(view):
                    return MentionType(kind, source.name)
            if source.applies is not None and source.otherwise is not None:
                return MentionType(source.otherwise, source.name)
        return MentionType(self.table.default, NO_EVIDENCE)

    # ------------------------------------------------------------------ token facts
    def field(self, index: int, name: str) -> str | None:
        token = self.doc.tokens[index]
        if name == "ner":
            return self.ner_label(index)
        if name == "form":
            return token.form
        value = getattr(token, name)
        return None if value in (None, "_", "-", "") else value

    def ner_label(self, index: int) -> str | None:
        if self._ner is None:
            self._ner = named_entity_classes(self.doc)
        return self._ner.get(index)

    def sentence_initial(self, index: int) -> bool:
        """Whether the token is the first word of its sentence (punctuation not counted)."""
        token = self.doc.tokens[index]
        first = self._initial.get(token.sentence)
        if first is None:
            sentence = self.doc.sentences[token.sentence]
            first = next((i for i in sentence.token_indices()
                          if any(c.isalnum() for c in self.doc.tokens[i].form)), sentence.start)
            self._initial[token.sentence] = first
        return first == index

    def capitalized_inside(self) -> set[str]:
        """Word forms that occur capitalised somewhere other than at the start of a sentence."""
        if self._capitals is None:
            self._capitals = {t.form for t in self.doc.tokens
                              if t.form[:1].isupper() and not self.sentence_initial(t.index)}
        return self._capitals

    def tree_head(self, mention: Mention) -> int | None:
        """The mention token whose parent lies outside it (nearest the root, then leftmost);
        None when the sentence has no tree."""
        tokens = [i for i in mention.tokens if not self.doc.tokens[i].is_empty]
        if not tokens:
            return None
        inside = set(mention.tokens)
        candidates = []
        for i in tokens:
            parent = self._parent(i)
            if parent is False:
                return None
            if parent is None or parent not in inside:
                candidates.append((self._depth(i), i))
        return min(candidates)[1] if candidates else None

    def _parent(self, index: int) -> int | None | bool:
        """Parent token index, None for the root, False when there is no tree."""
        token = self.doc.tokens[index]
        if token.id in (None, "_") or token.head in (None, "_", ""):
            return False
        if token.head == "0":
            return None
        ids = self._ids.get(token.sentence)
        if ids is None:
            sentence = self.doc.sentences[token.sentence]
            ids = {self.doc.tokens[j].id: j for j in sentence.token_indices()
                   if self.doc.tokens[j].id is not None}
            self._ids[token.sentence] = ids
        parent = ids.get(token.head)
        return False if parent is None else parent

    def _depth(self, index: int) -> int:
        depth, seen = 0, {index}
        parent = self._parent(index)
        while isinstance(parent, int) and not isinstance(parent, bool) and parent not in seen:
            seen.add(parent)
            depth += 1
            parent = self._parent(parent)
        return depth

    def head(self, mention: Mention, rule: HeadRule) -> int | None:
        """Annotated head, else the tree head (if the rule allows), else the fallback."""
        if mention.head is not None:
            return mention.head
        if not mention.tokens:
            return None
        if rule.tree:
            found = self.tree_head(mention)
            if found is not None:
                return found
        kept: list[int] = []
        for index in mention.tokens:
            if kept and self._matches(index, rule.stop):
                break
            if self._matches(index, rule.skip):
                continue
            kept.append(index)
        if not kept:
            kept = list(mention.tokens)
        return kept[-1] if rule.fallback == "last" else kept[0]

    def _matches(self, index: int, tests: Iterable[TokenTest]) -> bool:
        for name, regex in tests:
            value = self.field(index, name)
            if value is not None and regex.search(value):
                return True
        return False


class _MentionView:
    """What a source's conditions look at for one mention (the head is found once)."""

    __slots__ = ("_head", "mention", "rule", "typer")

    def __init__(self, typer: MentionTyper, mention: Mention, rule: HeadRule) -> None:
        self.typer = typer
        self.mention = mention
        self.rule = rule
        self._head: int | None | bool = False

    @property
    def head(self) -> int | None:
        if self._head is False:
            self._head = self.typer.head(self.mention, self.rule)
        return self._head  # type: ignore[return-value]

    def test(self, index: int | None, name: str, regex: re.Pattern[str]) -> bool:
        if index is None:
            return False
        value = self.typer.field(index, name)
        return value is not None and regex.search(value) is not None

    def attribute(self, name: str) -> list[str]:
        value = self.mention.attrs.get(name)
        if value is None or value == "":
            return []
        if isinstance(value, (list, tuple, set, frozenset)):
            return [str(v) for v in value]
        # LCC keeps the codes of every link the mention is the referring expression of,
        # comma-joined (corefkit.passes.dominant.type_codes)
        return str(value).split(",") if name == "lcc_type" else [str(value)]

    @property
    def zero(self) -> bool:
        return self.typer.doc.is_zero(self.mention)

    @property
    def capitalized(self) -> bool:
        head = self.head
        if head is None:
            return False
        form = self.typer.doc.tokens[head].form
        if not form[:1].isupper():
            return False
        if not self.typer.sentence_initial(head):
            return True
        # a sentence-initial capital says nothing by itself: "The", "Anne"
        return form in self.typer.capitalized_inside()


def named_entity_classes(doc: Document) -> dict[int, str]:
    """Named-entity class per token index: ``token.attrs["ner"]`` (LCC NER layer), else the
    OntoNotes NE column of CoNLL-2012 files (column 11 of the 12+N layout: ``(PERSON*``,
    ``*``, ``*)``, ``(GPE)``)."""
    labels: dict[int, str] = {}
    current: str | None = None
    for token in doc.tokens:
        if "ner" in token.attrs:
            labels[token.index] = str(token.attrs["ner"])
            continue
        columns = token.attrs.get("conll_columns")
        if not columns or len(columns) < 11:
            current = None
            continue
        cell = columns[10]
        if cell.startswith("("):
            label = cell[1:].rstrip(")").rstrip("*")
            labels[token.index] = label
            current = None if cell.endswith(")") else label
        elif current is not None:
            labels[token.index] = current
            if cell.endswith(")"):
                current = None
    return labels


# ============================================================================ conveniences
def mention_type(doc: Document, mention: Mention,
                 table: TypeTable | str | None = None) -> MentionType:
    """The type of one mention (for many mentions of a document, use :class:`MentionTyper`)."""
    return MentionTyper(doc, table)(mention)


def document_types(doc: Document, table: TypeTable | str | None = None,
                   layer: str = IDENTITY) -> dict[Mention, MentionType]:
    """The type of every mention of one layer, in document order."""
    typer = MentionTyper(doc, table)
    return {m: typer(m) for m in doc.sorted_mentions() if m.layer == layer}


@dataclass
class TypeCounts:
    """Mention counts per type and per deciding source; ``+`` adds documents."""

    types: Counter[str] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    by_source: dict[str, Counter[str]] = field(default_factory=dict)

    def add(self, found: MentionType) -> None:
        self.types[found.type] += 1
        self.sources[found.source] += 1
        self.by_source.setdefault(found.source, Counter())[found.type] += 1

    def __add__(self, other: TypeCounts) -> TypeCounts:
        result = TypeCounts(self.types + other.types, self.sources + other.sources,
                            {k: Counter(v) for k, v in self.by_source.items()})
        for source, counts in other.by_source.items():
            result.by_source[source] = result.by_source.get(source, Counter()) + counts
        return result

    def to_json(self) -> dict[str, Any]:
        return {
            "types": {t: self.types.get(t, 0) for t in TYPES},
            "sources": dict(self.sources.most_common()),
            "by_source": {s: {t: c[t] for t in TYPES if c[t]}
                          for s, c in sorted(self.by_source.items(), key=lambda x: -sum(x[1].values()))},
        }


def count_types(doc: Document, table: TypeTable | str | None = None,
                layer: str = IDENTITY) -> TypeCounts:
    """Mention-type counts of one document (mentions of ``layer``, non-referring ones included)."""
    counts = TypeCounts()
    for found in document_types(doc, table, layer).values():
        counts.add(found)
    return counts
