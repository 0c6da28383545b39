"""Error categories of Kummerfeld & Klein (2013), computed on aligned partitions.

Kummerfeld and Klein, *Error-Driven Analysis of Challenges in Coreference Resolution*
(EMNLP 2013, §3) do not count links: they turn the system output into the gold annotation by a
sequence of transformations and map every step of that conversion onto an intuitive error
type. The transformations, applied in this order (§3.1), are:

1. **Alter Span** — "transforms an incorrect system mention into a gold mention that has the
   same head token";
2. **Split** — breaks a system entity into parts that each hold mentions of one gold entity
   only (or one mention that is in no gold entity);
3. **Remove** — deletes every mention that is not in the gold annotation;
4. **Introduce** — creates a singleton entity for every gold mention the system lacks;
5. **Merge** — combines entities into the gold entities.

The error types they map onto (§3.2), with corefkit's category names:

* ``span_error`` — Span Error: an Alter Span operation;
* ``conflated_entities`` — Conflated Entities: a Split that remains after the mention and
  entity errors below took theirs (a system entity that must be split);
* ``extra_mention`` — Extra Mention: a Split and a Remove applied to the same mention;
* ``extra_entity`` — Extra Entity: a set of Splits and Removes that deletes a whole system
  entity;
* ``divided_entity`` — Divided Entity: a Merge that remains (system entities that must be
  merged);
* ``missing_mention`` — Missing Mention: an Introduce and a Merge applied to the same mention;
* ``missing_entity`` — Missing Entity: a set of Introduces and Merges that forms a whole gold
  entity.

Like the authors' Berkeley Coreference Analyser, corefkit lets pronouns through the entity
rules: a system entity whose gold mentions are all pronouns, with at least two extra mentions,
is an Extra Entity (its pronouns are split off from it: Conflated Entities), and a gold entity
whose mentions the system found are all pronouns, with at least two missing, is a Missing
Entity (the found pronouns are merged into it: Divided Entity). Which part of an entity is
"the" entity, the one the others are split from and merged into, is the part holding its
earliest non-pronoun mention (the analyser's rule); corefkit takes it among the mentions both
sides agree on, so that a missing or an extra first mention is a Missing or Extra Mention and
not a divided or conflated entity (``docs/deviations.md`` §7 lists every difference).

corefkit adds, language-independently: ``extra_zero`` and ``missing_zero`` (an Extra or
Missing Mention that is a zero, an empty node) and, in UA semantics, the split-antecedent
categories of :mod:`corefkit.diagnosis.engine`. Zeros count as pronouns in the rules
above.

Everything here works on mention indices of one aligned document
(:class:`~corefkit.scoring.align.AlignedDocument`): :func:`transform` finds the changes,
:func:`corrected` applies those of chosen categories to the response, :func:`state_counts`
scores a state with MUC, B³ and CEAFe; the CoNLL F1 is their mean F1.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Collection, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.scoring.metrics.standard import CONLL_COMPONENTS, Counts, bcub, ceafe, muc
from corefkit.scoring.partition import Partition, contingency

SPAN_ERROR = "span_error"
CONFLATED_ENTITIES = "conflated_entities"
EXTRA_MENTION = "extra_mention"
EXTRA_ZERO = "extra_zero"
EXTRA_ENTITY = "extra_entity"
DIVIDED_ENTITY = "divided_entity"
MISSING_MENTION = "missing_mention"
MISSING_ZERO = "missing_zero"
MISSING_ENTITY = "missing_entity"
SPLIT_MEMBERS = "split_antecedent_members"
EXTRA_SPLIT = "extra_split_antecedent"
MISSING_SPLIT = "missing_split_antecedent"

# The order in which categories are fixed cumulatively: the analyser's ``*_prog`` files
# (span errors, conflated entities, extra mentions, extra entities, divided entities, missing
# mentions, missing entities), with corefkit's zero categories after their mention
# categories; the split-antecedent categories (UA semantics) last.
MENTION_CATEGORIES = (SPAN_ERROR, CONFLATED_ENTITIES, EXTRA_MENTION, EXTRA_ZERO, EXTRA_ENTITY,
                      DIVIDED_ENTITY, MISSING_MENTION, MISSING_ZERO, MISSING_ENTITY)
SPLIT_CATEGORIES = (SPLIT_MEMBERS, EXTRA_SPLIT, MISSING_SPLIT)
CATEGORIES = MENTION_CATEGORIES + SPLIT_CATEGORIES

TITLES = {
    SPAN_ERROR: "span error",
    CONFLATED_ENTITIES: "conflated entities",
    EXTRA_MENTION: "extra mention",
    EXTRA_ZERO: "extra zero",
    EXTRA_ENTITY: "extra entity",
    DIVIDED_ENTITY: "divided entity",
    MISSING_MENTION: "missing mention",
    MISSING_ZERO: "missing zero",
    MISSING_ENTITY: "missing entity",
    SPLIT_MEMBERS: "split antecedent: wrong members",
    EXTRA_SPLIT: "split antecedent: extra set",
    MISSING_SPLIT: "split antecedent: missing set",
}

# The transformations of §3.1 each category is made of.
OPERATIONS = {
    SPAN_ERROR: ("alter span",),
    CONFLATED_ENTITIES: ("split",),
    EXTRA_MENTION: ("split", "remove"),
    EXTRA_ZERO: ("split", "remove"),
    EXTRA_ENTITY: ("split", "remove"),
    DIVIDED_ENTITY: ("merge",),
    MISSING_MENTION: ("introduce", "merge"),
    MISSING_ZERO: ("introduce", "merge"),
    MISSING_ENTITY: ("introduce", "merge"),
    SPLIT_MEMBERS: ("change set members",),
    EXTRA_SPLIT: ("remove set",),
    MISSING_SPLIT: ("introduce set",),
}


@dataclass(frozen=True)
class MentionFacts:
    """What the categorisation needs to know of one aligned mention.

    ``order`` places it in the document (first node, last node): "earliest" compares it.
    ``head`` is its head's position (Alter Span pairs mentions with equal heads), ``trimmed``
    its nodes without punctuation at either end (pairs mentions that differ only in that).
    ``pronoun`` says that the entity rules pass over it (pronouns and zeros), ``zero`` that
    it is made of empty nodes.
    """

    order: tuple[Any, ...]
    head: Hashable | None = None
    trimmed: Hashable | None = None
    pronoun: bool = False
    zero: bool = False


@dataclass(frozen=True)
class Change:
    """One error at the index level: its category and the aligned mentions it moves.

    ``mentions`` are key indices once spans are altered (a span error's key mention; a
    conflated part, a divided piece, missing mentions) and response indices for extra
    mentions. ``key_entity`` and ``response_entity`` index the key and (span-corrected)
    response clusters involved; ``replaced`` is a span error's response mention. ``also``
    are mentions the change removes (a Split) or introduces (a Merge) without counting them:
    the analyser's anchor rule (``anchors="analyser"``) leaves an extra or a missing anchor
    uncounted.
    """

    category: str
    mentions: tuple[int, ...]
    key_entity: int | None = None
    response_entity: int | None = None
    replaced: int | None = None
    also: tuple[int, ...] = ()


@dataclass
class Transformation:
    """The changes that turn one document's response into its key.

    ``anchors`` gives each key entity the mention its other parts are merged into (None: the
    entity is built from its missing mentions, a Missing Entity, or from nothing found);
    ``fallbacks`` the earliest mention found of a key entity whose anchor is missing.
    """

    key: list[list[int]]
    response: list[list[int]]
    changes: list[Change] = field(default_factory=list)
    anchors: dict[int, int | None] = field(default_factory=dict)
    fallbacks: dict[int, int] = field(default_factory=dict)

    def of(self, category: str) -> list[Change]:
        return [c for c in self.changes if c.category == category]


# ============================================================================ transformations
ANCHORS = ("agreed", "analyser")


def transform(key: Sequence[Sequence[int]], response: Sequence[Sequence[int]],
              facts: dict[int, MentionFacts], anchors: str = "agreed") -> Transformation:
    """Every change that turns ``response`` into ``key`` (clusters of aligned mention indices;
    ``facts`` for every index of either side), categorised (§3.1–3.2).

    ``anchors`` says which part of an entity is the entity: ``agreed`` (corefkit) the part
    holding its earliest non-pronoun mention among those both sides have; ``analyser`` (the
    Berkeley analyser's) the part holding its earliest non-pronoun mention of all, so that an
    extra or missing first mention is no error of its own and the rest of its entity is
    conflated or divided instead.
    """
    key_clusters = [list(c) for c in key]
    key_of = {m: k for k, cluster in enumerate(key_clusters) for m in cluster}
    altered, spans = alter_spans(key_clusters, response, facts)
    found = Transformation(key_clusters, [list(c) for c in response])
    found.changes = [Change(SPAN_ERROR, (k,), key_of[k], None, r) for r, k in spans]
    analyser = anchors == "analyser"
    found.changes += split_and_remove(key_of, altered, facts, analyser)
    found.changes += introduce_and_merge(key_clusters, altered, facts, found, analyser)
    return found


def alter_spans(key: Sequence[Sequence[int]], response: Sequence[Sequence[int]],
                facts: dict[int, MentionFacts]) -> tuple[list[list[int]], list[tuple[int, int]]]:
    """Alter Span (§3.1): a response mention that matches no key mention becomes the key
    mention that matches no response mention and has the same head.

    As in the analyser, two passes over the unmatched mentions: first those whose nodes are
    the same once punctuation at either end is left out (the analyser also leaves out an
    English "the" and "'s", which corefkit does not), then those with the same head when
    exactly one key and one response mention have it. Returns the response with the altered
    mentions replaced and the (response, key) pairs.
    """
    in_key = {m for c in key for m in c}
    in_response = {m for c in response for m in c}
    lone_key = sorted(in_key - in_response, key=lambda m: facts[m].order)
    lone_response = sorted(in_response - in_key, key=lambda m: facts[m].order)
    pairs: dict[int, int] = {}
    by_trimmed: dict[Hashable, list[int]] = defaultdict(list)
    for k in lone_key:
        if facts[k].trimmed is not None:
            by_trimmed[facts[k].trimmed].append(k)
    taken: set[int] = set()
    for r in lone_response:
        for k in by_trimmed.get(facts[r].trimmed, ()) if facts[r].trimmed is not None else ():
            if k not in taken:
                pairs[r] = k
                taken.add(k)
                break
    heads: dict[Hashable, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    for k in lone_key:
        if k not in taken and facts[k].head is not None:
            heads[facts[k].head][0].append(k)
    for r in lone_response:
        if r not in pairs and facts[r].head is not None:
            heads[facts[r].head][1].append(r)
    for ks, rs in heads.values():
        if len(ks) == 1 and len(rs) == 1:
            pairs[rs[0]] = ks[0]
    altered = [[pairs.get(m, m) for m in cluster] for cluster in response]
    return altered, sorted(pairs.items(), key=lambda p: facts[p[1]].order)


def earliest(mentions: Sequence[int], facts: dict[int, MentionFacts]) -> int | None:
    """The earliest non-pronoun mention, else the earliest mention (None for none)."""
    named = [m for m in mentions if not facts[m].pronoun]
    return min(named or mentions, key=lambda m: facts[m].order, default=None)


def split_and_remove(key_of: dict[int, int], response: Sequence[Sequence[int]],
                     facts: dict[int, MentionFacts], analyser: bool = False) -> list[Change]:
    """Split and Remove (§3.1) on the span-corrected response, categorised (§3.2).

    A response entity splits into one part per key entity it holds mentions of and one part
    per extra mention. Its extra mentions form an Extra Entity when there are at least two and
    its key mentions are all pronouns (or none); the key parts are then all split off.
    Otherwise every extra mention is an Extra Mention (Extra Zero), and the part holding the
    entity's earliest non-pronoun key mention (else its earliest key mention) stays: every
    other key part is a Conflated Entities error. With ``analyser`` the anchor is the
    entity's earliest non-pronoun mention of all (else its earliest): an extra anchor is
    removed with the splits, uncounted.
    """
    changes: list[Change] = []
    for j, cluster in enumerate(response):
        parts: dict[int, list[int]] = {}
        extras: list[int] = []
        for m in sorted(cluster, key=lambda m: facts[m].order):
            k = key_of.get(m)
            if k is None:
                extras.append(m)
            else:
                parts.setdefault(k, []).append(m)
        found = [m for part in parts.values() for m in part]
        first = earliest(found + extras if analyser else found, facts)
        staying = key_of.get(first) if first is not None else None
        silent: tuple[int, ...] = ()
        if len(extras) >= 2 and all(facts[m].pronoun for m in found):
            changes.append(Change(EXTRA_ENTITY, tuple(extras), None, j))
            if not analyser:  # the entity is the extra one: every key part is split off
                staying = None
        else:
            if first is not None and staying is None and found:
                silent = (first,)
            for m in extras:
                if m not in silent:
                    changes.append(Change(EXTRA_ZERO if facts[m].zero else EXTRA_MENTION,
                                          (m,), None, j))
        for k, part in parts.items():
            if k != staying:
                changes.append(Change(CONFLATED_ENTITIES, tuple(part), k, j, also=silent))
    return changes


def introduce_and_merge(key: Sequence[Sequence[int]], response: Sequence[Sequence[int]],
                        facts: dict[int, MentionFacts], found: Transformation,
                        analyser: bool = False) -> list[Change]:
    """Introduce and Merge (§3.1) after the splits, categorised (§3.2).

    A key entity's mentions the response has form one piece per response entity; its missing
    mentions are introduced. They form a Missing Entity when there are at least two and the
    mentions found are all pronouns (or none); every piece is then merged into it. Otherwise
    each missing mention is a Missing Mention (Missing Zero), merged into the piece holding
    the entity's earliest non-pronoun mention found (else its earliest mention found), and
    every other piece is a Divided Entity error. With ``analyser`` the anchor is the earliest
    non-pronoun mention of the whole entity (else its earliest): a missing anchor is
    introduced with the merges, uncounted. ``found.anchors`` receives the anchors.
    """
    response_of = {m: j for j, cluster in enumerate(response) for m in cluster}
    changes: list[Change] = []
    for k, cluster in enumerate(key):
        ordered = sorted(cluster, key=lambda m: facts[m].order)
        present = [m for m in ordered if m in response_of]
        missing = [m for m in ordered if m not in response_of]
        anchor = earliest(ordered if analyser else present, facts)
        silent: tuple[int, ...] = ()
        if len(missing) >= 2 and all(facts[m].pronoun for m in present):
            found.anchors[k] = anchor if analyser and anchor in response_of else None
            changes.append(Change(MISSING_ENTITY, tuple(missing), k))
        else:
            if anchor is not None and anchor not in response_of and present:
                silent = (anchor,)
                found.fallbacks[k] = present[0]
            found.anchors[k] = anchor if anchor in response_of or silent else None
            for m in missing:
                if m not in silent:
                    changes.append(Change(MISSING_ZERO if facts[m].zero else MISSING_MENTION,
                                          (m,), k))
        anchored = found.anchors[k]
        target = response_of.get(anchored) if anchored is not None else None
        pieces: dict[int, list[int]] = {}
        for m in present:
            pieces.setdefault(response_of[m], []).append(m)
        for j, piece in pieces.items():
            if j != target:
                changes.append(Change(DIVIDED_ENTITY, tuple(piece), k, j, also=silent))
    return changes


# ============================================================================ corrections
class _State:
    """A response being corrected: mention -> entity label, plus the key entities' labels."""

    def __init__(self, response: Sequence[Sequence[int]], found: Transformation,
                 fixed: Collection[str]) -> None:
        self.label = {m: j for j, cluster in enumerate(response) for m in cluster}
        # a span error left unfixed: its key mention is still the response mention
        self.alias = {c.mentions[0]: c.replaced for c in found.of(SPAN_ERROR)
                      if SPAN_ERROR not in fixed and c.replaced is not None}
        self.anchors = found.anchors
        self.fallbacks = found.fallbacks
        self.key = found.key
        self.homes: dict[int, int] = {}
        self.fresh = itertools.count(len(response))

    def resolve(self, m: int) -> int:
        return m if m in self.label else self.alias.get(m, m)

    def home(self, k: int | None) -> int | None:
        """The label of key entity ``k``'s anchor, else of the entity built for it."""
        if k is None:
            return None
        for mention in (self.anchors.get(k), self.fallbacks.get(k)):
            if mention is not None and self.resolve(mention) in self.label:
                return self.label[self.resolve(mention)]
        return self.homes.get(k)

    def apply(self, change: Change) -> None:
        category = change.category
        if category == SPAN_ERROR:
            assert change.replaced is not None
            self.label[change.mentions[0]] = self.label.pop(change.replaced)
        elif category == CONFLATED_ENTITIES:
            new = next(self.fresh)
            for m in change.mentions:
                self.label[self.resolve(m)] = new
            for m in change.also:
                self.label.pop(m, None)
        elif category in (EXTRA_MENTION, EXTRA_ZERO, EXTRA_ENTITY):
            for m in change.mentions:
                self.label.pop(m, None)
        elif category == DIVIDED_ENTITY:
            into = self.home(change.key_entity)
            if into is None:
                assert change.key_entity is not None
                into = self.homes[change.key_entity] = next(self.fresh)
            for m in change.mentions + change.also:
                self.label[self.resolve(m)] = into
        elif category in (MISSING_MENTION, MISSING_ZERO, MISSING_ENTITY):
            k = change.key_entity
            assert k is not None
            target = self.home(k)
            if target is None:
                target = self.homes[k] = next(self.fresh)
            for m in change.mentions:
                self.label[m] = target
            if category == MISSING_ENTITY:  # the whole key entity, as in the analyser
                for m in self.key[k]:
                    if self.resolve(m) in self.label:
                        self.label[self.resolve(m)] = target

    def clusters(self) -> list[list[int]]:
        grouped: dict[int, list[int]] = {}
        for m, at in sorted(self.label.items(), key=lambda x: (x[1], x[0])):
            grouped.setdefault(at, []).append(m)
        return list(grouped.values())


def corrected(found: Transformation, fixed: Collection[str]) -> list[list[int]]:
    """The response with the changes of the ``fixed`` categories applied, in the fixed order
    of :data:`CATEGORIES` (the analyser's files ``corrected.*`` and ``corrected.*_prog``).

    Alter Span replaces a mention; a Split moves a part into a new entity; a Remove deletes
    mentions; a Merge moves a piece into the entity of its key entity's anchor, and an
    Introduce adds a mention there (to a new entity when the key entity has no anchor and
    nothing was merged for it yet); a Missing Entity is built whole, with the pronouns the
    response put elsewhere (the analyser's ``corrected.missing_entity``). With every category
    fixed the result is the key.

    After the Splits a piece is a whole entity, so a Merge joins two entities, as in the paper.
    Fixed alone, a Merge moves the piece's mentions only: the analyser joins the whole
    entities, which drags the mentions of other entities along when the response also
    conflated them, and can then score below the response as it is (``docs/deviations.md``
    §7).
    """
    state = _State(found.response, found, fixed)
    for category in CATEGORIES:
        if category in fixed:
            for change in found.of(category):
                state.apply(change)
    return state.clusters()


# ============================================================================ scoring
def state_counts(key: Sequence[Sequence[int]], response: Sequence[Sequence[int]],
                 drop_singletons: bool = False) -> dict[str, Counts]:
    """MUC, B³ and CEAFe counts of one response state against the key (``drop_singletons``:
    one-mention entities of the state are left out first, as a run that removes singletons
    would leave them out of that response)."""
    clusters = [list(c) for c in response if c and (len(c) > 1 or not drop_singletons)]
    k = Partition.from_clusters([list(c) for c in key])
    r = Partition.from_clusters(clusters)
    table = contingency(k, r)
    return {"muc": muc(k, r, table), "bcub": bcub(k, r, table), "ceafe": ceafe(k, r, table)}


def add_counts(total: dict[str, Counts], more: dict[str, Counts]) -> dict[str, Counts]:
    return {m: total.get(m, Counts()) + more[m] for m in CONLL_COMPONENTS}
