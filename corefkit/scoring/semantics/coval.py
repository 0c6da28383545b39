"""coval's semantics (``scorer.py`` of ns-moosavi/coval; ``--semantics coval``).

coval reimplements the reference scorer's metrics but keeps a response mention that is
repeated in two entities in both, and its metrics look mentions up in a mention → entity table
in which the entity read last wins. Precision and recall therefore see different responses:
precision walks the response's entities with every repeat in place, recall looks each key
mention up in the table built from the response. No other scorer combines the two
(``docs/deviations.md`` §5); this strategy reproduces them so that a number coval printed can
be checked, and states that it does.

What coval reads, and how it is rebuilt here from corefkit's model:

* a mention is (the sentence its last token is in, its first token's position in the
  sentence its first token is in, its last token's position in its last sentence) —
  ``coval.conll.mention.Mention.__eq__``;
* an entity's id is the number made of the digits of its bracket id (``extract_coref_
  annotation`` skips every other character), so ``7`` and ``07`` are one entity;
* entities are numbered in the order a mention of theirs is first *closed* (a one-token
  mention before a longer one closing on the same token), mentions listed in that order;
* metrics (``coval.eval.evaluator``): mentions, MUC, B³ and LEA take the entities of one side
  and the lookup table of the other; CEAFe takes both sides' entity lists; ``remove_singletons``
  drops the entities of one mention after reading. coval's command line offers no CEAFm and no
  BLANC, so they are not defined here.

Counts are exact fractions (coval sums floats; it prints two decimals).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from corefkit.model import IDENTITY, Document, Mention
from corefkit.scoring.align import AlignedDocument, Alignment, Labeler
from corefkit.scoring.ceaf_alignment import (
    OVERLAP_BUDGET,
    class_assignment,
    cluster_classes,
    too_dense,
)
from corefkit.scoring.metrics.standard import Counts, sum_fractions
from corefkit.scoring.partition import Partition
from corefkit.scoring.semantics.exact import ExactExtents

CovalMention = tuple[int, int, int]  # (last sentence, first token in its sentence, last token)
Clusters = list[list[CovalMention]]
METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")
DIGITS = re.compile(r"\d")


@dataclass
class CovalDocument:
    """A document as coval's reader sees it."""

    name: str
    pair_key: tuple[str, str]
    clusters: Clusters
    file: str | None = None
    line: int | None = None


def coval_document(doc: Document, remove_singletons: bool) -> CovalDocument:
    """The entities of ``doc`` as coval's reader builds them (see the module docstring)."""
    starts = [s.start for s in doc.sentences]

    def sentence(token: int) -> int:
        return bisect_right(starts, token) - 1

    def identity(mention: Mention) -> CovalMention:
        first, last = mention.tokens[0], mention.tokens[-1]
        closing = sentence(last)
        return (closing, first - starts[sentence(first)], last - starts[closing])

    found: list[tuple[int, bool, int, Hashable, CovalMention]] = []
    for entity in doc.entities_in(IDENTITY):
        digits = "".join(DIGITS.findall(str(entity.attrs.get("original_id", ""))))
        cluster: Hashable = int(digits) if digits else ("entity", entity.id)
        for m in doc.mentions_of(entity, ordered=False):
            if m.tokens:
                found.append((m.tokens[-1], len(m.tokens) > 1, m.id, cluster, identity(m)))
    entities: dict[Hashable, list[CovalMention]] = {}
    for _, _, _, cluster, mention in sorted(found, key=lambda x: x[:3]):
        entities.setdefault(cluster, []).append(mention)
    clusters = [c for c in entities.values() if not remove_singletons or len(c) > 1]
    return CovalDocument(doc.name, doc.pair_key(), clusters, doc.file, doc.line)


# ---------------------------------------------------------------------------- coval's metrics
def _lookup(clusters: Clusters) -> dict[CovalMention, int]:
    """Mention -> the index of the last entity that has it (``get_mention_assignments``)."""
    return {m: i for i, c in enumerate(clusters) for m in c}


def _mentions(clusters: Clusters, other: dict[CovalMention, int]) -> tuple[int, int]:
    distinct = {m for c in clusters for m in c}
    return len(distinct & other.keys()), len(distinct)


def _muc(clusters: Clusters, other: dict[CovalMention, int]) -> tuple[int, int]:
    correct = links = 0
    for c in clusters:
        links += len(c) - 1
        found = {other[m] for m in c if m in other}
        correct += len(c) - sum(1 for m in c if m not in other) - len(found)
    return correct, links


def _bcub(clusters: Clusters, other: dict[CovalMention, int]) -> tuple[Fraction, int]:
    sums: dict[int, int] = {}  # entity size -> Σ n² over its entities
    for c in clusters:
        counts = Counter(other[m] for m in c if m in other)
        sums[len(c)] = sums.get(len(c), 0) + sum(n * n for n in counts.values())
    return sum_fractions(sums), sum(len(c) for c in clusters)


def _lea(clusters: Clusters, others: Clusters, other: dict[CovalMention, int]
         ) -> tuple[Fraction, int]:
    sums: dict[int, int] = {}  # |E| - 1 -> Σ 2·links found (|E| / C(|E|, 2) = 2 / (|E| - 1))
    singletons = 0
    for c in clusters:
        n = len(c)
        if n == 1:
            singletons += c[0] in other and len(others[other[c[0]]]) == 1
        else:
            # pairs of its mentions (repeats counted each time) found in one other entity
            together = Counter(other[m] for m in c if m in other)
            common = sum(k * (k - 1) // 2 for k in together.values())
            sums[n - 1] = sums.get(n - 1, 0) + 2 * common
    return sum_fractions(sums) + singletons, sum(len(c) for c in clusters)


def _ceafe(key: Clusters, response: Clusters) -> Fraction:
    """Σ φ4 of the best one-to-one entity alignment, solved per connected component; identical
    entities are aligned as classes, so that a mention repeated in many entities costs no
    quadratic table (:func:`corefkit.scoring.ceaf_alignment.class_assignment`)."""
    key_class, key_reps = cluster_classes(key)
    response_class, response_reps = cluster_classes(response)
    where: dict[CovalMention, set[int]] = {}
    for b, c in enumerate(response_reps):
        for m in c:
            where.setdefault(m, set()).add(b)
    overlaps: dict[tuple[int, int], int] = {}
    work = 0
    for a, c in enumerate(key_reps):
        for m in c:  # coval counts every mention of the key entity found in the response one
            found = where.get(m, ())
            work += len(found)
            if work > OVERLAP_BUDGET:
                raise too_dense(len(key), len(response))
            for b in found:
                overlaps[(a, b)] = overlaps.get((a, b), 0) + 1

    def phi4(a: int, b: int) -> Fraction:
        return Fraction(2 * overlaps[(a, b)], len(key_reps[a]) + len(response_reps[b]))

    # chosen in doubles, as coval's linear_sum_assignment chooses; summed exactly
    pairs = class_assignment(key_class, response_class, overlaps, phi4)
    return sum((phi4(key_class[i], response_class[j]) for i, j in pairs), Fraction(0))


def coval_counts(key: Clusters, response: Clusters, metrics: Sequence[str]) -> dict[str, Counts]:
    """coval's counts of one document (``Evaluator.update``): precision from the response's
    entities and the key's lookup table, recall from the key's entities and the response's."""
    to_response, to_key = _lookup(response), _lookup(key)
    counts: dict[str, Counts] = {}
    for name in metrics:
        if name == "ceafe":
            similarity = _ceafe(key, response)
            counts[name] = Counts(similarity, len(key), similarity, len(response))
        elif name == "lea":
            counts[name] = Counts(*_lea(key, response, to_response),
                                  *_lea(response, key, to_key))
        elif name in _SIDES:
            counts[name] = Counts(*_SIDES[name](key, to_response),
                                  *_SIDES[name](response, to_key))
    return counts


_SIDES: dict[str, Any] = {"mentions": _mentions, "muc": _muc, "bcub": _bcub}


# ---------------------------------------------------------------------------- the strategy
@dataclass(frozen=True)
class CovalSemantics(ExactExtents):
    """coval's rules (its alignment computes every metric it defines; singletons are removed
    by the reduction, after reading, as coval does)."""

    remove_singletons: bool = False
    name: ClassVar[str] = "coval"
    label: ClassVar[str] = "coval-87071a6"

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> CovalDocument:
        return coval_document(doc, self.remove_singletons)

    def align(self, key: CovalDocument, response: CovalDocument | None) -> Alignment:
        empty = Partition.from_clusters([])
        aligned = AlignedDocument(key.name, empty, empty, [])
        clusters = response.clusters if response is not None else []
        return Alignment(aligned, coval_counts(key.clusters, clusters, METRICS))

