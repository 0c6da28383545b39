"""Model checks: on documents built in memory, each check fires alone; sound documents pass.

The model can hold things no single format expresses (a mention with no tokens, an entity
object shared by two documents), so these fixtures are documents built through the model's
API; file fixtures of the formats that can express an incident follow at the end.
"""

from __future__ import annotations

import pytest

from corefkit.model import Document, Token
from corefkit.validation import all_checks, validate
from corefkit.checks.model import MODEL_CHECKS
from tests.validation.helpers import VALIDATION


def text_doc(name: str = "doc", words: str = "John met Mary and they left town") -> Document:
    doc = Document(name, file=f"{name}.txt")
    doc.line = 1
    doc.add_sentence(words.split())
    return doc


def sound_doc() -> Document:
    """Every kind of structure, all of it well-formed."""
    doc = text_doc()
    john, mary, they, town = (doc.new_entity() for _ in range(4))
    doc.add_span(0, 0, john, line=1)
    doc.add_span(2, 2, mary, line=1)
    plural = doc.add_span(4, 4, they, line=1)
    doc.add_to_set(john, they, evidence=[plural])
    doc.add_to_set(mary, they, evidence=[plural])
    anaphor = doc.add_span(6, 6, town, line=1)
    doc.add_bridging(anaphor, they, relation="poss")
    doc.add_span(5, 5, None, nonref="expletive", line=1)
    doc.add_span(3, 6, john, line=1)          # nested in nothing of its own entity
    return doc


def zero_doc() -> Document:
    doc = Document("zero", file="zero.txt")
    doc.add_sentence([Token("Left"), Token("_", is_empty=True), Token("early")])
    entity = doc.new_entity()
    doc.add_span(1, 1, entity, attrs={"zero": True})
    doc.add_span(0, 0, entity)
    return doc


def no_tokens() -> list[Document]:
    doc = text_doc()
    doc.add_mention([], doc.new_entity())
    return [doc]


def same_span_same_entity() -> list[Document]:
    doc = text_doc()
    e = doc.new_entity()
    doc.add_span(0, 0, e)
    doc.add_span(0, 0, e)
    return [doc]


def same_span() -> list[Document]:
    doc = text_doc()
    doc.add_span(0, 1, doc.new_entity())
    doc.add_span(0, 1, doc.new_entity())
    return [doc]


def crossing_same_entity() -> list[Document]:
    doc = text_doc()
    e = doc.new_entity()
    doc.add_span(0, 2, e)
    doc.add_span(1, 3, e)
    return [doc]


def across_documents() -> list[Document]:
    # a reader or pass that reuses one Entity object for two documents: the model API
    # refuses to link foreign entities, so the broken state is set up below it
    first, second = text_doc("first"), text_doc("second")
    shared = first.new_entity()
    first.add_span(0, 0, shared)
    second._entities[shared] = None
    second._chains[shared] = {}
    second.add_span(2, 2, shared)
    return [first, second]


def one_member_set() -> list[Document]:
    doc = text_doc()
    john, they = doc.new_entity(), doc.new_entity()
    doc.add_span(0, 0, john)
    doc.add_span(4, 4, they)
    doc.add_to_set(john, they)
    return [doc]


def set_missing_entity() -> list[Document]:
    doc = text_doc()
    john, mary, group = doc.new_entity(), doc.new_entity(), doc.new_entity()
    doc.add_span(0, 0, john)
    doc.add_span(2, 2, mary)
    doc.add_to_set(john, group)   # the set itself is never mentioned
    doc.add_to_set(mary, group)
    return [doc]


def set_cycle() -> list[Document]:
    doc = text_doc()
    a, b, c, d = (doc.new_entity() for _ in range(4))
    for index, entity in enumerate((a, b, c, d)):
        doc.add_span(index * 2, index * 2, entity)
    doc.add_to_set(a, b)
    doc.add_to_set(c, b)
    doc.add_to_set(b, a)
    doc.add_to_set(d, a)
    return [doc]


def bridging_missing_anchor() -> list[Document]:
    doc = text_doc()
    town, nowhere = doc.new_entity(), doc.new_entity()
    anaphor = doc.add_span(6, 6, town)
    doc.add_bridging(anaphor, nowhere, relation="part")
    return [doc]


def bridging_wrong_anchor_mention() -> list[Document]:
    doc = text_doc()
    town, john, mary = doc.new_entity(), doc.new_entity(), doc.new_entity()
    anaphor = doc.add_span(6, 6, town)
    doc.add_span(0, 0, john)
    mary_mention = doc.add_span(2, 2, mary)
    doc.add_bridging(anaphor, john, anchor_mention=mary_mention)
    return [doc]


def zero_without_empty_node() -> list[Document]:
    doc = text_doc()
    e = doc.new_entity()
    doc.add_span(5, 5, e, attrs={"ellipsis_anchor": True})
    doc.add_span(4, 4, e)
    return [doc]


def nonref_in_chain() -> list[Document]:
    doc = text_doc()
    e = doc.new_entity()
    doc.add_span(0, 0, e)
    doc.add_span(4, 4, e, nonref="expletive")
    return [doc]


BUILDERS = {
    "mention.no-tokens": no_tokens,
    "mention.same-span-same-entity": same_span_same_entity,
    "mention.same-span": same_span,
    "mention.crossing-same-entity": crossing_same_entity,
    "entity.across-documents": across_documents,
    "split.one-member": one_member_set,
    "split.missing-entity": set_missing_entity,
    "split.cycle": set_cycle,
    "bridging.missing-anchor": bridging_missing_anchor,
    "zero.no-empty-node": zero_without_empty_node,
    "nonref.in-chain": nonref_in_chain,
}


@pytest.mark.parametrize("check", sorted(BUILDERS))
def test_model_fixture_triggers_exactly_its_check(check):
    assert {f.check for f in validate(BUILDERS[check]())} == {check}


def test_every_model_check_has_a_fixture():
    model = {c.id for c in all_checks() if c.format is None and c.origin == "validator"
             and not c.id.startswith(("file.", "text."))}
    assert model == set(MODEL_CHECKS) == set(BUILDERS)


def test_sound_documents_trigger_nothing():
    assert list(validate([sound_doc(), zero_doc()])) == []


def test_wrong_anchor_mention_is_a_missing_anchor():
    [finding] = validate(bridging_wrong_anchor_mention())
    assert finding.check == "bridging.missing-anchor"
    assert "'Mary'" in finding.message and "not a mention of the anchor entity" in finding.message


def test_messages_name_the_mentions_and_entities():
    [finding] = validate(crossing_same_entity())
    assert finding.message == ("'met Mary and' crosses 'John met Mary', a mention of the same "
                               "entity #0")
    assert (finding.document, finding.sentence, finding.file) == ("doc", "1", "doc.txt")
    [finding] = validate(across_documents())
    assert finding.document == "second" and "document first" in finding.message
    [finding] = validate(set_cycle())
    assert "#0 -> #1 -> #0" in finding.message or "#1 -> #0 -> #1" in finding.message


def test_discontinuous_mentions_cross_only_when_they_share_tokens():
    doc = text_doc()
    e = doc.new_entity()
    doc.add_mention([0, 1, 5], e)     # a gap over 2-4
    doc.add_span(2, 3, e)             # inside the gap: no shared token
    assert list(validate([doc])) == []
    doc.add_span(1, 2, e)             # shares token 1 with the first, token 2 with the second
    assert [f.check for f in validate([doc])] == ["mention.crossing-same-entity"] * 2


def test_same_span_on_different_layers_is_not_a_duplicate():
    # a UA discourse-deixis anaphor reuses the span of an identity markable
    doc = text_doc()
    doc.add_span(4, 4, doc.new_entity())
    doc.add_span(4, 4, doc.new_entity(layer="dd"))
    assert list(validate([doc])) == []


def test_format_files_that_express_model_incidents():
    # MMAX2 sets may hold crossing markables; the model check reports them for MMAX2 files
    found = validate(VALIDATION / "mmax2" / "crossing" / "crossing.mmax")
    assert [f.check for f in found] == ["mention.crossing-same-entity"]
    assert found[0].file.endswith("crossing_coref_level.xml") and found[0].line == 4
