"""Pass ``dominant-mentions``: the ranking tables (Lithuanian, UD, CoNLL-2012 and the
alternatives of the literature), heads, ties, fallbacks, and the pass contract."""

from __future__ import annotations

import io
import json

import pytest

from corefkit.cli.main import main
from corefkit.converters.conll2012 import reader as conll2012
from corefkit.converters.lcc import writer as lcc
from corefkit.converters.loss import ConversionReport
from corefkit.converters.registry import read, write
from corefkit.errors import UsageError
from corefkit.model import IDENTITY, Document, Token
from corefkit.passes import get_pass
from corefkit.passes.dominant import (
    FALLBACK,
    _DocumentContext,
    available_rankings,
    choose_ranking,
    compile_ranking,
    dominant_mentions,
    load_ranking,
    mention_head,
    select_dominant,
)
from tests.conftest import CORPORA, FIXTURES

LCC = CORPORA / "lcc"
TINY = FIXTURES / "lcc" / "tiny.nkas.json"
PASS = get_pass("dominant-mentions")


def build(words: list[tuple], chains: list[list[tuple[int, int] | tuple[int, int, dict]]],
          sentence_breaks: tuple[int, ...] = ()) -> Document:
    """A document from (form, field=value...) tuples; chains of (first, last[, attrs]) spans."""
    doc = Document("test")
    tokens = []
    for item in words:
        form, fields = item[0], item[1] if len(item) > 1 else {}
        attrs = fields.pop("attrs", {}) if isinstance(fields, dict) else {}
        tokens.append(Token(form, attrs=attrs, **fields))
    start = 0
    for stop in (*sentence_breaks, len(tokens)):
        doc.add_sentence(tokens[start:stop])
        start = stop
    for chain in chains:
        entity = doc.new_entity()
        for span in chain:
            attrs = dict(span[2]) if len(span) > 2 else {}
            doc.add_span(span[0], span[1], entity, attrs=attrs)
    return doc


def chosen(doc: Document, ranking: str) -> list[tuple[str, str]]:
    """(dominant mention text, rank name) of each entity, in entity order."""
    table = load_ranking(ranking)
    context = _DocumentContext(doc, table)
    found = []
    for entity in doc.entities_in(IDENTITY):
        mention, rank = select_dominant(doc, entity, table, context)
        found.append((doc.text(mention), rank))
    return found


def lt(form: str, tag: str, lemma: str | None = None, **attrs) -> tuple:
    return (form, {"xpos": tag, "lemma": lemma or form.lower(), "attrs": dict(attrs)})


# ------------------------------------------------------------------ the tables
def test_shipped_rankings_load():
    assert available_rankings() == ["anchor", "conll2012", "first", "lithuanian", "longest", "ud"]
    for name in available_rankings():
        table = load_ranking(name)
        assert table.name == name and table.ranks
    paper = [name for name, _ in load_ranking("lithuanian").ranks]
    assert paper == ["full proper noun", "abbreviated proper noun", "partial proper noun",
                     "other noun phrase", "ellipsis"]
    assert [name for name, _ in load_ranking("ud").ranks] == paper
    assert [name for name, _ in load_ranking("conll2012").ranks] == paper


# ------------------------------------------------------------------ Lithuanian (MSD + type codes)
def test_lithuanian_ranking_on_constructed_chains():
    words = [
        lt("Prezidentė", "Ncfsnn-"), lt("Dalia", "Npfsnnf"), lt("Grybauskaitė", "Npfsnns"),  # 0-2
        lt("ji", "Pgfsnn", "jis"), lt("Komisija", "Ncfsnn-"), lt("jos", "Pgfsgn", "jis"),      # 3-5
        lt("ES", "Ya", ner="organizations"), lt("Europos", "Npfsgng", "Europa"),              # 6-7
        lt("Sąjunga", "Ncfsnn-", ner="organizations"), lt("todėl", "Rgp"), lt("–", "Th"),    # 8-10
        lt("jis", "Pgmsnn"), lt("Ukrainos", "Npfsgng", "Ukraina"), lt("Ukraina", "Npfsnng"),  # 11-13
        lt("Grybauskaitė", "Npfsnns"), lt("D.", "Ys"), lt("Grybauskaitė", "Npfsnns"),        # 14-16
        lt("Dalia", "Npfsnnf"), lt("Grybauskaitė", "Npfsnns"),                               # 17-18
    ]
    doc = build(words, [
        [(0, 0), (1, 2), (3, 3, {"lcc_type": "ppas"}), (14, 14)],    # full beats partial, noun
        [(0, 0), (4, 4, {"lcc_type": "dais"})],                       # partial (type) beats noun
        [(6, 6), (7, 8)],                                             # NER makes Sąjunga proper
        [(3, 3), (5, 5), (9, 9)],                                     # pronouns/adverb: fallback
        [(10, 10, {"lcc_type": "e-as"}), (11, 11)],                   # ellipsis beats pronoun
        [(12, 12), (13, 13, {"lcc_type": "dtis"})],                   # tie: earliest
        [(14, 14), (15, 16, {"lcc_type": "dbis"}), (0, 0)],           # abbreviated beats noun
        [(14, 14), (0, 0), (17, 18)],                                 # partial by name subset
    ])
    assert chosen(doc, "lithuanian") == [
        ("Dalia Grybauskaitė", "full proper noun"),
        ("Komisija", "partial proper noun"),
        ("Europos Sąjunga", "full proper noun"),
        ("ji", FALLBACK),
        ("–", "ellipsis"),
        ("Ukrainos", "full proper noun"),
        ("Grybauskaitė", "full proper noun"),
        # the earlier "Grybauskaitė" is a partial proper noun once "Dalia Grybauskaitė" is in
        # its chain (name lemmas a strict subset), so the later full name wins
        ("Dalia Grybauskaitė", "full proper noun"),
    ]
    alone = build(words, [[(14, 14), (0, 0)]])
    assert chosen(alone, "lithuanian") == [("Grybauskaitė", "full proper noun")]


def test_lithuanian_ranking_on_the_corpus():
    doc, = read(LCC / "116352.nkas.json")
    marked = PASS(doc)
    found = {}
    for entity in marked.entities_in(IDENTITY):
        dominant = [m for m in marked.mentions_of(entity) if m.attrs.get("dominant")]
        assert len(dominant) == 1
        found[marked.text(dominant[0])] = dominant[0].attrs["dominant"]
    assert found["Dalia Grybauskaitė"] == "full proper noun"       # not "D. Grybauskaitė"
    assert found["Europos Sąjunga"] == "full proper noun"          # not "ES"
    assert found["Viktoras Janukovyčius"] == "full proper noun"    # not "V. Janukovičiumi"
    # over the 30 documents, pronouns and adverbs are dominant only where nothing else is
    for path in sorted(LCC.glob("*.nkas.json")):
        doc = PASS(next(iter(read(path))))
        for mention in doc.mentions:
            rank = mention.attrs.get("dominant")
            if rank and rank != FALLBACK:
                assert not mention.attrs.get("lcc_type", "x").startswith(("p", "a"))
                assert doc.tokens[mention.end].xpos[0] not in "PR"


# ------------------------------------------------------------------ UD
def ud(form: str, upos: str, id_: str, head: str, lemma: str | None = None, feats: str | None = None,
       empty: bool = False) -> tuple:
    return (form, {"upos": upos, "id": id_, "head": head, "lemma": lemma or form, "feats": feats,
                   "is_empty": empty})


def test_ud_ranking_uses_the_head_of_the_tree():
    words = [
        ud("Barack", "PROPN", "1", "2"), ud("Obama", "PROPN", "2", "3"), ud("visited", "VERB", "3", "0"),
        ud("the", "DET", "4", "6"), ud("United", "PROPN", "5", "6"), ud("States", "PROPN", "6", "3"),
        ud(".", "PUNCT", "7", "3"),
        ud("The", "DET", "1", "2"), ud("president", "NOUN", "2", "3"), ud("said", "VERB", "3", "0"),
        ud("he", "PRON", "4", "5"), ud("likes", "VERB", "5", "3"), ud("U.S.", "PROPN", "6", "5"),
        ud("and", "CCONJ", "7", "8"), ud("Obama", "PROPN", "8", "6"), ud("EU", "PROPN", "9", "6", feats="Abbr=Yes"),
        ud("_", "_", "9.1", "_", empty=True),
    ]
    doc = build(words, [
        [(7, 8), (10, 10), (0, 1), (14, 14)],  # full (tree head Obama) beats partial and noun
        [(12, 12), (3, 5)],                     # capitals: U.S. is abbreviated
        [(16, 16), (10, 10)],                   # a zero outranks a pronoun
        [(15, 15), (7, 8)],                     # Abbr=Yes
    ], sentence_breaks=(7,))
    context = _DocumentContext(doc, load_ranking("ud"))
    president = next(m for m in doc.mentions if m.tokens == (7, 8))
    assert mention_head(context, president) == 8
    assert chosen(doc, "ud") == [
        ("Barack Obama", "full proper noun"),
        ("the United States", "full proper noun"),
        ("_", "ellipsis"),
        ("EU", "abbreviated proper noun"),
    ]


# ------------------------------------------------------------------ CoNLL-2012 (POS and NER columns)
ONTONOTES = """#begin document (nw/test); part 000
nw/test\t0\t0\tThe\tDT\t(TOP(S(NP(NP*\t-\t-\t-\t-\t*\t(0
nw/test\t0\t1\tpresident\tNN\t*)\t-\t-\t-\t-\t*\t-
nw/test\t0\t2\tof\tIN\t(PP*\t-\t-\t-\t-\t*\t-
nw/test\t0\t3\tFrance\tNNP\t(NP*)))\t-\t-\t-\t-\t(GPE)\t(1)|0)
nw/test\t0\t4\tmet\tVBD\t(VP*\t-\t-\t-\t-\t*\t-
nw/test\t0\t5\tEmmanuel\tNNP\t(NP*\t-\t-\t-\t-\t(PERSON*\t(0
nw/test\t0\t6\tMacron\tNNP\t*)\t-\t-\t-\t-\t*)\t0)
nw/test\t0\t7\tand\tCC\t*\t-\t-\t-\t-\t*\t-
nw/test\t0\t8\the\tPRP\t(NP*)\t-\t-\t-\t-\t*\t(0)
nw/test\t0\t9\tsaw\tVBD\t*\t-\t-\t-\t-\t*\t-
nw/test\t0\t10\tthe\tDT\t(NP*\t-\t-\t-\t-\t*\t(2
nw/test\t0\t11\told\tJJ\t*\t-\t-\t-\t-\t*\t-
nw/test\t0\t12\tman\tNN\t*\t-\t-\t-\t-\t*\t-
nw/test\t0\t13\twho\tWP\t*\t-\t-\t-\t-\t*\t-
nw/test\t0\t14\tcame\tVBD\t*)\t-\t-\t-\t-\t*\t2)
nw/test\t0\t15\t,\t,\t*\t-\t-\t-\t-\t*\t-
nw/test\t0\t16\tEU\tNNP\t*\t-\t-\t-\t-\t(ORG)\t(3)
nw/test\t0\t17\thim\tPRP\t*\t-\t-\t-\t-\t*\t(2)
nw/test\t0\t18\tthe\tDT\t*\t-\t-\t-\t-\t*\t(3
nw/test\t0\t19\tUnion\tNNP\t*\t-\t-\t-\t-\t(ORG)\t3)
nw/test\t0\t20\t.\t.\t*))\t-\t-\t-\t-\t*\t-

#end document
"""


def ontonotes() -> Document:
    doc, = conll2012.read_stream(io.BytesIO(ONTONOTES.encode()), "test.conll")
    return doc


def test_conll2012_ranking_uses_pos_and_named_entities():
    doc = ontonotes()
    assert choose_ranking(doc).name == "conll2012"
    context = _DocumentContext(doc, load_ranking("conll2012"))
    president = next(m for m in doc.mentions if m.tokens == (0, 1, 2, 3))
    assert mention_head(context, president) == 1          # "president", not "France"
    assert context.ner_label(5) == context.ner_label(6) == "PERSON"
    by_text = dict(chosen(doc, "conll2012"))
    assert by_text["Emmanuel Macron"] == "full proper noun"
    assert by_text["the old man who came"] == "other noun phrase"
    assert by_text["the Union"] == "full proper noun"      # not "EU" (capitals)
    assert ("France", "full proper noun") in chosen(doc, "conll2012")


def test_alternatives_of_the_literature():
    doc = ontonotes()
    man = [e for e in doc.entities_in(IDENTITY) if any(doc.text(m) == "him" for m in doc.mentions_of(e))]
    assert [doc.text(m) for m in doc.mentions_of(man[0])] == ["the old man who came", "him"]
    assert ("The president of France", "first mention") in chosen(doc, "first")
    assert ("The president of France", "longest mention") in chosen(doc, "longest")
    macron = [c for c in chosen(doc, "first") if c[0] in ("Emmanuel Macron", "The president of France")]
    assert macron == [("The president of France", "first mention")]
    # first nominal mention: "him" comes after "the old man who came"; a chain of pronouns only
    # falls back to its earliest mention
    pronouns = build([("he", {"xpos": "PRP"}), ("him", {"xpos": "PRP"})], [[(1, 1), (0, 0)]])
    assert chosen(pronouns, "anchor") == [("he", FALLBACK)]
    longest = build([("Al", {}), ("Al", {}), ("Smith", {})], [[(0, 0), (1, 2)]])
    assert chosen(longest, "longest") == [("Al Smith", "longest mention")]
    assert chosen(longest, "first") == [("Al", "first mention")]
    assert chosen(doc, "anchor")[2] == ("the old man who came", "first nominal mention")


def test_auto_chooses_by_annotation():
    lithuanian, = read(LCC / "116352.nkas.json")
    assert choose_ranking(lithuanian).name == "lithuanian"
    plain, = read(CORPORA / "litbank" / "105_persuasion_brat.conll")
    assert choose_ranking(plain).name in ("conll2012", "first")
    bare = build([("a", {}), ("b", {})], [[(0, 0), (1, 1)]])
    assert choose_ranking(bare).name == "first"
    tree = build([ud("He", "PRON", "1", "0")], [[(0, 0)]])
    assert choose_ranking(tree).name == "ud"


# ------------------------------------------------------------------ the pass
def test_pass_is_pure_and_marks_one_mention_per_entity():
    doc, = read(TINY)
    before = [dict(m.attrs) for m in doc.mentions]
    marked = PASS(doc)
    assert [dict(m.attrs) for m in doc.mentions] == before       # the input is untouched
    for entity in marked.entities_in(IDENTITY):
        assert sum(1 for m in marked.mentions_of(entity) if m.attrs.get("dominant")) == 1
    assert [r.check for r in marked.repairs][-1] == "pass.dominant-mentions"
    again = PASS(marked, ranking="first")                         # a second run replaces marks
    for entity in again.entities_in(IDENTITY):
        first = again.mentions_of(entity)[0]
        assert first.attrs["dominant"] == "first mention"
        assert sum(1 for m in again.mentions_of(entity) if m.attrs.get("dominant")) == 1
    assert dominant_mentions(again)[again.entities_in(IDENTITY)[0]][1] == "first mention"


def test_ranking_files_by_path_and_their_errors(tmp_path):
    custom = tmp_path / "mine.json"
    custom.write_text(json.dumps({"name": "mine", "ranks": [
        {"name": "adverb", "when": {"head": {"field": "xpos", "match": "^R"}}}]}))
    doc, = read(TINY)
    marked = PASS(doc, ranking=str(custom))
    assert {m.attrs["dominant"] for m in marked.mentions if m.attrs.get("dominant")} == {FALLBACK}
    for bad, message in [
        ({"ranks": []}, "non-empty list"),
        ({"ranks": [{"name": "x", "when": {"head": {"field": "colour", "match": "x"}}}]}, "unknown token field"),
        ({"ranks": [{"name": "x", "when": {"type": "("}}]}, "bad regular expression"),
        ({"ranks": [{"name": "x", "when": {"sometimes": True}}]}, "unknown condition"),
        ({"ranks": [{"name": "x", "when": {}}], "prefer": "latest"}, "'prefer'"),
        ({"ranks": [{"name": "x", "when": {}}], "colour": 1}, "unknown key colour"),
    ]:
        with pytest.raises(UsageError, match=message):
            compile_ranking(bad)
    with pytest.raises(UsageError, match="unknown dominant-mention ranking 'nosuch'"):
        load_ranking("nosuch")
    broken = tmp_path / "broken.json"
    broken.write_text("{\n  nope")
    with pytest.raises(UsageError, match=r"broken.json:2:3: not valid JSON: .*; a ranking file"):
        load_ranking(str(broken))


def test_cli_lists_the_pass_and_normalizes_lcc_without_loss(tmp_path, capsys):
    assert main(["passes"]) == 0
    assert "dominant-mentions:" in capsys.readouterr().out
    out = tmp_path / "tiny.nkas.json"
    code = main(["normalize", str(TINY), str(out), "--pass", "dominant-mentions:ranking=lithuanian"])
    err = capsys.readouterr().err
    assert code == 0 and "not carried over" not in err
    assert out.read_bytes() == TINY.read_bytes()   # the marks change no link


def test_generated_links_point_at_the_chosen_dominant_mention(tmp_path):
    doc = ontonotes()
    for ranking, target in (("longest", "The president of France"), ("first", "The president of France"),
                            ("conll2012", "Emmanuel Macron")):
        out = tmp_path / f"{ranking}.nkas.json"
        write([doc], out, ranking=ranking)
        obj = json.loads(out.read_text(encoding="utf-8"))
        content = obj["content"]
        links = json.loads(obj["annotationLayers"][1]["content"])["coreferences"]
        referants = {content[x["Referant"][0]:sum(x["Referant"])]: content[x["Mentions"][0][0]:sum(x["Mentions"][0])]
                     for x in links}
        assert referants["he"] == target
    # marks left by the pass win over the writer's ranking
    marked = PASS(doc, ranking="conll2012")
    with_marks, plain = io.StringIO(), io.StringIO()
    lcc.write_stream([marked], with_marks, ConversionReport(), ranking="first")
    lcc.write_stream([doc], plain, ConversionReport(), ranking="conll2012")
    assert with_marks.getvalue() == plain.getvalue()
