"""corefkit ↔ the ``conllu`` package: TokenLists parsed by ``conllu`` give the documents
corefkit reads from the file, ``to_tokenlists`` serializes to corefkit's own CorefUD output, and
Document → TokenLists → Document is the identity, on GUM and the CorefUD scorer's test files."""

from __future__ import annotations

import functools
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import corefkit
from corefkit.converters.loss import ConversionReport
from corefkit.converters.registry import get
from corefkit.errors import FormatError, UsageError
from corefkit.model import Document
from tests.conftest import CONFORMANCE, CORPORA, ROOT
from tests.converters.test_corefud import signature

conllu = pytest.importorskip("conllu")
from corefkit.interop.conllu import from_tokenlists, to_tokenlists  # noqa: E402

DEP = sorted((CORPORA / "gum" / "dep").glob("*.conllu"))
COREFUD_TESTS = sorted(p for p in (CONFORMANCE / "data/corefud-scorer/tests-corefud").rglob("TC-*")
                       if p.suffix in (".key", ".response"))
# `# newdoc id = CaiStrube10TestCase ` ends in a blank, which conllu's metadata cannot hold
TRAILING_BLANK = {"TC-O.key", "TC-O-1.response"}


def test_the_test_data_is_there():
    assert len(DEP) == 46 and len(COREFUD_TESTS) == 133


@functools.cache
def read(path: Path) -> tuple[Document, ...]:
    return tuple(corefkit.read(path, format="corefud"))


def written(docs: tuple[Document, ...] | list[Document]) -> str:
    """corefkit's own CorefUD output for the documents (one file)."""
    out = io.StringIO()
    get("corefud").writer().write_stream(list(docs), out, ConversionReport())
    return out.getvalue()


def serialized(tokenlists: list) -> str:
    return "".join(t.serialize() for t in tokenlists)


def same_documents(mine: list[Document] | tuple[Document, ...],
                   theirs: list[Document] | tuple[Document, ...]) -> None:
    """Tokens, sentences with ids, mentions with heads, entity partitions and attributes,
    split antecedents, bridging (``signature``), and the documents' names and repairs."""
    assert [(d.id, d.name, d.file) for d in theirs] == [(d.id, d.name, d.file) for d in mine]
    assert [signature(d) for d in theirs] == [signature(d) for d in mine]
    assert [[r.check for r in d.repairs] for d in theirs] == [[r.check for r in d.repairs]
                                                             for d in mine]


# ---------------------------------------------------------------------------- (1) conllu → corefkit
@pytest.mark.parametrize("path", DEP + COREFUD_TESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_conllu_parse_gives_the_documents_corefkit_reads(path: Path):
    with path.open(encoding="utf-8") as handle:
        docs = list(from_tokenlists(conllu.parse_incr(handle), str(path)))
    same_documents(read(path), docs)


# ---------------------------------------------------------------------------- (2) corefkit → conllu
@pytest.mark.parametrize("path", DEP + COREFUD_TESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_to_tokenlists_serializes_to_the_corefud_writer_output(path: Path):
    docs = read(path)
    tokenlists = to_tokenlists(docs)
    expected = written(docs)
    if path.name in TRAILING_BLANK:  # the one thing conllu normalises in these files
        assert serialized(tokenlists) != expected
        assert serialized(tokenlists).splitlines() == [line.rstrip() for line in
                                                       expected.splitlines()]
    else:
        assert serialized(tokenlists) == expected
    if path in DEP:
        assert serialized(tokenlists) == path.read_text(encoding="utf-8")  # GUM is canonical
        assert serialized(to_tokenlists(docs[0])) == expected  # one document, not a list
    sentences = [s for d in docs for s in d.sentences]
    assert [t.metadata.get("sent_id") for t in tokenlists] == [s.sent_id for s in sentences]


def test_to_tokenlists_fields():
    """Metadata, ids of words, multiword ranges and empty nodes, and coreference in MISC as
    conllu represents them (GUM_conversation_atoms has both kinds of non-word line)."""
    (doc,) = read(CORPORA / "gum/dep/GUM_conversation_atoms.conllu")
    tokenlists = to_tokenlists(doc)
    assert len(tokenlists) == len(doc.sentences)
    first = tokenlists[0].metadata
    assert first["newdoc id"] == "GUM_conversation_atoms"
    assert first["global.Entity"] == doc.attrs["corefud_declaration"]
    assert first["sent_id"] == "GUM_conversation_atoms-1" and "text" in first
    assert all("newdoc id" not in t.metadata for t in tokenlists[1:])
    ids = [token["id"] for t in tokenlists for token in t]
    assert all(isinstance(i, int) or (isinstance(i, tuple) and len(i) == 3) for i in ids)
    assert (3, "-", 4) in ids and (8, ".", 1) in ids
    sentence = tokenlists[37]
    assert sentence.metadata["sent_id"] == "GUM_conversation_atoms-38"
    empty = sentence.filter(id=(8, ".", 1))[0]
    assert (empty["upos"], empty["head"], empty["deps"]) == ("VERB", None, [("acl:relcl", 6)])
    assert sentence.filter(id=7)[0]["deps"] == [("obj", (8, ".", 1))]
    assert sentence.filter(id=4)[0]["misc"] == {"Entity": "(13-person-giv:inact-n____-cf2-1-ana)"}
    assert sentence.filter(id=14)[0]["misc"] == {"Entity": "31)", "SpaceAfter": "No"}
    assert sentence.filter(id=3)[0]["feats"]["VerbForm"] == "Fin"
    words = [token for t in tokenlists for token in t if isinstance(token["id"], int)]
    assert [w["form"] for w in words] == [t.form for t in doc.tokens if not t.is_empty]


def test_to_tokenlists_keeps_what_conllu_cuts_by_default():
    """A MISC value with '=' stays whole and a comment without '=' stays (conllu's defaults cut
    the value at the second '=' and drop the comment)."""
    text = ("# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = d-1\n"
            "# a free comment\n# text = a b\n"
            "1\ta\ta\tX\t_\t_\t0\troot\t_\tEntity=(e1-x-1-|Gloss=x=y\n"
            "2\tb\tb\tX\t_\t_\t1\tdep\t_\tEntity=e1)\n\n")
    (doc,) = get("corefud").reader().read_stream(io.BytesIO(text.encode()), "d.conllu")
    (sentence,) = to_tokenlists(doc)
    assert sentence[0]["misc"] == {"Entity": "(e1-x-1-", "Gloss": "x=y"}
    assert sentence.metadata["a free comment"] is None
    assert serialized([sentence]) == written([doc]) == text
    assert conllu.parse(text)[0][0]["misc"]["Gloss"] == "x"  # what conllu does by default


# ---------------------------------------------------------------------------- (3) round trips
@pytest.mark.parametrize("path", DEP + COREFUD_TESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_document_tokenlists_document_is_the_identity(path: Path):
    docs = read(path)
    back = list(from_tokenlists(to_tokenlists(docs), str(path)))
    same_documents(docs, back)
    if path.name not in TRAILING_BLANK:
        assert written(back) == written(docs)


def test_several_documents_split_at_newdoc():
    docs = [read(path)[0] for path in DEP[:3]]
    tokenlists = to_tokenlists(docs)
    assert sum("newdoc id" in t.metadata for t in tokenlists) == 3
    back = list(from_tokenlists(tokenlists))
    assert [d.id for d in back] == [d.id for d in docs]
    assert [signature(d) for d in back] == [signature(d) for d in docs]


def test_from_tokenlists_streams_one_document_at_a_time():
    """The TokenLists are serialized as the reader asks: the first document comes before the
    second one's TokenLists are taken."""
    docs = [read(path)[0] for path in DEP[:2]]
    tokenlists = to_tokenlists(docs)
    first_count = len(docs[0].sentences)
    taken = []

    def produce():
        for t in tokenlists:
            taken.append(t)
            yield t

    documents = from_tokenlists(produce())
    assert next(documents).id == docs[0].id
    assert len(taken) < len(tokenlists)
    assert len(taken) >= first_count
    assert next(documents).id == docs[1].id
    assert next(documents, None) is None


# ---------------------------------------------------------------------------- (4) user pipelines
def test_user_pipeline_edits_misc_and_converts_back():
    """Parse with conllu, mark a token and merge two entities by editing MISC, convert back."""
    path = CONFORMANCE / "data/corefud-scorer/tests-corefud/exact-match/TC-A.key"
    with path.open(encoding="utf-8") as handle:
        sentences = conllu.parse(handle.read())
    sentences[0][2]["misc"] = {"Checked": "Yes"}  # token 3 of the first sentence
    for sentence in sentences:
        for token in sentence:
            if token["misc"] and "Entity" in token["misc"]:
                token["misc"]["Entity"] = token["misc"]["Entity"].replace("e2", "e1")
    (doc,) = from_tokenlists(sentences, name="TC-A")
    (original,) = read(path)
    assert doc.tokens[2].misc == "Checked=Yes"
    assert [t.misc for t in doc.tokens[3:]] == [t.misc.replace("e2", "e1")
                                                for t in original.tokens[3:]]

    def chains(d: Document) -> list[list[tuple[int, ...]]]:
        return sorted(sorted(m.tokens for m in d.mentions_of(e)) for e in d.entities)

    merged = {m.tokens for m in original.mentions
              if original.entity_of(m).attrs["original_id"] in ("e1", "e2")}
    assert len(chains(doc)) == len(chains(original)) - 1
    assert merged in [set(c) for c in chains(doc)]


def test_tokenlists_built_by_hand():
    """TokenLists a tool builds itself: no newdoc (named after ``name``), declaration given."""
    tokens = [{"id": i + 1, "form": form, "lemma": "_", "upos": "_", "xpos": None,
               "feats": None, "head": 0 if i == 0 else 1, "deprel": "root" if i == 0 else "dep",
               "deps": None, "misc": misc}
              for i, (form, misc) in enumerate([("Mary", {"Entity": "(e1-person-1)"}),
                                                ("said", None),
                                                ("she", {"Entity": "(e1-person-1)"})])]
    sentence = conllu.TokenList([conllu.Token(t) for t in tokens],
                                conllu.Metadata({"sent_id": "1", "text": "Mary said she"}))
    (doc,) = from_tokenlists([sentence], name="hand", entity_fields="eid-etype-head-other")
    assert doc.id == "hand" and [t.form for t in doc.tokens] == ["Mary", "said", "she"]
    (entity,) = doc.entities
    assert [(m.tokens, m.head) for m in doc.mentions_of(entity)] == [((0,), 0), ((2,), 2)]


def test_malformed_tokenlists_are_refused_unless_lenient():
    """As corefkit.read refuses a malformed file: a word id out of sequence."""
    (doc,) = read(COREFUD_TESTS[0])
    tokenlists = to_tokenlists(doc)
    tokenlists[0][1]["id"] = 7
    with pytest.raises(FormatError, match="word-id-sequence"):
        list(from_tokenlists(tokenlists))
    (repaired,) = from_tokenlists(tokenlists, lenient=True)
    before = {r.check for r in doc.repairs}  # warnings: the etype 'x' is not CorefUD's
    assert [r.check for r in repaired.repairs if r.check not in before] == \
        ["corefud.word-id-sequence"]
    assert signature(repaired)["mentions"] == signature(doc)["mentions"]
    with pytest.raises(FormatError, match="unclosed"):  # what no reader can repair
        next(t for t in tokenlists[0] if t["misc"] is None)["misc"] = {"Entity": "(e99-x-1-"}
        list(from_tokenlists(tokenlists, lenient=True))


def test_no_tokenlists_no_documents():
    assert list(from_tokenlists([])) == []


# ---------------------------------------------------------------------------- import on demand
def test_corefkit_does_not_import_conllu_at_module_load():
    code = ("import sys, corefkit, corefkit.interop.conllu, corefkit.converters.registry; "
            f"docs = list(corefkit.read({str(DEP[0])!r})); "
            "corefkit.write(docs, '-', 'corefud'); "
            "print('conllu' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stderr.strip() == "False"


def test_missing_conllu_is_a_usage_error(monkeypatch: pytest.MonkeyPatch):
    (doc,) = read(COREFUD_TESTS[0])
    monkeypatch.setitem(sys.modules, "conllu", None)  # `import conllu` raises ImportError
    with pytest.raises(UsageError, match="pip install conllu"):
        to_tokenlists(doc)
    with pytest.raises(UsageError, match="pip install conllu"):
        from_tokenlists([])


def test_readme_example_runs(monkeypatch: pytest.MonkeyPatch):
    """The documentation's bridge example (a ``py`` block of docs/guides/
    build-and-check-a-corpus.md) on a GUM file."""
    readme = (ROOT / "docs" / "guides" / "build-and-check-a-corpus.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```py\n(.*?)```", readme, flags=re.DOTALL)
                if "corefkit.interop.conllu" in b]
    assert len(block.strip().splitlines()) == 5
    path = DEP[0]
    monkeypatch.chdir(path.parent)
    namespace: dict = {}
    exec(compile(block.replace("doc.conllu", path.name), "build-and-check-a-corpus.md", "exec"),
         namespace)
    same_documents(list(corefkit.read(path.name)), namespace["docs"])
    assert serialized(namespace["sentences"]) == path.read_text(encoding="utf-8")


def test_a_form_conllu_cannot_hold_is_refused_naming_the_token():
    """Issue 22: a bare newline in FORM broke the line into two; it is refused like
    ``corefkit.write`` refuses it."""
    from corefkit.errors import LossError

    doc = Document("nl")
    doc.add_sentence(["a", "\n", "b"])
    with pytest.raises(LossError, match=r"document 'nl', sentence 1, word 2 '\\n'"):
        to_tokenlists(doc)
