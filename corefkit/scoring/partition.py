"""Compact integer partitions of aligned mentions, and their contingency table.

Scoring starts by putting the key and the response mentions of a document into one index
space (:mod:`corefkit.scoring.align`). A :class:`Partition` then describes one side: for each
of its mentions, which entity it belongs to, as lists of integers. Every standard metric is a
function of the two partitions through three things only: the key entity sizes, the response
entity sizes, and the sizes of the non-empty intersections ``|K_i ∩ R_j|`` (the contingency
table), which :func:`contingency` computes once per document in O(n).

The lists are plain Python integers: a document has hundreds of mentions, where NumPy's
per-call cost exceeds the work, and a run under the reference semantics then never imports
NumPy (a twelfth of a short run's time). Only a whole batch of documents scored as one
partition by :mod:`corefkit.scoring.clusters` — :data:`VECTOR_MENTIONS` key mentions or
:data:`VECTOR_MIN` pairs — is counted and split into components in NumPy.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from itertools import chain, repeat
from typing import Any

# From this many pairs on, components are found by vectorized code (NumPy) rather than in Python.
VECTOR_MIN = 20_000
# ... and from this many key mentions on, the contingency table is counted in NumPy
VECTOR_MENTIONS = 200_000


@dataclass(frozen=True, eq=False)
class Partition:
    """One side of an aligned document: mention ``mentions[i]`` is in entity ``entities[i]``.

    Mention indices are the shared index space of the alignment; entity indices run over
    ``0 … n_entities-1`` and every entity has at least one mention.
    """

    mentions: list[int]   # distinct mention indices
    entities: list[int]   # entity index of each mention
    n_entities: int

    @classmethod
    def from_clusters(cls, clusters: list[list[int]], *, check: bool = True) -> Partition:
        """Build from lists of mention indices (empty clusters are skipped).

        ``check`` verifies that no index occurs twice; the aligner, which hands out
        distinct indices by construction, turns it off.
        """
        clusters = [c for c in clusters if c]
        flat = [int(m) for c in clusters for m in c]
        if check and len(set(flat)) != len(flat):
            raise ValueError("a mention index occurs in two clusters of one partition")
        return cls.from_flat(flat, [len(c) for c in clusters])

    @classmethod
    def from_flat(cls, mentions: list[int], sizes: list[int]) -> Partition:
        """Build from the mention indices of every entity in a row and the (positive) size of
        each entity, as :func:`corefkit.scoring.align.index_mentions` gives them."""
        entities = list(chain.from_iterable(map(repeat, range(len(sizes)), sizes)))
        partition = cls(mentions, entities, len(sizes))
        partition.__dict__["sizes"] = list(sizes)  # known: spare the count
        return partition

    @cached_property
    def sizes(self) -> list[int]:
        """Number of mentions of each entity."""
        sizes = [0] * self.n_entities
        for entity in self.entities:
            sizes[entity] += 1
        return sizes

    @property
    def n_mentions(self) -> int:
        return len(self.mentions)

    def clusters(self) -> list[list[int]]:
        """The entities as sorted lists of mention indices (for tests and explanations)."""
        result: list[list[int]] = [[] for _ in range(self.n_entities)]
        for mention, entity in zip(self.mentions, self.entities):
            result[entity].append(mention)
        for cluster in result:
            cluster.sort()
        return result

    def without_singletons(self) -> Partition:
        """The same partition with one-mention entities removed (entities renumbered)."""
        sizes = self.sizes
        renumber: list[int] = []
        kept = 0
        for size in sizes:
            renumber.append(kept if size > 1 else -1)
            kept += size > 1
        pairs = [(m, renumber[e]) for m, e in zip(self.mentions, self.entities)
                 if sizes[e] > 1]
        return Partition([m for m, _ in pairs], [e for _, e in pairs], kept)


@dataclass(frozen=True, eq=False)
class Contingency:
    """Sizes of the key and response entities and of their non-empty intersections.

    ``pairs`` lists, for every (key entity, response entity) pair that shares mentions,
    ``key``, ``response`` and ``common`` (the number of shared mentions) as parallel lists, in
    the order of the pair's first shared key mention.
    """

    key_sizes: list[int]
    response_sizes: list[int]
    pair_key: list[int]
    pair_response: list[int]
    pair_common: list[int]

    @cached_property
    def components(self) -> list[list[int]]:
        """Pair indices grouped by connected component of the key–response overlap graph.

        Entities that share no mention never interact in an optimal alignment (CEAF), so each
        component can be solved on its own. Union–find over the pairs (path halving); large
        tables group by :attr:`pair_components` instead. Groups come in the order of their
        first pair, each in ascending pair order.
        """
        if len(self.pair_key) >= VECTOR_MIN:
            import numpy as np

            return group_pairs(self.pair_components, np.arange(len(self.pair_key)))
        # nodes: key entity k is k, response entity r is n_key + r
        n_key = len(self.key_sizes)
        parent = list(range(n_key + len(self.response_sizes)))
        for a, b in zip(self.pair_key, self.pair_response):
            b += n_key
            while parent[a] != a:  # path halving
                parent[a] = a = parent[parent[a]]
            while parent[b] != b:
                parent[b] = b = parent[parent[b]]
            if a != b:
                parent[a] = b
        groups: dict[int, list[int]] = {}
        for i, a in enumerate(self.pair_key):
            while parent[a] != a:
                parent[a] = a = parent[parent[a]]
            groups.setdefault(a, []).append(i)
        return list(groups.values())

    @cached_property
    def pair_components(self) -> Any:
        """The connected component of each pair, as a label (the smallest key entity of the
        component), computed in NumPy (an array): for large tables.

        Label propagation with pointer jumping over the bipartite overlap graph (key entities
        ``0 … k-1``, response entities ``k …``): every round hooks each root to the smallest
        root across its edges, then flattens the trees; labels only decrease, and rounds stop
        when every edge joins nodes of one label.
        """
        import numpy as np

        n_key = len(self.key_sizes)
        parent = np.arange(n_key + len(self.response_sizes), dtype=np.int64)
        left = np.asarray(self.pair_key, dtype=np.int64)
        right = np.asarray(self.pair_response, dtype=np.int64) + n_key
        while True:
            a, b = parent[left], parent[right]
            differ = a != b
            if not differ.any():
                return parent[left]
            low, high = np.minimum(a[differ], b[differ]), np.maximum(a[differ], b[differ])
            np.minimum.at(parent, high, low)
            while True:  # pointer jumping: every node to its root
                jumped = parent[parent]
                if np.array_equal(jumped, parent):
                    break
                parent = jumped

    @cached_property
    def key_common(self) -> list[int]:
        """|K_i ∩ R| for each key entity: how many of its mentions the response has."""
        return _per_entity(len(self.key_sizes), self.pair_key, self.pair_common)

    @cached_property
    def response_common(self) -> list[int]:
        """|R_j ∩ K| for each response entity."""
        return _per_entity(len(self.response_sizes), self.pair_response, self.pair_common)


def _per_entity(n: int, entities: list[int], values: list[int]) -> list[int]:
    totals = [0] * n
    for entity, value in zip(entities, values):
        totals[entity] += value
    return totals


def contingency(key: Partition, response: Partition) -> Contingency:
    """The contingency table of two partitions over the same mention index space."""
    key_sizes = key.sizes
    response_sizes = response.sizes
    if key.n_mentions == 0 or response.n_mentions == 0:
        return Contingency(key_sizes, response_sizes, [], [], [])
    if key.n_mentions >= VECTOR_MENTIONS:
        return _vector_contingency(key, response)
    response_entity = dict(zip(response.mentions, response.entities))
    # counted in C: (key entity, response entity or None) of every key mention
    counts = Counter(zip(key.entities, map(response_entity.get, key.mentions)))
    pair_key, pair_response, pair_common = [], [], []
    for (k, r), n in counts.items():
        if r is not None:
            pair_key.append(k)
            pair_response.append(r)
            pair_common.append(n)
    return Contingency(key_sizes, response_sizes, pair_key, pair_response, pair_common)


def _vector_contingency(key: Partition, response: Partition) -> Contingency:
    """:func:`contingency` of partitions with hundreds of thousands of mentions (a batch of
    documents scored as one), in NumPy; pairs in (key entity, response entity) order."""
    import numpy as np

    key_mentions = np.asarray(key.mentions, dtype=np.int64)
    response_mentions = np.asarray(response.mentions, dtype=np.int64)
    size = int(max(key_mentions.max(), response_mentions.max())) + 1
    response_entity = np.full(size, -1, dtype=np.int64)
    response_entity[response_mentions] = np.asarray(response.entities, dtype=np.int64)
    found = response_entity[key_mentions]
    shared = found >= 0
    width = max(response.n_entities, 1)
    codes = np.asarray(key.entities, dtype=np.int64)[shared] * width + found[shared]
    cells, counts = np.unique(codes, return_counts=True)
    return Contingency(key.sizes, response.sizes, (cells // width).tolist(),
                       (cells % width).tolist(), counts.tolist())


def group_pairs(labels: Any, pairs: Any) -> list[list[int]]:
    """``pairs`` (ascending pair indices, a NumPy array) grouped by their component
    ``labels[pairs]``: the groups in the order of their first pair, each ascending."""
    import numpy as np

    if len(pairs) == 0:
        return []
    order = np.argsort(labels[pairs], kind="stable")
    ordered = pairs[order]
    cuts = [0, *(np.flatnonzero(np.diff(labels[ordered])) + 1).tolist(), len(ordered)]
    flat = ordered.tolist()  # sliced as a list: np.split costs microseconds per group
    groups = [flat[a:b] for a, b in zip(cuts, cuts[1:])]
    groups.sort(key=lambda g: g[0])
    return groups
