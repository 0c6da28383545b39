"""``analyze``: Kummerfeld & Klein (2013) error analysis of documents, as ``corefkit analyze``.

Key and response are read, normalized, reduced and aligned exactly as ``corefkit score`` does
it (the run's :class:`~corefkit.scoring.config.ScoreConfig`: format, semantics, matching,
zeros, singletons, passes), so that the errors are those of the scorer's own alignment: under
``--match partial`` or ``head`` a mention the scorer matches is no span error. The aligned
mentions are then described for :mod:`corefkit.diagnosis.categories` and mapped back to the
document's mentions, which give every error its text, tokens and source line.

Language-independent facts, never English word lists or head tables:

* **heads** — the mention's annotated head (CorefUD ``head``), else the dependency-tree head of
  its minimum span or of the mention (:func:`corefkit.model.syntax.tree_head`, where the
  sentence has a tree), else the last word of its minimum span, else the last word of the
  mention (the analyser also falls back to the last word when a mention is no constituent);
  a zero's head is its empty node. A response mention the key lacks is looked at in the key
  document (the analyser reads gold parses for both sides), where the same words exist;
* **punctuation** — UPOS ``PUNCT``/``SYM`` where annotated, else a form made only of Unicode
  punctuation and symbol characters;
* **mention types** — :mod:`corefkit.analysis.mention_types` (name, nominal, pronoun, zero,
  other); pronouns and zeros are what the entity rules pass over.

In UA semantics with split antecedents, accommodated sets are compared too: a key set whose
response entity has no set is a missing set, a response set no key set corresponds to an
extra set, and corresponding sets whose members are other key entities have wrong members.
They are counted and listed; the scores are those of the partitions (MUC, B³, CEAFe), where
sets play no part, so they cost nothing there.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from corefkit.analysis.mention_types import PRONOUN, ZERO, MentionTyper
from corefkit.alignment.report import alignment_notes
from corefkit.diagnosis import categories as E
from corefkit.diagnosis.report import (
    AnalysisError,
    AnalysisReport,
    DocumentAnalysis,
    ErrorMention,
    build_report,
    size_bucket,
)
from corefkit.errors import FormatError, Repair
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Mention
from corefkit.model.syntax import span_parents, tree_head
from corefkit.scoring.align import match_key
from corefkit.scoring.config import ScoreConfig
from corefkit.scoring.engine import (
    DocumentScorer,
    documents_of,
    side_options,
)
from corefkit.scoring.metrics.standard import Counts
from corefkit.scoring.semantics.corefud import CorefUDAlignment, positions

Identity = Hashable


# ---------------------------------------------------------------------------- one side
class Side:
    """One document of a pair, with what the analysis asks of its mentions (cached)."""

    def __init__(self, doc: Document, name: str, table: Any = None) -> None:
        self.doc = doc
        self.name = name
        self.pos = positions(doc)
        self.at = {p: i for i, p in enumerate(self.pos)}
        self.typer = MentionTyper(doc, table)
        self._parents: dict[int, dict[int, int | None]] = {}

    def identities(self, scheme: str, layer: str) -> dict[Identity, Mention]:
        """The document's scored mentions by the identity the alignment gives them
        (``reference``: extent or tokens; ``nodes``: node positions; ``head``: nodes and
        head), the first of equal ones."""
        found: dict[Identity, Mention] = {}
        for m in self.doc.sorted_mentions():
            entity = self.doc.entity_of(m)
            if m.layer != layer or not m.tokens or entity is None or entity.pseudo:
                continue
            if scheme == "reference":
                found.setdefault(match_key(m), m)
                continue
            words = tuple(sorted(self.pos[t] for t in m.tokens))
            head = m.head if m.head is not None and m.head in m.tokens else m.tokens[0]
            found.setdefault((words, self.pos[head]) if scheme == "head" else words, m)
        return found

    def head(self, m: Mention) -> int:
        """The mention's head token (module docstring)."""
        if m.head is not None and m.head in m.tokens:
            return m.head
        tokens = self.doc.tokens
        words = [t for t in m.tokens if not tokens[t].is_empty]
        if not words:
            return m.tokens[-1]
        core = [t for t in (m.min_tokens or ()) if t in m.tokens and not tokens[t].is_empty]
        for span in (core, words):
            if span and all(tokens[t].id not in (None, "_") for t in span):
                parents = span_parents(self.doc, span, self._parents)
                found = tree_head(self.doc, span, parents=parents, words_only=True)
                if found is not None:
                    return found
        return (core or words)[-1]

    def punctuation(self, index: int) -> bool:
        token = self.doc.tokens[index]
        if token.is_empty:
            return False
        if token.upos not in (None, "_", ""):
            return token.upos in ("PUNCT", "SYM")
        return bool(token.form) and all(unicodedata.category(c)[0] in "PS" for c in token.form)

    def probe(self, m: Mention, other: Side) -> tuple[Side, Mention]:
        """The mention seen in this document when ``other``'s words are here too (the key's
        POS, trees and named entities describe a response mention), else in ``other``."""
        if other is self:
            return self, m
        try:
            tokens = tuple(self.at[other.pos[t]] for t in m.tokens)
        except KeyError:
            return other, m
        head = self.at.get(other.pos[m.head]) if m.head is not None else None
        mins = tuple(self.at[other.pos[t]] for t in m.min_tokens if other.pos[t] in self.at) \
            if m.min_tokens else None
        return self, Mention(-1, tokens, m.layer, head, m.head_derived, mins or None,
                             m.min_derived, m.nonref, m.attrs, m.line)


@dataclass
class Described:
    """An aligned mention: the document mention behind it and its facts."""

    side: Side
    mention: Mention
    facts: E.MentionFacts
    type: str


def describe(side: Side, m: Mention, key: Side) -> Described:
    """The facts of one mention, looked at in the key document where it can be."""
    where, seen = key.probe(m, side)
    kind = where.typer(seen).type
    tokens = seen.tokens
    kept = [t for t in tokens]
    while kept and where.punctuation(kept[0]):
        kept.pop(0)
    while kept and where.punctuation(kept[-1]):
        kept.pop()
    pos = where.pos
    facts = E.MentionFacts(
        order=(pos[tokens[0]], pos[tokens[-1]]),
        head=pos[where.head(seen)],
        trimmed=tuple(pos[t] for t in kept) if kept else None,
        pronoun=kind in (PRONOUN, ZERO),
        zero=where.doc.is_zero(seen))
    return Described(side, m, facts, kind)


# ---------------------------------------------------------------------------- alignment
Descriptions = dict[str, dict[int, Described]]  # side -> aligned index -> its mention there


def aligned_mentions(found: Any, semantics: Any, key: Side, response: Side | None
                     ) -> Descriptions:
    """Every index of the aligned partitions described by the key mention and by the
    response mention that stand there (the same words, or the mentions matching paired)."""
    aligned = found.aligned
    layer = DISCOURSE_DEIXIS if getattr(semantics, "discourse_deixis", False) else IDENTITY
    if isinstance(found, CorefUDAlignment):
        scheme = "head" if getattr(semantics, "match", "exact") == "head" else "nodes"
        response_ids = {i: ident for ident, i in found.response_index.items()}
    else:
        scheme = "reference"
        response_ids = dict(enumerate(aligned.mention_keys))
        for i, first in aligned.response_duplicates.items():
            response_ids[i] = aligned.mention_keys[first]
    described: Descriptions = {"key": {}, "response": {}}
    key_map = key.identities(scheme, layer)
    for i in aligned.key.mentions:
        m = key_map.get(aligned.mention_keys[i])
        if m is not None:
            described["key"][i] = describe(key, m, key)
    if response is not None:
        response_map = response.identities(scheme, layer)
        for i in aligned.response.mentions:
            m = response_map.get(response_ids.get(i))
            if m is not None:
                described["response"][i] = describe(response, m, key)
    return described


def split_changes(key: Any, response: Any, found: CorefUDAlignment) -> list[E.Change]:
    """The split-antecedent errors of a UA document (module docstring): key set entities by
    their response entity (the one holding most of their mentions), members by key entity."""
    key_sets = getattr(key, "sets", {})
    response_sets = getattr(response, "sets", {}) if response is not None else {}
    if not key_sets and not response_sets:
        return []
    chain_of: dict[int, int] = {}
    for c, cluster in enumerate(key.clusters):
        for m in cluster:
            chain_of.setdefault(found.key_index[m.words], c)
    response_chain: dict[int, int] = {}
    for c, cluster in enumerate(response.clusters if response is not None else []):
        for m in cluster:
            response_chain.setdefault(found.response_index[m.words], c)

    def member(identities: Sequence[Identity], index: dict[Any, int]) -> Hashable:
        chains = [chain_of.get(index.get(i, -1)) for i in identities]
        known = [c for c in chains if c is not None]
        return max(set(known), key=known.count) if known else ("unaligned", tuple(identities))

    changes: list[E.Change] = []
    matched: set[int] = set()
    for c, members in sorted(key_sets.items()):
        mentions = tuple(found.key_index[m.words] for m in key.clusters[c])
        votes = [response_chain[i] for i in mentions if i in response_chain]
        partner = max(set(votes), key=votes.count) if votes else None
        if partner is None or partner not in response_sets:
            changes.append(E.Change(E.MISSING_SPLIT, mentions))
            continue
        matched.add(partner)
        want = {member(m, found.key_index) for m in members}
        got = {member(m, found.response_index) for m in response_sets[partner]}
        if want != got:
            changes.append(E.Change(E.SPLIT_MEMBERS, mentions, None, partner))
    for c in sorted(set(response_sets) - matched):
        mentions = tuple(found.response_index[m.words] for m in response.clusters[c])
        changes.append(E.Change(E.EXTRA_SPLIT, mentions, None, c))
    return changes


# ---------------------------------------------------------------------------- one document
@dataclass
class PairResult:
    """One document's analysis: its errors and the counts of every correction scenario."""

    document: DocumentAnalysis
    errors: list[AnalysisError]
    scenarios: dict[tuple[str, ...], dict[str, Counts]]
    notes: list[Repair]


def analyze_pair(scorer: DocumentScorer, config: ScoreConfig, key_doc: Document,
                 response_doc: Document | None, categories: Sequence[str],
                 table: Any = None, anchors: str = "agreed") -> PairResult:
    """Align one pair as ``score`` does, categorise its errors and score every scenario."""
    realigned = []
    if response_doc is not None and config.align is not None:
        found_alignment = scorer.align(key_doc, response_doc)
        response_doc = found_alignment.document
        realigned = alignment_notes([found_alignment.report])
    key_red = scorer.reduce(key_doc)
    response_red = scorer.reduce(response_doc) if response_doc is not None else None
    token_notes: list[Repair] = []
    if response_red is not None and config.align is None:
        response_red, token_notes = scorer.tokens.resolve(key_red, response_red)
    found = scorer.semantics.align(key_red.doc, response_red.doc if response_red else None)
    aligned = found.aligned
    key = Side(key_doc, "key", table)
    response = Side(response_doc, "response", table) if response_doc is not None else None
    described = aligned_mentions(found, scorer.semantics, key, response)
    key_clusters = aligned.key.clusters()
    response_clusters = aligned.response.clusters()
    facts = {i: d.facts for i, d in described["response"].items()}
    facts.update({i: d.facts for i, d in described["key"].items()})  # the key's, where both
    for cluster in key_clusters + response_clusters:  # not mapped back (should not happen)
        for i in cluster:
            facts.setdefault(i, E.MentionFacts((i,)))
    transformation = E.transform(key_clusters, response_clusters, facts, anchors)
    if isinstance(found, CorefUDAlignment) and E.SPLIT_MEMBERS in categories:
        transformation.changes += split_changes(key_red.doc, response_red.doc
                                                if response_red else None, found)
    drop = config.remove_singletons
    scenarios: dict[tuple[str, ...], dict[str, Counts]] = {}
    wanted = [()] + [(c,) for c in categories] + [tuple(categories[:n + 1])
                                                  for n in range(len(categories))]
    for fixed in wanted:
        if fixed not in scenarios:
            state = E.corrected(transformation, fixed)
            scenarios[fixed] = E.state_counts(key_clusters, state, drop)
    errors = [error_record(c, transformation, described, key_doc)
              for c in transformation.changes]
    counts = {c: 0 for c in categories}
    for e in errors:
        counts[e.category] = counts.get(e.category, 0) + 1
    document = DocumentAnalysis(key_doc.name, key_doc.file, counts, scenarios[()])
    notes = [*key_red.repairs, *(response_red.repairs if response_red else []), *token_notes,
             *aligned.notes, *realigned]
    return PairResult(document, errors, scenarios, notes)


RESPONSE_SIDE = (E.CONFLATED_ENTITIES, E.EXTRA_MENTION, E.EXTRA_ZERO, E.EXTRA_ENTITY,
                 E.DIVIDED_ENTITY, E.EXTRA_SPLIT)


def error_record(change: E.Change, found: E.Transformation, described: Descriptions,
                 key_doc: Document) -> AnalysisError:
    """A change as the report gives it: its mentions as the side that has them gives them (a
    span error: the response mention, then the key mention), located at the first of them;
    the mention type of its earliest non-pronoun mention; the size of its entity."""
    if change.category == E.SPAN_ERROR:
        items = [("response", change.replaced), ("key", change.mentions[0])]
    elif change.category in RESPONSE_SIDE:
        original = {c.mentions[0]: c.replaced for c in found.of(E.SPAN_ERROR)}
        items = [("response", original.get(i, i)) for i in change.mentions]
    else:
        items = [("key", i) for i in change.mentions]
    seen = [d for d in (described[side].get(i) for side, i in items if i is not None)
            if d is not None]
    mentions = [_mention(d) for d in seen]
    typed = [described["key"].get(i) or described["response"].get(i) for i in change.mentions]
    known = {n: d for n, d in enumerate(typed) if d is not None}
    first = E.earliest(list(known), {n: d.facts for n, d in known.items()})
    where = next((m for m in mentions if m.line is not None), mentions[0] if mentions else None)
    return AnalysisError(
        change.category, key_doc.name, where.file if where else key_doc.file,
        where.line if where else None, mentions, entity_size(change, found),
        known[first].type if first is not None else "other")


def entity_size(change: E.Change, found: E.Transformation) -> int:
    """The size of the key entity an error concerns (the response entity for extra mentions
    and entities, whose mentions no key entity holds)."""
    if change.key_entity is not None:
        return len(found.key[change.key_entity])
    if change.category in (E.EXTRA_MENTION, E.EXTRA_ZERO, E.EXTRA_ENTITY) \
            and change.response_entity is not None:
        return len(found.response[change.response_entity])
    key_of = {m: k for k, c in enumerate(found.key) for m in c}
    for m in change.mentions:
        if m in key_of:
            return len(found.key[key_of[m]])
    return len(change.mentions)


def _mention(d: Described) -> ErrorMention:
    doc = d.side.doc
    m = d.mention
    return ErrorMention(d.side.name, doc.text(m), list(m.tokens),
                        doc.tokens[m.tokens[0]].sentence if m.tokens else None, m.line,
                        doc.file, d.type)


def pair_by_text(keys: list[Document], responses: list[Document]
                 ) -> tuple[list[tuple[Document, Document | None]], list[Repair]]:
    """Pairs by content (``score`` pairs documents without names so), pieces joined."""
    from corefkit.alignment import join, order_note, pair_by_content

    def words(doc: Document) -> list[str]:
        return [t.form for t in doc.tokens if not t.is_empty]

    found = pair_by_content([words(d) for d in keys], [words(d) for d in responses])
    pairs: list[tuple[Document, Document | None]] = []
    moved = order_note(found, keys, responses)
    notes: list[Repair] = [moved] if moved is not None else []
    for doc, pieces in zip(keys, found.pieces):
        pairs.append((doc, join([responses[i] for i in pieces]) if pieces else None))
        if not pieces:
            notes.append(Repair("score.missing-document", f"document {doc.name} is missing "
                                "from the response; all its mentions count as missed",
                                document=doc.name, action="scored"))
    for i in found.extra:
        notes.append(Repair("score.extra-document", f"document {responses[i].name} is only in "
                            "the response; ignored", document=responses[i].name,
                            action="scored"))
    return pairs, notes


def pair_documents(keys: list[Document], responses: list[Document], strict: bool
                   ) -> tuple[list[tuple[Document, Document | None]], list[Repair]]:
    """The n-th key document called X with the n-th response document called X (as
    ``score`` pairs them); unpaired documents are refused by strict semantics, else noted."""
    waiting: dict[tuple[tuple[str, str], int], Document] = {}
    seen: dict[tuple[str, str], int] = {}
    for doc in responses:
        n = seen.get(doc.pair_key(), 0)
        seen[doc.pair_key()] = n + 1
        waiting[(doc.pair_key(), n)] = doc
    pairs: list[tuple[Document, Document | None]] = []
    notes: list[Repair] = []
    seen = {}
    for doc in keys:
        n = seen.get(doc.pair_key(), 0)
        seen[doc.pair_key()] = n + 1
        answer = waiting.pop((doc.pair_key(), n), None)
        if answer is None:
            if strict:
                raise _misaligned(doc, "of the key is missing from the response")
            notes.append(Repair("score.missing-document", f"document {doc.name} is missing "
                                "from the response; all its mentions count as missed",
                                document=doc.name, action="scored"))
        pairs.append((doc, answer))
    for doc in waiting.values():
        if strict:
            raise _misaligned(doc, "of the response is not in the key")
        notes.append(Repair("score.extra-document", f"document {doc.name} is only in the "
                            "response; ignored", document=doc.name, action="scored"))
    return pairs, notes


def _misaligned(doc: Document, what: str) -> FormatError:
    return FormatError(f"key and response do not hold the same documents: document "
                       f"{doc.name!r} {what}", file=doc.file, line=doc.line,
                       check="pair.documents")


def read_side(source: Any, side: str, config: ScoreConfig) -> list[Document]:
    """One side's documents, read (strictly unless lenient) and normalized as ``score`` reads
    them."""
    from corefkit.passes import apply_passes

    docs = documents_of(source, config.side_format(side), side_options(config, side),
                        config.lenient)
    return list(apply_passes(docs, config.all_passes()))


# ---------------------------------------------------------------------------- the run
def analysis_config(key: Any, response: Any, *, format: str | None,
                    key_format: str | None, response_format: str | None,
                    read_options: dict[str, Any] | None,
                    key_read_options: dict[str, Any] | None,
                    response_read_options: dict[str, Any] | None, align: Any = None,
                    **settings: Any) -> tuple[ScoreConfig, Any, Any]:
    """The run's configuration, as :func:`corefkit.score` resolves it (format detection,
    semantics, reader options routed to each side, alignment), and the sources to read."""
    from corefkit.converters.registry import route_read_options
    from corefkit.scoring.api import _key_format, alignment_settings

    key_format_name, key = _key_format(key, key_format or format)
    response_format_name, response = _key_format(response, response_format or format)
    policy, by_content, settings["lenient"] = alignment_settings(
        align, settings.get("profile"), response_format_name, settings.get("lenient", False))
    key_shared, response_shared = route_read_options(
        read_options or {}, [(key, key_format or format), (response, response_format or format)])
    config = ScoreConfig.build(
        detected_format=key_format_name, metrics="muc,bcub,ceafe,conll", format=format,
        key_format=key_format, response_format=response_format, engine="serial",
        align=policy, pair_by_content=by_content,
        key_read_options={**key_shared, **(key_read_options or {})},
        response_read_options={**response_shared, **(response_read_options or {})},
        **settings)
    return config, key, response


def analyze(key: Any, response: Any, *, format: str | None = None,
            key_format: str | None = None, response_format: str | None = None,
            semantics: str | None = None, profile: str | None = None, match: str | None = None,
            zero_match: str | None = None, keep_zeros: bool | None = None,
            remove_singletons: bool | None = None, remove_split_antecedents: bool = False,
            discourse_deixis: bool = False, passes: Sequence[str] = (),
            read_options: dict[str, Any] | None = None,
            key_read_options: dict[str, Any] | None = None,
            response_read_options: dict[str, Any] | None = None, lenient: bool = False,
            type_table: Any = None, anchors: str = "agreed", align: Any = None
            ) -> AnalysisReport:
    """Categorise the errors of ``response`` against ``key`` (Kummerfeld & Klein 2013).

    ``key`` and ``response`` are what :func:`corefkit.score` takes (paths or documents), read
    and aligned under the same options (format, semantics, profile, matching, zeros,
    singletons, passes, reader options, strict unless ``lenient``). ``type_table`` names the
    mention-type table (:mod:`corefkit.analysis.mention_types`); ``anchors`` which part of an
    entity the others are split from and merged into
    (:func:`corefkit.diagnosis.categories.transform`:
    ``agreed``, or ``analyser`` for the Berkeley analyser's rule). Returns an
    :class:`~corefkit.diagnosis.report.AnalysisReport`. ``align`` as for
    :func:`corefkit.score`: responses re-expressed on the key's tokens first (the alignment
    of each document is reported among the warnings).
    """
    from corefkit._version import __version__
    from corefkit.errors import UsageError
    from corefkit.scoring.engine import source_name

    if anchors not in E.ANCHORS:
        raise UsageError(f"unknown anchor rule {anchors!r}; expected one of "
                         f"{', '.join(E.ANCHORS)}")
    config, key, response = analysis_config(
        key, response, format=format, key_format=key_format, response_format=response_format,
        semantics=semantics, profile=profile, remove_singletons=remove_singletons, match=match,
        zero_match=zero_match, keep_zeros=keep_zeros,
        remove_split_antecedents=remove_split_antecedents, discourse_deixis=discourse_deixis,
        passes=tuple(passes), read_options=read_options, key_read_options=key_read_options,
        response_read_options=response_read_options, lenient=lenient, align=align)
    scorer = DocumentScorer(config)
    categories = list(E.MENTION_CATEGORIES)
    if config.semantics == "ua" and getattr(scorer.semantics, "keep_splits", False):
        categories += E.SPLIT_CATEGORIES
    key_docs = read_side(key, "key", config)
    if not key_docs:
        raise FormatError(f"the key {source_name(key)} holds no document",
                          check="file.no-documents")
    response_docs = read_side(response, "response", config)
    if config.pair_by_content:
        pairs, notes = pair_by_text(key_docs, response_docs)
    else:
        pairs, notes = pair_documents(key_docs, response_docs,
                                      config.semantics != "reference" and config.align is None)
    scenarios: dict[tuple[str, ...], dict[str, Counts]] = {}
    documents, found, warnings = [], [], [*scorer.semantics.warnings(), *notes]
    for key_doc, response_doc in pairs:
        result = analyze_pair(scorer, config, key_doc, response_doc, categories, type_table,
                              anchors)
        documents.append(result.document)
        found.extend(result.errors)
        warnings.extend(result.notes)
        for fixed, counts in result.scenarios.items():
            scenarios[fixed] = E.add_counts(scenarios.get(fixed, {}), counts)
    order = {c: n for n, c in enumerate(categories)}
    found.sort(key=lambda e: order[e.category])  # stable: documents, then positions
    options = {**scorer.semantics.options(), "semantics": scorer.semantics.label,
               "remove_singletons": config.remove_singletons, "passes": list(config.passes),
               "type_table": str(type_table) if type_table is not None else "default",
               "anchors": anchors}
    return build_report(key=source_name(key), response=source_name(response),
                        options=options, categories=categories, documents=documents,
                        errors=found, scenarios=scenarios, warnings=warnings,
                        version=__version__)


__all__ = ["PairResult", "aligned_mentions", "analyze", "analyze_pair", "pair_documents",
           "read_side", "size_bucket", "split_changes"]
