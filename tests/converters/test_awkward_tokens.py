"""Issue 22: every writer writes a token so that its reader reads the same token back, or
refuses, naming the token; with ``forms="replace"`` it writes what the format can hold and
counts every changed form in the loss report.

Tokens of real corpora that broke writers: a bare newline (BookCoref has 1,549), spaces
(LCC's ``taip pat``), a lone space (PreCo), tabs, ``|``, ``#``, ``_``, brackets, the empty
string. The fastcoref shape holds the text, not its tokens: its reader splits the text by its
own rule, and the loss report counts exactly the tokens that come back otherwise.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import corefkit
from corefkit.converters.registry import get
from corefkit.errors import LossError
from corefkit.model import Document
from tests.oracle.format_pairs import Target
from tests.oracle.model_diff import compare, diff_documents

AWKWARD = ["\n", "a b", "a\tb", "|", "#", "#x", "_", "(", ")", "(1)", "", " ", "  ", "\r",
           "\u00a0", "\u2028", "\x85", "\x0b", "\x1c", " a", "a ", "a  b", "\ufeff", "\x00",
           "\ud800", "&<>\"'", "]]>", "-", "a=b", "é", "x",
           # what the LLM-track linear text takes for tags, empty nodes or a fence
           "##", "##x", "[e1]", "e1]", "[e2", "Death[e2]", "(e3)", "{e3}", "a|b", "|[e1", "```",
           "\\", "*"]

# every writer, and the variants of one that write tokens differently
WRITERS = [
    Target("conll2012", "conll2012"),
    Target("conll2012:gum", "conll2012", (("layout", "gum"),)),
    Target("corefud", "corefud"),
    Target("corefud:ua-compact", "corefud", (("profile", "ua-compact"),)),
    Target("ua-exploded", "ua-exploded"),
    Target("ua-exploded:align-spaces", "ua-exploded", (("align_spaces", True),)),
    Target("mmax2", "mmax2"),
    Target("lcc", "lcc"),
    Target("brat", "brat"),
    *[Target(f"jsonlines:{shape}", "jsonlines", (("jsonlines_shape", shape),))
      for shape in ("e2e", "wl-coref", "preco", "maverick", "coref-data")],
    Target("webanno-tsv", "webanno-tsv"),
    Target("uima-cas", "uima-cas"),
    Target("text2text", "text2text"),
    Target("text2text:zeros", "text2text", (("text2text_zeros", True),)),
    Target("text2text-json", "text2text-json"),
]
FASTCOREF = Target("jsonlines:fastcoref", "jsonlines", (("jsonlines_shape", "fastcoref"),))


def document(sentences: list[list[str]]) -> Document:
    doc = Document("awkward")
    for words in sentences:
        doc.add_sentence(words)
    entity = doc.new_entity()
    doc.add_span(0, 0, entity)
    doc.add_span(doc.token_count - 1, doc.token_count - 1, entity)
    return doc


def write_and_read(doc: Document, target: Target, folder: str, **options: object
                   ) -> tuple[object, Document]:
    if target.format == "uima-cas":
        pytest.importorskip("cassis")   # corefkit[cas]
    spec = get(target.format)
    path = Path(folder) / ("out" + ("" if spec.writes_directory else spec.patterns[0].lstrip("*")))
    report = corefkit.write([doc], str(path), target.format, **dict(target.options), **options)
    (back,) = corefkit.read(str(path), format=target.format)
    return report, back


def words(doc: Document) -> list[str]:
    return [t.form for t in doc.tokens]


def check(doc: Document, target: Target) -> None:
    """The property: same tokens back, or a refusal naming the first token it cannot write;
    and with forms="replace", the forms the rule gives, every change counted."""
    rule = get(target.format).forms
    with tempfile.TemporaryDirectory() as folder:
        try:
            report, back = write_and_read(doc, target, folder)
        except LossError as refused:
            assert rule is not None
            bad = next(t for t in doc.tokens if rule.problem(t.form))
            sentence = doc.sentences[bad.sentence]
            place = f"sentence {sentence.index + 1}, word {bad.index - sentence.start + 1} "
            assert place + repr(bad.form) in str(refused)
            assert not any(Path(folder).iterdir())  # nothing written
        else:
            assert words(back) == words(doc), target.name
            assert "tokens" not in report.loss_totals()  # type: ignore[attr-defined]
            return
        report, back = write_and_read(doc, target, folder, forms="replace")
        expected = [rule.replace(w) if rule.problem(w) else w for w in words(doc)]
        assert words(back) == expected
        changed = sum(1 for t in doc.tokens if rule.problem(t.form))
        assert report.loss_totals()["tokens"] == changed  # type: ignore[attr-defined]


@pytest.mark.parametrize("target", WRITERS, ids=lambda t: t.name)
@pytest.mark.parametrize("form", AWKWARD, ids=repr)
def test_each_awkward_token(target: Target, form: str) -> None:
    check(document([["The", form, "dog", "."], ["It", "ran", "."]]), target)


FORM = st.text(alphabet=st.sampled_from(["a", "b", " ", "\n", "\t", "|", "#", "_", "(", ")",
                                         "\u00a0", "\u2028", "\x0b", "é", "=", "[", "]", "1",
                                         "e", "`", "\\", "*"]), max_size=4)
SENTENCES = st.lists(st.lists(FORM, min_size=1, max_size=5), min_size=1, max_size=3)


@pytest.mark.parametrize("target", WRITERS, ids=lambda t: t.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sentences=SENTENCES)
def test_generated_tokens(target: Target, sentences: list[list[str]]) -> None:
    check(document(sentences), target)


@settings(max_examples=40, deadline=None)
@given(sentences=SENTENCES)
def test_the_fastcoref_shape_reports_the_tokens_its_reader_makes_otherwise(
        sentences: list[list[str]]) -> None:
    doc = document(sentences)
    with tempfile.TemporaryDirectory() as folder:
        report, back = write_and_read(doc, FASTCOREF, folder)
    found = [c for c in diff_documents(doc, back).changes if c.feature == "tokens"]
    reported = [r for r in report.losses if r.feature == "tokens"]  # type: ignore[attr-defined]
    assert sum(r.count for r in reported) == len(found)


PAGES = {"text2text-json": "text2text"}   # formats documented on another format's page


def test_the_rules_are_documented() -> None:
    """Each writer with a rule has a page saying how it writes token forms."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "formats"
    for target in WRITERS + [FASTCOREF]:
        page = docs / f"{PAGES.get(target.format, target.format)}.md"
        assert page.exists(), page
        assert re.search(r"^## Token forms", page.read_text(encoding="utf-8"), re.M), page


@pytest.mark.parametrize("target", WRITERS + [FASTCOREF], ids=lambda t: t.name)
@pytest.mark.parametrize("what", ["name", "speaker", "metadata"])
def test_line_breaks_in_names_speakers_and_metadata(target: Target, what: str) -> None:
    """A value a line format writes on a line of its own (``# newdoc id``, ``#begin
    document``, ``# speaker``, ``# meta::``) cannot hold a line break: refused, naming it, or
    written with a space and counted; where the format writes the value elsewhere (or not at
    all), the loss report still equals what is lost."""
    doc = Document("doc\n1" if what == "name" else "doc1")
    doc.add_sentence(["It", "rained", "."], speaker="A\nB" if what == "speaker" else None)
    doc.add_span(0, 0, doc.new_entity())
    if what == "metadata":
        doc.meta["title"] = "A\nB"
    rule = get(target.format).forms
    with tempfile.TemporaryDirectory() as folder:
        try:
            report, back = write_and_read(doc, target, folder)
        except LossError as refused:
            assert rule is not None and "holds a line break" in str(refused)
            assert not any(Path(folder).iterdir())
            report, back = write_and_read(doc, target, folder, forms="replace")
    assert compare(diff_documents(doc, back), report.losses) == []  # type: ignore[attr-defined]
