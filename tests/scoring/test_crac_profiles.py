"""The CRAC profiles (crac22 … crac26) on real zero anaphora: each year's setting against the
CorefUD scorer's numbers recorded in ``conformance/real/real-corefud-zeros.json`` (and, where
the peer is installed, against the peer run live).

The GUM pairs of ``real-corefud.json`` are covered for every profile by
``test_profiles.py``; this module adds the datasets with zeros, one pair per profile (scoring
a pair takes seconds), zeros matched by position (2022–2023) and by their dependencies (``-z
dependent``, 2024 on). The keys are our conversions of real zero annotation and carry UD
level-2 enhanced-graph errors (partial DEPS), which corefkit refuses by default like the UD
validator; they are read with ``lenient=True``, as the CorefUD scorer reads them.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

import corefkit
from corefkit.scoring.profiles import profile_settings
from tests.conftest import CONFORMANCE

REAL = CONFORMANCE / "real"
PEER = "/root/corefkit-peers/bin/corefud-score"

CASES = {  # profile -> the zero-bearing pair it is checked on
    "crac22": "la_proiel_peraeth-mild",
    "crac23": "hu_korkor_pilot-heavy",
    "crac24": "osp_iswoc-mild",
    "crac25": "la_proiel_peraeth-heavy",
    "crac26": "hu_korkor_pilot-mild",
}
MATCH = {"head": "head", "partial-corefud": "partial", "exact": "exact"}


@cache
def _suite() -> dict[str, Any]:
    return dict(json.loads((REAL / "real-corefud-zeros.json").read_text()))


def _case(profile: str) -> dict[str, Any]:
    settings = profile_settings(profile)
    for case in _suite()["cases"]:
        o = case["options"]
        if (case["pair"] == CASES[profile] and MATCH[o["match"]] == settings["match"]
                and o["keep_singletons"] != settings["remove_singletons"]
                and o["zero_match_method"] == settings["zero_match"]):
            return dict(case)
    raise AssertionError(f"no case of {profile}'s setting on {CASES[profile]}")



def _params(test: str) -> list[Any]:
    found = []
    for profile in CASES:
        if test == "zero" and "zero" not in profile_settings(profile)["metrics"].split(","):
            continue
        found.append(pytest.param(profile, id=profile))
    return found


def _compare(profile: str, only_zero: bool) -> int:
    case = _case(profile)
    report = corefkit.score(REAL / case["key"], REAL / case["response"], profile=profile,
                            lenient=True)
    printed = set(profile_settings(profile)["metrics"].split(","))
    assert set(report.metrics) == printed
    compared = 0
    for metric, components in case["expected"].items():
        if metric not in printed or (metric == "zero") != only_zero:
            continue
        for component, expected in components.items():
            got = getattr(report.metrics[metric], component)
            if expected["exact"]:
                assert got == Fraction(expected["value"]), (metric, component)
            else:
                assert abs(float(got) - float(expected["value"])) <= 1e-9, (metric, component)
            compared += 1
    return compared


@pytest.mark.parametrize("profile", _params("coreference"))
def test_crac_profile_equals_the_corefud_scorer_on_zero_anaphora(profile):
    # every coreference metric the year printed, recall, precision and F1 (+ conll)
    assert _compare(profile, only_zero=False) >= 3 * 5


@pytest.mark.parametrize("profile", _params("zero"))
def test_crac_profile_zero_metric(profile):
    assert _compare(profile, only_zero=True) == 3


def test_years_from_2024_share_the_scorer_setting():
    keys = ("semantics", "match", "remove_singletons", "keep_zeros", "zero_match", "metrics")
    base = {k: profile_settings("crac24")[k] for k in keys}
    for year in ("crac25", "crac26"):
        assert {k: profile_settings(year)[k] for k in keys} == base
    assert profile_settings("crac24")["zero_match"] == "dependent"
    assert profile_settings("crac23")["match"] == "head"
    assert profile_settings("crac22")["match"] == "partial"


def test_every_crac_profile_cites_its_sources():
    for year in CASES:
        settings = profile_settings(year)
        assert settings["sources"] and settings["official"] and settings["scorer_version"]
        assert settings["ranking"].startswith("macro-average over datasets")


@pytest.mark.skipif(shutil.which(PEER) is None, reason="the CorefUD scorer peer is not installed")
def test_crac23_equals_the_live_corefud_scorer():
    """The peer run now on the crac23 pair (-a head, singletons removed, zeros by position):
    every value it prints, to its two decimals."""
    case = _case("crac23")
    run = subprocess.run([PEER, str(REAL / case["key"]), str(REAL / case["response"]),
                          "-a", "head", "-z", "linear"], capture_output=True, text=True,
                         timeout=600, check=True)
    report = corefkit.score(REAL / case["key"], REAL / case["response"], profile="crac23",
                            lenient=True)
    blocks = re.findall(r"^(\w+)\nRecall: ([\d.]+)\s+Precision: ([\d.]+)\s+F1: ([\d.]+)$",
                        run.stdout, re.M)
    checked = 0
    for name, *texts in blocks:
        result = report.metrics[name]
        for value, text in zip((result.recall, result.precision, result.f1), texts):
            assert f"{100 * float(value):.2f}" == text, (name, text)
            checked += 1
    assert checked == 3 * 8, run.stdout
    conll = re.search(r"CoNLL score: ([\d.]+)", run.stdout)
    assert conll and f"{100 * float(report.metrics['conll'].f1):.2f}" == conll.group(1)
