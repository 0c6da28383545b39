"""Dependency-tree heads (corefkit.model.syntax) and the three places that use them: the CorefUD
writer's derived heads, the rule tables' tree heads and the mention-type predicates' heads."""

from __future__ import annotations

from corefkit.analysis.predicates import DocumentView
from corefkit.analysis.rules import DocumentContext, HeadRule
from corefkit.converters.corefud.writer import derive_head
from corefkit.model import Document, Token
from corefkit.model.syntax import sentence_parents, span_parents, tree_depth, tree_head


def add(doc: Document, rows: list[tuple[str | None, str, str | None]]) -> None:
    """A sentence of (id, form, HEAD) rows; ids with a dot are empty nodes."""
    doc.add_sentence([Token(form, id=tid, head=head,
                            deprel=None if head in (None, "_") else ("root" if head == "0" else "dep"),
                            is_empty=tid is not None and "." in tid)
                      for tid, form, head in rows])


def barked() -> Document:
    """0 The  1 big  2 dog  3 barked  4 at  5 the  6 cat  |  7 It  8 slept"""
    doc = Document("tree")
    add(doc, [("1", "The", "3"), ("2", "big", "3"), ("3", "dog", "4"), ("4", "barked", "0"),
              ("5", "at", "7"), ("6", "the", "7"), ("7", "cat", "4")])
    add(doc, [("1", "It", "2"), ("2", "slept", "0")])
    return doc


def no_tree() -> Document:
    doc = Document("flat")
    add(doc, [("1", "the", "_"), ("2", "big", "_"), ("3", "dog", "_")])
    return doc


# ---------------------------------------------------------------------------- the parent map
def test_sentence_parents_from_the_head_column():
    doc = Document("d")
    add(doc, [("1", "a", "2"), ("2", "b", "0"), ("3", "c", "_"), ("4", "d", "9"), ("5", "e", None),
              ("6", "f", "")])
    # the root's parent is None; no HEAD or a HEAD naming no token: no known parent
    assert sentence_parents(doc, 0) == {0: 1, 1: None}


def test_span_parents_merges_sentences_and_fills_the_cache():
    doc = barked()
    cache: dict[int, dict[int, int | None]] = {}
    one = span_parents(doc, [0, 1], cache)
    assert one is cache[0] and set(cache) == {0}
    both = span_parents(doc, [6, 7], cache)
    assert set(cache) == {0, 1} and both == {**cache[0], **cache[1]}


def test_tree_depth():
    parents = sentence_parents(barked(), 0)
    assert [tree_depth(parents, t) for t in range(7)] == [2, 2, 1, 0, 2, 2, 1]
    assert tree_depth({0: 1}, 0) == 1            # an ancestor with no known parent ends the walk
    assert tree_depth({0: 1, 1: 0}, 0) == 1      # so does a cycle


# ---------------------------------------------------------------------------- tree_head
def test_the_token_whose_parent_lies_outside_the_span():
    doc = barked()
    assert tree_head(doc, (0, 1, 2)) == 2        # The big [dog]
    assert tree_head(doc, (4, 5, 6)) == 6        # at the [cat]
    assert tree_head(doc, tuple(range(7))) == 3  # the root


def test_ties_nearest_the_root_then_leftmost():
    doc = barked()
    assert tree_head(doc, (1, 6)) == 6           # cat (depth 1) over big (depth 2)
    assert tree_head(doc, (2, 6)) == 2           # dog and cat both at depth 1: the leftmost
    assert tree_head(doc, (0, 4)) == 0           # The and at both at depth 2: the leftmost


def test_no_tree_no_head():
    assert tree_head(no_tree(), (0, 1, 2)) is None
    assert tree_head(barked(), ()) is None


def test_a_candidate_without_parent_means_no_head_unless_partial():
    doc = Document("d")
    add(doc, [("1", "the", "3"), ("2", "big", "_"), ("3", "dog", "0")])
    assert tree_head(doc, (0, 1, 2)) is None
    assert tree_head(doc, (0, 1, 2), partial=True) == 2


def test_a_cycle_has_no_top():
    doc = Document("d")
    add(doc, [("1", "a", "2"), ("2", "b", "1"), ("3", "c", "0")])
    assert tree_head(doc, (0, 1)) is None
    assert tree_head(doc, (0, 1, 2)) == 2


def test_spans_across_sentences_use_each_sentence_tree():
    doc = barked()
    assert tree_head(doc, (6, 7)) == 6           # cat and It at depth 1: the leftmost
    assert tree_head(doc, (6, 7, 8)) == 8        # slept is a root


def test_empty_nodes_are_left_out_of_the_candidates_but_stay_inside():
    doc = Document("d")
    add(doc, [("1", "She", "2"), ("2", "left", "0"), ("2.1", "E", "_"), ("3", "home", "2")])
    assert tree_head(doc, (0, 2)) is None        # the empty node has no HEAD
    assert tree_head(doc, (0, 2), words_only=True) == 0
    doc = Document("d")
    add(doc, [("1", "we", "2"), ("2", "go", "0"), ("2.1", "E", "2"), ("3", "home", "2.1")])
    assert tree_head(doc, (2, 3)) == 2           # the empty node is the top
    assert tree_head(doc, (2, 3), words_only=True) is None  # home's parent is inside


def test_given_parents_are_used():
    doc = barked()
    assert tree_head(doc, (0, 1, 2), parents={0: 1, 1: None, 2: 1}) == 1


# ---------------------------------------------------------------------------- the CorefUD writer
def test_derive_head_prefers_the_min_span_and_falls_back():
    doc = barked()
    e = doc.new_entity()
    assert derive_head(doc, doc.add_mention((4, 5, 6), e)) == 6
    assert derive_head(doc, doc.add_mention((4, 5, 6), e, min_tokens=(4, 5))) == 4
    assert derive_head(doc, doc.add_mention((0, 1, 2), e, min_tokens=(2,))) == 2
    assert derive_head(doc, doc.add_mention((6, 7, 8), e)) == 6  # first sentence's tree only
    flat = no_tree()
    f = flat.new_entity()
    assert derive_head(flat, flat.add_mention((0, 1, 2), f)) == 0            # first token
    assert derive_head(flat, flat.add_mention((0, 1, 2), f, min_tokens=(0, 1))) == 1  # last min
    assert derive_head(flat, flat.add_mention((1,), f)) == 1                  # no tree needed


def test_derive_head_counts_empty_nodes_as_candidates():
    doc = Document("d")
    add(doc, [("1", "She", "2"), ("2", "left", "0"), ("2.1", "E", "_")])
    e = doc.new_entity()
    # the empty node has no HEAD, so there is no tree head (the words alone would give 'left')
    assert derive_head(doc, doc.add_mention((0, 1, 2), e)) == 0  # the first token


# ---------------------------------------------------------------------------- the rule tables
def test_rule_tables_tree_head():
    doc = barked()
    context = DocumentContext(doc)
    e = doc.new_entity()
    assert context.tree_head(doc.add_mention((0, 1, 2), e)) == 2
    assert context.tree_head(doc.add_mention((3,), e)) == 3
    assert context.tree_head(doc.add_mention((6, 7, 8), e)) == 8  # both sentences' trees
    flat = no_tree()
    f = flat.new_entity()
    flat_context = DocumentContext(flat)
    assert flat_context.tree_head(flat.add_mention((1,), f)) is None  # one word needs a tree too
    assert flat_context.head(flat.add_mention((0, 1, 2), f), HeadRule(fallback="last")) == 2


def test_rule_tables_need_word_ids_and_skip_empty_nodes():
    doc = Document("d")
    add(doc, [(None, "a", "2"), ("2", "b", "0")])
    assert DocumentContext(doc).tree_head(doc.add_mention((0, 1), doc.new_entity())) is None
    doc = Document("d")
    add(doc, [("1", "She", "2"), ("2", "left", "0"), ("2.1", "E", "_")])
    assert DocumentContext(doc).tree_head(doc.add_mention((0, 2), doc.new_entity())) == 0
    assert DocumentContext(doc).tree_head(doc.add_mention((2,), doc.new_entity())) is None


# ---------------------------------------------------------------------------- the predicates
def test_predicate_heads():
    doc = barked()
    view = DocumentView(doc)
    e = doc.new_entity()
    assert view.head(doc.add_mention((0, 1, 2), e)) == 2
    assert view.head(doc.add_mention((1, 6), e)) == 6
    # the tree is the first word's sentence: words of the next one are passed over
    assert view.head(doc.add_mention((6, 7, 8), e)) == 6
    flat = no_tree()
    f = flat.new_entity()
    flat_view = DocumentView(flat)
    assert flat_view.head(flat.add_mention((1,), f)) == 1  # one word: no tree needed
    assert flat_view.head(flat.add_mention((0, 1), f)) is None
