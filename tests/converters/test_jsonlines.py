"""The jsonlines family: every real file with its README's counts, the round-trip pairs,
CoNLL-2012 ↔ jsonlines on LitBank and OntoGUM, each variant's shape (Maverick and coref-data
from their documentation: no real file of them exists), strict errors and lenient repairs,
the loss report, streaming, and scoring a CoNLL key against a jsonlines response."""

from __future__ import annotations

import io
import json
import time

import pytest

from corefkit.cli.main import main
from corefkit.converters.jsonlines import reader as jsonlines_reader
from corefkit.converters.jsonlines.spec import SPEC, sniff
from corefkit.converters.loss import FEATURES
from corefkit.converters.offsets import SUBTOKEN
from corefkit.converters.registry import guess_format, read, write
from corefkit.errors import FormatError, LossError
from corefkit.model import DISCOURSE_DEIXIS, Document, Token, typed_links
from tests.conftest import CORPORA, FIXTURES

JSONL = CORPORA / "jsonlines"
SINGE = JSONL / "e2e-boberle/singe.jsonlines"
SINGE_CONLL = JSONL / "e2e-boberle/singe.conll"
TRAIN = JSONL / "dygie-scierc/train.json"
DEV = JSONL / "dygie-scierc/dev.json"
ARTICLE = JSONL / "dygie-scierc/scierc_article.json"
PRECO = JSONL / "preco/preco.first2docs.jsonl"
SPANBERT = JSONL / "spanbert-minimized/trial.jsonlines"
WL = JSONL / "wl-coref-input/sample_input.jsonlines"
FASTCOREF = JSONL / "fastcoref-output/out_test.jsonlines"
LITBANK = sorted((CORPORA / "litbank").glob("*.conll"))
ONTOGUM = sorted((CORPORA / "gum/coref-ontogum-conll").glob("*.conll"))


def read_text(text: str, name: str = "test.jsonl", **options) -> list[Document]:
    return list(jsonlines_reader.read_stream(io.BytesIO(text.encode("utf-8")), name, **options))


def lines(*records: dict) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def clusters(doc: Document) -> set[frozenset[tuple[int, int]]]:
    return {frozenset((m.start, m.end) for m in doc.mentions_of(e))
            for e in doc.entities_in("identity")}


def content(doc: Document):
    """What CoNLL-2012 ↔ jsonlines must keep: name and part, words, sentences, speakers,
    the partition."""
    return (doc.pair_key(), [t.form for t in doc.tokens], [len(s) for s in doc.sentences],
            [t.speaker for t in doc.tokens], clusters(doc))


def counts(docs: list[Document]) -> dict[str, int]:
    entities = [(d, e) for d in docs for e in d.entities_in("identity")]
    return {
        "documents": len(docs),
        "tokens": sum(d.token_count for d in docs),
        "sentences": sum(len(d.sentences) for d in docs),
        "clusters": len(entities) + sum(r.check == "jsonlines.empty-cluster"
                                        for d in docs for r in d.repairs),
        "mentions": sum(len(d.mentions) for d in docs),
        "singletons": sum(d.size(e) == 1 for d, e in entities),
    }


# ---------------------------------------------------------------------------- README counts
# the counts of /work/shared/corpora/jsonlines/*/README.md
COLUMNS = ("documents", "tokens", "sentences", "clusters", "mentions", "singletons")
README_COUNTS = [
    (TRAIN, "dygie", dict(zip(COLUMNS, (10, 1359, 52, 18, 46, 0)))),
    (DEV, "dygie", dict(zip(COLUMNS, (10, 1185, 52, 25, 68, 0)))),
    (ARTICLE, "dygie", dict(zip(COLUMNS, (1, 183, 8, 4, 10, 0)))),
    (SINGE, "e2e", dict(zip(COLUMNS, (1, 1988, 68, 388, 562, 321)))),
    (PRECO, "preco", dict(zip(COLUMNS, (2, 774, 46, 181, 259, 154)))),
    (SPANBERT, "minimized", dict(zip(COLUMNS, (1, 34, 2, 1, 0, 0)))),  # 1 empty cluster
    (WL, "wl-coref", dict(zip(COLUMNS, (2, 40, 3, 0, 0, 0)))),
    # fastcoref: the README counts no tokens and sentences (ours are the tokenisation rule's)
    (FASTCOREF, "fastcoref", dict(zip(COLUMNS, (3, 48, 5, 5, 10, 0)))),
]


@pytest.mark.parametrize(("path", "variant", "expected"), README_COUNTS,
                         ids=[p.name for p, _, _ in README_COUNTS])
def test_every_real_file_reads_with_its_readme_counts(path, variant, expected):
    assert guess_format(path) == "jsonlines"  # .json and .jsonl too, detected by content
    docs = list(read(path))  # strict
    assert {d.attrs["jsonlines_variant"] for d in docs} == {variant}
    found = counts(docs)
    if variant == "fastcoref":  # tokens and sentences are the tokenisation rule's
        del found["tokens"], found["sentences"], expected["tokens"], expected["sentences"]
    assert found == expected


def test_dygie_ner_relations_and_documents_without_coreference():
    for path, ner, relations, empty in ((TRAIN, 173, 86, "N03-2003"),
                                        (DEV, 154, 65, "NIPS_2014_18_abs")):
        docs = list(read(path))
        assert sum(len(s) for d in docs for s in json.loads(d.meta["ner"])) == ner
        assert sum(len(s) for d in docs for s in json.loads(d.meta["relations"])) == relations
        assert [d.name for d in docs if not d.entities] == [empty]
        # every cluster mention is also an NER span
        for doc in docs:
            spans = {(s, e) for sentence in json.loads(doc.meta["ner"]) for s, e, _ in sentence}
            assert {(m.start, m.end) for m in doc.mentions} <= spans


def test_preco_paragraph_sentences_and_sentence_relative_offsets():
    first, second = read(PRECO)
    assert [s.index for s in first.sentences if [t.form for t in first.tokens[s.start:s.stop]]
            == [" "]] == [3, 12, 19]
    assert sum(second.tokens[s.start].form == " " and len(s) == 1 for s in second.sentences) == 4
    assert max(m.end - m.start + 1 for m in first.mentions) == 15
    assert max(m.end - m.start + 1 for m in second.mentions) == 16
    assert all(first.tokens[m.start].sentence == first.tokens[m.end].sentence
               for m in first.mentions)


def test_spanbert_subwords_become_words_and_sentences():
    doc, = read(SPANBERT)
    assert doc.pair_key() == ("bn/voa/02/voa_0210", "0")
    assert " ".join(t.form for t in doc.tokens) == (
        "Meanwhile Prime Minister Ehud Barak told Israeli television he doubts a peace deal can "
        "be reached before Israel 's February 6th election . He said he will now focus on "
        "suppressing Palestinian violence .")
    assert [(s.start, s.stop) for s in doc.sentences] == [(0, 23), (23, 34)]
    assert all(t.speaker is None for t in doc.tokens)  # '-' is no speaker, [SPL] a special
    assert [r.check for r in doc.repairs] == ["jsonlines.empty-cluster"]


def test_wl_coref_input():
    first, second = read(WL)
    assert (first.name, second.name) == ("tc_sample_input_001", "pt_sample_input_001")
    assert [len(s) for s in first.sentences] == [7, 4] and len(second.sentences) == 1
    assert {t.speaker for t in first.tokens} == {"Tom"}
    assert {t.speaker for t in second.tokens} == {None}
    assert [t.form for t in second.tokens][8] == "law,"


def test_fastcoref_character_offsets():
    docs = list(read(FASTCOREF))
    assert [len(d.attrs["text"]) for d in docs] == [78, 63, 45]
    assert [[d.text(m) for m in d.mentions] for d in docs] == [
        ["We", "our", "our coref package", "This package"],
        ["The man", "his", "his foot", "it"],
        ["a dog", "The dog ' s"]]
    assert [d.name for d in docs] == ["out_test-1", "out_test-2", "out_test-3"]
    assert all([r.check for r in d.repairs] == ["jsonlines.no-id"] for d in docs)
    # nested mentions of different clusters: 'our' inside 'our coref package'
    assert [sorted((m.start, m.end) for m in docs[0].mentions_of(e))
            for e in docs[0].entities] == [[(0, 0), (8, 8)], [(8, 10), (12, 13)]]


# ---------------------------------------------------------------------------- the pairs
def test_singe_pair_same_document_tokens_and_clusters():
    key, = read(SINGE_CONLL)
    doc, = read(SINGE)
    assert key.pair_key() == doc.pair_key() == ("ge/articleswiki_singe.xml", "0")
    # the jsonlines tokens are the FORM column (2) of every token line of the Democrat CoNLL
    assert [t.attrs["conll_columns"][1] for t in key.tokens] == [t.form for t in doc.tokens]
    assert [len(s) for s in key.sentences] == [len(s) for s in doc.sentences]
    assert clusters(key) == clusters(doc) and len(clusters(doc)) == 388
    assert len(json.loads(doc.meta["paragraphs"])) == 35


@pytest.mark.parametrize("path", [SINGE, TRAIN, DEV, ARTICLE, PRECO, WL, FASTCOREF],
                         ids=lambda p: p.name)
def test_real_files_are_written_back_byte_for_byte(path, tmp_path):
    """A document read from jsonlines is written in its own variant's shape by default."""
    docs = list(read(path))
    out = tmp_path / "back.jsonl"
    report = write(docs, out)
    # a record without a name is named after its file: written to another file, its name
    # changes, and the loss report says so (issue 22)
    unnamed = [d.name for d in docs if d.attrs.get("jsonlines_unnamed")]
    assert [(r.feature, r.examples) for r in report.losses] == [("names", [n]) for n in unnamed]
    assert report.repairs == []
    assert out.read_text().rstrip("\n") == path.read_text().rstrip("\n")
    shape = {"dygie": "e2e"}.get(docs[0].attrs["jsonlines_variant"],
                                 docs[0].attrs["jsonlines_variant"])
    write(docs, out, jsonlines_shape=shape)
    assert out.read_text().rstrip("\n") == path.read_text().rstrip("\n")
    # minimized subwords are written as e2e words
    doc, = read(SPANBERT)
    write([doc], out)
    assert json.loads(out.read_text())["sentences"][0][:4] == ["Meanwhile", "Prime", "Minister",
                                                              "Ehud"]


def test_singe_through_conll_and_back(tmp_path):
    doc, = read(SINGE)
    write([doc], tmp_path / "singe.conll")
    back, = read(tmp_path / "singe.conll")
    assert content(back) == content(doc)
    write([back], tmp_path / "again.jsonlines")
    again, = read(tmp_path / "again.jsonlines")
    assert content(again) == content(doc)
    assert again.attrs["jsonlines_doc_key"] == "ge/articleswiki_singe.xml_0"


def test_scierc_article_is_the_train_document():
    article, = read(ARTICLE)
    same = next(d for d in read(TRAIN) if d.name == "CVPR_2003_18_abs")
    assert content(article) == content(same)
    assert {k: v for k, v in article.meta.items() if k != "dataset"} == same.meta
    assert article.meta["dataset"] == "scierc"


@pytest.mark.parametrize("path", LITBANK + ONTOGUM, ids=lambda p: p.name)
def test_conll2012_to_jsonlines_and_back(path, tmp_path):
    docs = list(read(path, lenient=True))
    report = write(docs, tmp_path / "a.jsonlines")
    assert report.losses == []
    back = list(read(tmp_path / "a.jsonlines"))
    assert [content(d) for d in back] == [content(d) for d in docs]
    assert write(back, tmp_path / "b.conll").losses == []
    again = list(read(tmp_path / "b.conll"))
    assert [content(d) for d in again] == [content(d) for d in docs]
    write(again, tmp_path / "c.jsonlines")
    assert (tmp_path / "c.jsonlines").read_bytes() == (tmp_path / "a.jsonlines").read_bytes()


def test_doc_key_is_name_part_as_e2e_coref_builds_it(tmp_path):
    doc = Document("bc/cctv/00/cctv_0000", "000")
    doc.add_sentence(["Hello", "."])
    write([doc], tmp_path / "x.jsonlines")
    record = json.loads((tmp_path / "x.jsonlines").read_text())
    assert record["doc_key"] == "bc/cctv/00/cctv_0000_0"
    assert jsonlines_reader.split_doc_key("bc/cctv/00/cctv_0000_0") == ("bc/cctv/00/cctv_0000", "0")
    assert jsonlines_reader.split_doc_key("(a/b); part 002") == ("a/b", "002")
    assert jsonlines_reader.split_doc_key("CVPR_2003_18_abs") == ("CVPR_2003_18_abs", None)
    assert jsonlines_reader.split_doc_key("x_1", "whole") == ("x_1", None)
    whole, = read_text(lines({"doc_key": "train_00001", "sentences": [["a"]]}),
                       jsonlines_doc_key="whole")
    assert whole.pair_key() == ("train_00001", "0")


# ---------------------------------------------------------------------------- variants
# Maverick's predict() output as its README documents it (github SapienzaNLP/maverick-coref,
# "Predict"); no file of it is committed anywhere, so the record is written here.
MAVERICK = {
    "tokens": ["Barack", "Obama", "is", "traveling", "to", "Rome", ".", "The", "city", "is",
               "sunny", "and", "the", "president", "plans", "to", "visit", "its", "most",
               "important", "monument", ",", "the", "Colosseum"],
    "clusters_token_offsets": [[[5, 5], [7, 8], [17, 17]], [[0, 1], [12, 13]]],
    "clusters_char_offsets": None,
    "clusters_token_text": [["Rome", "The city", "its"], ["Barack Obama", "the president"]],
    "clusters_char_text": None,
}
# coref-data's "indiscrim" format as its README documents it (github ianporada/coref-data,
# "Indiscrim Format"); its files are only on the Hugging Face hub.
COREF_DATA = {
    "id": "preco/train_00001",
    "text": "Mary met Tom . She smiled .",
    "sentences": [
        {"id": 1, "text": "Mary met Tom .", "speaker": None,
         "tokens": [{"id": 1, "text": "Mary", "upos": "PROPN", "head": 2, "deprel": "nsubj"},
                    {"id": 2, "text": "met", "upos": "VERB", "head": 0, "deprel": "root"},
                    {"id": 3, "text": "Tom", "upos": "PROPN", "head": 2, "deprel": "obj"},
                    {"id": 4, "text": ".", "upos": "PUNCT", "head": 2, "deprel": "punct"}]},
        {"id": 2, "text": "She smiled .", "speaker": "narrator",
         "tokens": [{"id": 1, "text": "She"}, {"id": 2, "text": "smiled"},
                    {"id": 3, "text": "."}]},
    ],
    "coref_chains": [[[0, 0, 0], [1, 0, 0]], [[0, 2, 2]]],
    "genre": "reading_comprehension_examination",
    "meta_data": {"comment": "detokenizer=nltk"},
}


def test_maverick_output(tmp_path):
    doc, = read_text(lines(MAVERICK))
    assert doc.attrs["jsonlines_variant"] == "maverick" and len(doc.sentences) == 1
    assert [[doc.text(m) for m in doc.mentions_of(e, ordered=False)] for e in doc.entities] == \
        MAVERICK["clusters_token_text"]
    assert doc.repairs[0].check == "jsonlines.no-id"
    write([doc], tmp_path / "m.jsonl", jsonlines_shape="maverick")
    record = json.loads((tmp_path / "m.jsonl").read_text())
    assert record["clusters_token_offsets"] == MAVERICK["clusters_token_offsets"]
    assert record["clusters_token_text"] == MAVERICK["clusters_token_text"]
    wrong = dict(MAVERICK, clusters_token_text=[["Rome", "The town", "its"]])
    doc, = read_text(lines(wrong))
    assert "jsonlines.mention-text" in {r.check for r in doc.repairs}


def test_coref_data_unified_format(tmp_path):
    doc, = read_text(lines(COREF_DATA))
    assert doc.attrs["jsonlines_variant"] == "coref-data"
    assert doc.name == "preco/train_00001" and doc.sentences[1].speaker == "narrator"
    assert [doc.text(m) for m in doc.sorted_mentions()] == ["Mary", "Tom", "She"]
    assert (doc.tokens[0].upos, doc.tokens[0].head, doc.tokens[0].deprel) == ("PROPN", "2", "nsubj")
    assert doc.meta["genre"] == "reading_comprehension_examination"
    write([doc], tmp_path / "c.jsonl", jsonlines_shape="coref-data")
    assert json.loads((tmp_path / "c.jsonl").read_text()) == COREF_DATA
    zero = json.loads(json.dumps(COREF_DATA))
    zero["sentences"][1]["tokens"].insert(1, {"id": 1.1, "text": "_"})
    doc, = read_text(lines(zero))
    assert doc.tokens[5].is_empty and doc.tokens[5].id == "1.1"


def test_wl_coref_heads_from_prediction_output(tmp_path):
    record = {"document_id": "tc_x", "cased_words": ["My", "dog", "barks", ".", "It", "is",
                                                     "loud", "."],
              "sent_id": [0, 0, 0, 0, 1, 1, 1, 1], "part_id": [2] * 8, "speaker": ["A"] * 8,
              "span_clusters": [[[0, 2], [4, 5]]], "word_clusters": [[1, 4]]}
    doc, = read_text(lines(record))
    assert doc.pair_key() == ("tc_x", "2")
    assert [(m.start, m.end, m.head) for m in doc.sorted_mentions()] == [(0, 1, 1), (4, 4, 4)]
    write([doc], tmp_path / "w.jsonl", jsonlines_shape="wl-coref")
    back = json.loads((tmp_path / "w.jsonl").read_text())
    assert {k: back[k] for k in record} == record
    assert back["head2span"] == [[1, 0, 2], [4, 4, 5]]
    # training files: word_clusters not parallel (filtered) are kept as they are
    training = dict(record, word_clusters=[[1]], head2span=[[1, 0, 2]])
    doc, = read_text(lines(training))
    assert all(m.head is None for m in doc.mentions)
    write([doc], tmp_path / "t.jsonl", jsonlines_shape="wl-coref")
    assert json.loads((tmp_path / "t.jsonl").read_text()) == training
    heads_only = {k: v for k, v in record.items() if k != "span_clusters"}
    doc, = read_text(lines(heads_only))
    assert [(m.start, m.end) for m in doc.sorted_mentions()] == [(1, 1), (4, 4)]


def test_wl_coref_dependency_heads_round_trip(tmp_path):
    record = {"document_id": "x", "cased_words": ["I", "ran", ".", "Fast", "!"],
              "sent_id": [0, 0, 0, 1, 1], "pos": ["PRP", "VBD", ".", "RB", "."],
              "deprel": ["nsubj", "root", "punct", "root", "punct"],
              "head": [1, None, 1, None, 3], "span_clusters": []}
    doc, = read_text(lines(record))
    assert [(t.id, t.head) for t in doc.tokens] == [("1", "2"), ("2", "0"), ("3", "2"),
                                                     ("1", "0"), ("2", "1")]
    write([doc], tmp_path / "w.jsonl", jsonlines_shape="wl-coref")
    assert json.loads((tmp_path / "w.jsonl").read_text()) == record


@pytest.mark.parametrize("shape", ["e2e", "wl-coref", "preco", "maverick", "coref-data",
                                   "fastcoref"])
def test_every_shape_reads_back_as_its_variant(shape, tmp_path):
    docs = list(read(LITBANK[0]))
    out = tmp_path / "x.jsonl"
    report = write(docs, out, jsonlines_shape=shape)
    back, = read(out)
    expected = {"e2e": "e2e", "wl-coref": "wl-coref", "preco": "preco", "maverick": "maverick",
                "coref-data": "coref-data", "fastcoref": "fastcoref"}[shape]
    assert back.attrs["jsonlines_variant"] == expected
    assert back.pair_key() == docs[0].pair_key() or shape in ("preco", "coref-data")
    if shape != "fastcoref":  # fastcoref: words again by the tokenisation rule
        assert [t.form for t in back.tokens] == [t.form for t in docs[0].tokens]
        assert clusters(back) == clusters(docs[0])
    else:
        assert len(clusters(back)) == len(clusters(docs[0]))
    if shape == "maverick":  # no sentence boundaries: every sentence is lost (issue 22)
        assert report.loss_totals()["sentences"] == len(docs[0].sentences)


def test_newline_bar_and_space_tokens_break_nothing(tmp_path):
    doc = Document("odd", "0")
    doc.add_sentence(["a", "\n", "|", " ", "", "(1)", "\"}"])
    doc.add_span(1, 3, doc.new_entity())
    write([doc], tmp_path / "odd.jsonlines")
    back, = read(tmp_path / "odd.jsonlines")
    assert [t.form for t in back.tokens] == [t.form for t in doc.tokens]
    assert clusters(back) == {frozenset({(1, 3)})}
    assert (tmp_path / "odd.jsonlines").read_text().count("\n") == 1
    for shape in ("wl-coref", "preco", "maverick", "coref-data", "fastcoref"):
        write([doc], tmp_path / f"odd-{shape}.jsonl", jsonlines_shape=shape)
        assert len(list(read(tmp_path / f"odd-{shape}.jsonl"))) == 1
    # CoNLL-2012 words cannot hold them: refused, naming the first (issue 22), or written '_'
    # and counted when asked to
    with pytest.raises(LossError, match=r"sentence 1, word 2 '\\n'"):
        write([back], tmp_path / "odd.conll")
    report = write([back], tmp_path / "odd.conll", forms="replace")
    assert report.loss_totals()["tokens"] == 3
    again, = read(tmp_path / "odd.conll")
    assert [t.form for t in again.tokens] == ["a", "_", "|", "_", "_", "(1)", "\"}"]


# ---------------------------------------------------------------------------- detection
def test_detection_and_lcc_is_not_taken():
    for path in [FIXTURES / "lcc/tiny.nkas.json", *sorted((CORPORA / "lcc").glob("*.json"))]:
        assert guess_format(path) == "lcc"
    assert not sniff(json.dumps({"id": 1, "annotationLayers": [], "content": "x"}))
    assert not sniff("{\n  \"doc_key\": \"x\"\n}\n")  # one pretty-printed object
    assert sniff(json.dumps({"doc_key": "x", "sentences": [["a"] * 30000]})[:65536])
    assert not sniff('{"foo": 1}\n')


def test_variant_option_overrides_detection():
    text = lines({"doc_key": "a_0", "tokens": ["x", "y"], "sentences": [["x", "y"]],
                  "clusters": [[[0, 1]]]})
    doc, = read_text(text)
    assert doc.attrs["jsonlines_variant"] == "e2e"
    doc, = read_text(text, jsonlines_variant="maverick")
    assert doc.attrs["jsonlines_variant"] == "maverick" and len(doc.sentences) == 1


# ---------------------------------------------------------------------------- strictness
GOOD = {"doc_key": "nw/x_0", "sentences": [["John", "saw", "Mary", "."], ["He", "left", "."]],
        "clusters": [[[0, 0], [4, 4]]]}
MINIMIZED = {"doc_key": "nw/y_0", "sentences": [["[CLS]", "John", "saw", "Ma", "##ry", ".",
                                                 "[SEP]"]],
             "clusters": [[[1, 1], [3, 3]]], "sentence_map": [0] * 7,
             "subtoken_map": [0, 0, 1, 2, 2, 3, 3]}

ERRORS = [
    ("bad-json", lines(GOOD) + '{"doc_key": "b", "sentences": [["a"]\n', 2, "jsonlines.bad-json"),
    ("not-object", lines(GOOD) + "[1]\n", 2, "jsonlines.not-object"),
    ("unknown", '{"words": ["a"]}\n', 1, "jsonlines.unknown-variant"),
    ("missing", lines(GOOD, {"doc_key": "b_0"}), 2, "jsonlines.missing-key"),
    ("token", lines(dict(GOOD, sentences=[["John", None]])), 1, "jsonlines.bad-field"),
    ("speakers", lines(dict(GOOD, speakers=[["-"] * 4])), 1, "jsonlines.length-mismatch"),
    ("outside", lines(dict(GOOD, clusters=[[[0, 0], [6, 7]]])), 1, "jsonlines.bad-span"),
    ("not-a-span", lines(dict(GOOD, clusters=[[[0, "1"]]])), 1, "jsonlines.bad-span"),
    ("map", lines(dict(MINIMIZED, subtoken_map=[0, 0, 2, 2, 2, 3, 3])), 1, "jsonlines.word-map"),
    ("subword", lines(MINIMIZED), 1, "jsonlines.subword-span"),
    ("preco", lines({"id": "p", "sentences": [["a", "b"]], "mention_clusters": [[[0, 1, 1]]]}),
     1, "jsonlines.bad-span"),
    ("chars", lines({"text": "ab cd", "clusters": [[[3, 9]]]}), 1, "jsonlines.bad-span"),
]


@pytest.mark.parametrize(("name", "text", "line", "check"), ERRORS, ids=[e[0] for e in ERRORS])
def test_malformed_input_is_one_located_error(name, text, line, check, tmp_path, capsys):
    path = tmp_path / f"{name}.jsonl"
    path.write_text(text)
    with pytest.raises(FormatError) as caught:
        list(read(path))
    error = caught.value
    assert (error.line, error.check) == (line, check)
    assert str(error).startswith(f"{path}:{line}") and str(error).endswith(f"({check})")
    code = main(["convert", str(path), str(tmp_path / "out.conll"), "-q"])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"{path.name}:{line}" in err and f"({check})" in err
    assert not (tmp_path / "out.conll").exists()


def test_subword_span_names_document_and_span_and_lenient_snaps_it(tmp_path, capsys):
    path = tmp_path / "m.jsonlines"
    path.write_text(lines(MINIMIZED))
    with pytest.raises(FormatError) as caught:
        list(read(path))
    assert "document 'nw/y'" in str(caught.value) and "[3, 3] ('Ma')" in str(caught.value)
    doc, = read(path, lenient=True)
    assert [doc.text(m) for m in doc.sorted_mentions()] == ["John", "Mary"]
    assert [(r.check, r.action) for r in doc.repairs] == [("jsonlines.subword-span", "snapped")]
    code = main(["convert", str(path), str(tmp_path / "m.conll"), "--lenient"])
    assert code == 0 and "jsonlines.subword-span" in capsys.readouterr().err


def test_repeated_spans_and_empty_clusters_are_reported():
    doc, = read_text(lines(dict(GOOD, clusters=[[[0, 0], [4, 4], [0, 0]], [], [[0, 0]]])))
    assert [r.check for r in doc.repairs] == ["jsonlines.duplicate-mention",
                                              "jsonlines.empty-cluster",
                                              "jsonlines.same-span-mentions"]
    assert len(doc.mentions) == 3


def test_fastcoref_offsets_inside_a_token_split_it():
    doc, = read_text(lines({"text": "Hello world. It works.", "clusters": [[[0, 3], [13, 15]]],
                            "clusters_strings": [["Hel", "It"]]}))
    assert [t.form for t in doc.tokens][:3] == ["Hel", "lo", "world"]
    assert [doc.text(m) for m in doc.mentions] == ["Hel", "It"]
    assert [r.check for r in doc.repairs] == ["jsonlines.no-id", "jsonlines.split-token"]


# ---------------------------------------------------------------------------- streaming
def test_a_300k_token_document_reads_and_writes(tmp_path):
    words = [f"w{i % 997}" if i % 50 else "|" for i in range(300_000)]
    words[7] = "\n"
    sentences = [words[i:i + 25] for i in range(0, len(words), 25)]
    clusters_ = [[[i, i + 1], [i + 100, i + 100], [i + 90_000, i + 90_002]]
                 for i in range(0, 200_000, 40)]
    path = tmp_path / "book.jsonl"
    path.write_text(lines({"doc_key": "book_0", "sentences": sentences,
                           "speakers": [["-"] * len(s) for s in sentences],
                           "clusters": clusters_}))
    start = time.perf_counter()
    doc, = read(path)
    assert doc.token_count == 300_000 and len(doc.sentences) == 12_000
    assert len(doc.entities) == 5_000 and len(doc.mentions) == 15_000
    write([doc], tmp_path / "book.conll", forms="replace")  # word 7 is a bare newline
    report = write(read(path), tmp_path / "back.jsonl")
    assert report.documents == 1 and report.losses == []
    assert (tmp_path / "back.jsonl").read_text() == path.read_text()
    back, = read(tmp_path / "book.conll")
    assert back.token_count == 300_000 and len(back.mentions) == 15_000
    assert time.perf_counter() - start < 60


# ---------------------------------------------------------------------------- losses
def rich_document() -> Document:
    """A document with one or two of every feature of the capability matrix."""
    doc = Document("rich", "1")
    doc.add_sentence(["John", "met", "Mary", "."], speaker="A")
    doc.add_sentence(["They", Token("_", is_empty=True), "left", "."])
    doc.meta["source"] = "test"
    doc.attrs["opaque_levels"] = {"ner": [("m1", (0,), {})]}
    john = doc.new_entity(attrs={"etype": "person"})
    doc.add_span(0, 0, john, head=0, attrs={"etype": "person"})
    doc.add_span(0, 1, john)                      # crossing 1-2 of the same entity
    doc.add_span(1, 2, john)
    mary = doc.new_entity()
    # a singleton, annotated on part of its token (a WebAnno sub-token: characters 1-3)
    doc.add_span(2, 2, mary, min_tokens=(2,), attrs={SUBTOKEN: (1, 3)})
    they = doc.new_entity()
    doc.add_span(4, 5, they)                      # with an empty node
    doc.add_mention([5], they)                    # a zero
    doc.add_span(2, 4, they)                      # across sentences
    doc.add_to_set(john, they)
    doc.add_to_set(mary, they)
    doc.add_mention([0, 2], doc.new_entity())     # discontinuous, the only mention
    doc.add_bridging(doc.add_span(6, 6, they), mary)
    doc.add_span(7, 7, nonref="expletive")
    doc.add_span(3, 3)                            # unlinked
    doc.add_span(6, 7, doc.new_entity(layer=DISCOURSE_DEIXIS))
    # an opaque CoNLL-2012 column (a parse bit) and a typed link (issue 22)
    doc.tokens[0].attrs["conll_columns"] = ["rich", "1", "0", "John", "-", "(TOP*", "-", "-",
                                            "-", "-", "*", "-"]
    doc.attrs[typed_links.LINKS] = [{"anaphor": doc.mentions[0].id, "antecedents": [],
                                     "type": "dtis", "layer": "identity", "index": 0}]
    return doc


def test_the_loss_report_counts_exactly(tmp_path):
    report = write([rich_document()], tmp_path / "rich.jsonlines")
    assert report.loss_totals() == {
        "discontinuous": 1, "zeros": 1, "empty_nodes": 1, "mentions_with_empty_nodes": 1,
        "min_spans": 1,
        "split_antecedents": 2, "bridging": 1, "discourse_deixis": 1, "non_referring": 1,
        "unlinked_mentions": 1, "mention_attributes": 1, "entity_attributes": 1,
        "opaque_levels": 1, "heads": 1, "typed_links": 1,
        "sub_token": 1, "conll_columns": 1}   # the parse bit, once (per column)
    back, = read(tmp_path / "rich.jsonlines")
    assert back.pair_key() == ("rich", "1") and back.meta == {"source": "test"}
    assert back.sentences[0].speaker == "A"
    spans = {(m.start, m.end) for m in back.mentions}
    # written: John's three (crossing), Mary's singleton, They 4-4 (its empty node left out),
    # 2-4 across sentences and 5-5 ('left', the bridging anaphor); nothing else
    assert spans == {(0, 0), (0, 1), (1, 2), (2, 2), (4, 4), (2, 4), (5, 5)}
    assert len(back.entities) == 3
    report = write([rich_document()], tmp_path / "rich.jsonl", jsonlines_shape="preco")
    totals = report.loss_totals()
    # speakers count words (issue 22): the four of sentence 1
    assert (totals["cross_sentence"], totals["speakers"], totals["parts"]) == (1, 4, 1)


def test_heads_are_kept_in_the_wl_coref_shape_only(tmp_path):
    doc = Document("h")
    doc.add_sentence(["the", "old", "man", "slept"])
    entity = doc.new_entity()
    doc.add_span(0, 2, entity, head=2)
    doc.add_span(3, 3, entity, head=3)
    assert write([doc], tmp_path / "h.jsonl", jsonlines_shape="wl-coref").losses == []
    back, = read(tmp_path / "h.jsonl")
    assert sorted(m.head for m in back.mentions) == [2, 3]
    assert write([doc], tmp_path / "h2.jsonl").loss_totals() == {"heads": 2}


def formats_block(capsys) -> dict[str, str]:
    assert main(["formats"]) == 0
    out = capsys.readouterr().out
    block = out.split("\njsonlines ", 1)[1].split("\n")[1:7]
    return {line.strip().split(": ", 1)[0]: line.strip().split(": ", 1)[1]
            for line in block if line.startswith("  ")}


def test_formats_tells_the_truth(capsys, tmp_path):
    listed = formats_block(capsys)
    partial = dict(SPEC.partial)
    holds = [f for f in FEATURES if f in SPEC.capabilities and f not in partial]
    cannot = [f for f in FEATURES if f not in SPEC.capabilities]
    assert listed["holds"] == ", ".join(holds) == ("singletons, crossing_same_entity, "
                                                  "crossing_mentions, metadata")
    assert listed["cannot hold"] == ", ".join(cannot)
    assert [p.split(" (")[0] for p in listed["holds in part"].split("; ")] == list(partial)
    # every feature it cannot hold is reported when a document has it ...
    lost = write([rich_document()], tmp_path / "r.jsonlines").loss_totals()
    # (token_columns, which it cannot hold, as the per-column conll_columns records)
    assert set(cannot) - {"token_columns"} <= set(lost) and "conll_columns" in lost
    assert "token_columns" not in lost
    # ... and what it holds (in the e2e shape: all but heads) comes back
    assert set(lost) - set(cannot) - {"conll_columns"} == {"heads"}


@pytest.mark.parametrize("path", [SINGE, SPANBERT, WL, FASTCOREF, PRECO], ids=lambda p: p.name)
def test_every_truncation_reads_or_is_a_located_error(path):
    data = path.read_bytes()
    for cut in range(0, len(data), max(1, len(data) // 150)):
        try:
            list(jsonlines_reader.read_stream(io.BytesIO(data[:cut]), "cut.jsonl"))
        except FormatError as error:
            assert error.check is not None and error.line is not None
