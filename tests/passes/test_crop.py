"""Pass ``crop``: one stretch of the text and the annotation wholly inside it, on a real
WebAnno TSV document (character offsets); refused without character offsets."""

from __future__ import annotations

import pytest

import corefkit
from corefkit.errors import UsageError
from corefkit.passes.crop import CHARS
from corefkit.passes.registry import apply_passes
from tests.conftest import CORPORA, ROOT

TSV = CORPORA / "webanno-tsv" / "gum" / "GUM_academic_art.tsv"
LCC = CORPORA / "lcc" / "116352.nkas.json"   # its offsets are the reader's own attribute


def test_crop_keeps_the_stretch_and_what_lies_wholly_inside():
    (doc,) = list(corefkit.read(TSV))
    middle = doc.tokens[len(doc.tokens) // 2].attrs[CHARS][0]
    (cut,) = list(apply_passes([doc], [f"crop:start=0,end={middle}"]))
    kept = [t for t in doc.tokens if t.attrs[CHARS][1] <= middle]
    assert [t.form for t in cut.tokens] == [t.form for t in kept]
    assert all(t.attrs[CHARS][1] <= middle for t in cut.tokens)
    inside = [m for m in doc.mentions if all(t < len(kept) for t in m.tokens)]
    assert sorted(cut.text(m) for m in cut.mentions) == sorted(doc.text(m) for m in inside)
    # two mentions are in one entity after the crop iff they were before
    before = {doc.text(m): doc.entity_of(m) for m in inside}
    after = {cut.text(m): cut.entity_of(m) for m in cut.mentions}
    for a in after:
        for b in after:
            assert (after[a] is after[b]) == (before[a] is before[b])
    (repair,) = [r for r in cut.repairs if r.check == "pass.crop"]
    removed = len(doc.tokens) - len(kept)
    assert f"removed {removed} of {len(doc.tokens)} tokens and " \
           f"{len(doc.mentions) - len(inside)} mentions" in repair.message
    assert cut.sentences[-1].stop == len(cut.tokens)


def test_crop_refuses_a_format_without_character_offsets():
    for path in (ROOT / "examples/conll2012/key.conll", LCC):
        doc = next(iter(corefkit.read(path)))
        with pytest.raises(UsageError, match="no character offsets"):
            list(apply_passes([doc], ["crop:start=0,end=10"]))
    tsv = next(iter(corefkit.read(TSV)))
    with pytest.raises(UsageError, match="empty or negative"):
        list(apply_passes([tsv], ["crop:start=10,end=5"]))
