"""Error analysis (Kummerfeld & Klein 2013; issue 16): ``corefkit.analyze`` and
``corefkit analyze``. Hand-made documents with one transformation each, the pronoun rules,
real pairs (GUM CorefUD with zeros, CODI-CRAC with split antecedents), the costs, the JSON
schema and the command line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.diagnosis import categories as E
from corefkit.diagnosis.report import AnalysisReport
from corefkit.model import IDENTITY, Document, Token
from tests.conftest import CORPORA, ROOT, SHARED

REAL = SHARED / "conformance/real/data"
EXAMPLES = ROOT / "examples/conll2012"
SCHEMA = ROOT / "corefkit/schemas/analysis-report.schema.json"

PRONOUNS = {"he", "she", "it", "they", "him", "her", "them", "we"}
# one sentence; the indices of the words and of the empty node "_" (a zero after "left")
WORDS = ["Ann", "met", "the", "old", "dog", ".", "She", "said", "that", "it", "left", "_", ".", "Bob", "saw", "them", "and", "they", "ran", "."]


def upos(word: str) -> str:
    if word == ".":
        return "PUNCT"
    if word.lower() in PRONOUNS:
        return "PRON"
    return "PROPN" if word[0].isupper() else "DET" if word in ("the", "that") else "NOUN"


def document(chains: list[list[tuple[int, int]]], name: str = "doc") -> Document:
    """A document of WORDS whose entities are ``chains`` of (first, last) token spans."""
    doc = Document(name)
    tokens = [Token(w, upos=None if w == "_" else upos(w), is_empty=w == "_") for w in WORDS]
    doc.add_sentence(tokens)
    for chain in chains:
        entity = doc.new_entity()
        for first, last in chain:
            doc.add_span(first, last, entity)
    return doc


ANN, DOG, OLD_DOG, SHE, IT, ZERO, BOB, THEM, THEY, LEFT = (
    (0, 0), (4, 4), (2, 4), (6, 6), (9, 9), (11, 11), (13, 13), (15, 15), (17, 17), (10, 10))
KEY = [[ANN, SHE, ZERO], [OLD_DOG, IT], [BOB, THEY]]


def analyze(key: list, response: list, **options) -> AnalysisReport:
    return corefkit.analyze([document(key)], [document(response)], **options)


def nonzero(report: AnalysisReport) -> dict[str, int]:
    return {c: n for c, n in report.counts.items() if n}


def assert_costs(report: AnalysisReport) -> None:
    """The cumulative corrections end at a perfect score; no category fixed alone scores
    below the original here (see test_a_fix_alone_can_cost_ceafe for the exception)."""
    assert report.cumulative[-1].scores.conll == 1
    assert all(s.scores.counts[m].f1 == 1 for s in report.cumulative[-1:]
               for m in ("muc", "bcub", "ceafe"))
    for result in report.results:
        assert result.alone.conll >= report.original.conll, result.category
    steps = [report.original.conll] + [s.scores.conll for s in report.cumulative]
    assert sum(s.delta for s in report.cumulative) == steps[-1] - steps[0]


# ---------------------------------------------------------------------------- one each
ONE_EACH = [
    ("span_error", [[ANN, SHE, ZERO], [DOG, IT], [BOB, THEY]]),
    ("conflated_entities", [[ANN, SHE, ZERO, BOB, THEY], [OLD_DOG, IT]]),
    ("extra_mention", [[ANN, SHE, ZERO], [OLD_DOG, IT, LEFT], [BOB, THEY]]),
    ("extra_zero", [[ANN, SHE, ZERO], [OLD_DOG, IT], [BOB, THEY]]),
    ("extra_entity", [[ANN, SHE, ZERO], [OLD_DOG, IT], [BOB, THEY], [LEFT, (14, 14)]]),
    ("divided_entity", [[ANN, SHE], [ZERO], [OLD_DOG, IT], [BOB, THEY]]),
    ("missing_mention", [[ANN, SHE, ZERO], [OLD_DOG], [BOB, THEY]]),
    ("missing_zero", [[ANN, SHE], [OLD_DOG, IT], [BOB, THEY]]),
    ("missing_entity", [[ANN, SHE, ZERO], [OLD_DOG, IT]]),
]


@pytest.mark.parametrize("category,response", ONE_EACH, ids=[c for c, _ in ONE_EACH])
def test_one_transformation_is_one_error(category: str, response: list):
    key = KEY
    if category == "extra_zero":  # the key lacks the zero, the response has it
        key = [[ANN, SHE], [OLD_DOG, IT], [BOB, THEY]]
        response = [[ANN, SHE, ZERO], [OLD_DOG, IT], [BOB, THEY]]
    report = analyze(key, response)
    assert nonzero(report) == {category: 1}
    assert report.original.conll < 1
    assert {r.category: r.alone.conll for r in report.results}[category] == 1
    assert_costs(report)
    (error,) = report.errors
    assert error.document == "doc" and error.mentions


def test_a_span_error_lists_both_spans_and_is_matched_by_head():
    report = analyze(KEY, ONE_EACH[0][1])
    (error,) = report.errors
    assert [(m.side, m.text) for m in error.mentions] == [("response", "dog"),
                                                          ("key", "the old dog")]
    assert error.mention_type == "nominal" and error.entity_size == 2
    # punctuation at an edge is no head difference either: "Ann ." is "Ann"
    report = analyze(KEY, [[(0, 0), SHE, ZERO], [(2, 5), IT], [BOB, THEY]])
    assert nonzero(report) == {"span_error": 1}


def test_partial_matching_makes_no_span_error():
    # under CorefUD partial matching "the old dog" contains the key's head: no error at all
    key, response = document(KEY), document([[ANN, SHE, ZERO], [(3, 4), IT], [BOB, THEY]])
    for doc in (key, response):
        dog = next(m for m in doc.mentions if m.end == 4)
        dog.head = 4
    report = corefkit.analyze([key], [response], semantics="corefud", match="partial")
    assert nonzero(report) == {}
    assert report.original.conll == 1


# ---------------------------------------------------------------------------- the rules
def test_pronouns_do_not_save_an_extra_entity():
    # a response entity of two extra mentions and a correct pronoun: an Extra Entity, and
    # the pronoun is split off it (Conflated Entities) and merged back (Divided Entity)
    report = analyze(KEY, [[ANN, ZERO], [SHE, LEFT, (14, 14)], [OLD_DOG, IT], [BOB, THEY]])
    assert nonzero(report) == {"extra_entity": 1, "conflated_entities": 1, "divided_entity": 1}
    assert_costs(report)


def test_found_pronouns_do_not_save_a_missing_entity():
    key = [[ANN, SHE, ZERO], [OLD_DOG, IT], [BOB, THEM, THEY]]
    report = analyze(key, [[ANN, SHE, ZERO], [OLD_DOG, IT], [THEY]])
    assert nonzero(report) == {"missing_entity": 1, "divided_entity": 1}
    missing = next(e for e in report.errors if e.category == "missing_entity")
    assert [m.text for m in missing.mentions] == ["Bob", "them"]
    assert_costs(report)


def test_a_missing_first_mention_is_a_missing_mention():
    # the analyser merges the rest into the missing first name (Divided Entity); corefkit
    # merges into what the response has (docs/deviations.md §7)
    report = analyze(KEY, [[SHE, ZERO], [OLD_DOG, IT], [BOB, THEY]])
    assert nonzero(report) == {"missing_mention": 1}


def test_an_extra_first_mention_is_an_extra_mention():
    report = analyze(KEY, [[ANN, SHE, ZERO], [(1, 1), OLD_DOG, IT], [BOB, THEY]])
    assert nonzero(report) == {"extra_mention": 1}


def test_the_analysers_anchor_rule():
    # docs/deviations.md §7.1: the first name missing or extra makes the rest of the entity
    # divided or conflated, and the name itself is no error; the corrections still end at
    # the key
    report = analyze(KEY, [[SHE, ZERO], [OLD_DOG, IT], [BOB, THEY]], anchors="analyser")
    assert nonzero(report) == {"divided_entity": 1}
    assert_costs(report)
    report = analyze(KEY, [[ANN, SHE, ZERO], [(1, 1), OLD_DOG, IT], [BOB, THEY]],
                     anchors="analyser")
    assert nonzero(report) == {"conflated_entities": 1}
    assert_costs(report)
    with pytest.raises(corefkit.errors.UsageError):
        analyze(KEY, KEY, anchors="first")


def test_counts_by_type_size_and_document():
    response = [[ANN, SHE, ZERO, BOB], [OLD_DOG], [THEY]]
    report = corefkit.analyze([document(KEY, "a"), document(KEY, "b")],
                              [document(response, "a"), document(KEY, "b")])
    assert nonzero(report) == {"conflated_entities": 1, "divided_entity": 1,
                               "missing_mention": 1}
    assert report.by_type["missing_mention"] == {"pronoun": 1}
    assert report.by_type["conflated_entities"] == {"name": 1}
    assert report.by_size["divided_entity"] == {"2": 1}
    assert [d.counts["missing_mention"] for d in report.per_document] == [1, 0]
    assert Fraction(report.per_document[1].original["muc"].f1) == 1


def test_a_fix_alone_can_cost_ceafe():
    # the documented exception (docs/deviations.md §7): a part split off a big entity while
    # its own entity is found elsewhere is one more unaligned response entity for CEAFe
    a = [(0, 0), (2, 2), (4, 4), (6, 6), (8, 8)]
    b = [(10, 10), (13, 13), (15, 15), (17, 17)]
    report = analyze([a, b], [a + [b[0]], b[1:]])
    alone = {r.category: r.alone for r in report.results}
    assert alone["conflated_entities"].counts["ceafe"].f1 < report.original.counts["ceafe"].f1
    assert report.cumulative[-1].scores.conll == 1


# ---------------------------------------------------------------------------- index level
def test_the_corrections_end_at_the_key():
    key = [[0, 1, 2], [3, 4], [5, 6], [7]]
    response = [[0, 1, 3], [2, 4, 9], [10, 11], [12]]
    facts = {i: E.MentionFacts((i, i), ("h", i), (i,)) for i in range(13)}
    facts[12] = E.MentionFacts((7, 8), ("h", 7), (7, 8))
    found = E.transform(key, response, facts)
    assert sorted(c.category for c in found.changes) == sorted(
        ["span_error", "conflated_entities", "conflated_entities", "extra_mention",
         "extra_entity", "divided_entity", "divided_entity", "missing_entity"])
    assert sorted(map(sorted, E.corrected(found, E.CATEGORIES))) == sorted(key)


# ---------------------------------------------------------------------------- real data
def _gum(names: set[str], path: Path) -> list[Document]:
    return [d for d in corefkit.read(path) if d.id in names]


GUM_ZEROS = {"GUM_essay_distraction", "GUM_interview_brotherhood", "GUM_conversation_atoms"}


@pytest.fixture(scope="module")
def gum_pair() -> tuple[list[Document], list[Document]]:
    data = REAL / "gum-corefud"
    return _gum(GUM_ZEROS, data / "key.conllu"), _gum(GUM_ZEROS, data / "response-heavy.conllu")


def zeros(docs: list[Document]) -> int:
    return sum(1 for d in docs for m in d.mentions if d.is_zero(m) and d.entity_of(m))


def test_gum_corefud_pair_with_zeros(gum_pair):
    key, response = gum_pair
    assert zeros(key) == 0 and zeros(response) == 7
    report = corefkit.analyze(key, response)
    score = corefkit.score(key, response, "muc,bcub,ceafe,conll")
    assert report.original.conll == score.metrics["conll"].f1
    assert report.counts["extra_zero"] == 7 and report.counts["missing_zero"] == 0
    assert all(e.mentions[0].side == "response" and e.mention_type == "zero"
               for e in report.errors if e.category == "extra_zero")
    assert min(report.counts[c] for c in ("span_error", "conflated_entities", "extra_mention",
                                          "divided_entity", "missing_mention")) > 0
    assert_costs(report)
    swapped = corefkit.analyze(response, key)  # the zeros are now the key's: missed
    assert swapped.counts["missing_zero"] == 7 and swapped.counts["extra_zero"] == 0
    assert_costs(swapped)
    located = [e for e in report.errors if e.line is not None]
    assert len(located) == len(report.errors)
    assert all(e.file and e.file.endswith(".conllu") for e in located)


def test_gum_head_matching(gum_pair):
    key, response = gum_pair
    exact = corefkit.analyze(key, response)
    head = corefkit.analyze(key, response, match="head")
    assert head.counts["span_error"] < exact.counts["span_error"]
    assert head.original.conll > exact.original.conll
    assert head.cumulative[-1].scores.conll == 1


@pytest.fixture(scope="module")
def ami() -> tuple[Document, Document]:
    data = REAL / "codi-crac22"
    (key,) = corefkit.read(data / "AMI_dev_v2.2022.ES2004a.CONLLUA")
    (response,) = corefkit.read(data / "AMI_dev_v2.2022.ES2004a.mild.CONLLUA")
    return key, response


def first_set(doc: Document):
    """The first identity set entity whose members are all entities (no pseudo member)."""
    return next(e for e, members in doc.accommodated_sets().items()
                if e.layer == IDENTITY and not any(m.pseudo for m in members))


def without_set(doc: Document) -> Document:
    doc = doc.copy()
    group = first_set(doc)
    for member in doc.members(group):
        doc.remove_from_set(member, group)
    return doc


def other_members(doc: Document) -> Document:
    doc = doc.copy()
    group = first_set(doc)
    taken = set(doc.members(group))
    new = next(e for e in doc.entities_in(IDENTITY) if e not in taken and e is not group)
    doc.remove_from_set(doc.members(group)[0], group)
    doc.add_to_set(new, group)
    return doc


def test_codi_crac_pair_with_split_antecedents(ami):
    key, mild = ami
    assert key.source_format == "ua-exploded" and len(key.accommodated_sets()) == 9
    report = corefkit.analyze([key], [mild])
    assert report.categories[-3:] == list(E.SPLIT_CATEGORIES)
    assert report.counts["split_antecedent_members"] > 0
    assert min(report.counts[c] for c in ("span_error", "conflated_entities", "extra_mention",
                                          "divided_entity", "missing_mention")) > 0
    assert_costs(report)
    # the scores are the partitions' (sets play no part there)
    plain = corefkit.score([key], [mild], "muc,bcub,ceafe,conll", remove_split_antecedents=True)
    assert report.original.conll == plain.metrics["conll"].f1
    assert "missing_split_antecedent" not in corefkit.analyze(
        [key], [mild], remove_split_antecedents=True).categories
    # one change to one set of the real key: one error each
    assert nonzero(corefkit.analyze([key], [key])) == {}
    assert nonzero(corefkit.analyze([key], [without_set(key)])) == {
        "missing_split_antecedent": 1}
    assert nonzero(corefkit.analyze([without_set(key)], [key])) == {
        "extra_split_antecedent": 1}
    assert nonzero(corefkit.analyze([key], [other_members(key)])) == {
        "split_antecedent_members": 1}
    (error,) = corefkit.analyze([key], [without_set(key)]).errors
    assert error.mentions[0].side == "key" and error.line is not None


def test_reference_pairs_on_real_data():
    for name in ("ontogum", "litbank"):
        # lenient: the perturbed responses repeat spans in two entities
        report = corefkit.analyze(REAL / name / "key.conll", REAL / name / "response-mild.conll",
                                  lenient=True)
        assert report.documents > 5 and sum(report.counts.values()) > 100
        assert_costs(report)


# ---------------------------------------------------------------------------- outputs
def test_json_validates_against_the_schema(ami):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    key, mild = ami
    for report in (corefkit.analyze(EXAMPLES / "key.conll", EXAMPLES / "response.conll"),
                   corefkit.analyze([key], [mild])):
        data = report.to_json()
        validator.validate(data)
        validator.validate(report.to_json(limit=1))
        assert data["cumulative"][-1]["scores"]["conll"]["exact"]["f1"] == "1"
        assert data["errors_total"] == len(data["errors"]) == sum(data["counts"].values())
        json.dumps(data)


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_table_json_csv(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    code, out, _ = run(capsys, "analyze", key, response)
    assert code == 0 and "conflated entities" in out and "CoNLL F1: 71.87" in out
    code, out, _ = run(capsys, "analyze", key, response, "-f", "json", "--limit", "1")
    data = json.loads(out)
    assert code == 0 and data["errors_listed"] == 3 and data["errors_total"] == 6
    code, out, _ = run(capsys, "analyze", key, response, "-f", "csv", "-q")
    assert code == 0 and out.startswith("section,category,group,count,conll_f1,gain\n")
    assert "cumulative,missing_entity,,,1.0," in out


def test_cli_offers_the_reader_options_per_side(capsys):
    from corefkit.converters.registry import all_options

    code, out, _ = run(capsys, "analyze", "--help")
    assert code == 0
    for option in all_options("read"):
        assert option.cli in out and f"--key-{option.cli[2:]}" in out, option.cli
    for flag in ("--match", "--zero-match", "--remove-singletons", "--semantics", "--profile",
                 "--pass", "--lenient", "--limit", "--anchors", "--quiet"):
        assert flag in out


def test_cli_refuses_bad_input_in_one_line(capsys, tmp_path: Path):
    source = CORPORA / "litbank/105_persuasion_brat.conll"
    broken = tmp_path / "no-end.conll"
    broken.write_text(source.read_text(encoding="utf-8").replace("#end document", ""),
                      encoding="utf-8")
    for args in ((source, broken), (broken, source)):
        code, _, err = run(capsys, "analyze", *args, "-q")
        lines = err.strip().splitlines()
        assert code == 1 and len(lines) == 1 and "Traceback" not in err, err
        assert f"{broken.name}:1:" in lines[0] and "(conll.missing-end)" in lines[0]
    code, out, err = run(capsys, "analyze", source, broken, "--lenient")
    assert code == 0 and "conll.missing-end" in err and "missing mention" in out
    gum = CORPORA / "gum/dep"
    code, _, err = run(capsys, "analyze", gum / "GUM_bio_byron.conllu",
                       gum / "GUM_bio_bernoulli.conllu", "-q")
    assert code == 1 and len(err.strip().splitlines()) == 1 and "(pair.documents)" in err
    code, _, err = run(capsys, "analyze", source, source, "--match", "nonsense")
    assert code == 2 and "Traceback" not in err
