"""The scoring pipeline: documents → reduced documents → pairs → counts → totals.

:class:`DocumentScorer` holds what one process needs for a run (the semantics strategy, the
labeler, the links metrics' configuration), built from a :class:`ScoreConfig`; its
:meth:`~DocumentScorer.score` turns one reduced key document and its response into
:class:`DocumentCounts`, additive and picklable. :func:`pair_documents` pairs two streams of
reduced documents as they are read: documents in the same order pair without buffering; a
response out of order waits in an index until its key comes, so memory is bounded by the
documents read ahead, not by the corpus. :class:`Totals` sums counts exactly, in any order.

The serial run is :func:`run_serial`; :mod:`corefkit.scoring.parallel` runs the same pieces in
processes or on a Dask cluster.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from corefkit.errors import FormatError, Repair
from corefkit.model import Document
from corefkit.model.words import Words
from corefkit.scoring.align import note
from corefkit.scoring.config import ScoreConfig
from corefkit.scoring.metrics import registry
from corefkit.scoring.partition import contingency
from corefkit.scoring.tokens import TokenCheck, document_words

if TYPE_CHECKING:
    from corefkit.alignment import Aligned, DocumentAlignment


# ---------------------------------------------------------------------------- documents
@dataclass
class Reduced:
    """A document as scoring needs it: the semantics' reduction plus the links metrics' links.

    When the run aligns responses to keys (``ScoreConfig.align``), both sides keep the read
    ``source`` document, and a response is reduced only once it is aligned to its key
    (``doc`` is None until then); ``pieces`` names the response documents joined into it.
    """

    doc: Any                                   # DocumentMentions, UDDocument, ... or None
    links: dict[str, Any] = field(default_factory=dict)
    repairs: list[Repair] = field(default_factory=list)
    words: Words | None = None                 # compared with the other side's (tokens.py)
    line: int | None = None                    # where the document starts in its file
    format: str | None = None                  # the format it was read from
    source: Document | None = None             # the read document, when the run aligns
    pieces: list[str] = field(default_factory=list)

    @property
    def pair_key(self) -> tuple[str, str]:
        if self.doc is None:
            assert self.source is not None
            return self.source.pair_key()
        return self.doc.pair_key

    @property
    def name(self) -> str:
        if self.doc is None:
            assert self.source is not None
            return self.source.name
        return self.doc.name


@dataclass
class DocumentCounts:
    """One document's counts (metric -> additive counts) and what scoring it noticed."""

    name: str
    counts: dict[str, Any]
    notes: list[Repair] = field(default_factory=list)
    key_repeats: int = 0
    response_repeats: int = 0
    explanations: list[dict[str, Any]] = field(default_factory=list)
    alignment: DocumentAlignment | None = None


class DocumentScorer:
    """What one process needs to reduce and score documents of a run."""

    def __init__(self, config: ScoreConfig) -> None:
        self.config = config
        self.semantics = config.strategy()
        self.labeler = config.labeler()
        self.labelled = config.labelled()
        self.links = config.links()
        self.tokens = TokenCheck(config.tokens)
        computed = config.computed()
        self.partition = [registry.get(n) for n in computed
                          if registry.get(n).family == registry.PARTITION]

    def reduce(self, doc: Document) -> Reduced:
        """A read (and normalized) document, reduced by the run's semantics."""
        links = {name: spec.annotate(doc, cfg) for name, spec, cfg in self.links}
        repairs = [r for r in doc.repairs if not r.check.startswith("pass.")]
        return Reduced(self.semantics.reduce(doc, self.labeler), links, repairs,
                       document_words(doc), doc.line, doc.source_format)

    def prepare(self, doc: Document, side: str) -> Reduced:
        """A read document as it waits to be paired: reduced, and kept whole when the run
        aligns (a response is reduced only once aligned to its key)."""
        if self.config.align is None:
            return self.reduce(doc)
        doc.tokens  # noqa: B018 - build deferred tokens: the alignment reads them
        if side == "response":
            return Reduced(None, repairs=[r for r in doc.repairs
                                          if not r.check.startswith("pass.")], source=doc)
        reduced = self.reduce(doc)
        reduced.source = doc
        return reduced

    def align(self, key: Document, response: Document) -> Aligned:
        """``response`` re-expressed on the tokens of ``key`` (with the policy
        ``ScoreConfig.align``), and the alignment report: the one step every command that
        scores or analyses a response with ``--align`` takes before documents are compared."""
        from corefkit.alignment import align

        return align(key, response, self.config.align)

    def _aligned(self, key: Reduced, response: Reduced) -> tuple[Reduced, DocumentAlignment]:
        assert key.source is not None and response.source is not None
        found = self.align(key.source, response.source)
        reduced = self.reduce(found.document)
        if response.pieces:
            found.report.pieces, found.report.response = len(response.pieces), \
                " + ".join(response.pieces)
        return reduced, found.report

    def score(self, key: Reduced, response: Reduced | None) -> DocumentCounts:
        """The counts of one key document against its response (``None``: missing). With
        ``--align`` the response is first re-expressed on the key's tokens; otherwise the
        run's token policy decides what to do if their words differ (refuse, or score by
        position with a warning)."""
        notes: list[Repair] = []
        alignment = None
        if response is not None and self.config.align is not None:
            response, alignment = self._aligned(key, response)
        elif response is not None:
            response, notes = self.tokens.resolve(key, response)
        semantics = self.semantics
        found = semantics.align(key.doc, response.doc if response is not None else None)
        aligned = found.aligned
        table = contingency(aligned.key, aligned.response)
        counts: dict[str, Any] = {spec.name: spec.compute(aligned.key, aligned.response, table)
                                  for spec in self.partition if spec.name not in found.extra}
        counts = semantics.adjust(counts, found)
        counts.update(found.extra)
        for name, spec, cfg in self.links:
            counts[name] = spec.compute(key.links[name],
                                        response.links[name] if response is not None else None,
                                        cfg)
        options = self.config.metric_options
        for metric in self.labelled:
            given = {**metric.options, **options.get(metric.name, {})}
            counts[metric.name] = metric.compute(aligned, table, given, dict(counts)) \
                if metric.with_counts else metric.compute(aligned, table, given)
        explanations = getattr(semantics, "explanations", None) or []
        result = DocumentCounts(key.name, semantics.finish(counts), [*notes, *aligned.notes],
                                aligned.key_repeats, aligned.response_repeats,
                                list(explanations), alignment)
        if explanations:
            explanations.clear()
        return result


def score_document(key_doc: Document, response_doc: Document | None,
                   config: ScoreConfig) -> DocumentCounts:
    """Score one key document against its response (``None``: the response lacks it).

    Pure: the same documents and configuration give the same counts, in any process. Passes
    are not applied here (the pipeline applies them while reading).
    """
    scorer = DocumentScorer(config)
    return scorer.score(scorer.reduce(key_doc),
                        scorer.reduce(response_doc) if response_doc is not None else None)


# ---------------------------------------------------------------------------- pairing
@dataclass
class Pairing:
    """What pairing found besides the pairs: documents only one side has."""

    missing: list[Reduced] = field(default_factory=list)       # key documents, no response
    extra: list[Reduced] = field(default_factory=list)         # response documents, no key
    notes: list[Repair] = field(default_factory=list)          # how pairing by text went


def pair_documents(keys: Iterable[Reduced], responses: Iterable[Reduced],
                   pairing: Pairing) -> Iterator[tuple[Reduced, Reduced | None]]:
    """Pairs (key, response) by (name, part), streaming.

    The n-th key document called X pairs with the n-th response document called X. Responses
    are read only as far as the current key needs; those read ahead wait in an index.
    Response documents left at the end are in ``pairing.extra``.
    """
    waiting: dict[tuple[tuple[str, str], int], Reduced] = {}
    seen_response: dict[tuple[str, str], int] = {}
    seen_key: dict[tuple[str, str], int] = {}
    stream = iter(responses)
    exhausted = False
    for key in keys:
        n = seen_key.get(key.pair_key, 0)
        seen_key[key.pair_key] = n + 1
        wanted = (key.pair_key, n)
        while wanted not in waiting and not exhausted:
            response = next(stream, None)
            if response is None:
                exhausted = True
                break
            m = seen_response.get(response.pair_key, 0)
            seen_response[response.pair_key] = m + 1
            waiting[(response.pair_key, m)] = response
        answer = waiting.pop(wanted, None)
        if answer is None:
            pairing.missing.append(key)
        elif seen_response[key.pair_key] == n + 1:
            # every document of this name read so far is paired: forget the name (a later
            # document of the same name pairs as the first again), so that memory does not
            # grow with the number of documents
            del seen_key[key.pair_key], seen_response[key.pair_key]
        yield key, answer
    pairing.extra.extend(waiting.values())
    pairing.extra.extend(stream)


def pairs_of(config: ScoreConfig, keys: Iterable[Reduced], responses: Iterable[Reduced],
             pairing: Pairing) -> Iterator[tuple[Reduced, Reduced | None]]:
    """The run's pairs: by name (:func:`pair_documents`), or by content when the response's
    documents have no names of their own (:func:`pair_by_content`)."""
    if config.pair_by_content:
        return pair_by_content(keys, responses, pairing)
    return pair_documents(keys, responses, pairing)


def pair_by_content(keys: Iterable[Reduced], responses: Iterable[Reduced],
                    pairing: Pairing) -> Iterator[tuple[Reduced, Reduced | None]]:
    """Pairs by text (:func:`corefkit.alignment.pair_by_content`): every document of both
    sides is read first; response pieces of one key document are joined in order."""
    from corefkit.alignment import join, order_note
    from corefkit.alignment import pair_by_content as by_content

    key_list, response_list = list(keys), list(responses)

    def words(reduced: Reduced) -> list[str]:
        assert reduced.source is not None
        return [t.form for t in reduced.source.tokens if not t.is_empty]

    found = by_content([words(k) for k in key_list], [words(r) for r in response_list])
    moved = order_note(found, key_list, response_list)
    if moved is not None:
        pairing.notes.append(moved)
    for key, pieces in zip(key_list, found.pieces):
        if not pieces:
            pairing.missing.append(key)
            yield key, None
            continue
        parts = [response_list[i] for i in pieces]
        sources = [p.source for p in parts if p.source is not None]
        joined = Reduced(None, repairs=[r for p in parts for r in p.repairs],
                         source=join(sources),
                         pieces=[p.name for p in parts] if len(parts) > 1 else [])
        yield key, joined
    pairing.extra.extend(response_list[i] for i in found.extra)


# ---------------------------------------------------------------------------- totals
class Totals:
    """The exact sums of a run's document counts, and everything scoring noticed."""

    def __init__(self, config: ScoreConfig) -> None:
        self.config = config
        self.counts: dict[str, Any] = {}
        self.documents = 0
        self.per_document: list[DocumentCounts] = []
        self.notes: list[Repair] = []
        self.key_repeats = self.response_repeats = 0
        self.explanations: list[dict[str, Any]] = []
        self.alignments: list[DocumentAlignment] = []

    def add(self, result: DocumentCounts) -> None:
        for name, value in result.counts.items():
            self.counts[name] = self.counts[name] + value if name in self.counts else value
        self.documents += 1
        self.notes.extend(result.notes)
        self.key_repeats += result.key_repeats
        self.response_repeats += result.response_repeats
        self.explanations.extend(result.explanations)
        if result.alignment is not None:
            self.alignments.append(result.alignment)
        if self.config.per_document:
            self.per_document.append(result)

    def merge(self, other: Totals) -> None:
        """Add another run's totals (a worker's share of the documents)."""
        for name, value in other.counts.items():
            self.counts[name] = self.counts[name] + value if name in self.counts else value
        self.documents += other.documents
        self.notes.extend(other.notes)
        self.key_repeats += other.key_repeats
        self.response_repeats += other.response_repeats
        self.explanations.extend(other.explanations)
        self.alignments.extend(other.alignments)
        self.per_document.extend(other.per_document)

    def finished(self, semantics: Any) -> dict[str, Any]:
        """The totals of every computed metric (metrics no document had count zero)."""
        counts = dict(self.counts)
        for name in self.config.computed():
            spec = registry.get(name)
            if name in counts or spec.family == registry.DERIVED:
                continue
            empty = spec.empty
            if spec.family == registry.LINKS and empty is not None:
                counts[name] = empty(spec.configure(self.config.metric_options.get(name)))
            elif empty is not None:
                counts[name] = empty()
            else:
                from corefkit.scoring.metrics.standard import Counts

                counts[name] = Counts()
        return semantics.finish(counts)


# ---------------------------------------------------------------------------- reading
def reduced_documents(source: Any, side: str, scorer: DocumentScorer,
                      repairs: list[Repair]) -> Iterator[Reduced]:
    """One side's documents, read, normalized and reduced one at a time."""
    from corefkit.passes import apply_passes

    config = scorer.config
    docs = documents_of(source, config.side_format(side), side_options(config, side),
                        config.lenient)
    for doc in apply_passes(docs, config.all_passes()):
        reduced = scorer.prepare(doc, side)
        repairs.extend(reduced.repairs)
        yield reduced


def side_options(config: ScoreConfig, side: str) -> dict[str, Any]:
    shared = config.read_options
    own = config.key_read_options if side == "key" else config.response_read_options
    return {**shared, **own}


def documents_of(source: Any, format: str | None, options: dict[str, Any],
                 lenient: bool) -> Iterable[Document]:
    """Documents from paths (read, strict unless ``lenient``, through the validator's checks as
    every command reads) or given as documents."""
    if isinstance(source, Document):
        return [source]
    from corefkit.scoring.shards import FileRange

    if isinstance(source, FileRange):
        from corefkit.converters.io import line_at
        from corefkit.converters.registry import read_range

        return read_range(source.path, source.format, source.start, source.stop,
                          line_at(source.path, source.start), lenient=lenient, checks=True,
                          **options)
    if is_paths(source):
        from corefkit.converters.registry import read

        return read(source, format=format, lenient=lenient, checks=True, **options)
    return source


def source_name(source: Any) -> str:
    """How a report names a key or response: its path(s), else ``<documents>``."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if is_paths(source):
        return " ".join(os.fspath(s) for s in source)
    return "<documents>"


def is_paths(source: Any) -> bool:
    return isinstance(source, (str, os.PathLike)) or (
        isinstance(source, (list, tuple)) and bool(source)
        and all(isinstance(s, (str, os.PathLike)) for s in source))


# ---------------------------------------------------------------------------- serial run
def run_serial(config: ScoreConfig, key: Any, response: Any,
               progress: Callable[[int], None] | None = None) -> tuple[Totals, Pairing,
                                                                         list[Repair]]:
    """Score every key document in this process."""
    scorer = DocumentScorer(config)
    repairs: list[Repair] = []
    responses = reduced_documents(response, "response", scorer, repairs)
    keys = reduced_documents(key, "key", scorer, repairs)
    return score_pairs(config, scorer, keys, responses, repairs, progress)


def score_pairs(config: ScoreConfig, scorer: DocumentScorer, keys: Iterable[Reduced],
                responses: Iterable[Reduced], repairs: list[Repair],
                progress: Callable[[int], None] | None = None
                ) -> tuple[Totals, Pairing, list[Repair]]:
    """Pair two streams of reduced documents and score the pairs."""
    totals = Totals(config)
    pairing = Pairing()
    # documents one side lacks are errors under the CoNLL-U and UA semantics; aligned runs
    # (LLM answers) count a missing answer as missed and ignore extra ones, with a warning
    strict = config.semantics != "reference" and config.align is None
    with collector_paused() as scored:
        for key, answer in pairs_of(config, keys, responses, pairing):
            if answer is None and strict:
                raise misaligned(key, "of the key is missing from the response")
            totals.add(scorer.score(key, answer))
            scored()
            if progress is not None:
                progress(totals.documents)
    if strict and pairing.extra:
        raise misaligned(pairing.extra[0], "of the response is not in the key")
    return totals, pairing, repairs


# documents between two collections of the (paused) cyclic garbage collector
COLLECT_EVERY = 1000


@contextmanager
def collector_paused() -> Iterator[Callable[[], None]]:
    """Pause Python's cyclic garbage collector while documents stream through.

    A document is hundreds of thousands of small objects without reference cycles, freed by
    reference counting as soon as it is reduced; the collector would scan each of them once
    or twice before that (10–15% of a run's time). The loop calls the function this yields
    after each document scored, which collects every :data:`COLLECT_EVERY` documents: that
    bounds what a cycle could keep alive.
    """
    enabled = gc.isenabled()
    gc.disable()
    done = 0

    def scored() -> None:
        nonlocal done
        done += 1
        if done % COLLECT_EVERY == 0:
            gc.collect()

    try:
        yield scored
    finally:
        if enabled:
            gc.enable()


def misaligned(doc: Reduced, what: str) -> FormatError:
    """A document only one side has, under semantics that require the same documents."""
    return FormatError(f"key and response do not hold the same documents: document "
                       f"{doc.name!r} {what}",
                       file=getattr(doc.doc if doc.doc is not None else doc.source, "file", None),
                       line=doc.line, check="pair.documents")


def pairing_notes(pairing: Pairing) -> list[Repair]:
    """Warnings for documents only one side has (reference semantics)."""
    return ([note("score.missing-document", d.name, f"document {d.name} is missing from the "
                  "response; all its mentions count as missed") for d in pairing.missing]
            + [note("score.extra-document", d.name, f"document {d.name} is only in the "
                    "response; ignored") for d in pairing.extra] + pairing.notes)
