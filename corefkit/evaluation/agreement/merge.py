"""The adjudication draft: one annotation merged from the annotators', every disagreement
marked for the curator.

Candidates are the identity-layer mentions of all annotators of a document (on the common
tokens), one per extent; a candidate's votes are the annotators who marked exactly it. With n
annotators and a rule:

* ``majority``: a mention with more than n/2 votes is kept, one with fewer is dropped (both
  decided by vote); one with exactly n/2 (two annotators: one of them) is kept and left open;
* ``union``: every mention is kept; those not everyone marked are left open;
* ``intersection``: only the mentions everyone marked are kept (the others are dropped by the
  rule and listed in the summary).

Chains are then built over the kept mentions: two mentions are in one chain when at least
t annotators put them in one chain — t = ⌊n/2⌋ + 1 for ``majority``, 1 for ``union``, n for
``intersection`` — and chains are closed under this (connected components). A kept mention's
chain is *agreed* when every annotator marked it and put it in this chain (the same kept
mentions), *decided by vote* (``majority``) when more than n/2 of the annotators did, and
*open* otherwise. Finding the pairs that t annotators link never looks at pairs of mentions:
mentions are grouped by the chains of every t annotators (⌊n/2⌋+1 of n: 3 groupings for 3
annotators, 10 for 5), so that the draft costs time linear in the mentions.

Every kept mention with a disagreement gets the mention attribute ``mark`` (default
``disagreement``), whose value lists what is contested: ``mention 1/2 open`` (marked by one
of two annotators, left open), ``mention 2/3 vote``, ``boundary`` (another annotator marked an
overlapping mention with other boundaries), ``chain open``, ``chain vote``. Writers carry the
attribute as they carry mention attributes (a CoNLL-U ``Entity`` attribute, a TSV feature
where the layer has one, ...) or report its loss. Entity and mention attributes are the first
annotator's (in the order given) who has the mention or its chain.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.errors import UsageError
from corefkit.evaluation.agreement.disagreements import identity_mentions
from corefkit.model import Document, Entity, Mention

RULES = ("majority", "union", "intersection")
MARK = "disagreement"
MAX_GROUPINGS = 5000   # ⌊n/2⌋+1 of n annotators: up to 14 annotators


@dataclass
class MergeSummary:
    """What the draft decided and what it leaves to the curator (counts over documents)."""

    rule: str
    annotators: int
    documents: int = 0
    mentions_agreed: int = 0         # every annotator marked it
    mentions_kept_by_vote: int = 0
    mentions_dropped_by_vote: int = 0
    mentions_dropped_by_rule: int = 0   # intersection: not marked by everyone
    mentions_open: int = 0           # kept, contested, not decided
    chains_agreed: int = 0           # kept mentions whose chain every annotator gave
    chains_by_vote: int = 0
    chains_open: int = 0
    boundary_marked: int = 0
    dropped: list[dict[str, Any]] = field(default_factory=list)

    @property
    def decided_by_vote(self) -> int:
        return self.mentions_kept_by_vote + self.mentions_dropped_by_vote + self.chains_by_vote

    @property
    def left_open(self) -> int:
        return self.mentions_open + self.chains_open

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "annotators": self.annotators, "documents": self.documents,
                "mentions": {"agreed": self.mentions_agreed,
                             "kept_by_vote": self.mentions_kept_by_vote,
                             "dropped_by_vote": self.mentions_dropped_by_vote,
                             "dropped_by_rule": self.mentions_dropped_by_rule,
                             "open": self.mentions_open},
                "chains": {"agreed": self.chains_agreed, "decided_by_vote": self.chains_by_vote,
                           "open": self.chains_open},
                "boundary_marked": self.boundary_marked,
                "decided_by_vote": self.decided_by_vote, "left_open": self.left_open,
                "dropped": self.dropped}

    def lines(self) -> list[str]:
        return [f"adjudication draft ({self.rule} of {self.annotators} annotators, "
                f"{self.documents} documents): {self.decided_by_vote} decided by vote, "
                f"{self.left_open} left open",
                f"  mentions: {self.mentions_agreed} agreed, {self.mentions_kept_by_vote} kept "
                f"and {self.mentions_dropped_by_vote} dropped by vote, "
                f"{self.mentions_dropped_by_rule} dropped by the rule, {self.mentions_open} open "
                f"({self.boundary_marked} with another annotator's boundaries)",
                f"  chains of kept mentions: {self.chains_agreed} agreed, {self.chains_by_vote} "
                f"decided by vote, {self.chains_open} open"]


def threshold(rule: str, annotators: int) -> int:
    if rule not in RULES:
        raise UsageError(f"unknown merge rule {rule!r}; expected one of {', '.join(RULES)}")
    return {"majority": annotators // 2 + 1, "union": 1, "intersection": annotators}[rule]


def merge_document(docs: Sequence[Document], labels: Sequence[str], rule: str,
                   summary: MergeSummary, mark: str = MARK) -> Document:
    """The draft of one document from its annotations ``docs`` (on common tokens; a
    document some annotators lack is merged among those who have it: n is theirs)."""
    n = len(docs)
    link_votes = threshold(rule, n)
    candidates: dict[tuple[int, ...], list[tuple[int, Mention]]] = {}
    order: list[tuple[int, ...]] = []
    for k, doc in enumerate(docs):
        for m in identity_mentions(doc):
            if m.extent not in candidates:
                candidates[m.extent] = []
                order.append(m.extent)
            candidates[m.extent].append((k, m))
    order.sort()
    kept, status = _choose(order, candidates, n, rule, summary, docs, labels)
    draft = _skeleton(docs[0])
    chains = _link(kept, candidates, docs, link_votes)
    made = _build(draft, kept, candidates, docs, chains)
    _mark(draft, made, kept, candidates, docs, chains, status, n, rule, summary, mark)
    summary.documents += 1
    return draft


def _choose(order: list[tuple[int, ...]], candidates: dict[tuple[int, ...],
            list[tuple[int, Mention]]], n: int, rule: str, summary: MergeSummary,
                    docs: Sequence[Document], labels: Sequence[str]
            ) -> tuple[list[tuple[int, ...]], dict[tuple[int, ...], str]]:
    kept: list[tuple[int, ...]] = []
    status: dict[tuple[int, ...], str] = {}
    for extent in order:
        votes = len(candidates[extent])
        if votes == n:
            summary.mentions_agreed += 1
            kept.append(extent)
            continue
        if rule == "majority" and 2 * votes != n:
            if 2 * votes > n:
                summary.mentions_kept_by_vote += 1
                kept.append(extent)
                status[extent] = f"mention {votes}/{n} vote"
            else:
                summary.mentions_dropped_by_vote += 1
                _dropped(summary, extent, candidates, docs, labels, "dropped by vote")
            continue
        if rule == "intersection":
            summary.mentions_dropped_by_rule += 1
            _dropped(summary, extent, candidates, docs, labels, "not marked by everyone")
            continue
        summary.mentions_open += 1
        kept.append(extent)
        status[extent] = f"mention {votes}/{n} open"
    return kept, status


def _dropped(summary: MergeSummary, extent: tuple[int, ...],
             candidates: dict[tuple[int, ...], list[tuple[int, Mention]]],
             docs: Sequence[Document], labels: Sequence[str], why: str) -> None:
    from corefkit.evaluation.agreement.disagreements import location

    k, m = candidates[extent][0]
    summary.dropped.append({"document": docs[0].name, "text": docs[k].text(m),
                            "marked_by": [labels[j] for j, _ in candidates[extent]],
                            "location": location(docs[k], m), "why": why})


def _skeleton(reference: Document) -> Document:
    draft = Document(reference.id, reference.part, file=reference.file)
    draft.source_format = reference.source_format
    draft.meta, draft.attrs = dict(reference.meta), dict(reference.attrs)
    draft.tokens, draft.sentences = reference.tokens, reference.sentences
    return draft


def _link(kept: list[tuple[int, ...]], candidates: dict[tuple[int, ...],
          list[tuple[int, Mention]]], docs: Sequence[Document], votes: int
          ) -> list[int]:
    """Chain number of each kept mention: components of the pairs ``votes`` annotators link."""
    n = len(docs)
    groupings = list(itertools.combinations(range(n), votes))
    if len(groupings) > MAX_GROUPINGS:
        raise UsageError(f"a merge of {n} annotators would group the mentions "
                         f"{len(groupings)} ways; merge at most 14 annotators at once")
    chain_of: list[dict[int, Any]] = []   # per kept mention: annotator -> their entity
    for extent in kept:
        mine: dict[int, Any] = {}
        for k, m in candidates[extent]:
            entity = docs[k].entity_of(m)
            if entity is not None:
                mine[k] = entity
        chain_of.append(mine)
    parent = list(range(len(kept)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for group in groupings:
        first_of: dict[tuple[Any, ...], int] = {}
        for i, mine in enumerate(chain_of):
            if all(k in mine for k in group):
                signature = tuple(id(mine[k]) for k in group)
                j = first_of.setdefault(signature, i)
                if j != i:
                    parent[find(i)] = find(j)
    return [find(i) for i in range(len(kept))]


def _build(draft: Document, kept: list[tuple[int, ...]],
           candidates: dict[tuple[int, ...], list[tuple[int, Mention]]],
           docs: Sequence[Document], chains: list[int]) -> list[Mention]:
    entities: dict[int, Entity] = {}
    made = []
    for extent, chain in zip(kept, chains):
        k, source = candidates[extent][0]
        entity = entities.get(chain)
        if entity is None:
            own = docs[k].entity_of(source)
            entities[chain] = entity = draft.new_entity(attrs=dict(own.attrs) if own else None)
        made.append(draft.add_mention(source.tokens, entity, head=source.head,
                                      head_derived=source.head_derived,
                                      min_tokens=source.min_tokens,
                                      min_derived=source.min_derived,
                                      attrs=dict(source.attrs), line=source.line))
    return made


def _mark(draft: Document, made: list[Mention], kept: list[tuple[int, ...]],
          candidates: dict[tuple[int, ...], list[tuple[int, Mention]]],
          docs: Sequence[Document], chains: list[int], status: dict[tuple[int, ...], str],
          n: int, rule: str, summary: MergeSummary, mark: str) -> None:
    index = {extent: i for i, extent in enumerate(kept)}
    members: dict[int, list[int]] = {}
    for i, chain in enumerate(chains):
        members.setdefault(chain, []).append(i)
    covering: dict[int, list[tuple[int, ...]]] = {}
    for extent in candidates:
        for t in extent:
            covering.setdefault(t, []).append(extent)
    contested = {extent for extent, voters in candidates.items() if len(voters) < n}
    views_of: dict[tuple[int, int], frozenset[int]] = {}
    for i, extent in enumerate(kept):
        notes = [status[extent]] if extent in status else []
        voters = {k for k, _ in candidates[extent]}
        if any(other != extent and other in contested
               and {k for k, _ in candidates[other]} - voters
               for t in extent for other in covering.get(t, ())):
            notes.append("boundary")
            summary.boundary_marked += 1
        views = []
        for k, m in candidates[extent]:
            entity = docs[k].entity_of(m)
            if entity is None:
                views.append(frozenset({i}))
                continue
            view = views_of.get((k, id(entity)))
            if view is None:
                view = views_of[(k, id(entity))] = frozenset(
                    index[x.extent] for x in docs[k].mentions_of(entity, ordered=False)
                    if x.extent in index)
            views.append(view)
        merged = frozenset(members[chains[i]])
        if len(views) == n and all(v == merged for v in views):
            summary.chains_agreed += 1
        elif rule == "majority" and 2 * sum(1 for v in views if v == merged) > n:
            summary.chains_by_vote += 1
            notes.append("chain vote")
        else:
            summary.chains_open += 1
            notes.append("chain open")
        if notes:
            made[i].attrs[mark] = "; ".join(notes)
