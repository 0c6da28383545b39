"""Scoring with the Universal Anaphora scorer's semantics, end to end from files.

``ua-plural.json``: the UA scorer's split-antecedent (plural) suite, 15 cases × 3 modes;
``corefud-ua-*.json``: the CorefUD scorer 1.2 on UA-format files (exact, partial with Min,
CRAFT partial, zeros, crossing markables). Values compared as exact fractions.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.registry import read, write
from tests.conftest import CONFORMANCE, CORPORA

PLURAL = CONFORMANCE / "data/universal-anaphora-scorer/plural-tests"
CODI = CORPORA / "codi-crac22"
METRICS = "muc,bcub,ceafm,ceafe,blanc,lea,conll"
MATCH = {"exact": "exact", "partial-corefud": "partial", "partial-craft": "craft"}


def _cases(suite: str):
    data = json.loads((CONFORMANCE / suite).read_text())
    for case in data["cases"]:
        yield pytest.param(case, id=case["id"])


def _check(report, case):
    checked = 0
    for metric, components in case["expected"].items():
        for component, value in components.items():
            got = getattr(report.metrics[metric], component)
            if value["exact"]:
                assert got == Fraction(value["value"]), (metric, component)
            else:
                assert abs(float(got) - float(value["value"])) < 1e-4, (metric, component)
            checked += 1
    assert checked


@pytest.mark.parametrize("case", list(_cases("ua-plural.json")))
def test_plural_suite_from_files(case):
    options = case["options"]
    report = corefkit.score(CONFORMANCE / case["key"], CONFORMANCE / case["response"],
                            metrics=METRICS,
                            remove_split_antecedents=not options["keep_split_antecedents"],
                            only_split_antecedents=options["only_split_antecedent"])
    assert report.options["semantics"] == "ua-scorer"
    _check(report, case)


@pytest.mark.parametrize("case", [c for suite in ("corefud-ua-original-conll.json",
                                                  "corefud-ua-discontinuous.json",
                                                  "corefud-ua-partial.json",
                                                  "corefud-ua-zeros.json")
                                  for c in _cases(suite)])
def test_corefud_scorer_on_ua_files(case):
    options = case["options"]
    report = corefkit.score(CONFORMANCE / case["key"], CONFORMANCE / case["response"],
                            metrics=METRICS, semantics="ua", match=MATCH[options["match"]],
                            keep_zeros=options["keep_zeros"], lenient=True)
    _check(report, case)


def test_suites_are_complete():
    assert len(list(_cases("ua-plural.json"))) == 45
    total = sum(len(list(_cases(s))) for s in ("corefud-ua-original-conll.json",
                                                "corefud-ua-discontinuous.json",
                                                "corefud-ua-partial.json",
                                                "corefud-ua-zeros.json"))
    assert total == 34 + 15 + 35 + 12


# The UA scorer reads CoNLL-2012 files with coval's reader, which misreads the cell `(1(3`
# of TC-A-8/A-9 (two openers without `|`) as one mention and orders clusters by their
# closing brackets; corefkit reads both mentions (docs/deviations.md, "UA scorer on
# CoNLL-2012 files"). With the cell written `(1|(3`, the peer's numbers change, so the
# recorded ones are kept here and marked.
CONLL_READER_QUIRK = {"011-TC-A-8", "012-TC-A-9"}


def _reference_cases():
    for param in _cases("reference-tc.json"):
        case = param.values[0]
        marks = [pytest.mark.xfail(strict=True, reason="the UA scorer's CoNLL-2012 reader "
                                   "misreads `(1(3`; see CONLL_READER_QUIRK")] \
            if case["id"] in CONLL_READER_QUIRK else []
        yield pytest.param(case, id=case["id"], marks=marks)


@pytest.mark.parametrize("case", list(_reference_cases()))
def test_ua_semantics_on_the_reference_cases_equal_the_ua_scorer(case):
    """The reference scorer's cases scored with UA semantics give the UA scorer's numbers
    (its output is recorded beside the reference's in the suite)."""
    key, response = CONFORMANCE / case["key"], CONFORMANCE / case["response"]
    ua = corefkit.score(key, response, metrics="muc,bcub,ceafm,ceafe,blanc,lea", semantics="ua",
                        lenient=True)
    peer = case["peer_output"]["ua-scorer"]
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        got = ua.metrics[metric]
        assert [got.recall, got.precision, got.f1] == [Fraction(v) for v in peer[metric]["rpf"]], \
            metric


def test_corefud_split_antecedents_score_like_exploded_ones(tmp_path: Path):
    """The same data as CorefUD (SplitAnte) and as CoNLL-UA (ElementOf) gives the same numbers."""
    for sys_name in ("TC-PA-6.sys", "TC-PA-10.sys", "TC-PB-3.sys"):
        key_file = "TC-PB.key" if "PB" in sys_name else "TC-PA.key"
        write(read(PLURAL / key_file), tmp_path / "key.conllu", format="corefud")
        write(read(PLURAL / sys_name), tmp_path / "sys.conllu", format="corefud")
        exploded = corefkit.score(PLURAL / key_file, PLURAL / sys_name, metrics=METRICS,
                                  lenient=True)
        compact = corefkit.score(tmp_path / "key.conllu", tmp_path / "sys.conllu",
                                 metrics=METRICS, semantics="ua", lenient=True)
        for metric in METRICS.split(","):
            assert compact.metrics[metric].f1 == exploded.metrics[metric].f1, (sys_name, metric)


def test_the_set_flattening_pass_runs_before_scoring():
    """light episode_6614 has a nested set; scoring a file against itself stays perfect."""
    path = CODI / "light_train.2022.first10docs.CONLLUA"
    report = corefkit.score(path, path, metrics="muc,bcub,lea,blanc")
    for metric in ("muc", "bcub", "lea", "blanc"):
        assert report.metrics[metric].f1 == 1, metric


def _codi(name: str):
    return list(read(CODI / name))


def test_non_referring_and_bridging(tmp_path: Path):
    docs = _codi("AMI_dev_v2.2022.ES2004a.CONLLUA")
    key = tmp_path / "key.CONLLUA"
    write(docs, key, format="ua-exploded")
    [doc] = docs
    # the response forgets two non-referring markables and moves one bridging anchor to
    # another mention of the same entity
    for mention in doc.non_referring()[:2]:
        doc.remove_mention(mention)
    moved = next(b for b in doc.bridging()
                 if b.anchor_mention is not None and len(doc.mentions_of(b.anchor)) > 1)
    other = next(m for m in doc.mentions_of(moved.anchor) if m is not moved.anchor_mention)
    doc.add_bridging(moved.anaphor, moved.anchor, relation=moved.relation, anchor_mention=other)
    response = tmp_path / "response.CONLLUA"
    write([doc], response, format="ua-exploded")
    report = corefkit.score(key, response, metrics="non_referring,bridging")
    nonref = report.metrics["non_referring"].counts
    assert nonref.precision == 1 and nonref.recall_den - nonref.recall_num == 2
    bridging = report.metrics["bridging"].counts
    assert bridging.recognition.f1 == 1
    assert bridging.mention.recall_num == bridging.mention.recall_den - 1
    assert bridging.entity.f1 == 1
    data = report.to_json()["metrics"]
    assert set(data["bridging"]) == {"recognition", "mention", "entity"}
    assert data["non_referring"]["recall"] == float(nonref.recall)


def test_discourse_deixis_scores_the_dd_layer():
    path = CODI / "Persuasion_train.2022.first10docs.CONLLUA"
    identity = corefkit.score(path, path, metrics="muc")
    dd = corefkit.score(path, path, profile="codi-crac22-dd")
    assert dd.options["discourse_deixis"] is True
    # what the UA scorer 1.x prints with evaluate_discourse_deixis (tests/scoring/test_profiles.py)
    assert set(dd.metrics) == {"muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"}
    assert dd.metrics["muc"].counts.recall_den < identity.metrics["muc"].counts.recall_den
    assert dd.metrics["conll"].f1 == 1


def test_only_split_pairs_unmatched_sets_with_the_empty_set():
    """TC-PA-4: the response has no plural; the key set still counts in recall."""
    report = corefkit.score(PLURAL / "TC-PA.key", PLURAL / "TC-PA-4.sys", metrics="bcub,muc",
                            only_split_antecedents=True)
    bcub = report.metrics["bcub"].counts
    assert bcub.recall_num == 0 and bcub.recall_den == 4 and bcub.precision_den == 0


def test_lea_split_importance():
    plain = corefkit.score(PLURAL / "TC-PA.key", PLURAL / "TC-PA-6.sys", metrics="lea")
    heavy = corefkit.score(PLURAL / "TC-PA.key", PLURAL / "TC-PA-6.sys", metrics="lea",
                           lea_split_importance="2")
    assert heavy.metrics["lea"].counts.recall_den == plain.metrics["lea"].counts.recall_den + 3
    assert heavy.metrics["lea"].recall != plain.metrics["lea"].recall


def test_explain_shows_alignments_and_contributions(capsys):
    code = main(["score", str(PLURAL / "TC-PA.key"), str(PLURAL / "TC-PA-6.sys"), "-f", "json",
                 "--explain", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    [doc] = data["explain"]
    bcub = doc["metrics"]["bcub"]
    [pair] = bcub["pairs"]
    assert (pair["delta_recall"], pair["delta_precision"]) == ("1/2", "2/3")
    plural = [row for row in bcub["entities"]["recall"] if row["set"]]
    assert len(plural) == 1 and plural[0]["denominator"] == "3"


def test_cli_options_and_errors(capsys):
    code = main(["score", str(PLURAL / "TC-PA.key"), str(PLURAL / "TC-PA-6.sys"),
                 "--only-split-antecedents", "--remove-split-antecedents", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "exclude each other" in err
    code = main(["score", str(PLURAL / "TC-PA.key"), str(PLURAL / "TC-PA-6.sys"), "-m", "bcub",
                 "--only-split-antecedents", "-f", "json", "-q"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["metrics"]["bcub"]["exact"]["recall"] == "1/2"
    code = main(["score", str(CONFORMANCE / "data/reference-coreference-scorers/DataFiles/TC-A.key"),
                 str(CONFORMANCE / "data/reference-coreference-scorers/DataFiles/TC-A-1.response"),
                 "-m", "bridging", "-q"])
    assert code == 2 and "UA scoring" in capsys.readouterr().err
    code = main(["score", str(PLURAL / "TC-PA.key"), str(PLURAL / "TC-PA-6.sys"),
                 "--lea-split-importance", "x", "-q"])
    assert code == 2 and "expected a number" in capsys.readouterr().err


@pytest.mark.parametrize("profile", ["codi-crac21", "codi-crac22-ar", "codi-crac22-br",
                                     "codi-crac22-dd", "crac18", "craft19"])
def test_ua_profiles(profile):
    path = CODI / "AMI_dev_v2.2022.ES2004a.CONLLUA"
    report = corefkit.score(path, path, profile=profile)
    assert report.options["semantics"] == "ua-scorer" and report.options["profile"] == profile
    assert all(m.f1 == 1 for m in report.metrics.values())


PAUN = Path(__file__).resolve().parent.parent / "fixtures/ua/paun2023"


def _paun_cases():
    data = json.loads((PAUN / "ua-scorer.json").read_text())
    for system, modes in data["rpf"].items():
        for mode, values in modes.items():
            yield pytest.param(system, mode, values, data["modes"][mode], id=f"{system}+{mode}")


@pytest.mark.parametrize("system, mode, values, options", list(_paun_cases()))
def test_paun_example_12_equals_the_ua_scorer(system, mode, values, options):
    """Paun et al. (2023) example (12), systems A–D (tests/fixtures/ua/paun2023), in four modes:
    every metric equals the UA scorer 1.x at full precision — LEA and BLANC included, whose
    split-antecedent credit follows the scorer's walk order (corefkit/scoring/split.py)."""
    report = corefkit.score(PAUN / "key.conllua", PAUN / f"{system}.conllua", METRICS,
                            remove_singletons="remove_singletons" in options,
                            remove_split_antecedents="remove_split_antecedent" in options,
                            only_split_antecedents="only_split_antecedent" in options)
    for metric, expected in values.items():
        got = report.metrics[metric]
        mine = [got.f1] if metric == "conll" else [got.recall, got.precision, got.f1]
        for a, b in zip(mine, expected):
            assert abs(float(a) - b) <= 1e-9, metric
