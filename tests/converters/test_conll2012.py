"""CoNLL-2012 reader and writer: dialects, repairs, errors, round trips on real files."""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

import corefkit
from corefkit.converters.conll2012 import reader as conll2012
from corefkit.converters.conll2012 import spec as conll2012_spec
from corefkit.converters.conll2012 import writer as conll2012_writer
from corefkit.converters.registry import SNIFF_BYTES, read, write
from corefkit.errors import FormatError, LossError
from corefkit.model import Document, Token
from tests.conftest import CONFORMANCE, CORPORA


def read_text(text: str, name: str = "test.conll", **options) -> list[Document]:
    return list(conll2012.read_stream(io.BytesIO(text.encode("utf-8")), name, **options))


def write_text(docs, **options) -> str:
    out = io.StringIO()
    report = corefkit.converters.loss.ConversionReport()
    conll2012_writer.write_stream(docs, out, report, **options)
    return out.getvalue()


def clusters(doc: Document) -> set[frozenset[tuple[int, int]]]:
    return {frozenset(m.span for m in doc.mentions_of(e)) for e in doc.entities_in("identity")}


def semantic(doc: Document):
    """What a CoNLL-2012 round trip must keep: ids, forms, sentences, mentions, partition."""
    return (
        doc.pair_key(),
        [t.form for t in doc.tokens],
        [(s.start, s.stop) for s in doc.sentences],
        clusters(doc),
    )


# ------------------------------------------------------------------ real corpora: counts
LITBANK = {  # file: (tokens, sentences, mentions, entities, singletons) from its README
    "1064_the_masque_of_the_red_death_brat.conll": (2094, 84, 131, 45, 30),
    "2891_howards_end_brat.conll": (2022, 117, 332, 95, 63),
    "8867_the_magnificent_ambersons_brat.conll": (2143, 58, 233, 127, 94),
    "940_the_last_of_the_mohicans_a_narrative_of_1757_brat.conll": (2247, 52, 311, 199, 157),
    "78_tarzan_of_the_apes_brat.conll": (2025, 56, 317, 95, 66),
    "541_the_age_of_innocence_brat.conll": (2011, 52, 231, 87, 69),
    "1661_the_adventures_of_sherlock_holmes_brat.conll": (2095, 113, 287, 53, 36),
    "1400_great_expectations_brat.conll": (2045, 103, 354, 47, 26),
    "105_persuasion_brat.conll": (2088, 45, 286, 72, 52),
    "4300_ulysses_brat.conll": (2034, 179, 361, 66, 44),
}


def counts(docs: list[Document]) -> tuple[int, ...]:
    entities = [e for d in docs for e in d.entities_in("identity")]
    sizes = [d.size(e) for d in docs for e in d.entities_in("identity")]
    return (
        sum(len(d.tokens) for d in docs),
        sum(len(d.sentences) for d in docs),
        sum(len(d.mentions) for d in docs),
        len(entities),
        sizes.count(1),
    )


@pytest.mark.parametrize("name", sorted(LITBANK))
def test_litbank_counts(name):
    docs = list(read(CORPORA / "litbank" / name))
    assert len(docs) == 1 and docs[0].id == name.removesuffix(".conll")
    assert docs[0].part == "0"
    assert counts(docs) == LITBANK[name]
    assert docs[0].repairs == []


def test_gum_exports_counts():
    gum = list(read(CORPORA / "gum" / "coref-gum-conll"))
    assert len(gum) == 46
    assert counts(gum)[0] == 42724 and counts(gum)[2:] == (12507, 6721, 5001)
    assert all(len(d.sentences) == 1 for d in gum)  # no sentence breaks in the export
    onto = list(read(CORPORA / "gum" / "coref-ontogum-conll"))
    assert len(onto) == 46
    assert counts(onto)[0] == 42724 and counts(onto)[2:] == (5393, 1219, 1)
    # every OntoGUM document has an empty name: named after its file, with a repair record
    for doc in onto:
        assert os.path.basename(doc.file).startswith(doc.id)
        assert [r.check for r in doc.repairs] == ["conll.empty-name"]


def test_gum_string_ids_are_kept_and_parsed():
    [doc] = read(CORPORA / "gum" / "coref-gum-conll" / "GUM_academic_art.conll", parse_gum_ids=True)
    first = doc.entities[0]
    assert first.attrs["original_id"] == "abstract-1"
    assert first.attrs["etype"] == "abstract" and first.attrs["group"] == "1"
    with_identity = [e for e in doc.entities if "identity" in e.attrs]
    assert with_identity and all("%" not in e.attrs["identity"] for e in with_identity)


def cid(doc, mention):
    """The CoNLL id a mention was read with: its entity's original id."""
    return doc.entity_of(mention).attrs["original_id"]


def test_ontogum_juxtaposed_chunks():
    """``(5(6)`` on line 42 of GENTLE_esports_fifa: an opener directly followed by a singleton."""
    [doc] = read(CORPORA / "gum" / "coref-ontogum-conll" / "GENTLE_esports_fifa.conll")
    line = (CORPORA / "gum" / "coref-ontogum-conll" / "GENTLE_esports_fifa.conll").read_text().split("\n")[41]
    assert line.endswith("(5(6)")
    index = int(line.split("\t")[0])
    opened = [m for m in doc.mentions if m.start == index]
    assert {cid(doc, m) for m in opened} == {"5", "6"}
    assert any(m.end > index for m in opened if cid(doc, m) == "5")


# ------------------------------------------------------------------ dialects
def test_begin_line_variants_and_parts():
    text = (
        "#begin document (bc/cctv/00/cctv_0001); part 003\nbc 3 0 Hello (1)\n\n#end document\n"
        "# begin document plain name\nw (2)\n# end document\n"
        "#begin document (LuoTestCase); \nx 0 0 a -\n#end document\n"
        "#begin document (with (parens)); part 0\nx 0 0 a -\n#end document\n"
    )
    docs = read_text(text)
    assert [(d.id, d.part) for d in docs] == [
        ("bc/cctv/00/cctv_0001", "003"), ("plain name", None), ("LuoTestCase", None),
        ("with (parens)", "0")]
    assert docs[0].name == "bc/cctv/00/cctv_0001; part 3"
    assert docs[2].pair_key() == ("LuoTestCase", "0") and docs[3].pair_key() == ("with (parens)", "0")


def test_empty_names_get_stable_distinct_names():
    text = "# begin document \n0 a (1)\n# end document\n# begin document \n0 b (1)\n# end document\n"
    docs = read_text(text, "dir/file.conll")
    assert [d.id for d in docs] == ["file", "file-2"]


def test_empty_cell_markers_and_trailing_tab():
    text = ("#begin document (d); part 0\n"
            "d\t0\t0\tA\t(0\nd\t0\t1\tB\t_\nd\t0\t2\tC\t\nd\t0\t3\tD\t-\nd\t0\t4\tE\t0)\n"
            "d\t0\t5\t.\t-\t\n\n#end document\n")
    [doc] = read_text(text)
    assert clusters(doc) == {frozenset({(0, 4)})}
    assert doc.tokens[2].form == "C"


def test_two_column_space_layout():
    path = CONFORMANCE / "data/reference-coreference-scorers/DataFiles/TC-B.key"
    [doc] = read(path)
    assert all(t.form == "_" for t in doc.tokens)
    assert {r.check for r in doc.repairs} == {"conll.no-word-column"}
    assert any(cid(doc, m) == "10043" for m in doc.mentions)


def test_chunks_without_bars_crossing_and_out_of_order_closers():
    text = ("#begin document (d); part 0\n"
            "0 a (3(4)\n1 b (7|(8\n2 c 3)(5\n3 d 7)|8)|5)\n4 e 2)\n#end document\n")
    with pytest.raises(FormatError) as err:
        read_text(text)
    assert err.value.check == "conll.unbalanced-close" and err.value.line == 6
    [doc] = read_text(text.replace("4 e 2)\n", "4 e -\n"))
    spans = sorted((cid(doc, m), m.span) for m in doc.mentions)
    assert spans == [("3", (0, 2)), ("4", (0, 0)), ("5", (2, 3)), ("7", (1, 3)), ("8", (1, 3))]


def test_same_entity_nesting_and_shared_token():
    text = ("#begin document (d); part 0\n"
            "0 a (7\n1 b (7)\n2 c 7)|(7\n3 d 7)\n#end document\n")
    [doc] = read_text(text)
    assert sorted(m.span for m in doc.mentions) == [(0, 2), (1, 1), (2, 3)]


def test_litbank_special_cells():
    """Closers out of LIFO order (`36)|5)`) and the same id closed twice (`78)|78)|63)`)."""
    [doc] = read(CORPORA / "litbank" / "78_tarzan_of_the_apes_brat.conll")
    by_id = {}
    for m in doc.mentions:
        by_id.setdefault(cid(doc, m), []).append(m.span)
    nested = [spans for spans in by_id.values()
              if any(a != b and a[0] <= b[0] and b[1] <= a[1] for a in spans for b in spans)]
    assert nested  # same-entity nested mentions exist


# ------------------------------------------------------------------ repairs and errors
def test_repairs_are_recorded():
    text = ("#begin document (d); part 0\n"
            "d 0 0 a (1)\n# a comment\nd 0 5 b (1)|(1)|(2)\n"
            "#begin document (e); part 0\ne 0 0 x -\n")
    d, e = read_text(text)
    checks = [r.check for r in d.repairs]
    assert checks.count("conll.duplicate-mention") == 1
    assert "conll.same-span-mentions" in checks and "conll.comment-in-document" in checks
    assert "conll.missing-end" in checks
    assert d.sentences[0].comments == ["# a comment"]
    assert [r.check for r in e.repairs] == ["conll.missing-end"]
    assert len(d.mentions) == 3


def test_ontonotes_layout_columns():
    """12+N layout: POS, lemma and speaker are read; bad word numbers are reported once."""
    row = "bc/x\t0\t{n}\t{w}\tNNP\t*\t{w}\t-\t-\tSpeaker_1\t*\t{c}"
    text = "\n".join(["#begin document (bc/x); part 000",
                      row.format(n=0, w="John", c="(1)"), row.format(n=5, w="ran", c="-"),
                      row.format(n=9, w="off", c="-"), "", "#end document", ""])
    [doc] = read_text(text)
    assert doc.tokens[0].xpos == "NNP" and doc.tokens[1].lemma == "ran"
    assert doc.sentences[0].speaker == "Speaker_1"
    assert [r.check for r in doc.repairs] == ["conll.word-number"]


def test_comments_attach_to_the_next_sentence():
    text = ("#begin document (d); part 0\n# first\nd 0 0 a -\n\n# second\nd 0 0 b -\n"
            "# trailing\n#end document\n")
    [doc] = read_text(text)
    assert [s.comments for s in doc.sentences] == [["# first"], ["# second", "# trailing"]]


def test_mixed_separators_are_reported():
    [doc] = read_text("#begin document (d); part 0\nd\t0\t0\ta\t-\nd 0 1 b -\n#end document\n")
    assert [r.check for r in doc.repairs] == ["conll.mixed-separators"]


@pytest.mark.parametrize("text, check, line", [
    ("#begin document (d); part 0\nd 0 0 a ((3\n#end document\n", "conll.bad-chunk", 2),
    ("#begin document (d); part 0\nd 0 0 a 3)(\n#end document\n", "conll.bad-chunk", 2),
    ("#begin document (d); part 0\nd 0 0 a (3\n#end document\n", "conll.unclosed", 3),
    ("#begin document (d); part 0\nd 0 0 a 3)\n#end document\n", "conll.unbalanced-close", 2),
    ("d 0 0 a -\n", "conll.outside-document", 1),
    ("#end document\n", "conll.outside-document", 1),
    ("#begin document (d); part 0\nlonely\n#end document\n", "conll.too-few-columns", 2),
])
def test_errors_are_located(text, check, line):
    with pytest.raises(FormatError) as err:
        read_text(text, "bad.conll")
    assert err.value.check == check and err.value.line == line
    assert str(err.value).startswith(f"bad.conll:{line}")


def test_invalid_utf8_is_located():
    data = b"#begin document (d); part 0\nd 0 0 caf\xe9 -\n#end document\n"
    with pytest.raises(FormatError) as err:
        list(conll2012.read_stream(io.BytesIO(data), "latin1.conll"))
    assert err.value.line == 2 and err.value.check == "text.invalid-utf8"
    assert "byte offset 37" in str(err.value)


def test_bom_and_crlf_are_accepted():
    data = "\ufeff#begin document (d); part 0\r\nd 0 0 a (1)\r\n#end document\r\n".encode()
    [doc] = conll2012.read_stream(io.BytesIO(data), "win.conll")
    assert doc.id == "d" and len(doc.mentions) == 1


def test_plus_ids_become_split_antecedent_sets():
    text = ("#begin document (d); part 0\n"
            "d 0 0 John (12)\nd 0 1 and -\nd 0 2 Mary (3)\nd 0 3 they (12+3)\n#end document\n")
    [doc] = read_text(text)
    sets = doc.accommodated_sets()
    [(set_entity, members)] = sets.items()
    assert set_entity.attrs["original_id"] == "12+3"
    assert [m.attrs["original_id"] for m in members] == ["12", "3"]
    assert "conll.split-antecedent-id" in [r.check for r in doc.repairs]
    # written back, the set is reported lost and the mention stays in its own chain
    report = write_text_report([doc])
    assert report.loss_totals()["split_antecedents"] == 2


def write_text_report(docs, **options):
    out = io.StringIO()
    report = corefkit.converters.loss.ConversionReport()
    conll2012_writer.write_stream(docs, out, report, **options)
    from corefkit.converters.loss import find_losses
    for doc in docs:
        report.losses.extend(find_losses(doc, corefkit.converters.registry.get("conll2012").capabilities,
                                         conll2012_writer.loss_actions()))
    return report


# ------------------------------------------------------------------ writer
def test_canonical_chunk_order():
    doc = Document("w", "0")
    doc.add_sentence(["a", "b", "c", "d", "e"])
    e = [doc.new_entity() for _ in range(4)]
    doc.add_span(0, 3, e[0])
    doc.add_span(1, 3, e[1])
    doc.add_span(3, 4, e[2])
    doc.add_span(3, 3, e[3])
    text = write_text([doc])
    cells = [line.split("\t")[-1] for line in text.split("\n")[1:6]]
    assert cells == ["(0", "(1", "-", "1)|0)|(2|(3)", "2)"]
    only_closers = Document("w2", "0")
    only_closers.add_sentence(["a", "b"])
    x, y = only_closers.new_entity(), only_closers.new_entity()
    only_closers.add_span(0, 1, x)
    only_closers.add_span(1, 1, y)
    assert write_text([only_closers]).split("\n")[2].endswith("\t(1)|0)")


def test_writer_layouts():
    [doc] = read(CORPORA / "gum" / "coref-gum-conll" / "GUM_academic_art.conll")
    default = write_text([doc])
    assert default.startswith("#begin document (GUM_academic_art); part 000\nGUM_academic_art\t0\t0\t")
    gum = write_text([doc], layout="gum", keep_ids=True)
    source = (CORPORA / "gum" / "coref-gum-conll" / "GUM_academic_art.conll").read_text()
    assert gum.split("\n")[:4] == source.split("\n")[:4]
    [again] = read_text(gum)
    assert semantic(again)[1:] == semantic(doc)[1:]
    assert {e.attrs["original_id"] for e in again.entities} == {e.attrs["original_id"] for e in doc.entities}


def test_source_layout_keeps_litbank_columns_and_empty_cells():
    path = CORPORA / "litbank" / "105_persuasion_brat.conll"
    [doc] = read(path)
    text = write_text([doc], layout="source")
    lines = text.split("\n")
    assert lines[0] == "#begin document (105_persuasion_brat); part 0"
    assert lines[1] == path.read_text().split("\n")[1]  # 13 columns, empty last cell
    [again] = read_text(text)
    assert semantic(again) == semantic(doc)


def test_form_whitespace_is_refused_or_replaced_when_asked(tmp_path: Path):
    """Issue 22: a form CoNLL-2012 cannot hold (white space, empty) is refused, naming the
    token; with ``forms="replace"`` it is written with '_' and counted as lost (it was
    replaced with only a warning, and the key no longer scored against its source)."""
    doc = Document("w", "0")
    doc.add_sentence([Token("New York"), Token("")])
    target = tmp_path / "w.conll"
    with pytest.raises(LossError, match=r"document 'w', sentence 1, word 1 'New York': "
                                        r"conll2012 cannot hold this form: it holds ' '"):
        write([doc], target)
    assert not target.exists()
    report = write([doc], target, forms="replace")
    assert "\tNew_York\t" in target.read_text() and "\t_\t-" in target.read_text()
    assert report.loss_totals() == {"tokens": 2} and report.repairs == []
    assert [t.form for t in next(read(target)).tokens] == ["New_York", "_"]


def test_losses_are_reported_and_strict_writes_nothing(tmp_path: Path):
    doc = Document("w", "0")
    doc.add_sentence(["a", "b", "c", Token("_", is_empty=True)])
    e, f = doc.new_entity(), doc.new_entity()
    doc.add_mention([0, 2], e)               # discontinuous
    doc.add_mention([3], f)                  # zero
    doc.add_span(1, 1, e)
    target = tmp_path / "out.conll"
    report = write([doc], target)
    totals = report.loss_totals()
    assert totals["discontinuous"] == 1 and totals["zeros"] == 1
    [again] = read(target)
    assert clusters(again) == {frozenset({(1, 1)})}
    target.unlink()
    with pytest.raises(LossError, match="discontinuous"):
        write([doc], target, fail_on_loss=True)
    assert not target.exists() and os.listdir(tmp_path) == []


def test_crossing_same_entity_mentions_keep_the_first():
    doc = Document("w", "0")
    doc.add_sentence(["a", "b", "c", "d"])
    e = doc.new_entity()
    doc.add_span(0, 2, e)
    doc.add_span(1, 3, e)
    report = write_text_report([doc])
    assert report.loss_totals()["crossing_same_entity"] == 1
    [again] = read_text(write_text([doc]))
    assert clusters(again) == {frozenset({(0, 2)})}


def test_shared_token_of_one_entity_is_written_and_warned():
    doc = Document("w", "0")
    doc.add_sentence(["a", "b", "c"])
    e = doc.new_entity()
    doc.add_span(0, 1, e)
    doc.add_span(1, 2, e)
    out = io.StringIO()
    report = corefkit.converters.loss.ConversionReport()
    conll2012_writer.write_stream([doc], out, report)
    assert "\t0)|(0\n" in out.getvalue()
    assert [r.check for r in report.repairs] == ["conll.shared-token-same-entity"]
    [again] = read_text(out.getvalue())
    assert clusters(again) == clusters(doc)


# ------------------------------------------------------------------ round trips
def _conll_files() -> list[Path]:
    files = []
    for root, _, names in os.walk(CONFORMANCE / "data"):
        for name in sorted(names):
            path = Path(root) / name
            head = path.read_bytes()[:SNIFF_BYTES].decode("utf-8", errors="replace")
            if conll2012_spec.sniff(head):
                files.append(path)
    for folder in ("gum/coref-gum-conll", "gum/coref-ontogum-conll", "litbank"):
        files += sorted((CORPORA / folder).glob("*.conll"))
    return files


ROUND_TRIP_FILES = _conll_files()


def test_round_trip_covers_the_data():
    assert len(ROUND_TRIP_FILES) >= 130 + 92 + 10


@pytest.mark.parametrize("path", ROUND_TRIP_FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
@pytest.mark.parametrize("layout", ["default", "source"])
def test_round_trip(path: Path, layout: str):
    docs = list(read(path, format="conll2012"))
    first = write_text(docs, layout=layout)
    again = read_text(first, path.name)
    assert [semantic(d) for d in again] == [semantic(d) for d in docs]
    assert write_text(again, layout=layout) == first


def test_atomic_write_keeps_old_file_on_failure(tmp_path: Path):
    target = tmp_path / "out.conll"
    target.write_text("old content\n")

    def broken():
        yield from read(CORPORA / "litbank" / "105_persuasion_brat.conll")
        raise RuntimeError("reader failed half-way")

    with pytest.raises(RuntimeError):
        write(broken(), target)
    assert target.read_text() == "old content\n"
    assert sorted(os.listdir(tmp_path)) == ["out.conll"]


def test_streaming_reads_one_document_at_a_time():
    text = "".join(f"#begin document (d{i}); part 0\nd 0 0 a (1)\n#end document\n" for i in range(3))
    stream = conll2012.read_stream(io.BytesIO(text.encode()), "many.conll")
    assert next(stream).id == "d0"
    assert next(stream).id == "d1"


def test_sniff():
    assert conll2012_spec.sniff("#begin document (x); part 000\n")
    assert conll2012_spec.sniff("# begin document GUM\n")
    assert not conll2012_spec.sniff("# newdoc id = x\n")
    assert re.match(conll2012.BEGIN_RE, "#begin document (x)")


@pytest.mark.parametrize("name", ["GENTLE_esports_fifa.conll", "GUM_academic_art.conll"])
def test_deferred_mentions_read_as_built_ones(name):
    """The reader hands its mentions over unbuilt (Document.defer_mentions): scoring's chains
    read from them equal those of the built mentions, and the built ones are numbered in
    file order."""
    from corefkit.scoring.align import document_mentions

    path = CORPORA / "gum" / "coref-ontogum-conll" / name
    [unbuilt] = read(path)
    [built] = read(path)
    lines = [m.line for m in built.mentions]
    assert unbuilt._pending is not None and built._pending is None
    assert unbuilt.chain_extents() == built.chain_extents()
    labelled = document_mentions(built, labeler=lambda doc, m: m.id)
    assert document_mentions(unbuilt).clusters == labelled.clusters
    assert [m.id for m in built.mentions] == list(range(len(lines)))
    assert all(m.line is not None and m.attrs == {} for m in built.mentions)
