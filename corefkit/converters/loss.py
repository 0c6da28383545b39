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

from corefkit.converters.offsets import SUBTOKEN
from corefkit.errors import Repair, UsageError, counted
from corefkit.model import IDENTITY, Document, Mention

# Feature names, in the order of the capability matrix.
FEATURES: dict[str, str] = {
    "singletons": "entities with a single mention",
    "discontinuous": "discontinuous mentions",
    "zeros": "zero mentions (on empty nodes only)",
    "empty_nodes": "mentions that include empty nodes",
    "crossing_same_entity": "crossing mentions of the same entity",
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
    "metadata": "document metadata",
    "speakers": "speakers",
    "parts": "document parts",
    "opaque_levels": "other annotation levels (kept uninterpreted)",
    "sub_token": "mentions that start or end inside a token (sub-token annotations)",
}

# What a writer does with a feature it cannot hold, where it is not "dropped"
DEFAULT_ACTIONS = {"empty_nodes": "approximated (written without their empty nodes)",
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
    """``count`` objects of ``feature`` could not be carried; ``action`` says what happened."""

    feature: str
    count: int
    action: str  # dropped | approximated | moved
    examples: list[str] = field(default_factory=list)
    document: str | None = None

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


def _detectors(doc: Document) -> dict[str, Callable[[], list[str]]]:
    """For each feature, a function listing descriptions of the objects that have it."""

    ordered: list[Mention] = []

    def mentions_where(pred: Callable[[Mention], bool]) -> list[str]:
        if not ordered:
            ordered.extend(doc.sorted_mentions())
        found = [m for m in ordered if pred(m)]
        # only the examples a loss record shows are described (a text per mention is costly
        # on large documents); the rest just count
        shown = [describe_mention(doc, m) for m in found[:MAX_EXAMPLES]]
        return shown + [""] * (len(found) - len(shown))

    def singletons() -> list[str]:
        found = []
        for entity in doc.entities_in(IDENTITY):
            ms = doc.mentions_of(entity)
            if len(ms) == 1:
                found.append(describe_mention(doc, ms[0]))
        return found

    def crossing_same_entity() -> list[str]:
        return [describe_mention(doc, m) for m in crossing_same_entity_mentions(doc)]

    def cross_sentence(m: Mention) -> bool:
        return bool(m.tokens) and doc.tokens[m.start].sentence != doc.tokens[m.end].sentence

    def split_antecedents() -> list[str]:
        return [f"entity {s.member.id} in set {s.set_entity.id}" for s in doc.memberships()]

    def bridging() -> list[str]:
        return [describe_mention(doc, b.anaphor) for b in doc.bridging()]

    def entity_attributes() -> list[str]:
        return [f"entity {e.id}" for e in doc.entities if user_attributes(e.attrs)]

    def metadata() -> list[str]:
        return sorted(doc.meta)

    def speakers() -> list[str]:
        found = [f"sentence {s.index}" for s in doc.sentences if s.speaker]
        found += [f"token {t.index}" for t in doc.tokens if t.speaker]
        return found

    def parts() -> list[str]:
        _, part = doc.pair_key()
        return [] if part == "0" else [f"part {doc.part}"]

    def opaque_levels() -> list[str]:
        levels = doc.attrs.get("opaque_levels") or {}
        return [f"level {name} ({counted(len(markables), 'markable')})"
                for name, markables in sorted(levels.items())]

    return {
        "singletons": singletons,
        "discontinuous": lambda: mentions_where(lambda m: not m.is_contiguous),
        "zeros": lambda: mentions_where(
            lambda m: bool(m.tokens) and all(doc.tokens[t].is_empty for t in m.tokens)),
        "empty_nodes": lambda: mentions_where(
            lambda m: any(doc.tokens[t].is_empty for t in m.tokens)
            and not all(doc.tokens[t].is_empty for t in m.tokens)),
        "crossing_same_entity": crossing_same_entity,
        "cross_sentence": lambda: mentions_where(cross_sentence),
        "heads": lambda: mentions_where(lambda m: m.head is not None and not m.head_derived),
        "min_spans": lambda: mentions_where(lambda m: m.min_tokens is not None and not m.min_derived),
        "split_antecedents": split_antecedents,
        "bridging": bridging,
        "discourse_deixis": lambda: mentions_where(lambda m: m.layer != IDENTITY),
        "non_referring": lambda: mentions_where(lambda m: m.nonref is not None),
        "unlinked_mentions": lambda: mentions_where(
            lambda m: m.nonref is None and m.layer == IDENTITY and doc.entity_of(m) is None),
        "mention_attributes": lambda: mentions_where(lambda m: bool(user_attributes(m.attrs))),
        "entity_attributes": entity_attributes,
        "metadata": metadata,
        "speakers": speakers,
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
        ms = doc.mentions_of(entity)  # sorted by start, longer first
        reach: list[Mention] = []  # earlier mentions still open
        for m in ms:
            reach = [a for a in reach if a.end >= m.start]
            if any(a.start < m.start < a.end < m.end for a in reach):
                later.append(m)
            reach.append(m)
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
    can = set(capabilities)
    actions = {**DEFAULT_ACTIONS, **(actions or {})}
    records = []
    for feature, detect in _detectors(doc).items():
        if feature in can:
            continue
        found = detect()
        if found:
            records.append(LossRecord(
                feature=feature, count=len(found), action=actions.get(feature, "dropped"),
                examples=found[:MAX_EXAMPLES], document=doc.name,
            ))
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
    (:data:`EVERY_COLUMN`: all); the speaker column is reported as the ``speakers`` feature."""
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
            if name in kept or name == "speaker":
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
    return {feature: len(detect()) for feature, detect in _detectors(doc).items()}
