"""flatten-splits and drop-split-antecedents."""

from __future__ import annotations

import pytest

from corefkit.model import Document
from corefkit.passes import apply_passes
from corefkit.passes.splits import SplitCycleError, flatten_splits


def nested() -> tuple[Document, dict]:
    """John, Mary, Sue; {John, Mary} = 'they'; {they, Sue} = 'all of them' (nested)."""
    doc = Document("nested")
    doc.add_sentence(["John", "Mary", "Sue", "they", "all"])
    e = {name: doc.new_entity(attrs={"original_id": name})
         for name in ("john", "mary", "sue", "they", "all")}
    mentions = {name: doc.add_span(i, i, e[name]) for i, name in enumerate(e)}
    doc.add_to_set(e["john"], e["they"], evidence=[mentions["john"]])
    doc.add_to_set(e["mary"], e["they"], evidence=[mentions["mary"]])
    doc.add_to_set(e["they"], e["all"], evidence=[mentions["they"]])
    doc.add_to_set(e["sue"], e["all"], evidence=[mentions["sue"]])
    return doc, e


def names(entities) -> list[str]:
    return [x.attrs["original_id"] for x in entities]


def test_flatten_replaces_nested_sets_by_their_members():
    doc, _ = nested()
    [flat] = apply_passes([doc], ["flatten-splits"])
    sets = {s.attrs["original_id"]: names(m) for s, m in flat.accommodated_sets().items()}
    assert sets == {"they": ["john", "mary"], "all": ["john", "mary", "sue"]}
    # the input is untouched
    assert {s.attrs["original_id"]: names(m) for s, m in doc.accommodated_sets().items()} == {
        "they": ["john", "mary"], "all": ["sue", "they"]}
    assert flat.repairs[-1].check == "pass.flatten-splits"
    # evidence follows the path: john reached 'all' through the 'they' mention
    evidence = {(m.member.attrs["original_id"], m.set_entity.attrs["original_id"]):
                [flat.text(x) for x in m.evidence] for m in flat.memberships()}
    assert evidence[("john", "all")] == ["they"]


def test_flat_documents_are_returned_as_they_are():
    doc, e = nested()
    doc.remove_from_set(e["they"], e["all"])
    assert flatten_splits(doc) is doc


def test_cycles_are_errors():
    doc, e = nested()
    doc.add_to_set(e["all"], e["they"])
    with pytest.raises(SplitCycleError, match="split.cycle"):
        flatten_splits(doc)


def test_drop_split_antecedents():
    doc, _ = nested()
    [dropped] = apply_passes([doc], ["drop-split-antecedents"])
    assert dropped.memberships() == [] and len(dropped.entities) == 5
    assert len(doc.memberships()) == 4
