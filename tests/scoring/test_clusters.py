"""The in-memory API (``corefkit.score_clusters``, ``corefkit.Scorer``): the numbers of
``corefkit score`` on real documents and on the reference scorer's test cases, the coval key
names, batching, shapes and bad input."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import corefkit
from corefkit.errors import UsageError
from corefkit.model import IDENTITY, Document
from corefkit.scoring import clusters as clusters_module
from corefkit.scoring import partition
from corefkit.scoring.metrics import standard
from corefkit.scoring.report import ScoreReport
from tests.conftest import CONFORMANCE, CORPORA, ROOT

GUM = CORPORA / "gum" / "coref-ontogum-conll"
DATAFILES = CONFORMANCE / "data" / "reference-coreference-scorers" / "DataFiles"
ALL = ["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"]


def as_clusters(doc: Document) -> list[list[tuple[int, int]]]:
    """A document's identity chains as (start, end) clusters, in entity order."""
    out = []
    for entity in doc.entities_in(IDENTITY):
        cluster = []
        for m in doc.mentions_of(entity):
            assert m.tokens == tuple(range(m.start, m.end + 1)), "contiguous mentions only"
            cluster.append((m.start, m.end))
        out.append(cluster)
    return out


def assert_same(report: ScoreReport, expected: ScoreReport) -> None:
    """Every metric equal as exact fractions (and the counts behind them)."""
    assert list(report.metrics) == list(expected.metrics)
    for name, result in expected.metrics.items():
        mine = report.metrics[name]
        assert (mine.recall, mine.precision, mine.f1) == (result.recall, result.precision,
                                                          result.f1), name
        assert mine.counts == result.counts, name
    assert report.identification == expected.identification
    assert report.documents == expected.documents
    assert report.repeated_response_mentions == expected.repeated_response_mentions
    assert report.repeated_key_mentions == expected.repeated_key_mentions


def perturb(doc: Document, rng: random.Random) -> Document:
    """A system response: mentions dropped, shifted, split off, merged and invented; now and
    then a key extent in a second entity, or an invented extent in two (repeated mentions)."""
    out = Document(doc.id, doc.part)
    out.tokens = doc.tokens
    out.sentences = doc.sentences
    entities = doc.entities_in(IDENTITY)
    target = {e: out.new_entity() for e in entities}
    n = len(doc.tokens)
    for e in entities:
        for m in doc.mentions_of(e):
            roll = rng.random()
            if roll < 0.10:
                continue
            start, end = m.start, m.end
            if roll < 0.15:
                end = min(n - 1, end + 1)
            chosen = target[e]
            if roll > 0.95:
                chosen = out.new_entity()
            elif roll > 0.90:
                chosen = target[rng.choice(entities)]
            out.add_mention(range(start, end + 1), chosen)
            if roll > 0.99:  # the same extent again, in another entity
                out.add_mention(range(start, end + 1), target[rng.choice(entities)])
    for _ in range(len(doc.mentions) // 12):
        start = rng.randrange(n)
        end = min(n - 1, start + rng.randrange(3))
        entity = target[rng.choice(entities)] if rng.random() < 0.5 else out.new_entity()
        out.add_mention(range(start, end + 1), entity)
        if rng.random() < 0.05:
            out.add_mention(range(start, end + 1), target[rng.choice(entities)])
    for e in list(out.entities):
        if out.size(e) == 0:
            out.remove_entity(e)
    return out


@pytest.fixture(scope="module")
def gum():
    """GUM's 46 OntoGUM documents, a perturbed response for each, both as clusters, and
    the report of ``corefkit.score`` (per document too)."""
    keys = list(corefkit.read(GUM))
    rng = random.Random(15)
    responses = [perturb(doc, rng) for doc in keys]
    report = corefkit.score(GUM, responses, "all", per_document=True)
    return ([as_clusters(d) for d in keys], [as_clusters(d) for d in responses], report)


# ---------------------------------------------------------------------------- equal numbers
def test_gum_equals_corefkit_score(gum):
    key, response, expected = gum
    assert len(key) == 46 and expected.documents == 46
    assert expected.repeated_response_mentions > 0  # the repeated-mention rules are exercised
    assert_same(corefkit.score_clusters(key, response, "all"), expected)


def test_gum_per_document(gum):
    key, response, expected = gum
    assert expected.per_document is not None
    for k, r, document in zip(key, response, expected.per_document):
        report = corefkit.score_clusters(k, r, "all", documents=False)
        for name, result in document.metrics.items():
            assert report.metrics[name].counts == result.counts, (document.name, name)
            assert report.metrics[name].f1 == result.f1, (document.name, name)


def _datafile_pairs():
    for key in sorted(DATAFILES.glob("*.key")):
        for response in sorted(DATAFILES.glob(f"{key.stem}-*.response")):
            yield pytest.param(key, response, id=response.stem)


@pytest.mark.parametrize(("key", "response"), list(_datafile_pairs()))
def test_reference_test_cases(key, response):
    """TC-A-1 … TC-N-6 (with the repeated mentions of TC-A-8/9 and the singletons of TC-M
    and TC-N): corefkit.score on the files and score_clusters on their chains agree."""
    expected = corefkit.score(key, response, "all", format="conll2012", lenient=True)
    sides = [[as_clusters(d) for d in corefkit.read(path, format="conll2012")]
             for path in (key, response)]
    assert_same(corefkit.score_clusters(*sides, "all", documents=True), expected)


def test_the_test_cases_cover_repeats_and_singletons():
    assert len(list(_datafile_pairs())) == 36
    for case in ("TC-A-8", "TC-A-9"):  # a key extent in two response entities
        sides = [[as_clusters(d) for d in corefkit.read(path)]
                 for path in (DATAFILES / "TC-A.key", DATAFILES / f"{case}.response")]
        report = corefkit.score_clusters(*sides, documents=True)
        assert report.repeated_response_mentions == 1, case
    singletons = as_clusters(next(corefkit.read(DATAFILES / "TC-N.key")))
    assert [len(c) for c in singletons] == [1] * 6


def test_remove_singletons_equals_corefkit_score(gum):
    key, response, _ = gum
    expected = corefkit.score(GUM, [_document(f"{d.id}", d.part, r, d)
                                    for d, r in zip(corefkit.read(GUM), response)],
                              "all", remove_singletons=True)
    assert_same(corefkit.score_clusters(key, response, "all", remove_singletons=True), expected)
    assert corefkit.score_clusters(key, response).options["remove_singletons"] is False


def _document(name: str, part: str | None, clusters: list[list[tuple[int, int]]],
              like: Document | int) -> Document:
    """A document with ``clusters`` over the tokens of ``like`` (or that many new ones)."""
    doc = Document(name, part)
    if isinstance(like, int):
        doc.add_sentence([f"w{i}" for i in range(like)])
    else:
        doc.tokens = like.tokens
        doc.sentences = like.sentences
    for cluster in clusters:
        entity = doc.new_entity()
        for start, end in cluster:
            doc.add_mention(range(start, end + 1), entity)
    return doc


# ---------------------------------------------------------------------------- coval keys
KEY = [[(0, 0), (2, 3), (5, 5)], [(7, 8), (10, 10)], [(12, 13)]]
RESPONSE = [[(0, 0), (2, 3), (17, 17)], [(5, 5), (7, 8), (10, 10)], [(15, 15)], [(19, 20)]]
# by hand: 6 key mentions in entities {a b c} {d e} {f}; 8 response mentions in {a b h}
# {c d e} {g} {i}; 5 in common
COVAL = {
    "mentions/recall": Fraction(5, 6), "mentions/precision": Fraction(5, 8),
    "mentions/f1": Fraction(5, 7),
    "muc/recall": Fraction(2, 3), "muc/precision": Fraction(1, 2), "muc/f1": Fraction(4, 7),
    "bcub/recall": Fraction(11, 18), "bcub/precision": Fraction(3, 8),
    "bcub/f1": Fraction(33, 71),
    "ceafe/recall": Fraction(22, 45), "ceafe/precision": Fraction(11, 30),
    "ceafe/f1": Fraction(44, 105),
    "lea/recall": Fraction(1, 2), "lea/precision": Fraction(1, 4), "lea/f1": Fraction(1, 3),
    "conll_score": (Fraction(4, 7) + Fraction(33, 71) + Fraction(44, 105)) / 3 * 100,
}


def test_coval_keys_and_scale():
    report = corefkit.score_clusters(KEY, RESPONSE)
    got = report.as_dict(coval=True)
    assert list(got) == list(COVAL)  # coval's names, in coval's order
    assert got == {k: float(v) for k, v in COVAL.items()}
    assert all(isinstance(v, float) for v in got.values())
    assert 0 <= got["muc/f1"] <= 1 and got["conll_score"] == pytest.approx(48.5088, abs=1e-4)
    assert report.as_dict(coval=True, exact=True) == COVAL


def test_as_dict_adds_the_other_metrics():
    report = corefkit.score_clusters(KEY, RESPONSE)
    flat = report.as_dict(exact=True)
    assert list(flat)[:15] == list(COVAL)[:15] and list(flat)[-1] == "conll_score"
    assert flat["ceafm/recall"] == Fraction(4, 6) and flat["ceafm/precision"] == Fraction(4, 8)
    assert flat["blanc/f1"] == report.metrics["blanc"].f1
    assert flat["conll_score"] == report.metrics["conll"].f1 * 100
    only = corefkit.score_clusters(KEY, RESPONSE, "muc").as_dict()
    assert set(only) == {"mentions/recall", "mentions/precision", "mentions/f1", "muc/recall",
                         "muc/precision", "muc/f1"}  # no CoNLL score without its parts


# ---------------------------------------------------------------------------- batching
def test_one_call_equals_updates_equals_files(gum, monkeypatch):
    key, response, expected = gum
    scorer = corefkit.Scorer("all")
    for k, r in zip(key, response):
        scorer.update(key=k, response=r)
    assert scorer.documents == 46
    one_by_one = scorer.compute()
    assert_same(one_by_one, expected)
    assert_same(corefkit.score_clusters(key, response, "all"), one_by_one)
    # batches scored as they fill up, a compute() in the middle: the same totals
    monkeypatch.setattr(clusters_module, "FLUSH_MENTIONS", 700)
    scorer = corefkit.Scorer("all")
    for n, (k, r) in enumerate(zip(key, response)):
        scorer.update(k, r)
        if n == 20:
            scorer.compute()
    assert_same(scorer.compute(), expected)


def test_reset_and_empty():
    scorer = corefkit.Scorer()
    scorer.update(KEY, RESPONSE)
    scorer.reset()
    report = scorer.compute()
    assert report.documents == 0 and report.metrics["conll"].f1 == 0
    scorer.update(KEY, KEY)
    assert scorer.compute().metrics["lea"].f1 == 1 and scorer.documents == 1


def test_repeated_response_extents_take_the_document_route():
    # (9, 9) is an extent the key lacks, in two response entities: counted per document
    key = [[(0, 0), (2, 2)], [(4, 4)]]
    response = [[(0, 0), (9, 9)], [(2, 2), (9, 9), (4, 4)], [(0, 0)]]
    docs = [_document("d", None, c, 12) for c in (key, response)]
    expected = corefkit.score([docs[0]], [docs[1]], "all")
    report = corefkit.score_clusters([key, key], [response, key], "all")
    assert report.documents == 2 and report.repeated_response_mentions == 1
    alone = corefkit.score_clusters(key, response, "all")
    assert_same(alone, expected)
    assert any("repeated" in str(w) for w in alone.warnings)


def test_vectorized_paths_equal_the_python_ones(monkeypatch):
    """Large tables (a union of documents, a long document) take NumPy paths for CEAF's
    components and the grouped sums; they must give what the per-pair Python code gives,
    tangled components (solved by assignment) included."""
    rng = random.Random(3)
    key, response = [], []
    for _ in range(60):
        mentions = rng.sample(range(400), 120)  # word indices, distinct
        k: list[list[int]] = []
        while mentions:
            size = rng.randint(1, 12)
            k.append(mentions[:size])
            del mentions[:size]
        r = [[m for m in c if rng.random() < 0.9] for c in k]
        for _ in range(8):  # tangle: swap mentions between entities
            a, b = rng.randrange(len(r)), rng.randrange(len(r))
            if r[a] and r[b]:
                r[a][0], r[b][-1] = r[b][-1], r[a][0]
        key.append([c for c in k if c])
        response.append([c for c in r if c])
    def thresholds(value: int) -> None:
        monkeypatch.setattr(partition, "VECTOR_MIN", value)
        monkeypatch.setattr(standard, "VECTOR_MIN", value)
        monkeypatch.setattr(partition, "VECTOR_MENTIONS", value)

    thresholds(8)
    fast = corefkit.score_clusters(key, response, "all", documents=True)
    one_fast = corefkit.score_clusters([m for d in key for m in d],
                                       [m for d in response for m in d])
    thresholds(10**9)
    assert_same(fast, corefkit.score_clusters(key, response, "all", documents=True))
    assert_same(one_fast, corefkit.score_clusters([m for d in key for m in d],
                                                  [m for d in response for m in d]))


@pytest.mark.parametrize("top", [6, 10**6, 10**12])
def test_grouped_sums_are_exact(top):
    """Σ n/d grouped by denominators, for small, large and huge denominators."""
    rng = np.random.default_rng(top)
    nums = rng.integers(0, 50, 3000).tolist()
    dens = rng.integers(1, top, 3000).tolist()
    expected = sum((Fraction(int(n), int(d)) for n, d in zip(nums, dens)), Fraction(0))
    assert standard._grouped_sum(nums, dens) == expected
    assert standard._grouped_sum(nums[:100], dens[:100]) == sum(
        (Fraction(int(n), int(d)) for n, d in zip(nums[:100], dens[:100])), Fraction(0))


# ---------------------------------------------------------------------------- shapes
@pytest.mark.parametrize(("key", "response", "documents"), [
    ([[(0, 1), (3, 3)]], [[(0, 1)], [(3, 3)]], 1),                     # (start, end) tuples
    ([[[(0, 1), (3, 3)]]], [[[(0, 1)], [(3, 3)]]], 1),                 # a list of one document
    ([[[(0, 1), (3, 3)]], [[(5, 5)]]], [[[(0, 1)]], []], 2),           # two documents
    ([((0, 1), (3, 3))], [((0, 1),), ((3, 3),)], 1),                   # e2e-coref tuple clusters
    ([[((0, 1), (3, 3))], []], [[((0, 1),), ((3, 3),)], []], 2),       # ... in documents
    ([[0, 3]], [[0], [3]], 1),                                         # word indices
    ([[[0, 3]], [[7]]], [[[0], [3]], [[7]]], 2),                       # ... in documents
    ([["Ann", "she"]], [["Ann"], ["she"]], 1),                         # any hashable
    ([], [], 1),
])
def test_shapes(key, response, documents):
    assert corefkit.score_clusters(key, response).documents == documents


def test_explicit_shape():
    # one document whose mentions are tuples of spans (discontinuous): documents=False
    key = [[((0, 1), (4, 5)), (7, 7)]]
    response = [[((0, 1), (4, 5))], [(7, 7)]]
    report = corefkit.score_clusters(key, response, documents=False)
    assert report.documents == 1 and report.metrics["mentions"].f1 == 1
    assert report.metrics["muc"].recall == 0  # the two are apart in the response
    # tuple clusters of word indices in a list of documents: documents=True
    report = corefkit.score_clusters([[(0, 3)], [(5, 6)]], [[(0, 3)], [(5,), (6,)]],
                                     documents=True)
    assert report.documents == 2


# ---------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(("key", "response", "documents", "message"), [
    ([[[0, 1], (3, 3)]], [[(0, 1)]], False,
     r"key cluster 0, mention 0: \[0, 1\] is not hashable \(a list: give mentions as tuples"),
    ([[(0, 1)]], [[(0, 1), {"start": 3}]], False,
     r"response cluster 0, mention 1: .* is not hashable"),
    ([[(0, 1)], {(3, 3)}], [[(0, 1)]], False, r"key cluster 1 is a set .*not a list of mentions"),
    ([[(0, 1)]], [[(0, 1)], 7], False, r"response cluster 1 is an int \(7\)"),
    ([[(0, 1)]], [[(0, 1)], "abc"], False, r"response cluster 1 is a str \('abc'\)"),
    (None, [[(0, 1)]], False, r"the key must be a list of clusters, not None"),
    ([[(np.int64(0), np.int64(1))]], [[np.array([0, 1])]], False,
     r"ndarray values; mentions are compared by value"),
    ([[[(0, 1)]], [[(2, 2)]]], [[[(0, 1)]]], True, r"2 key documents but 1 response"),
    ([[[(0, 1)]]], [[(0, 1)]], None,
     r"key looks like a list of documents but the response like one document"),
])
def test_bad_input(key, response, documents, message):
    with pytest.raises(UsageError, match=message):
        corefkit.score_clusters(key, response, documents=documents)


def test_metrics_that_read_documents_are_refused():
    with pytest.raises(UsageError, match="lmuc cannot be scored from clusters"):
        corefkit.Scorer("lmuc")
    with pytest.raises(UsageError, match="unknown metric"):
        corefkit.score_clusters(KEY, RESPONSE, "nope")


def test_numpy_integers_match_python_ones():
    key = [[(np.int64(0), np.int64(1)), (np.int64(3), np.int64(3))]]
    assert corefkit.score_clusters(key, [[(0, 1), (3, 3)]]).metrics["muc"].f1 == 1


# ---------------------------------------------------------------------------- docs
def test_example_runs():
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "training_loop.py")],
                            capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "conll_score" in result.stdout and "muc/f1" in result.stdout


def test_readme_block_runs(capsys):
    readme = (ROOT / "docs" / "guides" / "score-a-system.md").read_text()
    section = readme.split("## Inside a training loop", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 1 and 6 <= len(blocks[0].strip().splitlines()) <= 10
    exec(compile(blocks[0], "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert re.search(r"\d+/\d+", out) and "conll_score" not in out


def test_public_names():
    assert corefkit.Scorer is clusters_module.Scorer
    assert "score_clusters" in corefkit.__all__ and "Scorer" in corefkit.__all__
