"""Pass ``dominant-mentions``: choose each entity's dominant mention from a ranking table.

The dominant mention of an entity is the mention a higher-level application shows for it
(Žitkus, Butkienė & Butleris 2023, §4.2): a full proper noun before an abbreviated one, before
a partial proper noun, before any other noun phrase, before an ellipsis; pronouns and adverbs
are never dominant; ties go to the earliest mention. The ranking is data, one JSON file per
tag set under ``corefkit/schemas/dominant/`` (``lithuanian``, ``ud``, ``conll2012``) plus the
alternatives of the literature (``first``, ``longest``, ``anchor``); a path to another file
with the same keys works too. ``auto`` picks the table from the annotation the tokens carry.

A ranking file has ``ranks`` (a list of ``{"name", "when"}``, best first), ``never`` (conditions
that exclude a mention), ``prefer`` (``earliest`` or ``longest``, the tie rule within a rank),
and optionally ``head`` (how to find a mention's head when it has none) and ``names`` (which
tokens are name tokens, for the ``partial`` test). Conditions are JSON objects:

* ``{"head": T}``, ``{"any_token": T}``, ``{"all_tokens": T}`` with a token test
  ``T = {"field": F, "match": REGEX}``; F is ``form``, ``lemma``, ``upos``, ``xpos``, ``feats``,
  ``ner`` (named-entity class) or ``shape`` (the form with letters as ``X``/``x``, digits ``d``);
* ``{"type": REGEX}``: one of the mention's LCC type codes (``mention.attrs["lcc_type"]``);
* ``{"partial": true}``: the mention's name tokens are a strict subset of another mention's
  of the same entity (*Grybauskaitė* in a chain with *Dalia Grybauskaitė*);
* ``{"ellipsis": true}``: a zero mention or an LCC ellipsis anchor;
* ``{"all": [...]}``, ``{"any": [...]}``, ``{"not": C}``; ``{}`` always holds.

The pass writes ``mention.attrs["dominant"] = <rank name>`` on exactly one mention of every
identity entity (an entity without an eligible mention gets its earliest mention, with the
rank name ``fallback: earliest mention``), and removes marks left by an earlier run.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from corefkit.errors import Repair, UsageError
from corefkit.model import IDENTITY, Document, Entity, Mention, Token
from corefkit.passes.registry import register_pass

RANKINGS_DIR = Path(__file__).resolve().parent.parent / "schemas" / "dominant"
DOMINANT = "dominant"
FALLBACK = "fallback: earliest mention"
AUTO = "auto"
TOKEN_FIELDS = ("form", "lemma", "upos", "xpos", "feats", "ner", "shape")
PREFER = ("earliest", "longest")

Condition = Callable[["_MentionView"], bool]
TokenTest = tuple[str, re.Pattern[str]]


@dataclass(frozen=True)
class HeadRule:
    """How to find a mention's head when it has no annotated head and no dependency tree."""

    fallback: str = "first"                 # "first" or "last" of the kept tokens
    skip: tuple[TokenTest, ...] = ()        # tokens never taken as head (punctuation)
    stop: tuple[TokenTest, ...] = ()        # tokens that end the head's phrase ("of", ",")


@dataclass(frozen=True)
class Ranking:
    """A ranking table, compiled from its JSON file."""

    name: str
    title: str
    never: tuple[Condition, ...]
    ranks: tuple[tuple[str, Condition], ...]
    prefer: str
    head: HeadRule
    name_tokens: tuple[TokenTest, ...]
    name_key: str
    source: str = ""


# ============================================================================ loading
def available_rankings() -> list[str]:
    """The names of the rankings shipped with corefkit."""
    return sorted(p.stem for p in RANKINGS_DIR.glob("*.json"))


@functools.lru_cache(maxsize=None)
def _load_file(path: str) -> Ranking:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as exc:
        raise UsageError(f"cannot read the ranking file {path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}:{exc.lineno}:{exc.colno}: the ranking file is not valid JSON "
                         f"({exc.msg})") from None
    return compile_ranking(data, where=path)


def load_ranking(name: str) -> Ranking:
    """A shipped ranking by name (``lithuanian``, ``ud``, ...) or a ranking file by path."""
    shipped = RANKINGS_DIR / f"{name}.json"
    if shipped.is_file():
        return _load_file(str(shipped))
    if name.endswith(".json") or os.sep in name or os.path.isfile(name):
        return _load_file(os.path.abspath(name))
    raise UsageError(f"unknown dominant-mention ranking {name!r}; known rankings: "
                     f"{', '.join([AUTO, *available_rankings()])}, or a path to a JSON file")


def compile_ranking(data: Any, where: str = "<ranking>") -> Ranking:
    """Check a ranking's JSON value and compile its conditions."""
    if not isinstance(data, dict):
        raise UsageError(f"{where}: a ranking is a JSON object")
    known = {"name", "title", "source", "description", "head", "names", "never", "ranks", "prefer"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UsageError(f"{where}: unknown key {', '.join(unknown)} (keys: {', '.join(sorted(known))})")
    ranks = data.get("ranks")
    if not isinstance(ranks, list) or not ranks:
        raise UsageError(f"{where}: 'ranks' must be a non-empty list of {{\"name\", \"when\"}}")
    compiled_ranks = []
    for i, rank in enumerate(ranks):
        if not isinstance(rank, dict) or not isinstance(rank.get("name"), str) or "when" not in rank:
            raise UsageError(f"{where}: rank {i + 1} must be an object with 'name' and 'when'")
        compiled_ranks.append((rank["name"], _condition(rank["when"], f"{where}: rank {rank['name']!r}")))
    never = data.get("never", [])
    if not isinstance(never, list):
        raise UsageError(f"{where}: 'never' must be a list of conditions")
    prefer = data.get("prefer", "earliest")
    if prefer not in PREFER:
        raise UsageError(f"{where}: 'prefer' must be one of {', '.join(PREFER)}, not {prefer!r}")
    head = data.get("head", {})
    if not isinstance(head, dict) or set(head) - {"fallback", "skip", "stop"}:
        raise UsageError(f"{where}: 'head' takes 'fallback', 'skip' and 'stop'")
    fallback = head.get("fallback", "first")
    if fallback not in ("first", "last"):
        raise UsageError(f"{where}: head 'fallback' must be 'first' or 'last', not {fallback!r}")
    names = data.get("names", {"tokens": [], "key": "form"})
    if not isinstance(names, dict) or names.get("key", "form") not in ("form", "lemma"):
        raise UsageError(f"{where}: 'names' must be {{\"tokens\": [tests], \"key\": \"form\"|\"lemma\"}}")
    return Ranking(
        name=str(data.get("name", where)),
        title=str(data.get("title", "")),
        never=tuple(_condition(c, f"{where}: never") for c in never),
        ranks=tuple(compiled_ranks),
        prefer=prefer,
        head=HeadRule(
            fallback,
            _token_tests(head.get("skip", []), f"{where}: head skip"),
            _token_tests(head.get("stop", []), f"{where}: head stop"),
        ),
        name_tokens=_token_tests(names.get("tokens", []), f"{where}: names"),
        name_key=names.get("key", "form"),
        source=str(data.get("source", "")),
    )


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


def _regex(pattern: Any, where: str) -> re.Pattern[str]:
    if not isinstance(pattern, str):
        raise UsageError(f"{where}: a pattern must be a string, got {pattern!r}")
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"{where}: bad regular expression {pattern!r}: {exc}") from None


def _condition(value: Any, where: str) -> Condition:
    """Compile one condition object (see the module docstring) into a predicate."""
    if not isinstance(value, dict):
        raise UsageError(f"{where}: a condition is a JSON object, got {value!r}")
    if not value:
        return lambda view: True
    if len(value) != 1:
        raise UsageError(f"{where}: a condition has exactly one key, got {', '.join(value)}")
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
        field, regex = _token_test(arg, where)
        if key == "head":
            return lambda view: view.test(view.head, field, regex)
        if key == "any_token":
            return lambda view: any(view.test(t, field, regex) for t in view.mention.tokens)
        return lambda view: all(view.test(t, field, regex) for t in view.mention.tokens)
    if key == "type":
        regex = _regex(arg, where)
        return lambda view: any(regex.search(code) for code in view.types)
    if key in ("partial", "ellipsis"):
        if not isinstance(arg, bool):
            raise UsageError(f"{where}: '{key}' takes true or false")
        if key == "partial":
            return lambda view: view.partial is arg
        return lambda view: view.ellipsis is arg
    raise UsageError(f"{where}: unknown condition {key!r} (conditions: all, any, not, head, "
                     "any_token, all_tokens, type, partial, ellipsis)")


# ============================================================================ choosing
def choose_ranking(doc: Document, name: str = AUTO) -> Ranking:
    """The ranking called ``name``; ``auto`` chooses by the annotation the tokens carry.

    LCC morphology (``lcc_msd``), or XPOS tags that are mostly MULTEXT-East-like (``Npfsnns``:
    a capital then lower case, as LCC tags are after a conversion) → ``lithuanian``; UPOS →
    ``ud``; other XPOS (OntoNotes columns) → ``conll2012``; no annotation at all → ``first``.
    """
    if name != AUTO:
        return load_ranking(name)
    tokens = doc.tokens
    if any("lcc_msd" in t.attrs for t in tokens):
        return load_ranking("lithuanian")
    if any(t.upos not in (None, "_") for t in tokens):
        return load_ranking("ud")
    tags = [t.xpos for t in tokens if t.xpos not in (None, "_", "-")]
    if tags:
        msd_like = sum(1 for tag in tags if _MSD_TAG.match(tag))
        return load_ranking("lithuanian" if 2 * msd_like > len(tags) else "conll2012")
    return load_ranking("first")


_MSD_TAG = re.compile(r"^[A-Z][a-z0-9-]")  # MULTEXT-East; Penn Treebank tags have no lower case


def position(mention: Mention) -> tuple[int, int, int]:
    """Document order of mentions: start, longer first, creation."""
    return (mention.start, -mention.end, mention.id)


def select_dominant(doc: Document, entity: Entity, ranking: Ranking,
                    context: _DocumentContext | None = None) -> tuple[Mention, str] | None:
    """The dominant mention of ``entity`` and the name of its rank (None without mentions)."""
    mentions = doc.mentions_of(entity)
    if not mentions:
        return None
    context = context or _DocumentContext(doc, ranking)
    best_rank = len(ranking.ranks)
    best: list[Mention] = []
    views = {m: _MentionView(context, m, mentions) for m in mentions}
    for mention in mentions:
        view = views[mention]
        if any(cond(view) for cond in ranking.never):
            continue
        for rank, (_, cond) in enumerate(ranking.ranks):
            if rank > best_rank:
                break
            if cond(view):
                if rank < best_rank:
                    best_rank, best = rank, [mention]
                else:
                    best.append(mention)
                break
    if not best:
        return min(mentions, key=position), FALLBACK
    if ranking.prefer == "longest":
        chosen = min(best, key=lambda m: (-len(m.tokens), *position(m)))
    else:
        chosen = min(best, key=position)
    return chosen, ranking.ranks[best_rank][0]


def dominant_mentions(doc: Document, ranking: str = AUTO) -> dict[Entity, tuple[Mention, str]]:
    """Each identity entity's dominant mention and rank name.

    Marks left by the pass (``mention.attrs["dominant"]``) are used as they are; entities
    without a mark get one chosen with ``ranking`` (the document is not changed).
    """
    result: dict[Entity, tuple[Mention, str]] = {}
    unmarked = []
    for entity in doc.entities_in(IDENTITY, pseudo=True):
        marked = [m for m in doc.mentions_of(entity) if m.attrs.get(DOMINANT)]
        if marked:
            result[entity] = (marked[0], str(marked[0].attrs[DOMINANT]))
        elif doc.size(entity):
            unmarked.append(entity)
    if unmarked:
        table = choose_ranking(doc, ranking)
        context = _DocumentContext(doc, table)
        for entity in unmarked:
            found = select_dominant(doc, entity, table, context)
            if found is not None:
                result[entity] = found
    return result


@register_pass(
    "dominant-mentions",
    "mark each entity's dominant mention (Žitkus et al. 2023 §4.2): full proper noun > "
    "abbreviated > partial proper noun > other noun phrase > ellipsis, never pronouns or "
    "adverbs, ties to the earliest; ranking=auto|lithuanian|ud|conll2012|first|longest|anchor|FILE",
    ranking=str,
)
def mark_dominant_mentions(doc: Document, ranking: str = AUTO) -> Document:
    table = choose_ranking(doc, ranking)
    result = doc.copy(text=False)
    for mention in result.mentions:
        mention.attrs.pop(DOMINANT, None)
    context = _DocumentContext(result, table)
    counts: dict[str, int] = {}
    for entity in result.entities_in(IDENTITY, pseudo=True):
        found = select_dominant(result, entity, table, context)
        if found is None:
            continue
        mention, rank = found
        mention.attrs[DOMINANT] = rank
        counts[rank] = counts.get(rank, 0) + 1
    if counts:
        detail = ", ".join(f"{n} {rank}" for rank, n in sorted(counts.items(), key=lambda x: -x[1]))
        result.repairs.append(Repair(
            "pass.dominant-mentions",
            f"dominant mentions chosen with the {table.name} ranking: {detail}",
            document=doc.name, action="kept"))
    return result


# ============================================================================ mention facts
class _DocumentContext:
    """Per-document caches: sentence word-id maps (for heads) and named-entity labels."""

    def __init__(self, doc: Document, ranking: Ranking) -> None:
        self.doc = doc
        self.ranking = ranking
        self._ids: dict[int, dict[str, int]] = {}
        self._ner: dict[int, str] | None = None

    def field(self, index: int, field: str) -> str | None:
        token = self.doc.tokens[index]
        if field == "shape":
            return _shape(token.form)
        if field == "ner":
            return self.ner_label(index)
        value = getattr(token, field)
        return None if value in (None, "_") else value

    def ner_label(self, index: int) -> str | None:
        if self._ner is None:
            self._ner = _ner_labels(self.doc.tokens)
        return self._ner.get(index)

    def tree_head(self, mention: Mention) -> int | None:
        """The mention token whose parent is outside it (nearest the root, then leftmost)."""
        tokens = [i for i in mention.tokens if not self.doc.tokens[i].is_empty]
        if not tokens:
            return None
        inside = set(mention.tokens)
        candidates = []
        for i in tokens:
            parent = self._parent(i)
            if parent is False:
                return None  # no tree for this sentence
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
        depth = 0
        seen = {index}
        parent = self._parent(index)
        while isinstance(parent, int) and not isinstance(parent, bool) and parent not in seen:
            seen.add(parent)
            depth += 1
            parent = self._parent(parent)
        return depth


class _MentionView:
    """What the conditions of a ranking look at, computed once per mention."""

    def __init__(self, context: _DocumentContext, mention: Mention, chain: list[Mention]) -> None:
        self.context = context
        self.mention = mention
        self.chain = chain
        self._head: int | None | bool = False
        self._partial: bool | None = None

    def test(self, index: int | None, field: str, regex: re.Pattern[str]) -> bool:
        if index is None:
            return False
        value = self.context.field(index, field)
        return value is not None and regex.search(value) is not None

    @property
    def head(self) -> int | None:
        if self._head is False:
            self._head = mention_head(self.context, self.mention)
        return self._head  # type: ignore[return-value]

    @property
    def types(self) -> list[str]:
        return type_codes(self.mention)

    @property
    def ellipsis(self) -> bool:
        doc = self.context.doc
        return bool(self.mention.attrs.get("ellipsis_anchor")) or doc.is_zero(self.mention)

    @property
    def partial(self) -> bool:
        if self._partial is None:
            own = self._name_key(self.mention)
            self._partial = bool(own) and any(
                own < self._name_key(other) for other in self.chain if other is not self.mention)
        return self._partial

    def _name_key(self, mention: Mention) -> frozenset[str]:
        ranking = self.context.ranking
        if not ranking.name_tokens:
            return frozenset()
        words = set()
        for i in mention.tokens:
            if any(self.test(i, field, regex) for field, regex in ranking.name_tokens):
                token = self.context.doc.tokens[i]
                word = token.lemma if ranking.name_key == "lemma" and token.lemma else token.form
                words.add(word.lower())
        return frozenset(words)


def type_codes(mention: Mention) -> list[str]:
    """The LCC type codes a mention carries: ``attrs["lcc_type"]``, several joined by commas
    (the referring expression of several links), or a list."""
    value = mention.attrs.get("lcc_type")
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return value.split(",")
    return [str(v) for v in value]


def mention_head(context: _DocumentContext, mention: Mention) -> int | None:
    """Annotated head, else the dependency head, else the ranking's fallback rule."""
    if mention.head is not None:
        return mention.head
    if not mention.tokens:
        return None
    tree = context.tree_head(mention)
    if tree is not None:
        return tree
    rule = context.ranking.head

    def matches(index: int, tests: Iterable[TokenTest]) -> bool:
        return any(_test(context, index, f, r) for f, r in tests)

    kept: list[int] = []
    for index in mention.tokens:
        if kept and matches(index, rule.stop):
            break
        if matches(index, rule.skip):
            continue
        kept.append(index)
    if not kept:
        kept = list(mention.tokens)
    return kept[-1] if rule.fallback == "last" else kept[0]


def _test(context: _DocumentContext, index: int, field: str, regex: re.Pattern[str]) -> bool:
    value = context.field(index, field)
    return value is not None and regex.search(value) is not None


def _shape(form: str) -> str:
    """``EU`` → ``XX``, ``U.S.`` → ``X.X.``, ``Obama`` → ``Xxxxx``, ``1990`` → ``dddd``."""
    return "".join("X" if c.isupper() else "x" if c.isalpha() else "d" if c.isdigit() else c
                   for c in form)


# OntoNotes named-entity column (CoNLL-2012 12+ column layout): "(PERSON*", "*", "*)", "(GPE)".
def _ner_labels(tokens: list[Token]) -> dict[int, str]:
    """Named-entity class per token: ``attrs["ner"]`` (LCC), else the OntoNotes NE column."""
    labels: dict[int, str] = {}
    current: str | None = None
    for token in tokens:
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
