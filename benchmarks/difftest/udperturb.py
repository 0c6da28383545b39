"""System errors made with udapi on a real CorefUD document, as CRAC participants write output.

The key of a CorefUD pair is a real document's original bytes; the response is that document
loaded by udapi (the library the CorefUD scorer and CRAC systems use), changed through udapi's
own API and written by udapi's writer — never by corefkit, so that what udapi writes (and
corefkit must read) reaches both scorers. Each kind is ``(doc, rng) -> bool`` (something was
changed). Besides the errors every system makes (mentions dropped, added, moved, shrunk,
extended, entities merged and split), the kinds exercise matching zeros by their dependencies:
zeros moved to other empty nodes, their nodes re-attached to other parents, their relations
changed, edges added, empty nodes added and dropped (udapi renumbers later siblings), a zero
kept on the key's node with other DEPS, zeros of equal dependency score (a second node with
the same DEPS), an antecedent span repeated in a second entity, and a node dropped without
renumbering (2.2 without 2.1, as a system that copies the key's ids writes it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

Kind = Callable[[Any, random.Random], bool]
RELATIONS = ("nsubj", "obj", "iobj", "obl", "nmod", "nsubj:pass")


def _mentions(doc: Any) -> list[Any]:
    return [m for e in doc.coref_entities for m in e.mentions]


def _zeros(doc: Any) -> list[Any]:
    return [m for m in _mentions(doc) if m.head.is_empty()]


def _empty_nodes(doc: Any) -> list[Any]:
    return [node for tree in doc.trees for node in tree.empty_nodes]


def _words(node: Any) -> list[Any]:
    return list(node.root.descendants)


def _crosses(doc: Any, words: list[Any]) -> bool:
    """True if a span would cross another mention's brackets or duplicate a span."""
    first, last = words[0], words[-1]
    for m in _mentions(doc):
        mw = m.words
        if mw == words:
            return True
        a, b = mw[0], mw[-1]
        if a.root is not first.root:
            continue
        if (a.precedes(first) and first.precedes(b) and b.precedes(last)) or \
                (first.precedes(a) and a.precedes(last) and last.precedes(b)):
            return True
    return False


def _zero_on(node: Any, entity: Any) -> Any:
    return entity.create_mention(head=node, words=[node])


# ============================================================================ common errors
def drop_mention(doc: Any, rng: random.Random) -> bool:
    mentions = [m for m in _mentions(doc) if len(m.entity.mentions) > 1]
    if not mentions:
        return False
    rng.choice(mentions).remove()
    return True


def add_mention(doc: Any, rng: random.Random) -> bool:
    tree = rng.choice(list(doc.trees))
    words = _words(tree)
    if not words:
        return False
    start = rng.randrange(len(words))
    span = words[start:start + rng.randint(1, 3)]
    if _crosses(doc, span):
        return False
    entities = list(doc.coref_entities)
    entity = rng.choice(entities) if entities and rng.random() < 0.5 \
        else doc.create_coref_entity()
    entity.create_mention(head=span[0], words=span)
    return True


def move_mention(doc: Any, rng: random.Random) -> bool:
    mentions, entities = _mentions(doc), list(doc.coref_entities)
    if not mentions or len(entities) < 2:
        return False
    mention = rng.choice(mentions)
    target = rng.choice([e for e in entities if e is not mention.entity])
    words, head = list(mention.words), mention.head
    mention.remove()
    target.create_mention(head=head, words=words)
    return True


def merge_entities(doc: Any, rng: random.Random) -> bool:
    entities = list(doc.coref_entities)
    if len(entities) < 2:
        return False
    keep, other = rng.sample(entities, 2)
    for mention in list(other.mentions):
        words, head = list(mention.words), mention.head
        mention.remove()
        if not any(m.words == words for m in keep.mentions):
            keep.create_mention(head=head, words=words)
    return True


def split_entity(doc: Any, rng: random.Random) -> bool:
    entities = [e for e in doc.coref_entities if len(e.mentions) >= 2]
    if not entities:
        return False
    entity = rng.choice(entities)
    new = doc.create_coref_entity()
    for mention in list(entity.mentions)[rng.randrange(1, len(entity.mentions)):]:
        words, head = list(mention.words), mention.head
        mention.remove()
        new.create_mention(head=head, words=words)
    return True


def shrink_or_extend(doc: Any, rng: random.Random) -> bool:
    """One word less or more at one end, the head kept (head matching still pairs them)."""
    mentions = [m for m in _mentions(doc) if not m.head.is_empty()
                and not any(w.is_empty() for w in m.words)]
    if not mentions:
        return False
    mention = rng.choice(mentions)
    words = _words(mention.head)
    at = [words.index(w) for w in mention.words if w in words]
    first, last = min(at), max(at)
    if rng.random() < 0.5 and last > first:
        span = words[first + 1:last + 1] if mention.head is not words[first] \
            else words[first:last]
    else:
        span = words[max(first - 1, 0):last + 1] if rng.random() < 0.5 \
            else words[first:last + 2]
    if mention.head not in span or span == mention.words or _crosses(doc, span):
        return False
    mention.words = span
    return True


# ============================================================================ zeros
def zero_moved(doc: Any, rng: random.Random) -> bool:
    """A zero moved to another empty node of its sentence that has no mention."""
    zeros = _zeros(doc)
    if not zeros:
        return False
    zero = rng.choice(zeros)
    free = [n for n in zero.head.root.empty_nodes if not n.coref_mentions]
    if not free:
        return False
    entity = zero.entity
    zero.remove()
    _zero_on(rng.choice(free), entity)
    return True


def deps_parent_changed(doc: Any, rng: random.Random) -> bool:
    """A zero's node re-attached to another word of its sentence (same relation)."""
    zeros = _zeros(doc)
    if not zeros:
        return False
    node = rng.choice(zeros).head
    words = _words(node)
    if not words or not node.deps:
        return False
    relation = node.deps[0]["deprel"]
    node.deps = [{"parent": rng.choice(words), "deprel": relation}]
    return True


def deps_relation_changed(doc: Any, rng: random.Random) -> bool:
    """A zero's node keeps its parent but gets another relation."""
    zeros = _zeros(doc)
    if not zeros:
        return False
    node = rng.choice(zeros).head
    if not node.deps:
        return False
    parent = node.deps[0]["parent"]
    node.deps = [{"parent": parent, "deprel": rng.choice(RELATIONS)}]
    return True


def deps_edge_added(doc: Any, rng: random.Random) -> bool:
    zeros = _zeros(doc)
    if not zeros:
        return False
    node = rng.choice(zeros).head
    words = _words(node)
    if not words:
        return False
    node.deps = list(node.deps) + [{"parent": rng.choice(words), "deprel": rng.choice(RELATIONS)}]
    return True


def twin_other_deps(doc: Any, rng: random.Random) -> bool:
    """A zero kept on the key's node with wholly other DEPS (other parent and relation)."""
    zeros = _zeros(doc)
    if not zeros:
        return False
    node = rng.choice(zeros).head
    words = _words(node)
    old = {d["parent"] for d in node.deps}
    others = [w for w in words if w not in old]
    if not others:
        return False
    node.deps = [{"parent": rng.choice(others), "deprel": rng.choice(RELATIONS[2:])}]
    return True


def empty_node_added(doc: Any, rng: random.Random) -> bool:
    """A new empty node after a word (udapi numbers it), usually with a zero mention; mentions
    whose range encloses it take it (their spans stay contiguous)."""
    tree = rng.choice(list(doc.trees))
    words = _words(tree)
    if not words:
        return False
    word = rng.choice(words)
    node = word.create_empty_child(rng.choice(RELATIONS[:3]), after=True)
    following = words[words.index(word) + 1] if word is not words[-1] else None
    for mention in _mentions(doc):
        mw = mention.words
        if following is not None and word in mw and following in mw:
            mention.words = mw + [node]
    if rng.random() < 0.6:
        entities = list(doc.coref_entities)
        entity = rng.choice(entities) if entities and rng.random() < 0.7 \
            else doc.create_coref_entity()
        _zero_on(node, entity)
    return True


def _removable(doc: Any) -> list[Any]:
    """Empty nodes no DEPS points to and no mention of several nodes holds."""
    named = {d["parent"] for n in _empty_nodes(doc) for d in n.deps} | \
        {d["parent"] for t in doc.trees for n in t.descendants for d in n.deps}
    return [n for n in _empty_nodes(doc) if n not in named
            and all(len(m.words) == 1 for m in n.coref_mentions)]


def empty_node_dropped(doc: Any, rng: random.Random) -> bool:
    """An empty node and its zero removed; udapi renumbers its later siblings (2.3 -> 2.2)."""
    nodes = _removable(doc)
    if not nodes:
        return False
    node = rng.choice(nodes)
    for mention in list(node.coref_mentions):
        mention.remove()
    # as udapi's EmptyNode.remove() renumbers (which, in udapi 0.5.2, also turns every other
    # node's parsed DEPS into tuples that its writer then cannot write)
    for other in node.root.empty_nodes:
        if node.ord < other.ord < int(node.ord) + 1:
            other.ord = round(other.ord - 0.1, 1)
    node.root.empty_nodes.remove(node)
    return True


def empty_node_gap(doc: Any, rng: random.Random) -> bool:
    """An empty node removed without renumbering the later ones: 2.2 without 2.1 (as a system
    writes that copies the key's ids of the nodes it keeps)."""
    nodes = [n for n in _removable(doc)
             if any(o is not n and int(o.ord) == int(n.ord) and o.ord > n.ord
                    for o in n.root.empty_nodes)]
    if not nodes:
        return False
    node = rng.choice(nodes)
    for mention in list(node.coref_mentions):
        mention.remove()
    node.root.empty_nodes.remove(node)
    return True


def equal_score_zero(doc: Any, rng: random.Random) -> bool:
    """A second empty node after the same word with the same DEPS as a zero's node, carrying
    a zero of another entity: two zeros of equal dependency score."""
    zeros = [z for z in _zeros(doc) if z.head.deps]
    entities = list(doc.coref_entities)
    if not zeros or len(entities) < 2:
        return False
    zero = rng.choice(zeros)
    node = zero.head
    word = next((w for w in _words(node) if w.ord == int(node.ord)), None)
    if word is None:
        return False
    twin = word.create_empty_child(node.deps[0]["deprel"], after=True)
    twin.deps = [dict(d) for d in node.deps]
    _zero_on(twin, rng.choice([e for e in entities if e is not zero.entity]))
    return True


def repeated_antecedent(doc: Any, rng: random.Random) -> bool:
    """The first overt mention of an entity with a zero, repeated in another entity."""
    with_zero = [e for e in doc.coref_entities
                 if any(m.head.is_empty() for m in e.mentions)
                 and any(not m.head.is_empty() for m in e.mentions)]
    entities = list(doc.coref_entities)
    if not with_zero or len(entities) < 2:
        return False
    entity = rng.choice(with_zero)
    first = next(m for m in entity.mentions if not m.head.is_empty())
    target = rng.choice([e for e in entities if e is not entity])
    if any(m.words == first.words for m in target.mentions):
        return False
    target.create_mention(head=first.head, words=list(first.words))
    return True


KINDS: dict[str, Kind] = {
    "drop_mention": drop_mention, "add_mention": add_mention, "move_mention": move_mention,
    "merge_entities": merge_entities, "split_entity": split_entity,
    "shrink_or_extend": shrink_or_extend,
    "zero_moved": zero_moved, "deps_parent_changed": deps_parent_changed,
    "deps_relation_changed": deps_relation_changed, "deps_edge_added": deps_edge_added,
    "twin_other_deps": twin_other_deps, "empty_node_added": empty_node_added,
    "empty_node_dropped": empty_node_dropped, "empty_node_gap": empty_node_gap,
    "equal_score_zero": equal_score_zero, "repeated_antecedent": repeated_antecedent,
}
ZERO_KINDS = [k for k in KINDS if k not in ("drop_mention", "add_mention", "move_mention",
                                             "merge_entities", "split_entity",
                                             "shrink_or_extend")]


def perturb(doc: Any, rng: random.Random, strength: int) -> Counter[str]:
    """``strength`` random changes, two in three of them zero kinds; count what was done."""
    done: Counter[str] = Counter()
    common = sorted(set(KINDS) - set(ZERO_KINDS))
    for _ in range(strength):
        name = rng.choice(ZERO_KINDS if rng.random() < 2 / 3 else common)
        if KINDS[name](doc, rng):
            done[name] += 1
    return done
