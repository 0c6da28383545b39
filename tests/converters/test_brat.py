"""brat standoff: LitBank's brat release against its CoNLL release (all 10 documents), the
tokenisation rule and the token companion, round trips, the writer's folder and the CLI."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.brat.reader import RELATIONS
from corefkit.converters.offsets import Misaligned, align, tokenize
from corefkit.errors import FormatError, UsageError
from corefkit.model import IDENTITY, Document
from tests.conftest import CORPORA

BRAT = CORPORA / "litbank-brat"
CONLL = CORPORA / "litbank"
STEMS = sorted(p.stem for p in BRAT.glob("*.ann"))
# litbank-brat/README.md: type-layer T, entity-layer T, chains, attribute-only, cop, appos
TABLE = {
    "105_persuasion_brat": (286, 272, 58, 14, 9, 5),
    "1064_the_masque_of_the_red_death_brat": (131, 130, 44, 1, 1, 0),
    "1400_great_expectations_brat": (354, 345, 38, 9, 7, 3),
    "1661_the_adventures_of_sherlock_holmes_brat": (287, 283, 49, 4, 4, 0),
    "2891_howards_end_brat": (332, 325, 88, 7, 5, 2),
    "4300_ulysses_brat": (361, 359, 64, 2, 1, 1),
    "541_the_age_of_innocence_brat": (231, 227, 83, 4, 2, 2),
    "78_tarzan_of_the_apes_brat": (317, 304, 82, 13, 7, 6),
    "8867_the_magnificent_ambersons_brat": (233, 230, 124, 3, 2, 1),
    "940_the_last_of_the_mohicans_a_narrative_of_1757_brat": (311, 307, 195, 4, 2, 2),
}


def partition(doc: Document) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(m.span for m in doc.mentions_of(e)) for e in doc.entities_in(IDENTITY)}


def one(path: Path | str, **options: object) -> Document:
    [doc] = corefkit.read(str(path), **options)
    return doc


def documented_1400(conll: set[frozenset[tuple[int, int]]]) -> set[frozenset[tuple[int, int]]]:
    """The CoNLL partition of 1400 with the difference litbank-brat/README.md documents undone:
    the copular predicates 405-406 and 2002-2003 out of their subjects' chains (attribute-only
    mentions in brat), 347-348 and 451-452 into the chains their brat labels name."""
    moved_out = {(405, 406), (2002, 2003)}
    moved_in = {(347, 348): (340, 345), (451, 452): (300, 301)}
    result = []
    for chain in conll:
        kept = set(chain) - moved_out - set(moved_in)
        if kept:
            result.append(kept)
    result += [{span} for span in moved_out]
    for span, host in moved_in.items():
        next(c for c in result if host in c).add(span)
    return {frozenset(c) for c in result}


@pytest.mark.parametrize("stem", STEMS)
def test_litbank_brat_reads_as_its_conll_release(stem: str) -> None:
    brat, conll = one(BRAT / f"{stem}.ann"), one(CONLL / f"{stem}.conll")
    assert brat.id == conll.id == stem
    assert [t.form for t in brat.tokens] == [t.form for t in conll.tokens]
    assert [(s.start, s.stop) for s in brat.sentences] == [(s.start, s.stop) for s in conll.sentences]
    if stem == "1400_great_expectations_brat":
        assert partition(brat) != partition(conll)
        assert partition(brat) == documented_1400(partition(conll))
    else:
        assert partition(brat) == partition(conll)


@pytest.mark.parametrize("stem", STEMS)
def test_litbank_counts_of_the_readme(stem: str) -> None:
    type_layer, _, chains, attribute_only, cop, appos = TABLE[stem]
    doc = one(BRAT / f"{stem}.ann")
    assert len(doc.mentions) == type_layer
    unlabelled = [e for e in doc.entities if e.attrs.get("_brat_unlabelled")]
    assert (len(doc.entities) - len(unlabelled), len(unlabelled)) == (chains, attribute_only)
    relations = Counter(r["type"] for r in doc.attrs.get(RELATIONS, []))
    repeated = Counter("cop" for r in doc.repairs if r.check == "brat.duplicate-relation")
    assert relations + repeated == Counter({"cop": cop, "appos": appos}) - Counter()
    assert all(m.attrs["mention_type"] in ("PROP", "NOM", "PRON") for m in doc.mentions)


def test_token_companion_gives_the_conll_tokens() -> None:
    docs = {d.id: d for d in corefkit.read(str(BRAT), brat_tokens=str(CONLL))}
    assert sorted(docs) == STEMS
    for stem in STEMS:
        plain = one(BRAT / f"{stem}.ann")
        assert [t.form for t in docs[stem].tokens] == [t.form for t in plain.tokens]
        assert partition(docs[stem]) == partition(plain)
        assert not docs[stem].repairs or stem == "1400_great_expectations_brat"
    # a single companion file serves the document of its name
    doc = one(BRAT / f"{STEMS[0]}.ann", brat_tokens=str(CONLL / f"{STEMS[0]}.conll"))
    assert partition(doc) == partition(one(CONLL / f"{STEMS[0]}.conll"))


def test_conll_to_brat_writes_litbanks_text_and_reads_back(tmp_path: Path) -> None:
    report = corefkit.convert(str(CONLL), str(tmp_path / "brat"), output_format="brat").report
    assert report.documents == 10 and not report.losses
    for stem in STEMS:
        assert (tmp_path / "brat" / f"{stem}.txt").read_bytes() == (BRAT / f"{stem}.txt").read_bytes()
        assert partition(one(tmp_path / "brat" / f"{stem}.ann")) == partition(
            one(CONLL / f"{stem}.conll"))
    corefkit.convert(str(tmp_path / "brat"), str(tmp_path / "conll"), output_format="conll2012")
    for stem in STEMS:
        assert partition(one(tmp_path / "conll" / f"{stem}.conll")) == partition(
            one(CONLL / f"{stem}.conll"))


def annotations(path: Path) -> tuple[Counter, set, set]:
    """(type, offsets) of the type layer; chains as sets of offsets; relations by offsets."""
    types: Counter = Counter()
    chains: dict[str, set[str]] = {}
    by_id: dict[str, str] = {}
    relations = set()
    lines = [line.split("\t")[:2] for line in path.read_text(encoding="utf-8").splitlines()]
    for ident, body in lines:
        if ident.startswith("T"):
            kind, offsets = body.split(" ", 1)
            by_id[ident] = offsets
            if re.search(r"-\d+$", kind):
                chains.setdefault(kind, set()).add(offsets)
            else:
                types[(kind, offsets)] += 1
    for ident, body in lines:
        if ident.startswith("R"):
            kind, *args = body.split(" ")
            relations.add((kind, *(a.split(":")[0] + ":" + by_id[a.split(":")[1]] for a in args)))
    return types, {frozenset(c) for c in chains.values()}, relations


def test_brat_to_brat_is_stable(tmp_path: Path) -> None:
    corefkit.convert(str(BRAT), str(tmp_path / "one"), output_format="brat", lenient=True)
    corefkit.convert(str(tmp_path / "one"), str(tmp_path / "two"), output_format="brat")
    first = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert first == sorted(p.name for p in (tmp_path / "two").iterdir())
    assert len(first) == 21 and "annotation.conf" in first
    for name in first:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    for stem in STEMS:
        assert (tmp_path / "one" / f"{stem}.txt").read_bytes() == (BRAT / f"{stem}.txt").read_bytes()
        assert annotations(tmp_path / "one" / f"{stem}.ann") == annotations(BRAT / f"{stem}.ann")


def test_annotation_conf_declares_what_was_written(tmp_path: Path) -> None:
    corefkit.convert(str(BRAT / f"{STEMS[2]}.ann"), str(tmp_path / "out"), output_format="brat",
                     lenient=True)
    conf = (tmp_path / "out" / "annotation.conf").read_text(encoding="utf-8").splitlines()
    assert conf[0].startswith("# written by corefkit")
    entities = conf[conf.index("[entities]") + 1:conf.index("[relations]")]
    assert "PRON_PER" in entities and "Pip-1" in entities
    relations = conf[conf.index("[relations]") + 1:conf.index("[events]")]
    assert relations == ["appos\tArg1:<ENTITY>, Arg2:<ENTITY>", "cop\tArg1:<ENTITY>, Arg2:<ENTITY>",
                         "<OVERLAP>\tArg1:<ENTITY>, Arg2:<ENTITY>, <OVL-TYPE>:<ANY>"]
    # an earlier output is replaced; a folder with other files is not touched
    corefkit.convert(str(CONLL / f"{STEMS[0]}.conll"), str(tmp_path / "out"), output_format="brat")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        f"{STEMS[0]}.ann", f"{STEMS[0]}.txt", "annotation.conf"]
    (tmp_path / "out" / "notes.md").write_text("mine")
    with pytest.raises(corefkit.errors.CorefkitError, match="did not write"):
        corefkit.convert(str(CONLL / f"{STEMS[0]}.conll"), str(tmp_path / "out"),
                         output_format="brat")


def write_pair(folder: Path, name: str, text: str, ann: str) -> Path:
    (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / f"{name}.ann").write_text(ann, encoding="utf-8")
    return folder / f"{name}.ann"


def test_tokens_are_cut_at_mention_boundaries(tmp_path: Path) -> None:
    text = "Sony formed a joint venture with Ericsson, a company.\nSony announced it.\n"
    ann = ("T1\tORG 0 4\tSony\nT2\tORG 33 41\tEricsson\nT3\tORG 43 52\ta company\n"
           "T4\tORG 54 58\tSony\nT5\tORG 69 71\tit\n*\tCoref T1 T4 T5\nR1\tappos Arg1:T3 Arg2:T2\n"
           "A1\tNegated T5\nN1\tReference T2 Wikipedia:Ericsson\tEricsson\n#1\tAnnotatorNotes T1\tfirm\n")
    doc = one(write_pair(tmp_path, "sony", text, ann))
    assert [[t.form for t in doc.tokens[s.start:s.stop]] for s in doc.sentences] == [
        ["Sony", "formed", "a", "joint", "venture", "with", "Ericsson", ",", "a", "company", "."],
        ["Sony", "announced", "it", "."]]
    assert sorted(sorted(doc.text(m) for m in chain) for chain in doc.chains()) == [
        ["Ericsson"], ["Sony", "Sony", "it"], ["a company"]]
    attrs = {doc.text(m): m.attrs for m in reversed(doc.mentions)}
    assert attrs["it"] == {"brat_type": "ORG", "Negated": "true"}
    assert attrs["Ericsson"]["norm"] == "Wikipedia:Ericsson" and attrs["Sony"]["note"] == "firm"
    assert [r["type"] for r in doc.attrs[RELATIONS]] == ["appos"]
    assert tokenize("a  b\r\n\ncd", cuts=[8]) == [[(0, 1), (3, 4)], [(7, 8), (8, 9)]]


def test_discontinuous_spans_round_trip(tmp_path: Path) -> None:
    text = "the cat and the dog\n"
    ann = "T1\tNOM_PER 0 3;12 19\tthe the dog\nT2\tdogs-0 0 3;12 19\tthe the dog\n"
    doc = one(write_pair(tmp_path, "gap", text, ann))
    [mention] = doc.mentions
    assert mention.tokens == (0, 3, 4) and not mention.is_contiguous
    corefkit.write([doc], str(tmp_path / "out"), format="brat")
    assert (tmp_path / "out" / "gap.ann").read_text() == ann


def test_companion_snaps_and_must_fit(tmp_path: Path) -> None:
    ann = write_pair(tmp_path, "d", "John's dog barked .\n", "T1\tPROP_PER 0 4\tJohn\n")
    companion = tmp_path / "c.conll"
    companion.write_text("#begin document (d); part 0\nd\t0\t0\tJohn's\t-\nd\t0\t1\tdog\t-\n"
                         "d\t0\t2\tbarked\t-\nd\t0\t3\t.\t-\n\n#end document\n")
    doc = one(ann, brat_tokens=str(companion))
    assert [doc.text(m) for m in doc.mentions] == ["John's"]
    assert [r.check for r in doc.repairs] == ["brat.snapped-span"]
    companion.write_text(companion.read_text().replace("barked", "sat"))
    with pytest.raises(FormatError) as failure:
        one(ann, brat_tokens=str(companion))
    assert failure.value.check == "brat.companion-mismatch" and failure.value.line == 1
    assert align("a (b)", [["a", "-LRB-", "b", "-RRB-"]]) == [[(0, 1), (2, 3), (3, 4), (4, 5)]]
    with pytest.raises(Misaligned):
        align("a b c", [["a", "b"]])


def test_offsets_counted_as_bytes_are_refused(tmp_path: Path) -> None:
    text = "“Yes,” said Mary to her friend.\n"
    good = write_pair(tmp_path, "good", text, "T1\tPROP_PER 12 16\tMary\n")
    assert [doc.text(m) for doc in corefkit.read(str(good)) for m in doc.mentions] == ["Mary"]
    bad = write_pair(tmp_path, "bad", text, "T1\tPROP_PER 16 20\tMary\n")
    with pytest.raises(FormatError) as failure:
        one(bad)
    assert failure.value.check == "brat.text-mismatch" and failure.value.line == 1


def test_writer_labels_types_and_losses(tmp_path: Path) -> None:
    doc = Document("news/mary")
    doc.add_sentence(["Mary", "saw", "her", "sister", "."])
    mary = doc.new_entity()
    doc.add_span(0, 0, mary, attrs={"mention_type": "PROP", "entity_type": "PER"})
    doc.add_span(2, 2, mary, attrs={"mention_type": "PRON"})
    doc.add_span(2, 3, attrs={"salience": "low"})  # no entity
    report = corefkit.write([doc], str(tmp_path / "out"), format="brat")
    assert (tmp_path / "out" / "news_mary.txt").read_text() == "Mary saw her sister .\n"
    assert (tmp_path / "out" / "news_mary.ann").read_text() == (
        "T1\tPROP_PER 0 4\tMary\nT2\tMary-0 0 4\tMary\nT3\tMention 9 19\ther sister\n"
        "T4\tPRON 9 12\ther\nT5\tMary-0 9 12\ther\n")
    # the name brat gives the document is its file's: a loss (issue 22), no longer a warning
    assert {(r.feature, r.action.split(" (")[0]) for r in report.losses} == {
        ("unlinked_mentions", "approximated"), ("mention_attributes", "dropped"),
        ("names", "changed")}
    assert report.repairs == []
    back = one(tmp_path / "out" / "news_mary.ann")
    assert sorted(len(c) for c in back.chains()) == [1, 2]


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["convert", str(BRAT), str(tmp_path / "conll"), "--to", "conll2012"]) == 0
    err = capsys.readouterr().err
    assert "brat.duplicate-relation" in err and "wrote 10 documents to 10 files" in err
    assert main(["convert", str(BRAT / f"{STEMS[0]}.ann"), str(tmp_path / "x.conll"),
                 "--brat-tokens", str(CONLL)]) == 0
    capsys.readouterr()
    assert main(["convert", str(CONLL), str(tmp_path / "y"), "--brat-tokens", str(CONLL)]) == 2
    assert "--brat-tokens applies to brat input only" in capsys.readouterr().err
    (tmp_path / "lone.ann").write_text("T1\tX 0 1\ta\n")
    assert main(["convert", str(tmp_path / "lone.ann"), str(tmp_path / "z.conll")]) == 1
    assert "(brat.missing-text)" in capsys.readouterr().err
    assert main(["validate", str(BRAT)]) == 0
    assert "10 documents: 0 errors, 1 warning" in capsys.readouterr().out


def test_formats_listing_knows_brat() -> None:
    from corefkit.converters.registry import get, guess_format

    assert get("brat-standoff").name == "brat"
    assert guess_format(str(BRAT / f"{STEMS[0]}.ann")) == "brat"
    with pytest.raises(UsageError):
        corefkit.write([], "-", format="brat")
