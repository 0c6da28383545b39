"""Two annotators scored against each other by corefkit's scoring engine, each as key in turn.

The engine aligns mentions and computes the metrics exactly as ``corefkit score`` does, under
the CorefUD scorer's semantics (:mod:`corefkit.scoring.semantics.corefud`), the one whose
mention matching has the three variants agreement studies use: ``exact`` (the same tokens),
``partial`` (one mention inside the other, containing its minimum span: its head) and ``head``
(the same head). A mention without an annotated head takes the head of its dependency tree
where the document has one (of its minimum span, if annotated), else its first token (the
scorer's rule). With exact matching F1 does not depend on which annotator is the key; with
the others it may, so every F1 here is the mean of the two directions (both are kept).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.errors import Repair
from corefkit.model import Document

MATCHES = ("exact", "partial", "head")
CHAIN_METRICS = ("muc", "bcub", "ceafe", "blanc", "lea", "conll")
METRICS = ("mentions", *CHAIN_METRICS)


@dataclass(frozen=True)
class Symmetric:
    """A metric's F1 with the first annotator as key (``forward``) and with the second
    (``backward``); ``f1`` is their mean."""

    forward: Fraction
    backward: Fraction

    @property
    def f1(self) -> Fraction:
        return (self.forward + self.backward) / 2


@dataclass
class PairScores:
    """Every metric of one annotator pair under every matching, over the documents both
    annotated (``total``) and per document (``documents``: name -> the same)."""

    total: dict[str, dict[str, Symmetric]] = field(default_factory=dict)   # match -> metric
    documents: dict[str, dict[str, dict[str, Symmetric]]] = field(default_factory=dict)
    counts: tuple[int, int, int] = (0, 0, 0)   # exact: first's mentions, second's, matched
    warnings: list[Repair] = field(default_factory=list)


def score_pair(first: Sequence[Document], second: Sequence[Document], *,
               remove_singletons: bool = False) -> PairScores:
    """Score ``second`` against ``first`` and back, documents paired in order (same names)."""
    from corefkit.scoring.api import score

    found = PairScores()
    options: dict[str, Any] = dict(metrics=list(METRICS), semantics="corefud",
                                   per_document=True, jobs=1, engine="serial",
                                   remove_singletons=remove_singletons,
                                   # the annotations were checked when read and put on common
                                   # tokens; an annotator who marked nothing is agreement 0,
                                   # not an error (pair.empty-key)
                                   lenient=True)
    for match in MATCHES:
        forward = score(list(first), list(second), match=match, **options)
        backward = score(list(second), list(first), match=match, **options)
        found.total[match] = {m: Symmetric(forward.metrics[m].f1, backward.metrics[m].f1)
                              for m in METRICS}
        for there, back in zip(forward.per_document or [], backward.per_document or []):
            found.documents.setdefault(there.name, {})[match] = {
                m: Symmetric(there.metrics[m].f1, back.metrics[m].f1) for m in METRICS}
        if match == "exact":
            counts = forward.metrics["mentions"].counts
            found.counts = (int(counts.recall_den), int(counts.precision_den),
                            int(counts.recall_num))
        found.warnings += [w for w in (*forward.warnings, *backward.warnings)
                           if w.check.startswith("score.")]
    return found


def with_heads(doc: Document) -> Document:
    """``doc``, or a copy whose mentions without a head have the head of their dependency
    tree (of the minimum span when annotated; the document must have a tree)."""
    from corefkit.model.syntax import MISSING_HEADS, tree_head

    if all(t.head in MISSING_HEADS for t in doc.tokens) or all(
            m.head is not None for m in doc.mentions):
        return doc
    copy = doc.copy(text=False)
    for mention in copy.mentions:
        if mention.head is None and mention.tokens:
            head = tree_head(copy, mention.min_tokens or mention.tokens)
            if head is not None:
                mention.head, mention.head_derived = head, True
    return copy
