"""WebAnno TSV 3.x: the INCEpTION and GUM files, the round trip, escaping, the GUM comparison."""

from __future__ import annotations

import difflib
from collections import Counter
from pathlib import Path

import pytest

import corefkit
from corefkit.converters.offsets import CHARS, SUBTOKEN, TEXT
from corefkit.converters.webanno_tsv.escaping import (
    escape_text,
    escape_value,
    split_unescaped,
    unescape_text,
    unescape_value,
)
from corefkit.errors import FormatError, LossError
from corefkit.model import IDENTITY, Document
from tests.converters import gum_tsv

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
INCEPTION = CORPORA / "inception"
COREF_TSV = INCEPTION / "tsv3" / "coref.tsv"
SUITE = INCEPTION / "tsv3-suite"
CASES = ("testSimpleChain", "testMultiTokenChain", "testStackedChain", "testSubtokenChain")
REAL = [*(gum_tsv.TSV / f"{n}.tsv" for n in gum_tsv.DOCUMENTS), COREF_TSV,
        *(SUITE / c / "reference.tsv" for c in CASES)]


def read_one(path: Path | str, **options: object) -> Document:
    (doc,) = corefkit.read(str(path), **options)
    return doc


def chains(doc: Document) -> list[list[str]]:
    """Each chain's links in chain order, as their text (sub-token characters where given)."""
    text = doc.attrs[TEXT]
    found = []
    for entity in doc.entities_in(IDENTITY):
        links = []
        for m in doc.mentions_of(entity, ordered=False):
            chars = m.attrs.get(SUBTOKEN)
            links.append(text[chars[0]:chars[1]] if chars else doc.text(m))
        found.append(links)
    return found


def test_the_chain_layer_file_has_the_counts_of_its_readme() -> None:
    doc = read_one(COREF_TSV)
    assert doc.token_count == 5194 and len(doc.sentences) == 200
    assert len(doc.entities_in(IDENTITY)) == 89 and len(doc.mentions) == 651
    assert sum(1 for m in doc.mentions if len(m.tokens) > 1) == 190
    sizes = Counter(doc.size(e) for e in doc.entities)
    assert min(sizes) == 2 and max(sizes) == 163 and sizes[2] == 47
    types = Counter(m.attrs.get("referenceType") for m in doc.mentions)
    assert types == {"CM": 649, "GROUP": 2}
    relations = Counter(m.attrs.get("referenceRelation") for m in doc.mentions)
    assert relations == {"ANAPHORIC": 422, "COREFERENTIAL": 132, None: 89, "BOUND": 3,
                         "AMPLIFICATION": 2, "cataphoric": 2, "CATAPHORIC": 1}
    # the last link of every chain has no relation ('*'): the relation is to the next link
    assert all(doc.mentions_of(e, ordered=False)[-1].attrs.get("referenceRelation") is None
               for e in doc.entities)
    # a literal '_' token is a form, not an empty cell
    assert sum(1 for t in doc.tokens if t.form == "_") == 323
    assert doc.tokens[0].attrs[CHARS] == (0, 1) and doc.attrs[TEXT].startswith("_ Verhaftung")
    assert "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity" in doc.attrs["opaque_levels"]


@pytest.mark.parametrize("case, expected", [
    ("testSimpleChain", [["This", "is", "a"]]),
    ("testMultiTokenChain", [["This is", "a test"]]),
    ("testStackedChain", [["This", "is", "a"], ["a", "is", "This"]]),
    ("testSubtokenChain", [["hi", "", "es"]]),
])
def test_the_suite_chain_cases(case: str, expected: list[list[str]]) -> None:
    doc = read_one(SUITE / case / "reference.tsv")
    assert chains(doc) == expected
    assert [t.form for t in doc.tokens] == ["This", "is", "a", "test", "."]


def test_sub_tokens_are_mentions_on_their_token_with_their_characters() -> None:
    doc = read_one(SUITE / "testSubtokenChain" / "reference.tsv")
    got = [(m.tokens, m.attrs[SUBTOKEN]) for m in doc.mentions_of(doc.entities[0], ordered=False)]
    assert got == [((0,), (1, 3)), ((1,), (6, 6)), ((3,), (11, 13))]


@pytest.mark.parametrize("path", REAL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_round_trip_is_byte_stable(path: Path, tmp_path: Path) -> None:
    """Every real file written back is the same bytes, except the lines of what the reader
    repaired (GUM_vlog_college's extra empty columns; the bridges within one entity of
    GENTLE_esports_fifa and GUM_textbook_alamo)."""
    doc = read_one(path)
    out = tmp_path / "out.tsv"
    report = corefkit.write([doc], str(out), "webanno-tsv")
    assert not report.losses
    before, after = path.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
    repaired = Counter(r.check for r in doc.repairs)
    if not repaired:
        assert after == before
        return
    changed = [line for line in difflib.ndiff(before.splitlines(), after.splitlines())
               if line[:1] in "+-"]
    if "webanno-tsv.extra-columns" in repaired:
        assert len(changed) == 2 * 683   # the rows with extra columns, without them
    else:  # one relation cell less on the target row of each dropped bridge
        assert repaired == {"webanno-tsv.relation-within-entity":
                            {"GENTLE_esports_fifa": 1, "GUM_textbook_alamo": 3}[doc.id]}
        assert len(changed) == 2 * repaired["webanno-tsv.relation-within-entity"]
    assert read_one(out).token_count == doc.token_count


@pytest.mark.parametrize("name", gum_tsv.DOCUMENTS)
def test_gum_sources_give_the_release(name: str) -> None:
    """Mentions, entities, bridging and split antecedents of each GUM TSV source equal its
    CorefUD release, except the differences corpora/webanno-tsv/gum/README.md documents."""
    status = gum_tsv.compare(name)
    assert "UNEXPLAINED" not in status.values(), status


def test_gum_totals_of_the_readme() -> None:
    totals = [sum(x) for x in zip(*(gum_tsv.counts(n) for n in gum_tsv.DOCUMENTS))]
    assert totals == [12507, 6721, 277, 75]


def test_gum_attributes_and_scheme() -> None:
    doc = read_one(gum_tsv.TSV / "GUM_academic_art.tsv")
    assert doc.attrs["_coref_scheme"].name == "gum"
    first = doc.sorted_mentions()[0]
    assert doc.text(first) == "Aesthetic Appreciation"
    assert doc.entity_of(first).attrs == {"etype": "abstract"}
    assert first.attrs["infstat"] == "new" and first.attrs["salience"] == "nnnnn"
    portsmouth = next(m for m in doc.mentions if doc.text(m) == "University of Portsmouth , "
                      "United Kingdom")
    entity = doc.entity_of(portsmouth)
    assert (entity.attrs.get("identity") or portsmouth.attrs.get("identity")) == \
        "University_of_Portsmouth"
    assert doc.meta["Summary1"].startswith("(human) This paper presents")


def test_escaping_round_trips() -> None:
    for value in ["a|b", "x_y", "*", "_", "a->b", "a;b", "[1]", "tab\there", "new\nline",
                  "back\\slash", "\\->", "]["]:
        assert unescape_value(escape_value(value)) == value
    assert escape_value("a->b|c_") == "a\\->b\\|c\\_"
    assert split_unescaped("a\\|b|c", "|") == ["a\\|b", "c"]
    assert split_unescaped("a\\\\|b", "|") == ["a\\\\", "b"]
    for text in ["a\tb", "c\\d", "e\rf", "\x01"]:
        assert unescape_text(escape_text(text)) == text


def test_offsets_are_utf16_code_units(tmp_path: Path) -> None:
    """INCEpTION's guide: a character above U+FFFF counts two offsets."""
    path = tmp_path / "emoji.tsv"
    path.write_text("#FORMAT=WebAnno TSV 3.3\n"
                    "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|"
                    "referenceType|referenceRelation\n\n\n"
                    "#Text=I like it \U0001F60A .\n"
                    "1-1\t0-1\tI\t*[1]\t*->1-1\t\n1-2\t2-6\tlike\t_\t_\t\n1-3\t7-9\tit\t_\t_\t\n"
                    "1-4\t10-12\t\U0001F60A\t*[1]\t*->1-2\t\n1-5\t13-14\t.\t_\t_\t\n",
                    encoding="utf-8")
    doc = read_one(path)
    assert [t.form for t in doc.tokens] == ["I", "like", "it", "\U0001F60A", "."]
    assert doc.tokens[4].attrs[CHARS] == (12, 13)
    assert chains(doc) == [["I", "\U0001F60A"]]
    out = tmp_path / "out.tsv"
    corefkit.write([doc], str(out), "webanno-tsv")
    assert out.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("body, check, line", [
    ("#Text=a b\n1-1\t0-1\ta\t_\t_\n1-3\t2-3\tb\t_\t_\t\n", "webanno-tsv.bad-id", 7),
    ("#Text=a b\n1-1\t0-1\ta\t_\n", "webanno-tsv.bad-columns", 6),
    ("#Text=a b\n1-1\t0-9\ta\t_\t_\t\n", "webanno-tsv.bad-offsets", 6),
    ("1-1\t0-1\ta\t_\t_\t\n", "webanno-tsv.missing-text", 5),
    ("#Text=a\n1-1\t0-1\ta\tX[1]\tY\t\n", "webanno-tsv.bad-chain", 6),
])
def test_malformed_rows_are_refused_with_their_line(tmp_path: Path, body: str, check: str,
                                                    line: int) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text("#FORMAT=WebAnno TSV 3.3\n#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type."
                    "CoreferenceLink|referenceType|referenceRelation\n\n\n" + body,
                    encoding="utf-8")
    with pytest.raises(FormatError) as found:
        read_one(path)
    assert found.value.check == check and found.value.line == line


def test_a_layer_that_is_not_there_is_named(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="no chain layer webanno.custom.Nope"):
        read_one(COREF_TSV, chain_layer="webanno.custom.Nope")
    with pytest.raises(FormatError, match="no span layer"):
        read_one(COREF_TSV, coref_scheme="relation", span_layer="webanno.custom.Nope")


def test_relation_types_option_changes_meanings() -> None:
    path = gum_tsv.TSV / "GUM_academic_art.tsv"
    plain = read_one(path, coref_scheme="relation")
    assert plain.attrs["_coref_scheme"].name == "relation"
    assert len(plain.bridging()) == 12 and not plain.memberships()   # no GUM split rule
    ignored = read_one(path, relation_types="bridge=ignore")
    assert not ignored.bridging() and not ignored.memberships()
    merged = read_one(path, relation_types="bridge=coreference")
    assert len(merged.entities) < len(read_one(path).entities)


def test_an_empty_file_read_as_webanno_tsv(tmp_path: Path) -> None:
    path = tmp_path / "empty.tsv"
    path.write_bytes(b"")
    with pytest.raises(FormatError) as found:
        list(corefkit.read(str(path), format="webanno-tsv"))
    assert found.value.check == "webanno-tsv.no-header"


@pytest.mark.parametrize("fmt", ["webanno-tsv", "uima-cas"])
def test_forms_a_row_cannot_hold_are_written_with_underscores(fmt: str, tmp_path: Path) -> None:
    """Refused by default, naming the token (issue 22); with forms="replace" written '_' and
    counted as lost token forms."""
    if fmt == "uima-cas":
        pytest.importorskip("cassis")
    doc = Document("tabs")
    doc.add_sentence(["a\tb", "", "c"])
    doc.add_span(0, 2, doc.new_entity())
    out = tmp_path / ("out.tsv" if fmt == "webanno-tsv" else "out")
    with pytest.raises(LossError, match=r"sentence 1, word 1 'a\\tb'"):
        corefkit.write([doc], str(out), fmt)
    assert not out.exists()
    report = corefkit.write([doc], str(out), fmt, forms="replace")
    assert report.loss_totals()["tokens"] == 2
    (again,) = corefkit.read(str(out if fmt == "webanno-tsv" else out / "tabs.xmi"))
    assert [t.form for t in again.tokens] == ["a_b", "_", "c"]
    assert [m.tokens for m in again.mentions] == [(0, 1, 2)]


def test_validate_levels(capsys: pytest.CaptureFixture[str]) -> None:
    """Level 3 shows the relations the model cannot hold, level 2 the format's conventions,
    level 1 only what makes a file unreadable; a refused row is an error at every level."""
    from corefkit.cli.main import main

    alamo = str(gum_tsv.TSV / "GUM_textbook_alamo.tsv")
    assert main(["validate", alamo]) == 0
    out = capsys.readouterr().out
    assert out.count("webanno-tsv.relation-within-entity:") == 3 and ":361: [WARNING]" in out
    assert main(["validate", "--level", "2", alamo]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out
    vlog = str(gum_tsv.TSV / "GUM_vlog_college.tsv")
    assert main(["validate", "--level", "2", vlog]) == 0
    assert ":15: [WARNING] webanno-tsv.extra-columns: 683 rows" in capsys.readouterr().out
    assert main(["validate", "--level", "1", vlog]) == 0
    assert "0 errors, 0 warnings" in capsys.readouterr().out
    bad = str(Path(__file__).resolve().parents[1] / "fixtures" / "validation" / "webanno-tsv" /
              "bad-id.tsv")
    assert main(["validate", "--level", "1", bad]) == 1
    assert ":7: [ERROR] webanno-tsv.bad-id:" in capsys.readouterr().out
    assert main(["convert", bad, "-", "--to", "conll2012"]) == 1
    assert "bad-id.tsv:7:1: the row 1-3 should be token 2" in capsys.readouterr().err


def test_formats_lists_both_tool_formats(capsys: pytest.CaptureFixture[str]) -> None:
    from corefkit.cli.main import main

    assert main(["formats"]) == 0
    out = capsys.readouterr().out
    for name in ("webanno-tsv", "uima-cas"):
        block = out[out.index(f"\n{name} ("):].split("\n\n")[0]
        assert "holds: singletons, crossing_same_entity, cross_sentence, sub_token" in block
        assert "reading options:" in block and "--coref-scheme --chain-layer --span-layer" in block
        assert "writing options: --coref-scheme" in block
    assert "--cas-typesystem" in out


def test_cli_conversions_and_the_scheme_options(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from corefkit.cli.main import main

    art = str(gum_tsv.TSV / "GUM_academic_art.tsv")
    assert main(["convert", art, str(tmp_path / "art.conllu")]) == 0
    # --lenient: a TSV export has no syntax, its CoNLL-U has HEAD '_' (a UD error, issue 22)
    assert main(["convert", str(tmp_path / "art.conllu"), str(tmp_path / "chain.tsv"), "--to",
                 "webanno-tsv", "--lenient"]) == 0
    err = capsys.readouterr().err
    assert "8 bridging relations (dropped (the chain scheme has no bridging" in err
    assert "4 split antecedents (accommodated sets) (dropped (the chain scheme" in err
    assert main(["convert", str(tmp_path / "art.conllu"), str(tmp_path / "gum.tsv"), "--to",
                 "webanno-tsv", "--coref-scheme", "gum", "--lenient"]) == 0
    capsys.readouterr()
    back = read_one(tmp_path / "gum.tsv")
    assert len(back.bridging()) == 8 and len(back.memberships()) == 4
    assert main(["convert", art, str(tmp_path / "x.conll"), "--chain-layer", "nope"]) == 1
    assert "(webanno-tsv.scheme)" in capsys.readouterr().err
    assert main(["convert", str(tmp_path / "art.conllu"), str(tmp_path / "y.conll"),
                 "--span-layer", "x"]) == 2
    assert "--span-layer applies to" in capsys.readouterr().err


def test_a_new_document_is_written_as_the_guide_shows(tmp_path: Path) -> None:
    """INCEpTION's guide, "Chain Annotations": He shot himself with his revolver (rows end
    with a TAB, as INCEpTION writes them)."""
    doc = Document("guide")
    doc.add_sentence("He shot himself with his revolver .".split())
    chain = doc.new_entity()
    for index, relation in ((0, "coref"), (2, "coref"), (4, None)):
        attrs = {"referenceType": "pr"}
        if relation:
            attrs["referenceRelation"] = relation
        doc.add_span(index, index, chain, attrs=attrs)
    out = tmp_path / "guide.tsv"
    corefkit.write([doc], str(out), "webanno-tsv")
    assert out.read_text(encoding="utf-8") == (
        "#FORMAT=WebAnno TSV 3.3\n"
        "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|referenceType|"
        "referenceRelation\n\n\n"
        "#Text=He shot himself with his revolver .\n"
        "1-1\t0-2\tHe\tpr[1]\tcoref->1-1\t\n"
        "1-2\t3-7\tshot\t_\t_\t\n"
        "1-3\t8-15\thimself\tpr[1]\tcoref->1-2\t\n"
        "1-4\t16-20\twith\t_\t_\t\n"
        "1-5\t21-24\this\tpr[1]\t*->1-3\t\n"
        "1-6\t25-33\trevolver\t_\t_\t\n"
        "1-7\t34-35\t.\t_\t_\t\n")
