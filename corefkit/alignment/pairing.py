"""Pairing response documents with key documents by their text, and joining pieces.

An LLM answers one document per line, but may break a document over two lines, drop one, or
add prose; pairing by position (as text2text-coref's ``clean`` does, with ``zip``) then shifts
every later document onto the wrong key. :func:`pair_by_content` pairs each response document
with the key document that shares most of its distinctive word trigrams (trigrams that occur
in one key document only), so a piece of a document finds its document wherever it is;
responses sharing too little with every key (prose, an empty answer) are left unpaired. Several
pieces that pair with the same key document are joined in their order (:func:`join`).
Time and memory are linear in the words of both sides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.alignment.text import comparable
from corefkit.errors import Repair
from corefkit.model import Document, Entity, Mention, Sentence, Token

SHINGLE = 3           # words per shingle
SHARE = 0.1           # least share of a response's shingles found in its key document
SHORT = 5             # responses of at most this many words are paired by distinctive words


@dataclass
class ContentPairs:
    """For each key document (by index), the response documents paired with it, in order,
    and the response documents paired with none."""

    pieces: list[list[int]]
    extra: list[int] = field(default_factory=list)


def _shingles(words: Sequence[str], size: int) -> list[int]:
    return [hash(tuple(words[i:i + size])) for i in range(len(words) - size + 1)]


def pair_by_content(keys: Sequence[Sequence[str]],
                    responses: Sequence[Sequence[str]]) -> ContentPairs:
    """Pair documents given as their word forms (see the module's description)."""
    key_words = [[comparable(w) for w in k] for k in keys]
    response_words = [[comparable(w) for w in r] for r in responses]
    found = ContentPairs([[] for _ in keys])
    owner, owner_word = _owners(key_words, range(len(keys)))
    left = []
    for index, words in enumerate(response_words):
        best = _best(words, owner, owner_word)
        if best is None:
            left.append(index)
        else:
            found.pieces[best].append(index)
    if left:
        _second_round(key_words, response_words, left, found)
    return found


def order_note(found: ContentPairs, keys: Sequence[Any],
               responses: Sequence[Any]) -> Repair | None:
    """A warning when the text paired response documents with key documents in another order
    than the files have them (an answer's lines shuffled, documents without names of their
    own): which pairs moved, so that a pairing by text is never silent about it. ``keys`` and
    ``responses`` are what was paired (documents, or anything with their ``name``)."""
    taken = [(i, k) for k, pieces in enumerate(found.pieces) for i in pieces]
    ordered = sorted(i for i, _ in taken)
    moved = [(i, k) for (i, k), j in zip(taken, ordered) if i != j]
    if not moved:
        return None
    i, k = moved[0]
    return Repair("score.reordered-documents",
                  f"{len(moved)} response document{'s' if len(moved) > 1 else ''} paired by "
                  "their text with key documents in another order than the files give them "
                  f"(first: response {responses[i].name} with key {keys[k].name})",
                  document=responses[i].name, action="scored")


def _second_round(key_words: list[list[str]], response_words: list[list[str]],
                  left: list[int], found: ContentPairs) -> None:
    """Pair the responses the first round left with key documents nothing paired with.

    Two near-identical key documents (a reprinted article) share most shingles, so a
    response may have too few that are distinctive over all keys. Here a key document
    nothing was paired with is a candidate when it holds ``SHARE`` of the response's
    shingles at all; of the candidates, the one with the most shingles no other candidate
    holds wins (then the most shared). Linear in the shingles of both sides (times how many
    key documents hold a shingle)."""
    holders: dict[int, list[int]] = {}
    for index, words in enumerate(key_words):
        for shingle in set(_shingles(words, SHINGLE)):
            holders.setdefault(shingle, []).append(index)
    claimed = {i for i, pieces in enumerate(found.pieces) if pieces}
    for index in left:
        shingles = _shingles(response_words[index], SHINGLE)
        votes: Counter[int] = Counter()
        for shingle in shingles:
            for key in holders.get(shingle, ()):
                if key not in claimed:
                    votes[key] += 1
        candidates = {k for k, n in votes.items() if shingles and n >= SHARE * len(shingles)}
        own: Counter[int] = Counter()
        for shingle in shingles:
            mine = [k for k in holders.get(shingle, ()) if k in candidates]
            if len(mine) == 1:
                own[mine[0]] += 1
        if candidates:
            best = max(candidates, key=lambda k: (own[k], votes[k], -k))
            found.pieces[best].append(index)
        else:
            found.extra.append(index)
    for pieces in found.pieces:
        pieces.sort()


def _owners(key_words: list[list[str]], among: Sequence[int]
            ) -> tuple[dict[int, int], dict[str, int]]:
    """The shingles and the words of the key documents ``among``, each with the one document
    holding it (-1: several do)."""
    owner: dict[int, int] = {}          # shingle -> the one key document holding it, else -1
    owner_word: dict[str, int] = {}
    for index in among:
        words = key_words[index]
        for shingle in set(_shingles(words, SHINGLE)):
            owner[shingle] = index if shingle not in owner else -1
        for word in set(words):
            owner_word[word] = index if word not in owner_word else -1
    return owner, owner_word


def _best(words: list[str], owner: dict[int, int], owner_word: dict[str, int]) -> int | None:
    shingles = _shingles(words, SHINGLE)
    votes = Counter(owner.get(s, -1) for s in shingles)
    votes.pop(-1, None)
    if votes:
        best, count = votes.most_common(1)[0]
        if count >= SHARE * len(shingles):
            return best
        return None
    if 0 < len(words) <= SHORT:
        word_votes = Counter(owner_word.get(w, -1) for w in words)
        word_votes.pop(-1, None)
        if word_votes:
            best, count = word_votes.most_common(1)[0]
            if 2 * count >= len(words):
                return best
    return None


def join(pieces: Sequence[Document]) -> Document:
    """One document made of ``pieces`` in order: tokens, sentences and annotation; entities
    with the same ``original_id`` (the id the file gave them) become one entity."""
    if len(pieces) == 1:
        return pieces[0]
    first = pieces[0]
    doc = Document(first.id, first.part, file=first.file)
    doc.line, doc.source_format = first.line, first.source_format
    doc.meta, doc.attrs = dict(first.meta), dict(first.attrs)
    by_id: dict[str, Entity] = {}
    for piece in pieces:
        offset, sentence_offset = len(doc.tokens), len(doc.sentences)
        for token in piece.tokens:
            doc.tokens.append(Token(token.form, offset + token.index,
                                    token.sentence + sentence_offset, token.attrs, token.id,
                                    token.lemma, token.upos, token.xpos, token.feats,
                                    token.head, token.deprel, token.deps, token.misc,
                                    token.speaker, token.is_empty))
        for s in piece.sentences:
            doc.sentences.append(Sentence(s.index + sentence_offset, s.start + offset,
                                          s.stop + offset, sent_id=s.sent_id,
                                          comments=s.comments, speaker=s.speaker,
                                          attrs=s.attrs))
        doc.repairs.extend(piece.repairs)
        _copy_annotation(piece, doc, offset, by_id)
    return doc


def _copy_annotation(piece: Document, doc: Document, offset: int,
                     by_id: dict[str, Entity]) -> None:
    entities: dict[Entity, Entity] = {}
    for entity in piece.entities:
        name = entity.attrs.get("original_id")
        found = by_id.get(f"{entity.layer}/{name}") if name not in (None, "") else None
        if found is None:
            found = doc.new_entity(layer=entity.layer, pseudo=entity.pseudo,
                                   attrs=dict(entity.attrs))
            if name not in (None, ""):
                by_id[f"{entity.layer}/{name}"] = found
        entities[entity] = found
    made: dict[Mention, Mention] = {}
    for m in piece.mentions:
        owner = piece.entity_of(m)
        made[m] = doc.add_mention(
            [t + offset for t in m.tokens], entities[owner] if owner is not None else None,
            layer=m.layer, head=m.head + offset if m.head is not None else None,
            head_derived=m.head_derived,
            min_tokens=tuple(t + offset for t in m.min_tokens) if m.min_tokens else None,
            min_derived=m.min_derived, nonref=m.nonref, attrs=dict(m.attrs), line=m.line)
    for membership in piece.memberships():
        doc.add_to_set(entities[membership.member], entities[membership.set_entity],
                       evidence=[made[m] for m in membership.evidence])
    for bridge in piece.bridging():
        doc.add_bridging(made[bridge.anaphor], entities[bridge.anchor], relation=bridge.relation,
                         anchor_mention=made.get(bridge.anchor_mention)
                         if bridge.anchor_mention else None, attrs=dict(bridge.attrs))
