"""UIMA CAS (XMI, CAS JSON) through dkpro-cassis: INCEpTION's suite, a WebAnno export,
GerDraCor-Coref, the writer, and what happens without cassis or a type system."""

from __future__ import annotations

import builtins
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import corefkit
from corefkit.converters.offsets import CHARS, SUBTOKEN
from corefkit.converters.tool_layers.build import EDGES
from corefkit.errors import CorefkitError, FormatError
from corefkit.model import IDENTITY, Document
from tests.converters import gum_tsv

pytest.importorskip("cassis")

INCEPTION = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "inception"
SUITE = INCEPTION / "tsv3-suite"
SUITE_TYPES = f"{SUITE / 'webanno-full-typesystem.xml'},{SUITE / 'webannoTestTypes.xml'}"
CRETA = INCEPTION / "xmi-webanno-creta"
CRETA_TYPES = f"{SUITE / 'webanno-full-typesystem.xml'},{CRETA / 'creta-coref.xml'}"
GERDRACOR = INCEPTION / "gerdracor-coref-parallel"
GERDRACOR_TYPES = f"{SUITE / 'webanno-full-typesystem.xml'},{GERDRACOR / 'corefannotator-types-v1.xml'}"
CASES = ("testSimpleChain", "testMultiTokenChain", "testStackedChain", "testSubtokenChain")


def read_one(path: Path | str, **options: Any) -> Document:
    (doc,) = corefkit.read(str(path), **options)
    return doc


def canonical(doc: Document) -> dict[str, Any]:
    """What a document says, without the ids its file gave it."""
    def mention(m: Any) -> tuple[Any, ...]:
        attrs = {k: v for k, v in m.attrs.items() if k != "original_id"}
        return (m.tokens, tuple(sorted(attrs.items())))

    return {
        "tokens": [(t.form, t.attrs[CHARS]) for t in doc.tokens],
        "sentences": [(s.start, s.stop) for s in doc.sentences],
        "chains": sorted([mention(m) for m in doc.mentions_of(e, ordered=False)]
                         for e in doc.entities_in(IDENTITY)),
        "chain order": sorted([m.tokens for m in doc.mentions_of(e, ordered=False)]
                              for e in doc.entities_in(IDENTITY)),
        "bridging": sorted((b.anaphor.tokens, tuple(m.tokens for m in doc.mentions_of(b.anchor)))
                           for b in doc.bridging()),
        "sets": sorted((tuple(m.tokens for m in doc.mentions_of(s.set_entity)),
                        tuple(m.tokens for m in doc.mentions_of(s.member)))
                       for s in doc.memberships()),
    }


@pytest.mark.parametrize("case", CASES)
def test_tsv_and_xmi_of_a_suite_case_give_the_same_document(case: str) -> None:
    tsv = read_one(SUITE / case / "reference.tsv")
    xmi = read_one(SUITE / case / "reference.xmi", cas_typesystem=SUITE_TYPES)
    assert canonical(xmi) == canonical(tsv)
    assert xmi.source_format == "uima-cas" and tsv.source_format == "webanno-tsv"


def test_sub_token_links_keep_their_characters() -> None:
    doc = read_one(SUITE / "testSubtokenChain" / "reference.xmi", cas_typesystem=SUITE_TYPES)
    assert [m.attrs[SUBTOKEN] for m in doc.mentions] == [(1, 3), (6, 6), (11, 13)]


def test_a_real_webanno_export_with_both_shapes() -> None:
    with pytest.raises(FormatError, match="webanno.custom.Link, webanno.custom.RA") as found:
        read_one(CRETA / "Text_1804.xmi", cas_typesystem=CRETA_TYPES)
    assert found.value.check == "cas.undefined-types"
    chains = read_one(CRETA / "Text_1804.xmi", cas_typesystem=CRETA_TYPES, lenient=True)
    assert chains.token_count == 940 and len(chains.sentences) == 51
    assert chains.id == "Text_1804.txt"
    assert len(chains.entities) == 6 and len(chains.mentions) == 7
    assert sorted(chains.size(e) for e in chains.entities) == [1, 1, 1, 1, 1, 2]
    custom = read_one(CRETA / "Text_1804.xmi", cas_typesystem=CRETA_TYPES, lenient=True,
                      coref_scheme="relation", span_layer="webanno.custom.CRETAMention")
    assert len(custom.mentions) == 59
    assert Counter(m.attrs.get("Kategorie") for m in custom.mentions)["Koreferenter Ausdruck"] == 48
    edges = custom.attrs[EDGES]
    assert len(edges) == 50
    assert Counter(f.get("LinkArt") for *_, f in edges) == {"Koreferenz": 34, "Gruppe": 2, None: 14}


@pytest.mark.parametrize("annotator, mentions, entities, discontinuous", [
    ("AF", 784, 88, 5), ("JA", 3715, 491, 49), ("SE", 731, 48, 0)])
def test_gerdracor_annotators(annotator: str, mentions: int, entities: int,
                              discontinuous: int) -> None:
    """CorefAnnotator's mentions and entities. AF: 785 mentions, one zero-width (left out,
    reported); JA: 3,719 Mention elements of which 3,715 are in the CAS index (the other four
    are deleted annotations), 479 entities + 19 groups of which 472 + 19 indexed; its groups
    are split antecedents."""
    doc = read_one(GERDRACOR / f"Cato-{annotator}.xmi.gz", cas_typesystem=GERDRACOR_TYPES,
                   lenient=True)
    assert doc.id == "Der sterbende Cato"
    assert len(doc.mentions) == mentions
    assert len(doc.entities) == entities
    assert sum(1 for m in doc.mentions if not m.is_contiguous) == discontinuous
    checks = Counter(r.check for r in doc.repairs)
    assert checks["cas.no-tokens"] == 1 and checks["cas.undefined-types"] == 1
    assert checks["cas.span-outside-tokens"] == (1 if annotator == "AF" else 0)
    if annotator == "JA":
        assert len(doc.accommodated_sets()) == 18


def test_without_a_type_system_the_error_says_what_is_missing(tmp_path: Path) -> None:
    copy = tmp_path / "doc.xmi"
    shutil.copy(SUITE / "testSimpleChain" / "reference.xmi", copy)
    with pytest.raises(FormatError, match="no type system.*DocumentMetaData") as found:
        read_one(copy)
    assert found.value.check == "cas.no-typesystem"
    shutil.copy(SUITE / "webanno-full-typesystem.xml", tmp_path / "TypeSystem.xml")
    with pytest.raises(FormatError, match="webanno.custom.SimpleChain"):
        read_one(copy)   # the one beside it is taken, and it lacks the suite's custom types


def test_without_cassis_the_error_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = builtins.__import__

    def refuse(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "cassis":
            raise ImportError("no cassis")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(CorefkitError, match=r"pip install corefkit\[cas\]"):
        read_one(SUITE / "testSimpleChain" / "reference.xmi", cas_typesystem=SUITE_TYPES)


def test_cas_json_reads_as_its_xmi(tmp_path: Path) -> None:
    from corefkit.interop import cassis as bridge

    ts = bridge.load_typesystems(SUITE_TYPES.split(","))
    data = (SUITE / "testStackedChain" / "reference.xmi").read_bytes()
    cas = bridge.load_cas(data, ts, json=False, lenient=False)
    cas.to_json(str(tmp_path / "stacked.json"))
    doc = corefkit.read(str(tmp_path / "stacked.json"), cas_typesystem=SUITE_TYPES)
    assert canonical(next(iter(doc))) == canonical(read_one(SUITE / "testStackedChain" /
                                                            "reference.tsv"))


@pytest.mark.parametrize("source", [INCEPTION / "tsv3" / "coref.tsv",
                                    gum_tsv.TSV / "GUM_academic_art.tsv",
                                    SUITE / "testSubtokenChain" / "reference.tsv"],
                         ids=lambda p: p.name if p.parent.name != "testSubtokenChain" else "sub")
def test_xmi_writer_round_trip(source: Path, tmp_path: Path) -> None:
    """TSV → XMI folder (with TypeSystem.xml) → the same document; the GUM scheme's bridging
    and split antecedents survive as its relation layer."""
    doc = read_one(source)
    out = tmp_path / "out"
    report = corefkit.write([doc], str(out), "uima-cas")
    assert sorted(p.name for p in out.iterdir()) == sorted(["TypeSystem.xml", f"{doc.id}.xmi"])
    assert {r.feature for r in report.losses} <= {"opaque_levels", "metadata"}
    again = read_one(out / f"{doc.id}.xmi")
    assert canonical(again) == canonical(doc)


def test_a_malformed_xmi_is_refused_where_the_parser_stopped(tmp_path):
    # found by the mutation sweep (issue 22): the parser's line and column were only in the
    # message, the finding had none
    from tests.conftest import SHARED

    source = SHARED / "corpora/gum/dep/GENTLE_poetry_death.conllu"
    corefkit.write(corefkit.read(source), tmp_path / "cas", "uima-cas")
    xmi = tmp_path / "cas" / "GENTLE_poetry_death.xmi"
    data = xmi.read_bytes().replace(b"><", b">\n<")
    xmi.write_bytes(data[:len(data) // 4])
    line = data[:len(data) // 4].count(b"\n") + 1  # the file ends inside this line's tag
    with pytest.raises(FormatError) as caught:
        read_one(xmi)
    assert caught.value.check == "cas.unreadable"
    assert caught.value.line == line and caught.value.column is not None
    assert f"GENTLE_poetry_death.xmi:{line}:" in str(caught.value)
