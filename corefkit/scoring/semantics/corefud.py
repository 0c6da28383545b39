"""Mention matching for CoNLL-U (CorefUD) keys and responses, as the CorefUD scorer 1.2 does it.

The CorefUD scorer (ufal/corefud-scorer 1.2; Novák et al., CRAC 2022–2026 shared tasks)
identifies a mention by the positions of its nodes — a word by its position in the document,
an empty node ``N.K`` by (word N, K), so that a response whose empty nodes differ from the
key's still lines up — and aligns key and response mentions one to one:

* ``exact``: the same set of nodes;
* ``partial``: the key mention contains every node of the response mention and the key head
  is among them; the score |K ∩ R| / |K| ranks candidates;
* ``head``: the same head node (and, for an exact match, also the same nodes); the overlap
  ratio |K ∩ R| / |K| breaks ties between candidates that share the head.

Zero mentions (whose head is an empty node) are matched either by position like any other
mention (``linear``) or, when the empty nodes of the response need not coincide with the
key's (``dependent``), first by an assignment on the agreement of their enhanced
dependencies — 10 × F1 of the (parent, relation) pairs plus F1 of the parents, within one
sentence — and then, those left, by position like any other mention.

This module reduces documents to what that matching needs and checks that key and response
hold the same words; :mod:`~corefkit.scoring.semantics.corefud_align` pairs the mentions in the
scorer's steps and reproduces its lookups (a mention whose nodes occur in two entities stays
in both, a lookup finds the later entity in udapi's order: by first mention, then eid as a
string), and :mod:`~corefkit.scoring.semantics.corefud_mentions` counts ``mor`` and ``zero``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from corefkit.errors import FormatError, Repair, counted
from corefkit.model import IDENTITY, Document
from corefkit.scoring.align import Alignment, Labeler, note
from corefkit.scoring.metrics.standard import CorefUDBlancCounts
from corefkit.scoring.profiles import profile_settings
from corefkit.scoring.semantics.corefud_align import (  # noqa: F401 (re-exported)
    Assign,
    CorefUDAlignment,
    Parent,
    Position,
    UDDocument,
    UDMention,
    align_corefud,
    lookup_counts,
    zero_dependency_score,
)
from corefkit.scoring.semantics.corefud_mentions import (  # noqa: F401 (re-exported)
    mention_overlap,
    zero_anaphors,
)

MATCHES = ("exact", "partial", "head", "craft")
ZERO_MATCHES = ("linear", "dependent")
# an empty node 0.K sits at K - BEFORE_FIRST of the sentence's first word (before its
# words; no sentence has this many empty nodes)
BEFORE_FIRST = 1 << 40


# ============================================================================ reduction
def positions(doc: Document) -> list[Position]:
    """The position of every token: (number of the word in the document, 0) for words,
    (number of the word it follows, K) for an empty node ``N.K``, and (number of the word it
    precedes, K − :data:`BEFORE_FIRST`) for an empty node ``0.K`` before a sentence's first word.

    Words are counted through the document, so key and response agree whenever they hold the
    same words, whatever their formats and sentence breaks (GUM's CoNLL-2012 export has none);
    an empty node keeps its K from its CoNLL-U id, so that it is not shifted when the other
    side lacks an earlier one. Positions sort as the CorefUD scorer orders nodes, (sentence,
    id); a ``0.K`` node is not confused with a node ``N.K`` after the last word of the sentence
    before (which a position (word it follows, K) would be: both follow the same word).
    """
    found: list[Position] = []
    word = 0
    for sentence in doc.sentences:
        empty = 0
        before_words = True
        tokens = doc.tokens
        for index in range(sentence.start, sentence.stop):
            token = tokens[index]
            if token.is_empty:
                empty += 1
                tid = token.id
                k = empty
                if tid and "." in tid:
                    tail = tid.partition(".")[2]
                    if tail.isdecimal():
                        k = int(tail)
                found.append((word + 1, k - BEFORE_FIRST) if before_words else (word, k))
            else:
                word += 1
                empty = 0
                before_words = False
                found.append((word, 0))
    while len(found) < doc.token_count:  # tokens outside any sentence (should not happen)
        word += 1
        found.append((word, 0))
    return found


def _deps(value: str | None, sentence: int) -> tuple[tuple[Parent, str], ...]:
    if not value or value == "_":
        return ()
    found = []
    for item in value.split("|"):
        parent, sep, relation = item.partition(":")
        if not sep:
            continue
        n, _, k = parent.partition(".")
        if n.isdecimal() and (not k or k.isdecimal()):
            found.append(((sentence, int(n), int(k or 0)), relation))
    return tuple(found)


def ud_document(doc: Document, *, match: str = "exact", keep_zeros: bool = True,
                remove_singletons: bool = False, labeler: Labeler | None = None) -> UDDocument:
    """Reduce a document to its identity chains as :class:`UDMention` lists.

    As the scorer's reader: a mention without a head takes its first node (udapi's default);
    a chain keeps one copy of mentions with the same identity (nodes, plus head under head
    matching); singletons are removed first, then zero mentions when ``keep_zeros`` is off.
    """
    pos = positions(doc)
    tokens = doc.tokens
    head_mode = match == "head"
    clusters: list[list[UDMention]] = []
    removed_singletons = removed_zeros = 0
    chains = {entity: doc.mentions_of(entity) for entity in doc.entities_in(IDENTITY)}
    for entity in _udapi_order(chains, pos):
        cluster: list[UDMention] = []
        seen: set = set()
        for mention in chains[entity]:
            if not mention.tokens:
                continue
            head = mention.head if mention.head is not None and mention.head in mention.tokens \
                else mention.tokens[0]
            words = tuple(sorted([pos[t] for t in mention.tokens]))
            head_token = tokens[head]
            sentence = head_token.sentence
            item = UDMention(words, pos[head], head_token.is_empty,
                             _deps(head_token.deps, sentence) if head_token.is_empty else (),
                             sentence, labeler(doc, mention) if labeler else None)
            identity = (words, item.head) if head_mode else words
            if identity in seen:
                continue
            seen.add(identity)
            cluster.append(item)
        if not cluster:
            continue
        if remove_singletons and len(cluster) == 1:
            removed_singletons += 1
            continue
        if not keep_zeros:
            kept = [m for m in cluster if not m.zero]
            removed_zeros += len(cluster) - len(kept)
            cluster = kept
            if not cluster:
                continue
        clusters.append(cluster)
    sentences = []
    for part in doc.sentences:
        forms = tuple([t.form for t in tokens[part.start:part.stop] if not t.is_empty])
        sentences.append((part.sent_id, forms, part.attrs.get("line")))
    return UDDocument(doc.name, doc.pair_key(), clusters, sentences, doc.file,
                      removed_zeros, removed_singletons, bool(doc.attrs.get("conllu")))


def _udapi_order(chains: dict[Any, list[Any]], pos: list[Position]) -> list[Any]:
    """The identity entities (``chains``: entity -> its mentions) in the order udapi gives them
    to the scorer: by first mention — its first node, longer first, its last node — then by eid
    as a string (udapi's ``CorefEntity.__lt__``). The order decides which entity a repeated
    mention is looked up in (the later one)."""
    def key(entity: Any) -> tuple:
        mentions = [m for m in chains[entity] if m.tokens]
        if not mentions:
            return ((-1, 0), 0, (-1, 0), str(entity.attrs.get("original_id", entity.id)))
        first = min(mentions, key=lambda m: (pos[m.tokens[0]], -len(m.tokens), pos[m.tokens[-1]]))
        return (pos[first.tokens[0]], -len(first.tokens), pos[first.tokens[-1]],
                str(entity.attrs.get("original_id", entity.id)))

    return sorted(chains, key=key)


def check_alignment(key: UDDocument, response: UDDocument) -> None:
    """Raise :class:`FormatError` where key and response do not split their words into the
    same sentences (CoNLL-U: the same sentence ids): the CorefUD scorer pairs mentions by
    (sentence, word). Word forms were compared before, in every format pair
    (:mod:`corefkit.scoring.tokens`); empty nodes are not compared (a system may predict them).

    Documents not read from CoNLL-U are compared by their number of words only. Under
    ``--lenient`` a response with other words reaches this point; it is scored by position as
    long as the positions exist on both sides.
    """
    where = f"document {key.name!r}"
    if not (key.conllu and response.conllu):
        key_words = sum(len(forms) for _, forms, _ in key.sentences)
        response_words = sum(len(forms) for _, forms, _ in response.sentences)
        if key_words != response_words:
            raise FormatError(
                f"the response's words differ from the key's: {where} has "
                f"{counted(key_words, 'word')} in the key but {response_words} in the response; CorefUD scoring pairs mentions "
                "by word position and cannot score it, even with --lenient",
                file=response.file, check="pair.tokens")
        return
    if len(key.sentences) != len(response.sentences):
        raise FormatError(
            f"key and response have different sentences: {where} has {len(key.sentences)} "
            f"sentences in the key but {len(response.sentences)} in the response; both files "
            "must hold the same sentences and words", file=response.file,
            check="pair.sentences")
    for n, ((kid, kforms, kline), (rid, rforms, rline)) in enumerate(
            zip(key.sentences, response.sentences), 1):
        if kid is not None and rid is not None and kid != rid:
            raise FormatError(
                f"key and response have different sentences: sentence {n} of {where} has "
                f"sent_id {kid!r} in the key but {rid!r} in the response",
                file=response.file, line=rline, check="pair.sentences")
        if len(kforms) != len(rforms):
            label = f"sentence {n}" + (f" ({kid})" if kid else "")
            in_key = f" (key {key.file}:{kline})" if kline is not None else ""
            raise FormatError(
                f"key and response have different sentences: {label} of {where} has "
                f"{counted(len(kforms), 'word')} in the key but {len(rforms)} in the "
                f"response{in_key}",
                file=response.file, line=rline, check="pair.sentences")


# ============================================================================ settings
PROFILE_KEYS = ("match", "zero_match", "keep_zeros", "remove_singletons")
DEFAULTS = {"match": "exact", "zero_match": "linear", "keep_zeros": True, "remove_singletons": False}


@dataclass
class CorefUDScoring:
    """The CorefUD scorer's semantics for one run (:class:`corefkit.scoring.semantics.
    Semantics`): how to reduce and align documents."""

    name: ClassVar[str] = "corefud"
    label: ClassVar[str] = "corefud-scorer-1.2"

    match: str = "exact"
    zero_match: str = "linear"
    keep_zeros: bool = True
    remove_singletons: bool = False
    profile: str | None = None
    metrics: tuple[str, ...] = ("mor", "zero")

    @classmethod
    def resolve(cls, *, match: str | None = None, zero_match: str | None = None,
                keep_zeros: bool | None = None, remove_singletons: bool | None = None,
                profile: str | None = None, metrics: Sequence[str] = ("mor", "zero")
                ) -> CorefUDScoring:
        """Settings from explicit values, else the profile's, else the defaults."""
        from corefkit.errors import UsageError

        chosen = dict(DEFAULTS)
        if profile is not None:
            chosen.update({k: v for k, v in profile_settings(profile).items()
                           if k in PROFILE_KEYS})
        explicit = {"match": match, "zero_match": zero_match, "keep_zeros": keep_zeros,
                    "remove_singletons": remove_singletons}
        chosen.update({k: v for k, v in explicit.items() if v is not None})
        if chosen["match"] == "partial-corefud":
            chosen["match"] = "partial"
        if chosen["match"] not in MATCHES:
            raise UsageError(f"unknown mention matching {chosen['match']!r}; expected one of "
                             f"{', '.join(MATCHES)}")
        if chosen["zero_match"] not in ZERO_MATCHES:
            raise UsageError(f"unknown zero matching {chosen['zero_match']!r}; expected one of "
                             f"{', '.join(ZERO_MATCHES)}")
        return cls(chosen["match"], chosen["zero_match"], bool(chosen["keep_zeros"]),
                   bool(chosen["remove_singletons"]), profile, tuple(metrics))

    def options(self) -> dict[str, object]:
        return {"match": self.match, "zero_match": self.zero_match, "keep_zeros": self.keep_zeros,
                "remove_singletons": self.remove_singletons, "profile": self.profile}

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> UDDocument:
        return ud_document(doc, match=self.match, keep_zeros=self.keep_zeros,
                           remove_singletons=self.remove_singletons, labeler=labeler)

    def align(self, key: UDDocument, response: UDDocument | None) -> CorefUDAlignment:
        if response is not None:
            check_alignment(key, response)
        found = align_corefud(key, response, match=self.match, zero_match=self.zero_match,
                              keep_zeros=self.keep_zeros, metrics=self.metrics)
        aligned = found.aligned
        repeats = aligned.key_repeats + aligned.response_repeats
        lookups = found.lookups
        if lookups is not None and (repeats or not lookups.consistent):
            found.extra.update(lookup_counts(key, response, lookups, self.match))
        if repeats:
            aligned.notes[:] = [note("score.repeated-mentions", key.name,
                                     f"{repeats} repeated mentions kept in both entities "
                                     "(CorefUD scorer rule)")]
        return found

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        return counts

    def warnings(self) -> list[Repair]:
        return []

    @staticmethod
    def finish(counts: dict[str, Any]) -> dict[str, Any]:
        """Counts with BLANC under the CorefUD scorer's rule for absent link types."""
        blanc = counts.get("blanc")
        if blanc is not None and not isinstance(blanc, CorefUDBlancCounts):
            counts["blanc"] = CorefUDBlancCounts(blanc.coref, blanc.noncoref)
        return counts
