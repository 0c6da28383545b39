"""``corefkit compare``: generalization gaps, paired permutation tests, bootstrap intervals
and their renderings, on hand-built CoNLL-U corpora with known mention types."""

from __future__ import annotations

import itertools
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from corefkit.cli.main import main
from corefkit.errors import UsageError
from corefkit.evaluation.compare import SettingSpec, compare
from corefkit.evaluation.significance import permutation_test, statistic
from corefkit.scoring.metrics.standard import conll
from tests.conftest import CONFORMANCE, CORPORA

DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"
GUM = CORPORA / "gum"


# ---------------------------------------------------------------------------- fixtures
def _sentence(rows: list[list[str]]) -> str:
    return "\n".join("\t".join(r) for r in rows) + "\n\n"


def document(d: int, split_dogs: bool = False, split_cat: bool = False) -> str:
    """'Dogs bark. Dogs run. The cat sleeps. The cat eats.' — 'Dogs' (twice, generic: a
    plural without determiner) and 'The cat' (twice, not generic) are two entities of the
    same shape. ``split_dogs`` / ``split_cat`` make a response miss one of the two links."""
    a1, a2 = f"d{d}a", (f"d{d}c" if split_dogs else f"d{d}a")
    b1, b2 = f"d{d}b", (f"d{d}e" if split_cat else f"d{d}b")
    out = [f"# newdoc id = doc{d}\n# global.Entity = eid-etype-head-other\n"]
    for n, (a, verb) in enumerate(((a1, "bark"), (a2, "run"))):
        out.append(f"# sent_id = doc{d}-{n + 1}\n# text = Dogs {verb}.\n" + _sentence([
            ["1", "Dogs", "dog", "NOUN", "NNS", "Number=Plur", "2", "nsubj", "_",
             f"Entity=({a}-animal-1)"],
            ["2", verb, verb, "VERB", "VBP", "_", "0", "root", "_", "SpaceAfter=No"],
            ["3", ".", ".", "PUNCT", ".", "_", "2", "punct", "_", "_"]]))
    for n, (b, verb) in enumerate(((b1, "sleeps"), (b2, "eats"))):
        out.append(f"# sent_id = doc{d}-{n + 3}\n# text = The cat {verb}.\n" + _sentence([
            ["1", "The", "the", "DET", "DT", "_", "2", "det", "_", f"Entity=({b}-animal-2"],
            ["2", "cat", "cat", "NOUN", "NN", "Number=Sing", "3", "nsubj", "_", f"Entity={b})"],
            ["3", verb, verb, "VERB", "VBZ", "_", "0", "root", "_", "SpaceAfter=No"],
            ["4", ".", ".", "PUNCT", ".", "_", "3", "punct", "_", "_"]]))
    return "".join(out)


def corpus(path: Path, documents: int, split_dogs=lambda d: False, split_cat=lambda d: False
           ) -> Path:
    path.write_text("".join(document(d, split_dogs(d), split_cat(d)) for d in range(documents)))
    return path


AGGREGATE = ["muc", "bcub", "ceafe", "conll"]


# ---------------------------------------------------------------------------- gaps
def test_a_system_differing_only_on_generic_mentions_has_a_tgg_but_no_agg(tmp_path):
    """In domain the system misses the link of a non-generic entity in every document, out of
    domain that of the generic entity of the same shape: every aggregate score is the same
    (AGG = 0, eq. 1), type-restricted B³ of generic mentions is not (TGG = 1 − 2/3, eq. 2)."""
    key_in = corpus(tmp_path / "in.conllu", 5)
    key_out = corpus(tmp_path / "out.conllu", 5)
    system_in = corpus(tmp_path / "sys-in.conllu", 5, split_cat=lambda d: True)
    system_out = corpus(tmp_path / "sys-out.conllu", 5, split_dogs=lambda d: True)
    result = compare([SettingSpec(key_in, system_in, "sys@in"),
                      SettingSpec(key_out, system_out, "sys@out")],
                     in_domain="in", seed=1, permutations=100, bootstrap=100)
    gaps = {g.metric: g for g in result.gaps}
    assert [g.kind for g in result.gaps] == ["AGG"] * 4 + ["TGG"] * 6
    for name in AGGREGATE:
        assert gaps[name].difference == 0 and gaps[name].gap == 0
        assert gaps[name].in_score < 1  # both settings have errors, just as many
    generic = gaps["by_type.generic"]
    assert (generic.in_score, generic.out_score) == (1.0, pytest.approx(2 / 3))
    assert generic.gap == pytest.approx(1 / 3) and generic.type == "generic"
    assert (generic.in_domain, generic.out_of_domain, generic.system) == ("sys@in", "sys@out", "sys")
    assert generic.ci_low == pytest.approx(1 / 3) and generic.ci_high == pytest.approx(1 / 3)
    assert gaps["by_type.nested"].gap == 0  # no nested mention: 0 on both sides
    data = result.to_json()
    assert [s["label"] for s in data["settings"]] == ["sys@in", "sys@out"]
    assert data["settings"][1]["by_type"]["generic"]["key_mentions"] == 10
    assert {g["kind"] for g in data["gaps"]} == {"AGG", "TGG"} and data["tests"] == []


def test_explicit_gap_pairs_and_bad_designations(tmp_path):
    key_a = corpus(tmp_path / "a.conllu", 3)
    key_b = corpus(tmp_path / "b.conllu", 3)
    settings = [SettingSpec(key_a, key_a, "x@a"), SettingSpec(key_b, key_b, "x@b")]
    result = compare(settings, gaps=[("x@b", "x@a")], seed=0, permutations=10, bootstrap=10)
    assert {(g.in_domain, g.out_of_domain) for g in result.gaps} == {("x@b", "x@a")}
    with pytest.raises(UsageError, match="--in-domain 'c' is not a dataset"):
        compare(settings, in_domain="c", permutations=10, bootstrap=10)
    with pytest.raises(UsageError, match="unknown setting label 'x@c'"):
        compare(settings, gaps=[("x@a", "x@c")], permutations=10, bootstrap=10)
    with pytest.raises(UsageError, match="name different datasets"):
        compare([SettingSpec(key_a, key_a, "x@a"), SettingSpec(key_a, key_a, "y@b")])
    with pytest.raises(UsageError, match="two different keys"):
        compare([SettingSpec(key_a, key_a, "x@a"), SettingSpec(key_b, key_b, "y@a")])
    with pytest.raises(UsageError, match="given twice"):
        compare([SettingSpec(key_a, key_a, "x@a"), SettingSpec(key_a, key_b, "x@a")])
    with pytest.raises(UsageError, match="SYSTEM@DATASET"):
        compare([SettingSpec(key_a, key_a, "@a")])


# ---------------------------------------------------------------------------- tests
def test_identical_systems_have_p_1(tmp_path):
    key = corpus(tmp_path / "key.conllu", 20)
    noisy = lambda d: d % 3 == 0
    a = corpus(tmp_path / "a.conllu", 20, split_dogs=noisy, split_cat=lambda d: d % 2 == 0)
    b = corpus(tmp_path / "b.conllu", 20, split_dogs=noisy, split_cat=lambda d: d % 2 == 0)
    result = compare([(key, a, "a@k"), (key, b, "b@k")], seed=3)
    assert len(result.tests) == 10
    for t in result.tests:
        assert t.p_value == 1.0 and t.difference == 0 and not t.significant
        assert t.permutations == 10_000 and not t.exact
        # no resample of a type without mentions has a score: no interval
        no_mentions = t.metric.startswith("by_type.") and t.metric != "by_type.generic"
        assert (t.ci_low, t.ci_high) == ((None, None) if no_mentions else (0.0, 0.0))


def test_a_system_dominating_every_document_has_p_near_0(tmp_path):
    """20 documents, 10,000 permutations (Monte Carlo: 2^20 assignments is more): the
    perfect system beats one that misses a link in every document, p = 1/10,001 ≈ 0; on the
    generic mentions, which both get right, p = 1. Vectorized, this takes well under a
    second."""
    key = corpus(tmp_path / "key.conllu", 20)
    worse = corpus(tmp_path / "worse.conllu", 20, split_cat=lambda d: True)
    started = time.perf_counter()
    result = compare([(key, key, "gold@k"), (key, worse, "worse@k")], seed=11)
    elapsed = time.perf_counter() - started
    tests = {t.metric: t for t in result.tests}
    for name in AGGREGATE:
        t = tests[name]
        assert t.p_value == pytest.approx(1 / 10_001) and t.significant and not t.exact
        assert t.difference > 0 and 0 < t.ci_low <= t.difference <= t.ci_high
    assert tests["by_type.generic"].p_value == 1.0
    assert elapsed < 20, elapsed  # two settings read and scored, 10 metrics × 10,000 perms


def test_few_documents_are_enumerated_exactly(tmp_path):
    """4 documents: all 16 assignments; only the identity and the full swap are as extreme,
    so p = 2/16 — never below 1/8 however many permutations are asked for."""
    key = corpus(tmp_path / "key.conllu", 4)
    worse = corpus(tmp_path / "worse.conllu", 4, split_cat=lambda d: True)
    result = compare([(key, key, "gold@k"), (key, worse, "worse@k")], metrics="bcub",
                     types="generic", seed=0, permutations=10_000, bootstrap=200)
    bcub = next(t for t in result.tests if t.metric == "bcub")
    assert (bcub.p_value, bcub.permutations, bcub.exact) == (0.125, 16, True)
    assert not bcub.significant  # α = 0.1


def test_permutation_p_values_equal_a_brute_force_count(tmp_path):
    """The vectorized test against a plain enumeration with exact fractions and the
    metrics' own Counts arithmetic, on documents that differ in more than one way."""
    key = corpus(tmp_path / "key.conllu", 8)
    a = corpus(tmp_path / "a.conllu", 8, split_dogs=lambda d: d % 3 == 0,
               split_cat=lambda d: d in (1, 2))
    b = corpus(tmp_path / "b.conllu", 8, split_dogs=lambda d: d == 1,
               split_cat=lambda d: d in (4, 5))
    result = compare([(key, a, "a@k"), (key, b, "b@k")], metrics="muc,bcub,ceafe,conll,blanc",
                     types="generic", seed=5, bootstrap=50)
    ra, rb = result.settings[0].report, result.settings[1].report
    docs_a = [d.metrics for d in ra.per_document]
    docs_b = [d.metrics for d in rb.per_document]

    def corpus_score(metrics_per_doc, name):
        if name == "conll":
            return conll({m: sum((d[m].counts for d in metrics_per_doc[1:]),
                                 metrics_per_doc[0][m].counts) for m in ("muc", "bcub", "ceafe")})
        if name == "by_type.generic":
            total = sum((d["by_type"].counts["generic"] for d in metrics_per_doc[1:]),
                        metrics_per_doc[0]["by_type"].counts["generic"])
            return total.f1
        return sum((d[name].counts for d in metrics_per_doc[1:]), metrics_per_doc[0][name].counts).f1

    checked = 0
    for t in result.tests:
        observed = abs(corpus_score(docs_a, t.metric) - corpus_score(docs_b, t.metric))
        extreme = 0
        for swap in itertools.product((False, True), repeat=8):
            pa = [y if s else x for x, y, s in zip(docs_a, docs_b, swap)]
            pb = [x if s else y for x, y, s in zip(docs_a, docs_b, swap)]
            extreme += abs(corpus_score(pa, t.metric) - corpus_score(pb, t.metric)) >= observed
        assert t.exact and t.permutations == 256
        assert t.p_value == Fraction(extreme, 256), t.metric
        assert t.difference == pytest.approx(float(corpus_score(docs_a, t.metric)
                                                   - corpus_score(docs_b, t.metric)))
        checked += t.p_value < 1
    assert checked >= 3  # the comparison is not trivial


def test_results_are_reproducible_with_a_seed(tmp_path):
    key = corpus(tmp_path / "key.conllu", 24)
    a = corpus(tmp_path / "a.conllu", 24, split_cat=lambda d: d % 2 == 0)
    b = corpus(tmp_path / "b.conllu", 24, split_dogs=lambda d: d % 3 == 0)
    settings = [(key, a, "a@k"), (key, b, "b@k")]

    def run(seed):
        data = compare(settings, seed=seed, permutations=2000, bootstrap=500).to_json()
        return data["tests"], [s["metrics"] for s in data["settings"]], data["options"]["seed"]

    first, again, other = run(7), run(7), run(8)
    assert first == again and first[2] == 7
    assert first[0] != other[0]  # p values and intervals move with the seed
    drawn = compare(settings, permutations=50, bootstrap=50).options["seed"]
    assert isinstance(drawn, int)  # a seed is always reported, so a run can be repeated
    p = next(t["p_value"] for t in first[0] if t["metric"] == "bcub")
    assert 0.001 < p < 1  # Monte Carlo, not an extreme case
    # each test's permutations depend on the seed, labels and metric only, not on what else
    # is compared in the same run
    alone = compare(settings, metrics="bcub", types="vp", seed=7, permutations=2000,
                    bootstrap=500).tests
    assert next(t.p_value for t in alone if t.metric == "bcub") == p


def test_resampled_scores_equal_the_exact_scores():
    """The vectorized metric of the summed document counts is the report's exact score: for
    the reference semantics (BLANC's reference rule) and the CorefUD one (its UA rule)."""
    from corefkit.scoring.api import score

    cases = [(DATA / "TC-A.key", DATA / "TC-A-4.response"),
             (GUM / "dep", GUM / "coref-ontogum-conllu")]
    for key, response in cases:
        # lenient: TC-A-4's words differ from the key's on purpose
        report = score(key, response, metrics="mentions,muc,bcub,ceafm,ceafe,blanc,lea,conll,"
                       "by_type", per_document=True, lenient=True)
        for name in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll",
                     "by_type.generic", "by_type.appositive"):
            stat = statistic(name, report)
            totals = np.array([stat.row(d.metrics) for d in report.per_document]).sum(axis=0)
            for value in ("f1",) if name == "conll" else ("f1", "recall", "precision"):
                if name.startswith("by_type."):
                    exact = getattr(report.metrics["by_type"].counts[name[8:]], value)
                    if exact is None:  # TC-A has no POS: generic cannot be decided
                        assert key.name == "TC-A.key" and name == "by_type.generic"
                        continue
                else:
                    exact = getattr(report.metrics[name], value)
                assert float(stat.value(totals, value)) == pytest.approx(float(exact), abs=1e-12)


def test_metrics_that_cannot_be_resampled_are_refused():
    with pytest.raises(UsageError, match="cannot resample the metric dominant"):
        compare([(DATA / "TC-A.key", DATA / "TC-A-4.response", "x@a")], metrics="dominant",
                score_options={"lenient": True})


def test_permutation_test_helper_on_matrices():
    """Directly on count matrices: swapping a constant improvement gives p = 1/(N+1)."""
    from corefkit.scoring.api import score

    stat = statistic("bcub", score(DATA / "TC-A.key", DATA / "TC-A.key", metrics="bcub"))
    a = np.tile([4.0, 4.0, 4.0, 4.0], (30, 1))
    b = np.tile([3.0, 4.0, 4.0, 4.0], (30, 1))
    rng = np.random.default_rng(0)
    p, total, exact = permutation_test(a, b, stat, "f1", 999, rng)
    assert (p, total, exact) == (pytest.approx(1 / 1000), 999, False)


# ---------------------------------------------------------------------------- command line
def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def two_datasets(tmp_path):
    key_in = corpus(tmp_path / "in.conllu", 6)
    key_out = corpus(tmp_path / "out.conllu", 6)
    return [
        "--key", key_in, "--response", corpus(tmp_path / "a-in.conllu", 6, split_cat=lambda d: d < 3),
        "--label", "a@in",
        "--key", key_in, "--response", key_in, "--label", "b@in",
        "--key", key_out, "--response", corpus(tmp_path / "a-out.conllu", 6,
                                               split_dogs=lambda d: True), "--label", "a@out",
    ]


def test_cli_compare_outputs(capsys, two_datasets, tmp_path):
    common = [*two_datasets, "--in-domain", "in", "--seed", "2", "--permutations", "500",
              "--bootstrap", "200"]
    code, out, err = run(capsys, "compare", *common, "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert set(data) >= {"settings", "gaps", "tests", "options", "warnings"}
    assert [s["label"] for s in data["settings"]] == ["a@in", "b@in", "a@out"]
    assert set(data["settings"][0]["metrics"]) == set(AGGREGATE)
    assert set(data["settings"][0]["by_type"]["generic"]) >= {
        "recall", "precision", "f1", "key_mentions", "response_mentions", "ci_low", "ci_high"}
    test = data["tests"][0]
    assert set(test) >= {"a", "b", "metric", "difference", "p_value", "permutations", "ci_low",
                         "ci_high"}
    assert (test["a"], test["b"], test["permutations"]) == ("a@in", "b@in", 64)  # 2^6: exact
    assert {(g["kind"], g["in_domain"], g["out_of_domain"]) for g in data["gaps"]} == {
        ("AGG", "a@in", "a@out"), ("TGG", "a@in", "a@out")}
    tgg = next(g for g in data["gaps"] if g["metric"] == "by_type.generic")
    assert tgg["gap"] == pytest.approx(1 / 3)
    code, out, _ = run(capsys, "compare", *common)
    assert code == 0 and "generalization gaps" in out and "TGG  a " in out
    assert "paired permutation tests" in out and "by_type.generic" in out
    code, out, _ = run(capsys, "compare", *common, "-f", "csv")
    lines = out.splitlines()
    assert lines[0].startswith("section,label,other,metric,score")
    sections = {line.split(",")[0] for line in lines[1:]}
    assert sections == {"score", "AGG", "TGG", "test"}


def test_cli_compare_default_labels(capsys, tmp_path):
    key = corpus(tmp_path / "gold.conllu", 3)
    system = corpus(tmp_path / "sys.conllu", 3, split_cat=lambda d: d == 0)
    code, out, err = run(capsys, "compare", "--key", key, "--response", key, "--key", key,
                         "--response", system, "--permutations", "10", "--bootstrap", "10",
                         "--by-type", "generic", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [(s["label"], s["system"], s["dataset"]) for s in data["settings"]] == [
        ("gold@gold", "gold", "gold"), ("sys@gold", "sys", "gold")]
    assert {t["metric"] for t in data["tests"]} == {*AGGREGATE, "by_type.generic"}


def test_cli_compare_plot(capsys, two_datasets, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "types.png"
    code, _, err = run(capsys, "compare", *two_datasets, "--permutations", "10", "--bootstrap",
                       "10", "--plot", target, "-q")
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_compare_plot_without_matplotlib(capsys, two_datasets, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    code, out, err = run(capsys, "compare", *two_datasets, "--permutations", "10",
                         "--bootstrap", "10", "--plot", tmp_path / "x.png")
    assert code == 2 and out == ""
    assert "pip install 'corefkit[plot]'" in err and "Traceback" not in err


@pytest.mark.parametrize("args, message", [
    (["--key", "k", "--response", "r", "--key", "k2"], "one --key, one --response"),
    ([], "give at least one setting"),
    (["--permutations", "0"], "at least 1"),
    (["--alpha", "1.5"], "--alpha"),
    (["--in-domain", "nowhere"], "--in-domain 'nowhere' is not a dataset"),
    (["--by-type", "generics"], "unknown mention type 'generics'"),
])
def test_cli_compare_usage_errors(capsys, tmp_path, args, message):
    key = corpus(tmp_path / "k.conllu", 2)
    setting = [] if args and args[0] == "--key" else ["--key", key, "--response", key,
                                                      "--label", "s@k"]
    if not args:
        setting = []
    code, out, err = run(capsys, "compare", *setting, *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_replicates_one_rounding_step_from_the_estimate_are_the_estimate():
    """The bootstrap sums floats in another order than the exact score: a replicate that is
    the observed corpus lands within a rounding step of it and must count as it, so that an
    interval never misses its own estimate by float noise (numpy 2.2 and 2.4 alike)."""
    from corefkit.evaluation.significance import percentile_interval

    observed = 1 / 3 + 1e-16
    noisy = np.array([np.nextafter(observed, 0), observed, np.nextafter(observed, 1)] * 5)
    assert percentile_interval(noisy, 0.1, observed) == (observed, observed)
    spread = np.array([0.1, 0.2, 0.3, np.nan])
    low, high = percentile_interval(spread, 0.5, 0.2)
    assert low < 0.2 < high
