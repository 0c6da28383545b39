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
* ``{"type": REGEX}``: one of the mention's LCC type codes (``mention.attrs["lcc_type"]``,
  read with :func:`corefkit.model.typed_links.type_codes`);
* ``{"partial": true}``: the mention's name tokens are a strict subset of another mention's
  of the same entity (*Grybauskaitė* in a chain with *Dalia Grybauskaitė*);
* ``{"ellipsis": true}``: a zero mention or an LCC ellipsis anchor;
* ``{"all": [...]}``, ``{"any": [...]}``, ``{"not": C}``; ``{}`` always holds.

The condition language is the one the mention-type table speaks too
(:mod:`corefkit.analysis.rules`); ``type``, ``partial``, ``ellipsis`` and the ``shape`` field
are this pass's own.

The pass writes ``mention.attrs["dominant"] = <rank name>`` on exactly one mention of every
identity entity (an entity without an eligible mention gets its earliest mention, with the
rank name ``fallback: earliest mention``), and removes marks left by an earlier run.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any, cast

from corefkit.analysis.rules import (
    Condition,
    ConditionCompiler,
    DocumentContext,
    HeadRule,
    MentionView,
    TokenTest,
    compile_regex,
    read_table,
    table_path,
)
from corefkit.errors import Repair, UsageError
from corefkit.model import IDENTITY, Document, Entity, Mention
from corefkit.model.typed_links import type_codes
from corefkit.passes.registry import register_pass
from corefkit.schemas import DIRECTORY

RANKINGS_DIR = DIRECTORY / "dominant"
DOMINANT = "dominant"
FALLBACK = "fallback: earliest mention"
AUTO = "auto"
TOKEN_FIELDS = ("form", "lemma", "upos", "xpos", "feats", "ner", "shape")
PREFER = ("earliest", "longest")


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
    return compile_ranking(read_table(path, "ranking file"), where=path)


def load_ranking(name: str) -> Ranking:
    """A shipped ranking by name (``lithuanian``, ``ud``, ...) or a ranking file by path."""
    path = table_path(name, RANKINGS_DIR / f"{name}.json")
    if path is None:
        raise UsageError(f"unknown dominant-mention ranking {name!r}; known rankings: "
                         f"{', '.join([AUTO, *available_rankings()])}, or a path to a JSON file")
    return _load_file(path)


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
        when = _RULES.condition(rank["when"], f"{where}: rank {rank['name']!r}")
        compiled_ranks.append((rank["name"], when))
    never = data.get("never", [])
    if not isinstance(never, list):
        raise UsageError(f"{where}: 'never' must be a list of conditions")
    prefer = data.get("prefer", "earliest")
    if prefer not in PREFER:
        raise UsageError(f"{where}: 'prefer' must be one of {', '.join(PREFER)}, not {prefer!r}")
    head = data.get("head", {})
    # the shape of 'head' is checked here, its token tests below after those of 'never': the
    # order in which a file with several mistakes has always been told about them
    _RULES.check_head_rule(head, where)
    names = data.get("names", {"tokens": [], "key": "form"})
    if not isinstance(names, dict) or names.get("key", "form") not in ("form", "lemma"):
        raise UsageError(f"{where}: 'names' must be {{\"tokens\": [tests], \"key\": \"form\"|\"lemma\"}}")
    return Ranking(
        name=str(data.get("name", where)),
        title=str(data.get("title", "")),
        never=tuple(_RULES.condition(c, f"{where}: never") for c in never),
        ranks=tuple(compiled_ranks),
        prefer=prefer,
        head=_RULES.head_rule(head, where),
        name_tokens=_RULES.token_tests(names.get("tokens", []), f"{where}: names"),
        name_key=names.get("key", "form"),
        source=str(data.get("source", "")),
    )


class _RankingRules(ConditionCompiler):
    """The conditions of a ranking file (see the module docstring)."""

    token_fields = TOKEN_FIELDS
    flags = ("partial", "ellipsis")
    conditions = ("all", "any", "not", "head", "any_token", "all_tokens", "type", "partial",
                  "ellipsis")

    def special(self, value: dict[str, Any], where: str) -> Condition | None:
        if set(value) != {"type"}:
            return None
        regex = compile_regex(value["type"], where)
        return lambda view: any(regex.search(code)
                                 for code in cast("_MentionView", view).types)


_RULES = _RankingRules()


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
class _DocumentContext(DocumentContext):
    """Per-document caches (sentence word-id maps, named-entity labels) and the ranking."""

    def __init__(self, doc: Document, ranking: Ranking) -> None:
        super().__init__(doc)
        self.ranking = ranking


class _MentionView(MentionView):
    """What the conditions of a ranking look at, computed once per mention."""

    __slots__ = ("_partial", "chain")
    context: _DocumentContext

    def __init__(self, context: _DocumentContext, mention: Mention, chain: list[Mention]) -> None:
        super().__init__(context, mention, context.ranking.head)
        self.chain = chain
        self._partial: bool | None = None

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


def mention_head(context: _DocumentContext, mention: Mention) -> int | None:
    """Annotated head, else the dependency head, else the ranking's fallback rule."""
    return context.head(mention, context.ranking.head)
