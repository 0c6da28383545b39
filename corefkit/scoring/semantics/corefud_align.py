"""How the CorefUD scorer 1.2 pairs key and response mentions, and what its lookups then find.

The scorer (ufal/corefud-scorer 1.2, observed by running it; the official scorer of the CRAC
2022–2026 shared tasks) aligns the distinct mentions of a document in three steps:

1. with ``-z dependent``, every key zero is paired with a response zero by an optimal
   assignment on the agreement of their enhanced dependencies (:func:`zero_dependency_score`);
   pairs of score 0 are dropped;
2. the mentions left on both sides pair with the mention of the same identity (the same
   nodes; under head matching also the same head) — a zero that step 1 left unpaired
   included, whatever its DEPS;
3. what is still left is assigned by the matching score (partial, head; CRAFT greedily).

Then its metrics look every mention up in one table of the pairs whose two mentions differ,
filled from the key side first and then from the response side, so that a response mention
overwrites a key mention of the same identity: a mention stands for the table's entry for its
identity, else for itself, and is found on the other side when a mention of that identity is
there. Where two pairs share an identity (a response zero moved onto another key zero's
node by step 1) that lookup is not the alignment: a key zero can be found through a response
zero paired with another, and a paired one can miss its partner. :func:`scorer_lookups`
computes what each mention's lookup finds; where that is the alignment and no mention is
repeated, the partitions carry it exactly, else :func:`lookup_counts` counts the metrics on
the lookups themselves.

Assignments run on the same matrices as the scorer's — rows and columns by (first node, last
node, number of nodes), the order its sort gives — with SciPy's algorithm
(:func:`corefkit.scoring.assignment.linear_assignment`), so ties fall as they fall there.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.scoring.align import AlignedDocument, Alignment
from corefkit.scoring.assignment import linear_assignment
from corefkit.scoring.metrics import split
from corefkit.scoring.metrics.standard import BlancCounts, CorefUDBlancCounts, Counts
from corefkit.scoring.partition import Partition
from corefkit.scoring.semantics import corefud_mentions
from corefkit.scoring.semantics.corefud_model import (  # noqa: F401 (re-exported)
    Parent,
    Position,
    UDDocument,
    UDMention,
)


@dataclass
class CorefUDAlignment(Alignment):
    """An aligned document plus the counts of the metrics defined on mentions (mor, zero).

    ``key_index`` / ``response_index`` give the shared index of every mention by its
    identity (for scorers that relate other annotation, e.g. split antecedents, to it).
    """

    key_index: dict[Any, int] = field(default_factory=dict)
    response_index: dict[Any, int] = field(default_factory=dict)
    lookups: Lookups | None = None


Identity = Callable[[UDMention], Hashable]
Score = Callable[[UDMention, UDMention], float]
Assign = Callable[[list[UDMention], list[UDMention], Score], list[tuple[int, int]]]


def identity_of(match: str) -> Identity:
    """What makes two mentions the same mention: their nodes, and under head matching also
    their head (the scorer's "super-exact" match)."""
    if match == "head":
        return lambda m: (m.words, m.head)
    return lambda m: m.words


# ============================================================================ matching scores
def _f_score(a: set, b: set) -> float:
    # the scorer's _f_score, in the same float arithmetic: p over the key side, r over the other
    if not a or not b:
        return 0.0
    common = len(a & b)
    p = common / len(a)
    r = common / len(b)
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0


def zero_dependency_score(key: UDMention, response: UDMention) -> float:
    """10 × F1 of the (parent, relation) pairs + F1 of the parents; 0 across sentences."""
    if key.sentence != response.sentence:
        return 0.0
    score = 10 * _f_score(set(key.deps), set(response.deps))
    score += _f_score({p for p, _ in key.deps}, {p for p, _ in response.deps})
    return score


def _partial_score(key: UDMention, response: UDMention) -> float:
    k = set(key.words)
    r = set(response.words)
    core = key.core if key.core is not None else {key.head}
    if core and core <= r and r <= k:
        return len(k & r) * 1.0 / len(k)
    return 0.0


def _craft_score(key: UDMention, response: UDMention) -> float:
    """CRAFT 2019 partial matching (Baumgartner et al. 2019), as the UA scorer defines it: a
    response part lying within the key's first part makes a match, ranked by |K ∩ R| / |K|."""
    if not key.parts:
        return 0.0
    first, last = key.parts[0]
    for start, end in response.parts or ((response.words[0], response.words[-1]),):
        if start >= first and end <= last:
            return len(set(key.words) & set(response.words)) * 1.0 / len(key.words)
    return 0.0


def _head_score(key: UDMention, response: UDMention) -> float:
    if key.head == response.head:
        return len(set(key.words) & set(response.words)) * 1.0 / len(key.words)
    return 0.0


SCORES: dict[str, Score] = {"head": _head_score, "craft": _craft_score, "partial": _partial_score}


def _sort_order(mentions: Sequence[UDMention]) -> list[int]:
    return sorted(range(len(mentions)), key=lambda i: mentions[i].order)


def assign_by_score(keys: list[UDMention], responses: list[UDMention], score: Score
                    ) -> list[tuple[int, int]]:
    """Optimal one-to-one pairs (indices into the given lists) with a positive score: SciPy's
    assignment on the score matrix, rows and columns in the scorer's mention order."""
    if not keys or not responses:
        return []
    rows = _sort_order(keys)
    cols = _sort_order(responses)
    similarity = [[score(keys[ki], responses[rj]) for rj in cols] for ki in rows]
    chosen_rows, chosen_cols = linear_assignment([[-v for v in row] for row in similarity])
    return [(rows[i], cols[j]) for i, j in zip(chosen_rows, chosen_cols)
            if similarity[i][j] > 0]


# ============================================================================ pairing
def flatten(clusters: list[list[UDMention]], identity: Identity) -> tuple[
        list[UDMention], list[int], int]:
    """The distinct mentions (a repeated identity keeps its first copy, as the scorer's set of
    mentions does) with the cluster of that copy, and the number of repeats."""
    mentions: list[UDMention] = []
    cluster_of: list[int] = []
    seen: set = set()
    repeats = 0
    for c, cluster in enumerate(clusters):
        for m in cluster:
            ident = identity(m)
            if ident in seen:
                repeats += 1
                continue
            seen.add(ident)
            mentions.append(m)
            cluster_of.append(c)
    return mentions, cluster_of, repeats


def scorer_pairs(keys: list[UDMention], responses: list[UDMention], identity: Identity, *,
                 match: str, dependent: bool, assign: Assign | None = None
                 ) -> list[tuple[int, int]]:
    """The scorer's one-to-one alignment of distinct key and response mentions, in its three
    steps (module docstring): zeros by dependencies, then identical mentions, then the
    matching score. ``assign`` replaces step 3's assignment (the UA scorer 2.0's greedy
    CRAFT matching)."""
    pairs: list[tuple[int, int]] = []
    if dependent:
        key_zeros = [i for i, m in enumerate(keys) if m.zero]
        response_zeros = [j for j, m in enumerate(responses) if m.zero]
        for a, b in assign_by_score([keys[i] for i in key_zeros],
                                    [responses[j] for j in response_zeros],
                                    zero_dependency_score):
            pairs.append((key_zeros[a], response_zeros[b]))
    key_taken = {i for i, _ in pairs}
    response_taken = {j for _, j in pairs}
    position = {identity(m): j for j, m in enumerate(responses) if j not in response_taken}
    for i, m in enumerate(keys):
        if i in key_taken:
            continue
        j = position.get(identity(m))
        if j is not None:
            pairs.append((i, j))
            key_taken.add(i)
            response_taken.add(j)
    if match != "exact":
        key_left = [i for i in range(len(keys)) if i not in key_taken]
        response_left = [j for j in range(len(responses)) if j not in response_taken]
        for a, b in (assign or assign_by_score)([keys[i] for i in key_left],
                                                [responses[j] for j in response_left],
                                                SCORES.get(match, _partial_score)):
            pairs.append((key_left[a], response_left[b]))
    return pairs


@dataclass
class Lookups:
    """What the scorer's lookup table finds for every distinct mention.

    ``key_found[i]``: the response mention key mention ``i`` is looked up as, if the response
    has it (else None); ``response_found[j]`` likewise for response mention ``j`` in the key.
    ``counterpart`` is what the zero metric takes for a key mention: the response mention of
    its identity, else its partner in a pair of different mentions.
    """

    keys: list[UDMention]         # the distinct mentions of each side
    responses: list[UDMention]
    key_found: list[int | None]
    response_found: list[int | None]
    counterpart: list[int | None]
    consistent: bool   # the lookups are the alignment itself


def scorer_lookups(keys: list[UDMention], responses: list[UDMention], identity: Identity,
                   pairs: list[tuple[int, int]]) -> Lookups:
    """The scorer's lookups (module docstring): one table of the pairs whose mentions differ,
    key → response entries first, response → key entries after them (and over them)."""
    key_ids = [identity(m) for m in keys]
    response_ids = [identity(m) for m in responses]
    key_at = {x: i for i, x in enumerate(key_ids)}
    response_at = {y: j for j, y in enumerate(response_ids)}
    different = [(i, j) for i, j in pairs if key_ids[i] != response_ids[j]]
    table: dict[Hashable, tuple[bool, int]] = {}   # identity -> (on the response side, index)
    for i, j in different:
        table[key_ids[i]] = (True, j)
    for i, j in different:
        table[response_ids[j]] = (False, i)

    def looked_up(x: Hashable) -> Hashable:
        entry = table.get(x)
        if entry is None:
            return x
        side, n = entry
        return response_ids[n] if side else key_ids[n]

    key_found = [response_at.get(looked_up(x)) for x in key_ids]
    response_found = [key_at.get(looked_up(y)) for y in response_ids]
    partner = dict(different)
    counterpart = [response_at.get(x, partner.get(i)) for i, x in enumerate(key_ids)]
    aligned = dict(pairs)
    inverse = {j: i for i, j in pairs}
    consistent = all(key_found[i] == aligned.get(i) for i in range(len(keys))) and \
        all(response_found[j] == inverse.get(j) for j in range(len(responses)))
    return Lookups(keys, responses, key_found, response_found, counterpart, consistent)


# ============================================================================ alignment
def align_corefud(key: UDDocument, response: UDDocument | None, *, match: str = "exact",
                  zero_match: str = "linear", keep_zeros: bool = True,
                  metrics: Sequence[str] = ("mor", "zero"),
                  assign: Assign | None = None) -> CorefUDAlignment:
    """Align key and response mentions one to one as the scorer does and build their
    partitions.

    ``response=None`` scores a document the response lacks. ``metrics`` lists which of the
    mention-level metrics (``mor``, ``zero``) to compute as well. ``assign`` pairs the
    mentions left after exact matching (default: SciPy's assignment on the matching score, as
    the CorefUD scorer does; the UA scorer 2.0's CRAFT matching is greedy). Where the
    scorer's lookups are not the alignment (``lookups.consistent``) or mentions are repeated,
    the partitions do not give the scorer's numbers: :func:`lookup_counts` does.
    """
    identity = identity_of(match)
    keys, key_cluster, key_repeats = flatten(key.clusters, identity)
    response_clusters_in = response.clusters if response is not None else []
    responses, response_cluster, response_repeats = flatten(response_clusters_in, identity)
    pairs = scorer_pairs(keys, responses, identity, match=match,
                         dependent=keep_zeros and zero_match == "dependent", assign=assign)
    lookups = scorer_lookups(keys, responses, identity, pairs)
    aligned, response_index = _partitions(key, keys, key_cluster, responses, response_cluster,
                                          pairs, identity)
    aligned.key_repeats, aligned.response_repeats = key_repeats, response_repeats
    found = CorefUDAlignment(aligned, {}, {identity(m): i for i, m in enumerate(keys)},
                             response_index, lookups)
    if "mor" in metrics:
        # every mention, a repeated one as often as it occurs (as the scorer pairs them)
        found.extra["mor"] = corefud_mentions.mention_overlap(
            [m for c in key.clusters for m in c], [m for c in response_clusters_in for m in c])
    if "zero" in metrics:
        found.extra["zero"] = corefud_mentions.zero_anaphors(
            key.clusters, response_clusters_in, identity,
            {identity(m): lookups.counterpart[i] for i, m in enumerate(keys)},
            [identity(m) for m in responses])
    return found


def _partitions(key: UDDocument, keys: list[UDMention], key_cluster: list[int],
                responses: list[UDMention], response_cluster: list[int],
                pairs: list[tuple[int, int]], identity: Identity
                ) -> tuple[AlignedDocument, dict[Any, int]]:
    """The shared index space of an alignment: key mention i has index i, its partner
    shares it, unpaired response mentions get new indices."""
    index_of_response = {j: i for i, j in pairs}
    next_index = len(keys)
    key_clusters: list[list[int]] = [[] for _ in key.clusters]
    for i, c in enumerate(key_cluster):
        key_clusters[c].append(i)
    n_response = max(response_cluster, default=-1) + 1
    response_clusters: list[list[int]] = [[] for _ in range(n_response)]
    response_labels: dict[int, Any] = {}
    response_index: dict[Any, int] = {}
    for j, c in enumerate(response_cluster):
        found_index = index_of_response.get(j)
        if found_index is None:
            found_index = next_index
            next_index += 1
        response_clusters[c].append(found_index)
        response_index[identity(responses[j])] = found_index
        if responses[j].label is not None:
            response_labels[found_index] = responses[j].label
    aligned = AlignedDocument(
        key.name,
        Partition.from_clusters(key_clusters),
        Partition.from_clusters(response_clusters),
        [identity(m) for m in keys],
        key_labels={i: m.label for i, m in enumerate(keys) if m.label is not None},
        response_labels=response_labels,
    )
    return aligned, response_index


# ============================================================================ lookup metrics
class _Looked(split.Markable):
    """A mention as the scorer's lookups see it: response mention ``j`` is item ``j``; a key
    mention is the item of the response mention it is found as, else an item of its own."""

    __slots__ = ()

    def __init__(self, n: int) -> None:
        super().__init__(n, (n, n))


def lookup_counts(key: UDDocument, response: UDDocument | None, lookups: Lookups,
                  match: str) -> dict[str, Counts | BlancCounts]:
    """The partition metrics as the scorer counts them through its lookups.

    Its clusters keep a mention whose nodes occur in two entities in both, and a lookup finds
    the later one; each metric walks the clusters' mention lists (the same lists as the UA
    scorer's, :mod:`corefkit.scoring.metrics.split`, without accommodated sets). A key
    mention is found in the response cluster holding what its lookup finds; a response
    mention in the key cluster of what its lookup finds, which need not be the same pair.
    """
    identity = identity_of(match)
    key_clusters = key.clusters
    response_clusters = response.clusters if response is not None else []
    key_at = {identity(m): i for i, m in enumerate(lookups.keys)}
    response_at = {identity(m): j for j, m in enumerate(lookups.responses)}
    unfound = -1

    def key_item(m: UDMention) -> _Looked:
        i = key_at[identity(m)]
        j = lookups.key_found[i]
        return _Looked(j if j is not None else unfound - i)

    key_side: split.Clusters = [[key_item(m) for m in c] for c in key_clusters]
    response_side: split.Clusters = [[_Looked(response_at[identity(m)]) for m in c]
                                     for c in response_clusters]
    pair = split.ClusterPair(key_side, response_side)
    last_key_cluster: dict[int, int] = {}
    for c, cluster in enumerate(key_clusters):
        for m in cluster:
            last_key_cluster[key_at[identity(m)]] = c
    # a response mention is found in the key cluster of the key mention its lookup finds
    pair.key_at = {_Looked(j): last_key_cluster[i]
                   for j, i in enumerate(lookups.response_found) if i is not None}
    counts: dict[str, Counts | BlancCounts] = {
        m: split.score(m, pair).counts for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}
    counts["blanc"] = CorefUDBlancCounts(split.score("blanc-coref", pair).counts,
                                         split.score("blanc-noncoref", pair).counts)
    return counts
