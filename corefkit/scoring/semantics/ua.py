"""Scoring with the Universal Anaphora scorer's semantics (Yu et al. 2022; Paun et al. 2023).

The numbers equal the UA scorer 1.x's (juntaoy/universal-anaphora-scorer, the official scorer
of the CODI-CRAC 2021 and 2022 shared tasks) on real documents, in every mode it has; where
it departs from the papers, ``docs/deviations.md`` says how. What changes against the
reference scorer's semantics:

* **Split antecedents** are scored by the generalized metrics of :mod:`corefkit.scoring.metrics.split`
  (on by default; ``remove_split_antecedents`` scores set entities as ordinary ones;
  ``only_split_antecedents`` reports the split-antecedent alignment scores instead). Nested
  sets are flattened; two entities with the same set are one entity.
* **Repeated mentions**: a markable whose extent occurs twice (in two entities, or twice in
  one) is kept in both places and looked up in the later entity, as the scorer does; the
  reference scorer's semantics remove the later copy instead.
* **Matching** is ``exact`` (the UA scorer 1.x), or, beyond it, ``partial`` (the key's Min
  span inside the response, inside the key; UA scorer 2.0 / CorefUD "partial-corefud") or
  ``craft`` (CRAFT 2019), one to one through :mod:`corefkit.scoring.semantics.corefud`.
* **BLANC** drops a part only when key and response both lack that kind of link.
* **Non-referring** markables are scored on their own (identification P/R/F): one per
  non-referring id, its first markable, as the scorer reads them. **Bridging**: anaphor
  recognition and full bridging at mention level (the same anchor markable) and entity level
  (an anchor markable of the same key entity); an anaphor with several relations keeps its
  last. **Discourse deixis** (``discourse_deixis``) scores the DD layer instead of identity.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, cast

from corefkit.errors import Repair, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Mention
from corefkit.scoring.align import Alignment, Labeler, note
from corefkit.scoring.metrics import split
from corefkit.scoring.metrics.registry import partition_metrics
from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.profiles import profile_settings
from corefkit.scoring.semantics.corefud import (
    CorefUDAlignment,
    CorefUDScoring,
    UDDocument,
    UDMention,
    align_corefud,
    check_alignment,
    positions,
)

UA_MATCHES = ("exact", "partial", "craft")
Identity = tuple  # a mention's node positions, as matching identifies it


@dataclass
class UADocument(UDDocument):
    """A reduced document plus what only UA scoring looks at.

    ``clusters`` are the scored chains in the scorer's order (entities by their first
    markable, markables as they open), repeats kept; ``sets`` gives a chain's accommodated
    set as its members' markables; ``extents`` the (first, last) token of each markable,
    which fixes the scorer's walk order (:class:`corefkit.scoring.metrics.split.Markable`).
    """

    sets: dict[int, list[tuple[Identity, ...]]] = field(default_factory=dict)
    nonref: list[Identity] = field(default_factory=list)
    bridges: dict[Identity, Identity] = field(default_factory=dict)  # anaphor -> anchor
    extents: dict[Identity, tuple[int, int]] = field(default_factory=dict)


def ua_document(doc: Document, *, layer: str = IDENTITY, keep_zeros: bool = True,
                keep_splits: bool = True, remove_singletons: bool = False,
                labeler: Labeler | None = None) -> UADocument:
    """Reduce a document: chains of one layer, flattened sets, non-referring, bridging."""
    pos = positions(doc)
    tokens = doc.tokens
    extents: dict[Identity, tuple[int, int]] = {}

    def reduced(mention: Mention) -> UDMention:
        covered = mention.tokens
        head = mention.head if mention.head is not None and mention.head in covered \
            else covered[0]
        core = frozenset(pos[t] for t in mention.min_tokens) if mention.min_tokens else frozenset()
        runs = mention.parts()
        zero = all(tokens[t].is_empty for t in covered)
        found = UDMention(tuple(sorted([pos[t] for t in covered])), pos[head], zero, (),
                          tokens[head].sentence, labeler(doc, mention) if labeler else None,
                          core, tuple([(pos[a], pos[b]) for a, b in runs]))
        # the scorer's extent of a markable in parts: the opener and closer it saw last
        extents.setdefault(found.words, runs[-1])
        return found

    def markables(entity: Any) -> list[Mention]:
        return sorted((m for m in doc.mentions_of(entity, ordered=False) if m.tokens),
                      key=lambda m: m.id)

    clusters: list[list[UDMention]] = []
    cluster_of: dict[Any, int] = {}
    removed_zeros = removed_singletons = 0
    for entity in doc.entities_in(layer):
        cluster = [reduced(m) for m in markables(entity)]
        if not keep_zeros:
            kept = [m for m in cluster if not m.zero]
            removed_zeros += len(cluster) - len(kept)
            cluster = kept
        if not cluster:
            continue
        if remove_singletons and not keep_splits and len(cluster) == 1:
            removed_singletons += 1
            continue
        cluster_of[entity] = len(clusters)
        clusters.append(cluster)
    sets = _sets(doc, cluster_of, reduced, markables, keep_zeros) if keep_splits else {}
    nonref = [reduced(m).words for m in _first_non_referring(doc, layer)]
    bridges = _bridges(doc, reduced) if layer == IDENTITY else {}
    sentences = []
    for sentence in doc.sentences:
        forms = tuple(tokens[i].form for i in range(sentence.start, sentence.stop)
                      if not tokens[i].is_empty)
        sentences.append((sentence.sent_id, forms, sentence.attrs.get("line")))
    return UADocument(doc.name, doc.pair_key(), clusters, sentences, doc.file, removed_zeros,
                      removed_singletons, bool(doc.attrs.get("conllu")), sets, nonref, bridges,
                      extents)


def _sets(doc: Document, cluster_of: dict[Any, int], reduced: Any, markables: Any,
          keep_zeros: bool) -> dict[int, list[tuple[Identity, ...]]]:
    """Chain index -> the members of its accommodated set, each as its markables' identities
    (every markable of the member entity, in document order)."""
    from corefkit.passes.splits import check_acyclic, leaf_members

    if not doc.memberships():
        return {}
    check_acyclic(doc)
    sets: dict[int, list[tuple[Identity, ...]]] = {}
    for set_entity in doc.accommodated_sets():
        if set_entity not in cluster_of:
            continue
        members = []
        for member, _ in leaf_members(doc, set_entity):
            identities = tuple(reduced(m).words for m in markables(member)
                               if keep_zeros or not doc.is_zero(m))
            if identities:
                members.append(identities)
        if members:
            sets[cluster_of[set_entity]] = members
    return sets


def _first_non_referring(doc: Document, layer: str) -> list[Mention]:
    """The first markable of every non-referring id (markables sharing a Pseudo id form one
    pseudo entity in the model), in document order."""
    first: dict[Any, Mention] = {}
    for mention in sorted(doc.non_referring(), key=lambda m: m.id):
        if mention.layer != layer or not mention.tokens:
            continue
        entity = doc.entity_of(mention)
        first.setdefault(entity if entity is not None else mention, mention)
    return list(first.values())


def _bridges(doc: Document, reduced: Any) -> dict[Identity, Identity]:
    """Anaphor -> anchor markable of every bridging relation between identity markables.

    As the scorer reads them: an anaphor markable with several relations keeps its last, and
    of two anaphors with one extent the later wins. A relation that names only an anchor
    entity (CorefUD ``Bridge``) takes that entity's closest mention before the anaphor.
    """
    last: dict[Mention, Mention] = {}
    for b in doc.bridging():
        anchor = b.anchor_mention or _closest_mention(doc, b.anaphor, b.anchor)
        if anchor is not None and _identity_markable(doc, b.anaphor) \
                and _identity_markable(doc, anchor):
            last[b.anaphor] = anchor
    return {reduced(anaphor).words: reduced(anchor).words for anaphor, anchor in last.items()}


def _identity_markable(doc: Document, mention: Mention) -> bool:
    return bool(mention.tokens) and mention.layer == IDENTITY and (
        mention.nonref is not None or doc.entity_of(mention) is not None)


def _closest_mention(doc: Document, anaphor: Mention, anchor: Any) -> Mention | None:
    """The anchor entity's closest mention before the anaphor, else after (conversion-notes §4)."""
    mentions = doc.mentions_of(anchor)
    before = [m for m in mentions if m.start < anaphor.start]
    if before:
        return before[-1]
    return mentions[0] if mentions else None


def craft_assign(keys: list[UDMention], responses: list[UDMention],
                 score: Any) -> list[tuple[int, int]]:
    """CRAFT 2019 matching as the UA scorer 2.0 pairs mentions: greedily, not optimally.

    Each response mention in document order takes the first key mention with a positive
    score in the scorer's iteration order of its key mentions — a Python set of them inserted
    in (start, end, length) order and hashed by their word indices, so that order is rebuilt
    here with the same hashes — if that key mention is still free; if it is taken, the
    response mention stays unmatched. (The scorer's -t craft19 preset itself crashes in
    2.0-Beta; its settings written out give these numbers, tests/scoring/test_profiles.py.)
    """
    order = sorted(range(len(keys)), key=lambda i: keys[i].order)
    pool = set(_Hashed(i, hash(frozenset(word - 1 for word, _ in keys[i].words))) for i in order)
    walk = list(pool)
    taken: set[int] = set()
    pairs = []
    for j, response in enumerate(responses):
        for candidate in walk:
            if score(keys[candidate.index], response) > 0:
                if candidate.index not in taken:
                    taken.add(candidate.index)
                    pairs.append((candidate.index, j))
                break
    return pairs


class _Hashed:
    """A key mention's number with the hash the UA scorer 2.0 gives that mention."""

    __slots__ = ("index", "_hash")

    def __init__(self, index: int, value: int) -> None:
        self.index = index
        self._hash = value

    def __hash__(self) -> int:
        return self._hash


# ---------------------------------------------------------------------------- item clusters
@dataclass
class _Items:
    """Turns identities into :class:`split.Markable` items: a response markable aligned to a
    key markable takes the key's identity and extent, so that equal items hash equal."""

    key: UADocument
    found: CorefUDAlignment

    def key_identity(self, identity: Identity, index: dict[Any, int]) -> Identity:
        i = index.get(identity)
        keys = self.found.aligned.mention_keys
        return cast(Identity, keys[i]) if i is not None and i < len(keys) else identity

    def markable(self, identity: Identity, doc: UADocument, index: dict[Any, int]) -> split.Markable:
        canonical = self.key_identity(identity, index)
        extent = self.key.extents.get(canonical) or doc.extents[identity]
        return split.Markable(canonical, extent)

    def clusters(self, doc: UADocument, index: dict[Any, int], keep_sets: bool) -> split.Clusters:
        chains = [[self.markable(m.words, doc, index) for m in cluster] for cluster in doc.clusters]
        sets = {c: split.SplitItem(tuple(self.markable(i, doc, index) for i in member)
                                   for member in members)
                for c, members in doc.sets.items()} if keep_sets else {}
        return split.build_clusters(chains, sets, keep_sets)


# ---------------------------------------------------------------------------- extra metrics
@dataclass(frozen=True)
class BridgingCounts:
    """Bridging scores of the UA scorer: anaphor recognition, full bridging at mention level
    (the right anchor mention) and at entity level (an anchor mention of the right entity)."""

    recognition: Counts = field(default_factory=Counts)
    mention: Counts = field(default_factory=Counts)
    entity: Counts = field(default_factory=Counts)

    def __add__(self, other: BridgingCounts) -> BridgingCounts:
        return BridgingCounts(self.recognition + other.recognition, self.mention + other.mention,
                              self.entity + other.entity)

    @property
    def recall(self) -> Fraction:
        return self.entity.recall

    @property
    def precision(self) -> Fraction:
        return self.entity.precision

    @property
    def f1(self) -> Fraction:
        return self.entity.f1

    def to_json(self) -> dict[str, Any]:
        from corefkit.scoring.report import MetricResult

        return {part: MetricResult(part, getattr(self, part)).to_json()
                for part in ("recognition", "mention", "entity")}

    def table_lines(self) -> list[str]:
        lines = []
        for part in ("recognition", "mention", "entity"):
            c: Counts = getattr(self, part)
            lines.append(f"bridging {part:<12} {float(c.recall) * 100:8.2f} "
                         f"{float(c.precision) * 100:10.2f} {float(c.f1) * 100:8.2f}   "
                         f"{c.recall_num}/{c.recall_den}, {c.precision_num}/{c.precision_den}")
        return lines


def non_referring_counts(key: UADocument, response: UADocument | None) -> Counts:
    """Identification of non-referring markables by extent (each listed markable counts)."""
    key_list = key.nonref
    response_list = response.nonref if response is not None else []
    key_set, response_set = set(key_list), set(response_list)
    tp = sum(1 for m in key_list if m in response_set)
    fp = sum(1 for m in response_list if m not in key_set)
    return Counts(tp, len(key_list), tp, tp + fp)


def bridging_counts(key: UADocument, response: UADocument | None, found: CorefUDAlignment,
                    key_at: dict[split.Item, int], items: _Items) -> BridgingCounts:
    """Bridging as the UA scorer scores it (Yu et al. 2022, §3.4): anaphors are compared by
    extent (by alignment under partial matching), anchors by extent for the mention level and
    by the key entity that holds them for the entity level."""

    def entity(identity: Identity) -> int | None:
        extent = key.extents.get(identity)
        return None if extent is None else key_at.get(split.Markable(identity, extent))

    key_pairs = key.bridges
    response_pairs: dict[Identity, Identity] = {}
    if response is not None:
        for anaphor, anchor in response.bridges.items():
            response_pairs[items.key_identity(anaphor, found.response_index)] = \
                items.key_identity(anchor, found.response_index)
    recognized = mention_ok = entity_ok = 0
    for anaphor, anchor in key_pairs.items():
        answer = response_pairs.get(anaphor)
        if answer is None:
            continue
        recognized += 1
        if answer == anchor:
            mention_ok += 1
            entity_ok += 1
        elif entity(anchor) is not None and entity(anchor) == entity(answer):
            entity_ok += 1
    n_key, n_response = len(key_pairs), len(response_pairs)
    return BridgingCounts(
        Counts(recognized, n_key, recognized, n_response),
        Counts(mention_ok, n_key, mention_ok, n_response),
        Counts(entity_ok, n_key, entity_ok, n_response),
    )


# ---------------------------------------------------------------------------- semantics
@dataclass
class UAScoring:
    """The UA scorer's semantics for one run (:class:`corefkit.scoring.semantics.Semantics`)."""

    name: ClassVar[str] = "ua"
    label: ClassVar[str] = "ua-scorer"

    match: str = "exact"
    keep_zeros: bool = True
    remove_singletons: bool = False
    keep_splits: bool = True
    only_splits: bool = False
    discourse_deixis: bool = False
    lea_split_importance: Fraction = Fraction(1)
    profile: str | None = None
    metrics: tuple[str, ...] = ()
    explanations: list[dict[str, Any]] | None = None
    zero_match: str = "linear"

    @classmethod
    def resolve(cls, *, match: str | None = None, keep_zeros: bool | None = None,
                remove_singletons: bool | None = None, remove_split_antecedents: bool = False,
                only_split_antecedents: bool = False, discourse_deixis: bool = False,
                lea_split_importance: Any = None, profile: str | None = None,
                metrics: Sequence[str] = (), explain: bool = False) -> UAScoring:
        settings: dict[str, Any] = profile_settings(profile) if profile is not None else {}
        chosen_match = match or settings.get("match", "exact")
        if chosen_match == "partial-corefud":
            chosen_match = "partial"
        if chosen_match not in UA_MATCHES:
            raise UsageError(f"unknown mention matching {chosen_match!r} for UA scoring; expected "
                             f"one of {', '.join(UA_MATCHES)}")
        keep_splits = not (remove_split_antecedents or settings.get("remove_split_antecedents"))
        only = bool(only_split_antecedents or settings.get("only_split_antecedents"))
        dd = bool(discourse_deixis or settings.get("discourse_deixis"))
        if only and not keep_splits:
            raise UsageError("--only-split-antecedents and --remove-split-antecedents exclude "
                             "each other")
        singletons_off = bool(remove_singletons if remove_singletons is not None
                              else settings.get("remove_singletons", False))
        importance = Fraction(str(lea_split_importance if lea_split_importance is not None
                                  else settings.get("lea_split_importance", 1)))
        return cls(chosen_match, bool(keep_zeros if keep_zeros is not None
                                      else settings.get("keep_zeros", True)),
                   singletons_off, keep_splits, only, dd, importance, profile, tuple(metrics),
                   [] if explain else None)

    def options(self) -> dict[str, Any]:
        return {"match": self.match, "keep_zeros": self.keep_zeros,
                "remove_singletons": self.remove_singletons,
                "split_antecedents": ("only" if self.only_splits else
                                      "scored" if self.keep_splits else "removed"),
                "discourse_deixis": self.discourse_deixis,
                "lea_split_importance": str(self.lea_split_importance), "profile": self.profile}

    def warnings(self) -> list[Repair]:
        if self.remove_singletons and self.keep_splits:
            return [Repair("score.singletons-kept",
                           "singletons are kept: split antecedents are scored and their members "
                           "may be singletons (the UA scorer refuses this combination; "
                           "--remove-split-antecedents to drop them)", action="kept")]
        return []

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> UADocument:
        return ua_document(doc, layer=DISCOURSE_DEIXIS if self.discourse_deixis else IDENTITY,
                           keep_zeros=self.keep_zeros, keep_splits=self.keep_splits,
                           remove_singletons=self.remove_singletons, labeler=labeler)

    def align(self, key: UADocument, response: UADocument | None) -> CorefUDAlignment:
        if response is not None:
            check_alignment(key, response)
        found = align_corefud(key, response, match=self.match, zero_match="linear",
                              keep_zeros=self.keep_zeros, metrics=(),
                              assign=craft_assign if self.match == "craft" else None)
        empty = UADocument(key.name, key.pair_key, [], [])
        items = _Items(key, found)
        pair = split.ClusterPair(items.clusters(key, found.key_index, self.keep_splits),
                                 items.clusters(response or empty, found.response_index,
                                                self.keep_splits))
        if "non_referring" in self.metrics:
            found.extra["non_referring"] = non_referring_counts(key, response)
        if "bridging" in self.metrics:
            found.extra["bridging"] = bridging_counts(key, response, found, pair.key_at, items)
        found.extra.update(self._coreference(key.name, pair, found))
        return found

    def _coreference(self, name: str, pair: split.ClusterPair,
                     found: CorefUDAlignment) -> dict[str, Any]:
        """The generalized metrics (Paun et al. 2023) asked for, where sets or repeated
        markables make them differ from the standard ones on partitions (with neither, the
        partition metrics give the same numbers and are used); split-only runs report the
        split-antecedent part of each."""
        aligned = found.aligned
        has_sets = bool(split.split_items(pair.key) or split.split_items(pair.response))
        repeats = aligned.key_repeats or aligned.response_repeats
        if not (has_sets or repeats or self.only_splits):
            return {}
        if repeats:
            aligned.notes[:] = [note("score.repeated-mentions", name,
                                     f"{aligned.key_repeats + aligned.response_repeats} repeated "
                                     "markables kept in both entities (UA scorer rule)")]
        if self.explanations is not None and has_sets:
            self.explanations.append(split.explain(name, pair))
        counts: dict[str, Any] = {}
        for spec in partition_metrics(self.metrics):
            if spec.split is not None:
                full, only = spec.split(pair, self.lea_split_importance)
                counts[spec.name] = only if self.only_splits else full
        return counts

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        return counts

    def finish(self, counts: dict[str, Any]) -> dict[str, Any]:
        """BLANC under the UA scorer's rule for absent link types."""
        return CorefUDScoring.finish(counts)
