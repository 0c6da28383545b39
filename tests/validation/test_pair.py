"""Key/response alignment: documents, sentence ids, words; the first mismatch named."""

from __future__ import annotations

import pytest

from corefkit.model import Document
from corefkit.validation import validate_pair
from tests.conftest import CORPORA
from tests.validation.helpers import VALIDATION

PAIR = VALIDATION / "pair"


def pair_checks(key, response, **options) -> list[tuple[str, str | None, int | None, str]]:
    return [(f.check, f.document, f.line, f.message)
            for f in validate_pair(key, response, **options)]


def test_aligned_files_pass():
    assert pair_checks(PAIR / "key.conll", PAIR / "response-good.conll") == []


def test_documents_only_one_side_has():
    assert pair_checks(PAIR / "key.conll", PAIR / "response-documents.conll") == [
        ("pair.documents", "news/b", 9, "key document news/b is not in the response"),
        ("pair.documents", "news/c", 9, "response document news/c is not in the key"),
    ]
    [key_side, response_side] = validate_pair(PAIR / "key.conll", PAIR / "response-documents.conll")
    assert key_side.file.endswith("key.conll") and response_side.file.endswith("documents.conll")


def test_first_word_mismatch_is_named_with_its_line():
    [finding] = validate_pair(PAIR / "key.conll", PAIR / "response-tokens.conll")
    assert (finding.check, finding.line, finding.sentence, finding.severity) == (
        "pair.tokens", 6, "2", "error")
    assert finding.message == "word 4 is 'smiled' in the key but 'smiles' in the response"


def test_word_count_mismatch():
    assert pair_checks(PAIR / "key.conll", PAIR / "response-short.conll") == [
        ("pair.tokens", "news/a", 5, "the key has 4 words and the response 3; the response "
         "ends before key word 4 ('smiled')")]
    assert pair_checks(PAIR / "response-short.conll", PAIR / "key.conll") == [
        ("pair.tokens", "news/a", 6, "the key has 3 words and the response 4; the response "
         "has extra words from word 4 ('smiled')")]


def test_sentence_boundaries_without_ids_are_a_warning():
    [finding] = validate_pair(PAIR / "key.conll", PAIR / "response-sentence-boundaries.conll")
    assert (finding.check, finding.severity, finding.line) == (
        "pair.sentence-boundaries", "warning", 2)


def test_sentence_ids_and_empty_nodes():
    [finding] = validate_pair(PAIR / "key.conllu", PAIR / "response-sentences.conllu")
    assert (finding.check, finding.line, finding.sentence) == ("pair.sentences", 9, "d1-3")
    assert finding.message == "sentence 2 is 'd1-2' in the key but 'd1-3' in the response"
    # the key has a zero (2.1) the response lacks: empty nodes are not words
    assert pair_checks(PAIR / "key.conllu", PAIR / "response-no-zero.conllu") == []


def test_sentence_count_with_ids(tmp_path):
    text = (PAIR / "key.conllu").read_text()
    short = text[: text.index("# sent_id = d1-2")]
    (tmp_path / "r.conllu").write_text(short)
    checks = pair_checks(PAIR / "key.conllu", tmp_path / "r.conllu")
    assert ("pair.sentences", "d1", 1, "the key has 2 sentences and the response 1; the first "
            "the response lacks is 'd1-2'") in checks


def test_layouts_without_words_compare_counts_only():
    data = CORPORA.parent / "conformance/data/reference-coreference-scorers/DataFiles"
    found = validate_pair(data / "TC-B.key", data / "TC-B-1.response")
    assert [f.check for f in found] == ["conll.no-word-column"] * 2


def test_each_side_is_validated_too():
    found = validate_pair(VALIDATION / "conll2012" / "same-span-mentions.conll",
                          VALIDATION / "conll2012" / "duplicate-mention.conll")
    assert [f.check for f in found] == ["conll.same-span-mentions", "conll.duplicate-mention"]


def test_an_unreadable_side_stops_nothing_but_its_own_reading():
    found = validate_pair(PAIR / "key.conll", VALIDATION / "conll2012" / "unclosed.conll")
    assert [f.check for f in found] == ["conll.unclosed", "pair.documents"]


def test_documents_in_memory_and_filters():
    key, response = Document("d"), Document("d")
    key.add_sentence("a b c".split())
    response.add_sentence("a b d".split())
    for doc in (key, response):  # a mention each (a side without any is pair.empty-*)
        doc.add_mention(range(0, 1), doc.new_entity())
    assert [f.check for f in validate_pair([key], [response])] == ["pair.tokens"]
    assert list(validate_pair([key], [response], exclude=["pair.*"])) == []


@pytest.mark.parametrize("layer", ["manualCoreferences@2"])
def test_one_lcc_file_read_twice_is_a_pair(layer):
    path = CORPORA / "lcc" / "116352.nkas.json"
    found = validate_pair(path, path, response_options={"layer": layer},
                          include_only=["pair.*"])
    assert list(found) == []
