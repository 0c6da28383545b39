"""The document model: construction, queries and invariants."""

from __future__ import annotations

import pytest

from corefkit.errors import ModelError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Token


def make_doc() -> Document:
    """John met Mary . They left . (two sentences)"""
    doc = Document("demo", "0")
    doc.add_sentence(["John", "met", "Mary", "."])
    doc.add_sentence(["They", "left", "."])
    return doc


def test_text_layer():
    doc = make_doc()
    assert len(doc.tokens) == 7
    assert [s.token_indices() for s in doc.sentences] == [range(0, 4), range(4, 7)]
    assert doc.tokens[4].form == "They" and doc.tokens[4].sentence == 1
    assert doc.sentence_of(5).index == 1
    assert doc.pair_key() == ("demo", "0")


def test_pair_key_normalises_parts():
    assert Document("x", "000").pair_key() == Document("x", "0").pair_key() == Document("x").pair_key()
    assert Document("x", "001").name == "x; part 1"
    assert Document("x", "000").name == "x"


def test_mentions_and_entities():
    doc = make_doc()
    john, mary, they = doc.new_entity(), doc.new_entity(), doc.new_entity()
    m1 = doc.add_span(0, 0, john)
    m2 = doc.add_span(2, 2, mary)
    m3 = doc.add_span(4, 4, they, attrs={"type": "pronoun"})
    assert doc.entity_of(m1) is john
    assert doc.mentions_of(they) == [m3]
    assert doc.text(m3) == "They"
    assert [e.id for e in doc.entities] == [0, 1, 2]
    assert doc.sorted_mentions() == [m1, m2, m3]
    assert doc.size(john) == 1


def test_a_mention_has_at_most_one_entity():
    doc = make_doc()
    a, b = doc.new_entity(), doc.new_entity()
    m = doc.add_span(0, 0, a)
    with pytest.raises(ModelError, match="at most one entity"):
        doc.set_entity(m, b)
    doc.set_entity(m, b, replace=True)
    assert doc.entity_of(m) is b and doc.mentions_of(a) == []


def test_layers_must_agree():
    doc = make_doc()
    dd = doc.new_entity(layer=DISCOURSE_DEIXIS)
    m = doc.add_span(0, 0)
    with pytest.raises(ModelError, match="layer"):
        doc.set_entity(m, dd)
    segment = doc.add_span(0, 3, dd)
    assert segment.layer == DISCOURSE_DEIXIS
    assert doc.entities_in(DISCOURSE_DEIXIS) == [dd]
    with pytest.raises(ModelError):
        doc.new_entity(layer="nonsense")


def test_token_indices_are_checked():
    doc = make_doc()
    with pytest.raises(ModelError, match="outside the document"):
        doc.add_span(5, 9)
    with pytest.raises(ModelError):
        doc.add_span(3, 2)


def test_discontinuous_and_zero_mentions():
    doc = Document("zero")
    doc.add_sentence([Token("Came"), Token("_", is_empty=True), Token("home")])
    gap = doc.add_mention([0, 2])
    zero = doc.add_mention([1])
    assert not gap.is_contiguous and gap.parts() == [(0, 0), (2, 2)]
    assert doc.text(gap) == "Came ... home"
    assert doc.is_zero(zero) and not doc.is_zero(gap)


def test_accommodated_sets_and_cycles():
    doc = make_doc()
    john, mary, they = doc.new_entity(), doc.new_entity(), doc.new_entity()
    they_m = doc.add_span(4, 4, they)
    doc.add_to_set(john, they, evidence=[they_m])
    doc.add_to_set(mary, they)
    assert doc.members(they) == [john, mary]
    assert doc.sets_of(john) == [they]
    assert doc.accommodated_sets() == {they: [john, mary]}
    assert doc.split_antecedent_cycles() == []
    # a set that (indirectly) contains itself is detected
    doc.add_to_set(they, john)
    cycles = doc.split_antecedent_cycles()
    assert len(cycles) == 1 and set(cycles[0]) == {they, john}
    doc.remove_from_set(they, john)
    assert doc.split_antecedent_cycles() == []


def test_the_acyclicity_check_agrees_with_networkx_on_random_graphs():
    """Documents without cycles skip importing networkx; the check that lets them must say
    "acyclic" exactly when networkx finds no cycle (self-loops and long cycles included)."""
    import random

    import networkx as nx

    from corefkit.model.document import _acyclic

    rng = random.Random(5)
    for _ in range(2000):
        nodes = rng.randint(1, 8)
        edges = {(rng.randrange(nodes), rng.randrange(nodes)) for _ in range(rng.randint(0, 12))}
        graph = nx.DiGraph(list(edges))
        assert _acyclic(edges) == nx.is_directed_acyclic_graph(graph), edges


def test_bridging_and_removal():
    doc = make_doc()
    house, door = doc.new_entity(), doc.new_entity()
    anchor = doc.add_span(2, 2, house)
    anaphor = doc.add_span(4, 4, door)
    doc.add_bridging(anaphor, house, relation="part-whole", anchor_mention=anchor)
    [b] = doc.bridging()
    assert (b.anaphor, b.anchor, b.relation, b.anchor_mention) == (anaphor, house, "part-whole", anchor)
    doc.remove_mention(anchor)
    assert doc.bridging()[0].anchor_mention is None
    doc.remove_entity(house)
    assert doc.bridging() == []
    doc.remove_mention(anaphor)
    assert doc.mentions == [] and doc.mentions_of(door) == []


def test_merge_entities_moves_mentions_and_relations():
    doc = make_doc()
    a, b, s = doc.new_entity(), doc.new_entity(), doc.new_entity()
    doc.add_span(0, 0, a)
    doc.add_span(2, 2, b)
    they = doc.add_span(4, 4, s)
    doc.add_to_set(b, s)
    doc.add_bridging(they, b)
    doc.merge_entities(a, b)
    assert len(doc.mentions_of(a)) == 2 and b not in doc.entities
    assert doc.members(s) == [a]
    assert doc.bridging()[0].anchor is a


def test_non_referring_and_pseudo_entities():
    doc = make_doc()
    expletive = doc.add_span(4, 4, nonref="expletive")
    pseudo = doc.new_entity(pseudo=True)
    assert doc.non_referring() == [expletive]
    assert doc.entities_in(IDENTITY) == []
    assert doc.entities_in(IDENTITY, pseudo=True) == [pseudo]


def test_copy_is_deep_and_independent():
    doc = make_doc()
    a, s = doc.new_entity(attrs={"etype": "person"}), doc.new_entity()
    m = doc.add_span(0, 0, a)
    doc.add_to_set(a, s, evidence=[m])
    doc.add_bridging(doc.add_span(4, 4, s), a, anchor_mention=m)
    copy = doc.copy()
    assert [e.attrs for e in copy.entities] == [{"etype": "person"}, {}]
    [ms] = copy.memberships()
    assert ms.evidence[0] in copy.mentions and ms.evidence[0] is not m
    assert copy.bridging()[0].anchor_mention in copy.mentions
    copy.entities[0].attrs["etype"] = "x"
    copy.tokens[0].form = "Jack"
    assert a.attrs["etype"] == "person" and doc.tokens[0].form == "John"
    shared = doc.copy(text=False)
    assert shared.tokens[0] is doc.tokens[0]
    assert shared.mentions[0] is not doc.mentions[0]


def test_graph_view():
    doc = make_doc()
    a, s = doc.new_entity(), doc.new_entity()
    m = doc.add_span(0, 0, a)
    doc.add_to_set(a, s)
    g = doc.graph()
    assert g.has_edge(m, a, key="refers") and g.has_edge(a, s, key="element_of")
    assert g.number_of_nodes() == 3


# ------------------------------------------------------------------ deferred mentions
def deferred_doc() -> tuple[Document, list]:
    """make_doc with one mention added eagerly and three handed over as deferred spans."""
    doc = make_doc()
    john, mary, they = doc.new_entity(), doc.new_entity(), doc.new_entity()
    eager = doc.add_span(1, 1, mary)
    doc.defer_mentions([(john, 0, 0, 3), (they, 4, 4, 7), (john, 0, 2, 3)])
    return doc, [john, mary, they, eager]


def eager_doc() -> Document:
    """The same document built one mention at a time."""
    doc = make_doc()
    john, mary, they = doc.new_entity(), doc.new_entity(), doc.new_entity()
    doc.add_span(1, 1, mary)
    doc.add_span(0, 0, john, line=3)
    doc.add_span(4, 4, they, line=7)
    doc.add_span(0, 2, john, line=3)
    return doc


def described(doc: Document) -> list:
    return [(m.id, m.tokens, m.line, doc.entity_of(m).id) for m in doc.mentions]


@pytest.mark.parametrize("access", [
    lambda d: d.mentions,
    lambda d: d.sorted_mentions(),
    lambda d: d.mentions_of(d.entities[0]),
    lambda d: d.size(d.entities[0]),
    lambda d: d.entity_of(d.entities[0]),
    lambda d: d.chains(),
    lambda d: d.non_referring(),
    lambda d: d.copy(),
    lambda d: d.add_span(5, 5, d.entities[1]),
    lambda d: d.new_entity(),
    lambda d: d.merge_entities(d.entities[0], d.entities[2]),
    lambda d: d.graph(),
], ids=["mentions", "sorted", "mentions_of", "size", "entity_of", "chains", "non_referring",
        "copy", "add_span", "new_entity", "merge", "graph"])
def test_deferred_mentions_are_built_before_anything_sees_them(access):
    doc, _ = deferred_doc()
    access(doc)
    assert doc._pending is None
    reference = eager_doc()
    access(reference)
    assert described(doc) == described(reference)


def test_deferred_mentions_keep_ids_order_and_chains():
    doc, (john, mary, they, eager) = deferred_doc()
    assert eager.id == 0
    later = doc.add_span(5, 5, mary)  # ids after the deferred ones
    assert later.id == 4
    assert described(doc)[:4] == described(eager_doc())
    assert [m.tokens for m in doc.mentions_of(john)] == [(0, 1, 2), (0,)]
    assert [m.tokens for m in doc.mentions_of(john, ordered=False)] == [(0,), (0, 1, 2)]


def test_chain_extents_without_building():
    doc, (john, mary, they, _) = deferred_doc()
    they.pseudo = True
    assert doc.chain_extents() == [[(0, 0), (0, 2)], [(1, 1)]]
    assert doc._pending is not None  # nothing was built
    assert doc.chain_extents() == [[m.extent for m in chain] for chain in
                                   [doc.mentions_of(e, ordered=False) for e in (john, mary)]]


def test_extent_is_the_span_or_the_tokens():
    doc = make_doc()
    entity = doc.new_entity()
    assert doc.add_span(0, 2, entity).extent == (0, 2)
    assert doc.add_mention([4], entity).extent == (4, 4)
    assert doc.add_mention([0, 2, 3], entity).extent == (0, 2, 3)
    assert doc.add_mention([], entity).extent == ()
