"""Alignment of key and response mentions into one index space (exact matching).

A document is first reduced to :class:`DocumentMentions` — its identity chains as lists of
mention match keys — so that scoring never keeps whole documents in memory. Two of them are
then aligned: every distinct key mention gets an index, a response mention with the same
extent gets the same index, other response mentions get new ones.

Repeated mentions follow the reference scorer v8.01 (``IdentifMentions``): a response
mention whose extent is a key mention and already occurred in an earlier response entity is
removed, and an entity left empty by that disappears; the number removed is reported. A
repeated extent the key lacks stays in every entity that has it, one more twinless mention
each time (``response_duplicates`` says which original it repeats): the metrics count it
as the reference does — in the response's sizes and links, never as correct — and BLANC,
whose link sets merge identical pairs, counts its links once (:func:`corefkit.scoring.metrics.standard.
blanc_with_repeats`). Unlike the reference, the count never carries over from one document
or metric to the next, and no file is refused. A repeated key extent keeps its first
occurrence, with a count (the reference gives both occurrences the later id).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, cast

from corefkit.errors import Repair, counted
from corefkit.model import IDENTITY, Document, Mention
from corefkit.scoring.partition import Partition

MatchKey = Hashable
# Computes what a metric needs to know of a mention beyond its extent (its type, the
# mention-type predicates it satisfies, ...); the scorer builds one from the metrics asked for.
Labeler = Callable[[Document, Mention], Any]



def note(check: str, document: str, message: str) -> Repair:
    """A warning about one document's scoring (check ids ``score.*``; ``--ignore`` silences)."""
    return Repair(check, message, document=document, action="scored")

def match_key(mention: Mention) -> MatchKey:
    """Exact-match key: the extent (first, last) of a contiguous mention, else its tokens."""
    return mention.extent


@dataclass
class DocumentMentions:
    """What scoring needs of one document: its identity chains as match keys."""

    name: str
    pair_key: tuple[str, str]
    clusters: list[list[MatchKey]]
    n_tokens: int
    file: str | None = None
    line: int | None = None
    labels: list[list[Any]] | None = None  # parallel to clusters, when a labeler was given


def _reference_order(extent: tuple[int, ...]) -> tuple[int, bool]:
    """Where the reference scorer's reader puts the mention of an extent in its entity: by the
    line it ends on, a one-token mention before a longer one closing there (the sort is
    stable, so ties keep the order the mentions were read in). A discontinuous mention's extent
    is its two or more tokens, a contiguous one's (first, last)."""
    return (extent[-1], extent[0] != extent[-1]) if extent else (-1, False)


def document_mentions(doc: Document, labeler: Labeler | None = None) -> DocumentMentions:
    """The identity chains of a document (non-pseudo entities), in entity order.

    With ``labeler``, each mention's label is kept beside its match key; without, the chains
    come from :meth:`Document.chain_extents`, which builds no mention objects.
    """
    labels = None
    clusters: list[list[MatchKey]]
    if labeler is None:
        extents = [sorted(chain, key=_reference_order) if len(chain) > 1 else chain
                   for chain in doc.chain_extents(IDENTITY)]
        clusters = cast("list[list[MatchKey]]", extents)
    else:
        chains = [sorted(doc.mentions_of(e, ordered=False),
                         key=lambda m: _reference_order(m.extent))
                  for e in doc.entities_in(IDENTITY)]
        clusters = [[match_key(m) for m in chain] for chain in chains]
        labels = [[labeler(doc, m) for m in chain] for chain in chains]
    return DocumentMentions(doc.name, doc.pair_key(), clusters, doc.token_count, doc.file,
                            doc.line, labels)


@dataclass
class AlignedDocument:
    """Key and response partitions of one document over a shared mention index space."""

    name: str
    key: Partition
    response: Partition
    mention_keys: list[MatchKey]                 # index -> match key
    key_repeats: int = 0
    response_repeats: int = 0
    notes: list[Repair] = field(default_factory=list)  # warnings about this document
    # index -> label of the key / response mention there (when the scorer asked for labels)
    key_labels: dict[int, Any] = field(default_factory=dict)
    response_labels: dict[int, Any] = field(default_factory=dict)
    # index of a kept repeat of a response extent the key lacks -> index of its first copy
    response_duplicates: dict[int, int] = field(default_factory=dict)


@dataclass
class Alignment:
    """What a semantics' alignment of one document gives: the aligned partitions, and the
    counts of metrics that the alignment computes itself (``extra``: metric -> counts)."""

    aligned: AlignedDocument
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class MentionIndex:
    """Key and response mentions of one document numbered in one index space, flat.

    ``key`` lists the key mention indices entity after entity, ``key_sizes`` the size of each
    (non-empty) entity; ``response`` and ``response_sizes`` likewise. Indices ``0 …
    n_key-1`` are the distinct key extents, in order; a response extent the key has gets its
    index, others new ones (``mention_keys``: index -> match key).
    """

    key: list[int]
    key_sizes: list[int]
    response: list[int]
    response_sizes: list[int]
    mention_keys: list[MatchKey]
    n_key: int
    key_repeats: int = 0
    response_repeats: int = 0
    # index of a kept repeat of a response extent the key lacks -> index of its first copy
    duplicates: dict[int, int] = field(default_factory=dict)
    key_labels: dict[int, Any] = field(default_factory=dict)
    response_labels: dict[int, Any] = field(default_factory=dict)


def index_mentions(key: DocumentMentions, response: DocumentMentions | None) -> MentionIndex:
    """Number key and response mentions by identical extents, with the reference scorer's
    rules for repeated mentions (see the module docstring); ``response=None``: no response.

    Raises ``TypeError`` when a match key is not hashable.
    """
    clusters = key.clusters
    flat = [mk for cluster in clusters for mk in cluster]
    index: dict[MatchKey, int] = dict(zip(flat, range(len(flat))))
    key_labels: dict[int, Any] = {}
    response_labels: dict[int, Any] = {}
    key_repeats = 0
    if len(index) == len(flat):  # no extent twice: numbered in order (the common case)
        key_flat = list(range(len(flat)))
        key_sizes = [n for n in map(len, clusters) if n]
        if key.labels is not None:
            key_labels = dict(enumerate(label for labels in key.labels for label in labels))
    else:
        index = {}
        key_flat, key_sizes = [], []
        for c, cluster in enumerate(clusters):
            size = 0
            for n, mk in enumerate(cluster):
                if mk in index:
                    key_repeats += 1
                    continue
                i = index[mk] = len(index)
                key_flat.append(i)
                size += 1
                if key.labels is not None:
                    key_labels[i] = key.labels[c][n]
            if size:
                key_sizes.append(size)
    mention_keys = list(index)
    n_key = len(index)
    response_flat: list[int] = []
    response_sizes: list[int] = []
    response_repeats = 0
    duplicates: dict[int, int] = {}
    if response is not None:
        clusters = response.clusters
        flat = [mk for cluster in clusters for mk in cluster]
        if len(set(flat)) == len(flat):  # no extent twice: nothing removed or repeated
            new = [mk for mk in flat if mk not in index]
            if new:
                index.update(zip(new, range(n_key, n_key + len(new))))
                mention_keys.extend(new)
            response_flat = list(map(index.__getitem__, flat))
            response_sizes = [n for n in map(len, clusters) if n]
            if response.labels is not None:
                response_labels = dict(zip(response_flat, (
                    label for labels in response.labels for label in labels)))
        else:
            seen: set[MatchKey] = set()
            for c, cluster in enumerate(clusters):
                size = 0
                for n, mk in enumerate(cluster):
                    if mk not in seen:
                        seen.add(mk)
                        i = index.get(mk)  # type: ignore[assignment]
                        if i is None:
                            i = index[mk] = len(mention_keys)
                            mention_keys.append(mk)
                    elif index[mk] < n_key:  # a key extent already in an earlier entity: removed
                        response_repeats += 1
                        continue
                    else:  # an extent the key lacks, again: kept, as one more twinless mention
                        i = len(mention_keys)
                        mention_keys.append(mk)
                        duplicates[i] = index[mk]
                    response_flat.append(i)
                    size += 1
                    if response.labels is not None:
                        response_labels[i] = response.labels[c][n]
                if size:
                    response_sizes.append(size)
    return MentionIndex(key_flat, key_sizes, response_flat, response_sizes, mention_keys, n_key,
                        key_repeats, response_repeats, duplicates, key_labels, response_labels)


def alignment_notes(key: DocumentMentions, response: DocumentMentions | None,
                    found: MentionIndex) -> list[Repair]:
    """The warnings of one document's alignment (repeated mentions, token counts)."""
    notes = []
    if found.key_repeats:
        notes.append(note("score.repeated-key-mentions", key.name,
                          f"{found.key_repeats} repeated key mentions ignored (the same extent "
                          "in two key entities)"))
    if found.response_repeats:
        notes.append(note("score.repeated-response-mentions", key.name,
                          f"{found.response_repeats} repeated response mentions removed (a key "
                          "extent in two response entities; reference-scorer rule)"))
    if found.duplicates:
        notes.append(note("score.repeated-response-mentions", key.name,
                          f"{len(found.duplicates)} repeated response mentions of extents the "
                          "key lacks kept in each entity (reference-scorer rule)"))
    if response is not None and response.n_tokens != key.n_tokens:
        notes.append(note("score.token-count", key.name,
                          f"the key has {counted(key.n_tokens, 'token')}, the response "
                          f"{response.n_tokens}; "
                          "mentions are matched by token position"))
    return notes


def align_exact(key: DocumentMentions, response: DocumentMentions | None) -> AlignedDocument:
    """Align by identical extents; ``response=None`` scores a document the response lacks."""
    found = index_mentions(key, response)
    return AlignedDocument(
        key.name,
        Partition.from_flat(found.key, found.key_sizes),
        Partition.from_flat(found.response, found.response_sizes),
        found.mention_keys,
        found.key_repeats,
        found.response_repeats,
        alignment_notes(key, response, found),
        found.key_labels,
        found.response_labels,
        found.duplicates,
    )
