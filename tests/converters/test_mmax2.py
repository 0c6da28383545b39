"""MMAX2 reader: the shared sample corpora (their README counts are the assertions), the
fixtures for ARRAU-style and pointer-based conventions, and malformed projects."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import corefkit
from corefkit.converters.mmax2 import levelmap as mmax2_maps
from corefkit.converters.mmax2 import reader as mmax2
from corefkit.converters.mmax2 import spec as mmax2_spec
from corefkit.converters.loss import features_present
from corefkit.converters.registry import expand_paths, guess_format
from corefkit.errors import FormatError, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document
from tests.conftest import CORPORA, FIXTURES

MMAX = CORPORA / "mmax2"
HTC = MMAX / "htc"
ACL = MMAX / "acl-anthology"
TINY = FIXTURES / "mmax2" / "tiny"
ARRAU = FIXTURES / "mmax2" / "arrau"
POINTERS = FIXTURES / "mmax2" / "pointer-chains"

# corpora/mmax2/acl-anthology/README.md: words, coref markables, sets, sentences, comma spans
ACL_TABLE = {
    "C02-1001": (2471, 216, 51, 126, 0),
    "C02-1007": (4480, 353, 88, 228, 0),
    "C02-1016": (4222, 268, 87, 195, 1),
    "D07-1002": (5949, 403, 83, 284, 0),
    "D07-1020": (5195, 391, 92, 214, 8),
    "D07-1031": (5369, 357, 89, 181, 7),
    "D07-1080": (4990, 236, 51, 275, 4),
    "D07-1123": (1990, 134, 36, 111, 1),
    "P08-1027": (5712, 345, 76, 280, 0),
    "P08-1082": (5579, 435, 96, 269, 1),
    "P08-1085": (6090, 370, 74, 261, 3),
    "P08-1102": (4432, 265, 58, 195, 1),
}


def read_one(path: Path | str, **options: object) -> Document:
    docs = list(corefkit.read(str(path), **options))
    assert len(docs) == 1
    return docs[0]


def checks(doc: Document, check: str) -> list:
    return [r for r in doc.repairs if r.check == check]


def by_markable(doc: Document, level: str = "coref") -> dict[str, object]:
    """Mentions by markable id (ids are unique within one level only)."""
    return {m.attrs["markable_id"]: m for m in doc.mentions if m.attrs["mmax_level"] == level}


@pytest.fixture(scope="module")
def acl() -> dict[str, Document]:
    return {d.id: d for d in corefkit.read(str(ACL))}


# ---------------------------------------------------------------------------- detection
def test_sniff_and_directory_expansion() -> None:
    assert guess_format(str(HTC / "002_htc_abn.mmax")) == "mmax2"
    found = expand_paths(str(MMAX))  # projects at any depth, sorted by path
    assert [os.path.basename(f) for f, _ in found] == [
        *(f"{d}.mmax" for d in sorted(ACL_TABLE)), "002_htc_abn.mmax"]
    assert {fmt for _, fmt in found} == {"mmax2"}
    assert expand_paths(str(HTC), "mmax2") == [(str(HTC / "002_htc_abn.mmax"), "mmax2")]
    assert mmax2_spec.sniff('<?xml version="1.0"?>\n<mmax_project>\n') is True
    assert mmax2_spec.sniff("#begin document (x); part 000") is False


def test_standard_input_is_refused() -> None:
    with pytest.raises(UsageError, match="not a single stream"):
        list(corefkit.read("-", format="mmax2"))


# ---------------------------------------------------------------------------- HTC sample
def test_htc_counts_and_conventions() -> None:
    doc = read_one(HTC)
    assert doc.id == "002_htc_abn"
    assert len(doc.tokens) == 109                  # Basedata words (file has a BOM and CRLF)
    assert doc.tokens[0].form == "Das"
    assert len(doc.mentions) == 32                 # coref markables
    chains = [doc.mentions_of(e) for e in doc.entities_in(IDENTITY)]
    assert sorted(len(c) for c in chains) == [1] * 27 + [5]
    (big,) = [e for e in doc.entities_in(IDENTITY) if doc.size(e) == 5]
    assert big.attrs["original_id"] == "set_12"
    assert doc.text(doc.mentions_of(big)[0]) == "das Heidelberger Stadttheater"
    # bridging pointers with their relation; the anchor is markable_34
    bridges = doc.bridging()
    assert [(b.anaphor.attrs["markable_id"], b.anchor_mention.attrs["markable_id"], b.relation)
            for b in bridges] == [("markable_38", "markable_34", "part-whole"),
                                  ("markable_57", "markable_34", "part-whole")]
    assert all(b.anchor is big for b in bridges)
    # the sentence level overlap: markable_65 (word_1..word_2) inside markable_1 (word_1..word_3)
    (overlap,) = checks(doc, "mmax2.sentence-overlap")
    assert "markable_65" in overlap.message and overlap.line == 5
    assert overlap.file.endswith("002_htc_abn_sentence_level.xml")
    assert [(s.start, s.stop) for s in doc.sentences][:3] == [(0, 3), (3, 28), (28, 40)]
    assert len(doc.sentences) == 8 and doc.sentences[-1].stop == 109
    # lower-case values against a mixed-case ISO-8859-1 scheme: nothing reported
    assert [r.check for r in doc.repairs] == ["mmax2.sentence-overlap"]


def test_htc_attributes_are_preserved() -> None:
    doc = read_one(HTC)
    mention = by_markable(doc)["markable_57"]
    assert mention.attrs == {
        "markable_id": "markable_57", "mmax_level": "coref", "agreement": "3f",
        "np_form": "defnp", "semantic_class": "phys_obj", "type": "bridging",
        "grammatical_role": "other",
    }
    assert by_markable(doc)["markable_51"].attrs["ante_sub_anaphoric"] == "is-a"


# ---------------------------------------------------------------------------- ACL corpus
@pytest.mark.parametrize("name", sorted(ACL_TABLE))
def test_acl_readme_counts(acl: dict[str, Document], name: str) -> None:
    words, markables, sets, sentences, comma = ACL_TABLE[name]
    doc = acl[name]
    assert len(doc.tokens) == words
    assert len(doc.mentions) == markables
    assert len(doc.entities_in(IDENTITY)) == sets
    assert all(doc.size(e) >= 2 for e in doc.entities)        # no singletons annotated
    assert len(doc.sentences) == sentences                     # sentence level is clean
    assert not checks(doc, "mmax2.sentence-gap") and not checks(doc, "mmax2.sentence-overlap")
    # comma spans = those whose fragments overlap (reported) + those that only have gaps
    overlapping = {r.message.split()[1].rstrip(":")
                   for r in checks(doc, "mmax2.overlapping-fragments")}
    gapped_only = [m for m in doc.mentions
                   if not m.is_contiguous and m.attrs["markable_id"] not in overlapping]
    assert len(overlapping) + len(gapped_only) == comma
    (found,) = checks(doc, "mmax2.global-paths-found")
    assert "global_common_paths.xml" in found.message


def test_acl_totals(acl: dict[str, Document]) -> None:
    assert sum(len(d.tokens) for d in acl.values()) == 56479
    assert sum(len(d.mentions) for d in acl.values()) == 3773
    assert sum(len(d.entities) for d in acl.values()) == 881
    assert sum(len(d.sentences) for d in acl.values()) == 2619
    # README: 31 markables cross a sentence markable boundary
    assert sum(features_present(d)["cross_sentence"] for d in acl.values()) == 31
    # 5 markables are really discontinuous (the union of their fragments has a gap)
    gapped = {d.id: [m.attrs["markable_id"] for m in d.mentions if not m.is_contiguous]
              for d in acl.values()}
    assert {k: v for k, v in gapped.items() if v} == {
        "C02-1016": ["markable_305"], "D07-1031": ["markable_305"],
        "D07-1080": ["markable_639"], "P08-1082": ["markable_345"],
        "P08-1102": ["markable_509"]}


def test_acl_span_shapes(acl: dict[str, Document]) -> None:
    def tokens_of(doc: Document, first: str, last: str | None = None) -> list:
        ids = [f"word_{i}" for i in range(1, len(doc.tokens) + 1)]
        a = ids.index(first)
        b = ids.index(last or first)
        return [m for m in doc.mentions if m.start == a and m.end == b]

    # contained: word_1195..word_1199,word_1197 is just word_1195..word_1199
    (m,) = tokens_of(acl["D07-1020"], "word_1195", "word_1199")
    assert m.is_contiguous and len(m.tokens) == 5
    # overlapping: word_3803..word_3805,word_3804..word_3810 is word_3803..word_3810
    (m,) = tokens_of(acl["D07-1080"], "word_3803", "word_3810")
    assert m.is_contiguous
    # three fragments with a gap and an overlap
    (m,) = tokens_of(acl["D07-1031"], "word_3099", "word_3824")
    assert m.parts() == [(3098, 3102), (3818, 3823)]
    # 1,300 words apart, in different sentences: kept and reported
    (m,) = tokens_of(acl["C02-1016"], "word_471", "word_1810")
    assert m.parts() == [(470, 470), (1802, 1809)]
    assert len(checks(acl["C02-1016"], "mmax2.far-fragments")) == 1
    # a 3-word gap within one sentence: no far-fragments warning
    assert not checks(acl["P08-1082"], "mmax2.far-fragments")


def test_acl_same_spans(acl: dict[str, Document]) -> None:
    found = sorted((d.id, r.message.split()[1], r.message.split()[3])
                   for d in acl.values() for r in checks(d, "mmax2.same-span"))
    assert found == [("C02-1016", "markable_193", "markable_548"),
                     ("P08-1027", "markable_822", "markable_156"),
                     ("P08-1082", "markable_973", "markable_974")]
    c = by_markable(acl["C02-1016"])
    assert acl["C02-1016"].entity_of(c["markable_193"]) is not acl["C02-1016"].entity_of(
        c["markable_548"])
    p = by_markable(acl["P08-1082"])
    assert acl["P08-1082"].entity_of(p["markable_973"]) is acl["P08-1082"].entity_of(
        p["markable_974"])


def test_acl_np_form_none_with_a_set(acl: dict[str, Document]) -> None:
    # The scheme makes coref_class depend on np_form != none. The data has six such markables
    # (the README lists the documents; P08-1027 has two of them, markable_823 and markable_364).
    found = sorted((d.id, r.message.split()[1].rstrip(":"))
                   for d in acl.values() for r in checks(d, "mmax2.attribute-not-enabled"))
    assert found == [("C02-1007", "markable_373"), ("C02-1016", "markable_313"),
                     ("C02-1016", "markable_338"), ("D07-1002", "markable_813"),
                     ("P08-1027", "markable_364"), ("P08-1027", "markable_823")]
    for doc_id, mid in found:  # the set is kept
        doc = acl[doc_id]
        assert doc.size(doc.entity_of(by_markable(doc)[mid])) >= 2
    sure_no = [m for d in acl.values() for m in d.mentions if m.attrs.get("sure") == "no"]
    assert [m.attrs["markable_id"] for m in sure_no] == ["markable_46"]


def test_acl_common_paths_with_errors(acl: dict[str, Document]) -> None:
    """The broken scheme renames 'ne': every np_form="ne" markable is reported (once per
    document, with the count), and kept."""
    errors = ACL / "common_files" / "global_common_paths_with_errors.xml"
    docs = {d.id: d for d in corefkit.read(str(ACL), common_paths=str(errors))}
    for name, doc in docs.items():
        ne = sum(1 for m in acl[name].mentions if m.attrs.get("np_form") == "ne")
        reports = [r for r in checks(doc, "mmax2.value-not-in-scheme")]
        assert len(reports) == (1 if ne else 0)
        if ne:
            assert "np_form='ne'" in reports[0].message
            assert f"({ne} markable(s)" in reports[0].message
        assert not checks(doc, "mmax2.global-paths-found")
        assert len(doc.mentions) == len(acl[name].mentions)
        # an unknown value does not also make its dependent attributes "not enabled"
        assert len(checks(doc, "mmax2.attribute-not-enabled")) == len(
            checks(acl[name], "mmax2.attribute-not-enabled"))


# ---------------------------------------------------------------------------- fixtures
def test_tiny_project() -> None:
    doc = read_one(TINY)
    assert [r.check for r in doc.repairs] == []
    assert [[doc.text(m) for m in c] for c in doc.chains()] == [
        ["Anna", "She"], ["a car", "the car"], ["the wheels of the car"]]
    (bridge,) = doc.bridging()
    assert doc.text(bridge.anaphor) == "the wheels of the car" and bridge.relation == "part-whole"


def test_arrau_conventions() -> None:
    doc = read_one(ARRAU, level_map="arrau")
    assert [r.check for r in doc.repairs] == []
    marks = by_markable(doc, "phrase")
    text = {mid: doc.text(m) for mid, m in marks.items()}
    # identity sets; non-referring markables have no entity even though they carry a set
    assert sorted(sorted(doc.text(m) for m in doc.mentions_of(e))
                  for e in doc.entities_in(IDENTITY)) == [
        ["John"], ["Mary"], ["Paris", "there"], ["They"], ["the museum"]]
    assert {text[m.attrs["markable_id"]]: m.nonref for m in doc.non_referring()} == {
        "it": "expletive", "nobody": "quantifier"}
    assert all(doc.entity_of(m) is None for m in doc.non_referring())
    # split antecedents: They = John + Mary, with the anaphor and antecedents as evidence
    they = doc.entity_of(marks["markable_4"])
    assert [doc.text(doc.mentions_of(e)[0]) for e in doc.members(they)] == ["John", "Mary"]
    assert {tuple(doc.text(x) for x in ms.evidence) for ms in doc.memberships()} == {
        ("They", "John"), ("They", "Mary")}
    # bridging with relation and anchor mention
    (bridge,) = doc.bridging()
    assert (doc.text(bridge.anaphor), doc.text(bridge.anchor_mention), bridge.relation) == (
        "the museum", "Paris", "element")
    # discourse deixis: "That" points to a unit, which becomes the segment mention
    (dd,) = doc.entities_in(DISCOURSE_DEIXIS)
    assert [(doc.text(m), m.attrs["mmax_level"]) for m in doc.mentions_of(dd)] == [
        ("They liked it there because the museum was open .", "unit"), ("That", "phrase")]
    assert "ref_type" not in marks["markable_8"].attrs
    assert marks["markable_6"].attrs["ref_type"] == "phrase"          # kept: rule did not fire
    # min spans, consumed; min_words is text and stays
    assert {text[k]: m.min_tokens for k, m in marks.items() if m.min_tokens} == {
        "John": (0,), "Paris": (4,), "the museum": (12,)}
    assert marks["markable_7"].attrs["min_words"] == "museum"
    assert "min_ids" not in marks["markable_7"].attrs
    # a pointer the map keeps as an attribute, and a rule attribute whose condition failed
    assert marks["markable_6"].attrs["single_phrase_antecedent"] == "markable_3"
    assert doc.attrs["mmax_pointers"] == ["single_phrase_antecedent"]
    assert marks["markable_2"].attrs["related_object"] == "no"
    # levels nobody interprets are kept whole (minus the segment that became a mention)
    opaque = doc.attrs["opaque_levels"]
    assert sorted(opaque) == ["markable", "unit"]
    assert [(mid, toks) for mid, toks, _ in opaque["unit"]] == [
        ("markable_1", tuple(range(0, 6))), ("markable_3", tuple(range(16, 20)))]
    assert opaque["markable"][0] == ("markable_2", (11, 12), {"label": "np", "min_ids": "word_13"})
    assert [s.attrs for s in doc.sentences] == [{"orderid": "0"}, {"orderid": "1"},
                                                {"orderid": "2"}]


def test_arrau_fixture_with_the_generic_map() -> None:
    """The generic map finds the phrase level through its scheme's markable_set."""
    generic = read_one(ARRAU)
    arrau = read_one(ARRAU, level_map="arrau")
    assert features_present(generic) == features_present(arrau)


def test_pointer_chains_flat_project() -> None:
    doc = read_one(POINTERS, level_map=str(POINTERS / "pointer-map.json"))
    assert [[doc.text(m) for m in c] for c in doc.chains()] == [
        ["De minister", "hij", "Hij"], ["het rapport", "het"], ["goed"]]
    goed = by_markable(doc)["markable_6"]
    assert goed.attrs["ref"] == "markable_5" and goed.attrs["type"] == "pred"
    assert "ref" not in by_markable(doc)["markable_2"].attrs
    assert doc.attrs["mmax_pointers"] == ["ref"]
    assert doc.attrs["mmax_word_ids"][0] == "w01_58063350001"
    assert doc.tokens[0].attrs == {"pos": "x"}
    assert [r.check for r in doc.repairs] == ["mmax2.no-scheme", "mmax2.sentence-gap"]
    assert [(s.start, s.stop) for s in doc.sentences] == [(0, 10), (10, 15)]
    (no_scheme,) = checks(doc, "mmax2.no-scheme")
    assert no_scheme.file.endswith("common_paths.xml") and no_scheme.line == 7


def test_shipped_maps() -> None:
    assert mmax2_maps.shipped_maps() == ["acl-anthology", "arrau", "generic"]
    for name in mmax2_maps.shipped_maps():
        level_map = mmax2_maps.load_level_map(name)
        assert level_map.name == name and level_map.mention_levels


# ---------------------------------------------------------------------------- variants
def copy_tiny(tmp_path: Path) -> Path:
    target = tmp_path / "tiny"
    shutil.copytree(TINY, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_windows_paths_and_levels_in_the_project_file(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "common_paths.xml", "<basedata_path>Basedata/", "<basedata_path>Basedata\\")
    edit(project / "common_paths.xml", "<annotations>", "<!--")
    edit(project / "common_paths.xml", "</annotations>", "-->")
    edit(project / "tiny.mmax", "<turns></turns>",
         '<annotations><level name="coref" schemefile="coref_scheme.xml">$_coref_level.xml'
         '</level></annotations>')
    doc = read_one(project)
    assert len(doc.mentions) == 5
    assert [r.check for r in doc.repairs] == ["mmax2.no-sentences"]
    assert len(doc.sentences) == 1


def test_assumed_paths_without_common_paths(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    (project / "common_paths.xml").unlink()
    doc = read_one(project)
    assert [r.check for r in doc.repairs] == ["mmax2.assumed-paths"]
    assert len(doc.mentions) == 5 and len(doc.sentences) == 2


def test_explicit_common_paths_and_local_precedence(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    shutil.move(project / "common_paths.xml", tmp_path / "elsewhere.xml")
    doc = read_one(project, common_paths=str(tmp_path / "elsewhere.xml"))
    assert doc.repairs == [] and len(doc.mentions) == 5
    shutil.copy(tmp_path / "elsewhere.xml", project / "common_paths.xml")
    doc = read_one(project, common_paths=str(tmp_path / "elsewhere.xml"))
    assert [r.check for r in doc.repairs] == ["mmax2.common-paths-local"]
    with pytest.raises(FormatError, match="does not exist") as info:
        read_one(project, common_paths=str(tmp_path / "missing.xml"))
    assert info.value.check == "mmax2.missing-file"


def test_ambiguous_global_common_paths(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    os.makedirs(tmp_path / "common_files")
    (project / "common_paths.xml").rename(tmp_path / "common_files" / "a_common_paths.xml")
    doc = read_one(project)
    (found,) = checks(doc, "mmax2.global-paths-found")
    # paths in a global file are relative to each project
    assert len(doc.mentions) == 5
    shutil.copy(tmp_path / "common_files" / "a_common_paths.xml",
                tmp_path / "common_files" / "b_common_paths.xml")
    with pytest.raises(FormatError, match="pass --mmax-common-paths") as info:
        read_one(project)
    assert info.value.check == "mmax2.ambiguous-common-paths"


def test_unknown_pointer_min_span_and_head(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "Schemes" / "coref_scheme.xml", "</annotationscheme>",
         '<attribute id="x" name="see_also" type="markable_pointer"/>\n</annotationscheme>')
    edit(project / "Markables" / "tiny_coref_level.xml", 'np_form="pper"',
         'np_form="pper" see_also="markable_1" min_ids="word_6" head_ids="word_6"')
    edit(project / "Markables" / "tiny_coref_level.xml", 'np_form="ne"',
         'np_form="ne" min_ids="word_2" head_ids="word_9"')
    doc = read_one(project)
    assert sorted(r.check for r in doc.repairs) == [
        "mmax2.bad-head", "mmax2.min-outside-span", "mmax2.unknown-pointer"]
    she = by_markable(doc)["markable_3"]
    assert she.attrs["see_also"] == "markable_1" and doc.attrs["mmax_pointers"] == ["see_also"]
    assert she.min_tokens == (5,) and she.head == 5 and not she.head_derived
    anna = by_markable(doc)["markable_1"]
    assert anna.min_tokens is None and anna.head is None


def test_nonref_markable_in_a_shared_set(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "Markables" / "tiny_coref_level.xml", 'np_form="pper"',
         'np_form="pper" reference="non_referring" non_ref_type="expletive"')
    doc = read_one(project)
    (report,) = checks(doc, "mmax2.nonref-in-set")
    assert "markable_3" in report.message
    she = by_markable(doc)["markable_3"]
    assert she.nonref == "expletive" and doc.entity_of(she) is None
    assert [doc.text(m) for m in doc.chains()[0]] == ["Anna"]


# ---------------------------------------------------------------------------- malformed
MALFORMED = [
    # (file to edit, old, new, check, file the error names, line)
    ("Markables/tiny_coref_level.xml", 'span="word_6"', 'span="word_99"', "mmax2.bad-span",
     "tiny_coref_level.xml", 4),
    ("Markables/tiny_coref_level.xml", 'span="word_3..word_4"', 'span="word_4..word_3"',
     "mmax2.bad-span", "tiny_coref_level.xml", 7),
    ("Markables/tiny_coref_level.xml", 'bridging_antecedent="markable_2"',
     'bridging_antecedent="markable_99"', "mmax2.dangling-pointer", "tiny_coref_level.xml", 6),
    ("Markables/tiny_coref_level.xml", 'id="markable_5"', 'id="markable_1"',
     "mmax2.duplicate-markable-id", "tiny_coref_level.xml", 8),
    ("Markables/tiny_coref_level.xml", '<markable id="markable_2" span="word_3..word_4"',
     '<markable id="markable_2" span="word_3..word_4" <', "mmax2.xml-syntax",
     "tiny_coref_level.xml", 7),
    ("Basedata/tiny_words.xml", '<word id="word_7">', '<word id="word_6">',
     "mmax2.duplicate-word-id", "tiny_words.xml", 10),
    ("tiny.mmax", "<words>tiny_words.xml</words>", "<words>missing_words.xml</words>",
     "mmax2.missing-file", "tiny.mmax", 3),
    ("tiny.mmax", "<mmax_project>", "<mmax_projekt>", "mmax2.xml-syntax", "tiny.mmax", 7),
    ("common_paths.xml", "$_coref_level.xml", "$_kore_level.xml", "mmax2.missing-file",
     "common_paths.xml", 12),
]


@pytest.mark.parametrize("relative, old, new, check, where, line", MALFORMED,
                         ids=[f"{m[3]}-{i}" for i, m in enumerate(MALFORMED)])
def test_malformed_projects(tmp_path: Path, relative: str, old: str, new: str, check: str,
                            where: str, line: int) -> None:
    project = copy_tiny(tmp_path)
    edit(project / relative, old, new)
    with pytest.raises(FormatError) as info:
        read_one(project)
    error = info.value
    assert error.check == check
    assert error.file.endswith(where)
    assert error.line == line
    assert str(error).startswith(f"{error.file}:{line}")


def test_not_a_project(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "tiny.mmax", "<mmax_project>", "<project>")
    edit(project / "tiny.mmax", "</mmax_project>", "</project>")
    with pytest.raises(FormatError) as info:
        list(mmax2.read_path(str(project / "tiny.mmax")))
    assert info.value.check == "mmax2.not-a-project"
    (project / "tiny.mmax").unlink()
    with pytest.raises(FormatError) as info:
        list(mmax2.read_path(str(project)))
    assert info.value.check == "mmax2.no-project"


LENIENT = [
    ('span="word_6"', 'span="word_99"', "mmax2.bad-span", 4),
    ('bridging_antecedent="markable_2"', 'bridging_antecedent="markable_99"',
     "mmax2.dangling-pointer", 4),
    ('id="markable_5"', 'id="markable_1"', "mmax2.duplicate-markable-id", 4),
]


@pytest.mark.parametrize("old, new, check, mentions", LENIENT)
def test_lenient_skips_the_markable(tmp_path: Path, old: str, new: str, check: str,
                                    mentions: int) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "Markables" / "tiny_coref_level.xml", old, new)
    doc = read_one(project, lenient=True)
    (report,) = checks(doc, check)
    assert report.action == "skipped" and report.line is not None
    assert len(doc.mentions) == mentions


def test_lenient_pointer_to_a_skipped_markable(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "Markables" / "tiny_coref_level.xml", 'span="word_3..word_4"',
         'span="word_3..nowhere"')
    doc = read_one(project, lenient=True)
    assert [r.check for r in doc.repairs] == ["mmax2.bad-span", "mmax2.pointer-to-skipped"]
    assert doc.bridging() == []
    assert len(doc.mentions) == 4


def test_lenient_recovers_from_xml_errors_and_missing_levels(tmp_path: Path) -> None:
    project = copy_tiny(tmp_path)
    edit(project / "Markables" / "tiny_coref_level.xml", "</markables>", "</markable>")
    doc = read_one(project, lenient=True)
    (report,) = checks(doc, "mmax2.xml-syntax")
    assert report.file.endswith("tiny_coref_level.xml") and report.line == 9
    assert len(doc.mentions) == 5
    (project / "Markables" / "tiny_coref_level.xml").unlink()
    doc = read_one(project, lenient=True)
    assert [r.check for r in doc.repairs] == ["mmax2.missing-file"]
    assert doc.mentions == []


def test_level_maps_are_checked(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "corefkit-mmax2-level-map/1",\n "name": "x",,}', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        mmax2_maps.load_level_map(str(bad))
    assert info.value.check == "mmax2.bad-map" and info.value.line == 2
    bad.write_text('{"format": "corefkit-mmax2-level-map/1", "name": "x", '
                   '"mention_levels": ["coref"], "bridge": []}', encoding="utf-8")
    with pytest.raises(FormatError, match="unknown key"):
        mmax2_maps.load_level_map(str(bad))
    bad.write_text('{"format": "corefkit-mmax2-level-map/1", "name": "x", '
                   '"mention_levels": ["coref"], "bridging": [{"relation": "r"}]}',
                   encoding="utf-8")
    with pytest.raises(FormatError, match=r"bridging\[0\] must be an object with an 'attribute'"):
        mmax2_maps.load_level_map(str(bad))
    with pytest.raises(UsageError, match="acl-anthology, arrau, generic"):
        mmax2_maps.load_level_map("no-such-map")
