"""MMAX2 writer: read -> write -> read gives the same model for every shared document, the
output is a complete project, relations are placed as the level map says, writes are atomic."""

from __future__ import annotations

import filecmp
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from lxml import etree

import corefkit
from corefkit.converters.mmax2 import writer as mmax2_writer
from corefkit.converters.mmax2 import spec as mmax2_spec
from corefkit.converters.loss import ID_ATTRIBUTES
from corefkit.errors import CorefkitError, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Token
from tests.conftest import CORPORA, FIXTURES

MMAX = CORPORA / "mmax2"
ARRAU = FIXTURES / "mmax2" / "arrau"
POINTERS = FIXTURES / "mmax2" / "pointer-chains"
POINTER_MAP = str(POINTERS / "pointer-map.json")


def signature(doc: Document, *, ignore: frozenset[str] = frozenset()) -> dict:
    """Everything the model holds, with markable and set ids replaced by what they denote.

    Kept pointer attributes are compared as the token spans of their targets; ``ignore``
    leaves out attributes (for conversions that rename levels).
    """
    pointers = set(doc.attrs.get("mmax_pointers") or ())
    spans: dict[tuple[str, str], tuple[int, ...]] = {}
    for m in doc.mentions:
        spans[(str(m.attrs.get("mmax_level", "")).lower(), m.attrs.get("markable_id"))] = m.tokens
    for level, items in (doc.attrs.get("opaque_levels") or {}).items():
        for mid, tokens, _ in items:
            spans[(level.lower(), mid)] = tokens

    def attrs(values: dict, level: str) -> tuple:
        out = {}
        for key, value in values.items():
            key = key.lower()
            if key in ID_ATTRIBUTES or key in ignore:
                continue
            if key in pointers:
                targets = []
                for piece in value.split(";"):
                    lvl, sep, mid = piece.partition(":")
                    target = (lvl.lower(), mid) if sep else (level.lower(), piece)
                    targets.append(str(spans.get(target, piece)))
                value = tuple(sorted(targets))
            out[key] = value
        return tuple(sorted(out.items()))

    def mention(m) -> tuple:
        return (m.tokens, m.layer, m.nonref, m.min_tokens, m.head,
                attrs(m.attrs, str(m.attrs.get("mmax_level", ""))))

    def entity(e) -> tuple:
        return (e.layer, e.pseudo, tuple(sorted(mention(m) for m in doc.mentions_of(e))),
                tuple(sorted((k, v) for k, v in e.attrs.items() if k not in ID_ATTRIBUTES)))

    return {
        "tokens": [(t.form, tuple(sorted(t.attrs.items()))) for t in doc.tokens],
        "sentences": [(s.start, s.stop, attrs(s.attrs, "")) for s in doc.sentences],
        "mentions": Counter(mention(m) for m in doc.mentions),
        "entities": Counter(entity(e) for e in doc.entities),
        "unlinked": Counter(mention(m) for m in doc.mentions if doc.entity_of(m) is None),
        "sets": Counter((entity(s.member), entity(s.set_entity),
                         frozenset(mention(x) for x in s.evidence)) for s in doc.memberships()),
        "bridging": Counter((mention(b.anaphor), entity(b.anchor), b.relation,
                             mention(b.anchor_mention) if b.anchor_mention else None)
                            for b in doc.bridging()),
        "opaque": {level: Counter((tokens, attrs(a, level)) for _, tokens, a in items)
                   for level, items in (doc.attrs.get("opaque_levels") or {}).items()},
    }


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def shared_round_trip(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("mmax2-round-trip")
    first = {d.id: d for d in corefkit.read(str(MMAX))}
    report = corefkit.write(list(first.values()), str(base / "once"), "mmax2")
    second = {d.id: d for d in corefkit.read(str(base / "once"))}
    corefkit.write(list(second.values()), str(base / "twice"), "mmax2")
    return {"first": first, "second": second, "report": report, "base": base}


# ---------------------------------------------------------------------------- round trips
@pytest.mark.parametrize("name", [
    "002_htc_abn", "C02-1001", "C02-1007", "C02-1016", "D07-1002", "D07-1020", "D07-1031",
    "D07-1080", "D07-1123", "P08-1027", "P08-1082", "P08-1085", "P08-1102"])
def test_shared_documents_round_trip(shared_round_trip: dict, name: str) -> None:
    first, second = shared_round_trip["first"][name], shared_round_trip["second"][name]
    assert signature(first) == signature(second)
    assert second.id == first.id


def test_second_write_is_byte_identical(shared_round_trip: dict) -> None:
    base = shared_round_trip["base"]
    once, twice = tree_bytes(base / "once"), tree_bytes(base / "twice")
    # per project: .mmax, words, two levels; shared: common paths, 2 DTDs, 2 schemes,
    # 2 customizations, 1 style
    assert len(once) == 13 * 4 + 8
    assert once == twice
    report = shared_round_trip["report"]
    assert report.documents == 13 and report.losses == [] and report.repairs == []
    # ids are renumbered and the report says how
    assert report.id_maps["002_htc_abn"]["coref:markable_34"] == "coref:markable_3"


def test_spans_come_back_as_unions(shared_round_trip: dict) -> None:
    text = (shared_round_trip["base"] / "once" / "Markables" /
            "D07-1020_coref_level.xml").read_text(encoding="utf-8")
    assert 'span="word_1195..word_1199"' in text
    assert "word_1197\"" not in text
    text = (shared_round_trip["base"] / "once" / "Markables" /
            "C02-1016_coref_level.xml").read_text(encoding="utf-8")
    assert 'span="word_471,word_1803..word_1810"' in text


def test_sentences_are_written_as_ranges(shared_round_trip: dict) -> None:
    """A sentence of three or more words is one range word_a..word_b, as every MMAX2 reader
    expects (it was written as its first and last word only: "word_1,word_29")."""
    markables = shared_round_trip["base"] / "once" / "Markables"
    for name, doc in shared_round_trip["first"].items():
        xml = etree.parse(str(markables / f"{name}_sentence_level.xml")).getroot()
        spans = [m.get("span") for m in xml]
        assert len(spans) == len(doc.sentences)
        assert all("," not in span for span in spans), name
        assert all(".." in span for span, sentence in zip(spans, doc.sentences)
                   if len(sentence) > 1), name
    [doc] = [d for d in shared_round_trip["second"].values() if d.id == "D07-1020"]
    assert not [r for r in doc.repairs if r.check == "mmax2.sentence-with-gap"]


def test_a_sentence_with_a_gap_is_reported(tmp_path: Path) -> None:
    [doc] = corefkit.read(str(FIXTURES / "validation/mmax2/sentence-with-gap"))
    assert [r.check for r in doc.repairs] == ["mmax2.sentence-with-gap"]
    assert len(doc.sentences[0]) == 5  # read from its first to its last word


def test_written_project_is_complete(shared_round_trip: dict) -> None:
    """Everything MMAX2 needs to open each project is there and consistent."""
    out = shared_round_trip["base"] / "once"
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
    common = etree.parse(str(out / "common_paths.xml"), parser).getroot()
    assert [common.findtext(t) for t in ("basedata_path", "scheme_path", "style_path",
                                         "customization_path", "markable_path")] == [
        "Basedata/", "Schemes/", "Styles/", "Customizations/", "Markables/"]
    levels = [(lv.get("name"), lv.get("schemefile"), lv.get("customization_file"), lv.text)
              for lv in common.iter("level")]
    assert levels == [
        ("coref", "coref_scheme.xml", "coref_customization.xml", "$_coref_level.xml"),
        ("sentence", "sentence_scheme.xml", "sentence_customization.xml",
         "$_sentence_level.xml")]
    (stylesheet,) = [s.text for s in common.iter("stylesheet")]
    style = etree.parse(str(out / "Styles" / stylesheet), parser).getroot()
    assert style.tag == "{http://www.w3.org/1999/XSL/Transform}stylesheet"
    words_dtd = etree.DTD(str(out / "Basedata" / "words.dtd"))
    # like MMAX2's own, the markables DTD declares only the id (markable attributes are free)
    assert "<!ATTLIST markable id ID #REQUIRED>" in (out / "Markables" / "markables.dtd"
                                                     ).read_text(encoding="utf-8")
    schemes = {}
    for name, scheme, customization, _ in levels:
        root = etree.parse(str(out / "Schemes" / scheme), parser).getroot()
        schemes[name] = {a.get("name"): a.get("type") for a in root.iter("attribute")}
        assert (out / "Customizations" / customization).is_file()
    assert schemes["coref"]["coref_class"] == "markable_set"
    assert schemes["coref"]["related_phrase"] == "markable_pointer"
    for project in sorted(out.glob("*.mmax")):
        base = project.stem
        words_file = etree.parse(str(project), parser).getroot().findtext("words")
        words = etree.parse(str(out / "Basedata" / words_file), parser)
        assert words_dtd.validate(words), words_dtd.error_log
        ids = [w.get("id") for w in words.getroot()]
        assert ids == [f"word_{i}" for i in range(1, len(ids) + 1)]
        for name, *_ in levels:
            tree = etree.parse(str(out / "Markables" / f"{base}_{name}_level.xml"), parser)
            root = tree.getroot()
            assert root.tag == f"{{www.eml.org/NameSpaces/{name}}}markables"
            for n, markable in enumerate(root, 1):
                keys = list(markable.keys())
                assert keys[:3] == ["id", "span", "mmax_level"]
                assert keys[3:] == sorted(keys[3:]) and all(k == k.lower() for k in keys)
                assert markable.get("id") == f"markable_{n}"
                assert markable.get("mmax_level") == name
                for key in keys[3:]:
                    assert key in schemes[name], (name, key)
                assert markable.tag == f"{{www.eml.org/NameSpaces/{name}}}markable"
                assert len(markable) == 0


def test_arrau_fixture_round_trip(tmp_path: Path) -> None:
    doc = next(corefkit.read(str(ARRAU), level_map="arrau"))
    report = corefkit.write([doc], str(tmp_path / "a"), "mmax2", level_map="arrau")
    assert report.losses == []
    back = next(corefkit.read(str(tmp_path / "a"), level_map="arrau"))
    assert signature(back) == signature(doc)
    phrase = (tmp_path / "a" / "Markables" / "trip_phrase_level.xml").read_text(encoding="utf-8")
    # the kept pointer of "there" follows its target's new id
    paris = next(m for m in back.mentions if back.text(m) == "Paris")
    there = next(m for m in back.mentions if back.text(m) == "there")
    assert there.attrs["single_phrase_antecedent"] == paris.attrs["markable_id"]
    assert 'ref_type="segment" reference="old" segment_antecedent="unit:markable_2"' in phrase
    assert 'multiple_phrase_antecedents="markable_1;markable_2"' in phrase
    unit = (tmp_path / "a" / "Markables" / "trip_unit_level.xml").read_text(encoding="utf-8")
    assert unit.count("<markable ") == 3


def test_arrau_fixture_through_the_generic_map(tmp_path: Path) -> None:
    """Written with the canonical names (coref level, coref_class), read back the same apart
    from the level names the markables carry."""
    doc = next(corefkit.read(str(ARRAU), level_map="arrau"))
    corefkit.write([doc], str(tmp_path / "g"), "mmax2")
    back = next(corefkit.read(str(tmp_path / "g")))
    assert (tmp_path / "g" / "Markables" / "trip_coref_level.xml").is_file()
    ignore = frozenset({"mmax_level"})
    assert signature(back, ignore=ignore) == signature(doc, ignore=ignore)


def test_pointer_chains_round_trip(tmp_path: Path) -> None:
    doc = next(corefkit.read(str(POINTERS), level_map=POINTER_MAP))
    corefkit.write([doc], str(tmp_path / "p"), "mmax2", level_map=POINTER_MAP)
    coref = (tmp_path / "p" / "Markables" / "report_coref_level.xml").read_text(encoding="utf-8")
    # chains written as pointers to the previous mention; a kept non-identity ref renumbered
    assert 'ref="markable_1" type="ident"' in coref
    assert 'ref="markable_5" type="pred"' in coref
    assert "coref_class" not in coref
    words = (tmp_path / "p" / "Basedata" / "report_words.xml").read_text(encoding="utf-8")
    assert '<word id="w01_58063350001" pos="x">De</word>' in words   # ids and attributes kept
    back = next(corefkit.read(str(tmp_path / "p"), level_map=POINTER_MAP))
    assert signature(back) == signature(doc)


# ---------------------------------------------------------------------------- other sources
def constructed() -> Document:
    """A document as another format's reader could give it (no MMAX2 bookkeeping)."""
    doc = Document("light_train/episode 1", "2")
    doc.meta["title"] = "constructed"
    doc.add_sentence(["Ann", "and", "Bob", "met", "."])                         # 0-4
    doc.add_sentence(["They", "said", Token("_", is_empty=True), "it", "rains", "."])  # 5-10
    ann = doc.new_entity(attrs={"etype": "person"})
    bob = doc.new_entity()
    they = doc.new_entity()
    doc.add_mention([0], ann, head=0, min_tokens=(0,),
                    attrs={"SemType": "person", "score": 0.5, "tags": ["x"]})
    doc.add_mention([2], bob, min_tokens=(2,), min_derived=True)
    doc.add_mention([7], ann)                                         # a zero mention
    doc.add_mention([0, 2], they)                                     # discontinuous
    doc.add_mention([5], they)
    doc.add_to_set(ann, they)
    doc.add_to_set(bob, they)
    doc.add_mention([8], nonref="expletive")
    rains = doc.add_mention([9], doc.new_entity())
    doc.add_bridging(rains, bob, relation="other")
    dd = doc.new_entity(layer=DISCOURSE_DEIXIS)
    doc.add_mention(range(0, 5), dd)
    doc.add_mention([6], dd)
    return doc


def test_document_from_another_format(tmp_path: Path) -> None:
    report = corefkit.write([constructed()], str(tmp_path / "c"), "mmax2")
    totals = report.loss_totals()
    # the part is kept (the project file's part attribute), so it is no loss; the empty node
    # under the zero is (issue 22: nodes are counted, not only the mentions on them)
    assert totals == {"empty_nodes": 1, "zeros": 1, "heads": 1, "entity_attributes": 1,
                      "metadata": 1}
    assert sorted(r.check for r in report.repairs) == [
        "mmax2.attribute-not-text", "mmax2.attribute-renamed"]
    assert os.listdir(tmp_path / "c" / "Basedata")[0].startswith("light_train_episode_1_part_2")
    doc = next(corefkit.read(str(tmp_path / "c")))
    # the project file is named for the file system; the document keeps its name and part
    assert (doc.id, doc.part) == (constructed().id, constructed().part)
    assert [t.form for t in doc.tokens] == ["Ann", "and", "Bob", "met", ".", "They", "said",
                                            "it", "rains", "."]
    chains = sorted(sorted(m.tokens for m in c) for c in doc.chains(IDENTITY))
    assert chains == [[(0,)], [(0, 2), (5,)], [(2,)], [(8,)]]
    ann = next(m for m in doc.mentions if m.tokens == (0,))
    assert ann.attrs == {"markable_id": ann.attrs["markable_id"], "mmax_level": "coref",
                         "semtype": "person", "score": "0.5"}
    assert ann.min_tokens == (0,) and ann.head is None
    assert next(m for m in doc.mentions if m.tokens == (2,)).min_tokens is None  # derived
    (it,) = doc.non_referring()
    assert it.tokens == (7,) and it.nonref == "expletive"
    sets = {tuple(doc.mentions_of(ms.set_entity)[0].tokens):
            sorted(doc.mentions_of(m)[0].tokens for m in doc.members(ms.set_entity))
            for ms in doc.memberships()}
    assert sets == {(0, 2): [(0,), (2,)]}
    (bridge,) = doc.bridging()
    assert bridge.anaphor.tokens == (8,) and bridge.anchor_mention.tokens == (2,)
    assert bridge.relation == "other"
    (dd,) = doc.entities_in(DISCOURSE_DEIXIS)
    assert [(m.tokens, m.attrs["mmax_level"]) for m in doc.mentions_of(dd)] == [
        ((0, 1, 2, 3, 4), "segment"), ((6,), "coref")]


def test_heads_option(tmp_path: Path) -> None:
    # the head is written as the map's head attribute and read back: no loss (issue 22: it
    # was reported "moved", a loss that did not happen)
    report = corefkit.write([constructed()], str(tmp_path / "h"), "mmax2", heads=True)
    assert "heads" not in report.loss_totals()
    doc = next(corefkit.read(str(tmp_path / "h")))
    ann = next(m for m in doc.mentions if m.tokens == (0,))
    assert ann.head == 0 and not ann.head_derived


def test_a_map_without_relations_reports_them(tmp_path: Path) -> None:
    htc = next(corefkit.read(str(MMAX / "htc")))
    report = corefkit.write([htc], str(tmp_path / "acl"), "mmax2", level_map="acl-anthology")
    assert report.loss_totals() == {"bridging": 2}
    assert "acl-anthology" in report.losses[0].action
    text = (tmp_path / "acl" / "Markables" / "002_htc_abn_coref_level.xml").read_text(
        encoding="utf-8")
    assert "related_" not in text and "bridging_antecedent" not in text
    report = corefkit.write([constructed()], str(tmp_path / "acl2"), "mmax2",
                            level_map="acl-anthology")
    totals = report.loss_totals()
    assert totals["non_referring"] == 1 and totals["split_antecedents"] == 2
    assert totals["discourse_deixis"] == 2 and totals["bridging"] == 1
    doc = next(corefkit.read(str(tmp_path / "acl2"), level_map="acl-anthology"))
    assert doc.non_referring() == [] and doc.memberships() == [] and doc.bridging() == []
    assert all(m.tokens != (7,) for m in doc.mentions)   # the non-referring one is left out


def test_strict_writing_fails_before_any_output(tmp_path: Path) -> None:
    from corefkit.errors import LossError

    with pytest.raises(LossError, match="bridging"):
        corefkit.write(corefkit.read(str(MMAX / "htc")), str(tmp_path / "s"), "mmax2",
                       level_map="acl-anthology", fail_on_loss=True)
    assert not (tmp_path / "s").exists()


def test_project_names_stay_unique(tmp_path: Path) -> None:
    a, b = Document("same"), Document("same")
    for doc in (a, b):
        doc.add_sentence(["x"])
    corefkit.write([a, b], str(tmp_path / "u"), "mmax2")
    assert sorted(p.name for p in (tmp_path / "u").glob("*.mmax")) == ["same-2.mmax", "same.mmax"]
    # a level that only the second project has still gets an (empty) file in the first
    docs = [next(corefkit.read(str(ARRAU), level_map="arrau")), a]
    corefkit.write(docs, str(tmp_path / "v"), "mmax2", level_map="arrau")
    assert (tmp_path / "v" / "Markables" / "same_unit_level.xml").is_file()
    assert next(d for d in corefkit.read(str(tmp_path / "v"), level_map="arrau")
                if d.id == "same").mentions == []


# ---------------------------------------------------------------------------- atomicity
def failing(docs: list[Document]) -> Iterator[Document]:
    yield from docs
    raise CorefkitError("input broke half-way")


def test_writes_are_atomic(tmp_path: Path) -> None:
    docs = list(corefkit.read(str(MMAX / "htc")))
    target = tmp_path / "out"
    with pytest.raises(CorefkitError, match="half-way"):
        corefkit.write(failing(docs), str(target), "mmax2")
    assert not target.exists()
    assert [p.name for p in tmp_path.iterdir()] == []          # no temporary directory left
    corefkit.write(docs, str(target), "mmax2")
    before = tree_bytes(target)
    with pytest.raises(CorefkitError, match="half-way"):
        corefkit.write(failing(docs), str(target), "mmax2")
    assert tree_bytes(target) == before                        # the old output is untouched
    corefkit.write(list(corefkit.read(str(ARRAU))), str(target), "mmax2")  # replaces it
    assert [p.name for p in target.glob("*.mmax")] == ["trip.mmax"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_foreign_directories_are_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "mine"
    target.mkdir()
    (target / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(CorefkitError, match="did not write"):
        corefkit.write(corefkit.read(str(MMAX / "htc")), str(target), "mmax2")
    assert os.listdir(target) == ["notes.txt"]
    empty = tmp_path / "empty"
    empty.mkdir()
    corefkit.write(corefkit.read(str(MMAX / "htc")), str(empty), "mmax2")
    assert (empty / "002_htc_abn.mmax").is_file()
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(empty).st_mode & 0o777 == 0o777 & ~umask   # not mkdtemp's private mode
    with pytest.raises(UsageError, match="writes a directory"):
        corefkit.write(corefkit.read(str(MMAX / "htc")), "-", "mmax2")
    assert mmax2_writer.replaceable_output(str(MMAX / "htc")) is False


def test_same_document_twice_gives_identical_bytes(tmp_path: Path) -> None:
    doc = constructed()
    corefkit.write([doc], str(tmp_path / "one"), "mmax2")
    corefkit.write([doc], str(tmp_path / "two"), "mmax2")
    assert not filecmp.dircmp(tmp_path / "one", tmp_path / "two").diff_files
    assert tree_bytes(tmp_path / "one") == tree_bytes(tmp_path / "two")


def test_one_markable_bridging_to_two_entities(tmp_path: Path) -> None:
    doc = Document("b")
    doc.add_sentence(["the", "house", "and", "the", "car", ":", "doors"])
    house = doc.new_entity()
    car = doc.new_entity()
    doc.add_mention([0, 1], house)
    doc.add_mention([3, 4], car)
    doors = doc.add_mention([6], doc.new_entity())
    doc.add_bridging(doors, house, relation="part-whole")
    doc.add_bridging(doors, car, relation="part")
    report = corefkit.write([doc], str(tmp_path / "b"), "mmax2")
    (repair,) = report.repairs
    assert repair.check == "mmax2.bridging-relations" and repair.action == "approximated"
    text = (tmp_path / "b" / "Markables" / "b_coref_level.xml").read_text(encoding="utf-8")
    assert 'related_phrase="markable_1;markable_2" related_rel="part-whole"' in text
    back = next(corefkit.read(str(tmp_path / "b")))
    assert [(b.anchor_mention.tokens, b.relation) for b in back.bridging()] == [
        ((0, 1), "part-whole"), ((3, 4), "part-whole")]


def test_discourse_deixis_entity_with_one_mention(tmp_path: Path) -> None:
    """A DD segment nothing points to is kept: markables of the segment level are segments."""
    doc = Document("dd")
    doc.add_sentence(["It", "rained", ".", "Nobody", "cared", "."])
    doc.add_mention(range(0, 3), doc.new_entity(layer=DISCOURSE_DEIXIS), min_tokens=(1,))
    corefkit.write([doc], str(tmp_path / "dd"), "mmax2")
    segment = (tmp_path / "dd" / "Markables" / "dd_segment_level.xml").read_text(encoding="utf-8")
    assert 'span="word_1..word_3" mmax_level="segment" min_ids="word_2"' in segment
    back = next(corefkit.read(str(tmp_path / "dd")))
    (entity,) = back.entities_in(DISCOURSE_DEIXIS)
    (mention,) = back.mentions_of(entity)
    assert mention.tokens == (0, 1, 2) and mention.min_tokens == (1,)
    assert "opaque_levels" not in back.attrs
