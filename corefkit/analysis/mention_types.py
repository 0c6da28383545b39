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
in the document), and ``{"all": [...]}``, ``{"any": [...]}``, ``{"not": C}``, ``{}``. The
language is the one the dominant-mention rankings speak too (:mod:`corefkit.analysis.rules`);
``attribute``, ``zero``, ``capitalized`` and the ``deprel`` field are this table's own.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, cast

from corefkit.analysis.rules import (
    Condition,
    ConditionCompiler,
    DocumentContext,
    HeadRule,
    MentionView,
    compile_regex,
    named_entity_classes,  # noqa: F401  (part of this module's public names)
    read_table,
    table_path,
)
from corefkit.errors import UsageError
from corefkit.model import IDENTITY, Document, Mention
from corefkit.schemas import DIRECTORY

NAME, NOMINAL, PRONOUN, ZERO, OTHER = "name", "nominal", "pronoun", "zero", "other"
TYPES = (NAME, NOMINAL, PRONOUN, ZERO, OTHER)
SCHEMAS = DIRECTORY
DEFAULT_TABLE = "default"
TOKEN_FIELDS = ("form", "lemma", "upos", "xpos", "feats", "deprel", "ner")
# The source reported for a mention no source decides (the table's "default" type).
NO_EVIDENCE = "none"


@dataclass(frozen=True)
class MentionType:
    """A mention's type and the name of the table source that decided it."""

    type: str
    source: str


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
    path = table_path(name, SCHEMAS / ("mention-types.json" if name == DEFAULT_TABLE
                                       else f"mention-types-{name}.json"))
    if path is None:
        raise UsageError(f"unknown mention-type table {name!r}; shipped tables: "
                         f"{', '.join(available_tables())}, or a path to a JSON file")
    return _load_file(path)


@functools.cache
def _load_file(path: str) -> TypeTable:
    return compile_type_table(read_table(path, "mention-type table"), where=path)


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
            compiled_rules.append((_RULES.condition(rule["when"], here), rule["type"]))
        otherwise = source.get("else")
        if otherwise is not None:
            _check_type(otherwise, f"{here}: else")
            if "applies" not in source:
                raise UsageError(f"{here}: 'else' needs 'applies' (which mentions the source decides)")
        applies = _RULES.condition(source["applies"], here) if "applies" in source else None
        compiled.append(TypeSource(source["name"], str(source.get("title", "")),
                                   tuple(compiled_rules), applies, otherwise,
                                   _RULES.head_rule(source.get("head", {}), here)))
    return TypeTable(str(data.get("name", where)), str(data.get("title", "")), tuple(compiled),
                     default, where)


def _check_type(value: Any, where: str) -> None:
    if value not in TYPES:
        raise UsageError(f"{where}: unknown mention type {value!r} (types: {', '.join(TYPES)})")


class _TypeRules(ConditionCompiler):
    """The conditions of a mention-type table (see the module docstring)."""

    token_fields = TOKEN_FIELDS
    flags = ("zero", "capitalized")
    conditions = ("attribute", "head", "any_token", "all_tokens", "zero", "capitalized", "all",
                  "any", "not")
    one_key = "exactly one key (or 'attribute' with 'match')"
    all_tokens_of_none = False
    head_keys = ("tree", "fallback", "skip", "stop")

    def special(self, value: dict[str, Any], where: str) -> Condition | None:
        if set(value) != {"attribute", "match"}:
            return None
        name, regex = value["attribute"], compile_regex(value["match"], where)
        if not isinstance(name, str):
            raise UsageError(f"{where}: 'attribute' names a mention attribute, got {name!r}")
        return lambda view: any(regex.search(v)
                                for v in cast("_MentionView", view).attribute(name))


_RULES = _TypeRules()


# ============================================================================ typing
class MentionTyper(DocumentContext):
    """Types the mentions of one document; results and per-document facts are cached.

    ``typer(mention)`` gives a :class:`MentionType`. The typer reads the document and never
    changes it.
    """

    # "-" is OntoNotes' empty cell; a form is a word whatever it looks like
    missing = (None, "_", "-", "")
    form_as_is = True

    def __init__(self, doc: Document, table: TypeTable | str | None = None) -> None:
        super().__init__(doc)
        self.table = load_type_table(table)
        self._cache: dict[Mention, MentionType] = {}
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

    # ------------------------------------------------------------------ capitals
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


class _MentionView(MentionView):
    """What a source's conditions look at for one mention (the head is found once)."""

    __slots__ = ()
    context: MentionTyper

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
        return self.context.doc.is_zero(self.mention)

    @property
    def capitalized(self) -> bool:
        head = self.head
        if head is None:
            return False
        form = self.context.doc.tokens[head].form
        if not form[:1].isupper():
            return False
        if not self.context.sentence_initial(head):
            return True
        # a sentence-initial capital says nothing by itself: "The", "Anne"
        return form in self.context.capitalized_inside()


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
