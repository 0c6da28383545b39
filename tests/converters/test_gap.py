"""GAP TSV: both shared files read with the README's counts, the documents' mentions and chains,
and the writer turning clusters (from GAP, or through another format) into predictions."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.gap.reader import example_document
from corefkit.converters.gap.rows import GapExample
from corefkit.converters.gap.writer import predict
from corefkit.errors import UsageError
from corefkit.model import IDENTITY, Document
from tests.conftest import CORPORA

GAP = CORPORA / "jsonlines" / "gap"
VALIDATION = GAP / "gap-validation.tsv"
DEVELOPMENT = GAP / "gap-development.tsv"
# gap/README.md: rows, A-coref TRUE, B-coref TRUE, neither, pronoun before A
COUNTS = {VALIDATION: (454, 187, 205, 62, 70), DEVELOPMENT: (2000, 874, 925, 201, 274)}


def labels(path: Path) -> dict[str, tuple[str, str]]:
    rows = [line.split("\t") for line in path.read_text().splitlines()[1:]]
    return {r[0]: (r[6], r[9]) for r in rows}


@pytest.mark.parametrize("path", [VALIDATION, DEVELOPMENT], ids=["validation", "development"])
def test_gap_files_read_with_the_readme_counts(path: Path) -> None:
    rows, a_true, b_true, neither, pronoun_first = COUNTS[path]
    docs = list(corefkit.read(str(path)))
    assert len(docs) == rows and len({d.id for d in docs}) == rows
    kind = path.stem.split("-")[1]
    assert [d.id for d in docs[:2]] == [f"{kind}-1", f"{kind}-2"]
    found: Counter = Counter()
    for doc in docs:
        assert not doc.repairs and len(doc.sentences) == 1
        roles = {m.attrs["gap_role"]: m for m in doc.mentions}
        example = doc.attrs["gap_example"]
        assert doc.text(roles["pronoun"]).replace(" ", "") == example["pronoun"].replace(" ", "")
        pronoun_chain = doc.entity_of(roles["pronoun"])
        a = doc.entity_of(roles["A"]) is pronoun_chain
        b = doc.entity_of(roles["B"]) is pronoun_chain
        found.update({"a": a, "b": b, "neither": not (a or b), "both": a and b,
                      "first": roles["pronoun"].start < roles["A"].start})
        assert len(doc.entities_in(IDENTITY)) == 3 - (a or b)
        assert doc.meta["url"].startswith("http")
    assert (found["a"], found["b"], found["neither"], found["both"], found["first"]) == (
        a_true, b_true, neither, 0, pronoun_first)


def test_mentions_are_cut_out_of_words() -> None:
    example = GapExample("x-1", "Cheryl Cassidy's sister met Ann; her car broke.", "her", 33,
                         "Cheryl Cassidy", 0, True, "Ann", 28, False, "http://x")
    doc = example_document(example)
    assert [t.form for t in doc.tokens] == ["Cheryl", "Cassidy", "'s", "sister", "met", "Ann",
                                            ";", "her", "car", "broke."]
    assert sorted(sorted(doc.text(m) for m in c) for c in doc.chains()) == [
        ["Ann"], ["Cheryl Cassidy", "her"]]
    assert predict(doc, example) == (True, False)


def test_gap_to_gap_writes_the_gold_labels(tmp_path: Path) -> None:
    for path in (VALIDATION, DEVELOPMENT):
        report = corefkit.convert(str(path), str(tmp_path / path.name)).report
        written = [line.split("\t") for line in (tmp_path / path.name).read_text().splitlines()]
        assert {r[0]: (r[1], r[2]) for r in written} == labels(path)
        assert [r[0] for r in written] == list(labels(path))
        assert {r.feature for r in report.losses} >= {"singletons", "mention_attributes"}
        assert all("GAP prediction file" in r.action for r in report.losses)


def test_clusters_from_another_format_need_the_gold(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    corefkit.convert(str(VALIDATION), str(tmp_path / "val.conll"))
    with pytest.raises(UsageError, match="--gap-gold"):
        corefkit.convert(str(tmp_path / "val.conll"), str(tmp_path / "p.tsv"))
    assert not (tmp_path / "p.tsv").exists()
    assert main(["convert", str(tmp_path / "val.conll"), str(tmp_path / "p.tsv"), "--gap-gold",
                 str(VALIDATION), "-q"]) == 0
    written = [line.split("\t") for line in (tmp_path / "p.tsv").read_text().splitlines()]
    assert {r[0]: (r[1], r[2]) for r in written} == labels(VALIDATION)


def system(example: GapExample, links: list[tuple[int, int]], tokens: list[str]) -> Document:
    """A system document over the example's text with one chain of the given token spans."""
    doc = Document(example.id)
    doc.add_sentence(tokens)
    chain = doc.new_entity()
    for start, end in links:
        doc.add_span(start, end, chain)
    return doc


def test_match_modes() -> None:
    text = "Dr. Mary Smith met Anna Jones , and Smith said she would come ."
    example = GapExample("m-1", text, "she", text.index("she"), "Mary Smith", 4, True,
                         "Anna Jones", text.index("Anna"), False, "")
    words = text.split()
    she = words.index("she")
    assert predict(system(example, [(0, 2), (she, she)], words), example, "contain") == (True, False)
    assert predict(system(example, [(0, 2), (she, she)], words), example, "exact") == (False, False)
    assert predict(system(example, [(1, 2), (she, she)], words), example, "exact") == (True, False)
    smith = words.index("said") - 1  # the second "Smith", outside the labelled span
    assert predict(system(example, [(smith, smith), (she, she)], words), example, "contain") == (
        False, False)
    assert predict(system(example, [(smith, smith), (she, she)], words), example, "name") == (
        True, False)
    # the pronoun not a mention: FALSE, FALSE; PTB escapes align with their characters
    assert predict(system(example, [(0, 2)], words), example) == (False, False)
    paren = GapExample("p-1", "Mary (a nurse) saw her.", "her", 19, "Mary", 0, True,
                       "a nurse", 6, False, "")
    doc = system(paren, [(0, 0), (6, 6)], ["Mary", "-LRB-", "a", "nurse", "-RRB-", "saw", "her",
                                          "."])
    assert predict(doc, paren) == (True, False)


def test_unaligned_and_missing_documents_are_reported(tmp_path: Path) -> None:
    docs = list(corefkit.read(str(VALIDATION)))[:3]
    wrong = Document(docs[1].id)
    wrong.add_sentence(["Not", "the", "text"])
    report = corefkit.write([docs[0], wrong], str(tmp_path / "p.tsv"), format="gap",
                            gap_gold=str(VALIDATION))
    assert (tmp_path / "p.tsv").read_text() == f"{docs[0].id}\tFALSE\tFALSE\n"
    assert [r.check for r in report.repairs] == ["gap.unaligned", "gap.missing-prediction"]
    assert "453 examples" in report.repairs[1].message
