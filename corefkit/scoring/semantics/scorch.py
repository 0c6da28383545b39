"""scorch's command-line semantics (``scorch`` 0.2.0 on CoNLL-2012 files; ``--semantics scorch``).

scorch's metric functions reproduce the reference scorer (its conformance cases, BLANC's edge
cases included), but its command line (``process_dirs``) scores otherwise, and this strategy
reproduces that so that a number it printed can be checked:

* each document's mentions are de-duplicated first (``scorch.conll.parse_document``): a mention
  in several entities stays in the entity whose first mention opens first, entities left
  empty disappear;
* every response mention the key lacks is added to the key as a singleton before scoring;
* the corpus score is not computed from summed counts but is the average of the documents'
  recall weighted by their key mentions (the added ones included), of their precision weighted
  by their response mentions, and of their F1 weighted by both — so F1 is not the harmonic
  mean of the corpus recall and precision.

Metrics: scorch prints MUC, B³, CEAFm, CEAFe and BLANC (and their CoNLL average); LEA is not
defined. Mention identification is reported against the augmented key, as everything scorch
scores is. Counts are exact fractions (scorch averages doubles).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, cast

from corefkit.model import Document
from corefkit.scoring.align import (
    Alignment,
    DocumentMentions,
    Labeler,
    MatchKey,
    align_exact,
    document_mentions,
)
from corefkit.scoring.metrics.standard import Counts, Number, ratio
from corefkit.scoring.semantics.exact import ExactExtents


@dataclass(frozen=True)
class WeightedCounts(Counts):
    """A document's recall, precision and F1 times their weights, and the weights; summing
    documents gives scorch's weighted averages (``f1`` is the weighted average of the
    documents' F1, not the harmonic mean of the summed recall and precision)."""

    f1_num: Number = 0
    f1_den: Number = 0

    def __add__(self, other: Counts) -> WeightedCounts:
        assert isinstance(other, WeightedCounts)
        return WeightedCounts(
            self.recall_num + other.recall_num, self.recall_den + other.recall_den,
            self.precision_num + other.precision_num, self.precision_den + other.precision_den,
            self.f1_num + other.f1_num, self.f1_den + other.f1_den)

    @property
    def f1(self) -> Fraction:
        return ratio(self.f1_num, self.f1_den)


def scorch_document(doc: Document) -> DocumentMentions:
    """A document's chains as scorch's reader leaves them: entities by the first token of
    their first mention, each mention only in the first entity that has it."""
    found = document_mentions(doc)
    def first_token(i: int) -> int:  # exact match keys are (first, last) or all tokens
        return min((cast(tuple[int, ...], m)[0] for m in found.clusters[i]), default=-1)

    order = sorted(range(len(found.clusters)), key=first_token)
    seen: set[MatchKey] = set()
    clusters = []
    for i in order:
        kept = list(dict.fromkeys(m for m in found.clusters[i] if m not in seen))
        seen.update(kept)
        if kept:
            clusters.append(kept)
    found.clusters = clusters
    return found


@dataclass(frozen=True)
class ScorchSemantics(ExactExtents):
    """scorch's command line (see the module docstring)."""

    remove_singletons: bool = False  # scorch has no singleton removal
    name: ClassVar[str] = "scorch"
    label: ClassVar[str] = "scorch-0.2.0-cli"

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> DocumentMentions:
        return scorch_document(doc)

    def align(self, key: DocumentMentions, response: DocumentMentions | None) -> Alignment:
        if response is not None:
            known = {m for c in key.clusters for m in c}
            extra = [[m] for c in response.clusters for m in c if m not in known]
            key = DocumentMentions(key.name, key.pair_key, [*key.clusters, *extra],
                                   key.n_tokens, key.file, key.line)
        return Alignment(align_exact(key, response))

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        aligned = alignment.aligned
        gold, system = aligned.key.n_mentions, aligned.response.n_mentions
        return {name: WeightedCounts(c.recall * gold, gold, c.precision * system, system,
                                     c.f1 * (gold + system), gold + system)
                for name, c in counts.items()}

