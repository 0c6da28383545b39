"""The alignment of a response document to a key document: policies, report, cost."""

from __future__ import annotations

import random
import time

import pytest

from corefkit.alignment import (
    AlignmentPolicy,
    AlignmentSummary,
    align,
    join,
    pair_by_content,
)
from corefkit.alignment.script import EQUAL, edit_script
from corefkit.alignment.words import link_words
from corefkit.errors import UsageError
from corefkit.model import Document, Token


def document(words: str, spans: list[tuple[int, int, str]] = (), name: str = "d",
             upos: str | None = None) -> Document:
    doc = Document(name)
    tags = upos.split() if upos else [None] * len(words.split())
    doc.add_sentence([Token(w, upos=u) for w, u in zip(words.split(), tags)])
    entities: dict[str, object] = {}
    for start, end, entity in spans:
        if entity not in entities:
            entities[entity] = doc.new_entity(attrs={"original_id": entity})
        doc.add_span(start, end, entities[entity])
    return doc


def mentions(doc: Document) -> list[tuple[str, str]]:
    return sorted((doc.text(m), doc.entity_of(m).attrs["original_id"]) for m in doc.mentions
                  if doc.entity_of(m) is not None)


# ---------------------------------------------------------------------------- same text
def test_same_text_other_tokens_is_aligned_by_characters():
    key = document("I 'm going to the U.S. today .")
    response = document("I'm going to the U. S. today.", [(0, 0, "e1"), (4, 5, "e2")])
    found = align(key, response, AlignmentPolicy(merged="keep"))
    assert found.report.mode == "characters"
    assert found.report.tokens_merged == 2 and found.report.tokens_split == 1
    assert mentions(found.document) == [("I 'm", "e1"), ("U.S.", "e2")]
    assert found.report.mentions_kept == 2


def test_a_boundary_inside_a_key_token_expands_or_leaves_the_mention_unaligned():
    key = document("the semi-finals were close")
    response = document("the semi - finals were close", [(1, 1, "e1"), (0, 3, "e2")])
    expanded = align(key, response)
    assert mentions(expanded.document) == [("semi-finals", "e1"), ("the semi-finals", "e2")]
    assert expanded.report.mentions_expanded == 1
    unaligned = align(key, response, AlignmentPolicy(boundary="unaligned"))
    assert unaligned.report.mentions_unaligned == 1
    # an unaligned mention stays, on tokens of its own after the key's (a spurious mention)
    extra = [m for m in unaligned.document.mentions if m.start >= key.token_count]
    assert len(extra) == 1 and unaligned.document.tokens[extra[0].start].sentence == -1
    dropped = align(key, response, AlignmentPolicy(boundary="unaligned"), keep_unaligned=False)
    assert mentions(dropped.document) == [("the semi-finals", "e2")]


def test_merged_tokens_trim_punctuation_and_clitics_at_a_mention_edge():
    key = document("And Immortality . I 'm here", upos="CCONJ PROPN PUNCT PRON AUX ADV")
    response = document("And Immortality. I'm here", [(1, 1, "e5"), (2, 2, "e4")])
    trimmed = align(key, response)
    assert mentions(trimmed.document) == [("I", "e4"), ("Immortality", "e5")]
    assert trimmed.report.mentions_trimmed == 2
    kept = align(key, response, AlignmentPolicy(merged="keep"))
    assert mentions(kept.document) == [("I 'm", "e4"), ("Immortality .", "e5")]


def test_unknown_policies_are_usage_errors():
    with pytest.raises(UsageError, match="boundary"):
        AlignmentPolicy(boundary="nearest")
    with pytest.raises(UsageError, match="merged"):
        AlignmentPolicy(merged="split")


# ---------------------------------------------------------------------------- other text
def test_rewritten_text_keeps_tags_through_replacements_insertions_and_deletions():
    key = document("Because I could not stop for Death , He kindly stopped for me")
    response = document("Because I could not , stop for death He kindly Stopped . for me",
                        [(1, 1, "e1"), (7, 7, "e2"), (8, 8, "e2"), (13, 13, "e1")])
    found = align(key, response)
    assert found.report.mode == "words"
    assert mentions(found.document) == [("Death", "e2"), ("He", "e2"), ("I", "e1"),
                                        ("me", "e1")]
    assert (found.report.words_inserted, found.report.words_deleted) == (2, 1)


def test_a_mention_on_inserted_words_is_unaligned_and_one_with_an_inserted_edge_moves():
    key = document("we saw the old man there")
    response = document("we saw indeed the very old man there", [(2, 2, "e1"), (2, 6, "e2")])
    found = align(key, response)
    assert found.report.mentions_unaligned == 1
    assert found.report.mentions_moved == 1
    assert ("the old man", "e2") in mentions(found.document)


def test_a_truncated_response_is_named_with_what_is_missing():
    words = " ".join(f"w{i}" for i in range(100))
    key = document(words, [(90, 91, "e1"), (5, 5, "e2")])
    response = document(" ".join(f"w{i}" for i in range(40)) + " w4", [(5, 5, "e2")])
    found = align(key, response)
    report = found.report
    # the last word, cut short ("w4" of "w40"), aligns with the word it was cut from, not
    # anywhere in the missing text
    assert report.truncated and report.missing_from == 42 and report.missing_words == 59
    assert report.key_mentions_missing == 1
    assert (report.words_replaced, report.words_inserted) == (1, 0)


def test_empty_nodes_take_the_keys_or_are_added_after_their_word():
    key = Document("d")
    key.add_sentence([Token("he", id="1"), Token("left", id="2"),
                      Token("_", id="2.1", is_empty=True), Token("now", id="3")])
    response = document("he left ## ## now")
    for index in (2, 3):
        response.tokens[index].is_empty = True
    e = response.new_entity()
    response.add_span(3, 3, e)
    found = align(key, response)
    assert found.report.empty_nodes_added == 1
    added = found.document.tokens[3]
    assert added.is_empty and added.id == "2.2"
    assert [found.document.tokens[t].id for m in found.document.mentions for t in m.tokens] == \
        ["2.2"]


# ---------------------------------------------------------------------------- cost
def test_edit_script_of_a_long_document_without_unique_words_is_bounded():
    """100,000 words from a vocabulary of three (no unique anchor anywhere): windows keep the
    edit script near-linear; quadratic Levenshtein would take minutes."""
    rng = random.Random(7)
    a = [rng.randrange(3) for _ in range(100_000)]
    b = list(a)
    for _ in range(2000):
        position = rng.randrange(len(b))
        if rng.random() < 0.5:
            del b[position]
        else:
            b.insert(position, rng.randrange(3))
    started = time.process_time()
    blocks = edit_script(a, b)
    elapsed = time.process_time() - started
    assert blocks[0][1] == 0 and blocks[-1][2] == len(a) and blocks[-1][4] == len(b)
    assert sum(x2 - x1 for tag, x1, x2, _, _ in blocks if tag == EQUAL) > 90_000
    assert elapsed < 20


def test_edit_script_covers_both_sides_in_order():
    rng = random.Random(3)
    for _ in range(50):
        a = [rng.randrange(20) for _ in range(rng.randrange(60))]
        b = [rng.randrange(20) for _ in range(rng.randrange(60))]
        blocks = edit_script(a, b)
        pa = pb = 0
        for tag, a1, a2, b1, b2 in blocks:
            assert (a1, b1) == (pa, pb)
            if tag == EQUAL:
                assert a[a1:a2] == b[b1:b2]
            pa, pb = a2, b2
        assert (pa, pb) == (len(a), len(b))


def test_changed_stretches_of_equal_text_are_split_and_merged():
    found = link_words(["ca", "n't", "stop", "semi-finals"], ["can", "not", "stop", "semi",
                                                             "-", "finals"])
    assert found.links[:2] == [(0, 0, False, False), (1, 1, False, False)]
    assert found.links[3:] == [(3, 3, False, True), (3, 3, True, True), (3, 3, True, False)]


# ---------------------------------------------------------------------------- pairing
def test_documents_pair_by_content_and_broken_ones_are_joined():
    keys = [f"alpha beta gamma delta epsilon zeta {n} eta theta iota kappa".split()
            for n in ("one", "two")]
    keys[1] = "a completely different text about other things and more".split()
    responses = [["Here", "is", "the", "answer", ":"], keys[1][:6], keys[1][6:] + ["!"],
                 keys[0]]
    found = pair_by_content(keys, responses)
    assert found.pieces == [[3], [1, 2]]
    assert found.extra == [0]


def test_join_keeps_entities_of_the_same_id_together():
    a = document("Mary saw", [(0, 0, "e1")])
    b = document("her brother", [(0, 0, "e1"), (0, 1, "e2")])
    joined = join([a, b])
    assert [t.form for t in joined.tokens] == ["Mary", "saw", "her", "brother"]
    assert len(joined.entities) == 2
    assert sorted(len(joined.mentions_of(e)) for e in joined.entities) == [1, 2]


def test_summary_totals_and_json():
    key = document("a b c d")
    found = align(key, document("a bc d", [(1, 1, "e1")]))
    summary = AlignmentSummary("boundary expand, merged trim", [found.report])
    totals = summary.totals()
    assert totals["documents"] == 1 and totals["tokens_merged"] == 1
    assert summary.to_json()["documents"][0]["mode"] == "characters"
    assert "1 response token merged" in "\n".join(summary.lines())
