"""lmuc, lbcub, lceafm, lceafe (Chen & Ng 2013): hand-computed cases, identities, limits.

Every expected number below is worked out by hand in the comments (W4 = 1, 3/4, 1/2, 1: a link
with a name weighs 1, else with a nominal 3/4, else 1/2; a singleton entity 1).
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import corefkit
from corefkit.errors import UsageError
from corefkit.model import Document
from corefkit.scoring.metrics.linguistic import (
    W4,
    LinkWeights,
    parse_weights,
    tree_weight,
)
from tests.conftest import CONFORMANCE, CORPORA

L = ("lmuc", "lbcub", "lceafm", "lceafe")
TYPES = {"N": "name", "M": "nominal", "P": "pronoun", "Z": "zero", "O": "other"}


def build(tokens: str, chains: list[str]) -> Document:
    """One-token mentions: ``tokens`` gives each token's type letter (N name, M nominal,
    P pronoun, ...), ``chains`` the entities as strings of token positions ("012", "34")."""
    doc = Document("hand")
    doc.add_sentence([f"w{i}" for i in range(len(tokens))])
    for chain in chains:
        entity = doc.new_entity()
        for c in chain:
            i = int(c)
            doc.add_span(i, i, entity, attrs={"mention_type": TYPES[tokens[i]]})
    return doc


def scores(key: Document, response: Document, weights=None, metrics=L) -> dict:
    options = {m: {"weights": weights} for m in L} if weights is not None else None
    report = corefkit.score([key], [response], metrics=",".join(metrics), metric_options=options)
    return {m: report.metrics[m] for m in metrics}


def rp(result) -> tuple[F, F]:
    return result.recall, result.precision


# ---------------------------------------------------------------------------- hand-computed
def test_example_a_mixed_types():
    """Key {a:N, b:P, c:P} {d:M, e:M}; response {a, b} {c, d, e}.

    w_k: MST{N,P,P} = a-b 1 + a-c 1 = 2; {M,M} = 3/4; Σ = 11/4.
    Common: {a,b} 1; {c} 0 (not a singleton entity); {d,e} 3/4; Σ = 7/4.
    w_s: {a,b} = 1; {c,d,e}: parts {c} and {d,e}: 0 + 3/4, joined by c–d (P–M) = 3/4 → 3/2.
    lmuc R = 7/4 / 11/4 = 7/11, P = 7/4 / 5/2 = 7/10.
    lbcub, the mean over mentions of eq. (5) R(m) = w_c / w_k, P(m) = w_c / w_s:
          R = (1/2 + 1/2 + 0 + 1 + 1) / 5 = 3/5 (c's part {c} of K1 is no singleton entity: 0);
          P = (1 + 1 + 0 + (3/4)/(3/2) + (3/4)/(3/2)) / 5 = 3/5.
    lceafm: K1–R1 (1) and K2–R2 (3/4): 7/4 → R 7/11, P 7/10.
    lceafe: φ(K1,R1) = 2·1/(2+1) = 2/3, φ(K2,R2) = 2·(3/4)/(3/4+3/2) = 2/3 → 4/3;
            R = 4/3 / 2 = 2/3, P = 4/3 / 2 = 2/3.
    """
    got = scores(build("NPPMM", ["012", "34"]), build("NPPMM", ["01", "234"]))
    assert rp(got["lmuc"]) == (F(7, 11), F(7, 10))
    assert rp(got["lbcub"]) == (F(3, 5), F(3, 5))
    assert rp(got["lceafm"]) == (F(7, 11), F(7, 10))
    assert rp(got["lceafe"]) == (F(2, 3), F(2, 3))
    assert got["lmuc"].counts.recall_den == F(11, 4)
    assert got["lmuc"].counts.precision_den == F(5, 2)


def test_example_b_asymmetric_precision():
    """Key {a:N, b:P, c:P} {d:N, e:M}; response {b, c, d} {a} {e}.

    w_k: 2 and 1 (d–e involves a name); Σ = 3. Common: {b,c} 1/2, all else 0.
    w_s({b,c,d}) = 1/2 (the correct, suboptimal pronoun link b–c is no error) + 1 (the spurious
    link joining {b,c} and {d}, at its heaviest, P–N) = 3/2 — an MST of {b,c,d} would weigh 2;
    {a} and {e} are singleton entities: 1 each; Σ = 7/2.
    lmuc R = 1/2 / 3 = 1/6, P = 1/2 / 7/2 = 1/7.
    lbcub R = (0 + (1/2)/2 + (1/2)/2 + 0 + 0) / 5 = 1/10 (a, d and e are in parts of one mention
          of entities that are not singletons), P = ((1/2)/(3/2) · 2 + 0 + 0 + 0) / 5 = 2/15.
    lceafm R = 1/6, P = 1/7. lceafe φ(K1,R1) = 2·(1/2)/(2 + 3/2) = 2/7: R = 1/7, P = 2/21.
    """
    key, response = build("NPPNM", ["012", "34"]), build("NPPNM", ["123", "0", "4"])
    got = scores(key, response)
    assert rp(got["lmuc"]) == (F(1, 6), F(1, 7))
    assert rp(got["lbcub"]) == (F(1, 10), F(2, 15))
    assert rp(got["lceafm"]) == (F(1, 6), F(1, 7))
    assert rp(got["lceafe"]) == (F(1, 7), F(2, 21))
    # swapping key and response: recall of the swapped run uses the plain MST of {b,c,d} (2),
    # so it is not the precision above — precision is asymmetric (§3.4)
    swapped = scores(response, key)
    assert swapped["lmuc"].recall == F(1, 2) / (2 + 1 + 1) == F(1, 8) != F(1, 7)


def test_example_c_singletons_and_twinless_mentions():
    """Key {a:N, b:P} {c:M} {d:P}; response {a, b} {c} {d, e:M} (e is not in the key).

    w_k: 1, 1 (singleton), 1 (singleton); Σ = 3. Common: {a,b} 1; {c} is a singleton entity on
    both sides: w_sing = 1; {d}: 0 (the response links d). Σ = 2.
    w_s: 1, 1, and {d, e}: parts {d}, {e} joined by P–M 3/4 → Σ = 11/4.
    lmuc R = 2/3, P = 8/11. lceafm R = 2/3, P = 8/11. lceafe φ = 1, 1, 0: R = P = 2/3.
    lbcub, per mention: R = (1 + 1 + 1 + 0) / 4 = 3/4 (c is a singleton found: 1; d is a
    singleton of the key but linked in the response: 0), P = (1 + 1 + 1 + 0 + 0) / 5 = 3/5 (e,
    which the key lacks, is a mention without credit).
    """
    key, response = build("NPMPM", ["01", "2", "3"]), build("NPMPM", ["01", "2", "34"])
    got = scores(key, response)
    for metric in ("lmuc", "lceafm"):
        assert rp(got[metric]) == (F(2, 3), F(8, 11)), metric
    assert rp(got["lbcub"]) == (F(3, 4), F(3, 5))
    assert rp(got["lceafe"]) == (F(2, 3), F(2, 3))


def test_zero_singleton_weight_is_the_limit():
    """Example C with w_sing = 0: singletons weigh nothing and nothing divides by zero.

    w_k Σ = 1, common Σ = 1, w_s Σ = 1 + 0 + 3/4 = 7/4: lmuc R = 1, P = 4/7; lceafm the same.
    lceafe: the two {c} singletons have φ4 = 2·w/(w + w) = 1 for every w > 0, and at 0 their
    limit, 1: unchanged. lbcub does not depend on w_sing (§4.2): a singleton found is R(m) =
    P(m) = w/w = 1 for every w > 0, its limit at 0 — unchanged, (3/4, 3/5).
    """
    key, response = build("NPMPM", ["01", "2", "3"]), build("NPMPM", ["01", "2", "34"])
    got = scores(key, response, weights="1,0.75,0.5,0")
    for metric in ("lmuc", "lceafm"):
        assert rp(got[metric]) == (1, F(4, 7)), metric
    assert rp(got["lbcub"]) == (F(3, 4), F(3, 5))
    assert rp(got["lceafe"]) == (F(2, 3), F(2, 3))
    # the paper's 1e-20 gives the same numbers up to that epsilon
    tiny = scores(key, response, weights=(1, F(3, 4), F(1, 2), F(1, 10**20)))
    for metric in L:
        for a, b in zip(rp(got[metric]), rp(tiny[metric])):
            assert abs(a - b) < F(1, 10**18), metric


def test_documents_with_singletons_only_and_zero_singleton_weight():
    """No link anywhere and w_sing = 0: the weighted denominators are 0, and 0/0 is reported as
    0 (as MUC does for a key without links); lbcub and lceafe are means of ratios, and every
    singleton is found (the limit w/w = 1)."""
    doc = build("NPM", ["0", "1", "2"])
    got = scores(doc, doc, weights="1,1,1,0")
    for metric in ("lmuc", "lceafm"):
        assert rp(got[metric]) == (0, 0), metric
    assert rp(got["lbcub"]) == (1, 1)
    assert rp(got["lceafe"]) == (1, 1)


def test_zeros_and_other_types_weigh_as_pronouns():
    """Zero and 'other' mentions fall under 'else w_pro': {Z, O} weighs 1/2, {Z, M} 3/4."""
    got = scores(build("ZOZM", ["01", "23"]), build("ZOZM", ["0123"]), metrics=("lmuc",))
    # w_k = 1/2 + 3/4; response one part per key entity: 1/2 + 3/4 + the joining link (Z–M or
    # O–M, nominal) 3/4
    assert rp(got["lmuc"]) == (1, F(5, 4) / 2)


def test_names_dominate_whatever_the_weights_order():
    """'First rule that applies': a name–pronoun link weighs w_nam even when w_pro is larger."""
    weights = LinkWeights(F(1, 10), F(1, 5), F(1), F(1))
    assert weights.link(0, 2) == F(1, 10) and weights.link(1, 2) == F(1, 5)
    assert weights.link(2, 2) == F(1)
    got = scores(build("NPP", ["012"]), build("NPP", ["012"]), weights=weights, metrics=("lmuc",))
    # the MST prefers the heavier pronoun link b–c (1) plus one name link (1/10)
    assert got["lmuc"].counts.recall_den == F(11, 10)


# ---------------------------------------------------------------------------- identities
DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"


def _tc_cases():
    data = json.loads((CONFORMANCE / "reference-tc.json").read_text())
    return [pytest.param(c["key"], c["response"], id=c["id"]) for c in data["cases"]]


@pytest.mark.parametrize("key,response", _tc_cases())
def test_lmuc_with_unit_link_weights_and_no_singleton_weight_is_muc(key, response):
    """W = (1, 1, 1, 0): every spanning tree of n mentions weighs n − 1 and singletons nothing,
    so lmuc is MUC — counts included — on every case of the reference test suite."""
    report = corefkit.score(CONFORMANCE / key, CONFORMANCE / response, metrics="muc,lmuc",
                            metric_options={"lmuc": {"weights": "1,1,1,0"}}, lenient=True)
    muc, lmuc = report.metrics["muc"].counts, report.metrics["lmuc"].counts
    assert (lmuc.recall_num, lmuc.recall_den, lmuc.precision_num, lmuc.precision_den) == \
        (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den)


def _singleton_entities(path) -> int:
    return sum(1 for doc in corefkit.read(path) for e in doc.entities if doc.size(e) == 1)


@pytest.mark.parametrize("key,response", [c for c in _tc_cases()[::2]
                                          if not c.id.endswith(("A-8", "A-9"))])
def test_lmuc_with_unit_link_weights_adds_singleton_self_links(key, response):
    """W = (1, 1, 1, w): lmuc is MUC plus w per singleton entity in the denominators (key side
    for recall, response side for precision) and per singleton both sides share. (TC-A-8 and
    A-9 are left out: the scorer removes a repeated response mention there, which changes the
    response's singletons from what the file shows.)"""
    w = F(5, 2)
    report = corefkit.score(CONFORMANCE / key, CONFORMANCE / response, metrics="muc,lmuc",
                            metric_options={"lmuc": {"weights": (1, 1, 1, w)}}, lenient=True)
    muc, lmuc = report.metrics["muc"].counts, report.metrics["lmuc"].counts
    key_singletons = _singleton_entities(CONFORMANCE / key)
    response_singletons = _singleton_entities(CONFORMANCE / response)
    shared = (lmuc.recall_num - muc.recall_num) / w
    assert shared.denominator == 1 and 0 <= shared <= min(key_singletons, response_singletons)
    assert lmuc.recall_den == muc.recall_den + w * key_singletons
    assert lmuc.precision_den == muc.precision_den + w * response_singletons


@pytest.mark.parametrize("key,response", _tc_cases()[::3])
def test_scaling_all_weights_changes_nothing(key, response):
    a = corefkit.score(CONFORMANCE / key, CONFORMANCE / response, metrics=",".join(L), lenient=True)
    b = corefkit.score(CONFORMANCE / key, CONFORMANCE / response, metrics=",".join(L),
                       metric_options={m: {"weights": "3,2.25,1.5,3"} for m in L}, lenient=True)
    for metric in L:
        assert rp(a.metrics[metric]) == rp(b.metrics[metric]), metric


def test_lceafe_does_not_depend_on_the_singleton_weight():
    key, response = DATA / "TC-M.key", DATA / "TC-M-4.response"
    results = [corefkit.score(key, response, metrics="lceafe",
                              metric_options={"lceafe": {"weights": f"1,0.75,0.5,{w}"}})
               for w in ("0", "1", "7")]
    assert len({rp(r.metrics["lceafe"]) for r in results}) == 1


@pytest.mark.parametrize("key,response", _tc_cases()[1::5])
def test_with_equal_link_weights_precision_mirrors_recall(key, response):
    """Equal link weights: every spanning tree weighs the same, so the asymmetric w_s(R) is the
    MST weight of R, and precision(K, R) = recall(R, K) for all four metrics."""
    options = {m: {"weights": "1,1,1,1"} for m in L}
    forward = corefkit.score(CONFORMANCE / key, CONFORMANCE / response, metrics=",".join(L),
                             metric_options=options, lenient=True)
    backward = corefkit.score(CONFORMANCE / response, CONFORMANCE / key, metrics=",".join(L),
                              metric_options=options, lenient=True)
    for metric in L:
        assert forward.metrics[metric].precision == backward.metrics[metric].recall, metric
        assert forward.metrics[metric].recall == backward.metrics[metric].precision, metric


def test_bcub_and_ceaf_have_no_unit_weight_identity():
    """lbcub/lceafm/lceafe weigh links where B³/CEAF count mentions: with W = (1, 1, 1, 1) a
    key {a, b, c} against a response {a, b} gives lbcub recall (1/2 + 1/2 + 0) / 3 = 1/3 (w_c
    = 1 link of w_k = 2), B³ 4/9."""
    got = corefkit.score([build("MMM", ["012"])], [build("MMM", ["01"])],
                         metrics="bcub,ceafm,lbcub,lceafm",
                         metric_options={m: {"weights": "1,1,1,1"} for m in L})
    assert got.metrics["bcub"].recall == F(4, 9) and got.metrics["lbcub"].recall == F(1, 3)
    assert got.metrics["ceafm"].recall == F(2, 3) and got.metrics["lceafm"].recall == F(1, 2)


@pytest.mark.parametrize("path", [
    CORPORA / "gum" / "dep" / "GUM_letter_arendt.conllu",
    CORPORA / "litbank" / "105_persuasion_brat.conll",
    CORPORA / "lcc" / "116352.nkas.json",
    CORPORA / "mmax2" / "htc" / "002_htc_abn.mmax",
])
@pytest.mark.parametrize("weights", ["1,0.75,0.5,1", "1,0.75,0.5,0", "0.2,1,3,2"])
def test_perfect_response_scores_one(path, weights):
    report = corefkit.score(path, path, metrics=",".join(L),
                            metric_options={m: {"weights": weights} for m in L})
    for metric in L:
        assert rp(report.metrics[metric]) == (1, 1), metric


# ---------------------------------------------------------------------------- brute force
def _mst(nodes: list[int], weight) -> F:
    """Prim's algorithm on the complete graph, written out plainly (no shortcut)."""
    if len(nodes) < 2:
        return F(0)
    inside, total = {nodes[0]}, F(0)
    while len(inside) < len(nodes):
        best = max(((weight(a, b), b) for a in inside for b in nodes if b not in inside),
                   key=lambda x: x[0])
        total += best[0]
        inside.add(best[1])
    return total


def _reference(types, key, response, w: LinkWeights) -> dict[str, tuple[F, F]]:
    """The four metrics straight from the definitions, by enumeration."""
    cat = {m: {"name": 0, "nominal": 1}.get(t, 2) for m, t in types.items()}

    def link(a, b):
        return w.link(cat[a], cat[b])

    def wk(K):
        return _mst(sorted(K), link) + (w.singleton if len(K) == 1 else 0)

    def ws(R):
        parts = [set(R) & set(K) for K in key if set(R) & set(K)]
        parts += [{m} for m in R if not any(m in K for K in key)]
        correct = sum((_mst(sorted(p), link) for p in parts), F(0))

        def between(i, j):
            return max(link(a, b) for a in parts[i] for b in parts[j])
        return correct + _mst(list(range(len(parts))), between) + (w.singleton if len(R) == 1 else 0)

    def wc(K, R):
        common = sorted(set(K) & set(R))
        if not common:
            return None
        return _mst(common, link) + (w.singleton if len(K) == len(R) == 1 else 0)

    WK = [wk(K) for K in key]
    WS = [ws(R) for R in response]
    C = {(i, j): wc(K, R) for i, K in enumerate(key) for j, R in enumerate(response)}
    C = {ij: c for ij, c in C.items() if c is not None}
    sk, ss = sum(WK, F(0)), sum(WS, F(0))

    def ratio(a, b):
        return a / b if b else F(0)

    out = {"lmuc": (ratio(sum(C.values(), F(0)), sk), ratio(sum(C.values(), F(0)), ss))}
    def per_mention(chains, others, weight, ij):
        # eq. (5): the mean over the chains' mentions of w_c(C) / w(own chain); a singleton
        # found (both chains single) is 1 whatever w_sing
        total = F(0)
        for a, chain in enumerate(chains):
            for m in chain:
                b = next((b for b, other in enumerate(others) if m in other), None)
                if b is None or ij(a, b) not in C:
                    continue
                if len(chain) == len(others[b]) == 1:
                    total += 1
                elif C[ij(a, b)]:
                    total += C[ij(a, b)] / weight[a]
        return ratio(total, sum(len(c) for c in chains))

    out["lbcub"] = (per_mention(key, response, WK, lambda a, b: (a, b)),
                    per_mention(response, key, WS, lambda a, b: (b, a)))

    def best(phi):
        n, m = len(key), len(response)
        top = F(0)
        if n <= m:
            for perm in itertools.permutations(range(m), n):
                top = max(top, sum((phi(i, j) for i, j in enumerate(perm) if (i, j) in C), F(0)))
        else:
            for perm in itertools.permutations(range(n), m):
                top = max(top, sum((phi(i, j) for j, i in enumerate(perm) if (i, j) in C), F(0)))
        return top

    cm = best(lambda i, j: C[(i, j)])
    out["lceafm"] = (ratio(cm, sk), ratio(cm, ss))

    def phi4(i, j):
        den = WK[i] + WS[j]
        return 2 * C[(i, j)] / den if den else F(1)
    ce = best(phi4)
    out["lceafe"] = (ratio(ce, len(key)), ratio(ce, len(response)))
    return out


def _partition(rng: random.Random, items: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for m in items:
        if groups and rng.random() < 0.6:
            rng.choice(groups).append(m)
        else:
            groups.append([m])
    return groups


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_against_a_brute_force_reading_of_the_definitions(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 7)
    letters = "".join(rng.choice("NNMMPPZO") for _ in range(n + 2))
    key_items = [m for m in range(n) if rng.random() < 0.85] or [0]
    response_items = [m for m in range(n + 2) if rng.random() < 0.7] or [0]
    key, response = _partition(rng, key_items), _partition(rng, response_items)
    weights = rng.choice(["1,0.75,0.5,1", "1,0.75,0.5,0", "0.5,2,1,0.25", "1,1,1,1"])
    w = parse_weights(weights)
    got = scores(build(letters, ["".join(map(str, k)) for k in key]),
                 build(letters, ["".join(map(str, r)) for r in response]), weights=weights)
    expected = _reference({m: TYPES[letters[m]] for m in range(len(letters))}, key, response, w)
    for metric in L:
        assert rp(got[metric]) == expected[metric], (metric, letters, key, response, weights)


def test_tree_weight_matches_prim_on_the_complete_graph():
    matrix = tuple(tuple(W4.link(a, b) for b in range(3)) for a in range(3))
    for counts in itertools.product(range(4), repeat=3):
        nodes = [c for c, n in enumerate(counts) for _ in range(n)]
        expected = _mst(list(range(len(nodes))), lambda a, b, n=nodes: matrix[n[a]][n[b]])
        assert tree_weight(counts, matrix) == expected, counts


# ---------------------------------------------------------------------------- options, paths
@pytest.mark.parametrize("bad,message", [
    ("1,2,3", "four numbers"),
    ("1,x,1,1", "NOM must be a number"),
    ("1,-1,1,1", "must not be negative"),
    ("1,0,1,1", "must be positive"),
])
def test_bad_weights_are_usage_errors(bad, message):
    with pytest.raises(UsageError, match=message):
        parse_weights(bad)


def test_weights_parse_decimals_and_fractions_exactly():
    assert parse_weights("1,0.75,1/2,1") == W4
    assert str(W4) == "1,3/4,1/2,1"


def test_metrics_on_the_corefud_path_use_ud_types():
    """GUM against a response that drops every other entity: labels reach the CorefUD path."""
    path = CORPORA / "gum" / "dep" / "GUM_letter_arendt.conllu"
    [key] = corefkit.read(path)
    response = key.copy(text=False)
    for n, entity in enumerate(response.entities_in()):
        if n % 2:
            response.remove_entity(entity, delete_mentions=True)
    report = corefkit.score([key], [response], metrics="muc,lmuc,lbcub,lceafm,lceafe")
    for metric in L:
        result = report.metrics[metric]
        assert result.precision == 1 and 0 < result.recall < 1, metric
    # names and nominals weigh more than pronoun links, so the L-recall differs from MUC's
    assert report.metrics["lmuc"].recall != report.metrics["muc"].recall


# ---------------------------------------------------------------------------- command line
def test_lweights_on_the_command_line(capsys):
    from corefkit.cli.main import main

    # TC-A-4's response changes a word of the key: the reference scorer pairs by position,
    # corefkit does so with --lenient (and names the difference)
    key, response = str(DATA / "TC-A.key"), str(DATA / "TC-A-4.response")
    assert main(["score", key, response, "-m", "muc,lmuc,lceafe", "--lweights", "1,1,1,0",
                 "-f", "json", "--lenient"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metrics"]["lmuc"]["exact"] == data["metrics"]["muc"]["exact"]
    assert data["options"]["metric_options"]["lmuc"]["weights"] == "1,1,1,0"
    assert main(["score", key, response, "-m", "lmuc,lbcub", "--lenient"]) == 0
    table = capsys.readouterr().out
    rows = [line.split()[0] for line in table.splitlines()[6:8]]
    assert rows == ["lmuc", "lbcub"] and "1.75/3.25, 1.75/4.25" in table


@pytest.mark.parametrize("args,message", [
    (["-m", "muc", "--lweights", "1,1,1,0"], "ask for them with -m"),
    (["-m", "lmuc", "--lweights", "1,1"], "four numbers"),
    (["-m", "lmuc", "--lweights", "1,0,1,1"], "must be positive"),
])
def test_lweights_usage_errors(args, message, capsys):
    from corefkit.cli.main import main

    code = main(["score", str(DATA / "TC-A.key"), str(DATA / "TC-A-4.response"), *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------- the paper's Table 1
# Chen & Ng (2013), §4.1, Figure 1: 20 mentions a..t of a Bible paragraph, typed NAME (a Jesus,
# d Jerusalem), NOMINAL (e the city, n your enemies, p peace, q now, r a time, s all sides,
# t all your people) or PRONOUN (b he, c I, f it, g..m you/your, o they); key chains
# {a b c} {d e f g h i j k l m} {n o} and five singletons; responses (a)-(e) as §4.1 describes
# them (Figure 2): (a) links {b c} and the seven "you" S_you; (b), (c), (d) also link S_you to
# f, e, d; (e) joins S_you with {a b c}, and links {d e f} and {n o}.
TYPES_1 = "NPPNMP" + "P" * 7 + "MP" + "M" * 5
YOU = list(range(6, 13))
KEY_1 = [[0, 1, 2], [3, 4, 5, *YOU], [13, 14], [15], [16], [17], [18], [19]]
RESPONSES_1 = {
    "a": [[1, 2], YOU],
    "b": [[1, 2], [5, *YOU]],
    "c": [[1, 2], [4, *YOU]],
    "d": [[1, 2], [3, *YOU]],
    "e": [[0, 1, 2, *YOU], [3, 4, 5], [13, 14]],
}
# Table 1, LMetrics(W4) and OMetrics: R, P, F in percent, one decimal
TABLE_1 = {
    "a": {"muc": (58.3, 100, 73.7), "lmuc": (50.7, 58.6, 54.4), "bcub": (64.3, 100, 78.3),
          "lbcub": (39.2, 70.0, 50.2), "ceafm": (75.0, 75.0, 75.0), "lceafm": (50.7, 58.6, 54.4),
          "ceafe": (91.1, 56.1, 69.4), "lceafe": (73.8, 45.4, 56.2)},
    "b": {"muc": (66.7, 100, 80.0), "lmuc": (53.7, 64.3, 58.5), "bcub": (71.3, 100, 83.3),
          "lbcub": (43.1, 75.0, 54.7), "ceafm": (80.0, 80.0, 80.0), "lceafm": (53.7, 64.3, 58.5),
          "ceafe": (91.9, 61.3, 73.6), "lceafe": (74.5, 49.7, 59.6)},
    "c": {"muc": (66.7, 100, 80.0), "lmuc": (64.2, 68.3, 66.2), "bcub": (71.3, 100, 83.3),
          "lbcub": (50.8, 75.0, 60.6), "ceafm": (80.0, 80.0, 80.0), "lceafm": (64.2, 68.3, 66.2),
          "ceafe": (91.9, 61.3, 73.6), "lceafe": (76.7, 51.1, 61.4)},
    "d": {"muc": (66.7, 100, 80.0), "lmuc": (74.6, 71.4, 73.0), "bcub": (71.3, 100, 83.3),
          "lbcub": (58.6, 75.0, 65.8), "ceafm": (80.0, 80.0, 80.0), "lceafm": (74.6, 71.4, 73.0),
          "ceafe": (91.9, 61.3, 73.6), "lceafe": (78.4, 52.3, 62.8)},
    "e": {"muc": (91.7, 91.7, 91.7), "lmuc": (76.1, 92.7, 83.6), "bcub": (79.0, 79.0, 79.0),
          "lbcub": (65.0, 72.5, 68.5), "ceafm": (70.0, 70.0, 70.0), "lceafm": (58.2, 70.9, 63.9),
          "ceafe": (86.5, 86.5, 86.5), "lceafe": (85.8, 85.8, 85.8)},
}


def _chains_doc(chains: list[list[int]]) -> Document:
    doc = Document("chen-ng-2013-figure-1")
    doc.add_sentence([f"m{i}" for i in range(len(TYPES_1))])
    covered = {i for chain in chains for i in chain}
    singletons = [[i] for i in range(len(TYPES_1)) if i not in covered]
    for chain in chains + singletons:  # gold mentions: every mention is in every response
        entity = doc.new_entity()
        for i in chain:
            doc.add_span(i, i, entity, attrs={"mention_type": TYPES[TYPES_1[i]]})
    return doc


@pytest.mark.parametrize("response", sorted(RESPONSES_1))
def test_the_papers_table_1(response):
    """Every value of Table 1 (W4), to the printed digit: rebuilt from the paper's example."""
    report = corefkit.score([_chains_doc(KEY_1)], [_chains_doc(RESPONSES_1[response])],
                           metrics=",".join(TABLE_1[response]))
    for metric, printed in TABLE_1[response].items():
        got = report.metrics[metric]
        for value, paper in zip((got.recall, got.precision, got.f1), printed):
            assert abs(float(value) * 100 - paper) <= 0.05 + 1e-9, (metric, value, paper)
