"""CoNLL-UA exploded reader and writer: real CODI-CRAC files, UA test suites, variants, errors."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

import corefkit
from corefkit.converters.ua_exploded import reader as ua_exploded
from corefkit.converters.ua_exploded import spec as ua_exploded_spec
from corefkit.converters.ua_exploded import writer as ua_writer
from corefkit.converters.loss import ConversionReport
from corefkit.cli.main import main
from corefkit.converters.registry import get, guess_format, read, sniff_text, write
from corefkit.errors import FormatError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Mention
from tests.conftest import CONFORMANCE, CORPORA, FIXTURES

CODI = CORPORA / "codi-crac22"
PLURAL = CONFORMANCE / "data" / "universal-anaphora-scorer" / "plural-tests"
TESTS_UA = CONFORMANCE / "data" / "corefud-scorer" / "tests-ua"
OVERLAPPING = TESTS_UA / "partial-match-corefud" / "overlapping_mentions"
HEADER = ("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
          "BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM")


# ------------------------------------------------------------------ helpers
def read_text(text: str, name: str = "test.conllua") -> list[Document]:
    return list(ua_exploded.read_stream(io.BytesIO(text.encode("utf-8")), name))


def write_text(docs, report: ConversionReport | None = None, **options) -> str:
    out = io.StringIO()
    ua_writer.write_stream(docs, out, report or ConversionReport(), **options)
    return out.getvalue()


def row(i, form, identity="_", bridging="_", dd="_", reference="_", nom_sem="_") -> str:
    return "\t".join([str(i), form] + ["_"] * 8 + [identity, bridging, dd, reference, nom_sem])


def document(*lines: str, name: str = "d", header: str = HEADER) -> str:
    return "\n".join([header, f"# newdoc id = {name}", f"# sent_id = {name}-1", *lines, ""]) + "\n"


def checks(doc: Document) -> Counter:
    return Counter(r.check for r in doc.repairs)


def by_markable(doc: Document, layer: str = IDENTITY) -> dict[str, Mention]:
    return {m.attrs["markable_id"]: m for m in doc.mentions
            if m.layer == layer and "markable_id" in m.attrs}


def token_lines(text: str) -> list[str]:
    return [line for line in text.split("\n") if line and not line.startswith("#")]


def entity_view(doc: Document, entity):
    if entity is None:
        return None
    return (entity.layer, entity.pseudo, frozenset(m.tokens for m in doc.mentions_of(entity)))


def semantic(doc: Document, comments: bool = True) -> dict:
    """What a CoNLL-UA round trip keeps: everything but ids (conversion-notes §7).

    ``comments=False`` leaves comments out, for documents without ``# text`` (which the
    writer generates).
    """

    def attrs(m: Mention):
        return tuple(sorted((k, v) for k, v in m.attrs.items()
                            if k not in ("markable_id", "_ua_entity_id")))

    return {
        "id": doc.id,
        "tokens": [(t.form, t.lemma, t.upos, t.xpos, t.feats, t.head, t.deprel, t.deps, t.misc,
                    t.is_empty, tuple(sorted(t.attrs.items()))) for t in doc.tokens],
        "sentences": [(s.start, s.stop, s.sent_id, tuple(s.comments) if comments else (),
                       s.speaker) for s in doc.sentences],
        "mentions": sorted((m.tokens, m.layer, m.nonref, m.min_tokens, attrs(m),
                            entity_view(doc, doc.entity_of(m))) for m in doc.mentions),
        "sets": sorted((entity_view(doc, s.member), entity_view(doc, s.set_entity),
                        tuple(sorted(m.tokens for m in s.evidence))) for s in doc.memberships()),
        "bridging": sorted((b.anaphor.tokens, entity_view(doc, b.anchor), b.relation,
                            b.anchor_mention.tokens if b.anchor_mention else None,
                            tuple(sorted(b.attrs.items()))) for b in doc.bridging()),
    }


# ------------------------------------------------------------------ CODI-CRAC 2022: README counts
CODI_COUNTS = {  # file: documents, sentences, token lines, identity markables, bridging, DD
    "Persuasion_train.2022.first10docs.CONLLUA": (10, 391, 4186, 1266, 120, 87),
    "light_train.2022.first10docs.CONLLUA": (10, 488, 6013, 2009, 195, 62),
    "AMI_dev_v2.2022.ES2004a.CONLLUA": (1, 374, 3308, 887, 111, 50),
}


@pytest.fixture(scope="module")
def codi() -> dict[str, list[Document]]:
    return {name: list(read(CODI / name)) for name in CODI_COUNTS}


@pytest.mark.parametrize("name", sorted(CODI_COUNTS))
def test_codi_crac_counts(codi, name):
    docs = codi[name]
    found = (
        len(docs),
        sum(len(d.sentences) for d in docs),
        sum(len(d.tokens) for d in docs),
        sum(1 for d in docs for m in d.mentions if m.layer == IDENTITY and "markable_id" in m.attrs),
        sum(len(d.bridging()) for d in docs),
        sum(1 for d in docs for m in d.mentions if m.layer == DISCOURSE_DEIXIS),
    )
    assert found == CODI_COUNTS[name]
    assert all(d.attrs["ua_layout"]["tab_lines"] == 0 for d in docs)  # space-aligned only


def test_codi_crac_totals(codi):
    docs = [d for name in sorted(codi) for d in codi[name]]
    assert sum(len(d.non_referring()) for d in docs) == 530
    dd = [m for d in docs for m in d.mentions if m.layer == DISCOURSE_DEIXIS]
    assert len(dd) == 199
    # 91 DD anaphors reuse the MarkableID of an identity markable over the same tokens
    shared = [m for d in docs for m in d.mentions if m.layer == DISCOURSE_DEIXIS
              and m.attrs["markable_id"] in by_markable(d)]
    assert len(shared) == 91
    assert all(by_markable(d)[m.attrs["markable_id"]].tokens == m.tokens
               for d in docs for m in d.mentions if m in shared)
    layout = [d.attrs["ua_layout"] for d in docs]
    assert sum(x["space_lines"] for x in layout) == 13507
    assert sum(x["short_lines"] for x in layout) == 8488  # 14 of 15 fields: padded, reported
    assert sum(1 for d in docs for s in d.sentences for c in s.comments
               if c.startswith("# turn_id")) == 645
    assert sum(len(d.sentences) for d in docs) == 1253
    # the irregularities of these files: the Min values, one one-member set, and the layout
    # (space alignment and missing last columns, one warning each per document, as issue 4 asks)
    assert sum((checks(d) for d in docs), Counter()) == Counter(
        {"ua.min-setting-shift": 1711, "ua.min-outside-span": 31, "ua.set-one-member": 1,
         "ua.space-separated": 21, "ua.missing-columns": 21})
    identity = [m for d in docs for m in d.mentions if m.layer == IDENTITY]
    assert len(identity) == 4162
    assert sum(1 for m in identity if m.min_tokens is not None) == 4131
    assert all(set(m.min_tokens) <= set(m.tokens) for d in docs for m in d.mentions
               if m.min_tokens is not None)


def test_codi_crac_min_repairs(codi):
    light = Counter(r.check for d in codi["light_train.2022.first10docs.CONLLUA"] for r in d.repairs)
    assert light["ua.min-setting-shift"] == 1711
    assert light["ua.min-outside-span"] == 14
    for name in ("Persuasion_train.2022.first10docs.CONLLUA", "AMI_dev_v2.2022.ES2004a.CONLLUA"):
        assert not any(r.check == "ua.min-setting-shift" for d in codi[name] for r in d.repairs)
    ami = codi["AMI_dev_v2.2022.ES2004a.CONLLUA"][0]
    m679 = by_markable(ami)["markable_679"]
    assert m679.min_tokens is None and ami.tokens[m679.start].form and m679.tokens == (408,)
    dropped = [r for r in ami.repairs if r.check == "ua.min-outside-span"]
    assert any("markable_679" in r.message and "Min=411" in r.message for r in dropped)
    assert all(r.action == "dropped" and r.line is not None and r.column for r in dropped)
    # LIGHT numbers Min without the 20 tokens of the '# setting' sentence: "I" is token 22,
    # written Min=2
    first = codi["light_train.2022.first10docs.CONLLUA"][0]
    assert [len(first.sentences[0])] == [20] and first.sentences[0].comments[0] == "# setting"
    m156 = by_markable(first)["markable_156"]
    assert m156.tokens == (21,) and m156.min_tokens == (21,)
    shifted = next(r for r in first.repairs if "markable_156" in r.message)
    assert shifted.check == "ua.min-setting-shift" and "Min=22" in shifted.message


def test_codi_crac_split_antecedents(codi):
    docs = [d for name in sorted(codi) for d in codi[name]]
    identity_sets = [s for d in docs for s in d.accommodated_sets() if s.layer == IDENTITY]
    dd_sets = [s for d in docs for s in d.accommodated_sets() if s.layer == DISCOURSE_DEIXIS]
    assert len(identity_sets) == 29 and len(dd_sets) == 10
    carriers = {(m.layer, id(m)) for d in docs for s in d.memberships() for m in s.evidence}
    assert Counter(layer for layer, _ in carriers) == {IDENTITY: 56, DISCOURSE_DEIXIS: 31}

    def sets(doc):
        return {s.attrs["original_id"]: sorted(m.attrs["original_id"] for m in members)
                for s, members in doc.accommodated_sets().items()}

    light = {d.id: d for d in codi["light_train.2022.first10docs.CONLLUA"]}
    nested = sets(light["light_train/episode_6614"])
    assert nested["41"] == ["23", "38"] and nested["23"] == ["17", "19"]  # a set inside a set
    one = light["light_train/episode_6927"]
    assert sets(one)["47"] == ["10"]
    assert any(r.check == "ua.set-one-member" and "set 47" in r.message for r in one.repairs)
    ami = codi["AMI_dev_v2.2022.ES2004a.CONLLUA"][0]
    ami_sets = sets(ami)
    assert ami_sets["98"] == ["84-Pseudo", "91-Pseudo", "92-Pseudo"]
    assert ami_sets["4-DD"] == ["2-DD", "3-DD"]
    members = {m for s, ms in ami.accommodated_sets().items()
               if s.attrs["original_id"] == "98" for m in ms}
    assert all(e.pseudo and all(x.nonref for x in ami.mentions_of(e)) for e in members)
    # ElementOf=107,156,342 on one markable: three memberships with that markable as evidence
    m455 = by_markable(ami)["markable_455"]
    assert sorted(s.set_entity.attrs["original_id"] for s in ami.memberships()
                  if m455 in s.evidence) == ["107", "156", "342"]


def test_codi_crac_bridging_and_attributes(codi):
    docs = [d for name in sorted(codi) for d in codi[name]]
    bridges = [b for d in docs for b in d.bridging()]
    assert len(bridges) == 426 and all(b.anchor_mention is not None for b in bridges)
    assert Counter(b.relation for b in bridges) == {
        "undersp-rel": 187, "poss": 66, "subset": 54, "element": 37, "element-inv": 35,
        "poss-inv": 18, "subset-inv": 16, "other": 13}
    ami = codi["AMI_dev_v2.2022.ES2004a.CONLLUA"][0]
    m178 = by_markable(ami)["markable_178"]
    bridge = next(b for b in ami.bridging() if b.anaphor is m178)
    assert bridge.relation == "undersp-rel"
    assert bridge.anchor_mention is by_markable(ami)["markable_769"]
    assert bridge.anchor.attrs["original_id"] == "1"
    assert m178.attrs["entity_type"] == "person" and m178.attrs["genericity"] == "generic-yes"
    assert m178.attrs["_ua_nom_sem"] == ("Entity_Type", "Genericity")
    assert ami.tokens[834].form == "_"  # AMI token 835: "T _ Rex"
    kinds = Counter(m.nonref for d in docs for m in d.non_referring())
    assert set(kinds) <= {"predicate", "quantifier", "expletive", "coordination", "idiom",
                          "unknown"}


# ------------------------------------------------------------------ round trips on all UA data
def ua_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file()
                  and not p.name.endswith(("README", ".md", "LICENSE")))


ROUND_TRIP = [(p, {}) for p in ua_files(CODI)] + [(p, {}) for p in ua_files(PLURAL)] + [
    (p, {"allow_zeros": True, "allow_id_closers": True}) for p in ua_files(TESTS_UA)]


def test_round_trip_covers_every_file():
    assert len(ua_files(CODI)) == 3
    assert len(ua_files(PLURAL)) == 17
    assert len(ua_files(TESTS_UA)) == 120
    assert all(guess_format(str(p)) == "ua-exploded" for p, _ in ROUND_TRIP)


@pytest.mark.parametrize("path,options", ROUND_TRIP,
                         ids=[str(p.relative_to(CONFORMANCE.parent)) for p, _ in ROUND_TRIP])
def test_round_trip(path, options):
    docs = list(read(path))
    for doc in docs:
        assert ua_writer.partial_losses(doc, **options) == []
    report = ConversionReport()
    first = write_text(docs, report, **options)
    again = read_text(first, "again.conllua")
    assert [semantic(d) for d in again] == [semantic(d) for d in docs]
    # repaired Min values are written repaired: the written file needs no repair
    assert [r for d in again for r in d.repairs if r.check != "ua.set-one-member"] == []
    assert write_text(again, **options) == first
    lines = token_lines(first)
    assert all(len(line.split("\t")) == 15 for line in lines)
    assert len(lines) == sum(len(d.tokens) for d in docs)
    assert first.startswith(HEADER + "\n# newdoc id = ")


def test_round_trip_without_the_2_0_options_reports_what_it_drops():
    key = TESTS_UA / "zeros" / "TC-ZA.key"
    doc = next(read(key))
    losses = ua_writer.partial_losses(doc)
    assert [(x.feature, x.count, x.action.split(" (")[0]) for x in losses] == [
        ("empty_nodes", 1, "dropped"), ("zeros", 1, "dropped")]
    back = read_text(write_text([doc]))[0]
    assert len(back.mentions) == len(doc.mentions) - 1 and not any(t.is_empty for t in back.tokens)
    crossing = next(read(OVERLAPPING / "TC-OLMB-3.response"))
    losses = ua_writer.partial_losses(crossing)
    assert [(x.feature, x.count) for x in losses] == [("crossing_mentions", 1)]
    text = write_text([crossing])
    assert "markable_1)" not in text and len(read_text(text)[0].mentions) == len(crossing.mentions) - 1


def test_registry_reports_losses_through_write(tmp_path):
    report = write(read(TESTS_UA / "zeros" / "TC-ZA.key"), tmp_path / "out.CONLLUA")
    assert report.loss_totals() == {"empty_nodes": 1, "zeros": 1}
    report = write(read(TESTS_UA / "zeros" / "TC-ZA.key"), tmp_path / "out.CONLLUA",
                   allow_zeros=True)
    assert report.loss_totals() == {}
    assert "\n14.1\te\t" in (tmp_path / "out.CONLLUA").read_text()


# ------------------------------------------------------------------ UA 2.0 test files
def test_zero_token_ids():
    doc = next(read(TESTS_UA / "zeros" / "TC-ZA.key"))
    empty = [t for t in doc.tokens if t.is_empty]
    assert [(t.index, t.form) for t in empty] == [(14, "e")]
    zero = next(m for m in doc.mentions if m.tokens == (14,))
    assert doc.is_zero(zero) and doc.entity_of(zero).attrs["original_id"] == "2"
    assert doc.tokens[15].form == "jnk"  # token 15 comes after the zero


def test_discontinuous_markable_repeats_its_markable_id():
    doc = next(read(TESTS_UA / "discontinuous-craft" / "TC-O.key"))
    parts = [m for m in doc.mentions if not m.is_contiguous]
    assert len(parts) == 1 and parts[0].attrs["markable_id"] == "markable_2"
    assert parts[0].parts() == [(3, 3), (6, 6)]  # tokens 4 and 7
    text = write_text([doc])
    written = [line.split("\t")[10] for line in token_lines(text)]
    assert written[3] == written[6] and written[3].startswith("(EntityID=")
    assert re.search(r"MarkableID=(markable_\d+)", written[3]).group(1) == \
        re.search(r"MarkableID=(markable_\d+)", written[6]).group(1)


def test_discontinuous_parts_with_other_features_keep_the_first():
    doc = next(read(TESTS_UA / "partial-match-corefud" / "noncontig_mentions" / "TC-NCMB.key"))
    mention = next(m for m in doc.mentions if not m.is_contiguous)
    assert mention.parts() == [(1, 6), (9, 10), (12, 12)]
    assert mention.min_tokens == (9,)  # Min=10 of the first part; 16 and 19 are ignored
    assert checks(doc)["ua.part-features-differ"] == 1


def test_crossing_markables_with_id_closers():
    nested = next(read(OVERLAPPING / "TC-OLMA.key"))  # named closers, but nothing crosses
    spans = sorted(m.span for m in nested.mentions)
    assert (1, 12) in spans and (1, 4) in spans  # markable_2 2..13, markable_1 2..5
    assert "markable_1)" not in write_text([nested], allow_id_closers=True)
    doc = next(read(OVERLAPPING / "TC-OLMB-3.response"))
    assert sorted(m.span for m in doc.mentions)[:2] == [(1, 3), (2, 4)]  # tokens 2-4 and 3-5
    text = write_text([doc], allow_id_closers=True)
    cells = [line.split("\t")[10] for line in token_lines(text)]
    assert cells[3:5] == ["markable_1)", "markable_2)"]
    assert all(")" not in c or c.endswith(")") and not c.startswith(")") for c in cells)
    assert semantic(read_text(text)[0]) == semantic(doc)


def test_plural_test_sets():
    doc = next(read(PLURAL / "TC-PB.key"))
    sets = {s.attrs["original_id"]: sorted(m.attrs["original_id"] for m in members)
            for s, members in doc.accommodated_sets().items()}
    assert sets == {"4": ["1", "2"], "5": ["1", "3"]}


# ------------------------------------------------------------------ errors
ERRORS = {  # fixture: (check, line, column)
    "unbalanced-close.conllua": ("ua.unbalanced-close", 5, 21),
    "unbalanced-close-named.conllua": ("ua.unbalanced-close", 5, 21),
    "unbalanced-close-spaces.conllua": ("ua.unbalanced-close", 5, 34),
    "unclosed.conllua": ("ua.unclosed", 4, 21),
    "missing-entity-id.conllua": ("ua.missing-key", 4, 21),
    "missing-dd-entity-id.conllua": ("ua.missing-key", 4, 25),
    "missing-markable-id.conllua": ("ua.missing-key", 4, 21),
    "bridging-without-anchor.conllua": ("ua.missing-key", 4, 56),
    "bad-feature.conllua": ("ua.bad-feature", 4, 55),
    "bad-chunk.conllua": ("ua.bad-chunk", 4, 55),
    "token-id-restart.conllua": ("ua.token-id-order", 8, 1),
    "token-id-decimal.conllua": ("ua.token-id-order", 6, 1),
    "token-id-garbage.conllua": ("ua.token-id-order", 5, 1),
    "too-many-fields.conllua": ("ua.too-many-fields", 4, 53),
    "markable-id-clash.conllua": ("ua.markable-id-clash", 5, 21),
    "split-cycle.conllua": ("split.cycle", 5, None),
    "columns-without-identity.conllua": ("ua.columns", 1, 1),
    "invalid-utf8.conllua": ("text.invalid-utf8", 4, 4),
}


def test_every_error_fixture_is_listed():
    assert sorted(p.name for p in (FIXTURES / "ua").glob("*.conllua")) == sorted(ERRORS)


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors(name):
    path = FIXTURES / "ua" / name
    with pytest.raises(FormatError) as caught:
        list(read(path, format="ua"))
    error = caught.value
    assert (error.check, error.line, error.column) == ERRORS[name]
    assert error.file == str(path)
    text = str(error)
    assert text.startswith(f"{path}:{error.line}") and f"({error.check})" in text
    assert len(error.message) > 40  # says what was found and what to do


def test_cli_error_is_one_line(tmp_path, capsys):
    code = main(["convert", str(FIXTURES / "ua" / "unclosed.conllua"), str(tmp_path / "x.conllua")])
    out, err = capsys.readouterr()
    assert code == 1 and out == "" and err.count("\n") == 1
    assert err.startswith(f"corefkit: error: {FIXTURES / 'ua' / 'unclosed.conllua'}:4:21: ")
    assert "ua.unclosed" in err and not (tmp_path / "x.conllua").exists()


def test_error_in_a_later_document_comes_after_the_first_document():
    text = document(row(1, "a", "(EntityID=1|MarkableID=markable_1)"), "") + \
        "# newdoc id = e\n" + row(1, "b", ")") + "\n"
    documents = ua_exploded.read_stream(io.BytesIO(text.encode()), "two.conllua")
    first = next(documents)  # streaming: the first document is complete before the second
    assert first.id == "d" and len(first.mentions) == 1
    with pytest.raises(FormatError, match="ua.unbalanced-close"):
        next(documents)


# ------------------------------------------------------------------ accepted and repaired variants
def test_key_spellings_and_pseudo_suffixes():
    text = document(
        row(1, "a", "(EntityId=1|MarkableId=markable_1|SemType=dn)"),
        row(2, "b", "(entityid=2_Pseudo|Markable_ID=markable_2|SemType=expletive)"),
        row(3, "c", "(EntityID=3-pseudo|MentionID=markable_3)"),
        row(4, "d", "(EntityID=1|MarkableID=markable_4|SEMTYPE=do)"),
    )
    doc = read_text(text)[0]
    spelled = sorted(r.message for r in doc.repairs if r.check == "ua.key-spelling")
    assert len(spelled) == 6  # EntityId, MarkableId, entityid, Markable_ID, MentionID, SEMTYPE
    marks = by_markable(doc)
    assert marks["markable_2"].nonref == "expletive" and doc.entity_of(marks["markable_2"]) is None
    assert marks["markable_3"].nonref == "unknown"
    assert doc.entity_of(marks["markable_1"]) is doc.entity_of(marks["markable_4"])
    written = write_text([doc])
    assert "(EntityID=2-Pseudo|MarkableID=markable_2|SemType=expletive)" in written
    assert "(EntityID=3-Pseudo|MarkableID=markable_3|SemType=unknown)" in written
    # one counter for identity and Pseudo ids, in order of first mention
    assert "(EntityID=1|MarkableID=markable_4|SemType=do)" in written


def test_min_variants():
    text = document(
        row(1, "a", "(EntityID=1|MarkableID=markable_1|Min=1-2"),
        row(2, "b", ")"),
        row(3, "c", "(EntityID=2|MarkableID=markable_2|Min=3,4,5"),
        row(4, "d", "_"),
        row(5, "e", ")"),
        row(6, "f", "(EntityID=3|MarkableID=markable_3|Min=x)"),
        row(7, "g", "(EntityID=4|MarkableID=markable_4)"),
    )
    doc = read_text(text)[0]
    marks = by_markable(doc)
    assert marks["markable_1"].min_tokens == (0, 1)
    assert marks["markable_2"].min_tokens == (2, 3)  # only the first two numbers count
    assert marks["markable_3"].min_tokens is None and checks(doc)["ua.bad-min"] == 1
    assert marks["markable_4"].min_tokens is None  # markables without Min are fine
    written = write_text([doc])
    assert "|Min=1,2\n" in written.replace("\t", "\n") and "|Min=3,4\n" in written.replace("\t", "\n")


def test_min_setting_shift_and_outside_span():
    text = "\n".join([HEADER, "# newdoc id = light", "# setting", "# sent_id = s-1",
                      row(1, "a"), row(2, "tree"), row(3, "orc"), "", "# sent_id = s-2",
                      row(4, "the", "(EntityID=1|MarkableID=markable_1|Min=2"),
                      row(5, "cave", ")"),
                      row(6, "it", "(EntityID=1|MarkableID=markable_2|Min=9)"),
                      row(7, "me", "(EntityID=2|MarkableID=markable_3|Min=7)"), ""]) + "\n"
    doc = read_text(text)[0]
    marks = by_markable(doc)
    assert marks["markable_1"].min_tokens == (4,)  # 2 + 3 setting tokens = token 5
    assert marks["markable_2"].min_tokens is None
    assert marks["markable_3"].min_tokens == (6,)
    assert checks(doc) == {"ua.min-setting-shift": 1, "ua.min-outside-span": 1}
    shift = next(r for r in doc.repairs if r.check == "ua.min-setting-shift")
    assert (shift.line, shift.column, shift.action) == (10, 23, "repaired")
    assert "Min=5" in write_text([doc])


def test_at_separator_and_closer_after_opener():
    # the v1.1 text: '@' between openers, '(...))' for a one-token markable and an outer closer
    text = document(
        row(1, "his", "(EntityId=3|MarkableId=markable_3|Min=2|SemType=dn@"
                      "(EntityId=1|MarkableId=markable_4|Min=1|SemType=do)"),
        row(2, "father", ")"),
        row(3, "the", "(EntityID=2|MarkableID=markable_2"),
        row(4, "of", "_"),
        row(5, "Oklahoma", "(EntityID=4|MarkableID=markable_5))"),
    )
    doc = read_text(text)[0]
    assert checks(doc)["ua.at-separator"] == 1 and checks(doc)["ua.closer-after-opener"] == 1
    marks = by_markable(doc)
    assert marks["markable_3"].attrs["semtype"] == "dn"
    assert marks["markable_3"].tokens == (0, 1) and marks["markable_4"].tokens == (0,)
    assert marks["markable_2"].tokens == (2, 3, 4) and marks["markable_5"].tokens == (4,)
    cell = token_lines(write_text([doc]))[4].split("\t")[10]
    assert cell.startswith(")(EntityID=") and cell.endswith(")") and "))" not in cell


def test_bridging_variants():
    text = document(
        row(1, "the", "(EntityID=1|MarkableID=markable_1"),
        row(2, "house", ")"),
        row(3, "the", "(EntityID=2|MarkableID=markable_2",
            "MarkableID=markable_2|Rel=poss|MentionAnchor=markable_1|EntityAnchor=1"),
        row(4, "door", ")"),
        row(5, "a", "_", "(MarkableID=markable_9|Rel=part|EntityAnchor=1)"),
        row(6, "roof", "(EntityID=3|MarkableID=markable_6)",
            "(MarkableID=markable_6|Rel=subset|MentionAnchor=markable_77|EntityAnchor=1)"),
        row(7, "wall", "(EntityID=4|MarkableID=markable_7)",
            "(MarkableID=markable_7|MentionAnchor=markable_1|EntityAnchor=2|Note=x)"),
    )
    doc = read_text(text)[0]
    assert checks(doc) == {"ua.unbracketed-bridging": 1, "ua.bridging-without-identity": 1,
                           "ua.unknown-anchor": 1, "ua.entity-anchor-mismatch": 1}
    bridges = {b.anaphor.attrs["markable_id"]: b for b in doc.bridging()}
    assert set(bridges) == {"markable_2", "markable_9", "markable_7"}
    assert bridges["markable_2"].relation == "poss"
    orphan = bridges["markable_9"].anaphor
    assert doc.entity_of(orphan) is None and orphan.tokens == (4,)
    assert bridges["markable_9"].anchor_mention is None
    assert bridges["markable_7"].anchor_mention.attrs["markable_id"] == "markable_1"
    assert bridges["markable_7"].attrs == {"Note": "x"}
    report = ConversionReport()
    written = write_text([doc], report)
    lines = token_lines(written)
    assert lines[2].split("\t")[11] == \
        "(MarkableID=markable_2|Rel=poss|MentionAnchor=markable_1|EntityAnchor=1"
    assert lines[4].split("\t")[10] == "_" and lines[4].split("\t")[11].startswith(
        "(MarkableID=markable_3|Rel=part|MentionAnchor=markable_1|EntityAnchor=1)")
    assert lines[6].split("\t")[11] == \
        "(MarkableID=markable_5|MentionAnchor=markable_1|EntityAnchor=1|Note=x)"
    # the anchor mention of markable_9 is derived: the file says more than the document, a
    # warning, not a loss (issue 22: a loss is what the document read back lacks)
    assert ua_writer.partial_losses(doc) == []
    assert [r.check for r in report.repairs if r.check == "ua.bridging-anchor-derived"] == [
        "ua.bridging-anchor-derived"]
    again = read_text(written)[0]
    assert checks(again) == {"ua.bridging-without-identity": 1}  # still a bridging-only markable
    before = {b.anaphor.tokens: (b.relation, b.anchor_mention and b.anchor_mention.tokens)
              for b in doc.bridging()}
    after = {b.anaphor.tokens: (b.relation, b.anchor_mention.tokens) for b in again.bridging()}
    assert before[(4,)] == ("part", None) and after[(4,)] == ("part", (0, 1))  # derived anchor
    del before[(4,)], after[(4,)]
    assert before == after


def test_sets_without_mentions_and_with_one_member():
    text = document(
        row(1, "John", "(EntityID=1|MarkableID=markable_1|ElementOf=9,3)"),
        row(2, "Mary", "(EntityID=2|MarkableID=markable_2|ElementOf=3)"),
        row(3, "they", "(EntityID=3|MarkableID=markable_3)"),
    )
    doc = read_text(text)[0]
    assert checks(doc) == {"ua.set-without-mentions": 1, "ua.set-one-member": 1}
    sets = {s.attrs["original_id"]: len(m) for s, m in doc.accommodated_sets().items()}
    assert sets == {"3": 2, "9": 1}
    written = write_text([doc])
    assert "(EntityID=1|MarkableID=markable_1|ElementOf=3,4)" in written  # ids sorted
    again = read_text(written)[0]
    assert semantic(again, comments=False) == semantic(doc, comments=False)


def test_v1_0_split_column():
    header = ("# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY "
              "SPLIT BRIDGING DISCOURSE_DEIXIS REFERENCE NOM_SEM")
    lines = [
        "1\tJohn\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=1|MarkableID=markable_1)\tEntityID=1|ElementOf=3",
        "2\tmet\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_",
        "3\tMary\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=2|MarkableID=markable_2)\tEntityID=2|ElementOf=3",
        "4\tthey\t_\t_\t_\t_\t_\t_\t_\t_\t(EntityID=3|MarkableID=markable_3)\t_",
    ]
    doc = read_text(document(*lines, header=header))[0]
    assert checks(doc) == {"ua.missing-columns": 1}  # the last columns are left out
    members = sorted((s.member.attrs["original_id"], s.set_entity.attrs["original_id"],
                      [m.attrs["markable_id"] for m in s.evidence]) for s in doc.memberships())
    assert members == [("1", "3", ["markable_1"]), ("2", "3", ["markable_2"])]
    written = write_text([doc])
    assert written.startswith(HEADER) and "SPLIT" not in written
    assert "(EntityID=1|MarkableID=markable_1|ElementOf=3)" in written


def test_columns_are_mapped_by_name_and_may_change():
    header = "# global.columns = ID FORM IDENTITY MISC"
    text = "\n".join([header, "# newdoc id = d", "1 a (EntityID=1|MarkableID=m1) X=1",
                      "2 b _", "", HEADER, "# newdoc id = e", row(1, "c", "(EntityID=5|MarkableID=m)"),
                      ""]) + "\n"
    d, e = read_text(text)
    assert d.tokens[0].misc == "X=1" and d.tokens[1].misc == "_" and len(d.mentions) == 1
    assert d.tokens[0].lemma == "_" and e.mentions[0].tokens == (0,)


def test_layout_variants_tabs_spaces_crlf_bom():
    spaced = document("1  a  _  _  _  _  _  _  _  _  (EntityID=1|MarkableID=m1)  _  _  _   ",
                      "2  b  _  _  _  _  _  _  _  _  _")
    tabbed = document(row(1, "a", "(EntityID=1|MarkableID=m1)"), row(2, "b"))
    crlf = "\ufeff" + tabbed.replace("\n", "\r\n")
    views = [semantic(read_text(t)[0]) for t in (spaced, tabbed, crlf)]
    assert views[0] == views[1] == views[2]
    assert read_text(spaced)[0].attrs["ua_layout"] == {"tab_lines": 0, "space_lines": 2,
                                                       "short_lines": 2}
    # accepted, and said once per document (issue 4: "with warnings")
    assert checks(read_text(spaced)[0]) == {"ua.space-separated": 1, "ua.missing-columns": 1}
    assert read_text(crlf)[0].repairs == []
    mixed = document(row(1, "a"), "2  b  _  _  _  _  _  _  _  _  _")
    assert checks(read_text(mixed)[0]) == {"ua.mixed-separators": 1, "ua.missing-columns": 1}


def test_comments_speakers_and_missing_newdoc():
    text = "\n".join([
        HEADER, "# source = somewhere",
        "# newdoc id = dialogue", "# turn_id = t1", "# speaker = A", "# sent_id = s1",
        "# text = hi there", row(1, "hi"), row(2, "there"), "", "# sent_id = s2", row(3, "ok"),
        "", "# turn_id = t2", "# speaker = B", "# sent_id = s3", row(4, "yes"), "# note", row(5, "no"),
        "", "# trailing", ""]) + "\n"
    doc = read_text(text)[0]
    assert doc.id == "dialogue"
    assert [s.speaker for s in doc.sentences] == ["A", "A", "B", "B"]
    assert [s.sent_id for s in doc.sentences] == ["s1", "s2", "s3", None]
    assert doc.sentences[0].comments[0] == "# source = somewhere"
    assert checks(doc) == {"ua.missing-blank-line": 1}
    assert doc.attrs["ua_trailing_comments"] == ["# trailing"]
    written = write_text([doc])
    assert "# sent_id = s2\n# text = ok\n3\tok" in written  # '# text' generated
    assert "# note\n# sent_id = dialogue-4\n# text = no\n5\tno" in written
    assert written.count("# speaker") == 2 and written.endswith("\n# trailing\n")
    anonymous = read_text(row(1, "a") + "\n", "dir/stem.conllua")[0]
    assert anonymous.id == "stem" and checks(anonymous) == {"ua.missing-newdoc": 1}


def test_reference_nom_sem_and_extra_keys():
    text = document(
        row(1, "Tulsa", "(EntityID=1|MarkableID=markable_1|Min=1|SemType=dn|Wiki=yes)", "_", "_",
            "Tulsa,_Oklahoma", "(MarkableID=markable_1|Entity_Type=place|Genericity=generic-no)"),
        row(2, "is", "_", "_", "_", "VSE4"),
        row(3, "x", "_", "_", "_", "_", "(MarkableID=markable_8|Entity_Type=abstract)"),
    )
    doc = read_text(text)[0]
    tulsa = by_markable(doc)["markable_1"]
    assert tulsa.attrs["reference"] == "Tulsa,_Oklahoma" and tulsa.attrs["Wiki"] == "yes"
    assert tulsa.attrs["entity_type"] == "place"
    assert doc.tokens[1].attrs["ua_reference"] == "VSE4"
    assert checks(doc) == {"ua.reference-without-markable": 1, "ua.nom-sem-without-markable": 1}
    lines = token_lines(write_text([doc]))
    assert lines[0].split("\t")[10:] == [
        "(EntityID=1|MarkableID=markable_1|Min=1|SemType=dn|Wiki=yes)", "_", "_",
        "Tulsa,_Oklahoma", "(MarkableID=markable_1|Entity_Type=place|Genericity=generic-no)"]
    assert lines[1].split("\t")[13] == "VSE4"
    assert lines[2].split("\t")[10:] == ["_", "_", "_", "_",
                                         "(MarkableID=markable_2|Entity_Type=abstract)"]


def test_visual_situation_lines_are_not_tokens():
    text = document(
        "0\tbox\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\t_\tVSE1\t_",
        row(1, "it", "(EntityID=1|MarkableID=markable_1)", "_", "_", "VSE1"),
    )
    doc = read_text(text)[0]
    assert [t.form for t in doc.tokens] == ["it"]
    assert doc.attrs["visual_objects"] == [{"form": "box", "reference": "VSE1", "line": 4}]
    written = write_text([doc])
    assert "\n# text = it\n0\tbox\t" in written
    assert semantic(read_text(written)[0], comments=False) == semantic(doc, comments=False)


def test_extra_columns_are_kept_on_read_and_reported_on_write():
    header = HEADER + " RST"
    doc = read_text(document(row(1, "a") + "\tjoint", header=header))[0]
    assert doc.tokens[0].attrs["ua_columns"] == {"RST": "joint"}
    assert checks(doc) == {"ua.extra-columns": 1}
    report = ConversionReport()
    write_text([doc], report)
    assert [r.check for r in report.repairs] == ["ua.extra-columns"]


def test_duplicate_key_keeps_the_first():
    doc = read_text(document(row(1, "a", "(EntityID=1|MarkableID=m|EntityID=2)")))[0]
    assert checks(doc) == {"ua.duplicate-key": 1}
    assert doc.entity_of(doc.mentions[0]).attrs["original_id"] == "1"


# ------------------------------------------------------------------ writer
def build(forms: list[list[str]]) -> Document:
    doc = Document("built")
    for sentence in forms:
        doc.add_sentence(sentence)
    return doc


def test_writer_chunk_order():
    doc = build([["a", "b", "c", "d"]])
    outer = doc.new_entity()
    inner = doc.new_entity()
    doc.add_span(0, 2, outer)
    doc.add_span(0, 1, inner)
    doc.add_span(2, 2, inner)       # one-token markable where the outer one closes
    doc.add_span(2, 3, outer)       # and an opener on the same token
    cells = [line.split("\t")[10] for line in token_lines(write_text([doc]))]
    assert cells[0] == "(EntityID=1|MarkableID=markable_1(EntityID=2|MarkableID=markable_2"
    assert cells[1] == ")"
    assert cells[2] == ")(EntityID=1|MarkableID=markable_3(EntityID=2|MarkableID=markable_4)"
    assert cells[3] == ")"
    only_close = build([["a", "b"]])
    e1, e2 = only_close.new_entity(), only_close.new_entity()
    only_close.add_span(0, 1, e1)
    only_close.add_span(1, 1, e2)
    cell = token_lines(write_text([only_close]))[1].split("\t")[10]
    assert cell == ")(EntityID=2|MarkableID=markable_2)"  # never '(...))' (ua-exploded §7)


def test_writer_split_antecedent_placement_without_evidence():
    doc = build([["John", "Mary", "John", "they", "Mary"]])
    john, mary, they, other = (doc.new_entity() for _ in range(4))
    doc.add_span(0, 0, john)
    doc.add_span(1, 1, mary)
    doc.add_span(2, 2, john)
    doc.add_span(3, 3, they)
    doc.add_span(4, 4, mary)
    doc.add_to_set(john, they)
    doc.add_to_set(mary, they)
    doc.add_to_set(mary, other)      # a set without mentions
    cells = [line.split("\t")[10] for line in token_lines(write_text([doc]))]
    # last mention before the set's first mention; a set without mentions numbered last
    assert cells[1] == "(EntityID=2|MarkableID=markable_2|ElementOf=3,4)"
    assert cells[2] == "(EntityID=1|MarkableID=markable_3|ElementOf=3)"
    assert "ElementOf" not in cells[0] + cells[4]


def test_writer_dd_layer_shared_markables_and_numbering():
    doc = build([["we", "met", "."], ["that", "was", "it"]])
    segment = doc.new_entity(layer=DISCOURSE_DEIXIS)
    person = doc.new_entity()
    doc.add_span(0, 2, segment, attrs={"semtype": "dn"})
    doc.add_span(0, 0, person)
    that = doc.add_span(3, 3, person, attrs={"markable_id": "m7"})
    doc.add_span(3, 3, segment, attrs={"markable_id": "m7", "semtype": "do"})
    doc.add_span(5, 5, doc.new_entity(layer=DISCOURSE_DEIXIS))
    lines = token_lines(write_text([doc]))
    assert lines[0].split("\t")[12] == "(EntityID=1-DD|MarkableID=dd_markable_1|SemType=dn"
    assert lines[3].split("\t")[10] == "(EntityID=1|MarkableID=markable_2)"
    assert lines[3].split("\t")[12] == "(EntityID=1-DD|MarkableID=markable_2|SemType=do)"
    assert lines[5].split("\t")[12] == "(EntityID=2-DD|MarkableID=dd_markable_2)"
    back = read_text(write_text([doc]))[0]
    assert semantic(back)["mentions"] == semantic(doc)["mentions"]
    assert that.attrs["markable_id"] == "m7"


def test_writer_heads_min_spans_and_their_losses():
    doc = build([["the", "old", "man", "and", "sea"]])
    entity = doc.new_entity()
    doc.add_span(0, 2, entity, head=2)
    doc.add_span(3, 4, entity, min_tokens=(3,), head=4)
    gapped = doc.add_mention((0, 1, 2, 3, 4), entity)
    gapped.min_tokens = (1, 3)
    losses = {(x.feature, x.action.split(" (")[0]): x.count
              for x in ua_writer.partial_losses(doc)}
    assert losses == {("heads", "approximated"): 1, ("heads", "dropped"): 1,
                      ("min_spans", "approximated"): 1}
    text = write_text([doc])
    assert "Min=3)" not in text and "|Min=3" in text and "Min=2,4" in text


def test_writer_nonref_pseudo_entities_and_unlinked_mentions():
    doc = build([["it", "rains", "a", "b"]])
    doc.add_span(0, 0, nonref="expletive")
    pseudo = doc.new_entity(pseudo=True)
    doc.add_span(2, 2, pseudo, nonref="predicate")
    group = doc.new_entity()
    doc.add_span(3, 3, group)
    doc.add_to_set(pseudo, group)
    doc.add_span(1, 1)  # a mention without entity: CoNLL-UA cannot hold it
    assert [(x.feature, x.count) for x in ua_writer.partial_losses(doc)] == [
        ("unlinked_mentions", 1)]
    cells = [line.split("\t")[10] for line in token_lines(write_text([doc]))]
    assert cells == ["(EntityID=1-Pseudo|MarkableID=markable_1|SemType=expletive)", "_",
                     "(EntityID=2-Pseudo|MarkableID=markable_2|SemType=predicate|ElementOf=3)",
                     "(EntityID=3|MarkableID=markable_3)"]
    back = read_text(write_text([doc]))[0]
    assert [m.nonref for m in back.non_referring()] == ["expletive", "predicate"]
    assert back.entity_of(back.non_referring()[1]).pseudo


def test_writer_zeros_and_generated_comments():
    doc = build([["a", "b"], ["c"]])
    doc.tokens.insert(1, corefkit.model.Token("*", is_empty=True))
    for i, token in enumerate(doc.tokens):
        token.index = i
    doc.sentences[0].stop = 3
    doc.sentences[1].start, doc.sentences[1].stop = 3, 4
    doc.tokens[3].sentence = 1
    zero = doc.new_entity()
    doc.add_span(1, 1, zero)
    doc.add_span(3, 3, zero)
    doc.sentences[1].speaker = "B"
    with_zeros = write_text([doc], allow_zeros=True)
    assert [line.split("\t")[0] for line in token_lines(with_zeros)] == ["1", "1.1", "2", "3"]
    assert "# sent_id = built-1\n# text = a b\n" in with_zeros
    assert "# speaker = B\n# sent_id = built-2\n# text = c\n" in with_zeros
    assert [line.split("\t")[0] for line in token_lines(write_text([doc]))] == ["1", "2", "3"]
    assert [(x.feature, x.count) for x in ua_writer.partial_losses(doc)] == [
        ("empty_nodes", 1), ("zeros", 1)]


def test_writer_align_spaces():
    docs = list(read(CODI / "Persuasion_train.2022.first10docs.CONLLUA"))[:2]
    aligned = write_text(docs, align_spaces=True)
    lines = token_lines(aligned)
    assert "\t" not in aligned and all(len(line.split()) == 15 for line in lines)
    first = [line for line in lines[:2]]
    assert first[0].index("Hey") == first[1].index("!") == 6  # ID padded to 4 + 2 spaces
    assert [semantic(d) for d in read_text(aligned)] == [semantic(d) for d in docs]


def test_writer_escapes_what_values_cannot_hold_and_fixes_whitespace():
    doc = build([["New York", "b"]])
    doc.add_span(0, 0, doc.new_entity(), attrs={"identity": "A1_(road)", "bad key": "x"})
    report = ConversionReport()
    text = write_text([doc], report)
    assert "identity=A1_%28road%29" in text and "bad key" not in text
    assert token_lines(text)[0].split("\t")[1] == "New_York"
    assert sorted(r.check for r in report.repairs) == [
        "ua.attribute-dropped", "ua.field-whitespace", "ua.value-escaped"]


def test_writer_misc_keeps_other_items_only():
    doc = build([["a"]])
    doc.tokens[0].misc = "SpaceAfter=No|Entity=(e1-person-1)|SplitAnte=e2<e1"
    assert token_lines(write_text([doc]))[0].split("\t")[9] == "SpaceAfter=No"


def test_writer_ids_map_and_empty_input():
    report = ConversionReport()
    docs = list(read(PLURAL / "TC-PA.key"))
    write_text(docs, report)
    assert report.id_maps["PluralTestCases/TC-PA"]["markable_a"] == "markable_1"
    assert write_text([]) == HEADER + "\n"


# ------------------------------------------------------------------ registry and command line
def test_registry_entry_and_sniffing(tmp_path):
    spec = get("ua")
    assert spec.name == "ua-exploded" and get("UA-EXPLODED") is spec
    assert sniff_text(HEADER + "\n# newdoc id = x\n") == "ua-exploded"
    assert sniff_text("# global.columns = ID FORM MISC\n") is None
    assert guess_format(str(PLURAL / "TC-PA-1.sys")) == "ua-exploded"
    report = corefkit.write(read(PLURAL / "TC-PA.key"), tmp_path / "out.conllua")
    assert report.documents == 1 and (tmp_path / "out.conllua").read_text().startswith(HEADER)
    assert {o.name for o in get("ua").write_options} == {"allow_zeros", "allow_id_closers",
                                                         "align_spaces"}


def test_cli_convert_and_formats(tmp_path, capsys):
    target = tmp_path / "light.CONLLUA"
    code = main(["convert", str(CODI / "light_train.2022.first10docs.CONLLUA"), str(target)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "ua.min-setting-shift" in err and "wrote 10 documents" in err
    assert [semantic(d) for d in read(target)] == [
        semantic(d) for d in read(CODI / "light_train.2022.first10docs.CONLLUA")]
    assert main(["formats"]) == 0
    assert "ua-exploded" in capsys.readouterr().out


def test_cli_ua_options_and_compact_passes(tmp_path, capsys):
    zeros = tmp_path / "zeros.conllua"
    assert main(["convert", str(TESTS_UA / "zeros" / "TC-ZA.key"), str(zeros), "--allow-zeros",
                 "--align-spaces"]) == 0
    assert "\n14.1  e " in zeros.read_text()
    capsys.readouterr()
    # the README's CorefUD round trip, on a file whose bridging CorefUD can hold
    source = CODI / "Persuasion_train.2022.first10docs.CONLLUA"
    compact = tmp_path / "p.conllu"
    back = tmp_path / "back.CONLLUA"
    assert main(["convert", str(source), str(compact), "--pass", "ua-compact-encode",
                 "--keep-min"]) == 0
    err = capsys.readouterr().err
    assert "ua.compact-encode" in err  # a warning per document says what was encoded
    assert "non-referring markables (dropped" not in err and "layer (dropped" not in err
    # --lenient: the CoNLL-U of files without syntax has UPOS, HEAD, DEPREL '_' (UD errors)
    assert main(["convert", str(compact), str(back), "--pass", "ua-compact-decode", "-q",
                 "--lenient"]) == 0
    before, after = list(read(source)), list(read(back))
    assert [len(d.non_referring()) for d in after] == [len(d.non_referring()) for d in before]
    assert [sorted(m.tokens for m in d.mentions if m.layer == DISCOURSE_DEIXIS) for d in after] \
        == [sorted(m.tokens for m in d.mentions if m.layer == DISCOURSE_DEIXIS) for d in before]
