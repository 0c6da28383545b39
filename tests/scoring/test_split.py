"""Split-antecedent generalized metrics (Paun et al. 2023) at the level of item clusters.

* The UA scorer's plural suite (``ua-plural.json``), written in ``PluralTestCases.README`` as
  clusters (``Key: {ab} {cd} {e} {{ac}fg}`` — entity {f, g} is the plural whose accommodated
  set is {the entity of a, the entity of c}): every case and mode, exact fractions. Each
  letter's extent is read from the case's key file, because the scorer's walk order (and
  with it LEA and BLANC) follows from the extents.
* The paper's worked example (12), systems A–D: the δ terms of §5.1.2 (B³), §5.2.2 (MUC)
  and §5.3.2 (CEAF), which are the member scores of the aligned sets.
* Without sets, every generalized metric is the standard one (§4.3).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings

import corefkit
from corefkit.scoring.metrics import split
from corefkit.scoring.metrics import standard as metrics
from corefkit.scoring.metrics.split import ClusterPair, Markable, SplitItem
from corefkit.scoring.metrics.standard import CorefUDBlancCounts
from corefkit.scoring.partition import Partition
from tests.conftest import CONFORMANCE
from tests.scoring.test_metrics import partitions

PLURAL = CONFORMANCE / "data/universal-anaphora-scorer/plural-tests"
README = (PLURAL / "PluralTestCases.README").read_text()
CASES = {m.group(1): (m.group(2), m.group(3).split("==")[0])
         for m in re.finditer(r"^(TC-P[AB]-\d+).*\nKey: (.*)\nSys: (.*)$", README, re.M)}


def extents(case: str) -> dict[str, tuple[int, int]]:
    """Letter -> (first, last) token of markable_<letter> in the case's key file."""
    [doc] = corefkit.read(PLURAL / f"{case.rsplit('-', 1)[0]}.key")
    return {m.attrs["markable_id"].removeprefix("markable_"): m.parts()[-1]
            for m in doc.mentions if "markable_id" in m.attrs}


def build(text: str, where: dict[str, tuple[int, int]], keep_sets: bool = True) -> split.Clusters:
    """The clusters of a README line, sets appended and equal sets merged as the scorer does."""
    spec = [(m.group(1) or "", m.group(2)) for m in
            re.finditer(r"\{(?:\{([a-z]+)\})?([a-z]*)\}", text)]
    chains = [[Markable(ch, where[ch]) for ch in mentions] for _, mentions in spec]
    chain_of = {ch: c for c, (_, mentions) in enumerate(spec) for ch in mentions}
    sets = {c: SplitItem(tuple(chains[chain_of[ch]]) for ch in members)
            for c, (members, _) in enumerate(spec) if members}
    return split.build_clusters(chains, sets, keep_sets)


def scores(pair: ClusterPair, only_split: bool) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    out = {}
    for metric in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        scored = split.score(metric, pair)
        counts = (scored.split or metrics.Counts()) if only_split else scored.counts
        out[metric] = (counts.recall, counts.precision, counts.f1)
    coref, noncoref = split.score("blanc-coref", pair), split.score("blanc-noncoref", pair)
    if only_split:
        main = split.blanc(coref, noncoref)
        parts = [part.split for part, whole in ((coref, main.coref), (noncoref, main.noncoref))
                 if part.split is not None and (whole.recall_den or whole.precision_den)]
        out["blanc"] = tuple(sum((getattr(p, x) for p in parts), Fraction(0)) / len(parts)
                             for x in ("recall", "precision", "f1"))
    else:
        ua = CorefUDBlancCounts(coref.counts, noncoref.counts)
        out["blanc"] = (ua.recall, ua.precision, ua.f1)
    return out


def _suite():
    data = json.loads((CONFORMANCE / "ua-plural.json").read_text())
    for case in data["cases"]:
        name = case["id"].split("-", 1)[1].split("+")[0]
        mode = case["id"].split("+")[1] if "+" in case["id"] else "default"
        yield pytest.param(name, mode, case["expected"], id=case["id"])


@pytest.mark.parametrize("name, mode, expected", list(_suite()))
def test_plural_suite(name, mode, expected):
    keep = mode != "remove_split_antecedent"
    where = extents(name)
    pair = ClusterPair(build(CASES[name][0], where, keep), build(CASES[name][1], where, keep))
    got = scores(pair, only_split=mode == "only_split_antecedent")
    checked = 0
    for metric, components in expected.items():
        if metric == "conll":
            continue
        for component, value in components.items():
            mine = got[metric][("recall", "precision", "f1").index(component)]
            if value["exact"]:
                assert mine == Fraction(value["value"]), (metric, component)
            else:
                assert abs(float(mine) - float(value["value"])) < 1e-9, (metric, component)
            checked += 1
    assert checked == 18


def test_blanc_credits_a_set_only_where_the_walk_meets_it_first():
    """TC-PB-3, where the order matters. Key {h, {ae}}, response {h, {ace}}: the scorer walks
    the key cluster with h before the set, so the link (h, {ae}) would need the identical set
    in the response — it has {ace}: no credit. The other coreference links (a,b), (c,d) and
    the three of {f, g, {ac}} (whose set the response has identically) are found: 5 of 6."""
    where = extents("TC-PB-3")
    key = build(CASES["TC-PB-3"][0], where)
    h = Markable("h", where["h"])
    cluster = next(c for c in key if h in c)
    assert [type(i) for i in cluster] == [Markable, SplitItem]  # the scorer's walk order
    pair = ClusterPair(key, build(CASES["TC-PB-3"][1], where))
    coref = split.score("blanc-coref", pair).counts
    assert (coref.recall_num, coref.recall_den) == (5, 6)


def test_lea_carries_the_set_credit_along_the_walk():
    """LEA's running credit (the scorer's reading of §5.4.1): once the walk has passed an
    aligned set, the later links of the same walk step are credited δ too.

    Key {S, a, b} with S = {{c}, {d}}, response {S', a, b} with S' = {{c}, {x, y}}: LEA recall
    of the members δ = (1 + 0) / 2 = 1/2. Walked as [S, a, b] or [a, b, S] the links score
    2δ + 1 = 2 (the paper's C(2, 2) + δ·2); walked as [a, S, b], (a, b) is met after S and
    scores δ: 3δ = 3/2. The cluster's recall numerator is |K| · links / C(|K|, 2) = links;
    the singleton chain [c] adds 1 (the response has it alone), [d] nothing.
    """
    a, b, c, d, x, y = (Markable(n, (n, n)) for n in "abcdxy")
    key_set, response_set = SplitItem([(c,), (d,)]), SplitItem([(c,), (x, y)])
    delta = Fraction(1, 2)
    for walk, links in ((["S", a, b], 2 * delta + 1), ([a, b, "S"], 2 * delta + 1),
                        ([a, "S", b], 3 * delta)):
        key = [[key_set if i == "S" else i for i in walk], [c], [d]]
        response = [[response_set if i == "S" else i for i in walk], [c], [x, y]]
        lea = split.score("lea", ClusterPair(key, response)).counts
        assert lea.recall_num == links + 1, walk
        assert lea.recall_den == 3 + 1 + 1


# ---------------------------------------------------------------------------- example (12)
def _example(system: str) -> tuple[split.Clusters, split.Clusters]:
    """Paun et al. (2023), example (12): the key (§4.4) and the responses of systems A–D."""
    m = {n: Markable(n, (n, n)) for n in range(1, 16)}

    def chain(*ns: int) -> tuple[Markable, ...]:
        return tuple(m[n] for n in ns)

    k1, k2, k4, k5 = chain(1, 5), chain(2, 3, 4), chain(8, 11, 13), chain(9, 14)
    key = split.build_clusters(
        [list(k1), list(k2), list(chain(6, 7, 10)), list(k4), list(k5), [m[12]], [m[15]]],
        {2: SplitItem([k1, k2]), 5: SplitItem([k1, k2, k4]), 6: SplitItem([k1, k2, k4, k5])})
    r1, r2, r4, r5 = chain(1, 5), chain(2, 4), chain(8, 11), chain(9, 14)
    last = {"A": [r1, r2, r5], "B": [r1, r2, r4, r5], "C": [r1, r2, r4], "D": [r2, r4, r5]}[system]
    response = split.build_clusters(
        [list(r1), list(r2), list(chain(6, 7, 10, 12)), list(r4), list(r5), [m[15]]],
        {2: SplitItem([r1, r2]), 5: SplitItem(last)})
    return key, response


def _recall_delta(metric: str, system: str, key_members: int) -> Fraction:
    """Recall of the members of the key set with ``key_members`` members and its partner."""
    key, response = _example(system)
    sets = split.align_sets(metric, ClusterPair(key, response))
    assert sets is not None
    rows = sets.key_sets
    found = [c.recall for i, _, c in sets.pairs if len(rows[i].members) == key_members]
    return found[0] if found else Fraction(0)


@pytest.mark.parametrize("metric, system, members, delta", [
    # §5.1.2, B³: δ_A,3,3 = 2/3, δ_A,7,6 = 8/15, δ_B,7,6 = 2/3, δ_C,6,6 = 7/12, δ_D,7,6 = 7/15
    ("bcub", "A", 2, Fraction(2, 3)), ("bcub", "A", 4, Fraction(8, 15)),
    ("bcub", "B", 4, Fraction(2, 3)), ("bcub", "C", 3, Fraction(7, 12)),
    ("bcub", "D", 4, Fraction(7, 15)),
    # §5.2.2, MUC: Recall_MUC(K_3^s, R_A,3^s) = 2/3, (K_7^s, R_6^s) = 1/2 (A and D), 2/3 (B)
    ("muc", "A", 2, Fraction(2, 3)), ("muc", "A", 4, Fraction(1, 2)),
    ("muc", "B", 4, Fraction(2, 3)), ("muc", "D", 4, Fraction(1, 2)),
    # §5.3.2, CEAF: δ^M = 4/5, 3/5 (A), 4/5 (B), 3/4 (C, K_6), 3/5 (D);
    # δ^E = 9/10, 7/10 (A), 9/10 (B), 13/15 (C, K_6), 13/20 (D)
    ("ceafm", "A", 2, Fraction(4, 5)), ("ceafm", "A", 4, Fraction(3, 5)),
    ("ceafm", "B", 4, Fraction(4, 5)), ("ceafm", "C", 3, Fraction(3, 4)),
    ("ceafm", "D", 4, Fraction(3, 5)),
    ("ceafe", "A", 2, Fraction(9, 10)), ("ceafe", "A", 4, Fraction(7, 10)),
    ("ceafe", "B", 4, Fraction(9, 10)), ("ceafe", "C", 3, Fraction(13, 15)),
    ("ceafe", "D", 4, Fraction(13, 20)),
])
def test_the_papers_delta_terms(metric, system, members, delta):
    assert _recall_delta(metric, system, members) == delta


def test_system_c_aligns_with_k6_and_leaves_k7_unaligned():
    """§5.1.2: R_C,6 = {R1, R2, R4} aligns with K_6 = {K1, K2, K4}, so K_7 gets δ = 0."""
    for metric in ("bcub", "ceafm", "ceafe"):
        assert _recall_delta(metric, "C", 4) == 0
        assert _recall_delta(metric, "C", 3) > 0


# ---------------------------------------------------------------------------- without sets
def _plain(clusters: list[list[int]]) -> split.Clusters:
    return [[Markable(i, (i, i)) for i in c] for c in clusters]


def _standard_equal(key: list[list[int]], response: list[list[int]]) -> None:
    k, r = Partition.from_clusters(key), Partition.from_clusters(response)
    pair = ClusterPair(_plain(key), _plain(response))
    for metric in ("muc", "bcub", "ceafm", "ceafe", "lea"):
        assert split.score(metric, pair).counts == getattr(metrics, metric)(k, r), metric
    coref, noncoref = split.score("blanc-coref", pair), split.score("blanc-noncoref", pair)
    assert split.blanc(coref, noncoref) == metrics.blanc(k, r)


@pytest.mark.parametrize("name", sorted(CASES))
def test_without_sets_the_generalized_metrics_are_the_standard_ones(name):
    letters = {ch: i for i, ch in enumerate("abcdefgh")}

    def plain(text: str) -> list[list[int]]:
        groups = re.findall(r"\{(?:\{[a-z]+\})?([a-z]*)\}", text)
        return [[letters[ch] for ch in group] for group in groups if group]

    _standard_equal(plain(CASES[name][0]), plain(CASES[name][1]))


@settings(max_examples=300, deadline=None)
@given(partitions(max_mentions=10))
def test_generalized_metrics_equal_the_standard_ones_without_sets(pair):
    """Property: with no accommodated set and no repeated mention on either side, every
    generalized metric returns exactly the standard metric's counts (§4.3)."""
    _standard_equal(*pair)


def test_lea_split_importance_weighs_entities_with_sets():
    where = extents("TC-PA-6")
    pair = ClusterPair(build(CASES["TC-PA-6"][0], where), build(CASES["TC-PA-6"][1], where))
    plain = split.score("lea", pair).counts
    heavy = split.score("lea", pair, importance=2).counts
    assert heavy.recall_den == plain.recall_den + 3  # the plural entity {f, g, set} counts twice
    assert heavy.recall != plain.recall


def test_repeated_markables_are_looked_up_in_the_later_cluster():
    """The UA scorer keeps a markable repeated in two entities in both; every lookup finds
    the later one (its dictionary keeps the last assignment)."""
    a, b, c = (Markable(n, (n, n)) for n in range(3))
    pair = ClusterPair([[a, b], [c]], [[a, b], [a, c]])
    assert pair.response_at[a] == 1
    bcub = split.score("bcub", pair).counts
    # recall: {a,b}: a found in {a,c}, b in {a,b} → 1²/2 + 1²/2; {c}: 1 → 2 of 3
    assert (bcub.recall_num, bcub.recall_den) == (2, 3)
