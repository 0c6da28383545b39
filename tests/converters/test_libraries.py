"""The outputs of NLP libraries: each real or documented file of
``../shared/corpora/system-outputs`` read with the counts its README gives, scored against a key
made by hand (numbers worked out by hand below), written back where corefkit writes the
format, and every contradiction between offsets and text refused with the document and the
offset named."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest

from corefkit import read, score, write
from corefkit.cli.main import main
from corefkit.converters.libraries.stanza.chains import Attachment
from corefkit.converters.libraries.stanza.reader import _attachments
from corefkit.converters.libraries.common import Place
from corefkit.converters.loss import features_present
from corefkit.converters.registry import get, guess_format
from corefkit.errors import FormatError
from corefkit.model import Token
from tests.conftest import ROOT, SHARED

OUTPUTS = SHARED / "corpora" / "system-outputs"
FASTCOREF = OUTPUTS / "fastcoref" / "out_test.jsonlines"
CORENLP_XML = OUTPUTS / "corenlp" / "input.txt.xml"
CORENLP_TEXT = OUTPUTS / "corenlp" / "input.txt"
CORENLP_FAQ = OUTPUTS / "corenlp" / "faq_coref_xml_sample.xml"
CORENLP_JSON = OUTPUTS / "corenlp" / "corenlp-parser_headlines.json"
STANZA = OUTPUTS / "stanza" / "coref_doc_example.tabs.conllu"
STANZA_JSON_BLOCK = OUTPUTS / "stanza" / "coref_doc_json_block.txt"
STANZA_MISC = OUTPUTS / "stanza" / "test_data_conversion_asserted_misc.txt"
FIXTURES = ROOT / "examples" / "libraries"
KEYS = FIXTURES / "keys"
SPACY_TRAIN = FIXTURES / "spacy" / "spacy-experimental.jsonl"
SPACY_PRINTS = FIXTURES / "spacy" / "readme-prints.jsonl"
GUM = SHARED / "corpora" / "gum" / "dep" / "GENTLE_poetry_death.conllu"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def texts(doc) -> list[list[str]]:
    return [[doc.text(m) for m in doc.mentions_of(e)] for e in doc.entities]


def counts(report, metric: str) -> tuple[Fraction, int, Fraction, int]:
    c = report.metrics[metric].counts
    return (c.recall_num, c.recall_den, c.precision_num, c.precision_den)


def refused(path, fmt: str, **options) -> FormatError:
    with pytest.raises(FormatError) as caught:
        list(read(path, format=fmt, **options))
    return caught.value


# ---------------------------------------------------------------------------- fastcoref
def test_fastcoref_real_file_counts():
    """README: 3 documents, 5 clusters, 10 mentions, all clusters of 2; 'our' inside 'our coref
    package' in another cluster; the model's error 'his foot' ~ 'it' kept."""
    docs = list(read(FASTCOREF, format="fastcoref"))
    assert len(docs) == 3
    assert sum(len(d.entities) for d in docs) == 5
    assert sum(len(d.mentions) for d in docs) == 10
    assert all(len(d.mentions_of(e)) == 2 for d in docs for e in d.entities)
    assert [texts(d) for d in docs] == [
        [["We", "our"], ["our coref package", "This package"]],
        [["The man", "his"], ["his foot", "it"]],
        [["a dog", "The dog ' s"]]]
    assert [d.name for d in docs] == ["out_test-1", "out_test-2", "out_test-3"]
    assert all(d.repairs == [] for d in docs)
    # the jsonlines rule: "dog's" is dog ' s, "package." is package .
    assert [t.form for t in docs[2].tokens][5:9] == ["The", "dog", "'", "s"]


def test_fastcoref_written_back_is_the_file(tmp_path):
    docs = list(read(FASTCOREF, format="fastcoref"))
    report = write(docs, tmp_path / "out.jsonl", format="fastcoref")
    # the file names no document: read back from another file, each is named after that one
    assert {(r.feature, r.count) for r in report.losses} == {("names", 1)}
    assert len(report.losses) == 3 and report.repairs == []
    assert (tmp_path / "out.jsonl").read_text().splitlines() == \
        FASTCOREF.read_text().splitlines()


def test_fastcoref_scored_against_a_hand_key(capsys):
    """The key (keys/fastcoref.conllu) has {The man, his}, {the boot, it} and {a dog, The dog}
    where fastcoref says {his foot, it} and {a dog, The dog's}. MUC: recall 2 + 1 + 0 + 0 of
    5 links, precision 2 + 1 + 0 + 0 of 5; B3: recall 2 + 2 + 2 + 1/2 + 1/2 of 10 mentions,
    precision the same. Aligned by default (the format brings its text), paired by content."""
    report = score(KEYS / "fastcoref.conllu", FASTCOREF, "muc,bcub", response_format="fastcoref")
    assert counts(report, "muc") == (3, 5, 3, 5)
    assert counts(report, "bcub") == (7, 10, 7, 10)
    assert [d.mode for d in report.alignment.documents] == ["characters"] * 3
    code, out, _ = run(capsys, "score", KEYS / "fastcoref.conllu", FASTCOREF,
                       "--response-from", "fastcoref", "-m", "muc")
    assert code == 0 and "muc           60.00      60.00    60.00   3/5, 3/5" in out
    assert "alignment (boundary expand, merged trim): 3 documents, 3 by characters" in out


def _record(tmp_path, name: str, record: dict) -> object:
    path = tmp_path / name
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return path


def test_fastcoref_offsets_that_contradict_the_text(tmp_path, capsys):
    record = json.loads(FASTCOREF.read_text().splitlines()[1])
    record["clusters"][1][0] = [33, 40]           # "his foo", stated "his foot"
    error = refused(_record(tmp_path, "bad.jsonl", record), "fastcoref")
    assert error.check == "fastcoref.mention-text" and error.line == 1
    assert error.message == ("document 'bad-1': clusters[1][0] = [33, 40] holds 'his foo' in "
                             "the text, but clusters_strings[1][0] is \"his foot\": the offsets "
                             "contradict the text")
    record["clusters"][1][0] = [33, 99]
    error = refused(_record(tmp_path, "bad.jsonl", record), "fastcoref")
    assert error.check == "fastcoref.bad-offsets" and "[33, 99]" in error.message
    code, _, err = run(capsys, "score", KEYS / "fastcoref.conllu", tmp_path / "bad.jsonl",
                       "--response-from", "fastcoref")
    assert code == 1 and err.count("\n") == 1 and "document 'bad-1'" in err


# ---------------------------------------------------------------------------- Maverick
# Maverick's README ("Inference"): the dictionaries predict() returns, as JSON writes them
MAVERICK_TEXT = ("Barack Obama is traveling to Rome. The city is sunny and the president plans "
                 "to visit its most important attractions")
MAVERICK_WORDS = ["Barack", "Obama", "is", "traveling", "to", "Rome", ".", "The", "city", "is",
                  "sunny", "and", "the", "president", "plans", "to", "visit", "its", "most",
                  "important", "attractions"]
MAVERICK = {
    "main": {"tokens": ["Barack", "Obama", "is", "traveling", "to", "Rome", ".", "The", "city",
                        "is", "sunny", "and", "the", "president", "plans", "to", "visit", "its",
                        "most", "important", "monument", ",", "the", "Colosseum"],
             "clusters_token_offsets": [[(5, 5), (7, 8), (17, 17)], [(0, 1), (12, 13)]],
             "clusters_text_mentions": [["Rome", "The city", "its"],
                                        ["Barack Obama", "the president"]]},
    # the plain-text example, with the words of the input and the text (the README elides the
    # tokens; corefkit's writer adds the text Maverick does not return)
    "chars": {"tokens": MAVERICK_WORDS,
              "clusters_token_offsets": [[(5, 5), (7, 8), (17, 17)], [(0, 1), (12, 13)]],
              "clusters_char_offsets": [[(29, 32), (35, 42), (86, 88)], [(0, 11), (57, 69)]],
              "clusters_token_text": [["Rome", "The city", "its"],
                                      ["Barack Obama", "the president"]],
              "text": MAVERICK_TEXT},
    "singletons": {"tokens": MAVERICK_WORDS,
                   "clusters_token_offsets": [((5, 5), (7, 8), (17, 17)), ((0, 1), (12, 13)),
                                              ((17, 20),)],
                   "clusters_char_offsets": None,
                   "clusters_token_text": [["Rome", "The city", "its"],
                                           ["Barack Obama", "the president"],
                                           ["its most important attractions"]],
                   "clusters_char_text": None},
    "predefined": {"tokens": MAVERICK_WORDS, "clusters_token_offsets": [((5, 5), (7, 8))],
                   "clusters_char_offsets": None, "clusters_token_text": [["Rome", "The city"]],
                   "clusters_char_text": None},
}


@pytest.mark.parametrize("example,sizes", [("main", [3, 2]), ("chars", [3, 2]),
                                           ("singletons", [3, 2, 1]), ("predefined", [2])])
def test_maverick_documented_outputs(example, sizes, tmp_path):
    path = _record(tmp_path, "m.jsonl", MAVERICK[example])
    doc, = read(path, format="maverick")
    assert [len(doc.mentions_of(e)) for e in doc.entities] == sizes
    stated = MAVERICK[example].get("clusters_token_text") or \
        MAVERICK[example]["clusters_text_mentions"]
    assert texts(doc) == stated
    assert len(doc.tokens) == len(MAVERICK[example]["tokens"])


def test_maverick_end_inclusive_char_offsets_are_checked(tmp_path):
    """(29, 32) is 'Rome' with the end included; (29, 33) would be 'Rome.'"""
    record = json.loads(json.dumps(MAVERICK["chars"]))
    assert MAVERICK_TEXT[29:32 + 1] == "Rome"
    record["clusters_char_offsets"][0][0] = [29, 33]
    error = refused(_record(tmp_path, "m.jsonl", record), "maverick")
    assert error.check == "maverick.char-offsets"
    assert error.message == ("document 'm-1': clusters_char_offsets[0][0] = [29, 33] holds "
                             "'Rome.' in the text, but the mention's tokens are at [29, 32] "
                             "('Rome'): the offsets contradict the text")
    record = json.loads(json.dumps(MAVERICK["main"]))
    record["clusters_text_mentions"][1][1] = "the presidents"
    error = refused(_record(tmp_path, "m.jsonl", record), "maverick")
    assert error.check == "maverick.mention-text" and "[12, 13]" in error.message


def test_maverick_scored_and_written(tmp_path):
    path = _record(tmp_path, "m.jsonl", MAVERICK["chars"])
    report = score(KEYS / "maverick.conllu", path, "muc,bcub", response_format="maverick")
    assert report.metrics["muc"].f1 == report.metrics["bcub"].f1 == 1
    doc, = read(path, format="maverick")
    written = write([doc], tmp_path / "back.jsonl", format="maverick")
    # m.jsonl names no document: read back from back.jsonl it is named after that file
    assert [(r.feature, r.examples) for r in written.losses] == [("names", ["m-1"])]
    assert written.repairs == []
    record = json.loads((tmp_path / "back.jsonl").read_text())
    assert record["clusters_token_offsets"] == [[[5, 5], [7, 8], [17, 17]], [[0, 1], [12, 13]]]
    back, = read(tmp_path / "back.jsonl", format="maverick")
    assert texts(back) == texts(doc)


# ---------------------------------------------------------------------------- spaCy
def test_spacy_documented_span_groups():
    """spacy-experimental's test data: 2 clusters x 2 mentions, an empty document, and 2
    clusters of full spans with 2 head groups (the span resolver's)."""
    docs = list(read(SPACY_TRAIN))
    assert guess_format(str(SPACY_TRAIN)) == "spacy"
    assert [texts(d) for d in docs] == [[["I", "me"], ["it", "this SMS"]], [],
                                        [["John Smith", "he"], ["red ball", "it"]]]
    assert [docs[2].tokens[m.head].form for m in docs[2].mentions] == \
        ["Smith", "he", "ball", "it"]
    assert all(d.repairs == [] for d in docs)
    prints = list(read(SPACY_PRINTS))
    assert [texts(d) for d in prints] == [[["the dog", "it"], ["The cats", "them"]],
                                          [["My sister", "She"], ["a dog", "him"]]]
    report = score(KEYS / "spacy.conllu", SPACY_PRINTS, "muc,bcub")
    assert report.metrics["muc"].f1 == report.metrics["bcub"].f1 == 1


def test_spacy_written_back(tmp_path):
    docs = list(read(SPACY_TRAIN))
    report = write(docs, tmp_path / "back.jsonl", format="spacy")
    # the file names no document (spaCy's Doc.to_json has no name): named after the file read
    assert {r.feature for r in report.losses} == {"names"} and report.repairs == []
    assert [json.loads(line) for line in (tmp_path / "back.jsonl").read_text().splitlines()] \
        == [json.loads(line) for line in SPACY_TRAIN.read_text().splitlines()]


def test_spacy_heads_only_and_offsets_that_contradict_the_tokens(tmp_path):
    record = json.loads(SPACY_TRAIN.read_text().splitlines()[2])
    heads = {k: v for k, v in record["spans"].items() if k.startswith("coref_head")}
    doc, = read(_record(tmp_path, "h.jsonl", dict(record, spans=heads)), format="spacy")
    assert texts(doc) == [["Smith", "he"], ["ball", "it"]]
    assert [r.check for r in doc.repairs] == ["spacy.head-mentions"]
    record["spans"]["coref_clusters_2"][0]["start"] = 26        # "ed ball"
    error = refused(_record(tmp_path, "b.jsonl", record), "spacy")
    assert error.check == "spacy.bad-offsets"
    assert error.message == ("document 'b-1': spans.coref_clusters_2[0] = [26, 33] ('ed "
                             "ball') does not start where a token does: the offsets contradict "
                             "the tokens")


# ---------------------------------------------------------------------------- Stanza
def test_stanza_documented_conllu():
    """README: 2 sentences, 12 words, 1 chain (index 0): 'John Bauer' (start/end,
    representative) and 'He' (unit)."""
    assert guess_format(str(STANZA)) == "stanza"
    doc, = read(STANZA)
    assert (len(doc.sentences), len(doc.tokens)) == (2, 12)
    assert texts(doc) == [["John Bauer", "He"]]
    assert doc.repairs == []


def test_stanza_asserted_misc_strings():
    """stanza's test_coref_chains_misc_key asserts these two MISC values."""
    first, second = STANZA_MISC.read_text().split()
    assert Attachment.from_misc(first.split("=", 1)[1]) == Attachment(3, True, True, True)
    legacy: list[int] = []
    found = _attachments(Token("x", misc=second), Place("f", 1, "d"), legacy)
    assert found == [Attachment(3, True, True, True)] and legacy == []
    assert _attachments(Token("x", misc="ner=unit-repr-id3"), Place("f", 1, "d"), legacy) == \
        [Attachment(3, True, True, True)] and legacy == [1]


def test_stanza_scored_against_a_hand_key():
    """The key adds {Stanford, there}: MUC recall 1 of 2 links, precision 1 of 1."""
    report = score(KEYS / "stanza.conllu", STANZA, "muc,bcub")
    assert counts(report, "muc") == (1, 2, 1, 1)
    assert counts(report, "bcub") == (2, 4, 2, 2)


def test_stanza_offsets_and_chains_that_contradict(tmp_path):
    text = STANZA.read_text()
    (tmp_path / "o.conllu").write_text(text.replace("end_char=10", "end_char=11"))
    error = refused(tmp_path / "o.conllu", "stanza")
    assert (error.check, error.line) == ("stanza.offset-text", 4)
    assert error.message == ("document 'o': 'Bauer' has start_char=5|end_char=11: 6 characters "
                             "for a form of 5")
    (tmp_path / "t.conllu").write_text(text.replace("# text = He has", "# text = She has"))
    error = refused(tmp_path / "t.conllu", "stanza")
    assert error.check == "stanza.offset-text" and "where # text has" in error.message
    (tmp_path / "u.conllu").write_text(text.replace("end-repr-id0", "middle-repr-id0"))
    error = refused(tmp_path / "u.conllu", "stanza")
    assert (error.check, error.line) == ("stanza.unbalanced", 3)
    assert "word 1 'John' starts a mention of chain 0 that the sentence never ends" in \
        error.message


def _documented_json() -> str:
    """The documentation's JSON block, its '...' elisions (the rest of the first sentence and
    the start of the second; the rest of the second) replaced by the brackets they hide."""
    text = "\n".join(line for line in STANZA_JSON_BLOCK.read_text().splitlines()
                     if not line.startswith(">>>"))
    text = text.replace("    },\n  ...\n    {", "    }\n  ],\n  [\n    {", 1)
    return text.replace("    },\n  ...\n]", "    }\n  ]\n]", 1)


def test_stanza_documented_json(tmp_path):
    data = json.loads(_documented_json())
    # the docs' example file is this block, elisions closed
    assert json.loads((FIXTURES / "stanza" / "documented.json").read_text()) == data
    (tmp_path / "doc.json").write_text(json.dumps(data))
    assert guess_format(str(tmp_path / "doc.json")) == "stanza-json"
    doc, = read(tmp_path / "doc.json")
    assert texts(doc) == [["John Bauer", "He"]]
    data[0][0]["coref_chains"][0]["representative_text"] = "John Baur"
    data[0][1]["coref_chains"][0]["representative_text"] = "John Baur"
    data[1][0]["coref_chains"][0]["representative_text"] = "John Baur"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    error = refused(tmp_path / "bad.json", "stanza-json")
    assert error.check == "stanza-json.representative-text"
    assert "representative_text 'John Baur' is not the text of its representative mention " \
        "('John Bauer')" in error.message


# ---------------------------------------------------------------------------- CoreNLP
def test_corenlp_xml_real_file():
    """README: 2 sentences, 17 tokens, 1 chain of 4 mentions, two nested in sentence 2 (3-10
    and 3-6)."""
    assert guess_format(str(CORENLP_XML)) == "corenlp"
    doc, = read(CORENLP_XML)
    assert (len(doc.sentences), len(doc.tokens)) == (2, 17)
    assert texts(doc) == [["Stanford University", "It", "a great university , founded in 1891",
                           "a great university"]]
    assert [doc.tokens[m.head].form for m in doc.mentions] == \
        ["University", "It", "university", "university"]
    with_text, = read(CORENLP_XML, corenlp_text=str(CORENLP_TEXT))
    assert texts(with_text) == texts(doc)
    assert with_text.attrs["text"] == CORENLP_TEXT.read_text()


def test_corenlp_xml_scored_against_a_hand_key(capsys):
    """The key's one chain {Stanford University, It}: MUC recall 1 of 1, precision 1 of 3 (4
    mentions, 3 parts in the key); B3 precision 2 squared / 4 of 4 mentions."""
    report = score(KEYS / "corenlp.conllu", CORENLP_XML, "muc,bcub")
    assert counts(report, "muc") == (1, 1, 1, 3)
    assert counts(report, "bcub") == (2, 2, 1, 4)
    code, out, _ = run(capsys, "score", KEYS / "corenlp.conllu", CORENLP_XML, "--corenlp-text",
                       CORENLP_TEXT, "-m", "muc")
    assert code == 0 and "muc          100.00      33.33    50.00   1/1, 1/3" in out


def test_corenlp_xml_contradictions(tmp_path):
    text = CORENLP_XML.read_text()
    (tmp_path / "m.xml").write_text(text.replace("<end>10</end>", "<end>19</end>"))
    error = refused(tmp_path / "m.xml", "corenlp")
    assert error.check == "corenlp.bad-offsets"
    assert "tokens 3 to 19 (end exclusive) are not tokens of sentence 2 (10 tokens)" in \
        error.message
    (tmp_path / "t.txt").write_text(CORENLP_TEXT.read_text().replace("located", "situated"))
    error = refused(CORENLP_XML, "corenlp", corenlp_text=str(tmp_path / "t.txt"))
    assert error.check == "corenlp.offset-text" and error.line == 32   # its <token>
    assert error.message == ("document 'input.txt': 'located' at characters 23-30: the text "
                             "there is 'situate'; is --corenlp-text the file CoreNLP read?")
    error = refused(CORENLP_FAQ, "corenlp")
    assert error.check == "corenlp.bad-shape"   # a fragment: <coreference> alone


def test_corenlp_json_sample():
    """README: 1 sentence, 14 tokens, 5 chains, all singletons, nested."""
    assert guess_format(str(CORENLP_JSON)) == "corenlp-json"
    doc, = read(CORENLP_JSON)
    assert doc.name == "headlines.txt"
    assert (len(doc.sentences), len(doc.tokens), len(doc.entities)) == (1, 14, 5)
    assert all(len(doc.mentions_of(e)) == 1 for e in doc.entities)
    assert texts(doc) == [["6"], ["Jersey Shore Season 6 cast 's salaries"],
                          ["Jersey Shore Season 6 cast 's"], ["More than President Obama"],
                          ["President Obama"]]
    assert doc.attrs["text"] == ("Jersey Shore Season 6 cast's salaries revealed; More than "
                                 "President Obama!")


def test_corenlp_json_contradictions(tmp_path):
    data = json.loads(CORENLP_JSON.read_text())
    data["corefs"]["5"][0]["text"] = "President Obama !"
    (tmp_path / "m.json").write_text(json.dumps(data))
    error = refused(tmp_path / "m.json", "corenlp-json")
    assert error.check == "corenlp-json.mention-text"
    assert error.message == ("document 'headlines.txt': corefs['5'][0]: tokens 12 to 13 of "
                             "sentence 1 are 'President Obama', but the mention's text is "
                             "'President Obama !': the offsets contradict the text")
    data = json.loads(CORENLP_JSON.read_text())
    data["sentences"][0]["tokens"][5]["characterOffsetBegin"] = 27   # "'s" is 26-28
    (tmp_path / "o.json").write_text(json.dumps(data))
    error = refused(tmp_path / "o.json", "corenlp-json")
    assert error.check == "corenlp-json.offset-text" and "sentences[0].tokens[5]" in \
        error.message


def test_corenlp_is_read_only(tmp_path, capsys):
    code, _, err = run(capsys, "convert", CORENLP_XML, tmp_path / "x.xml", "--to", "corenlp")
    assert code == 2 and "corefkit reads corenlp but does not write it" in err
    assert not get("stanza").writes and not get("corenlp-json").writes


# ---------------------------------------------------------------------------- writers' losses
@pytest.mark.parametrize("fmt", ["fastcoref", "maverick", "spacy"])
def test_losses_are_what_the_format_cannot_hold(fmt, tmp_path):
    """A GUM document written as a library's output: the loss report counts exactly the
    features the document has and the format cannot hold."""
    doc, = read(GUM)
    report = write([doc], tmp_path / "out.jsonl", format=fmt)
    present = {k: v for k, v in features_present(doc).items() if v}
    spec = get(fmt)
    expected = {k: v for k, v in present.items() if k not in spec.capabilities}
    if fmt == "spacy":  # heads in part: GUM's heads are derived, nothing to write
        assert all(m.head is None or m.head_derived for m in doc.mentions)
    # what a format holds in part, counted by its writer: Maverick's tokens are one list
    # (every sentence break); fastcoref's reader splits the text by its own rule
    if fmt == "maverick":
        expected["sentences"] = len(doc.sentences)
    if fmt == "fastcoref":
        partly = {k: report.loss_totals()[k] for k in ("sentences", "tokens")}
        assert 0 < partly["sentences"] <= len(doc.sentences) and partly["tokens"] >= 1
        expected.update(partly)
    assert report.loss_totals() == expected
    assert report.repairs == []


# ---------------------------------------------------------------------------- across libraries
def test_corenlp_json_as_key_and_as_fastcoref_in_other_tokens(tmp_path):
    """No gold exists for CoreNLP's JSON sample: its own annotation, converted to CoNLL-U, is
    the key; written as fastcoref (CoreNLP's text and offsets kept) and read back in other
    tokens ("cast's" as cast ' s where CoreNLP has cast 's), it scores 100 against it on every
    metric that counts singletons (all five chains are singletons: MUC has no link to count)."""
    doc, = read(CORENLP_JSON)
    write([doc], tmp_path / "key.conllu", format="corefud")
    write([doc], tmp_path / "out.jsonl", format="fastcoref")
    record = json.loads((tmp_path / "out.jsonl").read_text())
    assert record["text"] == doc.attrs["text"]
    # clusters in order of first mention, the longer first: "Jersey Shore Season 6 cast's salaries"
    assert record["clusters"][:2] == [[[0, 37]], [[0, 28]]]
    report = score(tmp_path / "key.conllu", tmp_path / "out.jsonl", "muc,bcub,ceafe,lea",
                   response_format="fastcoref")
    assert counts(report, "muc") == (0, 0, 0, 0)
    for metric in ("bcub", "ceafe", "lea"):
        assert counts(report, metric) == (5, 5, 5, 5)
    [alignment] = report.alignment.documents
    # 's is one key token and two response tokens; every mention keeps its words
    assert (alignment.mode, alignment.key_words, alignment.response_words,
            alignment.tokens_split, alignment.tokens_merged) == ("characters", 14, 15, 1, 0)
    assert (alignment.mentions, alignment.mentions_kept, alignment.mentions_moved,
            alignment.mentions_expanded, alignment.mentions_unaligned) == (5, 5, 0, 0, 0)


@pytest.mark.parametrize("command", ["analyze", "report"])
def test_other_commands_align_library_outputs(command, tmp_path, capsys):
    extra = {"analyze": [], "report": ["-o", tmp_path / "r.html"]}[command]
    """analyze and report align a library's output by default, as score does (CoNLL F1 70.00:
    MUC 60 and B3 70 as worked out in test_fastcoref_scored_against_a_hand_key, CEAFe 80)."""
    code, out, err = run(capsys, command, KEYS / "fastcoref.conllu", FASTCOREF,
                         "--response-from", "fastcoref", *extra)
    assert code == 0, err
    assert "aligned by characters: 1 key tokens split" in err
    shown = out if command == "analyze" else (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "70.00" in shown
    if command == "analyze":
        assert "CoNLL F1: 70.00 (MUC 60.00, B3 70.00, CEAFe 80.00)" in out
        assert [line.split()[2] for line in out.splitlines()
                if line.startswith(("extra mention ", "missing mention "))][:2] == ["2", "2"]


# ---------------------------------------------------------------------------- coreferee
def test_coreferee_heads_through_spacy_head_groups(tmp_path, capsys):
    """The raw-text guide's way to score coreferee (chains of head-token indices, no spans):
    its heads as one-token spans in coref_head_clusters_N of spaCy's JSON. On the first README
    print ({the dog, it}, {The cats, them}) with the heads dog, it and cats, them, and the key's
    heads set to cats and dog: head matching gives 100; exact matching only meets it and them
    (MUC 0 of 2; B3 1/2 + 1/2 of 4)."""
    record = json.loads(SPACY_PRINTS.read_text().splitlines()[0])

    def span(start: int, end: int) -> dict[str, object]:
        return {"start": start, "end": end, "label": "", "kb_id": ""}

    record["spans"] = {"coref_head_clusters_1": [span(30, 33), span(37, 39)],
                       "coref_head_clusters_2": [span(4, 8), span(51, 55)]}
    (tmp_path / "heads.jsonl").write_text(json.dumps(record) + "\n")
    key = (KEYS / "spacy.conllu").read_text().split("\n\n")[0] + "\n\n"
    key = key.replace("Entity=(e1--1\n", "Entity=(e1--2\n").replace("Entity=(e2--1\n",
                                                                    "Entity=(e2--2\n")
    (tmp_path / "key.conllu").write_text(key)
    code, out, err = run(capsys, "score", tmp_path / "key.conllu", tmp_path / "heads.jsonl",
                         "--response-from", "spacy", "-m", "muc,bcub", "--match", "head")
    assert code == 0 and "(spacy.head-mentions)" in err
    assert "muc          100.00     100.00   100.00   2/2, 2/2" in out
    assert "bcub         100.00     100.00   100.00   4/4, 4/4" in out
    code, out, _ = run(capsys, "score", tmp_path / "key.conllu", tmp_path / "heads.jsonl",
                       "--response-from", "spacy", "-m", "muc,bcub")
    assert code == 0 and "0/2, 0/2" in out and "1/4, 1/4" in out
