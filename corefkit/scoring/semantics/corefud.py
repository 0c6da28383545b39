"""Mention matching for CoNLL-U (CorefUD) keys and responses, as the CorefUD scorer 1.2 does it.

The CorefUD scorer (ufal/corefud-scorer 1.2; Novák et al., CRAC 2022–2024 shared tasks)
identifies a mention by the positions of its nodes — a word by its position in the document,
an empty node ``N.K`` by (word N, K), so that a response whose empty nodes differ from the
key's still lines up — and aligns key and response mentions one to one:

* ``exact``: the same set of nodes;
* ``partial``: the key mention contains every node of the response mention and the key head
  is among them; the score |K ∩ R| / |K| ranks candidates;
* ``head``: the same head node (and, for an exact match, also the same nodes); the overlap
  ratio |K ∩ R| / |K| breaks ties between candidates that share the head.

Candidates that are not identical are assigned with the Hungarian algorithm on those ratios
(``scipy.optimize.linear_sum_assignment``'s algorithm, :mod:`corefkit.scoring.assignment`, on
the same matrices, rows and columns ordered by
(first node, last node, length) as the scorer orders them, so ties are broken the same way).
Zero mentions (whose head is an empty node) are matched either by position like any other
mention (``linear``) or, when the empty nodes of the response need not coincide with the
key's (``dependent``), by an assignment on the agreement of their enhanced dependencies:
10 × F1 of the (parent, relation) pairs plus F1 of the parents, within one sentence.

The alignment becomes a shared index space, so the standard metrics run unchanged on
:class:`~corefkit.scoring.partition.Partition` objects. Two more metrics are defined here:
``mor``, the mention overlap ratio of the CRAC 2022 findings (token overlap under the best
one-to-one pairing of overlapping mentions, independent of the matching method), and
``zero``, the anaphor-decomposable score restricted to zero anaphors (CorefUD scorer
``als_zeros``).

Repeated mentions are kept as the scorer keeps them: a mention whose nodes occur in two
entities stays in both, and every lookup finds the later entity in udapi's order (by first
mention, then eid as a string; :func:`kept_repeats`). One deliberate difference, not met by
its test suites: in ``dependent`` mode zeros take part only in the dependency assignment (the
scorer's shared lookup table can also pair a zero through its exact twin when the assignment
chose another).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from corefkit.errors import FormatError, Repair, counted
from corefkit.model import IDENTITY, Document
from corefkit.scoring.align import AlignedDocument, Alignment, Labeler, note
from corefkit.scoring.assignment import linear_assignment
from corefkit.scoring.metrics.standard import (
    BlancCounts,
    CorefUDBlancCounts,
    Counts,
)
from corefkit.scoring.partition import Partition
from corefkit.scoring.profiles import profile_settings

MATCHES = ("exact", "partial", "head", "craft")
ZERO_MATCHES = ("linear", "dependent")

Position = tuple[int, int]  # (word number in the document, empty node K; 0 for words)
Parent = tuple[int, int, int]  # an enhanced-dependency parent: (sentence, word N, K)


@dataclass(unsafe_hash=True, slots=True)
class UDMention:
    """A mention as the CorefUD scorer sees it: node positions, head, zero flag, and the
    sentence and enhanced dependencies of the head (for matching zeros by dependencies).

    Treated as a value (hashed, never changed after it is made); not declared frozen because a
    frozen dataclass sets each field through ``object.__setattr__``, which made building the
    mentions of a GUM-sized corpus five times slower (0.085 s against 0.017 s for 48,000)."""

    words: tuple[Position, ...]                   # sorted
    head: Position
    zero: bool
    deps: tuple[tuple[Parent, str], ...] = ()
    sentence: int = 0
    label: Any = field(default=None, compare=False, hash=False)  # see align.Labeler
    # The nodes a partial match must contain; None means {head} (CorefUD). UA markables use
    # their Min span, and a markable without Min cannot be matched partially (empty set).
    core: frozenset[Position] | None = field(default=None, compare=False, hash=False)
    # Contiguous runs of the mention (first, last); CRAFT matching looks at them.
    parts: tuple[tuple[Position, Position], ...] = field(default=(), compare=False, hash=False)

    @property
    def order(self) -> tuple[Position, Position, int]:
        """The scorer's mention order: first node, last node, number of nodes."""
        return (self.words[0], self.words[-1], len(self.words))


@dataclass
class UDDocument:
    """What CorefUD scoring needs of one document."""

    name: str
    pair_key: tuple[str, str]
    clusters: list[list[UDMention]]
    sentences: list[tuple[str | None, tuple[str, ...], int | None]]  # sent_id, word forms, line
    file: str | None = None
    removed_zeros: int = 0
    removed_singletons: int = 0
    conllu: bool = True       # read from CoNLL-U: sentences and word forms are compared


@dataclass
class CorefUDAlignment(Alignment):
    """An aligned document plus the counts of the metrics defined on mentions (mor, zero).

    ``key_index`` / ``response_index`` give the shared index of every mention by its
    identity (for scorers that relate other annotation, e.g. split antecedents, to it).
    """

    key_index: dict[Any, int] = field(default_factory=dict)
    response_index: dict[Any, int] = field(default_factory=dict)


# ============================================================================ reduction
def positions(doc: Document) -> list[Position]:
    """The position of every token: (number of the word in the document, 0) for words,
    (number of the word it follows, K) for an empty node ``N.K``.

    Words are counted through the document, so key and response agree whenever they hold the
    same words, whatever their formats and sentence breaks (GUM's CoNLL-2012 export has none);
    an empty node keeps its K from its CoNLL-U id, so that it is not shifted when the other
    side lacks an earlier one.
    """
    found: list[Position] = []
    word = 0
    for sentence in doc.sentences:
        empty = 0
        tokens = doc.tokens
        for index in range(sentence.start, sentence.stop):
            token = tokens[index]
            if token.is_empty:
                empty += 1
                tid = token.id
                k = empty
                if tid and "." in tid:
                    tail = tid.partition(".")[2]
                    if tail.isdecimal():
                        k = int(tail)
                found.append((word, k))
            else:
                word += 1
                empty = 0
                found.append((word, 0))
    while len(found) < doc.token_count:  # tokens outside any sentence (should not happen)
        word += 1
        found.append((word, 0))
    return found


def _deps(value: str | None, sentence: int) -> tuple[tuple[Parent, str], ...]:
    if not value or value == "_":
        return ()
    found = []
    for item in value.split("|"):
        parent, sep, relation = item.partition(":")
        if not sep:
            continue
        n, _, k = parent.partition(".")
        if n.isdecimal() and (not k or k.isdecimal()):
            found.append(((sentence, int(n), int(k or 0)), relation))
    return tuple(found)


def ud_document(doc: Document, *, match: str = "exact", keep_zeros: bool = True,
                remove_singletons: bool = False, labeler: Labeler | None = None) -> UDDocument:
    """Reduce a document to its identity chains as :class:`UDMention` lists.

    As the scorer's reader: a mention without a head takes its first node (udapi's default);
    a chain keeps one copy of mentions with the same identity (nodes, plus head under head
    matching); singletons are removed first, then zero mentions when ``keep_zeros`` is off.
    """
    pos = positions(doc)
    tokens = doc.tokens
    head_mode = match == "head"
    clusters: list[list[UDMention]] = []
    removed_singletons = removed_zeros = 0
    chains = {entity: doc.mentions_of(entity) for entity in doc.entities_in(IDENTITY)}
    for entity in _udapi_order(chains, pos):
        cluster: list[UDMention] = []
        seen: set = set()
        for mention in chains[entity]:
            if not mention.tokens:
                continue
            head = mention.head if mention.head is not None and mention.head in mention.tokens \
                else mention.tokens[0]
            words = tuple(sorted([pos[t] for t in mention.tokens]))
            head_token = tokens[head]
            sentence = head_token.sentence
            item = UDMention(words, pos[head], head_token.is_empty,
                             _deps(head_token.deps, sentence) if head_token.is_empty else (),
                             sentence, labeler(doc, mention) if labeler else None)
            identity = (words, item.head) if head_mode else words
            if identity in seen:
                continue
            seen.add(identity)
            cluster.append(item)
        if not cluster:
            continue
        if remove_singletons and len(cluster) == 1:
            removed_singletons += 1
            continue
        if not keep_zeros:
            kept = [m for m in cluster if not m.zero]
            removed_zeros += len(cluster) - len(kept)
            cluster = kept
            if not cluster:
                continue
        clusters.append(cluster)
    sentences = []
    for part in doc.sentences:
        forms = tuple([t.form for t in tokens[part.start:part.stop] if not t.is_empty])
        sentences.append((part.sent_id, forms, part.attrs.get("line")))
    return UDDocument(doc.name, doc.pair_key(), clusters, sentences, doc.file,
                      removed_zeros, removed_singletons, bool(doc.attrs.get("conllu")))


def _udapi_order(chains: dict[Any, list[Any]], pos: list[Position]) -> list[Any]:
    """The identity entities (``chains``: entity -> its mentions) in the order udapi gives them
    to the scorer: by first mention — its first node, longer first, its last node — then by eid
    as a string (udapi's ``CorefEntity.__lt__``). The order decides which entity a repeated
    mention is looked up in (the later one)."""
    def key(entity: Any) -> tuple:
        mentions = [m for m in chains[entity] if m.tokens]
        if not mentions:
            return ((-1, 0), 0, (-1, 0), str(entity.attrs.get("original_id", entity.id)))
        first = min(mentions, key=lambda m: (pos[m.tokens[0]], -len(m.tokens), pos[m.tokens[-1]]))
        return (pos[first.tokens[0]], -len(first.tokens), pos[first.tokens[-1]],
                str(entity.attrs.get("original_id", entity.id)))

    return sorted(chains, key=key)


def check_alignment(key: UDDocument, response: UDDocument) -> None:
    """Raise :class:`FormatError` where key and response do not split their words into the
    same sentences (CoNLL-U: the same sentence ids): the CorefUD scorer pairs mentions by
    (sentence, word). Word forms were compared before, in every format pair
    (:mod:`corefkit.scoring.tokens`); empty nodes are not compared (a system may predict them).

    Documents not read from CoNLL-U are compared by their number of words only. Under
    ``--lenient`` a response with other words reaches this point; it is scored by position as
    long as the positions exist on both sides.
    """
    where = f"document {key.name!r}"
    if not (key.conllu and response.conllu):
        key_words = sum(len(forms) for _, forms, _ in key.sentences)
        response_words = sum(len(forms) for _, forms, _ in response.sentences)
        if key_words != response_words:
            raise FormatError(
                f"the response's words differ from the key's: {where} has "
                f"{counted(key_words, 'word')} in the key but {response_words} in the response; CorefUD scoring pairs mentions "
                "by word position and cannot score it, even with --lenient",
                file=response.file, check="pair.tokens")
        return
    if len(key.sentences) != len(response.sentences):
        raise FormatError(
            f"key and response have different sentences: {where} has {len(key.sentences)} "
            f"sentences in the key but {len(response.sentences)} in the response; both files "
            "must hold the same sentences and words", file=response.file,
            check="pair.sentences")
    for n, ((kid, kforms, kline), (rid, rforms, rline)) in enumerate(
            zip(key.sentences, response.sentences), 1):
        if kid is not None and rid is not None and kid != rid:
            raise FormatError(
                f"key and response have different sentences: sentence {n} of {where} has "
                f"sent_id {kid!r} in the key but {rid!r} in the response",
                file=response.file, line=rline, check="pair.sentences")
        if len(kforms) != len(rforms):
            label = f"sentence {n}" + (f" ({kid})" if kid else "")
            in_key = f" (key {key.file}:{kline})" if kline is not None else ""
            raise FormatError(
                f"key and response have different sentences: {label} of {where} has "
                f"{counted(len(kforms), 'word')} in the key but {len(rforms)} in the "
                f"response{in_key}",
                file=response.file, line=rline, check="pair.sentences")


# ============================================================================ alignment
def _sort_order(mentions: Sequence[UDMention]) -> list[int]:
    return sorted(range(len(mentions)), key=lambda i: mentions[i].order)


def _f_score(a: set, b: set) -> float:
    # the scorer's _f_score, in the same float arithmetic: p over the key side, r over the other
    if not a or not b:
        return 0.0
    common = len(a & b)
    p = common / len(a)
    r = common / len(b)
    return 2 * p * r / (p + r) if p > 0 and r > 0 else 0.0


def zero_dependency_score(key: UDMention, response: UDMention) -> float:
    """10 × F1 of the (parent, relation) pairs + F1 of the parents; 0 across sentences."""
    if key.sentence != response.sentence:
        return 0.0
    score = 10 * _f_score(set(key.deps), set(response.deps))
    score += _f_score({p for p, _ in key.deps}, {p for p, _ in response.deps})
    return score


def _partial_score(key: UDMention, response: UDMention) -> float:
    k = set(key.words)
    r = set(response.words)
    core = key.core if key.core is not None else {key.head}
    if core and core <= r and r <= k:
        return len(k & r) * 1.0 / len(k)
    return 0.0


def _craft_score(key: UDMention, response: UDMention) -> float:
    """CRAFT 2019 partial matching (Baumgartner et al. 2019), as the UA scorer defines it: a
    response part lying within the key's first part makes a match, ranked by |K ∩ R| / |K|."""
    if not key.parts:
        return 0.0
    first, last = key.parts[0]
    for start, end in response.parts or ((response.words[0], response.words[-1]),):
        if start >= first and end <= last:
            return len(set(key.words) & set(response.words)) * 1.0 / len(key.words)
    return 0.0


def _head_score(key: UDMention, response: UDMention) -> float:
    if key.head == response.head:
        return len(set(key.words) & set(response.words)) * 1.0 / len(key.words)
    return 0.0


def _assign(keys: list[UDMention], responses: list[UDMention], score) -> list[tuple[int, int]]:
    """Optimal one-to-one pairs (indices into the given lists) with a positive score."""
    if not keys or not responses:
        return []
    rows = _sort_order(keys)
    cols = _sort_order(responses)
    similarity = [[score(keys[ki], responses[rj]) for rj in cols] for ki in rows]
    chosen_rows, chosen_cols = linear_assignment([[-v for v in row] for row in similarity])
    return [(rows[i], cols[j]) for i, j in zip(chosen_rows, chosen_cols)
            if similarity[i][j] > 0]


def _flatten(clusters: list[list[UDMention]], identity, keep: str) -> tuple[
        list[UDMention], list[int], int]:
    """All mentions with their cluster numbers; a repeated identity keeps its first copy."""
    mentions: list[UDMention] = []
    cluster_of: list[int] = []
    seen: set = set()
    repeats = 0
    for c, cluster in enumerate(clusters):
        for m in cluster:
            ident = identity(m)
            if ident in seen:
                repeats += 1
                continue
            seen.add(ident)
            mentions.append(m)
            cluster_of.append(c)
    return mentions, cluster_of, repeats


Assign = Callable[[list[UDMention], list[UDMention], Callable[[UDMention, UDMention], float]],
                  list[tuple[int, int]]]


def align_corefud(key: UDDocument, response: UDDocument | None, *, match: str = "exact",
                  zero_match: str = "linear", keep_zeros: bool = True,
                  metrics: Sequence[str] = ("mor", "zero"),
                  assign: Assign | None = None) -> CorefUDAlignment:
    """Align key and response mentions one to one and build their partitions.

    ``response=None`` scores a document the response lacks. ``metrics`` lists which of the
    mention-level metrics (``mor``, ``zero``) to compute as well. ``assign`` pairs the
    mentions left after exact matching (default: Kuhn–Munkres on the matching score, as the
    CorefUD scorer does; the UA scorer 2.0's CRAFT matching is greedy).
    """
    head_mode = match == "head"

    def identity(m: UDMention):
        return (m.words, m.head) if head_mode else m.words

    keys, key_cluster, key_repeats = _flatten(key.clusters, identity, "key")
    if response is not None:
        responses, response_cluster, response_repeats = _flatten(response.clusters, identity,
                                                                  "response")
    else:
        responses, response_cluster, response_repeats = [], [], 0
    response_position = {identity(m): j for j, m in enumerate(responses)}
    twin: dict[int, int] = {}        # key -> response with the same identity
    for i, m in enumerate(keys):
        j = response_position.get(identity(m))
        if j is not None:
            twin[i] = j
    partner: dict[int, int] = {}     # the alignment: key -> response
    dependent = keep_zeros and zero_match == "dependent"
    if dependent:
        key_zeros = [i for i, m in enumerate(keys) if m.zero]
        response_zeros = [j for j, m in enumerate(responses) if m.zero]
        for a, b in _assign([keys[i] for i in key_zeros], [responses[j] for j in response_zeros],
                            zero_dependency_score):
            partner[key_zeros[a]] = response_zeros[b]
        for i, j in twin.items():
            if not keys[i].zero and not responses[j].zero:
                partner[i] = j
    else:
        partner.update(twin)
    if match != "exact":
        twinned = set(twin.values())
        taken = set(partner.values())
        key_left = [i for i in range(len(keys)) if i not in twin and i not in partner]
        response_left = [j for j in range(len(responses)) if j not in twinned and j not in taken]
        score = {"head": _head_score, "craft": _craft_score}.get(match, _partial_score)
        for a, b in (assign or _assign)([keys[i] for i in key_left],
                                        [responses[j] for j in response_left], score):
            partner[key_left[a]] = response_left[b]
    # the shared index space: key mention i has index i, its partner shares it
    index_of_response = {j: i for i, j in partner.items()}
    next_index = len(keys)
    key_clusters: list[list[int]] = [[] for _ in key.clusters]
    for i, c in enumerate(key_cluster):
        key_clusters[c].append(i)
    response_clusters: list[list[int]] = [[] for _ in (response.clusters if response else [])]
    response_labels: dict[int, Any] = {}
    response_index: dict[Any, int] = {}
    for j, c in enumerate(response_cluster):
        found_index = index_of_response.get(j)
        if found_index is None:
            found_index = next_index
            next_index += 1
        i = found_index
        response_clusters[c].append(i)
        response_index[identity(responses[j])] = i
        if responses[j].label is not None:
            response_labels[i] = responses[j].label
    notes = []
    if key_repeats:
        notes.append(note("score.repeated-key-mentions", key.name,
                          f"{key_repeats} repeated key mentions ignored (the same mention in two "
                          "key entities)"))
    if response_repeats:
        notes.append(note("score.repeated-response-mentions", key.name,
                          f"{response_repeats} repeated response mentions removed (the same "
                          "mention in two response entities; reference-scorer rule)"))
    aligned = AlignedDocument(
        key.name,
        Partition.from_clusters(key_clusters),
        Partition.from_clusters(response_clusters),
        [identity(m) for m in keys],
        key_repeats,
        response_repeats,
        notes,
        {i: m.label for i, m in enumerate(keys) if m.label is not None},
        response_labels,
    )
    extra: dict[str, Counts] = {}
    if "mor" in metrics:
        # every mention, a repeated one as often as it occurs (as the scorer pairs them)
        extra["mor"] = mention_overlap([m for c in key.clusters for m in c],
                                       [m for c in response.clusters for m in c]
                                       if response is not None else [])
    if "zero" in metrics:
        extra["zero"] = zero_anaphors(keys, key_cluster, responses, response_cluster, twin,
                                      partner, identity)
    return CorefUDAlignment(aligned, extra, {identity(m): i for i, m in enumerate(keys)},
                            response_index)


def kept_repeats(key: UDDocument, response: UDDocument | None, found: CorefUDAlignment,
                 match: str) -> dict[str, Counts | BlancCounts]:
    """The partition metrics with repeated mentions kept, as the CorefUD scorer keeps them.

    The scorer holds a mention whose nodes occur in two entities (or in two mentions of a
    response) in both, and every lookup finds the later entity; its metrics walk the entities'
    mention lists (:mod:`corefkit.scoring.metrics.split`, the same lists as the UA scorer's, without
    accommodated sets). A response mention aligned to a key mention stands for it.
    """
    from corefkit.scoring.metrics import split

    head_mode = match == "head"
    keys = found.aligned.mention_keys

    def clusters(doc: UDDocument | None, index: dict[Any, int]) -> split.Clusters:
        out: split.Clusters = []
        for cluster in doc.clusters if doc is not None else []:
            row: list[split.Item] = []
            for m in cluster:
                identity = (m.words, m.head) if head_mode else m.words
                i = index.get(identity)
                row.append(split.Markable(keys[i] if i is not None and i < len(keys)
                                          else identity, (0, 0)))
            out.append(row)
        return out

    pair = split.ClusterPair(clusters(key, found.key_index),
                             clusters(response, found.response_index))
    counts: dict[str, Counts | BlancCounts] = {
        m: split.score(m, pair).counts for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}
    counts["blanc"] = CorefUDBlancCounts(split.score("blanc-coref", pair).counts,
                                         split.score("blanc-noncoref", pair).counts)
    return counts


# ============================================================================ metrics on mentions
def mention_overlap(keys: list[UDMention], responses: list[UDMention]) -> Counts:
    """MOR, the mention overlap ratio (CRAC 2022 shared-task findings).

    Key and response mentions are paired one to one so that the total number of shared nodes
    is maximal (whatever the matching method); recall = shared / Σ|K|, precision =
    shared / Σ|R|. The maximum splits over groups of mentions whose extents chain together,
    each solved exactly with the Hungarian algorithm on integer weights.
    """
    key_total = sum(len(m.words) for m in keys)
    response_total = sum(len(m.words) for m in responses)
    items = sorted([(m.order, 0, i) for i, m in enumerate(keys)]
                   + [(m.order, 1, j) for j, m in enumerate(responses)])
    shared = 0
    group: list[tuple[int, int]] = []
    reach: Position | None = None
    for order, side, n in items:
        first, last, _ = order
        if reach is not None and first > reach:
            shared += _group_overlap(group, keys, responses)
            group = []
            reach = None
        group.append((side, n))
        reach = last if reach is None or last > reach else reach
    shared += _group_overlap(group, keys, responses)
    return Counts(shared, key_total, shared, response_total)


def _group_overlap(group: list[tuple[int, int]], keys: list[UDMention],
                   responses: list[UDMention]) -> int:
    ks = [keys[n] for side, n in group if side == 0]
    rs = [responses[n] for side, n in group if side == 1]
    if not ks or not rs:
        return 0
    weights = [[len(set(k.words) & set(r.words)) for r in rs] for k in ks]
    if len(ks) == 1 or len(rs) == 1:
        return max(map(max, weights))
    rows, cols = linear_assignment(weights, maximize=True)
    return sum(weights[r][c] for r, c in zip(rows, cols))


def zero_anaphors(keys: list[UDMention], key_cluster: list[int], responses: list[UDMention],
                  response_cluster: list[int], twin: dict[int, int], partner: dict[int, int],
                  identity) -> Counts:
    """The anaphor-decomposable score for zeros (CorefUD scorer ``als_zeros``).

    Every non-first mention of a key chain that is a zero is an anaphor. Its response
    counterpart (the mention with the same identity, else the aligned one) is a true positive
    when it is not the first of its response chain and its chain contains the counterpart of
    an earlier mention of the key chain; a wrong link when it has a counterpart in a chain
    without any; a false negative otherwise. Response zeros that are not first in their chain
    and are nobody's counterpart are false positives. Recall = tp / (tp + fn + wl), precision
    = tp / (tp + fp + wl).
    """
    tp = fp = fn = wl = 0
    response_chains: dict[int, list[int]] = {}
    for j, c in enumerate(response_cluster):
        response_chains.setdefault(c, []).append(j)
    first_identities = set()
    for members in response_chains.values():
        first = min(members, key=lambda j: responses[j].order)
        first_identities.add(identity(responses[first]))
    key_chains: dict[int, list[int]] = {}
    for i, c in enumerate(key_cluster):
        key_chains.setdefault(c, []).append(i)
    covered: set = set()
    for members in key_chains.values():
        members = sorted(members, key=lambda i: keys[i].order)
        earlier_chains: set[int] = set()
        for n, i in enumerate(members):
            matched = twin.get(i, partner.get(i))
            chain = response_cluster[matched] if matched is not None else None
            if n and keys[i].zero:
                if matched is None or identity(responses[matched]) in first_identities:
                    fn += 1
                elif chain not in earlier_chains:
                    wl += 1
                else:
                    tp += 1
                if matched is not None:
                    covered.add(identity(responses[matched]))
            if chain is not None:
                earlier_chains.add(chain)
    for j, m in enumerate(responses):
        ident = identity(m)
        if m.zero and ident not in first_identities and ident not in covered:
            fp += 1
    return Counts(tp, tp + fn + wl, tp, tp + fp + wl)


# ============================================================================ settings
PROFILE_KEYS = ("match", "zero_match", "keep_zeros", "remove_singletons")
DEFAULTS = {"match": "exact", "zero_match": "linear", "keep_zeros": True, "remove_singletons": False}


@dataclass
class CorefUDScoring:
    """The CorefUD scorer's semantics for one run (:class:`corefkit.scoring.semantics.
    Semantics`): how to reduce and align documents."""

    name: ClassVar[str] = "corefud"
    label: ClassVar[str] = "corefud-scorer-1.2"

    match: str = "exact"
    zero_match: str = "linear"
    keep_zeros: bool = True
    remove_singletons: bool = False
    profile: str | None = None
    metrics: tuple[str, ...] = ("mor", "zero")

    @classmethod
    def resolve(cls, *, match: str | None = None, zero_match: str | None = None,
                keep_zeros: bool | None = None, remove_singletons: bool | None = None,
                profile: str | None = None, metrics: Sequence[str] = ("mor", "zero")
                ) -> CorefUDScoring:
        """Settings from explicit values, else the profile's, else the defaults."""
        from corefkit.errors import UsageError

        chosen = dict(DEFAULTS)
        if profile is not None:
            chosen.update({k: v for k, v in profile_settings(profile).items()
                           if k in PROFILE_KEYS})
        explicit = {"match": match, "zero_match": zero_match, "keep_zeros": keep_zeros,
                    "remove_singletons": remove_singletons}
        chosen.update({k: v for k, v in explicit.items() if v is not None})
        if chosen["match"] == "partial-corefud":
            chosen["match"] = "partial"
        if chosen["match"] not in MATCHES:
            raise UsageError(f"unknown mention matching {chosen['match']!r}; expected one of "
                             f"{', '.join(MATCHES)}")
        if chosen["zero_match"] not in ZERO_MATCHES:
            raise UsageError(f"unknown zero matching {chosen['zero_match']!r}; expected one of "
                             f"{', '.join(ZERO_MATCHES)}")
        return cls(chosen["match"], chosen["zero_match"], bool(chosen["keep_zeros"]),
                   bool(chosen["remove_singletons"]), profile, tuple(metrics))

    def options(self) -> dict[str, object]:
        return {"match": self.match, "zero_match": self.zero_match, "keep_zeros": self.keep_zeros,
                "remove_singletons": self.remove_singletons, "profile": self.profile}

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> UDDocument:
        return ud_document(doc, match=self.match, keep_zeros=self.keep_zeros,
                           remove_singletons=self.remove_singletons, labeler=labeler)

    def align(self, key: UDDocument, response: UDDocument | None) -> CorefUDAlignment:
        if response is not None:
            check_alignment(key, response)
        found = align_corefud(key, response, match=self.match, zero_match=self.zero_match,
                              keep_zeros=self.keep_zeros, metrics=self.metrics)
        aligned = found.aligned
        if aligned.key_repeats or aligned.response_repeats:
            found.extra.update(kept_repeats(key, response, found, self.match))
            aligned.notes[:] = [note("score.repeated-mentions", key.name,
                                     f"{aligned.key_repeats + aligned.response_repeats} repeated "
                                     "mentions kept in both entities (CorefUD scorer rule)")]
        return found

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        return counts

    def warnings(self) -> list[Repair]:
        return []

    @staticmethod
    def finish(counts: dict[str, Any]) -> dict[str, Any]:
        """Counts with BLANC under the CorefUD scorer's rule for absent link types."""
        blanc = counts.get("blanc")
        if blanc is not None and not isinstance(blanc, CorefUDBlancCounts):
            counts["blanc"] = CorefUDBlancCounts(blanc.coref, blanc.noncoref)
        return counts
