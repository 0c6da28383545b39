"""LCC JSON reader and writer: the reference counts of lcc.md §7, byte-identical round trips of
the 30 shared documents, group links, snapping, morphology and NER, errors, and conversions
to and from the other formats through the generic registry."""

from __future__ import annotations

import io
import json
import os
import re

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.lcc import layers as lcc_layers
from corefkit.converters.lcc import reader as lcc
from corefkit.converters.lcc import spec as lcc_spec
from corefkit.converters.lcc import writer as lcc_writer
from corefkit.converters import loss
from corefkit.converters.loss import ConversionReport, crossing_same_entity_mentions, describe_mention
from corefkit.alignment import AlignmentPolicy, align
from corefkit.converters.registry import FORMATS, guess_format, read, write
from corefkit.errors import FormatError, LossError, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, typed_links
from corefkit.passes import get_pass
from tests.conftest import CORPORA, FIXTURES

LCC = CORPORA / "lcc"
FILES = sorted(LCC.glob("*.nkas.json"))
TINY = FIXTURES / "lcc" / "tiny.nkas.json"


def read_bytes(data: bytes, name: str = "test.nkas.json", **options) -> Document:
    docs = list(lcc.read_stream(io.BytesIO(data), name, **options))
    assert len(docs) == 1
    return docs[0]


def write_text(doc: Document, **options) -> str:
    out = io.StringIO()
    lcc_writer.write_stream([doc], out, ConversionReport(), **options)
    return out.getvalue()


def clusters(doc: Document, layer: str = IDENTITY) -> set[frozenset[tuple[int, ...]]]:
    return {frozenset(m.tokens for m in doc.mentions_of(e)) for e in doc.entities_in(layer)}


def sets(doc: Document) -> set[tuple[frozenset, frozenset]]:
    def tokens(e):
        return frozenset(m.tokens for m in doc.mentions_of(e))
    return {(tokens(s.set_entity), tokens(s.member)) for s in doc.memberships()}


def checks(doc: Document) -> list[str]:
    return [r.check for r in doc.repairs]


def tiny_json() -> dict:
    return json.loads(TINY.read_text(encoding="utf-8"))


def with_layer(obj: dict, kind: str, version: int, content) -> bytes:
    for layer in obj["annotationLayers"]:
        if (layer["type"], layer["version"]) == (kind, version):
            layer["content"] = content if isinstance(content, str) else lcc_writer.layer_content(content)
    return lcc_writer.serialize(obj).encode("utf-8")


@pytest.fixture(scope="module")
def corpus() -> dict[int, list[Document]]:
    return {v: [d for f in FILES for d in read(f, layer=f"manualCoreferences@{v}")] for v in (1, 2)}


# ------------------------------------------------------------------ corpus README and lcc.md §1
def test_corpus_has_30_documents_with_the_documented_layers(corpus):
    assert len(FILES) == 30 and len(corpus[1]) == 30
    for doc in corpus[1]:
        layers = {(x["type"], x["version"]) for x in doc.attrs["lcc"]["json"]["annotationLayers"]}
        assert {("lex", 1), ("morphology", 4), ("ner", 10), ("anaphora_resolution", 3),
                ("manualCoreferences", 1), ("manualCoreferences", 2)} <= layers
        assert doc.id == os.path.basename(doc.file).removesuffix(".nkas.json")
    with_manual_lex = [d.id for d in corpus[1] if ("manualLex", 1) in {
        (x["type"], x["version"]) for x in d.attrs["lcc"]["json"]["annotationLayers"]}]
    assert with_manual_lex == ["116356"]


def test_layer_order_is_not_fixed(corpus):
    # v2 sometimes comes before v1: the reader selects by (type, version)
    orders = set()
    for doc in corpus[1]:
        versions = [x["version"] for x in doc.attrs["lcc"]["json"]["annotationLayers"]
                    if x["type"] == "manualCoreferences"]
        orders.add(tuple(versions))
    assert orders == {(1, 2), (2, 1)}


# ------------------------------------------------------------------ reference counts (lcc.md §7)
REFERENCE = {  # links, group links, empty Mentions, e- links, a- links, duplicates,
    #            distinct raw spans, spans off the token grid, direction contradicted
    1: (1053, 21, 2, 7, 6, 5, 1418, 1, 6),
    2: (748, 3, 2, 1, 0, 3, 984, 2, 4),
}


@pytest.mark.parametrize("version", [1, 2])
def test_reference_counts(corpus, version):
    docs = corpus[version]
    records = [r for d in docs for r in d.attrs["anaphoric_links"]]
    repairs = [c for d in docs for c in checks(d)]
    raw_spans = 0
    for doc in docs:
        spans = set()
        for m in doc.mentions:
            for span in m.attrs.get("_lcc_spans") or [_token_span(doc, m)]:
                spans.add(tuple(span))
        raw_spans += len(spans)
    found = (
        len(records) + repairs.count("lcc.duplicate-link"),
        sum(1 for r in records if r["layer"] == IDENTITY and len(r["antecedents"]) > 1),
        repairs.count("lcc.no-antecedent"),
        sum(1 for r in records if r["type"].startswith("e")),
        sum(1 for r in records if r["layer"] == DISCOURSE_DEIXIS),
        repairs.count("lcc.duplicate-link"),
        raw_spans,
        repairs.count("lcc.snapped-span"),
        repairs.count("lcc.direction-mismatch"),
    )
    assert found == REFERENCE[version]
    # lcc.md §7: one anaphora_resolution error object (116363), one manualLex layer (116356)
    errors = [(d.id, r.check) for d in docs for r in d.repairs if r.check == "lcc.layer-error"]
    assert errors == [("116363", "lcc.layer-error")]
    assert [d.id for d in docs if "lcc.manual-lex-ignored" in checks(d)] == ["116356"]
    # nothing else is repaired in the sample
    assert set(repairs) <= {"lcc.duplicate-link", "lcc.no-antecedent", "lcc.snapped-span",
                            "lcc.direction-mismatch", "lcc.layer-error", "lcc.manual-lex-ignored",
                            "lcc.lexeme-count"}


def _token_span(doc: Document, mention) -> list[int]:
    first = doc.tokens[mention.start].attrs["lcc_offset"]
    last = doc.tokens[mention.end].attrs["lcc_offset"]
    return [first[0], last[0] + last[1] - first[0]]


def test_group_links_are_accommodated_sets(corpus):
    v1 = corpus[1]
    groups = sum(len(s.evidence) // 2 for d in v1 for s in d.memberships())
    members = sum(len(r["antecedents"]) for d in v1 for r in d.attrs["anaphoric_links"]
                  if r["layer"] == IDENTITY and len(r["antecedents"]) > 1)
    assert groups == members  # one element-of edge (with its evidence) per group antecedent
    doc = next(d for d in v1 if d.id == "116363")
    found = []
    for set_entity, entity_members in doc.accommodated_sets().items():
        anaphors = [doc.text(m) for m in doc.mentions_of(set_entity)]
        names = sorted(doc.text(doc.mentions_of(e)[0]) for e in entity_members)
        found.append((anaphors, names))
    assert (["kurie"], ["lenkai", "rumunai", "slovakai"]) in found


def test_lexeme_count_equals_token_count_except_in_116356(corpus):
    for doc in corpus[1]:
        count = doc.attrs["lcc"]["json"]["lexemeCount"]
        if doc.id == "116356":
            assert (count, len(doc.tokens)) == (341, 353)
            assert "lcc.lexeme-count" in checks(doc)
        else:
            assert count == len(doc.tokens)


def test_tokens_sentences_morphology_and_ner(corpus):
    doc = corpus[1][0]
    assert doc.id == "116352" and len(doc.tokens) == 368
    first = doc.tokens[0]
    assert (first.form, first.attrs["lcc_offset"]) == ("D.", [0, 2])
    # several analyses: the first is the default tag, all stay on the token
    assert first.attrs["lcc_msd"] == [["d.", "Ys"], ["D.", "Ys"]]
    assert (first.lemma, first.xpos) == ("d.", "Ys")
    assert first.attrs["ner"] == "persons"
    assert doc.tokens[1].xpos == "Npfsnns" and doc.tokens[1].attrs["lcc_stem"]
    assert doc.meta["url"] == "http://archive.ph/6x88I"
    content = doc.attrs["lcc"]["json"]["content"]
    for token in doc.tokens:
        start, length = token.attrs["lcc_offset"]
        assert content[start:start + length] == token.form
    assert [(s.start, s.stop) for s in doc.sentences[:2]] == [(0, 9), (9, 13)]
    assert doc.sentences[0].attrs["lcc_paragraph"] == 0
    assert doc.sentences[-1].attrs["lcc_paragraph"] > 0


def test_links_are_kept_with_their_type_codes(corpus):
    doc = corpus[1][0]
    anaphor, antecedents, code, layer = typed_links.links(doc)[0]
    assert (doc.text(anaphor), [doc.text(a) for a in antecedents], code, layer) == (
        "jos", ["Dalia Grybauskaitė"], "poas", IDENTITY)
    assert anaphor.attrs["lcc_type"] == "poas"
    # the link list survives copies and passes (it stores mention ids)
    copy = get_pass("dominant-mentions")(doc)
    assert [(a.tokens, t) for a, _, t, _ in typed_links.links(copy)] == [(a.tokens, t) for a, _, t, _ in typed_links.links(doc)]


def test_ambiguous_and_referant_of_several_links(corpus):
    ambiguous = [m for d in corpus[1] for m in d.mentions if m.attrs.get("ambiguous")]
    assert len(ambiguous) == 1 and ambiguous[0].attrs["lcc_type"] == "poaa"
    # the referring expression of several links carries their codes joined by commas
    several = [m for d in corpus[1] for m in d.mentions if "," in m.attrs.get("lcc_type", "")]
    assert several
    for doc in corpus[1]:
        for m in doc.mentions:
            if "lcc_type" in m.attrs:
                codes = [t for a, _, t, _ in typed_links.links(doc) if a is m]
                assert m.attrs["lcc_type"].split(",") == codes


def test_spans_off_the_token_grid_keep_their_characters(corpus):
    doc = next(d for d in corpus[1] if d.id == "116358")
    off = [m for m in doc.mentions if "_lcc_spans" in m.attrs]
    assert [doc.text(m) for m in off] == ["Jungtinės Karalystės"]
    content = doc.attrs["lcc"]["json"]["content"]
    start, length = next(s for s in off[0].attrs["_lcc_spans"] if s != _token_span(doc, off[0]))
    assert content[start:start + length] == "Jungtinės Karalystės "
    message = next(r.message for r in doc.repairs if r.check == "lcc.snapped-span")
    assert "'Jungtinės Karalystės '" in message and "'Jungtinės Karalystės'" in message
    v2 = next(d for d in corpus[2] if d.id == "116363")
    late = next(m for m in v2.mentions if "_lcc_spans" in m.attrs)
    assert v2.text(late) == "Cecilia Malmstrom"
    assert "'ecilia Malmstrom'" in " ".join(r.message for r in v2.repairs)


def test_anaphors_without_antecedent(corpus):
    found = sorted(d.id for d in corpus[1] for r in d.repairs if r.check == "lcc.no-antecedent")
    assert found == ["116367", "116376"]
    for doc in corpus[1]:
        alone = [a for a, antecedents, _, _ in typed_links.links(doc) if not antecedents]
        assert all(doc.entity_of(a) is not None for a in alone)  # kept, in a chain of its own
        assert len(alone) == (1 if doc.id in found else 0)


def test_discourse_deixis_and_adverbial_as_identity():
    doc, = read(LCC / "116355.nkas.json")
    dd = clusters(doc, DISCOURSE_DEIXIS)
    assert dd and all(len(c) >= 2 for c in dd)
    same, = read(LCC / "116355.nkas.json", adverbial_as_identity=True)
    assert clusters(same, DISCOURSE_DEIXIS) == set()
    assert dd <= clusters(same)


# ------------------------------------------------------------------ the constructed fixture
def test_tiny_fixture_reads_every_variant():
    doc, = read(TINY)
    assert checks(doc) == ["lcc.layer-error", "lcc.direction-mismatch", "lcc.duplicate-link",
                           "lcc.no-antecedent", "lcc.snapped-span", "lcc.self-link"]
    text = {frozenset(doc.text(m) for m in doc.mentions_of(e)) for e in doc.entities_in(IDENTITY)}
    assert frozenset({"Jonas Petraitis", "J. Petraitis", "Petraitis", "jis", "–"}) in text
    assert frozenset({"Ona"}) in text and frozenset({"Vilnių"}) in text
    assert [sorted(doc.text(m) for m in c) for c in [doc.mentions_of(e) for e in doc.entities_in(DISCOURSE_DEIXIS)]] == [["Jie pavargo", "todėl"]]
    (set_entity, members), = doc.accommodated_sets().items()
    assert [doc.text(m) for m in doc.mentions_of(set_entity)] == ["Jie"]
    assert sorted(doc.text(doc.mentions_of(e)[0]) for e in members) == ["Jonas Petraitis", "Ona"]
    dash = next(m for m in doc.mentions if doc.text(m) == "–")
    assert dash.attrs["ellipsis_anchor"] is True and dash.attrs["lcc_type"] == "e-as"
    ona = next(m for m in doc.mentions if doc.text(m) == "Ona")
    assert ona.attrs["_lcc_spans"] == [[19, 3], [19, 4]]
    assert doc.tokens[3].attrs["lcc_msd"] == [["Ona", "Npfsnns"], ["ona", "Ncfsnn-"]]
    assert [r.line for r in doc.repairs][:2] == [62, 72]  # the line of the layer's content
    v2, = read(TINY, layer="manualCoreferences@2")
    assert "lcc.group-one-antecedent" in checks(v2) and v2.accommodated_sets() == {}


@pytest.mark.parametrize("value,expected", [
    (None, ("manualCoreferences", 1)), ("manualCoreferences@2", ("manualCoreferences", 2)),
    ("@2", ("manualCoreferences", 2)), ("2", ("manualCoreferences", 2)),
    ("manualCoreferences", ("manualCoreferences", 1)),
])
def test_layer_names(value, expected):
    assert lcc_layers.parse_layer(value) == expected


@pytest.mark.parametrize("value", ["ner@10", "manualCoreferences@x", "lex"])
def test_bad_layer_names(value):
    with pytest.raises(UsageError, match="manualCoreferences@VERSION"):
        lcc_layers.parse_layer(value)


def test_detection():
    assert guess_format(str(FILES[0])) == "lcc"
    assert lcc_spec.sniff('\ufeff{\n    "id":1,\n    "annotationLayers":[') is True
    assert lcc_spec.sniff("#begin document (a); part 000") is False


# ------------------------------------------------------------------ errors
def test_invalid_json_is_located():
    with pytest.raises(FormatError) as info:
        read_bytes(b'{\n    "id":1,\n    "content": ,\n}')
    e = info.value
    assert (e.line, e.column, e.check) == (3, 16, "lcc.invalid-json")
    assert str(e).startswith("test.nkas.json:3:16: not valid JSON")


def test_invalid_utf8_is_located():
    with pytest.raises(FormatError) as info:
        read_bytes(b'{\n "content": "a\xffb"}')
    assert (info.value.line, info.value.column, info.value.check) == (2, 15, "text.invalid-utf8")


@pytest.mark.parametrize("data,check", [
    (b"[1, 2]", "lcc.not-object"),
    (b'{"annotationLayers": []}', "lcc.no-content"),
    (b'{"content": "x", "annotationLayers": 3}', "lcc.bad-layers"),
])
def test_rejected_documents(data, check):
    with pytest.raises(FormatError) as info:
        read_bytes(data)
    assert info.value.check == check
    assert info.value.line is not None   # every error names its line (no 'content' key: 1)


def test_no_content_names_the_content_line_or_the_object():
    with pytest.raises(FormatError) as info:
        read_bytes(b'{\n "id": 1,\n "content": 3}')
    assert (info.value.check, info.value.line) == ("lcc.no-content", 3)
    with pytest.raises(FormatError) as info:    # other tools' JSON, as a fuzz test feeds it
        read_bytes(b'{\n "text": "x",\n "clusters": []}')
    assert (info.value.check, info.value.line) == ("lcc.no-content", 1)


def test_missing_version_lists_the_versions_present():
    with pytest.raises(FormatError) as info:
        read_bytes(TINY.read_bytes(), layer="manualCoreferences@3")
    assert info.value.check == "lcc.missing-layer"
    assert "manualCoreferences@1, manualCoreferences@2" in str(info.value)


@pytest.mark.parametrize("link,message", [
    ({"Mentions": [[0, 5]], "Type": "dtis"}, "'Referant' is None"),
    ({"Mentions": [[0, 5]], "Referant": [1], "Type": "dtis"}, "'Referant' is [1]"),
    ({"Mentions": [[0, "5"]], "Referant": [6, 9], "Type": "dtis"}, "'Mentions' is"),
])
def test_bad_links_are_rejected_with_the_layer_line(link, message):
    data = with_layer(tiny_json(), "manualCoreferences", 1, {"coreferences": [link]})
    with pytest.raises(FormatError) as info:
        read_bytes(data)
    assert info.value.check == "lcc.bad-link" and message in info.value.message
    assert info.value.line == 72 and "link 1" in info.value.message


def test_spans_outside_the_text_drop_their_link():
    data = with_layer(tiny_json(), "manualCoreferences", 1, {"coreferences": [
        {"Mentions": [[0, 5]], "Referant": [500, 3], "Type": "dtis"},
        {"Mentions": [[0, 5]], "Referant": [6, 9], "Type": "xx"}]})
    doc = read_bytes(data)
    assert checks(doc).count("lcc.span-outside-text") == 1 and "lcc.bad-type" in checks(doc)
    assert len(doc.attrs["anaphoric_links"]) == 1


def test_layer_that_is_not_json_is_rejected_or_skipped():
    data = with_layer(tiny_json(), "morphology", 4, "{not json")
    with pytest.raises(FormatError) as info:
        read_bytes(data)
    assert info.value.check == "lcc.layer-invalid-json" and info.value.line == 42
    doc = read_bytes(data, lenient=True)
    assert "lcc.layer-invalid-json" in checks(doc)
    assert all(t.xpos is None for t in doc.tokens)


def test_missing_lex_is_rejected_or_tokenised_on_whitespace():
    obj = tiny_json()
    obj["annotationLayers"] = [x for x in obj["annotationLayers"] if x["type"] != "lex"]
    data = lcc_writer.serialize(obj).encode("utf-8")
    with pytest.raises(FormatError) as info:
        read_bytes(data)
    assert info.value.check == "lcc.no-lex"
    doc = read_bytes(data, lenient=True)
    assert "lcc.no-lex" in checks(doc)
    assert [t.form for t in doc.tokens[:3]] == ["Jonas", "Petraitis", "ir"]
    assert len(doc.sentences) == 2


def test_cli_reports_bad_input_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.nkas.json"
    bad.write_bytes(b'{\n  "content": "x",\n  "annotationLayers": [}\n')
    code = main(["convert", str(bad), str(tmp_path / "out.conll")])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "lcc.invalid-json" in err
    assert "Traceback" not in err and not (tmp_path / "out.conll").exists()


# ------------------------------------------------------------------ writing
@pytest.mark.parametrize("version", [1, 2])
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.split(".")[0])
def test_round_trip_is_byte_identical(path, version, tmp_path):
    doc, = read(path, layer=f"manualCoreferences@{version}")
    original = path.read_bytes()
    out = tmp_path / path.name
    report = write([doc], out)
    assert out.read_bytes() == original
    assert report.losses == []
    again, = read(out, layer=f"manualCoreferences@{version}")
    assert write_text(again).encode("utf-8") == original


def test_serialisation_rule():
    assert lcc_writer.serialize({"a": [], "b": {"c": []}, "d": "x"}) == (
        '{\n    "a":[\n    ],\n    "b":{\n        "c":[\n        ]\n    },\n    "d":"x"\n}')


def test_changed_partition_regenerates_only_the_coreference_layer():
    doc, = read(LCC / "116363.nkas.json")
    original = doc.attrs["lcc"]["json"]
    changed = doc.copy()
    a, b = [e for e in changed.entities_in(IDENTITY) if changed.size(e) > 2][:2]
    changed.merge_entities(a, b)
    text = write_text(changed)
    written = json.loads(text)
    for before, after in zip(original["annotationLayers"], written["annotationLayers"]):
        if (before["type"], before["version"]) == ("manualCoreferences", 1):
            assert before["content"] != after["content"]
        else:
            assert before == after
    assert {k: v for k, v in written.items() if k != "annotationLayers"} == {
        k: v for k, v in original.items() if k != "annotationLayers"}
    back = read_bytes(text.encode("utf-8"))
    assert clusters(back) == clusters(changed)
    assert sets(back) == sets(changed)
    assert clusters(back, DISCOURSE_DEIXIS) == clusters(changed, DISCOURSE_DEIXIS)
    # every regenerated link points at the chain's dominant mention; stored types are kept
    codes = [x["Type"] for x in json.loads(written["annotationLayers"][
        [(x["type"], x["version"]) for x in written["annotationLayers"]].index(
            ("manualCoreferences", 1))]["content"])["coreferences"]]
    assert "dtis" in codes and "dbis" in codes
    assert write_text(back) == write_text(read_bytes(write_text(back).encode("utf-8")))


def test_writing_another_layer_keeps_the_rest():
    doc, = read(TINY)
    text = write_text(doc, layer="manualCoreferences@3")
    obj = json.loads(text)
    assert [(x["type"], x["version"]) for x in obj["annotationLayers"]][-1] == ("manualCoreferences", 3)
    back = read_bytes(text.encode("utf-8"), layer="@3")
    assert clusters(back) == clusters(doc) and sets(back) == sets(doc)


def test_one_document_per_file(tmp_path):
    docs = list(read(CORPORA / "litbank" / "105_persuasion_brat.conll")) * 2
    with pytest.raises(corefkit.errors.CorefkitError, match="holds one document"):
        write(docs, tmp_path / "two.nkas.json")
    assert list(tmp_path.iterdir()) == []


def test_clusters_from_conll2012_become_links_to_the_dominant_mention(tmp_path):
    source, = read(CORPORA / "litbank" / "105_persuasion_brat.conll")
    out = tmp_path / "persuasion.nkas.json"
    report = write([source], out)
    losses = {r.feature: r.count for r in report.losses}
    singletons = sum(1 for e in source.entities_in(IDENTITY) if source.size(e) == 1)
    assert losses == {"singletons": singletons}
    back, = read(out)
    assert [t.form for t in back.tokens] == [t.form for t in source.tokens]
    assert [(s.start, s.stop) for s in back.sentences] == [(s.start, s.stop) for s in source.sentences]
    assert clusters(back) == {c for c in clusters(source) if len(c) > 1}
    # no types in CoNLL-2012: every link is "----", and points at one mention of its chain
    obj = json.loads(out.read_text(encoding="utf-8"))
    links = json.loads(obj["annotationLayers"][1]["content"])["coreferences"]
    assert {x["Type"] for x in links} == {"----"}
    assert all(len(x["Mentions"]) == 1 for x in links)
    targets = {tuple(x["Mentions"][0]) for x in links}
    entities = [e for e in back.entities_in(IDENTITY)]
    assert len(targets) == len(entities)
    assert "lcc.unknown-type" in [r.check for r in report.repairs]
    assert out.read_text(encoding="utf-8") == write_text(back)  # deterministic, stable


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.split(".")[0])
def test_lcc_to_conll2012_keeps_clusters(path, tmp_path):
    """Issue 22: multiword tokens (``taip pat``) cannot be CoNLL-2012 words; they are refused,
    naming the first, or with ``forms="replace"`` written with '_' and counted as lost."""
    doc, = read(path)
    out = tmp_path / "out.conll"
    spaced = [t for t in doc.tokens if re.search(r"\s", t.form)]
    if spaced:
        first = spaced[0]
        word = first.index - doc.sentences[first.sentence].start + 1
        with pytest.raises(LossError, match=f"sentence {first.sentence + 1}, word {word} "):
            write([doc], out)
        assert not out.exists()
    report = write([doc], out, forms="replace")
    back, = read(out)
    assert [re.sub(r"\s", "_", t.form) for t in doc.tokens] == [t.form for t in back.tokens]
    assert report.loss_totals().get("tokens", 0) == len(spaced)
    dropped = set(crossing_same_entity_mentions(doc))
    expected = {frozenset(m.tokens for m in doc.mentions_of(e) if m not in dropped)
                for e in doc.entities_in(IDENTITY)}
    assert clusters(back) == expected
    losses = {r.feature for r in report.losses}
    assert "mention_attributes" in losses  # the type codes
    if doc.memberships():
        assert "split_antecedents" in losses
    if doc.entities_in(DISCOURSE_DEIXIS):
        assert "discourse_deixis" in losses


def _targets():
    for name in sorted(FORMATS):
        if name != "lcc" and FORMATS[name].writes_any_corpus:
            yield pytest.param(name, id=name)


@pytest.mark.parametrize("target", list(_targets()))
def test_lcc_through_every_registered_format(target, tmp_path):
    """LCC → X → back: what comes back is the LCC partition restricted to the mentions X kept."""
    spec = FORMATS[target]
    for path in FILES[:6]:
        doc, = read(path)
        out = tmp_path / (path.name.split(".")[0] + ("" if spec.writes_directory
                                                     else spec.patterns[0].lstrip("*")))
        options = {"forms": "replace"} if FORMATS[target].forms is not None else {}
        report = write([doc], out, format=target, **options)
        back = list(read(out, format=target))
        assert len(back) == 1
        back = back[0]
        if not spec.words_kept:  # raw text split by the reader's rule: align to the words
            back = align(doc, back, AlignmentPolicy(merged="keep")).document
        assert len([t for t in back.tokens if not t.is_empty]) == len(doc.tokens)
        kept = {m.tokens for m in back.mentions if m.layer == IDENTITY}
        original = {m.tokens for m in doc.mentions if m.layer == IDENTITY}
        assert kept <= original
        expected = {frozenset(t for t in c if t in kept) for c in clusters(doc)} - {frozenset()}
        assert clusters(back) == expected
        lost = len(original - kept)
        assert lost == 0 or report.losses  # what did not arrive is reported
        if "mention_attributes" in spec.capabilities - {f for f, _ in spec.partial}:
            # the type codes travel as attributes
            types = {m.tokens: m.attrs.get("lcc_type") for m in doc.mentions if m.layer == IDENTITY}
            assert {m.tokens: m.attrs.get("lcc_type") for m in back.mentions
                    if m.layer == IDENTITY} == {
                t: types[t] for t in kept}


def test_tokens_outside_sentences_and_characters_outside_the_bmp():
    obj = tiny_json()
    obj["content"] = obj["content"].replace("Jonas", "Jona\U0001F600", 1)  # same length
    lex = {"seg": [[0, 5], [6, 9]], "s": [[0, 7]], "p": [[0, 15]]}   # token 2 straddles s[0]
    doc = read_bytes(with_layer(obj, "lex", 1, lex))
    assert "lcc.token-outside-sentence" in checks(doc)
    assert "lcc.offset-unit-unverified" in checks(doc)
    assert "lcc.morphology-misaligned" in checks(doc)   # 24 analyses for 2 tokens


def test_what_lcc_cannot_hold_is_reported_before_writing(tmp_path):
    from corefkit.errors import LossError
    from corefkit.model import Token

    doc = Document("made")
    doc.add_sentence([Token(w) for w in "Ann and Bob met ; they left , it rained".split()])
    ann, bob, they = doc.new_entity(), doc.new_entity(), doc.new_entity()
    doc.add_span(0, 0, ann)
    doc.add_span(2, 2, bob)
    doc.add_span(5, 5, they, attrs={"lcc_type": "ppag", "note": "x"})
    doc.add_to_set(ann, they)
    doc.add_to_set(bob, they)
    lonely = doc.new_entity()
    doc.add_mention((0, 2), lonely)                  # discontinuous: Ann ... Bob
    doc.add_span(8, 8, lonely)
    dd = doc.new_entity(layer=DISCOURSE_DEIXIS)
    doc.add_span(9, 9, dd)                           # a DD chain of one mention
    one = doc.new_entity()
    doc.add_span(3, 3, one)
    solo = doc.new_entity()
    doc.add_span(7, 7, solo)
    doc.add_to_set(solo, one)                        # a one-member set
    doc.meta["genre"] = "test"
    out = tmp_path / "made.nkas.json"
    report = write([doc], out)
    losses = {r.feature: r.count for r in report.losses}
    # singletons: 'met' and 'rained' (a one-member set is no group link); 'it', left alone by
    # its discontinuous chain mate, is written as a link without antecedent (issue 22: it
    # was dropped and counted as a singleton, which it is not)
    assert losses == {"discontinuous": 1, "split_antecedents": 1, "discourse_deixis": 1,
                      "mention_attributes": 1, "metadata": 1, "singletons": 2}
    back, = read(out)
    assert sets(back) == {(frozenset({(5,)}), frozenset({(0,)})), (frozenset({(5,)}), frozenset({(2,)}))}
    assert json.loads(json.loads(out.read_text())["annotationLayers"][1]["content"]) == {
        "coreferences": [{"Mentions": [[0, 3], [8, 3]], "Referant": [18, 4], "Type": "ppag"},
                         {"Mentions": [], "Referant": [30, 2], "Type": "----"}]}
    target = tmp_path / "strict.nkas.json"
    with pytest.raises(LossError, match="would lose"):
        write([doc], target, fail_on_loss=True)
    assert not target.exists()


SINGLETON_SOURCES = [
    CORPORA / "codi-crac22" / "AMI_dev_v2.2022.ES2004a.CONLLUA",      # singletons in sets
    CORPORA / "gum" / "coref-gum-conll" / "GENTLE_esports_fifa.conll",  # untyped singletons
    LCC / "116354.nkas.json",                                         # typed, via CorefUD
]


@pytest.mark.parametrize("path", SINGLETON_SOURCES, ids=lambda p: p.name.split(".")[0])
def test_singleton_losses_are_exactly_the_singletons_not_written(path, tmp_path, monkeypatch):
    """Issue 13 bug 6: LCC holds singletons in part (``spec.partial``); the loss report lists
    exactly the singletons the writer drops, and none that it writes."""
    monkeypatch.setattr(loss, "MAX_EXAMPLES", 10**6)   # every example, not the first few
    if path.name.endswith(".nkas.json"):   # an LCC document without its stored JSON
        via = tmp_path / "via.conllu"
        write(read(path), via)
        path = via
    source = next(iter(read(path)))
    out = tmp_path / "out.nkas.json"
    report = write([source], out)
    back, = read(out)
    position = {t.index: k for k, t in enumerate(t for t in source.tokens if not t.is_empty)}
    written = {m.tokens for m in back.mentions if m.layer == IDENTITY}
    singletons = [source.mentions_of(e)[0] for e in source.entities_in(IDENTITY)
                  if source.size(e) == 1]
    dropped = [m for m in singletons if tuple(position[t] for t in m.tokens) not in written]
    kept = [m for m in singletons if m not in dropped]
    lost = [x for r in report.losses if r.feature == "singletons" for x in r.examples]
    assert sorted(lost) == sorted(describe_mention(source, m) for m in dropped)
    assert sum(r.count for r in report.losses if r.feature == "singletons") == len(dropped)
    # what spec.partial says LCC holds of singletons: a non-group type code, or a group link
    typed = [m for m in singletons if any(c[3:4] != "g" for c in typed_links.type_codes(m))]
    in_sets = {s.member for s in source.memberships()} | set(source.accommodated_sets())
    assert all(m in typed or source.entity_of(m) in in_sets for m in kept)
    assert not any(m in typed for m in dropped)
    assert "singletons" in lcc_spec.SPEC.capabilities and "singletons" in dict(lcc_spec.SPEC.partial)
    assert kept or dropped


def test_cli_convert_with_layer_and_directories(tmp_path, capsys):
    out = tmp_path / "v2.conll"
    assert main(["convert", str(FILES[11]), str(out), "--layer", "manualCoreferences@2", "-q",
                 "--forms", "replace"]) == 0
    v2, = read(FILES[11], layer="@2")
    back, = read(out)
    dropped = set(crossing_same_entity_mentions(v2))
    assert clusters(back) == {frozenset(m.tokens for m in v2.mentions_of(e) if m not in dropped)
                              for e in v2.entities_in(IDENTITY)}
    copies = tmp_path / "copies"
    copies.mkdir()
    assert main(["convert", str(LCC), str(copies), "--to", "lcc", "-q"]) == 0
    assert sorted(p.name for p in copies.iterdir()) == [p.name for p in FILES]
    assert all((copies / p.name).read_bytes() == p.read_bytes() for p in FILES)
    code = main(["convert", str(FILES[0]), str(tmp_path / "x.conll"), "--layer", "ner@10"])
    assert code == 2 and "manualCoreferences@VERSION" in capsys.readouterr().err
