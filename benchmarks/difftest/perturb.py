"""System errors, made on a copy of a real document: the response of a differential pair.

Each kind is a function ``(doc, rng) -> bool`` that changes the document in place and says
whether it found something to change. :func:`perturb` applies a random number of random kinds
among those the document's format can hold, and counts what it did.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention

Kind = Callable[[Document, random.Random], bool]


def _referring(doc: Document, layer: str = IDENTITY) -> list[Mention]:
    return [m for m in doc.mentions if m.tokens and m.layer == layer
            and doc.entity_of(m) is not None and not doc.entity_of(m).pseudo]


def _entities(doc: Document, layer: str = IDENTITY) -> list[Entity]:
    return [e for e in doc.entities_in(layer) if doc.size(e)]


def _taken(doc: Document) -> set[tuple[int, ...]]:
    return {m.tokens for m in doc.mentions}


def _crosses(doc: Document, tokens: tuple[int, ...]) -> bool:
    """True if the span would cross another mention's brackets (no format can hold that)."""
    first, last = tokens[0], tokens[-1]
    for m in doc.mentions:
        if not m.tokens:
            continue
        a, b = m.tokens[0], m.tokens[-1]
        if a < first <= b < last or first < a <= last < b:
            return True
    return False


def _words_of_sentence(doc: Document, index: int) -> list[int]:
    sentence = doc.sentences[index]
    return [i for i in sentence.token_indices() if not doc.tokens[i].is_empty]


def drop_mention(doc: Document, rng: random.Random) -> bool:
    """Missing mention (not one a set, a bridge or the DD layer needs)."""
    used = {m for s in doc.memberships() for m in s.evidence}
    used |= {b.anaphor for b in doc.bridging()} | {b.anchor_mention for b in doc.bridging()}
    candidates = [m for m in _referring(doc) if m not in used and doc.size(doc.entity_of(m)) > 1]
    if not candidates:
        return False
    doc.remove_mention(rng.choice(candidates))
    return True


def add_mention(doc: Document, rng: random.Random) -> bool:
    """Extra mention of 1–3 words: a new singleton or joined to a random entity."""
    if not doc.sentences:
        return False
    words = _words_of_sentence(doc, rng.randrange(len(doc.sentences)))
    if not words:
        return False
    start = rng.randrange(len(words))
    span = tuple(words[start:start + rng.randint(1, 3)])
    if span in _taken(doc) or _crosses(doc, span):
        return False
    entities = _entities(doc)
    entity = rng.choice(entities) if entities and rng.random() < 0.5 else doc.new_entity()
    doc.add_mention(span, entity)
    return True


def shift_mention(doc: Document, rng: random.Random) -> bool:
    """A boundary one word off, at the start or the end, within the sentence."""
    candidates = [m for m in _referring(doc) if m.is_contiguous and not doc.is_zero(m)]
    if not candidates:
        return False
    mention = rng.choice(candidates)
    words = _words_of_sentence(doc, doc.tokens[mention.start].sentence)
    first, last = words.index(mention.start), words.index(mention.end)
    first, last = (first + rng.choice((-1, 1)), last) if rng.random() < 0.5 \
        else (first, last + rng.choice((-1, 1)))
    if first < 0 or last >= len(words) or first > last:
        return False
    span = tuple(range(words[first], words[last] + 1))
    if span in _taken(doc) or _crosses(doc, span) or any(doc.tokens[t].is_empty for t in span):
        return False
    mention.tokens = span
    mention.head = None
    mention.min_tokens = None
    return True


def move_mention(doc: Document, rng: random.Random, layer: str = IDENTITY) -> bool:
    """A mention reassigned to another entity of its layer."""
    mentions, entities = _referring(doc, layer), _entities(doc, layer)
    if not mentions or len(entities) < 2:
        return False
    mention = rng.choice(mentions)
    target = rng.choice([e for e in entities if e is not doc.entity_of(mention)])
    doc.set_entity(mention, target, replace=True)
    return True


def merge_entities(doc: Document, rng: random.Random) -> bool:
    entities = [e for e in _entities(doc) if not doc.members(e)]
    if len(entities) < 2:
        return False
    keep, other = rng.sample(entities, 2)
    doc.merge_entities(keep, other)
    return True


def split_entity(doc: Document, rng: random.Random) -> bool:
    entities = [e for e in _entities(doc) if doc.size(e) >= 2]
    if not entities:
        return False
    entity = rng.choice(entities)
    mentions = doc.mentions_of(entity)
    cut = rng.randrange(1, len(mentions))
    new = doc.new_entity()
    for mention in mentions[cut:]:
        doc.set_entity(mention, new, replace=True)
    return True


def repeat_span(doc: Document, rng: random.Random) -> bool:
    """The same span in a second entity (a system that outputs one span twice)."""
    mentions, entities = _referring(doc), _entities(doc)
    if not mentions or len(entities) < 2:
        return False
    mention = rng.choice(mentions)
    target = rng.choice([e for e in entities if e is not doc.entity_of(mention)])
    doc.add_mention(mention.tokens, target)
    return True


def nonref_flip(doc: Document, rng: random.Random) -> bool:
    """A referring markable made non-referring, or a non-referring one made referring."""
    nonref = [m for m in doc.non_referring() if m.tokens and doc.entity_of(m) is None]
    used = {m for s in doc.memberships() for m in s.evidence}
    used |= {b.anaphor for b in doc.bridging()} | {b.anchor_mention for b in doc.bridging()}
    referring = [m for m in _referring(doc) if m not in used]
    if nonref and (not referring or rng.random() < 0.5):
        mention = rng.choice(nonref)
        mention.nonref = None
        entities = _entities(doc)
        doc.set_entity(mention, rng.choice(entities) if entities and rng.random() < 0.5
                       else doc.new_entity())
        return True
    if not referring:
        return False
    mention = rng.choice(referring)
    doc.detach(mention)
    mention.nonref = "unknown"
    return True


def bridging_change(doc: Document, rng: random.Random) -> bool:
    """A bridging anaphor dropped or added, or its anchor moved (same or other entity)."""
    bridges = doc.bridging()
    mentions, entities = _referring(doc), _entities(doc)
    roll = rng.random()
    if bridges and roll < 0.35:
        b = rng.choice(bridges)
        doc.remove_bridging(b.anaphor, b.anchor)
        return True
    if bridges and roll < 0.7:
        b = rng.choice(bridges)
        anchor = rng.choice(entities)
        anchor_mention = rng.choice(doc.mentions_of(anchor))
        if anchor_mention is b.anaphor:
            return False
        doc.remove_bridging(b.anaphor, b.anchor)
        doc.add_bridging(b.anaphor, anchor, relation=b.relation, anchor_mention=anchor_mention)
        return True
    if len(mentions) < 2:
        return False
    anaphor, anchor_mention = rng.sample(mentions, 2)
    if any(b.anaphor is anaphor for b in bridges):
        return False
    doc.add_bridging(anaphor, doc.entity_of(anchor_mention), relation="part-of",
                     anchor_mention=anchor_mention)
    return True


def split_change(doc: Document, rng: random.Random) -> bool:
    """A split antecedent's member added, removed or replaced; a spurious or lost set."""
    sets = doc.accommodated_sets()
    entities = _entities(doc)
    roll = rng.random()
    if sets and roll < 0.6:
        set_entity = rng.choice(list(sets))
        members = sets[set_entity]
        others = [e for e in entities if e is not set_entity and e not in members
                  and not doc.members(e) and set_entity not in doc.sets_of(e)]
        action = rng.choice(("add", "remove", "replace"))
        if action in ("remove", "replace") and len(members) > 1:
            doc.remove_from_set(rng.choice(members), set_entity)
        if action in ("add", "replace") and others:
            member = rng.choice(others)
            doc.add_to_set(member, set_entity, evidence=doc.mentions_of(member)[:1])
        return True
    if sets and roll < 0.75:
        set_entity = rng.choice(list(sets))
        for member in sets[set_entity]:
            doc.remove_from_set(member, set_entity)
        return True
    plain = [e for e in entities if not doc.members(e) and not doc.sets_of(e)]
    if len(plain) < 3:
        return False
    set_entity, *members = rng.sample(plain, 3)
    for member in members:
        doc.add_to_set(member, set_entity, evidence=doc.mentions_of(member)[:1])
    return True


def dd_reassign(doc: Document, rng: random.Random) -> bool:
    """A discourse-deixis markable moved to another DD entity."""
    return move_mention(doc, rng, DISCOURSE_DEIXIS)


def zero_change(doc: Document, rng: random.Random) -> bool:
    """A zero mention added on an empty node, moved to another one, or dropped."""
    empties = [t.index for t in doc.tokens if t.is_empty]
    zeros = [m for m in _referring(doc) if doc.is_zero(m)]
    taken = _taken(doc)
    free = [i for i in empties if (i,) not in taken]
    roll = rng.random()
    if zeros and roll < 0.3:
        doc.remove_mention(rng.choice(zeros))
        return True
    if zeros and free and roll < 0.6:
        zero = rng.choice(zeros)
        zero.tokens = (rng.choice(free),)
        zero.head = zero.tokens[0]
        return True
    if not free:
        return False
    entities = _entities(doc)
    target = rng.choice(entities) if entities and rng.random() < 0.7 else doc.new_entity()
    token = rng.choice(free)
    doc.add_mention((token,), target, head=token)
    return True


COMMON: dict[str, Kind] = {
    "drop_mention": drop_mention, "add_mention": add_mention, "shift_mention": shift_mention,
    "move_mention": move_mention, "merge_entities": merge_entities,
    "split_entity": split_entity, "repeat_span": repeat_span,
}
KINDS: dict[str, dict[str, Kind]] = {
    "conll2012": COMMON,
    "ua-exploded": {**COMMON, "nonref_flip": nonref_flip, "bridging": bridging_change,
                    "split_antecedent": split_change, "dd_reassign": dd_reassign},
    "corefud": {**COMMON, "split_antecedent": split_change, "bridging": bridging_change,
                "zero": zero_change},
}


def perturb(doc: Document, fmt: str, rng: random.Random, strength: int) -> Counter[str]:
    """Apply ``strength`` random changes of the kinds ``fmt`` can hold; count them."""
    kinds = KINDS[fmt]
    done: Counter[str] = Counter()
    names = sorted(kinds)
    for _ in range(strength):
        name = rng.choice(names)
        if kinds[name](doc, rng):
            done[name] += 1
    return done
