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
# see tests/scoring/test_split.py: the UA scorer's BLANC depends on a set's iteration order
UA_ORDER_ARTIFACTS = {("040-TC-PB-3", "blanc")}
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
            if (case["id"], metric) in UA_ORDER_ARTIFACTS:
                assert got != Fraction(value["value"])
                continue
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
                            keep_zeros=options["keep_zeros"])
    _check(report, case)


def test_suites_are_complete():
    assert len(list(_cases("ua-plural.json"))) == 45
    total = sum(len(list(_cases(s))) for s in ("corefud-ua-original-conll.json",
                                                "corefud-ua-discontinuous.json",
                                                "corefud-ua-partial.json",
                                                "corefud-ua-zeros.json"))
    assert total == 34 + 15 + 35 + 12


@pytest.mark.parametrize("case", list(_cases("reference-tc.json")))
def test_without_sets_ua_semantics_equal_the_reference_numbers(case):
    """Apart from BLANC's rule for absent link types, the generalized metrics are the
    standard ones when there are no split antecedents."""
    key, response = CONFORMANCE / case["key"], CONFORMANCE / case["response"]
    reference = corefkit.score(key, response, metrics="muc,bcub,ceafm,ceafe,lea,mentions")
    ua = corefkit.score(key, response, metrics="muc,bcub,ceafm,ceafe,lea,mentions", semantics="ua")
    for metric in ("muc", "bcub", "ceafm", "ceafe", "lea", "mentions"):
        assert ua.metrics[metric].counts == reference.metrics[metric].counts, metric


def test_corefud_split_antecedents_score_like_exploded_ones(tmp_path: Path):
    """The same data as CorefUD (SplitAnte) and as CoNLL-UA (ElementOf) gives the same numbers."""
    for sys_name in ("TC-PA-6.sys", "TC-PA-10.sys", "TC-PB-3.sys"):
        key_file = "TC-PB.key" if "PB" in sys_name else "TC-PA.key"
        write(read(PLURAL / key_file), tmp_path / "key.conllu", format="corefud")
        write(read(PLURAL / sys_name), tmp_path / "sys.conllu", format="corefud")
        exploded = corefkit.score(PLURAL / key_file, PLURAL / sys_name, metrics=METRICS)
        compact = corefkit.score(tmp_path / "key.conllu", tmp_path / "sys.conllu",
                                 metrics=METRICS, semantics="ua")
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
    assert list(dd.metrics) == ["muc", "bcub", "ceafe", "conll"]
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
