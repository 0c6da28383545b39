"""Inter-annotator agreement (``corefkit.agree``): the coefficients as exact fractions (by hand,
against a brute-force definition, and against NLTK), annotations whose tokens differ (by
characters or through corefkit.alignment, never by position), the real data (LCC's gold and
annotator layers, GerDraCor-Coref's three annotators) and the adjudication draft."""

from __future__ import annotations

import gzip
import itertools
from collections import Counter
import math
import random
import shutil
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import corefkit
from corefkit.evaluation.agreement.coefficients import (
    MASI_WEIGHTS,
    NLTK_MASI_WEIGHTS,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
    masi_distance,
)
from corefkit.evaluation.agreement.units import chain_values, masi_alpha, masi_units
from corefkit.errors import UsageError
from corefkit.model import Document, Token
from tests.conftest import CORPORA, ROOT

LCC = CORPORA / "lcc"
LCC_LAYERS = ["manualCoreferences@1", "manualCoreferences@2"]
GERDRACOR = CORPORA / "inception/gerdracor-coref-parallel"
CAS_TYPES = (f"{CORPORA / 'inception/tsv3-suite/webanno-full-typesystem.xml'},"
             f"{GERDRACOR / 'corefannotator-types-v1.xml'}")
EXAMPLE = ROOT / "examples/conll2012"

nltk_agreement = pytest.importorskip("nltk.metrics.agreement")
nltk_distance = pytest.importorskip("nltk.metrics.distance")
# NLTK rounded MASI's weights to 0.67 and 0.33 before 3.10 and uses the paper's 2/3 and 1/3
# since: the comparisons with NLTK use the weights the installed NLTK uses, read off its own
# distance (so that no test depends on NLTK's version)
NLTK_WEIGHTS = NLTK_MASI_WEIGHTS if nltk_distance.masi_distance({1, 2}, {1, 2, 3, 4}) == 0.665 \
    else MASI_WEIGHTS


# ------------------------------------------------------------------ the coefficients
def brute_alpha(units: Sequence[Sequence[Any]], weights: tuple[Fraction, ...]) -> Fraction:
    """Krippendorff's α by its definition (Krippendorff 2004, §11.3), every pair of values
    visited (equal values counted together): α = 1 − D_o / D_e over the pairable values."""
    pairable = [u for u in units if len(u) >= 2]
    counts = Counter(v for u in pairable for v in u)
    n = sum(counts.values())
    d = lambda a, b: masi_distance(a, b, weights)  # noqa: E731
    observed = sum((Fraction(sum(d(a, b) for a, b in itertools.permutations(u, 2)), len(u) - 1)
                    for u in pairable), Fraction(0)) / n
    expected = Fraction(sum(counts[a] * counts[b] * d(a, b)
                            for a, b in itertools.product(counts, repeat=2)), n * (n - 1))
    return 1 - observed / expected


def nltk_alpha(units: Sequence[Sequence[frozenset[Any]]]) -> float:
    data = [(f"c{c}", f"u{u}", value) for u, values in enumerate(units)
            for c, value in enumerate(values)]
    task = nltk_agreement.AnnotationTask(data=data, distance=nltk_distance.masi_distance)
    return float(task.alpha())


X, Y, Z = frozenset({1, 2}), frozenset({1}), frozenset({3})
SMALL = [[X, X], [X, Y], [Z, Z]]


def test_masi_distance_is_passonneaus():
    assert masi_distance(X, X) == 0
    assert masi_distance(X, Y) == 1 - Fraction(1, 2) * Fraction(2, 3)     # subset: M = 2/3
    assert masi_distance(frozenset({1, 2}), frozenset({2, 3})) == 1 - Fraction(1, 3) * Fraction(1, 3)
    assert masi_distance(X, Z) == 1
    assert masi_distance(X, frozenset({1, 2, 3, 4}), NLTK_MASI_WEIGHTS) == Fraction(133, 200)
    assert math.isclose(float(masi_distance(X, frozenset({1, 2, 3, 4}), NLTK_WEIGHTS)),
                        nltk_distance.masi_distance(set(X), {1, 2, 3, 4}), rel_tol=1e-12)


def test_masi_alpha_by_hand():
    """n = 6 values (X three times, Y once, Z twice); observed Σ = 2·δ(X,Y) = 4/3, expected
    Σ_{c≠k} δ = 2·(3·1·2/3 + 3·2 + 1·2) = 20; α = 1 − 5 · (4/3) / 20 = 2/3."""
    alpha = krippendorff_alpha(SMALL, sets=True)
    assert (alpha.observed, alpha.expected, alpha.values, alpha.units) == \
        (Fraction(4, 3), Fraction(20), 6, 3)
    assert alpha.value == Fraction(2, 3)
    assert brute_alpha(SMALL, MASI_WEIGHTS) == Fraction(2, 3)


def random_units(seed: int) -> list[list[frozenset[int]]]:
    rng = random.Random(seed)
    units = []
    for _ in range(rng.randint(3, 40)):
        coders = rng.randint(1, 4)   # units with one value are not pairable: skipped by both
        units.append([frozenset(rng.sample(range(8), rng.randint(1, 4))) for _ in range(coders)])
    return units


@pytest.mark.parametrize("seed", range(40))
def test_masi_alpha_is_the_definition_exactly_and_nltks_value(seed: int):
    """Exact: the α the shortcut of the expected disagreement gives is the brute-force α of
    the definition, as fractions, with either weights. Against NLTK (floats, its rounded
    weights): the exact fraction converted to a float once is NLTK's value."""
    units = random_units(seed)
    for weights in (MASI_WEIGHTS, NLTK_MASI_WEIGHTS):
        alpha = krippendorff_alpha(units, sets=True, weights=weights)
        if alpha.value is None:  # no variation: NLTK says 1, corefkit says undefined
            assert len({v for u in units if len(u) > 1 for v in u}) == 1
            continue
        assert alpha.value == brute_alpha(units, weights)
    ours = krippendorff_alpha(units, sets=True, weights=NLTK_WEIGHTS).value
    if ours is not None:
        assert math.isclose(float(ours), nltk_alpha(units), rel_tol=1e-12, abs_tol=1e-12)


def test_masi_alpha_nltk_on_the_small_example():
    rounded = krippendorff_alpha(SMALL, sets=True, weights=NLTK_MASI_WEIGHTS).value
    # δ(X, Y) = 0.665 = 133/200: observed 2 · 133/200, expected 2 · (3 · 133/200 + 6 + 2)
    assert rounded == 1 - 5 * Fraction(133, 100) / (2 * (3 * Fraction(133, 200) + 8))
    ours = krippendorff_alpha(SMALL, sets=True, weights=NLTK_WEIGHTS).value
    assert ours is not None and math.isclose(float(ours), nltk_alpha(SMALL), rel_tol=1e-12)


def test_cohen_and_fleiss_kappa_by_hand_and_against_nltk():
    first = [1, 1, 0, 0, 1, 0, 1, 1, 1, 0]
    second = [1, 0, 0, 0, 1, 0, 1, 1, 0, 0]
    # A_o = 8/10; A_e = (6·4 + 4·6) / 100 = 12/25; κ = (4/5 − 12/25) / (13/25) = 8/13
    assert cohen_kappa(first, second) == Fraction(8, 13)
    data = [(c, n, v) for c, coder in (("a", first), ("b", second)) for n, v in enumerate(coder)]
    task = nltk_agreement.AnnotationTask(data=data)
    assert math.isclose(float(Fraction(8, 13)), task.kappa(), rel_tol=1e-12)
    three = [1, 1, 0, 1, 1, 0, 1, 0, 1, 0]
    units = list(zip(first, second, three))
    # P̄ = mean share of agreeing coder pairs; P̄_e = Σ p_v² (Fleiss 1971): multi-π
    agreeing = sum(sum(n * (n - 1) for n in (u.count(0), u.count(1))) for u in units)
    p_bar = Fraction(agreeing, 10 * 3 * 2)
    ones = Fraction(sum(first + second + three), 30)
    p_e = ones ** 2 + (1 - ones) ** 2
    assert fleiss_kappa(units) == (p_bar - p_e) / (1 - p_e)
    data += [("c", n, v) for n, v in enumerate(three)]
    pi = nltk_agreement.AnnotationTask(data=data).pi()
    assert math.isclose(float(fleiss_kappa(units)), pi, rel_tol=1e-12)
    assert cohen_kappa([1, 1], [1, 1]) is None and fleiss_kappa([]) is None


# ------------------------------------------------------------------ the API on small data
def test_the_examples_agree_with_the_scorer():
    report = corefkit.agree([EXAMPLE / "key.conll", EXAMPLE / "response.conll"],
                            labels=["ann", "bob"])
    pair = report.pair("ann", "bob")
    scored = corefkit.score(EXAMPLE / "key.conll", EXAMPLE / "response.conll")
    for metric in ("muc", "bcub", "ceafe", "blanc", "lea", "conll"):
        assert pair.chains[metric].f1 == scored.metrics[metric].f1, metric
        assert pair.chains[metric].forward == pair.chains[metric].backward  # F1 is symmetric
    assert pair.mentions["exact"].f1 == scored.metrics["mentions"].f1 == Fraction(30, 31)
    assert report.disagreement_counts()["ann–bob"] == {"mention": 1, "boundary": 0,
                                                       "split": 3, "merge": 2}


def doc(name: str, sentences: list[list[str]], chains: list[list[tuple[int, int]]]) -> Document:
    d = Document(name)
    for words in sentences:
        d.add_sentence([Token(w, id=str(n + 1)) for n, w in enumerate(words)])
    for chain in chains:
        entity = d.new_entity()
        for a, b in chain:
            d.add_span(a, b, entity)
    return d


def test_other_tokens_of_the_same_text_are_recut_by_characters():
    """"don't" is one token for ann, "do" "n't" for bob: the common tokens are do|n't, and
    bob's "do" is a boundary disagreement, not a match of position 0."""
    ann = doc("d", [["I", "don't", "go", "."]], [[(0, 0), (1, 1)], [(2, 2)]])
    bob = doc("d", [["I", "do", "n't", "go", "."]], [[(0, 0), (1, 1)], [(3, 3)]])
    report = corefkit.agree([ann, bob], labels=["ann", "bob"])
    assert [(n.annotator, n.mode, n.common_tokens) for n in report.text] == \
        [("ann", "characters", 5), ("bob", "characters", 5)]
    pair = report.pair("ann", "bob")
    assert pair.mentions["exact"].f1 == Fraction(2, 3)        # I and go; don't ≠ do
    assert report.disagreement_counts()["ann–bob"]["boundary"] == 1


def test_a_text_with_a_word_more_is_aligned_never_paired_by_position():
    """bob's text lacks ann's first word: by position every mention would be one token off
    (F1 0); aligned, all three mentions and the chain agree, and the difference is reported."""
    words = ["Ann", "met", "Bob", ".", "She", "smiled", "."]
    ann = doc("d", [["Yesterday", *words[:4]], words[4:]], [[(1, 1), (5, 5)], [(3, 3)]])
    bob = doc("d", [words[:4], words[4:]], [[(0, 0), (4, 4)], [(2, 2)]])
    report = corefkit.agree([ann, bob], labels=["ann", "bob"])
    pair = report.pair("ann", "bob")
    assert pair.mentions["exact"].f1 == 1 and pair.chains["conll"].f1 == 1
    bob_note = next(n for n in report.text if n.annotator == "bob")
    assert bob_note.mode == "aligned" and bob_note.text_differs
    assert bob_note.alignment["words_deleted"] == 1
    assert report.disagreements == []


# ------------------------------------------------------------------ LCC
@pytest.fixture(scope="module")
def lcc() -> Any:
    return corefkit.agree(LCC, layers=LCC_LAYERS, labels=["gold", "annotator"])


def test_lcc_gold_against_the_annotator(lcc: Any):
    """LCC's 30 documents: gold (manualCoreferences v1) against the annotator's layer (v2).
    The chain F1s are the scorer's with either layer as key; α MASI is NLTK's on the same
    units."""
    assert len(lcc.documents) == 30 and lcc.complete_documents == 30
    pair = lcc.pair("gold", "annotator")
    gold = corefkit.read(LCC, layer=LCC_LAYERS[0])
    other = corefkit.read(LCC, layer=LCC_LAYERS[1])
    scored = corefkit.score(gold, other)
    for metric in ("muc", "bcub", "ceafe", "lea", "conll"):
        assert pair.chains[metric].forward == scored.metrics[metric].f1, metric
    assert pair.mentions["exact"].forward == scored.metrics["mentions"].f1
    gold_mentions, other_mentions, matched = pair.counts
    assert pair.mentions["exact"].f1 == Fraction(2 * matched, gold_mentions + other_mentions)
    assert pair.alpha.units == lcc.alpha.units > 900
    units = masi_units([[chain_values(d["gold"], n), chain_values(d["annotator"], n)]
                        for n, d in enumerate(lcc.annotations)])
    assert len(units) == pair.alpha.units
    rounded = masi_alpha([[chain_values(d["gold"], n), chain_values(d["annotator"], n)]
                          for n, d in enumerate(lcc.annotations)], NLTK_WEIGHTS)
    assert rounded.value is not None and pair.alpha.value is not None
    assert math.isclose(float(rounded.value), nltk_alpha(units), rel_tol=1e-12)
    assert pair.alpha.value == brute_alpha(units, MASI_WEIGHTS)        # exactly
    assert lcc.fleiss is not None and pair.kappa is not None


def test_lcc_per_document_pairs_add_up(lcc: Any):
    found = sum(sum(d.disagreements.values()) for d in lcc.documents)
    assert found == len(lcc.disagreements) == sum(lcc.disagreement_counts()["gold–annotator"]
                                                  .values())
    for d in lcc.disagreements:
        assert all(p.location.startswith(str(LCC)) for p in d.places)


# ------------------------------------------------------------------ GerDraCor-Coref
def distinct_mentions(path: Path, **options: Any) -> int:
    """The mentions of the file as the scorer counts them: one per extent."""
    (document,) = list(corefkit.read(path, **options))
    return len({m.tokens for m in document.mentions})


@pytest.fixture(scope="module")
def gerdracor_conll(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("gerdracor")
    out = {}
    for who in ("AF", "JA", "SE"):
        target = folder / f"Cato-{who}_Act2.conll"
        with gzip.open(GERDRACOR / f"Cato-{who}_Act2.CoNLL2012.conll.gz", "rb") as source, \
                target.open("wb") as sink:
            shutil.copyfileobj(source, sink)
        out[who] = target
    return out


def test_gerdracor_conll_tokens_differ_and_go_through_the_alignment(gerdracor_conll: dict):
    """JA's and SE's CoNLL exports of act 2 differ by a token (5,193 and 5,194 lines); AF's
    covers less of the text and has no coreference column content: their annotations are
    aligned by corefkit.alignment and what differs is reported."""
    report = corefkit.agree([gerdracor_conll[w] for w in ("AF", "JA", "SE")],
                            labels=["AF", "JA", "SE"])
    notes = {n.annotator: n for n in report.text}
    assert notes["SE"].mode == "same tokens" and notes["SE"].tokens == 5194   # the reference
    assert notes["JA"].mode == "aligned" and notes["JA"].tokens == 5193
    assert notes["AF"].mode == "aligned" and notes["AF"].text_differs
    assert notes["AF"].alignment["mentions"] == 0
    ja_se = report.pair("JA", "SE")
    ja, se, matched = ja_se.counts
    assert [ja, se] == [distinct_mentions(gerdracor_conll[w]) for w in ("JA", "SE")]
    assert matched > 500
    assert ja_se.mentions["exact"].f1 == Fraction(2 * matched, ja + se)
    assert report.pair("AF", "JA").mentions["exact"].f1 == 0


def test_gerdracor_xmi_annotators_on_common_tokens_by_characters():
    """The XMIs have no tokens: the reader cuts each at its own annotator's mention
    boundaries, and agree re-cuts the (same) text at all of them, by characters."""
    files = [GERDRACOR / f"Cato-{w}.xmi.gz" for w in ("AF", "SE")]
    report = corefkit.agree(files, labels=["AF", "SE"],
                            read_options={"cas_typesystem": CAS_TYPES}, lenient=True)
    assert {n.mode for n in report.text} == {"characters"}
    assert len({n.common_tokens for n in report.text}) == 1
    assert all(n.tokens < n.common_tokens for n in report.text)   # each cut finer
    own = [distinct_mentions(f, cas_typesystem=CAS_TYPES, lenient=True) for f in files]
    af, se, matched = report.pair("AF", "SE").counts
    assert [af, se] == own == [782, 710] and matched > 600   # 784 and 731, some repeated


# ------------------------------------------------------------------ the draft
def three_annotators() -> list[Document]:
    words = [["Ann", "met", "Bob", "and", "his", "dog", "."]]
    return [doc("d", words, [[(0, 0)], [(2, 2), (4, 4)], [(4, 5)]]),
            doc("d", words, [[(0, 0)], [(2, 2), (4, 4)]]),
            doc("d", words, [[(0, 0), (4, 4)], [(2, 2)], [(5, 5)]])]


@pytest.mark.parametrize("rule, kept, by_vote, dropped_by_rule, open_", [
    ("majority", 3, 2, 0, 0), ("union", 5, 0, 0, 2), ("intersection", 3, 0, 2, 0)])
def test_the_draft_keeps_what_the_rule_says_and_marks_the_rest(
        tmp_path: Path, rule: str, kept: int, by_vote: int, dropped_by_rule: int, open_: int):
    """Ann, Bob, his: marked by all three; "his dog" by one, "dog" by one. Majority drops the
    two by vote (1 of 3); union keeps and leaves them open; intersection drops them by rule."""
    out = tmp_path / "draft.conllu"
    report = corefkit.agree(three_annotators(), labels=["a", "b", "c"], merge=rule,
                            output=out)
    summary = report.merge
    assert summary is not None and report.written == [str(out)]
    assert summary.mentions_agreed == 3
    assert summary.mentions_kept_by_vote + summary.mentions_dropped_by_vote == by_vote
    assert summary.mentions_dropped_by_rule == dropped_by_rule
    assert summary.mentions_open == open_
    (draft,) = list(corefkit.read(out))
    assert len(draft.mentions) == kept
    marked = [m for m in draft.mentions if m.attrs.get("disagreement")]
    # "his": two of three put it with Bob, one with Ann: its chain is decided by vote
    # (majority) or open; a contested mention carries what is contested
    assert marked, "every disagreement is marked for the curator"
    his = next(m for m in draft.mentions if m.tokens == (4,))
    assert "chain" in str(his.attrs["disagreement"])
    assert summary.left_open == summary.mentions_open + summary.chains_open


def test_a_draft_is_never_written_over_a_file(tmp_path: Path):
    out = tmp_path / "draft.conllu"
    out.write_text("mine\n")
    with pytest.raises(UsageError, match="exists"):
        corefkit.agree(three_annotators(), labels=["a", "b", "c"], merge="union", output=out)
    assert out.read_text() == "mine\n"
