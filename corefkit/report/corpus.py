"""What a corpus report shows of one annotated corpus: ``corefkit stats``'s counts
(:mod:`corefkit.analysis.stats`) and the distributions behind them, as plotted.

Distributions, over the identity layer (non-referring markables and pseudo entities left out
of entity sizes and distances, as ``stats`` leaves them out of entities):

* entity sizes (mentions per entity), mention lengths (words; a zero has length 0);
* the distance from each mention to the previous mention of its entity, in sentences;
* per document: tokens, mentions, entities and mentions per 100 words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from corefkit.analysis.mention_types import TypeTable
from corefkit.analysis.stats import Stats, corpus_stats
from corefkit.model import IDENTITY, Document

SIZE_BINS = ((1, 1, "1"), (2, 2, "2"), (3, 3, "3"), (4, 4, "4"), (5, 9, "5-9"),
             (10, 19, "10-19"), (20, None, "20+"))
LENGTH_BINS = ((0, 0, "0 (zero)"), (1, 1, "1"), (2, 2, "2"), (3, 3, "3"), (4, 4, "4"),
               (5, 9, "5-9"), (10, 19, "10-19"), (20, None, "20+"))
DISTANCE_BINS = ((0, 0, "same"), (1, 1, "1"), (2, 2, "2"), (3, 5, "3-5"), (6, 10, "6-10"),
                 (11, 50, "11-50"), (51, None, "51+"))


def binned(values: Counter[int], bins: Sequence[tuple[int, int | None, str]]
           ) -> list[tuple[str, int]]:
    """(label, count) of each bin (``high`` None: open-ended)."""
    out = []
    for low, high, label in bins:
        out.append((label, sum(n for v, n in values.items()
                               if v >= low and (high is None or v <= high))))
    return out


@dataclass
class CorpusFacts:
    """The counts of ``corefkit stats`` and the distributions the corpus report plots."""

    total: Stats
    each: list[Stats]
    sizes: Counter[int] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    distances: Counter[int] = field(default_factory=Counter)
    words: list[int] = field(default_factory=list)

    def density(self) -> list[float]:
        """Mentions per 100 words, per document."""
        return [100 * s.counts["mentions"] / w if w else 0.0 for s, w in zip(self.each, self.words)]


def document_facts(doc: Document, facts: CorpusFacts) -> None:
    """Add one document's distributions to ``facts``."""
    tokens = doc.tokens
    facts.words.append(sum(1 for t in tokens if not t.is_empty))
    for m in doc.mentions:
        if m.layer == IDENTITY:
            facts.lengths[sum(1 for t in m.tokens if not tokens[t].is_empty)] += 1
    for entity in doc.entities_in(IDENTITY):
        chain = doc.mentions_of(entity)
        facts.sizes[len(chain)] += 1
        sentences = [tokens[m.tokens[0]].sentence for m in chain if m.tokens]
        for before, after in zip(sentences, sentences[1:]):
            facts.distances[after - before] += 1


def corpus_facts(documents: Sequence[Document], table: TypeTable | str | None = None
                 ) -> CorpusFacts:
    """Everything the corpus report shows of ``documents``."""
    total, each = corpus_stats(documents, table, per_document=True)
    facts = CorpusFacts(total, each)
    for doc in documents:
        document_facts(doc, facts)
    return facts
