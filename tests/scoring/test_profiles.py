"""Every shared-task profile reproduces its official scorer on real data: the same metrics
printed, the same numbers.

The official numbers come from the real-data suites of ``conformance/real/`` (reference scorer,
CorefUD scorer 1.2 and UA scorer 1.x in the modes the tasks used) and, for crac18 and
craft19, which those suites do not cover, from ``tests/fixtures/profiles/peer-outputs.json``
(made by ``make_fixtures.py`` there, commands recorded per case).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

import corefkit
from corefkit.scoring.profiles import load_profiles
from tests.conftest import CONFORMANCE, FIXTURES
from tests.scoring.test_real_conformance import UA_BRIDGING, _suite, _value

REAL = CONFORMANCE / "real"
# What each official scorer prints (besides the CoNLL average, which every one prints).
PRINTED = {
    "conll12": {"mentions", "muc", "bcub", "ceafm", "ceafe", "blanc"},  # scorer.pl all
    "crac": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
    # the LLM track: the crac setting on aligned answers (tests/converters/test_text2text_oracle.py)
    "crac-llm": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
    "corefud-exact": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
    "codi-crac21": {"lea", "muc", "bcub", "ceafe", "ceafm", "blanc"},
    "codi-crac22-ar": {"lea", "muc", "bcub", "ceafe", "ceafm", "blanc"},
    "codi-crac22-dd": {"lea", "muc", "bcub", "ceafe", "ceafm", "blanc"},
    "codi-crac22-br": {"lea", "muc", "bcub", "ceafe", "ceafm", "blanc", "bridging"},
    "crac18": {"lea", "muc", "bcub", "ceafe", "ceafm", "blanc", "non_referring"},
    "craft19": {"muc", "bcub", "ceafe"},
    # CRAC 2022: CorefUD scorer 1.0 printed the standard metrics only (MOR and zero came in 1.1)
    "crac22": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea"},
    "crac23": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
    "crac24": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
    "crac25": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
    "crac26": {"muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"},
}
# Which cases of the real-data suites are each profile's setting.
SUITE_MODES = {
    "conll12": ("real-reference.json", lambda o: True),
    "crac": ("real-corefud.json", lambda o: o["match"] == "head" and not o["keep_singletons"]
             and o["zero_match_method"] == "dependent"),
    # aligned to the key, a response with the key's words gives the crac numbers exactly
    "crac-llm": ("real-corefud.json", lambda o: o["match"] == "head" and not o["keep_singletons"]
                 and o["zero_match_method"] == "dependent"),
    "corefud-exact": ("real-corefud.json", lambda o: o["match"] == "exact"
                      and o["keep_singletons"] and o["zero_match_method"] == "linear"),
    "crac22": ("real-corefud.json", lambda o: o["match"] == "partial-corefud"
               and not o["keep_singletons"] and o["zero_match_method"] == "linear"),
    "crac23": ("real-corefud.json", lambda o: o["match"] == "head" and not o["keep_singletons"]
               and o["zero_match_method"] == "linear"),
    **{year: ("real-corefud.json", lambda o: o["match"] == "head" and not o["keep_singletons"]
              and o["zero_match_method"] == "dependent") for year in ("crac24", "crac25", "crac26")},
    "codi-crac21": ("real-ua.json", lambda o: _ua_mode(o) == "default"),
    "codi-crac22-ar": ("real-ua.json", lambda o: _ua_mode(o) == "default"),
    "codi-crac22-dd": ("real-ua.json", lambda o: _ua_mode(o) == "evaluate_discourse_deixis"),
    "codi-crac22-br": ("real-ua.json", lambda o: _ua_mode(o) == "keep_bridging"),
}


def _ua_mode(options: dict[str, Any]) -> str:
    flags = [k for k in ("only_split_antecedent", "keep_non_referring", "keep_bridging",
                         "evaluate_discourse_deixis") if options[k]]
    if not options["keep_split_antecedents"]:
        flags.append("remove_split_antecedent")
    if not options["keep_singletons"]:
        flags.append("remove_singletons")
    return "+".join(flags) or "default"


def test_every_profile_is_tested():
    assert set(PRINTED) == set(load_profiles())


@pytest.mark.parametrize("profile", sorted(PRINTED))
def test_a_profile_prints_what_its_official_scorer_prints(profile):
    path = CONFORMANCE / "real/data/codi-crac22/AMI_dev_v2.2022.ES2004a.CONLLUA"
    if profile == "conll12":
        path = REAL / "data/litbank/key.conll"
    elif profile in ("crac", "crac-llm", "corefud-exact") or profile.startswith("crac2"):
        path = REAL / "data/gum-corefud/key.conllu"
    report = corefkit.score(path, path, profile=profile)
    assert set(report.metrics) == PRINTED[profile] | {"conll"}


def test_an_explicit_all_means_all():
    path = REAL / "data/codi-crac22/AMI_dev_v2.2022.ES2004a.CONLLUA"
    report = corefkit.score(path, path, "all", profile="codi-crac22-ar")
    assert {"mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll",
            "non_referring", "bridging"} <= set(report.metrics)


def _suite_cases():
    for profile, (suite, chosen) in SUITE_MODES.items():
        for case in _suite(suite)["cases"]:
            if chosen(case["options"]) and "perfect" not in case["pair"]:
                yield pytest.param(profile, case, id=f"{profile}:{case['id']}")


@pytest.mark.parametrize("profile, case", list(_suite_cases()))
def test_profile_equals_the_official_scorer_on_real_data(profile, case):
    report = corefkit.score(REAL / case["key"], REAL / case["response"], profile=profile,
                            lenient=True)
    compared = 0
    for metric, components in case["expected"].items():
        if metric not in PRINTED[profile] | {"conll"} | set(UA_BRIDGING) and metric != "mentions":
            continue
        for component, expected in components.items():
            got = _value(report, metric, component)
            if expected["exact"]:
                assert got == Fraction(expected["value"]), (metric, component)
            else:
                assert abs(float(got) - float(expected["value"])) <= 1e-9, (metric, component)
            compared += 1
    assert compared >= 3 * len(PRINTED[profile] - {"bridging"})


def _fixture_cases():
    data = json.loads((FIXTURES / "profiles/peer-outputs.json").read_text())
    for n, case in enumerate(data["cases"]):
        yield pytest.param(case, id=f"{case['profile']}:{n}:{case['response'].rsplit('/', 1)[-1]}")


@pytest.mark.parametrize("case", list(_fixture_cases()))
def test_crac18_and_craft19_equal_their_scorers(case):
    report = corefkit.score(REAL / case["key"], REAL / case["response"], profile=case["profile"],
                            lenient=True)
    assert set(report.metrics) == PRINTED[case["profile"]] | {"conll"}
    for metric, values in case["values"].items():
        got = report.metrics[metric]
        for mine, theirs in zip((got.recall, got.precision, got.f1), values):
            if case["precision"] == "full":
                assert abs(float(mine) - theirs) <= 1e-9, metric
            else:  # printed with two decimals: within half the last digit
                assert abs(float(mine) * 100 - float(theirs)) <= 0.005, metric
    conll = report.metrics["conll"].f1
    if case["precision"] == "full":
        assert abs(float(conll) - case["conll"]) <= 1e-9
    else:
        assert abs(float(conll) * 100 - float(case["conll"])) <= 0.005
