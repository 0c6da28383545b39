"""Dependency-tree heads: the token of a span whose parent lies outside the span.

A document's tree is the CoNLL-U HEAD column of its tokens (``token.head`` is the id of the
parent, ``"0"`` for the root, ``None``/``"_"``/``""`` when not annotated). A *parent map*
sends a token index to its parent's token index (``None`` for the root); a token that is not
in the map has no known parent. :func:`tree_head` is the one implementation of "the head of a
span" that the CorefUD writer (``derive_head``), the rule tables (:mod:`corefkit.analysis.rules`)
and the mention-type predicates (:mod:`corefkit.analysis.predicates`, whose trees may also be
converted from CoNLL-2012 parse bits) share:

* the candidates are the span's tokens (without empty nodes when ``words_only``);
* a candidate is a top when its parent is the root or lies outside the span;
* of several tops the one nearest the root wins, then the leftmost (udapi's
  ``corefud.MoveHead`` rule); a span without a top (a cycle) has no head.

What the callers do differently is theirs and stays with them, so that each gives the heads
it gave before:

* the writer and the predicates return a one-token span's token without looking at the tree;
  the rule tables do not (a one-word mention in a sentence without a tree has no tree head,
  and the table's fallback decides);
* the writer's candidates include empty nodes (which have no HEAD in CoNLL-U, so such a span
  takes the writer's fallback), the rule tables and the predicates look at words only
  (``words_only``); the rule tables also treat a word without an id as having no tree;
* the writer reads the tree of the first candidate's sentence only and the rule tables that
  of every sentence the span touches; the predicates' trees (UD or converted parse bits)
  cover the words of the first word's sentence, and they pass over candidates with no
  parent (``partial``) where the others find no head.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from corefkit.model.document import Document

ParentMap = Mapping[int, int | None]

# HEAD values that mean "not annotated"
MISSING_HEADS = (None, "_", "")


def sentence_parents(doc: Document, sentence: int) -> dict[int, int | None]:
    """The parent map of one sentence, from the HEAD column of its tokens.

    ``"0"`` is the root (parent ``None``); a token whose HEAD is not annotated or names no
    token id of the sentence is left out.
    """
    tokens = doc.tokens
    span = doc.sentences[sentence]
    by_id: dict[str, int] = {}
    for index in range(span.start, span.stop):
        tid = tokens[index].id
        if tid is not None:
            by_id[tid] = index
    parents: dict[int, int | None] = {}
    for index in range(span.start, span.stop):
        head = tokens[index].head
        if head in MISSING_HEADS:
            continue
        if head == "0":
            parents[index] = None
        elif head in by_id:
            parents[index] = by_id[head]
    return parents


def span_parents(doc: Document, tokens: Iterable[int],
                 cache: dict[int, dict[int, int | None]] | None = None) -> ParentMap:
    """The parent map of the sentences ``tokens`` lie in (``cache``: sentence -> its map,
    filled as sentences are met, for callers that ask for many spans of one document)."""
    cache = {} if cache is None else cache
    sentences = sorted({doc.tokens[t].sentence for t in tokens})
    for s in sentences:
        if s not in cache:
            cache[s] = sentence_parents(doc, s)
    if len(sentences) == 1:
        return cache[sentences[0]]
    merged: dict[int, int | None] = {}
    for s in sentences:
        merged.update(cache[s])
    return merged


def tree_depth(parents: ParentMap, token: int) -> int:
    """How many ancestors ``token`` has: the steps up to the root or to a token with no
    known parent (a cycle ends the walk too)."""
    depth = 0
    seen = {token}
    current = parents.get(token)
    while current is not None and current not in seen:
        seen.add(current)
        depth += 1
        current = parents.get(current)
    return depth


def tree_head(doc: Document, tokens: Sequence[int], *, parents: ParentMap | None = None,
              words_only: bool = False, partial: bool = False) -> int | None:
    """The token of ``tokens`` whose parent lies outside them, nearest the root, then leftmost.

    ``tokens`` is the span (a mention's tokens, or its minimum span); every one of them counts
    as inside it. ``parents`` is the tree to use (default: :func:`span_parents` of the HEAD
    column). ``words_only`` leaves empty nodes out of the candidates (they stay inside the
    span). None when there is no candidate, when a candidate has no known parent (unless
    ``partial``: such candidates are passed over), or when no candidate is a top.
    """
    candidates = [t for t in tokens if not (words_only and doc.tokens[t].is_empty)]
    if not candidates:
        return None
    if parents is None:
        parents = span_parents(doc, candidates)
    if partial:
        candidates = [t for t in candidates if t in parents]
    elif any(t not in parents for t in candidates):
        return None
    inside = set(tokens)
    tops = [t for t in candidates if parents[t] not in inside]
    if not tops:
        return None
    return min(tops, key=lambda t: (tree_depth(parents, t), t))


# ------------------------------------------------------------------ udapi's MoveHead rule
ROOT = -1  # the sentence's root, as a parent


def _deps_parents(doc: Document, token: int) -> list[int] | None:
    """The enhanced parents of a token from its DEPS (``ROOT`` for ``0``), None when DEPS is
    not annotated; ids that name no token of its sentence are left out."""
    deps = doc.tokens[token].deps
    if deps in MISSING_HEADS:
        return None
    span = doc.sentences[doc.tokens[token].sentence]
    by_id = {doc.tokens[i].id: i for i in range(span.start, span.stop)}
    found = []
    for item in deps.split("|"):
        parent = item.partition(":")[0]
        if parent == "0":
            found.append(ROOT)
        elif parent in by_id:
            found.append(by_id[parent])
    return found


def _common_ancestor(parents: ParentMap, nodes: list[int]) -> int | None:
    """The lowest node of the basic tree that governs every one of ``nodes`` (one of them, or
    ``ROOT``); None when their paths up share no node (a node without a known parent)."""
    paths = []
    for node in nodes:
        path, seen = [node], {node}
        current: int | None = node
        while current is not None and current != ROOT:
            if current not in parents:
                break
            parent = parents[current]
            current = ROOT if parent is None else parent
            if current in seen:
                return None  # a cycle
            seen.add(current)
            path.append(current)
        paths.append(path)
    shared = set(paths[0]).intersection(*paths[1:])
    return next((n for n in paths[0] if n in shared), None)


def udapi_head(doc: Document, tokens: Sequence[int]) -> int:
    """The head udapi gives a mention created over ``tokens`` without one and then moved by
    its ``corefud.MoveHead`` block — what text2text-coref's ``text2conllu`` does to every
    mention of an LLM answer before the CorefUD scorer reads it (written from the block's
    documented behaviour):

    1. the tokens whose basic parent is the root or outside the span; one of them wins;
    2. of those, the ones none of whose parents (enhanced DEPS where annotated, else the basic
       parent) is inside the span (else those not all of whose parents are); one wins;
    3. an empty node stands for its first non-empty enhanced parent; the lowest common
       governor of what remains, if it is one of the candidates, wins;
    4. else the first token, if it is a candidate (the head the mention was created with),
       else the first candidate.
    """
    if len(tokens) < 2:
        return tokens[0]
    inside = set(tokens)
    parents = span_parents(doc, tokens)
    basic = [t for t in tokens if parents.get(t) is None or parents[t] not in inside]
    if len(basic) == 1:
        return basic[0]

    def eparents(t: int) -> list[int]:
        found = _deps_parents(doc, t)
        if found is not None:
            return found
        if t not in parents:  # no basic parent either (an empty node)
            return []
        parent = parents[t]
        return [ROOT if parent is None else parent]

    candidates = [t for t in basic if not any(p in inside for p in eparents(t))]
    if not candidates:
        candidates = [t for t in basic if not all(p in inside for p in eparents(t))]
        if not candidates:
            return tokens[0]
    if len(candidates) == 1:
        return candidates[0]
    words = [t for t in candidates if not doc.tokens[t].is_empty]
    for t in candidates:
        if doc.tokens[t].is_empty:
            up = [p for p in (_deps_parents(doc, t) or [])
                  if p == ROOT or not doc.tokens[p].is_empty]
            if up and up[0] not in words:
                words.append(up[0])
    if words:
        highest = _common_ancestor(parents, sorted(words))
        if highest is not None and highest in candidates:
            return highest
    return tokens[0] if tokens[0] in candidates else candidates[0]
