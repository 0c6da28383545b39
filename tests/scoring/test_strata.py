"""Long-range strata (:mod:`corefkit.scoring.metrics.strata`): the buckets of every dimension
add up exactly — numerators and denominators, recall and precision — to each metric's counts,
document by document and over the corpus, on real documents with perturbed responses (GUM
with its repeated-mention-free pairs; zero anaphora, where the CorefUD scorer keeps repeated
antecedent spans and the ``repeats`` bucket takes what the partition units cannot place). The
zero keys carry UD level-2 enhanced-graph errors and are read leniently, as the peer reads them."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import corefkit
from corefkit.cli.main import cli, main
from corefkit.errors import UsageError
from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.metrics.strata import METRICS, REPEATS, parse_buckets, strata_request
from tests.conftest import CONFORMANCE, CORPORA

REAL = CONFORMANCE / "real"
PAIRS = {
    "la-heavy-crac24": (CORPORA / "corefud-zeros/la_proiel_peraeth/la_proiel_peraeth.conllu",
                        REAL / "data/corefud-zeros/la_proiel_peraeth/response-heavy.conllu",
                        "crac24"),
    "hu-mild-crac23": (CORPORA / "corefud-zeros/hu_korkor_pilot/hu_korkor_pilot.conllu",
                       REAL / "data/corefud-zeros/hu_korkor_pilot/response-mild.conllu",
                       "crac23"),
}


def _total(strata, dimension, metric):
    total = Counts()
    for bucket in strata.buckets(dimension):
        total = total + strata.counts(dimension, bucket, metric)
    return total


def _same(a: Counts, b: Counts) -> bool:
    return (a.recall_num, a.recall_den, a.precision_num, a.precision_den) == \
        (b.recall_num, b.recall_den, b.precision_num, b.precision_den)


@pytest.mark.parametrize("pair", sorted(PAIRS))
def test_buckets_add_up_exactly_per_document_and_corpus(pair):
    key, response, profile = PAIRS[pair]
    metrics, options = strata_request(",".join(METRICS), "entity-size,distance")
    report = corefkit.score(key, response, metrics, profile=profile, metric_options=options,
                            per_document=True, jobs=1, lenient=True)
    checked = 0
    for results in [report.metrics, *(d.metrics for d in report.per_document)]:
        strata = results["strata"].counts
        assert [d for d, _ in strata.order] == ["entity-size", "sentences", "words"]
        for dimension, _ in strata.order:
            for metric in METRICS:
                assert _same(_total(strata, dimension, metric), results[metric].counts), \
                    (dimension, metric)
                checked += 1
    assert checked == 15 * (1 + report.documents)
    # the buckets exclude nothing: every scored key and response mention is in one
    b3 = report.metrics["bcub"].counts
    size = report.metrics["strata"].counts
    assert sum(size.counts("entity-size", b, "bcub").recall_den
               for b in size.buckets("entity-size") if b != REPEATS) == b3.recall_den


def test_first_mentions_carry_no_muc_or_lea_links():
    key, response, profile = PAIRS["hu-mild-crac23"]
    metrics, options = strata_request("muc,lea,bcub", "distance")
    strata = corefkit.score(key, response, metrics, profile=profile, metric_options=options,
                            jobs=1, lenient=True).metrics["strata"].counts
    for metric in ("muc", "lea"):
        first = strata.counts("sentences", "first", metric)
        assert first.recall_den == 0 and first.recall_num == 0


def test_bucket_specifications():
    assert [b.label for b in parse_buckets("1,2,3-5,6-", "entity-size")] == ["1", "2", "3-5", "6-"]
    assert [b.label for b in parse_buckets("1,2-4", "entity-size")][-1] == "5-"  # closed above
    for bad in ("1,3-5", "2-1", "x", "1,1-3"):
        with pytest.raises(UsageError):
            parse_buckets(bad, "entity-size")
    with pytest.raises(UsageError):
        strata_request("muc", "size")
    with pytest.raises(UsageError):
        strata_request("muc", "distance", {"tokens": "0-"})


def test_score_by_on_the_command_line(capsys):
    key, response, _ = PAIRS["hu-mild-crac23"]
    result = CliRunner().invoke(cli, ["score", str(key), str(response), "--profile", "crac23",
                                      "--by", "entity-size", "--buckets",
                                      "entity-size=1,2,3-5,6-", "-f", "json", "-q", "-j", "1",
                                      "--lenient"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rows = data["metrics"]["strata"]["entity-size"]
    assert [r["bucket"] for r in rows][:4] == ["1", "2", "3-5", "6-"]
    assert sum(r["key_mentions"] for r in rows) == data["metrics"]["bcub"]["recall_den"]
    table = CliRunner().invoke(cli, ["score", str(key), str(response), "--profile", "crac23",
                                     "--by", "distance", "-q", "-j", "1", "--lenient"])
    assert table.exit_code == 0 and "distance to the previous mention (sentences)" in table.output
    assert main(["score", str(key), str(response), "--by", "length"]) == 2
    assert "unknown stratum" in capsys.readouterr().err
