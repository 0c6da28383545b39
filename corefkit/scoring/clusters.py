"""Scoring clusters held in memory: the API a training loop imports.

A neural system's output for one document is a list of clusters, each a list of hashable
mentions — ``(start, end)`` tuples as e2e-coref and its successors give them, word indices,
any value compared by equality. :func:`score_clusters` scores one document or a list of them;
:class:`Scorer` accumulates documents one :meth:`~Scorer.update` at a time and reports with
:meth:`~Scorer.compute`. Both give the numbers of the reference scorer v8.01 (the numbers of
``corefkit score`` under reference semantics): singletons kept unless asked otherwise, and
repeated mentions handled by the same alignment
(:func:`corefkit.scoring.align.index_mentions`).

Speed: a document is counted when it is added as what its contingency table needs — which
key mention each response mention is, and the entity sizes — in flat integer arrays
(:class:`~corefkit.scoring.union.UnionBatch`: one dictionary per document, no Document, no
per-document index space); :meth:`Scorer.compute` (or a batch grown past
:data:`FLUSH_MENTIONS` mentions) counts all pending documents at once as one union of
disjoint documents, in NumPy when it is large. MUC, B³, CEAFm, CEAFe, LEA and mention
identification are sums over entities, and documents share none, so the counts of the union
are exactly the sum of the documents' counts; BLANC's non-coreference links are per
document, so the union's are corrected by the links across documents
(:func:`~corefkit.scoring.union.blanc_across_documents`). A document with a repeated mention
is aligned first by the reference scorer's rules; one whose response repeats an extent the
key lacks (the reference scorer counts those per document), and every document of a run with
a metric registered by a user, go through the engine's
:class:`~corefkit.scoring.engine.DocumentScorer` one by one instead. Counts stay exact
(integers and Fractions), whatever the route.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, cast

from corefkit.errors import Repair, UsageError
from corefkit.scoring.align import (
    DocumentMentions,
    MentionIndex,
    alignment_notes,
    index_mentions,
)
from corefkit.scoring.config import ScoreConfig
from corefkit.scoring.engine import (
    DocumentCounts,
    DocumentScorer,
    Pairing,
    Reduced,
    Totals,
)
from corefkit.scoring.metrics import registry, standard
from corefkit.scoring.report import ScoreReport
from corefkit.scoring.union import UnionBatch, blanc_across_documents

__all__ = ["FLUSH_MENTIONS", "Scorer", "blanc_across_documents", "score_clusters"]

Mention = Hashable
Cluster = Sequence[Mention]          # a list (or tuple) of mentions
Clusters = Sequence[Cluster]         # one document

# The metrics whose counts over a union of documents are the sum of the documents' counts;
# BLANC is corrected (blanc_across_documents). A metric of the same name registered by a user
# (another function) is scored document by document.
UNION_ADDITIVE = {"mentions": standard.mentions, "muc": standard.muc, "bcub": standard.bcub,
                  "ceafm": standard.ceafm, "ceafe": standard.ceafe, "lea": standard.lea,
                  "blanc": standard.blanc}
_SEQUENCES = {list, tuple}
# Pending documents are scored together once they hold this many mentions (memory bound).
FLUSH_MENTIONS = 1 << 21
SOURCE = "<clusters>"


class Scorer:
    """Exact, corpus-level coreference scores accumulated one document at a time.

    ``metrics`` as for :func:`corefkit.score` (``None``/``"all"``: mentions, MUC, B³, CEAFm,
    CEAFe, BLANC, LEA and the CoNLL score); only metrics of partitions can be computed from
    clusters (not ``by_type``, ``lmuc``…, ``dominant``, which read document annotation).
    ``remove_singletons`` drops one-mention clusters on both sides first (``corefkit score
    --remove-singletons``); by default singletons count, as in the reference scorer.

    ::

        scorer = Scorer()
        for gold, predicted in batches:              # one document each
            scorer.update(key=gold, response=predicted)
        report = scorer.compute()                    # a ScoreReport
        report.metrics["conll"].f1                   # an exact Fraction
        scorer.reset()

    Two documents, the first with one link missed:

    >>> scorer = corefkit.Scorer()
    >>> scorer.update(key=[[(0, 1), (4, 4)]], response=[[(0, 1)], [(4, 4)]])
    >>> scorer.update(key=[[(2, 3), (6, 6)]], response=[[(2, 3), (6, 6)]])
    >>> muc = scorer.compute().metrics["muc"]
    >>> muc.recall, muc.precision, muc.f1
    (Fraction(1, 2), Fraction(1, 1), Fraction(2, 3))
    """

    def __init__(self, metrics: str | Sequence[str] | None = None, *,
                 remove_singletons: bool = False) -> None:
        self.config = ScoreConfig.build(detected_format=None, metrics=metrics,
                                        semantics="reference",
                                        remove_singletons=remove_singletons)
        refused = [n for n in self.config.computed()
                   if registry.get(n).family not in (registry.PARTITION, registry.DERIVED)]
        if refused:
            raise UsageError(f"{', '.join(refused)} cannot be scored from clusters: "
                             f"{'it reads' if len(refused) == 1 else 'they read'} the "
                             "documents' annotation; score documents with corefkit.score")
        self._scorer = DocumentScorer(self.config)
        self._union = all(UNION_ADDITIVE.get(spec.name) is spec.compute
                          for spec in self._scorer.partition)
        self.reset()

    # ------------------------------------------------------------------ accumulating
    def reset(self) -> None:
        """Forget every document added so far."""
        self._totals = Totals(self.config)
        self._batch = UnionBatch()
        self._added = 0

    @property
    def documents(self) -> int:
        """The number of documents added since the last :meth:`reset`."""
        return self._added

    def update(self, key: Clusters, response: Clusters, *, name: str | None = None) -> None:
        """Add one document: the gold clusters (``key``) and the predicted ones
        (``response``), each a list of clusters, a cluster a list of hashable mentions.
        ``name`` names the document in warnings (default: its number, from 0)."""
        name = str(self._added) if name is None else name
        key = self._clusters(key, "key", name)
        response = self._clusters(response, "response", name)
        batch = self._batch
        try:
            added = self._union and batch.add_clusters(key, response)
        except TypeError:
            added = False  # an unhashable mention: refused below
        if not added:
            self._add_aligned(key, response, name)
        self._added += 1
        if batch.mentions >= FLUSH_MENTIONS:
            self._flush()

    def _add_aligned(self, key: Clusters, response: Clusters, name: str) -> None:
        """A document whose sides repeat a mention (or any document, when a metric was
        registered by a user): aligned by the reference scorer's rules first."""
        # the caller's lists are read as they are (not copied): DocumentMentions only reads
        key_doc = DocumentMentions(name, (name, ""), cast(list, key), 0)
        response_doc = DocumentMentions(name, (name, ""), cast(list, response), 0)
        try:
            found = index_mentions(key_doc, response_doc)
        except TypeError:
            _refuse_unhashable(key_doc, response_doc)
            raise
        if found.duplicates or not self._union:
            self._totals.add(self._scorer.score(Reduced(key_doc), Reduced(response_doc)))
        else:
            self._batch.add_index(found, alignment_notes(key_doc, response_doc, found))

    def compute(self) -> ScoreReport:
        """The report of every document added so far (the same :class:`ScoreReport` as
        :func:`corefkit.score`: ``.metrics["muc"].f1`` and the others are exact Fractions;
        ``.as_dict()`` gives them flat, under the key names of Hugging Face's ``coval``).
        Adding more documents afterwards continues the same totals."""
        from corefkit.scoring.api import _report

        self._flush()
        semantics = self._scorer.semantics
        return _report(self.config, semantics, self._totals.finished(semantics), self._totals,
                       Pairing(), [], SOURCE, SOURCE, None, None, None)

    # ------------------------------------------------------------------ internals
    def _clusters(self, clusters: Any, side: str, name: str) -> Clusters:
        """The clusters of one side, checked (a list of lists or tuples)."""
        if not isinstance(clusters, (list, tuple)):
            raise UsageError(f"document {name}: the {side} must be a list of clusters, not "
                             f"{_kind(clusters)}")
        if not set(map(type, clusters)) <= _SEQUENCES:  # else: which one is not
            for i, cluster in enumerate(clusters):
                if not isinstance(cluster, (list, tuple)):
                    raise UsageError(
                        f"document {name}: {side} cluster {i} is {_kind(cluster)}, not a list "
                        "of mentions; give every cluster as a list of hashable mentions, e.g. "
                        "[(0, 1), (5, 6)]")
        for cluster in clusters:
            if cluster:
                _refuse_arrays(cluster[0], side, name)
                break
        if self.config.remove_singletons:
            return [c for c in clusters if len(c) > 1]
        return clusters

    def _flush(self) -> None:
        """Score the pending documents as one union and add their counts to the totals."""
        batch = self._batch
        if not batch.documents:
            return
        counts = batch.counts(self._scorer.partition)
        self._totals.add(DocumentCounts(SOURCE, self._scorer.semantics.finish(counts),
                                        batch.notes, batch.key_repeats, batch.response_repeats))
        self._totals.documents += batch.documents - 1  # the union stands for that many
        self._batch = UnionBatch()


# ---------------------------------------------------------------------------- one call
def score_clusters(key: Any, response: Any, metrics: str | Sequence[str] | None = None, *,
                   documents: bool | None = None,
                   remove_singletons: bool = False) -> ScoreReport:
    """Score predicted clusters (``response``) against gold ones (``key``).

    Each side is one document — a list of clusters, a cluster a list (or tuple) of hashable
    mentions such as ``(start, end)`` tuples — or a list of documents (paired by position).
    ``documents=None`` tells the two apart by the first item two levels down: a list (lists
    are never mentions), or a tuple of tuples or lists (e2e-coref's tuple clusters), makes a
    list of documents; a mention (a ``(start, end)`` tuple, an int, a string) makes one
    document. Pass ``documents=True`` or ``False`` to say it: mentions that are tuples of
    tuples (discontinuous spans) read as clusters otherwise, and so do tuple clusters of int
    mentions. Returns the :class:`ScoreReport` of :class:`Scorer` (the numbers of the
    reference scorer, ``corefkit score``).
    """
    if documents is None:
        documents = _shape(key, response)
    scorer = Scorer(metrics, remove_singletons=remove_singletons)
    if not documents:
        scorer.update(key, response)
        return scorer.compute()
    for side, value in (("key", key), ("response", response)):
        if not isinstance(value, (list, tuple)):
            raise UsageError(f"the {side} must be a list of documents, not {_kind(value)}")
    if len(key) != len(response):
        raise UsageError(f"{len(key)} key documents but {len(response)} response documents; "
                         "documents pair by position (if each side is one document with "
                         "[start, end] lists as mentions, give the mentions as tuples)")
    for gold, predicted in zip(key, response):
        scorer.update(gold, predicted)
    return scorer.compute()


def _looks_like_documents(side: Any) -> bool | None:
    """True: a list of documents; False: one document; None: no telling (nothing two
    levels down, or not lists)."""
    if not isinstance(side, (list, tuple)):
        return None
    for first in side:
        if not isinstance(first, (list, tuple)):
            return None
        for item in first:
            if isinstance(item, list):
                return True
            if isinstance(item, tuple):
                if not item:
                    continue
                return isinstance(item[0], (list, tuple))
            return False
    return None


def _shape(key: Any, response: Any) -> bool:
    """Whether key and response are lists of documents (see :func:`score_clusters`)."""
    a, b = _looks_like_documents(key), _looks_like_documents(response)
    if a is not None and b is not None and a != b:
        def what(x: bool) -> str:
            return "a list of documents" if x else "one document"

        raise UsageError(f"the key looks like {what(a)} but the response like {what(b)}; pass "
                         "documents=True (lists of documents) or documents=False (one document "
                         "each)")
    return bool(a if a is not None else b)


def _kind(value: Any) -> str:
    """``"a set ({(3, 3)})"``, ``"an int (7)"``, ``"None"``: what was given, for messages."""
    if value is None:
        return "None"
    kind = type(value).__name__
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} ({value!r:.40})"


def _refuse_arrays(mention: Any, side: str, name: str) -> None:
    """Tensors and arrays hash by identity (or not at all): mentions must compare by value."""
    parts = mention if isinstance(mention, tuple) else (mention,)
    for part in parts:
        if hasattr(part, "shape") and not _numpy_scalar(part):
            raise UsageError(f"document {name}: {side} mentions are {type(part).__name__} "
                             "values; mentions are compared by value: convert them to Python "
                             "numbers first (tensor.tolist(), e.g. [tuple(m) for m in "
                             "spans.tolist()])")


def _numpy_scalar(value: Any) -> bool:
    import numpy as np  # only when a mention looks like an array

    return isinstance(value, np.generic)


def _refuse_unhashable(key: DocumentMentions, response: DocumentMentions) -> None:
    """A :class:`UsageError` at the first mention that is not hashable (if any)."""
    for side, doc in (("key", key), ("response", response)):
        for c, cluster in enumerate(doc.clusters):
            for m, mention in enumerate(cluster):
                try:
                    hash(mention)
                except TypeError:
                    hint = (" (a list: give mentions as tuples, e.g. [tuple(m) for m in "
                            "cluster])" if isinstance(mention, list) else "")
                    raise UsageError(
                        f"document {key.name}: {side} cluster {c}, mention {m}: "
                        f"{mention!r:.60} is not hashable{hint}; mentions must be hashable "
                        "values compared by equality, such as (start, end) tuples") from None
