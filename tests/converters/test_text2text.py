"""The CRAC LLM-track formats (text2text-coref linear text and JSON): reader, repairs, writer.

The writer is compared with the oracle's own outputs in ``shared/corpora/llm-text2text``
(text2text-coref ``conllu2text`` / ``conllu2json``): the blind text byte for byte, tagged text
modulo the renaming of entity ids (the oracle's ``--sequential_ids`` numbering is not repeatable,
README item 1), JSON by content.
"""

from __future__ import annotations

import json

import pytest

from corefkit import read
from corefkit.converters.registry import guess_format, write
from corefkit.converters.text2text.tags import words_of
from corefkit.errors import FormatError
from tests.conftest import SHARED

DATA = SHARED / "corpora" / "llm-text2text"
GUM = SHARED / "corpora" / "gum" / "dep"
SUITE = SHARED / "conformance" / "real" / "real-text2text.json"
NAMES = (DATA / "doclist.txt").read_text().split()
WITH_EMPTY = ["GUM_essay_distraction", "GUM_interview_brotherhood", "GUM_news_afghan",
              "GUM_news_asylum", "GUM_voyage_chatham", "GUM_whow_arrogant"]


def partition(line: str) -> tuple[list[str], set[frozenset[tuple[int, int]]]]:
    """Words and entities (sets of spans) of one line, ids forgotten: two lines are the same
    annotation modulo renaming when these are equal."""
    problems: list = []
    words = words_of(line, problems)
    assert not problems
    stacks: dict[str, list[int]] = {}
    entities: dict[str, set[tuple[int, int]]] = {}
    for index, word in enumerate(words):
        for kind, name, _ in word.tags:
            if kind == "close":
                entities.setdefault(name, set()).add((stacks[name].pop(), index))
        for kind, name, _ in word.tags:
            if kind == "single":
                entities.setdefault(name, set()).add((index, index))
            elif kind == "open":
                stacks.setdefault(name, []).append(index)
    forms = [("##" + w.form if w.empty else w.form) for w in words]
    return forms, {frozenset(spans) for spans in entities.values()}


def written(tmp_path, name: str, **options) -> str:
    out = tmp_path / f"{name}.txt"
    write(read(GUM / f"{name}.conllu"), out, format="text2text", **options)
    return out.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- writer
@pytest.mark.parametrize("name", NAMES)
def test_writer_gives_the_oracles_text_modulo_renaming(tmp_path, name):
    mine = written(tmp_path, name)
    assert partition(mine) == partition((DATA / "gold" / f"{name}.seq.txt").read_text())
    assert written(tmp_path, name) == mine  # repeatable, unlike the oracle's -s
    blind = written(tmp_path, name, text2text_blind=True)
    assert blind == (DATA / "blind" / f"{name}.txt").read_text()


@pytest.mark.parametrize("name", WITH_EMPTY)
def test_writer_with_zeros_places_empty_nodes_as_the_oracle(tmp_path, name):
    mine = written(tmp_path, name, text2text_zeros=True)
    assert partition(mine) == partition((DATA / "gold" / f"{name}.seq.zero.txt").read_text())
    assert written(tmp_path, name, text2text_zeros=True, text2text_blind=True) == \
        (DATA / "blind" / f"{name}.zero.txt").read_text()


def _json_content(record: dict) -> tuple:
    clusters = record["clusters_token_offsets"]
    return (record["doc_id"], record["tokens"],
            None if clusters is None else {frozenset(map(tuple, c)) for c in clusters})


@pytest.mark.parametrize("name", NAMES)
def test_json_writer_gives_the_oracles_json(tmp_path, name):
    zeros = name in WITH_EMPTY
    out = tmp_path / f"{name}.json"
    write(read(GUM / f"{name}.conllu"), out, format="text2text-json", text2text_zeros=zeros)
    mine = json.loads(out.read_text())
    theirs = json.loads((DATA / "gold" / f"{name}{'.zero' if zeros else ''}.json").read_text())
    assert [_json_content(r) for r in mine] == [_json_content(r) for r in theirs]
    assert mine[0]["clusters_text_mentions"] == theirs[0]["clusters_text_mentions"]


def test_json_without_zeros_counts_only_the_tokens_written(tmp_path):
    """conllu2json without -z counts the empty nodes it leaves out of ``tokens`` (README item
    5); corefkit's offsets point at the words they name."""
    out = tmp_path / "afghan.json"
    write(read(GUM / "GUM_news_afghan.conllu"), out, format="text2text-json")
    record = json.loads(out.read_text())[0]
    for cluster, texts in zip(record["clusters_token_offsets"],
                              record["clusters_text_mentions"]):
        for (start, end), text in zip(cluster, texts):
            assert " ".join(record["tokens"][start:end + 1]) == text


# ---------------------------------------------------------------------------- reader
def test_the_gold_texts_hold_the_oracles_mentions():
    suite = json.loads(SUITE.read_text())
    expected = sum(suite["runs"][f"{n}/gold"]["text2conllu"]["response_mentions"]
                   for n in NAMES)
    found = sum(len(d.mentions) for n in NAMES
                for d in read(DATA / "gold" / f"{n}.seq.txt", format="text2text"))
    assert found == expected == 7847


def test_formats_are_detected():
    assert guess_format(DATA / "responses" / "words" / "GENTLE_poetry_death.txt") == "text2text"
    assert guess_format(DATA / "gold" / "GENTLE_poetry_death.json") == "text2text-json"
    assert guess_format(GUM / "GENTLE_poetry_death.conllu") == "corefud"


def test_documents_are_named_after_the_file_and_hold_one_sentence(tmp_path):
    path = tmp_path / "answers.txt"
    path.write_text("Mary|[e1] left .\n\nShe|[e1] came back|[e2] .\n")
    docs = list(read(path, format="text2text"))
    assert [d.name for d in docs] == ["answers-1", "answers-2"]
    assert [d.line for d in docs] == [1, 3]
    assert [len(d.sentences) for d in docs] == [1, 1]


def line_read(tmp_path, text: str, lenient: bool = True):
    path = tmp_path / "llm.txt"
    path.write_text(text + "\n", encoding="utf-8")
    return list(read(path, format="text2text", lenient=lenient))


def spans(doc) -> list[tuple[str, str]]:
    return sorted((doc.text(m), doc.entity_of(m).attrs["original_id"]) for m in doc.mentions)


REPAIRS = [
    # (answer, mentions read, check id, column of the repair: where its tag starts)
    ("The|[e3 Carriage held" + " on" * 50, [("The", "e3")], "text2text.unclosed-mention", 5),
    ("we saw the|[e3 Carriage", [], "text2text.cut-mention", 12),
    ("The Carriage|e3] held", [("Carriage", "e3")], "text2text.unopened-mention", 14),
    ("The||[e3 Carriage|e3]", [("The Carriage", "e3")], "text2text.double-pipe", 1),
    ("Death[e2] came", [("Death", "e2")], "text2text.glued-tag", 1),
    ("[e3 The Carriage e3] held", [("The Carriage", "e3")], "text2text.detached-tag", 1),
    ("my |[e1],[e8 leisure|e8]", [("my", "e1"), ("my leisure", "e8")],
     "text2text.detached-tag", 5),
    ("My|{e1} labor", [("My", "e1")], "text2text.bad-bracket", 4),
    ("The|[E28 Day|e28]", [("The Day", "e28")], "text2text.id-case", 5),
    ("Ourselves| and", [], "text2text.empty-tag", 11),
    ("no|[e", [], "text2text.unknown-tag", 4),
    ("We|[e4],[e4 slowly drove", [("We", "e4")], "text2text.duplicate-tag", 9),
    ("We|[e4],[e4] slowly", [("We", "e4")], "text2text.duplicate-mention", 9),
]


@pytest.mark.parametrize("text,found,check,column", REPAIRS)
def test_malformed_tags_are_repaired_and_reported_where_they_are(tmp_path, text, found, check,
                                                                 column):
    (doc,) = line_read(tmp_path, text)
    assert spans(doc) == found
    repairs = [r for r in doc.repairs if r.check == check]
    assert repairs and repairs[0].line == 1 and repairs[0].column == column
    assert repairs[0].message.startswith("word ")
    with pytest.raises(FormatError, match=check.replace(".", r"\.")):
        line_read(tmp_path, text, lenient=False)


def test_nested_mentions_of_one_entity_may_end_on_one_word(tmp_path):
    (doc,) = line_read(tmp_path, "the|[e1 man who saw|[e1 himself|e1],e1]", lenient=False)
    assert spans(doc) == [("saw himself", "e1"), ("the man who saw himself", "e1")]
    assert doc.repairs == []


def test_markdown_fences_are_skipped_when_lenient(tmp_path):
    with pytest.raises(FormatError, match="markdown-fence"):
        line_read(tmp_path, "```\nMary|[e1] left\n```", lenient=False)
    (doc,) = line_read(tmp_path, "```\nMary|[e1] left\n```")
    assert [r.check for r in doc.repairs] == ["text2text.markdown-fence"] * 2


def test_empty_nodes_are_read_as_such(tmp_path):
    (doc,) = line_read(tmp_path, "I am going to ##going Italy|[e1] ##|[e2]", lenient=False)
    empty = [t for t in doc.tokens if t.is_empty]
    assert [(t.form, t.id) for t in empty] == [("going", "4.1"), ("_", "5.1")]
    assert spans(doc) == [("Italy", "e1"), ("_", "e2")]


@pytest.mark.parametrize("name", NAMES[:10])
def test_answers_with_broken_tags_are_refused_strictly_and_read_leniently(name):
    path = DATA / "responses" / "tags" / f"{name}.txt"
    with pytest.raises(FormatError, match=r"llm-text2text/responses/tags/.*:1:\d+: word \d+"):
        list(read(path, format="text2text"))
    (doc,) = read(path, format="text2text", lenient=True)
    assert doc.repairs and all(r.line == 1 and r.column for r in doc.repairs)


def test_json_reader_refuses_bad_json_and_reads_it_inside_prose_when_lenient(tmp_path):
    gold = (DATA / "gold" / "GENTLE_poetry_death.json").read_text()
    path = tmp_path / "answer.json"
    path.write_text("Here is the annotation:\n```json\n" + gold + "\n```\n")
    with pytest.raises(FormatError, match="not valid JSON"):
        list(read(path, format="text2text-json"))
    (doc,) = read(path, format="text2text-json", lenient=True)
    assert doc.name == "GENTLE_poetry_death" and len(doc.mentions) == 49
    assert [r.check for r in doc.repairs] == ["text2text-json.prose"]


def test_json_offsets_outside_the_document_are_a_repair(tmp_path):
    path = tmp_path / "answer.json"
    path.write_text(json.dumps([{"doc_id": "d", "tokens": ["a", "b"],
                                 "clusters_token_offsets": [[[0, 0], [1, 5]]],
                                 "clusters_text_mentions": [["a", "b"]]}]))
    with pytest.raises(FormatError, match="bad-offsets"):
        list(read(path, format="text2text-json"))
    (doc,) = read(path, format="text2text-json", lenient=True)
    assert len(doc.mentions) == 1


def test_mutated_answers_are_read_or_refused_never_crash(tmp_path):
    """Characters of the markup inserted, deleted and swapped at random in real answers:
    strict reading reads or refuses with a located FormatError, lenient reading reads, and
    scoring against the gold never fails otherwise."""
    import random

    from corefkit import score

    rng = random.Random(25)
    text = (DATA / "responses" / "mixed" / "GENTLE_poetry_death.txt").read_text()[:600]
    alphabet = "|[],e0123 #{}()<>E\t.\u00a0"
    path = tmp_path / "answer.txt"
    for _ in range(150):
        chars = list(text)
        for _ in range(rng.randrange(1, 6)):
            at = rng.randrange(len(chars))
            operation = rng.randrange(3)
            if operation == 0:
                chars.insert(at, rng.choice(alphabet))
            elif operation == 1 and len(chars) > 1:
                del chars[at]
            else:
                chars[at] = rng.choice(alphabet)
        mutated = "".join(chars)
        path.write_text(mutated, encoding="utf-8")
        try:
            list(read(path, format="text2text"))
        except FormatError as exc:
            assert exc.file and exc.line == 1 and exc.check.startswith("text2text."), mutated
        try:
            docs = list(read(path, format="text2text", lenient=True))
        except FormatError as exc:  # a line of tags only, nothing to read
            assert exc.check == "text2text.no-words", mutated
            continue
        score(GUM / "GENTLE_poetry_death.conllu", docs, "muc", profile="crac-llm")
