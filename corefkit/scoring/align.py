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
from typing import Any

from corefkit.errors import Repair
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
    tokens = mention.tokens
    if tokens and tokens[-1] - tokens[0] + 1 == len(tokens):
        return (tokens[0], tokens[-1])
    return tokens


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


def _reference_order(mention: Mention) -> tuple[int, bool]:
    """Where the reference scorer's reader puts a mention in its entity: by the line it ends
    on, a one-token mention before a longer one closing there (the sort is stable, so ties keep
    the order the mentions were read in)."""
    tokens = mention.tokens
    return (tokens[-1] if tokens else -1, len(tokens) > 1)


def document_mentions(doc: Document, labeler: Labeler | None = None) -> DocumentMentions:
    """The identity chains of a document (non-pseudo entities), in entity order.

    With ``labeler``, each mention's label is kept beside its match key.
    """
    chains = [sorted(doc.mentions_of(e, ordered=False), key=_reference_order)
              for e in doc.entities_in(IDENTITY)]
    clusters = [[match_key(m) for m in chain] for chain in chains]
    labels = [[labeler(doc, m) for m in chain] for chain in chains] if labeler else None
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


def align_exact(key: DocumentMentions, response: DocumentMentions | None) -> AlignedDocument:
    """Align by identical extents; ``response=None`` scores a document the response lacks."""
    index: dict[MatchKey, int] = {}
    key_clusters: list[list[int]] = []
    key_labels: dict[int, Any] = {}
    response_labels: dict[int, Any] = {}
    key_repeats = 0
    for c, cluster in enumerate(key.clusters):
        members = []
        for n, mk in enumerate(cluster):
            if mk in index:
                key_repeats += 1
                continue
            index[mk] = len(index)
            members.append(index[mk])
            if key.labels is not None:
                key_labels[index[mk]] = key.labels[c][n]
        key_clusters.append(members)
    mention_keys = list(index)
    n_key = len(index)
    response_clusters: list[list[int]] = []
    response_repeats = 0
    duplicates: dict[int, int] = {}
    if response is not None:
        seen: set[MatchKey] = set()
        for c, cluster in enumerate(response.clusters):
            members = []
            for n, mk in enumerate(cluster):
                if mk not in seen:
                    seen.add(mk)
                    i = index.get(mk)
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
                members.append(i)
                if response.labels is not None:
                    response_labels[i] = response.labels[c][n]
            response_clusters.append(members)
    notes = []
    if key_repeats:
        notes.append(note("score.repeated-key-mentions", key.name,
                          f"{key_repeats} repeated key mentions ignored (the same extent in two "
                          "key entities)"))
    if response_repeats:
        notes.append(note("score.repeated-response-mentions", key.name,
                          f"{response_repeats} repeated response mentions removed (a key extent "
                          "in two response entities; reference-scorer rule)"))
    if duplicates:
        notes.append(note("score.repeated-response-mentions", key.name,
                          f"{len(duplicates)} repeated response mentions of extents the key "
                          "lacks kept in each entity (reference-scorer rule)"))
    if response is not None and response.n_tokens != key.n_tokens:
        notes.append(note("score.token-count", key.name,
                          f"the key has {key.n_tokens} tokens, the response {response.n_tokens}; "
                          "mentions are matched by token position"))
    return AlignedDocument(
        key.name,
        Partition.from_clusters(key_clusters, check=False),
        Partition.from_clusters(response_clusters, check=False),
        mention_keys,
        key_repeats,
        response_repeats,
        notes,
        key_labels,
        response_labels,
        duplicates,
    )
