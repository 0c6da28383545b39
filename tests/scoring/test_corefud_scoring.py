"""CorefUD scoring beyond the conformance suites: key/response alignment checks, semantics
chosen by input format, profiles, the mention-level metrics, and the command line."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.errors import FormatError, UsageError
from corefkit.scoring.metrics.standard import CorefUDBlancCounts, Counts
from corefkit.scoring.profiles import load_profiles
from corefkit.scoring.semantics.corefud import (
    CorefUDScoring,
    UDMention,
    mention_overlap,
    zero_dependency_score,
)
from tests.conftest import CONFORMANCE, CORPORA, FIXTURES

TESTS = CONFORMANCE / "data/corefud-scorer/tests-corefud"
ZEROS = TESTS / "zeros"
REFERENCE = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"
GUM_FILE = CORPORA / "gum/dep/GUM_academic_art.conllu"


def edited(path: Path, tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / path.name
    out.write_text(text.replace(old, new, count), encoding="utf-8")
    return out


# ---------------------------------------------------------------------------- alignment checks
def documents(path: Path) -> list[corefkit.model.Document]:
    """A file of the CorefUD scorer's suite as documents (read leniently: its etype 'x' and
    its missing syntax are errors of the CorefUD guidelines and the UD validator), so that
    scoring them checks the alignment of key and response alone."""
    return list(corefkit.read(path, lenient=True))


def test_misaligned_word_is_named(tmp_path: Path):
    response = edited(ZEROS / "TC-ZF-1.response", tmp_path, "7\t_\t_", "7\tseven\t_")
    with pytest.raises(FormatError) as caught:
        corefkit.score(documents(ZEROS / "TC-ZF.key"), documents(response))
    error = caught.value
    assert error.check == "pair.tokens" and error.file == str(response)
    assert "sentence 1 (LuoTestCase-1)" in error.message
    assert "word 7 is '_' in the key but 'seven' in the response" in error.message


def test_misaligned_sentence_id_and_missing_document(tmp_path: Path):
    response = edited(ZEROS / "TC-ZF-1.response", tmp_path, "sent_id = LuoTestCase-1",
                      "sent_id = other-1")
    with pytest.raises(FormatError, match="sent_id 'LuoTestCase-1' in the key.*'other-1'"):
        corefkit.score(documents(ZEROS / "TC-ZF.key"), documents(response))
    response = edited(ZEROS / "TC-ZF-1.response", tmp_path, "newdoc id = LuoTestCase",
                      "newdoc id = Elsewhere")
    with pytest.raises(FormatError, match="document 'LuoTestCase' of the key is missing"):
        corefkit.score(documents(ZEROS / "TC-ZF.key"), documents(response))


def test_empty_nodes_may_differ_between_key_and_response(tmp_path: Path):
    """Empty nodes are not compared (a system predicts its own), and an extra one does not
    shift the positions of later nodes: 5.1 stays (5, 1), 15.1 stays (15, 1)."""
    line = "15.1\t_\t_\t_\t_\t_\t0\t_\t15:nsubj\tEntity=(e1-x-1-)\n"
    extra = "3.1\t_\t_\t_\t_\t_\t0\t_\t_\t_\n"
    response = edited(ZEROS / "TC-ZF-1.response", tmp_path, "4\t_", extra + "4\t_")
    assert line in response.read_text()
    plain = corefkit.score(ZEROS / "TC-ZF.key", ZEROS / "TC-ZF-1.response", match="head",
                           lenient=True)
    shifted = corefkit.score(ZEROS / "TC-ZF.key", response, match="head", lenient=True)
    for metric in ("muc", "bcub", "ceafe", "mor", "zero"):
        assert shifted.metrics[metric].f1 == plain.metrics[metric].f1 == 1


# ---------------------------------------------------------------------------- semantics
def test_conll2012_input_keeps_the_reference_semantics():
    """TC-M-3: the key has no non-coreference links. The reference scorer then reports the
    coreference part alone; the CorefUD scorer averages it with a zero part
    (DISAGREEMENTS.md item 2). CoNLL-2012 input follows the reference unless asked."""
    reference = corefkit.score(REFERENCE / "TC-M.key", REFERENCE / "TC-M-3.response")
    assert reference.options["semantics"] == "reference-scorer-8.01"
    blanc = reference.metrics["blanc"]
    assert (blanc.recall, blanc.precision, blanc.f1) == (Fraction(4, 15), 1, Fraction(8, 19))
    corefud = corefkit.score(REFERENCE / "TC-M.key", REFERENCE / "TC-M-3.response", match="exact")
    assert corefud.options["semantics"] == "corefud-scorer-1.2"
    blanc = corefud.metrics["blanc"]
    assert (blanc.recall, blanc.precision, blanc.f1) == (Fraction(2, 15), Fraction(1, 2),
                                                          Fraction(4, 19))
    assert corefud.metrics["muc"].f1 == reference.metrics["muc"].f1


def test_conllu_input_gets_corefud_semantics_and_mention_metrics():
    report = corefkit.score(TESTS / "exact-match/TC-A.key", TESTS / "exact-match/TC-A-12.response",
                            lenient=True)
    assert report.options["semantics"] == "corefud-scorer-1.2"
    assert report.options["match"] == "exact" and report.options["zero_match"] == "linear"
    assert list(report.metrics)[-2:] == ["mor", "zero"]
    assert (report.metrics["mor"].recall, report.metrics["mor"].precision) == \
        (Fraction(9, 13), Fraction(9, 10))


def test_mention_metrics_need_corefud_scoring():
    with pytest.raises(UsageError, match="mor and zero"):
        corefkit.score(REFERENCE / "TC-A.key", REFERENCE / "TC-A-1.response", metrics="muc,mor")


def test_crac_profile():
    profiles = load_profiles()
    assert profiles["crac"]["match"] == "head" and profiles["crac"]["remove_singletons"]
    settings = CorefUDScoring.resolve(profile="crac")
    assert (settings.match, settings.zero_match, settings.keep_zeros,
            settings.remove_singletons) == ("head", "dependent", True, True)
    assert CorefUDScoring.resolve(profile="crac", match="partial",
                                  remove_singletons=False).options() == {
        "match": "partial", "zero_match": "dependent", "keep_zeros": True,
        "remove_singletons": False, "profile": "crac"}
    with pytest.raises(UsageError, match="unknown scoring profile 'nope'"):
        CorefUDScoring.resolve(profile="nope")
    with pytest.raises(UsageError, match="unknown mention matching"):
        CorefUDScoring.resolve(match="fuzzy")


def test_gum_against_itself_under_the_crac_profile():
    """GUM has no heads: the first word stands in (as udapi and the CorefUD scorer do), so a
    file scored against itself is perfect; singletons are removed by the profile."""
    full = corefkit.score(GUM_FILE, GUM_FILE)
    crac = corefkit.score(GUM_FILE, GUM_FILE, profile="crac")
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor"):
        assert crac.metrics[metric].f1 == 1, metric
    # the profile prints the CorefUD scorer's metrics, without mention identification; the
    # report still carries it
    assert "mentions" not in crac.metrics
    assert crac.identification.recall_den < full.metrics["mentions"].counts.recall_den
    (doc,) = corefkit.read(GUM_FILE)
    assert full.metrics["mentions"].counts.recall_den == len(doc.mentions)


def test_removing_zeros():
    kept = corefkit.score(ZEROS / "TC-ZA.key", ZEROS / "TC-ZA-1.response", lenient=True)
    removed = corefkit.score(ZEROS / "TC-ZA.key", ZEROS / "TC-ZA-1.response", keep_zeros=False,
                             lenient=True)
    assert kept.metrics["mentions"].counts.recall_den == 6
    assert removed.metrics["mentions"].counts.recall_den == 5
    assert kept.metrics["zero"].recall == 1 and removed.metrics["zero"].counts.recall_den == 0


# ---------------------------------------------------------------------------- the pieces
def ud(*words: tuple[int, int], head=None, zero=False, deps=(), sentence=0) -> UDMention:
    return UDMention(tuple(words), head or words[0], zero, tuple(deps), sentence)


def test_zero_dependency_score():
    """TC-ZG-2: key deps 13:a|14:b|15:c; the response zero with 13:a|15:x scores
    10·F1(1 of 3, 1 of 2) + F1(2 of 3, 2 of 2) = 4 + 0.8, the one with 13:a|18:x 4 + 0.4."""
    def deps(*items):
        return [((0, int(p), 0), r) for p, r in (i.split(":") for i in items)]

    key = ud((15, 1), zero=True, deps=deps("13:a", "14:b", "15:c"))
    right = ud((15, 2), zero=True, deps=deps("13:a", "15:x"))
    wrong = ud((15, 1), zero=True, deps=deps("13:a", "18:x"))
    assert zero_dependency_score(key, right) == pytest.approx(4.8)
    assert zero_dependency_score(key, wrong) == pytest.approx(4.4)
    elsewhere = ud((35, 2), zero=True, deps=deps("13:a"), sentence=1)
    assert zero_dependency_score(key, elsewhere) == 0


def test_mention_overlap_takes_the_best_one_to_one_pairing():
    a = ud(*[(i, 0) for i in range(1, 5)])           # 1-4
    b = ud(*[(i, 0) for i in range(3, 7)])           # 3-6
    r1 = ud(*[(i, 0) for i in range(1, 7)])          # 1-6 overlaps both by 4
    r2 = ud((5, 0), (6, 0))                          # 5-6 overlaps b by 2
    # pairing r1 with a and r2 with b gives 4 + 2 = 6 (r1 with b would give 4 + 0)
    assert mention_overlap([a, b], [r1, r2]) == Counts(6, 8, 6, 8)
    assert mention_overlap([a], []) == Counts(0, 4, 0, 0)


def test_corefud_blanc_rule_sums_documents():
    no_links = Counts(0, 0, 0, 0)
    part = Counts(1, 2, 1, 4)
    blanc = CorefUDBlancCounts(part, no_links) + CorefUDBlancCounts(part, no_links)
    assert isinstance(blanc, CorefUDBlancCounts)
    assert (blanc.recall, blanc.precision) == (Fraction(1, 2), Fraction(1, 4))
    only_response = CorefUDBlancCounts(part, Counts(0, 0, 0, 3))  # key has no such links
    assert only_response.recall == Fraction(1, 4) and only_response.precision == Fraction(1, 8)


# ---------------------------------------------------------------------------- command line
def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_command_options(capsys):
    # --lenient: the suite's files have etype 'x' and no syntax (refused otherwise)
    code, out, err = run(capsys, "score", ZEROS / "TC-ZF.key", ZEROS / "TC-ZF-4.response",
                         "--match", "head", "--zero-match", "dependent", "-m", "muc,bcub,zero",
                         "-f", "json", "--lenient")
    assert code == 0, err
    data = json.loads(out)
    assert data["options"]["zero_match"] == "dependent"
    assert data["metrics"]["bcub"]["exact"]["recall"] == "11/15"
    assert data["metrics"]["zero"]["exact"]["precision"] == "1/2"
    code, out, _ = run(capsys, "score", ZEROS / "TC-ZF.key", ZEROS / "TC-ZF-4.response",
                       "--profile", "crac", "--keep-singletons", "-f", "json", "--lenient", "-q")
    data = json.loads(out)
    assert code == 0 and data["options"]["profile"] == "crac"
    assert data["options"]["remove_singletons"] is False and data["options"]["match"] == "head"
    assert {"mor", "zero", "conll"} <= set(data["metrics"])


def test_score_command_reports_misalignment_in_one_line(tmp_path: Path, capsys):
    # a GUM document (the suite's files lack syntax, which the command refuses first)
    response = edited(GUM_FILE, tmp_path, "3\tEye\teye", "3\tEar\tear")
    response.write_text(response.read_text(encoding="utf-8").replace(
        "# text = Insights from Eye-Tracking", "# text = Insights from Ear-Tracking"),
        encoding="utf-8")
    code, out, err = run(capsys, "score", GUM_FILE, response)
    assert code == 1 and out == ""
    assert err.startswith("corefkit: error: ") and err.count("\n") == 1
    assert "(pair.tokens)" in err and "Traceback" not in err and "'Ear'" in err
    code, _, err = run(capsys, "score", GUM_FILE, response, "--profile", "nope")
    assert code == 2 and "unknown scoring profile" in err


def test_exact_corefud_matching_agrees_with_the_reference_path():
    """On every reference test case, CorefUD semantics with exact matching give the
    reference's MUC, B³, CEAF and LEA (only BLANC's rule for absent link types differs): two
    alignment implementations checked against each other. TC-A-8/A-9 repeat a key mention in
    a second response entity, which the reference removes and the CorefUD scorer keeps: they
    are checked against that scorer below."""
    cases = json.loads((CONFORMANCE / "reference-tc.json").read_text())["cases"]
    for case in cases:
        if case["id"] in ("011-TC-A-8", "012-TC-A-9"):
            continue
        key, response = CONFORMANCE / case["key"], CONFORMANCE / case["response"]
        reference = corefkit.score(key, response, lenient=True)
        corefud = corefkit.score(key, response, match="exact", lenient=True)
        for metric in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
            assert corefud.metrics[metric].counts == reference.metrics[metric].counts, \
                (case["id"], metric)


REPEATS = json.loads((FIXTURES / "corefud/repeated-mentions.json").read_text())


@pytest.mark.parametrize("case", REPEATS["cases"], ids=lambda c: c["command"].split("/")[-1])
def test_repeated_mentions_are_kept_as_the_corefud_scorer_keeps_them(case):
    """A mention in two response entities stays in both; lookups find the later entity in
    udapi's entity order (by first mention, then eid as a string: in TC-A-8-renumbered, e10
    comes before e9). The CorefUD scorer's own numbers on its TC-A-8/A-9 files (which its
    unit tests skip), recorded in the fixture with the command; compared at full precision."""
    options = case["options"]
    response = case["response"]
    response = (FIXTURES / response.removeprefix("fixture:") if response.startswith("fixture:")
                else CONFORMANCE / response)
    report = corefkit.score(CONFORMANCE / case["key"], response,
                            match=options[options.index("-a") + 1] if "-a" in options else "head",
                            remove_singletons="-s" not in options, zero_match="dependent",
                            lenient=True)
    for metric, values in case["rpf"].items():
        got = report.metrics[metric]
        for mine, theirs in zip((got.recall, got.precision, got.f1), values):
            assert abs(float(mine) - theirs) <= 1e-9, metric


def test_conllu_key_scores_a_conll2012_response(tmp_path: Path):
    """Positions count words through the document, so a CoNLL-U key and a CoNLL-2012 response
    with other sentence breaks (GUM's export has none) line up word for word."""
    key = CORPORA / "gum/dep/GUM_academic_art.conllu"
    response = CORPORA / "gum/coref-gum-conll/GUM_academic_art.conll"
    report = corefkit.score(key, response, key_format="corefud", response_format="conll2012",
                            lenient=True)
    assert report.options["semantics"] == "corefud-scorer-1.2"
    for metric in ("muc", "bcub", "ceafe", "mor"):
        assert report.metrics[metric].f1 == 1, metric
    short = tmp_path / "short.conll"
    text = response.read_text(encoding="utf-8")
    assert "\n751\t.\t_\n" in text  # drop the last word
    short.write_text(text.replace("\n751\t.\t_\n", "\n"), encoding="utf-8")
    with pytest.raises(FormatError, match="words in the key but"):
        corefkit.score(key, short, key_format="corefud", response_format="conll2012", lenient=True)
