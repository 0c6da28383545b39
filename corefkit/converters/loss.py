"""Capabilities of formats and the loss records a conversion leaves behind.

A format declares which model features it can hold (the capability matrix of
``formats/README.md``). Before a writer emits a document, :func:`find_losses` walks it and
reports, for every feature present that the target lacks, how many objects are affected,
where the first ones are, and what the writer does with them. Nothing is dropped without a
record; ``fail_on_loss`` turns the records into an error before the output file appears.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any

from corefkit.converters.offsets import SUBTOKEN
from corefkit.errors import Repair, UsageError, counted
from corefkit.model import IDENTITY, Bridging, Document, Entity, Mention, SetMembership, Token
from corefkit.model.overlaps import crossings
from corefkit.model.typed_links import LINKS

# Feature names, in the order of the capability matrix: the text layer, the mentions, what hangs
# on them, the document. Every feature counts objects of the source document (tokens, mentions,
# entities, relations, keys), the same objects an independent diff of the source and the
# document read back finds changed or gone (tests/oracle/model_diff.py).
FEATURES: dict[str, str] = {
    "tokens": "token forms",
    "sentences": "sentence boundaries",
    "empty_nodes": "empty nodes",
    "lemmas": "lemmas",
    "pos": "part-of-speech tags (UPOS, XPOS)",
    "morphology": "morphological features (FEATS)",
    "syntax": "dependency trees (HEAD, DEPREL)",
    "enhanced_deps": "enhanced dependencies (DEPS)",
    "misc": "MISC items other than coreference",
    "token_columns": "other CoNLL-2012 columns (parse bits, senses, named entities, ...)",
    "speakers": "speakers",
    "singletons": "entities with a single mention",
    "discontinuous": "discontinuous mentions",
    "zeros": "zero mentions (on empty nodes only)",
    "mentions_with_empty_nodes": "mentions that include empty nodes",
    "crossing_same_entity": "crossing mentions of the same entity",
    "crossing_mentions": "crossing mentions of different entities",
    "mentions_over_lost_tokens": "mentions over tokens that are lost",
    "cross_sentence": "mentions that cross a sentence boundary",
    "heads": "mention heads",
    "min_spans": "minimum spans",
    "split_antecedents": "split antecedents (accommodated sets)",
    "bridging": "bridging relations",
    "discourse_deixis": "discourse-deixis layer",
    "non_referring": "non-referring markables",
    "unlinked_mentions": "mentions without an entity",
    "mention_attributes": "mention attributes",
    "entity_attributes": "entity attributes",
    "typed_links": "typed links (the antecedents and type code of each LCC link)",
    "metadata": "document metadata",
    "names": "document names",
    "parts": "document parts",
    "opaque_levels": "other annotation levels (kept uninterpreted)",
    "sub_token": "mentions that start or end inside a token (sub-token annotations)",
}

# Features every format holds as far as its writer is concerned (their losses, where a shape or
# option cannot hold them, come from the writer: token forms, sentences, document names).
WRITER_REPORTED = frozenset({"tokens", "sentences", "names"})
# Mention-level features: a mention that has one and is dropped takes what hangs on it along.
MENTION_FEATURES = ("singletons", "discontinuous", "zeros", "mentions_with_empty_nodes",
                    "crossing_same_entity", "crossing_mentions", "mentions_over_lost_tokens",
                    "cross_sentence", "non_referring", "unlinked_mentions", "discourse_deixis")
# Token columns: feature -> the Token fields it covers.
COLUMN_FIELDS = {"lemmas": ("lemma",), "pos": ("upos", "xpos"), "morphology": ("feats",),
                 "syntax": ("head", "deprel"), "enhanced_deps": ("deps",)}
COREFERENCE_MISC = ("Entity=", "SplitAnte=", "Bridge=", "Split=")
EMPTY_VALUES = (None, "", "_", "-")

# What a writer does with a feature it cannot hold, where it is not "dropped"
DEFAULT_ACTIONS = {"mentions_with_empty_nodes": "approximated (written without their empty "
                                                "nodes)",
                   "sub_token": "approximated (widened to whole tokens)"}

# Attribute keys that hold identifiers rather than annotation: renumbering them is reported
# through the id maps of a conversion, not as lost attributes.
ID_ATTRIBUTES = frozenset({"original_id", "markable_id"})


# How a writer that cannot hold discontinuous mentions writes them (``--discontinuous``):
# left out, as their extent (gaps filled), or as their first contiguous part.
DISCONTINUOUS_MODES = ("drop", "extent", "first")
_DISCONTINUOUS_ACTIONS = {
    "drop": "dropped",
    "extent": "approximated (written as their extent, gaps filled)",
    "first": "approximated (only their first contiguous part written)",
}


def discontinuous_action(mode: str = "drop") -> str:
    """The loss-report action for discontinuous mentions written with ``mode``."""
    if mode not in _DISCONTINUOUS_ACTIONS:
        raise UsageError(f"unknown --discontinuous mode {mode!r}; expected one of "
                         f"{', '.join(DISCONTINUOUS_MODES)}")
    return _DISCONTINUOUS_ACTIONS[mode]


def writable_tokens(mention: Mention, discontinuous: str = "drop") -> tuple[int, ...] | None:
    """The tokens a writer without discontinuous mentions writes for ``mention``.

    Contiguous mentions are written as they are; a discontinuous one is left out (None) with
    ``drop``, written over its extent with ``extent``, or as its first part with ``first``.
    Writers call this where they choose the mentions to write, so that every format without
    discontinuous mentions treats them the same way.
    """
    if mention.is_contiguous:
        return mention.tokens
    if discontinuous == "drop":
        return None
    if discontinuous == "extent":
        return tuple(range(mention.start, mention.end + 1))
    if discontinuous == "first":
        first, last = mention.parts()[0]
        return tuple(range(first, last + 1))
    discontinuous_action(discontinuous)  # raises the usage error
    return None


def approximate_discontinuous(doc: Document, discontinuous: str) -> Document:
    """``doc`` with every discontinuous mention written as ``writable_tokens`` says.

    For writers that do not choose mentions with :func:`writable_tokens` themselves: the
    registry hands them this copy (it shares the text layer; the original is unchanged).
    """
    if all(m.is_contiguous for m in doc.mentions):
        return doc
    copy = doc.copy(text=False)
    for mention in copy.mentions:
        if not mention.is_contiguous:
            tokens = writable_tokens(mention, discontinuous)
            if tokens is None:
                copy.remove_mention(mention)
            else:
                mention.tokens = tokens
    return copy


def user_attributes(attrs: dict) -> list[str]:
    """The attribute names that carry annotation (not ids, not ``_``-prefixed bookkeeping)."""
    return [k for k in attrs if k not in ID_ATTRIBUTES and not k.startswith("_")]


@dataclass
class LossRecord:
    """``count`` objects of ``feature`` could not be carried; ``action`` says what happened.

    ``objects`` are the objects themselves (mentions, entities, relations, tokens) where the
    record knows them: :func:`cascade` follows them to what hangs on them.
    """

    feature: str
    count: int
    action: str  # dropped | approximated | moved | changed | renamed, then why
    examples: list[str] = field(default_factory=list)
    document: str | None = None
    objects: list[Any] = field(default_factory=list, repr=False, compare=False)

    @property
    def dropped(self) -> bool:
        """True if the objects are gone (not written in another form)."""
        return self.action.startswith(("dropped", "later mention dropped"))

    def __str__(self) -> str:
        what = FEATURE_NAMES.get(self.feature, self.feature)
        where = f" in {self.document}" if self.document else ""
        ex = f" (first: {'; '.join(self.examples)})" if self.examples else ""
        return f"{self.count} {what} {self.action}{where}{ex}"


@dataclass
class ConversionReport:
    """What a read/write run did: documents, repairs, losses and renumbered ids."""

    documents: int = 0
    repairs: list[Repair] = field(default_factory=list)
    losses: list[LossRecord] = field(default_factory=list)
    id_maps: dict[str, dict[str, str]] = field(default_factory=dict)

    def loss_totals(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for record in self.losses:
            totals[record.feature] = totals.get(record.feature, 0) + record.count
        return totals

    def merge(self, other: ConversionReport) -> None:
        self.documents += other.documents
        self.repairs.extend(other.repairs)
        self.losses.extend(other.losses)
        self.id_maps.update(other.id_maps)


MAX_EXAMPLES = 5


def describe_mention(doc: Document, mention: Mention) -> str:
    """``tokens 3-5 'the old man' (line 12)`` — a location a person can find."""
    if not mention.tokens:
        span = "no tokens"
    elif mention.is_contiguous:
        span = f"tokens {mention.start}-{mention.end}"
    else:
        span = "tokens " + ",".join(f"{a}-{b}" for a, b in mention.parts())
    text = doc.text(mention) if mention.tokens else ""
    if len(text) > 40:
        text = text[:37] + "..."
    line = f", line {mention.line}" if mention.line is not None else ""
    return f"{span} {text!r}{line}"


def describe(doc: Document, item: Any) -> str:
    """A location of any object a loss record counts."""
    if isinstance(item, Mention):
        return describe_mention(doc, item)
    if isinstance(item, Entity):
        return f"entity {item.id}"
    if isinstance(item, SetMembership):
        return f"entity {item.member.id} in set {item.set_entity.id}"
    if isinstance(item, Bridging):
        return describe_mention(doc, item.anaphor)
    if isinstance(item, Token):
        return describe_token(doc, item)
    if isinstance(item, dict) and "anaphor" in item:  # a typed link record
        return f"link {item.get('index', '?')}"
    return str(item)


def describe_token(doc: Document, token: Token) -> str:
    """``sentence 3, word 5 '\\n'`` (1-based, the form escaped) — where a person finds it."""
    sentence = doc.sentences[token.sentence] if 0 <= token.sentence < len(doc.sentences) else None
    if sentence is None:
        return f"token {token.index + 1} {token.form!r}"
    words = [i for i in sentence.token_indices() if not doc.tokens[i].is_empty]
    place = (f"word {words.index(token.index) + 1}" if token.index in words
             else f"empty node {token.id or token.index}")
    return f"sentence {sentence.index + 1}, {place} {token.form!r}"


def record(doc: Document, feature: str, found: list[Any], action: str = "dropped"
           ) -> list[LossRecord]:
    """One loss record for ``found`` (empty: none), its first examples described."""
    if not found:
        return []
    examples = [describe(doc, item) for item in found[:MAX_EXAMPLES]]
    return [LossRecord(feature, len(found), action, examples, doc.name, list(found))]


# ---------------------------------------------------------------------------- text layer
def column_value(token: Token, feature: str) -> Any:
    """What ``token`` has of a token-column feature (None: nothing)."""
    fields = COLUMN_FIELDS.get(feature)
    if fields is not None:
        values = tuple([getattr(token, name) for name in fields])
        for value in values:
            if value not in _EMPTY:
                return values
        return None
    if feature == "misc":
        misc = token.misc
        if not misc or misc == "_":
            return None
        items = [i for i in misc.split("|")
                 if i and i != "_" and not i.startswith(COREFERENCE_MISC)]
        return tuple(items) or None
    if feature == "token_columns":
        return opaque_columns(token) if "conll_columns" in token.attrs else None
    raise ValueError(feature)


_EMPTY = frozenset(EMPTY_VALUES)


def tokens_with_column(tokens: list[Token], feature: str) -> list[Token]:
    """The tokens that have something of a token-column feature. The columns are read a
    field at a time first (most documents have none of most columns), then token by token
    where some value is there."""
    if feature == "token_columns":
        return [t for t in tokens if "conll_columns" in t.attrs and opaque_columns(t)]
    names = COLUMN_FIELDS.get(feature, ("misc",))
    if all(_EMPTY.issuperset(map(attrgetter(name), tokens)) for name in names):
        return []
    return [t for t in tokens if column_value(t, feature) is not None]


def opaque_columns(token: Token) -> tuple[str, ...] | None:
    """The CoNLL-2012 columns after the word that the model does not interpret (parse bits,
    predicate lemma and sense, named entities, arguments): those a CoNLL-2012 reader did not
    read into ``xpos``, ``lemma`` and ``speaker``. None when there are none or all are empty."""
    columns = token.attrs.get("conll_columns")
    if not isinstance(columns, list) or len(columns) < 5:
        return None
    interpreted = {4, 6, 9} if len(columns) >= 11 else set()
    values = tuple("" if k in interpreted or c in EMPTY_VALUES else c
                   for k, c in enumerate(columns) if k >= 4)
    return values if any(values) else None


def speaker_of(doc: Document, token: Token) -> str | None:
    """A word's speaker: its own, else its sentence's."""
    if token.speaker:
        return token.speaker
    if 0 <= token.sentence < len(doc.sentences):
        return doc.sentences[token.sentence].speaker or None
    return None


def written_tokens(doc: Document, can: Iterable[str]) -> list[Token]:
    """The tokens a writer that holds ``can`` writes: words, and empty nodes where held."""
    if "empty_nodes" in can:
        return list(doc.tokens)
    return [t for t in doc.tokens if not t.is_empty]


def speakers_by_sentence_lost(doc: Document, tokens: Iterable[Token]) -> list[Token]:
    """The words whose speaker a format with one speaker a sentence (``# speaker``) loses:
    those whose speaker is not their sentence's."""
    sentences = doc.sentences
    lost = []
    for token in tokens:
        speaker = speaker_of(doc, token)
        if speaker is not None and (not 0 <= token.sentence < len(sentences)
                                    or sentences[token.sentence].speaker != speaker):
            lost.append(token)
    return lost


# ---------------------------------------------------------------------------- detectors
def _detectors(doc: Document, can: frozenset[str]) -> dict[str, Callable[[], list[Any]]]:
    """For each feature, a function listing the objects of ``doc`` that have it."""

    ordered: list[Mention] = []

    def mentions_where(pred: Callable[[Mention], bool]) -> list[Any]:
        if not ordered:
            ordered.extend(doc.sorted_mentions())
        return [m for m in ordered if pred(m)]

    words: list[Token] = []

    def tokens_with(feature: str) -> Callable[[], list[Any]]:
        def detect() -> list[Any]:
            if not words:
                words.extend(written_tokens(doc, can))
            return tokens_with_column(words, feature)
        return detect

    def singletons() -> list[Any]:
        found = []
        for entity in doc.entities_in(IDENTITY):
            ms = doc.mentions_of(entity)
            if len(ms) == 1:
                found.append(ms[0])
        return found

    def cross_sentence(m: Mention) -> bool:
        return bool(m.tokens) and doc.tokens[m.start].sentence != doc.tokens[m.end].sentence

    def parts() -> list[Any]:
        _, part = doc.pair_key()
        return [] if part == "0" else [f"part {doc.part}"]

    def opaque_levels() -> list[Any]:
        levels = doc.attrs.get("opaque_levels") or {}
        return [f"level {name} ({counted(len(markables), 'markable')})"
                for name, markables in sorted(levels.items())]

    def typed_links() -> list[Any]:
        by_id = {m.id for m in doc.mentions}
        return [r for r in doc.attrs.get(LINKS, ()) if r["anaphor"] in by_id]

    return {
        "empty_nodes": lambda: [t for t in doc.tokens if t.is_empty],
        **{feature: tokens_with(feature) for feature in (*COLUMN_FIELDS, "misc",
                                                        "token_columns")},
        "speakers": lambda: [] if not any(s.speaker for s in doc.sentences) and all(
            t.speaker is None for t in doc.tokens) else [
            t for t in written_tokens(doc, can) if speaker_of(doc, t)],
        "singletons": singletons,
        "discontinuous": lambda: mentions_where(lambda m: not m.is_contiguous),
        "zeros": lambda: mentions_where(
            lambda m: bool(m.tokens) and all(doc.tokens[t].is_empty for t in m.tokens)),
        "mentions_with_empty_nodes": lambda: mentions_where(
            lambda m: any(doc.tokens[t].is_empty for t in m.tokens)
            and not all(doc.tokens[t].is_empty for t in m.tokens)),
        "crossing_same_entity": lambda: list(crossing_same_entity_mentions(doc)),
        "cross_sentence": lambda: mentions_where(cross_sentence),
        "heads": lambda: mentions_where(lambda m: m.head is not None and not m.head_derived),
        "min_spans": lambda: mentions_where(lambda m: m.min_tokens is not None
                                            and not m.min_derived),
        "split_antecedents": doc.memberships,
        "bridging": doc.bridging,
        "discourse_deixis": lambda: mentions_where(lambda m: m.layer != IDENTITY),
        "non_referring": lambda: mentions_where(lambda m: m.nonref is not None),
        "unlinked_mentions": lambda: mentions_where(
            lambda m: m.nonref is None and m.layer == IDENTITY and doc.entity_of(m) is None),
        "mention_attributes": lambda: mentions_where(lambda m: bool(user_attributes(m.attrs))),
        "entity_attributes": lambda: [e for e in doc.entities if user_attributes(e.attrs)],
        "typed_links": typed_links,
        "metadata": lambda: sorted(doc.meta),
        "parts": parts,
        "opaque_levels": opaque_levels,
        "sub_token": lambda: mentions_where(lambda m: SUBTOKEN in m.attrs),
    }


def crossing_same_entity_mentions(doc: Document) -> list[Mention]:
    """Later mentions of pairs of same-entity mentions that cross (overlap, neither inside).

    Two mentions that only touch — the last token of one is the first of the other — do not
    count: bracket formats write them as ``X)|(X`` on the shared token.
    """
    later: list[Mention] = []
    for entity in doc.entities:
        if doc.size(entity) > 1:  # a sweep over the extents, O(k log k) (model/overlaps.py)
            later.extend(c.mention for c in crossings(doc.mentions_of(entity, ordered=False),
                                                      touching=False, extents=True))
    later.sort(key=lambda m: (m.start, -m.end, m.id))
    return later


def find_losses(
    doc: Document,
    capabilities: Iterable[str],
    actions: dict[str, str] | None = None,
) -> list[LossRecord]:
    """Loss records for every feature of ``doc`` that ``capabilities`` does not include.

    ``actions`` overrides the default action (``dropped``; for mentions that include empty
    nodes, written without them, as every writer without empty nodes does) per feature.
    """
    can = frozenset(capabilities)
    actions = {**DEFAULT_ACTIONS, **(actions or {})}
    records = []
    for feature, detect in _detectors(doc, can).items():
        if feature in can or feature == "token_columns":  # per column: conll_column_losses
            continue
        records += record(doc, feature, detect(), actions.get(feature, "dropped"))
    return records


# The CoNLL-2012 columns between the word and the coreference column, as the OntoNotes
# layout names them (formats/conll2012.md; 0-based, the coreference column not counted); a
# later column holds predicate arguments. The reader keeps them with each token
# (``conll_columns``) and fills the model's XPOS, LEMMA and speaker from 4, 6 and 9.
CONLL_COLUMNS = {4: "POS", 5: "parse bit", 6: "predicate lemma", 7: "predicate frameset",
                 8: "word sense", 9: "speaker", 10: "named entities"}
ONTONOTES_WIDTH = 11               # columns of a token line before the coreference column
CONLL_PLACEHOLDERS = frozenset({"-", "_", "*"})  # "nothing here" in those columns
COLUMNS_FEATURE = "conll_columns"  # the loss records of dropped CoNLL-2012 columns
# the columns the reader reads into the model (XPOS, LEMMA, speaker): a writer that drops
# them reports the model's features (``pos``, ``lemmas``, ``speakers``), once
INTERPRETED_COLUMNS = frozenset({"POS", "predicate lemma", "speaker"})
EVERY_COLUMN = frozenset({"*"})    # a writer's answer when it keeps every column
FEATURE_NAMES = {**FEATURES, COLUMNS_FEATURE: "words with a value in a CoNLL-2012 column"}


def conll_column_name(index: int, width: int) -> str:
    """What the 0-based column ``index`` of a token line of ``width`` columns (without the
    coreference column) holds: its OntoNotes name, else its number."""
    if width >= ONTONOTES_WIDTH:
        return CONLL_COLUMNS.get(index, "predicate arguments")
    return f"column {index + 1}"


def conll_column_losses(doc: Document, kept: frozenset[str] = frozenset()) -> list[LossRecord]:
    """Loss records for the CoNLL-2012 columns of ``doc`` (read from CoNLL-2012) that hold
    values and that a writer does not keep: one record per column name, counting the words
    with a value (not ``-``, ``_`` or ``*``). ``kept`` names the columns the writer carries
    (:data:`EVERY_COLUMN`: all). The POS, predicate lemma and speaker columns are read into
    the model and reported as its ``pos``, ``lemmas`` and ``speakers`` features; the model's
    ``token_columns`` (the columns it does not interpret, per word) is this report's other
    view and is not reported beside it."""
    if kept == EVERY_COLUMN:
        return []
    counts: dict[str, int] = {}
    firsts: dict[str, list[str]] = {}
    numbers: dict[str, tuple[int, int]] = {}  # 1-based, first and last
    for token in doc.tokens:
        row = token.attrs.get("conll_columns")
        if not row or len(row) <= 4:
            continue
        for index in range(4, len(row)):
            value = row[index]
            if value in CONLL_PLACEHOLDERS:
                continue
            name = conll_column_name(index, len(row))
            if name in kept or name in INTERPRETED_COLUMNS:
                continue
            counts[name] = counts.get(name, 0) + 1
            low, high = numbers.get(name, (index + 1, index + 1))
            numbers[name] = (min(low, index + 1), max(high, index + 1))
            shown = firsts.setdefault(name, [])
            if len(shown) < MAX_EXAMPLES:
                shown.append(f"word {token.index} {token.form!r}: {value!r}")
    def where(name: str) -> str:
        low, high = numbers[name]
        return f"column {low}" if low == high else f"columns {low}-{high}"

    return [LossRecord(COLUMNS_FEATURE, count, f"dropped: {name}, {where(name)}", firsts[name],
                       doc.name) for name, count in counts.items()]


def features_present(doc: Document) -> dict[str, int]:
    """How many objects of each feature the document has (for ``stats`` and tests)."""
    return {feature: len(detect())
            for feature, detect in _detectors(doc, frozenset({"empty_nodes"})).items()}


# ---------------------------------------------------------------------------- cascades
def cascade(doc: Document, records: list[LossRecord]) -> list[LossRecord]:
    """``records`` with what hangs on dropped mentions and entities counted as dropped too.

    A mention a record drops (a zero, a discontinuous or non-referring mention, ...) takes
    along its head, min span and attributes, the bridging relations it is the anaphor of and
    the typed links it is the referring expression of; an entity all of whose mentions are
    dropped (or that has none) takes its attributes, its set memberships and the bridging
    relations anchored in it. Where the target holds such a feature, they get a record of their own; where a record
    already says they are written in another form (heads as UA's Min), they move from it to a
    ``dropped`` one, so that every object is counted once, with what really happened to it.
    """
    dropped: set[Mention] = set()
    for rec in records:
        if rec.feature in MENTION_FEATURES and rec.dropped:
            dropped.update(o for o in rec.objects if isinstance(o, Mention))
    if not dropped and all(doc.size(e) for e in doc.entities):
        return records
    # a mention dropped for one reason is dropped, not approximated, for every other of the
    # features the records name
    out: list[LossRecord] = []
    for rec in records:
        gone = [o for o in rec.objects if o in dropped] \
            if rec.feature in MENTION_FEATURES and not rec.dropped else []
        if not gone:
            out.append(rec)
            continue
        out += record(doc, rec.feature, [o for o in rec.objects if o not in dropped], rec.action)
        out += record(doc, rec.feature, gone, _ALSO)
    named = {rec.feature for rec in out if rec.feature in MENTION_FEATURES}
    if named:
        detectors = _detectors(doc, frozenset())
        for feature in sorted(named & set(detectors)):
            counted = {o for rec in out if rec.feature == feature and rec.dropped
                       for o in rec.objects}
            more = [m for m in detectors[feature]() if m in dropped and m not in counted]
            out += record(doc, feature, more, _ALSO)
    records = out
    # an entity without a mention is written nowhere either
    gone_entities = {e for e in doc.entities if all(m in dropped for m in doc.mentions_of(e))}
    hanging: dict[str, list[Any]] = {
        "heads": [m for m in dropped if m.head is not None and not m.head_derived],
        "min_spans": [m for m in dropped if m.min_tokens is not None and not m.min_derived],
        "mention_attributes": [m for m in dropped if user_attributes(m.attrs)],
        "entity_attributes": [e for e in gone_entities if user_attributes(e.attrs)],
        "split_antecedents": [s for s in doc.memberships()
                              if s.member in gone_entities or s.set_entity in gone_entities],
        "bridging": [b for b in doc.bridging()
                     if b.anaphor in dropped or b.anchor in gone_entities],
        "typed_links": [r for r in doc.attrs.get(LINKS, ()) if r["anaphor"] in
                        {m.id for m in dropped}],
    }
    out = list(records)
    for feature, found in hanging.items():
        if not found:
            continue
        order = {_key(o): k for k, o in enumerate(_ordered(doc, feature))}
        found = sorted(found, key=lambda o: order.get(_key(o), len(order)))
        counted = {_key(o) for rec in out if rec.feature == feature and rec.dropped
                   for o in rec.objects}
        moved = {_key(o) for o in found}
        rest = []
        for rec in out:
            if rec.feature == feature and not rec.dropped and \
                    moved & {_key(o) for o in rec.objects}:
                kept = [o for o in rec.objects if _key(o) not in moved]
                rest += record(doc, feature, kept, rec.action)
            else:
                rest.append(rec)
        out = rest
        new = [o for o in found if _key(o) not in counted]
        out += record(doc, feature, new, "dropped (what they belong to is not written)")
    # a bridging relation kept whose anchor mention is not written names another, or none
    counted = {_key(o) for rec in out if rec.feature == "bridging" for o in rec.objects}
    out += record(doc, "bridging", [b for b in doc.bridging() if b.anchor_mention in dropped
                                     and _key(b) not in counted],
                  "approximated (its anchor mention is not written)")
    return out


_ALSO = "dropped (not written: see the other features of the same mentions)"


def _key(item: Any) -> Any:
    """What identifies a counted object: itself (mentions and entities by identity, relations
    by value), a typed link by its place in the file."""
    return ("link", item.get("index"), item.get("anaphor")) if isinstance(item, dict) else item


def _ordered(doc: Document, feature: str) -> list[Any]:
    """The objects of a cascaded feature in document order (for stable examples)."""
    if feature in ("heads", "min_spans", "mention_attributes"):
        return doc.sorted_mentions()
    if feature == "entity_attributes":
        return doc.entities
    if feature == "split_antecedents":
        return doc.memberships()
    if feature == "bridging":
        return doc.bridging()
    return list(doc.attrs.get(LINKS, ()))
