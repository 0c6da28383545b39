"""Compact integer partitions of aligned mentions, and their contingency table.

Scoring starts by putting the key and the response mentions of a document into one index
space (:mod:`corefkit.scoring.align`). A :class:`Partition` then describes one side: for each
of its mentions, which entity it belongs to, as NumPy integer arrays. Every standard metric
is a function of the two partitions through three things only: the key entity sizes, the
response entity sizes, and the sizes of the non-empty intersections ``|K_i ∩ R_j|`` (the
contingency table), which :func:`contingency` computes once per document in O(n log n).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

# From this many pairs on, components are found by vectorized code (scipy) rather than in Python.
VECTOR_MIN = 512


@dataclass(frozen=True, eq=False)
class Partition:
    """One side of an aligned document: mention ``mentions[i]`` is in entity ``entities[i]``.

    Mention indices are the shared index space of the alignment; entity indices run over
    ``0 … n_entities-1`` and every entity has at least one mention.
    """

    mentions: np.ndarray   # int64, distinct mention indices
    entities: np.ndarray   # int64, entity index of each mention
    n_entities: int

    @classmethod
    def from_clusters(cls, clusters: list[list[int]], *, check: bool = True) -> Partition:
        """Build from lists of mention indices (empty clusters are skipped).

        ``check`` verifies that no index occurs twice; the aligner, which hands out
        distinct indices by construction, turns it off.
        """
        clusters = [c for c in clusters if c]
        sizes = [len(c) for c in clusters]
        flat = [m for c in clusters for m in c]
        if check and len(set(flat)) != len(flat):
            raise ValueError("a mention index occurs in two clusters of one partition")
        mentions = np.array(flat, dtype=np.int64)
        entities = np.repeat(np.arange(len(clusters), dtype=np.int64), sizes)
        return cls(mentions, entities, len(clusters))

    @classmethod
    def from_flat(cls, mentions: list[int], sizes: list[int]) -> Partition:
        """Build from the mention indices of every entity in a row and the (positive) size of
        each entity, as :func:`corefkit.scoring.align.index_mentions` gives them."""
        return cls(np.array(mentions, dtype=np.int64),
                   np.repeat(np.arange(len(sizes), dtype=np.int64), sizes), len(sizes))

    @property
    def sizes(self) -> np.ndarray:
        """Number of mentions of each entity."""
        return np.bincount(self.entities, minlength=self.n_entities)

    @property
    def n_mentions(self) -> int:
        return len(self.mentions)

    def clusters(self) -> list[list[int]]:
        """The entities as sorted lists of mention indices (for tests and explanations)."""
        order = np.lexsort((self.mentions, self.entities))
        result: list[list[int]] = [[] for _ in range(self.n_entities)]
        for i in order:
            result[int(self.entities[i])].append(int(self.mentions[i]))
        return result

    def without_singletons(self) -> Partition:
        """The same partition with one-mention entities removed (entities renumbered)."""
        sizes = self.sizes
        keep_entity = sizes > 1
        keep = keep_entity[self.entities]
        renumber = np.cumsum(keep_entity) - 1
        return Partition(self.mentions[keep], renumber[self.entities[keep]], int(keep_entity.sum()))


@dataclass(frozen=True, eq=False)
class Contingency:
    """Sizes of the key and response entities and of their non-empty intersections.

    ``pairs`` lists, for every (key entity, response entity) pair that shares mentions,
    ``key``, ``response`` and ``common`` (the number of shared mentions) as parallel arrays.
    """

    key_sizes: np.ndarray
    response_sizes: np.ndarray
    pair_key: np.ndarray
    pair_response: np.ndarray
    pair_common: np.ndarray

    @cached_property
    def components(self) -> list[list[int]]:
        """Pair indices grouped by connected component of the key–response overlap graph.

        Entities that share no mention never interact in an optimal alignment (CEAF), so each
        component can be solved on its own. Union–find over the pairs (path halving); large
        tables group by :attr:`pair_components` instead. Groups come in the order of their
        first pair, each in ascending pair order.
        """
        if len(self.pair_key) >= VECTOR_MIN:
            return group_pairs(self.pair_components, np.arange(len(self.pair_key)))
        # nodes: key entity k is k, response entity r is n_key + r
        n_key = len(self.key_sizes)
        left = self.pair_key.tolist()
        right = (self.pair_response + n_key).tolist()
        parent = list(range(n_key + len(self.response_sizes)))
        for a, b in zip(left, right):
            while parent[a] != a:  # path halving
                parent[a] = a = parent[parent[a]]
            while parent[b] != b:
                parent[b] = b = parent[parent[b]]
            if a != b:
                parent[a] = b
        groups: dict[int, list[int]] = {}
        for i, a in enumerate(left):
            while parent[a] != a:
                parent[a] = a = parent[parent[a]]
            groups.setdefault(a, []).append(i)
        return list(groups.values())

    @cached_property
    def pair_components(self) -> np.ndarray:
        """The connected component of each pair, as a label (the smallest key entity of the
        component), computed in NumPy: for large tables.

        Label propagation with pointer jumping over the bipartite overlap graph (key entities
        ``0 … k-1``, response entities ``k …``): every round hooks each root to the smallest
        root across its edges, then flattens the trees; labels only decrease, and rounds stop
        when every edge joins nodes of one label.
        """
        n_key = len(self.key_sizes)
        parent = np.arange(n_key + len(self.response_sizes), dtype=np.int64)
        left, right = self.pair_key, self.pair_response + n_key
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

    @property
    def key_common(self) -> np.ndarray:
        """|K_i ∩ R| for each key entity: how many of its mentions the response has."""
        return np.bincount(self.pair_key, weights=self.pair_common,
                           minlength=len(self.key_sizes)).astype(np.int64)

    @property
    def response_common(self) -> np.ndarray:
        """|R_j ∩ K| for each response entity."""
        return np.bincount(self.pair_response, weights=self.pair_common,
                           minlength=len(self.response_sizes)).astype(np.int64)


def contingency(key: Partition, response: Partition) -> Contingency:
    """The contingency table of two partitions over the same mention index space."""
    key_sizes = key.sizes
    response_sizes = response.sizes
    if key.n_mentions == 0 or response.n_mentions == 0:
        empty = np.zeros(0, dtype=np.int64)
        return Contingency(key_sizes, response_sizes, empty, empty, empty)
    # Indices are dense (0 … n-1), so a lookup array finds each key mention's response entity.
    size = int(max(key.mentions.max(), response.mentions.max())) + 1
    response_entity = np.full(size, -1, dtype=np.int64)
    response_entity[response.mentions] = response.entities
    r = response_entity[key.mentions]
    shared = r >= 0
    width = max(response.n_entities, 1)
    codes = key.entities[shared] * width + r[shared]
    uniq, counts = np.unique(codes, return_counts=True)
    return Contingency(key_sizes, response_sizes, uniq // width, uniq % width,
                       counts.astype(np.int64))


def group_pairs(labels: np.ndarray, pairs: np.ndarray) -> list[list[int]]:
    """``pairs`` (ascending pair indices) grouped by their component ``labels[pairs]``: the
    groups in the order of their first pair, each ascending."""
    if len(pairs) == 0:
        return []
    order = np.argsort(labels[pairs], kind="stable")
    ordered = pairs[order]
    cuts = np.flatnonzero(np.diff(labels[ordered])) + 1
    groups = [g.tolist() for g in np.split(ordered, cuts)]
    groups.sort(key=lambda g: g[0])
    return groups
