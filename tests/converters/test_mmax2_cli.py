"""MMAX2 through the registry and the command line: conversions to CoNLL-2012 and back with
loss reports, --discontinuous, --lenient, --mmax-map, --mmax-common-paths, one-line errors."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.conll2012 import reader as conll2012
from corefkit.converters.conll2012 import spec as conll2012_spec
from corefkit.converters.conll2012 import writer as conll2012_writer
from corefkit.converters.loss import ConversionReport
from corefkit.model import IDENTITY, Document
from tests.conftest import CORPORA, FIXTURES

MMAX = CORPORA / "mmax2"
ACL = MMAX / "acl-anthology"
HTC = MMAX / "htc"
TINY = FIXTURES / "mmax2" / "tiny"
ARRAU = FIXTURES / "mmax2" / "arrau"


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def partition(doc: Document, contiguous_only: bool = False) -> set[frozenset]:
    """Identity entities as sets of (first, last) token spans."""
    found = set()
    for entity in doc.entities_in(IDENTITY):
        spans = frozenset(m.span for m in doc.mentions_of(entity)
                          if m.is_contiguous or not contiguous_only)
        if spans:
            found.add(spans)
    return found


def test_mmax2_to_conll2012_and_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # --lenient: three ACL documents annotate one span twice (mmax2.same-span, an error)
    code, err = run(capsys, "convert", ACL, tmp_path / "acl", "--to", "conll2012", "--lenient")
    assert code == 0
    assert "5 discontinuous mentions (dropped)" in err
    assert "3773 mention attributes (dropped)" in err
    assert "wrote 12 documents to 12 files" in err
    source = {d.id: d for d in corefkit.read(str(ACL))}
    conll = {d.id: d for d in corefkit.read(str(tmp_path / "acl"))}
    assert sorted(conll) == sorted(source)
    for name, doc in source.items():
        assert [t.form for t in conll[name].tokens] == [t.form for t in doc.tokens]
        assert [(s.start, s.stop) for s in conll[name].sentences] == [
            (s.start, s.stop) for s in doc.sentences]
        assert partition(conll[name]) == partition(doc, contiguous_only=True)
    # and back: CoNLL-2012 -> MMAX2 keeps spans, partition and sentences
    # (--lenient again: the CoNLL-2012 files keep C02-1016's span annotated twice)
    code, err = run(capsys, "convert", tmp_path / "acl", tmp_path / "back", "--to", "mmax2",
                    "--lenient")
    assert code == 0 and "not carried over" not in err
    back = {d.id: d for d in corefkit.read(str(tmp_path / "back"))}
    for name, doc in conll.items():
        assert partition(back[name]) == partition(doc)
        assert [(s.start, s.stop) for s in back[name].sentences] == [
            (s.start, s.stop) for s in doc.sentences]


def test_htc_losses_in_conll2012(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "conll"
    out.mkdir()
    code, err = run(capsys, "convert", HTC, out, "--to", "conll2012")
    assert code == 0
    assert "2 bridging relations (dropped)" in err
    assert "sentence-overlap" in err
    (doc,) = corefkit.read(str(out / "002_htc_abn.conll"))
    assert sorted(len(c) for c in doc.chains()) == [1] * 27 + [5]


@pytest.mark.parametrize("mode, span, action", [
    ("extent", (470, 1809), "approximated (written as their extent"),
    ("first", (470, 470), "approximated (only their first contiguous part"),
])
def test_discontinuous_modes(tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str,
                             span: tuple[int, int], action: str) -> None:
    project = ACL / "C" / "C02-1016" / "C02-1016.mmax"
    code, err = run(capsys, "convert", project, tmp_path / "out.conll", "--discontinuous", mode,
                    "--lenient")  # C02-1016 annotates one span twice (mmax2.same-span)
    assert code == 0
    assert f"1 discontinuous mentions ({action}" in err
    (doc,) = corefkit.read(str(tmp_path / "out.conll"))
    (source,) = corefkit.read(str(project))
    (gapped,) = [m for m in source.mentions if not m.is_contiguous]
    written = [m for m in doc.mentions if m.span == span]
    assert written
    # the approximated mention stays in its entity
    others = {m.span for m in source.mentions_of(source.entity_of(gapped)) if m is not gapped}
    assert any(others <= {m.span for m in doc.mentions_of(doc.entity_of(w))} for w in written)


def test_discontinuous_helper_in_the_conll_writer() -> None:
    doc = Document("d")
    doc.add_sentence(["a", "b", "c", "d"])
    entity = doc.new_entity()
    doc.add_mention([0, 2, 3], entity)
    doc.add_mention([1], entity)

    def cells(mode: str) -> dict:
        return conll2012_writer._cells(doc, ConversionReport(), False, mode)

    assert cells("drop") == {1: ["(0)"]}
    assert cells("extent") == {0: ["(0"], 1: ["(0)"], 3: ["0)"]}
    assert cells("first") == {0: ["(0)"], 1: ["(0)"]}
    assert conll2012_writer.loss_actions(discontinuous="first")["discontinuous"].startswith("approx")


def test_discontinuous_option_is_checked(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "convert", HTC, tmp_path / "x.conll", "--discontinuous", "hull")
    assert code == 2 and "hull" in err
    # formats that hold discontinuous mentions ignore the option
    code, _ = run(capsys, "convert", HTC, tmp_path / "m", "--to", "mmax2",
                  "--discontinuous", "extent")
    assert code == 0


def test_malformed_project_gives_one_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "tiny"
    shutil.copytree(TINY, project)
    level = project / "Markables" / "tiny_coref_level.xml"
    level.write_text(level.read_text(encoding="utf-8").replace('span="word_6"', 'span="word_66"'),
                     encoding="utf-8")
    code, err = run(capsys, "convert", project, tmp_path / "out.conll")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert f"{level}:4: " in lines[0]
    assert "unknown word id 'word_66'" in lines[0] and lines[0].endswith("(mmax2.bad-span)")
    assert not (tmp_path / "out.conll").exists()
    code, err = run(capsys, "convert", project, tmp_path / "out.conll", "--lenient")
    assert code == 0
    assert "markable skipped (mmax2.bad-span)" in err
    (doc,) = corefkit.read(str(tmp_path / "out.conll"))
    assert len(doc.mentions) == 4


def test_xml_errors_give_file_line_and_column(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "tiny"
    shutil.copytree(TINY, project)
    words = project / "Basedata" / "tiny_words.xml"
    words.write_text(words.read_text(encoding="utf-8").replace("</word>\n<word id=\"word_5\">",
                                                               "</wrd>\n<word id=\"word_5\">"),
                     encoding="utf-8")
    code, err = run(capsys, "convert", project, tmp_path / "out.conll")
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"{words}:7:" in err and "(mmax2.xml-syntax)" in err


def test_common_paths_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    errors = ACL / "common_files" / "global_common_paths_with_errors.xml"
    code, err = run(capsys, "convert", ACL / "C" / "C02-1001", tmp_path / "o.conll",
                    "--mmax-common-paths", errors)
    assert code == 0
    assert "np_form='ne' is not a value of the scheme (58 markable(s)" in err
    code, err = run(capsys, "convert", tmp_path / "o.conll", tmp_path / "p.conll",
                    "--mmax-common-paths", errors)
    assert code == 2 and "--mmax-common-paths applies to mmax2 input only" in err


def test_mmax_map_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "convert", ARRAU, tmp_path / "a", "--to", "mmax2",
                    "--mmax-map", "arrau")
    assert code == 0, err
    phrase = (tmp_path / "a" / "Markables" / "trip_phrase_level.xml").read_text(encoding="utf-8")
    assert 'coref_set="set_1"' in phrase and "related_phrase=" in phrase
    code, err = run(capsys, "convert", ARRAU, tmp_path / "a.conll", "--mmax-map", "arrau")
    assert code == 0
    assert "2 non-referring markables (dropped)" in err
    assert "other annotation levels (kept uninterpreted) (dropped)" in err
    code, err = run(capsys, "convert", tmp_path / "a.conll", tmp_path / "b.conll",
                    "--mmax-map", "arrau")
    assert code == 2 and "--mmax-map applies to mmax2 input or output only" in err
    code, err = run(capsys, "convert", ARRAU, tmp_path / "c", "--to", "mmax2",
                    "--mmax-map", "no-such-map")
    assert code == 2 and "shipped maps (acl-anthology, arrau, generic)" in err
    # the map also applies when MMAX2 is only the output
    code, err = run(capsys, "convert", tmp_path / "a.conll", tmp_path / "d", "--to", "mmax2",
                    "--mmax-map", "acl-anthology")
    assert code == 0
    assert (tmp_path / "d" / "Markables" / "trip_coref_level.xml").is_file()


def test_directory_targets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out"
    target.mkdir()
    # --lenient: three ACL documents annotate one span twice (mmax2.same-span, an error)
    code, err = run(capsys, "convert", MMAX, target, "--lenient")  # an existing directory out
    assert code == 0 and "wrote 13 documents" in err
    assert len(list(target.glob("*.mmax"))) == 13
    code, err = run(capsys, "convert", MMAX, target, "-q", "--lenient")  # its own output: replaced
    assert code == 0
    code, err = run(capsys, "normalize", HTC, tmp_path / "norm", "--pass", "remove-singletons")
    assert code == 0
    (doc,) = corefkit.read(str(tmp_path / "norm"))
    assert len(doc.mentions) == 5
    code, err = run(capsys, "convert", HTC, "-", "--to", "mmax2")
    assert code == 2 and "writes a directory" in err


def test_formats_listing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = main(["formats"]), capsys.readouterr().out
    assert code == 0
    block = out[out.index("mmax2"):]
    assert "files: *.mmax" in block and "discontinuous" in block.splitlines()[2]


# A stand-in format without discontinuous mentions whose writer knows nothing of
# --discontinuous: the registry must approximate for it (see test below).
def sniff(head: str) -> bool:
    return False


def test_registry_approximates_for_writers_without_the_option(tmp_path: Path) -> None:
    from corefkit.converters import registry
    from corefkit.converters.loss import approximate_discontinuous

    spec = registry.FormatSpec(
        name="spans-test", aliases=(), description="test", patterns=("*.spans",),
        # the discontinuous mention also crosses sentences: a format that could not hold that
        # would drop it (not approximate it), so this one holds it
        capabilities=frozenset({"singletons", "cross_sentence"}),
        package="tests.converters.spans_format",
        sniff=lambda head: False, sniff_priority=99)
    registry.register(spec)
    try:
        project = ACL / "C" / "C02-1016" / "C02-1016.mmax"
        (doc,) = corefkit.read(str(project))
        report = corefkit.write([doc], str(tmp_path / "x.spans"), "spans-test",
                                discontinuous="extent")
        assert "C02-1016 470 1809\n" in (tmp_path / "x.spans").read_text()
        (record,) = [r for r in report.losses if r.feature == "discontinuous"]
        assert record.count == 1 and record.action.startswith("approximated")
        assert any(not m.is_contiguous for m in doc.mentions)      # the input is unchanged
        corefkit.write([doc], str(tmp_path / "y.spans"), "spans-test", discontinuous="drop")
        assert "C02-1016 470 1809\n" not in (tmp_path / "y.spans").read_text()
    finally:
        del registry.FORMATS["spans-test"]
        del registry.ALIASES["spans-test"]
    dropped = approximate_discontinuous(doc, "drop")
    assert len(dropped.mentions) == len(doc.mentions) - 1
    first = approximate_discontinuous(doc, "first")
    assert sorted(m.span for m in first.mentions) == sorted(
        (m.span if m.is_contiguous else (470, 470)) for m in doc.mentions)


def test_ua_exploded_through_mmax2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CODI-CRAC (UA exploded) -> MMAX2 -> model: identity, discourse deixis (one-mention DD
    entities and DD sets of segments included), non-referring markables, bridging with its
    anchor mention, split antecedents and min spans all come back; speakers are reported."""
    from corefkit.converters.loss import features_present
    from corefkit.model import DISCOURSE_DEIXIS

    source = CORPORA / "codi-crac22"
    code, err = run(capsys, "convert", source, tmp_path / "m", "--to", "mmax2")
    assert code == 0 and "speakers (dropped)" in err and "wrote 21 documents" in err

    def summary(d: Document) -> tuple:
        def chains(layer: str) -> set:
            return {frozenset(m.tokens for m in d.mentions_of(e)) for e in d.entities_in(layer)}

        def of(entity: object) -> tuple:
            return tuple(sorted(m.tokens for m in d.mentions_of(entity)))

        return (chains(IDENTITY), chains(DISCOURSE_DEIXIS),
                sorted((m.tokens, m.nonref) for m in d.non_referring()),
                sorted((b.anaphor.tokens, b.relation, b.anchor_mention.tokens) for b in
                       d.bridging()),
                sorted((of(s.member), of(s.set_entity)) for s in d.memberships()),
                sorted((m.tokens, m.min_tokens) for m in d.mentions if m.min_tokens))

    originals = {d.id: d for d in corefkit.read(str(source))}  # names survive
    back = list(corefkit.read(str(tmp_path / "m")))
    assert len(back) == 21
    features = set()
    for doc in back:
        assert summary(doc) == summary(originals[doc.id]), doc.id
        features.update(k for k, v in features_present(doc).items() if v)
    assert {"discourse_deixis", "non_referring", "bridging", "split_antecedents",
            "min_spans"} <= features
