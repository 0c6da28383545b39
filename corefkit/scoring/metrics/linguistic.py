"""Linguistically aware MUC, B³, CEAFm and CEAFe (Chen & Ng 2013): ``lmuc``, ``lbcub``, ``lceafm``,
``lceafe``.

Chen & Ng (2013, §2.5) write MUC, B³ and both CEAFs with three weight functions over sets of
mentions: w_c for the mentions a key entity K_i and a response entity R_j have in common, w_k
for a key entity and w_s for a response ("system") entity. Their linguistically aware versions
(§3) weigh *links* by the types of the mentions they join, so that resolving a pronoun to a
name counts for more or less than resolving two nominals:

* link weight, the first rule that applies (§3): the link involves a name → w_nam; else it
  involves a nominal → w_nom; else → w_pro (pronouns, and here also zeros and mentions of
  type "other");
* w_c^L(K_i ∩ R_j) and w_k^L(K_i) are the weights of maximum spanning trees over those mentions
  (§3, eq. 8–11): a set of n mentions needs n − 1 links, and the MST takes the most valuable
  ones, whatever links a system happened to output;
* w_s^L(R_j) counts only *spurious* links as precision errors (§3.4): R_j falls into
  parts, its mentions of each key entity (and each mention the key lacks, alone); the links
  inside a part are correct even when they are not the ones an MST of R_j would take
  ("suboptimal but correct links are not precision errors"), so each part weighs its own MST,
  and the t − 1 spurious links that join the t parts are counted with the largest total weight:
  the maximum spanning tree of the graph whose nodes are the parts and whose edge between two
  parts is their heaviest link;
* a singleton entity has no link; it weighs w_sing (§3.1). w_c^L(K_i ∩ R_j) is w_sing only when
  K_i, R_j and their intersection are all the one mention (eq. 8: a singleton *found*); a
  mention that is a singleton on one side only gets 0. Weight vectors W = (w_nam, w_nom,
  w_pro, w_sing) are those of §4.1; the default is W4 = (1.0, 0.75, 0.5, 1.0).

With these, for key entities K_i, response entities R_j and c_ij = w_c^L(K_i ∩ R_j):

* lmuc:   R = Σ_ij c_ij / Σ_i w_k(K_i),                P = Σ_ij c_ij / Σ_j w_s(R_j)
* lbcub:  R = Σ_ij n_ij · c_ij / w_k(K_i) / Σ_i |K_i|,   P = Σ_ij n_ij · c_ij / w_s(R_j) / Σ_j |R_j|
          (n_ij = |K_i ∩ R_j|: B³'s mean over mentions of eq. (5), R(m) = w_c / w_k)
* lceafm: φ3(K_i, R_j) = c_ij, the optimal one-to-one alignment g*;
          R = Σ φ3(K_i, R_g*(i)) / Σ_i w_k(K_i),       P = the same / Σ_j w_s(R_j)
* lceafe: φ4(K_i, R_j) = 2 c_ij / (w_k(K_i) + w_s(R_j)); R = Σ φ4 / |K|, P = Σ φ4 / |R|.

**w_sing = 0.** The paper avoids dividing by zero with w_sing = 1e-20 (§4.1, note 8); corefkit
takes the limit w_sing → 0⁺ exactly, term by term, which is what that trick computes up to
rounding: lbcub's R(m) and P(m) of a singleton found are w_sing / w_sing = 1 (so lbcub does not
depend on w_sing, as §4.2 observes), CEAFe's φ4 of two singleton entities that are the same
mention is 1 (2w_sing / 2w_sing) and every entity still counts once in |K| and |R| — so
lceafe does not depend on w_sing either —; lmuc and lceafm never divide. Only a ratio whose
whole denominator is 0 (a key or response without a single link and w_sing = 0) is 0, as
every metric here reports 0/0; the 1e-20 trick would give the share of singletons found
there. Link weights must be positive: a zero link weight would make whole entities
weightless and φ4 undefined.

Checked on the paper's own example (§4.1, Figure 1, responses (a)–(e)): every value of
Table 1, O-metrics and L-metrics under W4 (tests/scoring/test_linguistic.py).

**Identities** (tested in tests/scoring/test_linguistic.py): with W = (1, 1, 1, 0), lmuc *is*
MUC, counts included, because an MST of n mentions then weighs n − 1 and singletons weigh
nothing. lbcub, lceafm and lceafe have no such identity: they weigh links where B³ and CEAF
count mentions (an entity of n mentions weighs n − 1 links, not n). For all four: a perfect
response scores 1; scaling all four weights by c > 0 changes nothing; with equal link weights
every spanning tree weighs the same, so the asymmetric w_s(R) equals w_k(R) and precision is
recall with key and response swapped — with unequal weights it is not; lceafe does not depend
on w_sing; and with W = (1, 1, 1, w) lmuc is MUC plus w for every singleton entity (key side
in the recall denominator, response side in the precision denominator, both sides in the
numerators).

A mention's type is the key's label where the key has the mention (the gold annotation
decides) and the response's label for mentions only the response has
(:mod:`corefkit.analysis.mention_types`). All sums are exact fractions.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from corefkit.errors import UsageError
from corefkit.model import Document, Mention
from corefkit.scoring.align import AlignedDocument, Labeler
from corefkit.scoring.metrics.labelled import LabelledMetric, register_labelled_metric
from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.partition import Contingency

# Link categories: what the first-rule-that-applies weighting distinguishes.
NAM, NOM, REST = 0, 1, 2
CATEGORY = {"name": NAM, "nominal": NOM}   # pronoun, zero, other → REST (w_pro)
METRIC_NAMES = ("lmuc", "lbcub", "lceafm", "lceafe")


@dataclass(frozen=True)
class LinkWeights:
    """W = (w_nam, w_nom, w_pro, w_sing) of Chen & Ng (2013, §4), exact."""

    name: Fraction
    nominal: Fraction
    pronoun: Fraction
    singleton: Fraction

    def link(self, a: int, b: int) -> Fraction:
        """The weight of a link between mentions of categories a and b (§3: the first rule
        that applies — a name is involved, else a nominal, else neither)."""
        if a == NAM or b == NAM:
            return self.name
        if a == NOM or b == NOM:
            return self.nominal
        return self.pronoun

    def __str__(self) -> str:
        return ",".join(_fraction_text(v) for v in
                        (self.name, self.nominal, self.pronoun, self.singleton))


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


# W4 of the paper: the default.
W4 = LinkWeights(Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1))


def parse_weights(value: Any) -> LinkWeights:
    """``"1,0.75,0.5,1"`` (NAM,NOM,PRO,SING; decimals or fractions such as ``3/4``), a sequence
    of four numbers, or a :class:`LinkWeights`; anything else is a UsageError."""
    if isinstance(value, LinkWeights):
        return value
    if value is None:
        return W4
    items: Sequence[Any]
    if isinstance(value, str):
        items = [v.strip() for v in value.split(",")]
    elif isinstance(value, Sequence):
        items = list(value)
    else:
        raise UsageError(f"link weights must be NAM,NOM,PRO,SING, got {value!r}")
    if len(items) != 4:
        raise UsageError(f"--lweights takes four numbers NAM,NOM,PRO,SING (e.g. 1,0.75,0.5,1), "
                         f"got {len(items)}: {value!r}")
    numbers = []
    for label, item in zip(("NAM", "NOM", "PRO", "SING"), items):
        try:
            number = Fraction(item) if not isinstance(item, float) else Fraction(str(item))
        except (ValueError, ZeroDivisionError, TypeError):
            raise UsageError(f"--lweights: {label} must be a number, got {item!r}") from None
        if number < 0:
            raise UsageError(f"--lweights: {label} must not be negative, got {item}")
        numbers.append(number)
    if min(numbers[:3]) == 0:
        raise UsageError("--lweights: link weights (NAM, NOM, PRO) must be positive; a zero link "
                         "weight makes whole entities weightless (use a small positive weight). "
                         "SING may be 0: singletons then carry no weight")
    return LinkWeights(*numbers)


def lweights_request(metrics: str | Sequence[str] | None, lweights: str,
                     metric_options: dict[str, dict[str, Any]] | None = None
                     ) -> dict[str, dict[str, Any]]:
    """The ``metric_options`` of ``score()`` for ``--lweights``: the weights for each of the four
    metrics; a UsageError when none of them is asked for (the option would do nothing)."""
    weights = parse_weights(lweights)
    names = metrics.split(",") if isinstance(metrics, str) else list(metrics or ())
    if not {n.strip().lower() for n in names} & set(METRIC_NAMES):
        raise UsageError("--lweights sets the weights of lmuc, lbcub, lceafm and lceafe; ask for "
                         "them with -m (e.g. -m muc,lmuc,lbcub,lceafm,lceafe)")
    options = {name: dict(value) for name, value in (metric_options or {}).items()}
    for name in METRIC_NAMES:
        options.setdefault(name, {})["weights"] = weights
    return options


# ============================================================================ spanning trees
@functools.lru_cache(maxsize=65536)
def tree_weight(counts: tuple[int, ...], matrix: tuple[tuple[Fraction, ...], ...]) -> Fraction:
    """Weight of a maximum spanning tree of the complete graph on Σ counts nodes, ``counts[c]``
    of them of class c, where an edge between classes c and d weighs ``matrix[c][d]``.

    Nodes of one class are interchangeable, so every node needs an edge only to one
    representative of each class: at every weight threshold that sparse graph connects the
    same nodes as the complete one, hence (Kruskal) has a maximum spanning tree of the same
    weight — with O(n) edges instead of O(n²). The tree itself comes from networkx.
    """
    total = sum(counts)
    if total < 2:
        return Fraction(0)
    import networkx as nx

    graph = nx.Graph()
    present = [c for c, n in enumerate(counts) if n]
    for c in present:
        for k in range(counts[c]):
            graph.add_node((c, k))
            for d in present:
                if (c, k) != (d, 0):
                    graph.add_edge((c, k), (d, 0), weight=matrix[c][d])
    tree = nx.maximum_spanning_tree(graph, weight="weight")
    return sum((data["weight"] for _, _, data in tree.edges(data=True)), Fraction(0))


def _link_matrix(weights: LinkWeights) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(weights.link(a, b) for b in (NAM, NOM, REST)) for a in (NAM, NOM, REST))


# Part signatures: the set of categories a part of a response entity contains (7 of them).
SIGNATURES = tuple(frozenset(c for c in (NAM, NOM, REST) if mask >> c & 1) for mask in range(1, 8))
SIGNATURE_INDEX = {s: i for i, s in enumerate(SIGNATURES)}


def _part_matrix(weights: LinkWeights) -> tuple[tuple[Fraction, ...], ...]:
    """Between two parts the heaviest link joins them (§3.4): the best pair of categories."""
    return tuple(tuple(max(weights.link(a, b) for a in s for b in t) for t in SIGNATURES)
                 for s in SIGNATURES)


# ============================================================================ one document
@dataclass
class _Weighted:
    """The weights of one aligned document under one weight vector."""

    key_weight: list[Fraction]                  # w_k^L(K_i)
    response_weight: list[Fraction]             # w_s^L(R_j), asymmetric
    common: dict[tuple[int, int], Fraction]     # w_c^L(K_i ∩ R_j) for non-empty intersections
    key_sizes: list[int]
    response_sizes: list[int]
    common_sizes: dict[tuple[int, int], int]    # |K_i ∩ R_j| (mentions) for the same cells


def _categories(aligned: AlignedDocument, name: str) -> dict[int, int]:
    """Each aligned mention's link category: the key's label where the key has the mention."""
    found: dict[int, int] = {}
    for labels in (aligned.response_labels, aligned.key_labels):  # key overrides response
        for index, label in labels.items():
            kind = label.get(name) if isinstance(label, dict) else label
            found[index] = CATEGORY.get(kind, REST) if isinstance(kind, str) else REST
    return found


def weigh(aligned: AlignedDocument, weights: LinkWeights, name: str = "lmuc") -> _Weighted:
    """w_k, w_s and w_c of one aligned document (labels read under metric ``name``)."""
    category = _categories(aligned, name)
    links = _link_matrix(weights)
    parts_matrix = _part_matrix(weights)
    single = weights.singleton
    key_of = dict(zip(aligned.key.mentions, aligned.key.entities))
    key_counts = [[0, 0, 0] for _ in range(aligned.key.n_entities)]
    for index, k in key_of.items():
        key_counts[k][category.get(index, REST)] += 1
    key_sizes = [sum(c) for c in key_counts]
    key_weight = [tree_weight(tuple(c), links) + (single if sum(c) == 1 else 0)
                  for c in key_counts]

    cells: dict[tuple[int, int], list[int]] = {}
    twinless: list[list[int]] = [[] for _ in range(aligned.response.n_entities)]
    for index, r in zip(aligned.response.mentions, aligned.response.entities):
        owner = key_of.get(index)
        if owner is None:
            twinless[r].append(category.get(index, REST))
        else:
            cells.setdefault((owner, r), [0, 0, 0])[category.get(index, REST)] += 1
    response_sizes = [len(t) for t in twinless]
    cell_tree: dict[tuple[int, int], Fraction] = {}
    signatures: list[list[int]] = [[0] * len(SIGNATURES) for _ in twinless]
    correct: list[Fraction] = [Fraction(0)] * len(twinless)
    for (k, r), c in cells.items():
        response_sizes[r] += sum(c)
        cell_tree[(k, r)] = tree_weight(tuple(c), links)
        correct[r] += cell_tree[(k, r)]
        signatures[r][SIGNATURE_INDEX[frozenset(i for i in (NAM, NOM, REST) if c[i])]] += 1
    for r, found in enumerate(twinless):
        for kind in found:  # each mention the key lacks is a part of its own
            signatures[r][SIGNATURE_INDEX[frozenset((kind,))]] += 1
    # eq. (10)-(11): the correct parts' own trees plus the heaviest spurious links joining them
    response_weight = [correct[r] + tree_weight(tuple(signatures[r]), parts_matrix)
                       + (single if response_sizes[r] == 1 else 0)
                       for r in range(len(twinless))]
    common = {(k, r): tree + (single if key_sizes[k] == 1 and response_sizes[r] == 1 else 0)
              for (k, r), tree in cell_tree.items()}
    return _Weighted(key_weight, response_weight, common, key_sizes, response_sizes,
                     {cell: sum(c) for cell, c in cells.items()})


_last: list[Any] = [None, None, None]   # (aligned weakref, settings, result): the four share it


def _weighted(aligned: AlignedDocument, weights: LinkWeights, name: str,
              table: Any = None) -> _Weighted:
    """:func:`weigh`, computed once per aligned document for all four metrics of a run."""
    ref, settings, result = _last
    if ref is not None and ref() is aligned and settings == (weights, table):
        return result
    result = weigh(aligned, weights, name)
    _last[:] = [weakref.ref(aligned), (weights, table), result]
    return result


# ============================================================================ the metrics
def lmuc_counts(w: _Weighted) -> Counts:
    """MUC^L: Σ c_ij over Σ w_k (recall) and Σ w_s (precision) — MUC's links, weighted."""
    correct = sum(w.common.values(), Fraction(0))
    return Counts(correct, sum(w.key_weight, Fraction(0)), correct,
                  sum(w.response_weight, Fraction(0)))


def lbcub_counts(w: _Weighted) -> Counts:
    """B³^L (§2.3 eq. 5 with §3's weights): the mean over the key's mentions of
    R(m) = w_c(C_ij) / w_k(K_i), and over the response's of P(m) = w_c(C_ij) / w_s(R_j),
    where C_ij is the part of m's key and response entities that holds m — so a cell of
    n mentions adds n · w_c / w to the numerator, and the denominators count mentions.

    A correctly found singleton gives 1 whatever w_sing (w_c = w_k = w_s = w_sing; also in
    the limit w_sing → 0), a wrong singleton 0 (§4.2: LB³ does not depend on w_sing).
    """
    recall = precision = Fraction(0)
    for (k, r), c in w.common.items():
        n = w.common_sizes[(k, r)]
        if w.key_sizes[k] == 1 and w.response_sizes[r] == 1:
            recall += 1
            precision += 1
        elif c:
            recall += n * c / w.key_weight[k]
            precision += n * c / w.response_weight[r]
    return Counts(recall, sum(w.key_sizes), precision, sum(w.response_sizes))


def _phi4(w: _Weighted, k: int, r: int) -> Fraction:
    den = w.key_weight[k] + w.response_weight[r]
    if den == 0:
        # both are singleton entities of the same mention and w_sing = 0: the limit of
        # 2·w_sing / (w_sing + w_sing) as w_sing → 0 is 1 (what the paper's 1e-20 computes)
        return Fraction(1)
    return 2 * w.common[(k, r)] / den


def lceafm_counts(w: _Weighted, table: Contingency) -> Counts:
    """CEAFm^L: φ3 = c_ij under the optimal alignment, over Σ w_k and Σ w_s."""
    total = _best_alignment(w, table, lambda k, r: w.common[(k, r)])
    return Counts(total, sum(w.key_weight, Fraction(0)), total,
                  sum(w.response_weight, Fraction(0)))


def lceafe_counts(w: _Weighted, table: Contingency) -> Counts:
    """CEAFe^L: φ4 = 2 c_ij / (w_k + w_s) under the optimal alignment, over |K| and |R|."""
    total = _best_alignment(w, table, lambda k, r: _phi4(w, k, r))
    return Counts(total, len(w.key_weight), total, len(w.response_weight))


def _best_alignment(w: _Weighted, table: Contingency, phi: Any) -> Fraction:
    """Σ φ over the optimal one-to-one alignment of key and response entities.

    Entities that share no mention have φ = 0, so each connected component of the overlap
    graph is solved alone: one entity on a side takes its best pair; otherwise
    ``scipy.optimize.linear_sum_assignment`` on integers (the exact φ scaled by the common
    denominator) when that stays below 2**40, else on floats; the chosen φ are summed exactly.
    """
    pair_key = table.pair_key
    pair_response = table.pair_response
    total = Fraction(0)
    for group in table.components:
        value = {i: phi(pair_key[i], pair_response[i]) for i in group}
        rows = {pair_key[i] for i in group}
        cols = {pair_response[i] for i in group}
        if len(rows) == 1 or len(cols) == 1:
            total += max(value.values())
            continue
        total += sum((value[i] for i in _assign(group, rows, cols, pair_key, pair_response, value)),
                     Fraction(0))
    return total


def _assign(group: list[int], rows: set[int], cols: set[int], pair_key: list[int],
            pair_response: list[int], value: dict[int, Fraction]) -> list[int]:
    import math

    import numpy as np

    from corefkit.scoring.assignment import linear_assignment

    scale = 1
    for v in value.values():
        scale = scale * v.denominator // math.gcd(scale, v.denominator)
        if scale > 2**40:
            break
    exact = scale <= 2**40
    row_index = {k: n for n, k in enumerate(sorted(rows))}
    col_index = {r: n for n, r in enumerate(sorted(cols))}
    matrix = np.zeros((len(row_index), len(col_index)), dtype=np.float64)
    at: dict[tuple[int, int], int] = {}
    for i in group:
        cell = (row_index[pair_key[i]], col_index[pair_response[i]])
        matrix[cell] = float(value[i] * scale) if exact else float(value[i])
        at[cell] = i
    chosen_rows, chosen_cols = linear_assignment(matrix, maximize=True)
    return [at[cell] for cell in zip(chosen_rows, chosen_cols) if cell in at]


# ============================================================================ registration
_typers: list[Any] = [None, None, None]   # (document weakref, table, typer): shared by the four


def _labeler(options: dict[str, Any]) -> Labeler:
    from corefkit.analysis.mention_types import MentionTyper, load_type_table

    table = load_type_table(options.get("table"))

    def label(doc: Document, mention: Mention) -> str:
        ref, cached_table, typer = _typers
        if ref is None or ref() is not doc or cached_table is not table:
            typer = MentionTyper(doc, table)
            _typers[:] = [weakref.ref(doc), table, typer]
        return typer(mention).type

    return label


def _compute(name: str) -> Any:
    def compute(aligned: AlignedDocument, table: Contingency, options: dict[str, Any]) -> Counts:
        w = _weighted(aligned, parse_weights(options.get("weights")), name, options.get("table"))
        if name == "lmuc":
            return lmuc_counts(w)
        if name == "lbcub":
            return lbcub_counts(w)
        if name == "lceafm":
            return lceafm_counts(w, table)
        return lceafe_counts(w, table)

    return compute


DESCRIPTIONS = {
    "lmuc": "linguistically aware MUC (Chen & Ng 2013): links weighted by mention type",
    "lbcub": "linguistically aware B³ (Chen & Ng 2013)",
    "lceafm": "linguistically aware mention-based CEAF (Chen & Ng 2013)",
    "lceafe": "linguistically aware entity-based CEAF (Chen & Ng 2013)",
}

for _name in METRIC_NAMES:
    register_labelled_metric(LabelledMetric(_name, DESCRIPTIONS[_name], _labeler, _compute(_name),
                                            {"weights": W4, "table": None}))
