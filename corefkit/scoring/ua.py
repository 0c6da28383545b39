"""Scoring with the Universal Anaphora scorer's semantics (Yu et al. 2022; Paun et al. 2023).

What changes against the reference scorer's semantics:

* **Split antecedents** are scored by the generalized metrics of :mod:`corefkit.scoring.split`
  (on by default; ``remove_split_antecedents`` scores set entities as ordinary ones;
  ``only_split_antecedents`` reports the split-antecedent alignment scores instead). Sets
  are flattened first (``flatten-splits``); two entities with the same set are one entity,
  as in the UA scorer.
* **Matching** is ``exact``, ``partial`` (the key's Min span must lie inside the response,
  which must lie inside the key; ranked by |K ∩ R| / |K|; UA scorer 2.0 / CorefUD scorer
  "partial-corefud") or ``craft`` (a response part within the key's first part; CRAFT 2019),
  one to one with the Hungarian algorithm, through :mod:`corefkit.scoring.match`.
* **BLANC** drops a part only when key and response both lack that kind of link.
* **Non-referring** markables are scored on their own (identification P/R/F); **bridging**
  by anaphor recognition and full bridging at mention and entity level; **discourse deixis**
  (``discourse_deixis``) scores the DD layer instead of identity.

Where the UA scorer and the reference scorer disagree on plain coreference (DISAGREEMENTS.md
items 1 and 2), these semantics take the UA side for BLANC and keep the reference's
repeated-mention rule (a mention repeated in a second entity is removed, reported), which
the UA scorer does not define (it keeps both copies and looks up the last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from corefkit.errors import UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention
from corefkit.scoring import split
from corefkit.scoring.align import Labeler
from corefkit.scoring.match import (
    CorefUDAlignment,
    CorefUDBlancCounts,
    CorefUDScoring,
    UDDocument,
    UDMention,
    align_corefud,
    check_alignment,
    load_profiles,
    positions,
)
from corefkit.scoring.metrics import Counts

UA_MATCHES = ("exact", "partial", "craft")


@dataclass
class UADocument(UDDocument):
    """A reduced document plus what only UA scoring looks at."""

    sets: dict[int, list[frozenset]] = field(default_factory=dict)  # cluster -> member identities
    nonref: list[tuple] = field(default_factory=list)               # identities
    bridges: list[tuple[tuple, tuple]] = field(default_factory=list)  # (anaphor, anchor) identities


def _identity(mention: UDMention) -> tuple:
    return mention.words


def ua_document(doc: Document, *, layer: str = IDENTITY, keep_zeros: bool = True,
                keep_splits: bool = True, remove_singletons: bool = False,
                labeler: Labeler | None = None) -> UADocument:
    """Reduce a document: chains of one layer, flattened sets, non-referring, bridging."""
    from corefkit.passes.splits import check_acyclic, leaf_members

    pos = positions(doc)
    tokens = doc.tokens

    def reduced(mention: Mention) -> UDMention:
        head = mention.head if mention.head is not None and mention.head in mention.tokens \
            else mention.tokens[0]
        core = frozenset(pos[t] for t in mention.min_tokens) if mention.min_tokens else frozenset()
        parts = tuple((pos[a], pos[b]) for a, b in mention.parts())
        zero = all(tokens[t].is_empty for t in mention.tokens)
        return UDMention(tuple(sorted(pos[t] for t in mention.tokens)), pos[head], zero, (),
                         tokens[head].sentence, labeler(doc, mention) if labeler else None,
                         core, parts)

    clusters: list[list[UDMention]] = []
    cluster_of: dict[Entity, int] = {}
    removed_zeros = removed_singletons = 0
    for entity in doc.entities_in(layer):
        cluster = [reduced(m) for m in doc.mentions_of(entity) if m.tokens]
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
    sets: dict[int, list[frozenset]] = {}
    if keep_splits and doc.memberships():
        check_acyclic(doc)
        for set_entity in doc.accommodated_sets():
            if set_entity not in cluster_of:
                continue
            members = []
            for member, _ in leaf_members(doc, set_entity):
                identities = frozenset(_identity(reduced(m)) for m in doc.mentions_of(member)
                                       if m.tokens and (keep_zeros or not doc.is_zero(m)))
                if identities:
                    members.append(identities)
            if members:
                sets[cluster_of[set_entity]] = members
    nonref = [_identity(reduced(m)) for m in doc.non_referring()
              if m.layer == layer and m.tokens]
    bridges = []
    if layer == IDENTITY:
        for b in doc.bridging():
            anchor = b.anchor_mention or _closest_mention(doc, b.anaphor, b.anchor)
            if anchor is not None and b.anaphor.tokens and anchor.tokens:
                bridges.append((_identity(reduced(b.anaphor)), _identity(reduced(anchor))))
    sentences = []
    for sentence in doc.sentences:
        forms = tuple(tokens[i].form for i in range(sentence.start, sentence.stop)
                      if not tokens[i].is_empty)
        sentences.append((sentence.sent_id, forms, sentence.attrs.get("line")))
    return UADocument(doc.name, doc.pair_key(), clusters, sentences, doc.file, removed_zeros,
                      removed_singletons, bool(doc.attrs.get("conllu")), sets, nonref, bridges)


def _closest_mention(doc: Document, anaphor: Mention, anchor: Entity) -> Mention | None:
    """The anchor entity's closest mention before the anaphor, else after (conversion-notes §4)."""
    mentions = doc.mentions_of(anchor)
    before = [m for m in mentions if m.start < anaphor.start]
    if before:
        return before[-1]
    return mentions[0] if mentions else None


# ---------------------------------------------------------------------------- clusters
def _item_clusters(doc: UADocument, index: dict[Any, int], extra: dict[Any, int],
                   keep_splits: bool, first_extra: int) -> list[list[split.Item]]:
    """The document's clusters as aligned indices, each set entity with its SplitItem.

    Repeated mentions keep their first copy (as the aligner did); entities whose sets are
    equal are merged, as the UA scorer does.
    """
    def number(identity: Any) -> int:
        if identity in index:
            return index[identity]
        # a member mention outside every scored chain (a non-referring member, a removed
        # zero): one number per identity beyond the aligned ones, shared by key and response
        return extra.setdefault(identity, first_extra + len(extra))

    seen: set = set()
    clusters: list[list[split.Item]] = []
    for c, cluster in enumerate(doc.clusters):
        items: list[split.Item] = []
        for m in cluster:
            ident = _identity(m)
            if ident in seen:
                continue
            seen.add(ident)
            items.append(index[ident])
        if keep_splits and c in doc.sets:
            members = frozenset(frozenset(number(i) for i in member) for member in doc.sets[c])
            items.append(split.SplitItem(members))
        if not items:
            continue
        same = next((other for other in clusters for item in items
                     if isinstance(item, split.SplitItem) and item in other), None)
        if same is None:
            clusters.append(items)
        else:
            same.extend(item for item in items if item not in same)
    return clusters


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


def _tp_counts(tp: int, fn: int, fp: int) -> Counts:
    return Counts(tp, tp + fn, tp, tp + fp)


def non_referring_counts(key: UADocument, response: UADocument | None) -> Counts:
    """Identification of non-referring markables (exact extents)."""
    key_set = set(key.nonref)
    response_set = set(response.nonref) if response is not None else set()
    tp = len(key_set & response_set)
    return _tp_counts(tp, len(key_set) - tp, len(response_set) - tp)


def bridging_counts(key: UADocument, response: UADocument | None,
                    found: CorefUDAlignment) -> BridgingCounts:
    """Bridging as the UA scorer scores it, over aligned mentions (Yu et al. 2022)."""
    key_pairs = {found.key_index.get(a, ("key", a)): found.key_index.get(b, ("key", b))
                 for a, b in key.bridges}
    response_pairs = {}
    if response is not None:
        response_pairs = {found.response_index.get(a, ("response", a)):
                          found.response_index.get(b, ("response", b)) for a, b in response.bridges}
    key_entity = {m: e for m, e in zip(found.aligned.key.mentions.tolist(),
                                       found.aligned.key.entities.tolist())}
    recognized = mention_ok = entity_ok = 0
    for anaphor, anchor in key_pairs.items():
        if anaphor not in response_pairs:
            continue
        recognized += 1
        answer = response_pairs[anaphor]
        if answer == anchor:
            mention_ok += 1
            entity_ok += 1
        elif anchor in key_entity and key_entity.get(answer) == key_entity[anchor]:
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
    """The UA-scorer semantics for one run (same interface as ``match.CorefUDScoring``)."""

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
        settings: dict[str, Any] = {}
        if profile is not None:
            profiles = load_profiles()
            if profile not in profiles:
                raise UsageError(f"unknown scoring profile {profile!r}; known profiles: "
                                 f"{', '.join(sorted(profiles))}")
            settings.update(profiles[profile])
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

    def warnings(self) -> list[str]:
        if self.remove_singletons and self.keep_splits:
            return ["singletons are kept: split antecedents are scored and their members may be "
                    "singletons (as the UA scorer does; --remove-split-antecedents to drop them)"]
        return []

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> UADocument:
        return ua_document(doc, layer=DISCOURSE_DEIXIS if self.discourse_deixis else IDENTITY,
                           keep_zeros=self.keep_zeros, keep_splits=self.keep_splits,
                           remove_singletons=self.remove_singletons, labeler=labeler)

    def align(self, key: UADocument, response: UADocument | None) -> CorefUDAlignment:
        if response is not None:
            check_alignment(key, response)
        found = align_corefud(key, response, match=self.match, zero_match="linear",
                              keep_zeros=self.keep_zeros, metrics=())
        found.extra.update(self._document_counts(key, response, found))
        return found

    def _document_counts(self, key: UADocument, response: UADocument | None,
                         found: CorefUDAlignment) -> dict[str, Any]:
        counts: dict[str, Any] = {}
        if "non_referring" in self.metrics:
            counts["non_referring"] = non_referring_counts(key, response)
        if "bridging" in self.metrics:
            counts["bridging"] = bridging_counts(key, response, found)
        extra: dict[Any, int] = {}
        first_extra = len(found.key_index) + len(found.response_index)  # above every aligned index
        key_items = _item_clusters(key, found.key_index, extra, self.keep_splits, first_extra)
        response_items = (_item_clusters(response, found.response_index, extra, self.keep_splits,
                                         first_extra) if response is not None else [])
        if not (split.split_items(key_items) or split.split_items(response_items)):
            if self.only_splits:
                zero = Counts()
                counts.update({m: zero for m in ("muc", "bcub", "ceafm", "ceafe", "lea")})
                counts["blanc"] = CorefUDBlancCounts()
            return counts  # the standard metrics on the partitions give the same numbers
        alignments = {m: split.align_sets(m, key_items, response_items)
                      for m in split.MEMBER_METRICS}
        if self.explanations is not None:
            self.explanations.append(_explain(key.name, key_items, response_items, alignments))
        if self.only_splits:
            for m in ("muc", "bcub", "ceafm", "ceafe", "lea"):
                counts[m] = alignments[m].split_counts
            counts["blanc"] = CorefUDBlancCounts(alignments["blanc-coref"].split_counts,
                                                 alignments["blanc-noncoref"].split_counts)
            return counts
        counts["muc"] = split.muc(key_items, response_items, alignments["muc"])
        counts["bcub"] = split.bcub(key_items, response_items, alignments["bcub"])
        counts["ceafm"] = split.ceafm(key_items, response_items, alignments["ceafm"])
        counts["ceafe"] = split.ceafe(key_items, response_items, alignments["ceafe"])
        counts["lea"] = split.lea(key_items, response_items, alignments["lea"],
                                  self.lea_split_importance)
        blanc = split.blanc(key_items, response_items, alignments["blanc-coref"],
                            alignments["blanc-noncoref"])
        counts["blanc"] = CorefUDBlancCounts(blanc.coref, blanc.noncoref)
        return counts

    # BLANC under the UA / CorefUD scorers' rule for absent link types (shared code)
    counts = staticmethod(CorefUDScoring.counts)


def _explain(name: str, key: list[list[split.Item]], response: list[list[split.Item]],
             alignments: dict[str, split.SetAlignment]) -> dict[str, Any]:
    """Why the split-antecedent part of a document scores what it does (``--explain``)."""

    def describe(item: split.SplitItem) -> list[list[int]]:
        return sorted(sorted(m) for m in item.members)

    out: dict[str, Any] = {"document": name, "metrics": {}}
    for metric, alignment in alignments.items():
        pairs = []
        for i, j, c in alignment.pairs:
            pairs.append({
                "key_set": describe(alignment.key_items[i]),
                "response_set": describe(alignment.response_items[j]),
                "delta_recall": str(c.recall), "delta_precision": str(c.precision),
                "delta_f1": str(c.f1),
            })
        paired_keys = {i for i, _, _ in alignment.pairs}
        paired_responses = {j for _, j, _ in alignment.pairs}
        entry: dict[str, Any] = {
            "pairs": pairs,
            "unaligned_key_sets": [describe(s) for i, s in enumerate(alignment.key_items)
                                   if i not in paired_keys],
            "unaligned_response_sets": [describe(s) for j, s in enumerate(alignment.response_items)
                                        if j not in paired_responses],
        }
        if metric in split.CONTRIBUTIONS:
            entry["entities"] = split.CONTRIBUTIONS[metric](key, response, alignment)
        out["metrics"][metric] = entry
    return out


