"""Mention types from the best evidence a format carries, on real corpora and small cases."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import corefkit
from corefkit.analysis.mention_types import (
    MentionTyper,
    TypeCounts,
    compile_type_table,
    count_types,
    document_types,
    load_type_table,
    mention_type,
)
from corefkit.errors import UsageError
from corefkit.model import Document
from tests.conftest import CONFORMANCE, CORPORA


def corpus_counts(path, **options) -> dict:
    total = TypeCounts()
    for doc in corefkit.read(path, **options):
        total = total + count_types(doc)
    return total.to_json()


# ---------------------------------------------------------------------------- real corpora
def test_gum_types_come_from_upos():
    found = corpus_counts(CORPORA / "gum" / "dep")
    assert found["types"] == {"name": 1945, "nominal": 7621, "pronoun": 2941, "zero": 0, "other": 0}
    assert found["sources"] == {"upos": 12507}


def test_lcc_types_come_from_type_codes_then_morphology():
    found = corpus_counts(CORPORA / "lcc")
    assert found["by_source"] == {"xpos-msd": {"name": 707, "nominal": 438},
                                  "attribute": {"pronoun": 254, "zero": 7}}


def test_mmax2_types_come_from_np_form():
    htc = corpus_counts(CORPORA / "mmax2" / "htc")
    assert htc["by_source"] == {"attribute": {"name": 6, "nominal": 19, "pronoun": 2, "other": 5}}
    acl = corpus_counts(CORPORA / "mmax2" / "acl-anthology")
    assert acl["by_source"] == {"attribute": {"name": 786, "nominal": 1753, "pronoun": 1220,
                                              "other": 14}}


def test_formats_without_annotation_fall_back_to_word_forms():
    litbank = corpus_counts(CORPORA / "litbank")
    assert set(litbank["sources"]) == {"form"} and sum(litbank["types"].values()) == 2843
    codi = corpus_counts(CORPORA / "codi-crac22")
    assert set(codi["sources"]) == {"form"} and sum(codi["types"].values()) == 4162
    [doc] = corefkit.read(CORPORA / "litbank" / "105_persuasion_brat.conll")
    types = {doc.text(m): t.type for m, t in document_types(doc).items()}
    assert types["Sir Walter Elliot"] == "name" and types["Kellynch Hall"] == "name"
    assert types["his"] == "pronoun" and types["he"] == "pronoun"
    # the head is the word before the relative clause: 'man'
    assert types["a man who , for his own amusement , never took up any book but the "
                 "Baronetage"] == "nominal"
    assert types["the county of Gloucester"] == "nominal"


def _gum_without(fields: tuple[str, ...]) -> tuple[Document, Document]:
    [doc] = corefkit.read(CORPORA / "gum" / "dep" / "GUM_academic_art.conllu")
    stripped = doc.copy()
    for token in stripped.tokens:
        for field in fields:
            setattr(token, field, None)
    return doc, stripped


@pytest.mark.parametrize("fields,source,agreement", [
    (("upos", "feats"), "xpos-ptb", 0.95),                       # Penn XPOS remain
    (("upos", "feats", "xpos"), "form", 0.85),                   # only words and the tree
    (("upos", "feats", "xpos", "head", "id"), "form", 0.85),     # only words
])
def test_weaker_evidence_mostly_agrees_with_ud(fields, source, agreement):
    """GUM with its UD layers removed: the next sources decide, and agree with UPOS on most
    mentions (the whole corpus: Penn 98.1 %, forms 92.1 %)."""
    doc, stripped = _gum_without(fields)
    full, weak = MentionTyper(doc), MentionTyper(stripped)
    pairs = [(full(m), weak(n)) for m, n in zip(doc.sorted_mentions(), stripped.sorted_mentions())]
    assert {w.source for _, w in pairs} == {source}
    assert {f.source for f, _ in pairs} == {"upos"}
    same = sum(f.type == w.type for f, w in pairs)
    assert same / len(pairs) >= agreement


def test_ud_heads_come_from_the_tree():
    [doc] = corefkit.read(CORPORA / "gum" / "dep" / "GUM_letter_arendt.conllu")
    typer = MentionTyper(doc)
    found = {doc.text(m): typer(m).type for m in doc.sorted_mentions()}
    assert found["August 19 , 1975"] == "nominal"   # the tree's head is '19' (NUM)
    assert found["Dear Hannah"] == "name"           # head 'Hannah' (PROPN), not 'Dear'
    assert found["We"] == "pronoun"
    assert found["your stay in Switzerland"] == "nominal"  # head 'stay', not 'your'
    assert found["you yourself"] == "pronoun"


def test_empty_nodes_are_zeros():
    path = CONFORMANCE / "data/corefud-scorer/tests-corefud/zeros/TC-ZA.key"
    [doc] = corefkit.read(path, format="corefud")
    types = Counter((t.type, t.source) for t in document_types(doc).values())
    assert types[("zero", "empty-node")] == 1
    # forms are '_' there: no evidence, so the table's default with source 'none'
    assert types[("other", "none")] == 5


# ---------------------------------------------------------------------------- CoNLL-2012 columns
ONTONOTES = """#begin document (nw/test); part 000
nw/test 0 0 Barack NNP (TOP(S(NP* - - - - (PERSON* (0
nw/test 0 1 Obama NNP *) - - - - *) 0)
nw/test 0 2 told VBD (VP* tell - - - * -
nw/test 0 3 the DT (NP(NP* - - - - * (1
nw/test 0 4 head NN *) - - - - * -
nw/test 0 5 of IN (PP* - - - - * -
nw/test 0 6 the DT (NP* - - - - (ORG* (2
nw/test 0 7 company NN *)))) - - - - *) 1)|2)
nw/test 0 8 that DT (SBAR* - - - - * (3)
nw/test 0 9 he PRP (S(NP*) - - - - * (0)
nw/test 0 10 knew VBD (VP*))))) know - - - * -
nw/test 0 11 . . *)) - - - - * -

#end document
"""


def test_conll2012_pos_and_named_entities(tmp_path):
    path = tmp_path / "test.conll"
    path.write_text(ONTONOTES)
    [doc] = corefkit.read(path)
    found = {doc.text(m): (t.type, t.source) for m, t in document_types(doc).items()}
    assert found["Barack Obama"] == ("name", "xpos-ptb")            # NNP
    assert found["the head of the company"] == ("nominal", "xpos-ptb")  # head 'head' (NN)
    assert found["the company"] == ("name", "xpos-ptb")             # NN, but inside an ORG
    assert found["that"] == ("pronoun", "xpos-ptb")                 # a lone DT
    assert found["he"] == ("pronoun", "xpos-ptb")                   # PRP


def test_named_entities_alone(tmp_path):
    path = tmp_path / "test.conll"
    lines = []
    for line in ONTONOTES.splitlines():
        cells = line.split(" ")
        if len(cells) > 5:
            cells[4] = "-"
        lines.append(" ".join(cells))
    path.write_text("\n".join(lines) + "\n")
    [doc] = corefkit.read(path)
    found = {doc.text(m): (t.type, t.source) for m, t in document_types(doc).items()}
    assert found["Barack Obama"] == ("name", "ner")
    assert found["the company"] == ("name", "ner")
    assert found["he"] == ("pronoun", "form")


# ---------------------------------------------------------------------------- attributes
def test_explicit_attributes_win():
    doc = Document("d")
    doc.add_sentence(["John", "saw", "him"])
    entity = doc.new_entity()
    a = doc.add_span(0, 0, entity, attrs={"mention_type": "NOMINAL"})
    b = doc.add_span(2, 2, entity, attrs={"np_form": "pper"})
    c = doc.add_span(0, 0, attrs={"lcc_type": "gtas,ppas"})   # several codes: the first rule wins
    d = doc.add_span(1, 1, attrs={"lcc_type": "eias"})
    typer = MentionTyper(doc)
    assert typer(a) == typer(a) and typer(a).type == "nominal" and typer(a).source == "attribute"
    assert typer(b).type == "pronoun"
    assert typer(c).type == "pronoun"
    assert typer(d).type == "zero"
    assert mention_type(doc, a).type == "nominal"


def test_determiner_pronouns_in_ud():
    doc = Document("d")
    from corefkit.model import Token
    tokens = [Token("his", id="1", upos="DET", feats="Poss=Yes|PronType=Prs", head="2"),
              Token("dog", id="2", upos="NOUN", head="0"),
              Token("this", id="3", upos="DET", feats="PronType=Dem", head="2")]
    doc.add_sentence(tokens)
    his, dog, this = (doc.add_span(i, i) for i in range(3))
    typer = MentionTyper(doc)
    assert typer(his).type == "pronoun" and typer(dog).type == "nominal"
    assert typer(this).type == "nominal"  # only personal or possessive determiners


# ---------------------------------------------------------------------------- tables
def test_the_shipped_table_and_a_table_by_path(tmp_path):
    table = load_type_table()
    assert [s.name for s in table.sources] == ["attribute", "empty-node", "upos", "xpos-msd",
                                              "xpos-ptb", "ner", "form"]
    own = tmp_path / "t.json"
    own.write_text(json.dumps({"name": "all-names", "sources": [
        {"name": "everything", "applies": {}, "rules": [], "else": "name"}]}))
    [doc] = corefkit.read(CORPORA / "litbank" / "105_persuasion_brat.conll")
    assert set(count_types(doc, str(own)).types) == {"name"}


@pytest.mark.parametrize("table,message", [
    ([], "JSON object"),
    ({"sources": []}, "non-empty list"),
    ({"sources": [{"name": "x", "rules": [{"when": {}, "type": "proper"}]}]}, "unknown mention type"),
    ({"sources": [{"name": "x", "rules": [{"when": {"weird": 1}, "type": "name"}]}]}, "unknown condition"),
    ({"sources": [{"name": "x", "rules": [{"when": {"head": {"field": "pos", "match": "."}},
                                           "type": "name"}]}]}, "unknown token field"),
    ({"sources": [{"name": "x", "rules": [{"when": {"attribute": "a", "match": "("},
                                           "type": "name"}]}]}, "bad regular expression"),
    ({"sources": [{"name": "x", "rules": [], "else": "name"}]}, "'else' needs 'applies'"),
    ({"sources": [{"name": "x", "rules": []}, {"name": "x", "rules": []}]}, "used twice"),
])
def test_bad_tables_are_usage_errors(table, message):
    with pytest.raises(UsageError, match=message):
        compile_type_table(table)


def test_unknown_and_unreadable_tables(tmp_path):
    with pytest.raises(UsageError, match="unknown mention-type table"):
        load_type_table("nonsense")
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json")
    with pytest.raises(UsageError, match="not valid JSON"):
        load_type_table(str(bad))
