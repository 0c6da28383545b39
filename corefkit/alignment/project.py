"""A response document re-expressed on the key's tokens.

:func:`align` links the response's words to the key's (:mod:`corefkit.alignment.words`), places
the response's empty nodes, and rebuilds the response's annotation — mentions, entities,
accommodated sets, bridging, non-referring markables — on a copy of the key's text layer. A
response mention covers the key tokens from the first key token of its first linked word to the
last key token of its last linked word (key words it skips are inside it, as are key empty
nodes the response does not place elsewhere); a boundary word without counterpart moves the
boundary inward (*moved*); a boundary inside a key token follows the ``boundary`` policy:
``expand`` takes the whole token (*expanded*), ``unaligned`` drops the mention; an edge on a
response token that joins several key tokens follows the ``merged`` policy (*trimmed*, see
:class:`AlignmentPolicy`). A mention with
no key token left is *unaligned*: with ``keep_unaligned`` it stays in the document on tokens of
its own after the key's, outside every sentence, where it matches no key mention and so counts
as spurious; otherwise it is dropped (a converted file holds the key's text only).
"""

from __future__ import annotations

import gc
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from corefkit.alignment.text import comparable
from corefkit.alignment.report import EXPANDED, MOVED, TRIMMED, UNALIGNED, DocumentAlignment
from corefkit.alignment.words import WordLinks, link_words
from corefkit.errors import UsageError
from corefkit.model import Document, Mention, Sentence, Token
from corefkit.model.syntax import MISSING_HEADS, udapi_head
from corefkit.model.text_order import linear_order

BOUNDARIES = ("expand", "unaligned")
MERGED = ("trim", "keep")
TRUNCATED_WORDS = 3      # missing key words at the end from which a response is truncated
# key tokens a mention edge leaves out of a response token that joined them with others:
# punctuation at either edge, a preposition at the start, a clitic or auxiliary at the end
TRIM_START = frozenset({"PUNCT", "ADP"})
TRIM_END = frozenset({"PUNCT", "AUX", "PART"})


@dataclass(frozen=True)
class AlignmentPolicy:
    """How an alignment resolves what the response's tokens cannot say.

    ``boundary``: a mention boundary inside a key token takes the whole token (``expand``) or
    leaves the mention unaligned (``unaligned``). ``merged``: a mention edge on a response token
    that covers several key tokens (``Immortality.``, ``I'm``, ``del``) leaves out the key
    tokens that cannot be a mention's edge (``trim``: punctuation; a preposition at the start;
    an auxiliary or particle at the end — by UPOS, else punctuation by its characters), or
    keeps them all (``keep``: the response's characters taken literally).
    """

    boundary: str = "expand"
    merged: str = "trim"

    def __post_init__(self) -> None:
        if self.boundary not in BOUNDARIES:
            raise UsageError(f"unknown alignment boundary policy {self.boundary!r}; expected "
                             f"one of {', '.join(BOUNDARIES)}")
        if self.merged not in MERGED:
            raise UsageError(f"unknown alignment policy for merged tokens {self.merged!r}; "
                             f"expected one of {', '.join(MERGED)}")

    def __str__(self) -> str:
        return f"boundary {self.boundary}, merged {self.merged}"

TokenLink = tuple[int, int, bool, bool]   # first, last aligned token; starts/ends inside


@dataclass
class Aligned:
    """A response document on the key's tokens, and what the alignment did."""

    document: Document
    report: DocumentAlignment


def align(key: Document, response: Document, policy: AlignmentPolicy | None = None, *,
          keep_unaligned: bool = True) -> Aligned:
    """Re-express ``response`` on the tokens of ``key`` (see the module's description).

    Python's cyclic garbage collector is paused meanwhile: the new mentions would make it scan
    both documents' objects again and again (half the time of a 10,000-token document)."""
    paused = gc.isenabled()
    gc.disable()
    try:
        return _align(key, response, policy or AlignmentPolicy(), keep_unaligned)
    finally:
        if paused:
            gc.enable()


def _align(key: Document, response: Document, policy: AlignmentPolicy,
           keep_unaligned: bool) -> Aligned:
    key_tokens, response_tokens = key.tokens, response.tokens
    key_words = [i for i, t in enumerate(key_tokens) if not t.is_empty]
    response_words = [i for i, t in enumerate(response_tokens) if not t.is_empty]
    words = link_words([key_tokens[i].form for i in key_words],
                       [response_tokens[i].form for i in response_words])
    report = DocumentAlignment(key.name, response.name, words.mode, policy.boundary,
                               policy.merged,
                               key_words=len(key_words), response_words=len(response_words),
                               words_equal=words.equal, words_replaced=words.replaced,
                               words_inserted=words.inserted, words_deleted=words.deleted)
    _count_tokens(words, len(key_words), report)
    layer = _Layer(key, response, words, key_words, response_words, report)
    builder = _Builder(key, response, layer, policy, keep_unaligned, report)
    document = builder.build()
    _missing(key, layer, report)
    return Aligned(document, report)


def _count_tokens(words: WordLinks, key_count: int, report: DocumentAlignment) -> None:
    cover = [0] * key_count
    for link in words.links:
        if link is None:
            continue
        if link[0] != link[1]:
            report.tokens_merged += 1
        for w in range(link[0], link[1] + 1):
            cover[w] += 1
    report.tokens_split = sum(1 for c in cover if c > 1)
    reached = [w for w in range(key_count - 1, -1, -1) if cover[w]][:1]
    last = reached[0] if reached else -1
    missing = key_count - 1 - last
    if missing >= TRUNCATED_WORDS:
        report.truncated, report.missing_words, report.missing_from = True, missing, last + 2


class _Layer:
    """The aligned document's tokens: the key's, new empty nodes the response has, and the
    link of every response token to them."""

    def __init__(self, key: Document, response: Document, words: WordLinks,
                 key_words: list[int], response_words: list[int],
                 report: DocumentAlignment) -> None:
        key_tokens = key.tokens
        self.links: list[TokenLink | None] = [None] * response.token_count
        for ordinal, link in enumerate(words.links):
            if link is not None:
                self.links[response_words[ordinal]] = (key_words[link[0]], key_words[link[1]],
                                                       link[2], link[3])
        # empty nodes: a response empty node after a word takes a key empty node not yet
        # taken of those the key has there — in place, or where text2text-coref writes them
        # (after their first enhanced parent), whichever layout the response's empty nodes
        # fit better (:func:`_empty_layouts`) — the same form first; one the key lacks is
        # added after the word's empty nodes
        added: dict[int, list[Token]] = {}       # key token index (-1: start) -> new nodes
        placed: dict[int, tuple[int, int]] = {}  # response token -> (key token, k-th added)
        after_of: dict[int, int] = {}            # response empty node -> key token before it
        after = -1
        for index, token in enumerate(response.tokens):
            if token.is_empty:
                after_of[index] = after
            else:
                link = self.links[index]
                if link is not None:
                    after = link[1]
        layouts = _empty_layouts(key, after_of.values()) if after_of else []
        taken: set[int] = set()
        for index, after in after_of.items():
            token = response.tokens[index]
            slot = _free_empty(key_tokens, after, layouts, taken, token.form)
            if slot is not None:
                taken.add(slot)
                self.links[index] = (slot, slot, False, False)
                continue
            anchor = after
            while anchor + 1 < len(key_tokens) and key_tokens[anchor + 1].is_empty:
                anchor += 1
            new = added.setdefault(anchor, [])
            placed[index] = (anchor, len(new))
            new.append(_empty_node(key, anchor, token, len(new)))
        report.empty_nodes_added = sum(len(v) for v in added.values())
        self.new_index = list(range(len(key_tokens)))
        self.tokens, self.sentences = key_tokens, key.sentences
        if added:
            self._insert(key, added)
            for index, (anchor, k) in placed.items():
                position = (self.new_index[anchor] if anchor >= 0 else -1) + 1 + k
                self.links[index] = (position, position, False, False)
        for index, link in enumerate(self.links):
            if link is not None and index not in placed:
                self.links[index] = (self.new_index[link[0]], self.new_index[link[1]],
                                     link[2], link[3])
        self.key_count = len(self.tokens)

    def _insert(self, key: Document, added: dict[int, list[Token]]) -> None:
        tokens: list[Token] = []
        for token in added.get(-1, []):
            tokens.append(token)
        for index, token in enumerate(key.tokens):
            self.new_index[index] = len(tokens)
            tokens.append(_copy_token(token))
            tokens.extend(added.get(index, []))
        for position, token in enumerate(tokens):
            token.index = position
        sentences = []
        for sentence in key.sentences:
            start = self.new_index[sentence.start] if sentence.start < len(key.tokens) else \
                len(tokens)
            stop = (self.new_index[sentence.stop] if sentence.stop < len(key.tokens)
                    else len(tokens))
            if sentence.index == 0:
                start = 0
            sentences.append(Sentence(sentence.index, start, stop, sent_id=sentence.sent_id,
                                      comments=sentence.comments, speaker=sentence.speaker,
                                      attrs=sentence.attrs))
        self.tokens, self.sentences = tokens, sentences


def _empty_layouts(key: Document, afters: Iterable[int]) -> list[dict[int, list[int]]]:
    """The key's empty nodes by the key word a response writes them after, in two layouts,
    the one the response's empty nodes (``afters``: the key word before each) fit better
    first: in place, and as text2text-coref moves them (after their first enhanced parent:
    :func:`corefkit.model.text_order.linear_order`)."""
    in_place: dict[int, list[int]] = {}
    moved: dict[int, list[int]] = {}
    word = -1                               # the last key word before the sentence
    for sentence in key.sentences:
        for layout, order in ((in_place, sentence.token_indices()),
                              (moved, linear_order(key, sentence.index))):
            last = word
            for i in order:
                if key.tokens[i].is_empty:
                    layout.setdefault(last, []).append(i)
                else:
                    last = i
        words = [i for i in sentence.token_indices() if not key.tokens[i].is_empty]
        word = words[-1] if words else word
    wanted: dict[int, int] = {}
    for after in afters:
        wanted[after] = wanted.get(after, 0) + 1

    def distance(layout: dict[int, list[int]]) -> int:
        """How far the response's counts of empty nodes per place are from the layout's."""
        return sum(abs(wanted.get(w, 0) - len(layout.get(w, ()))) for w in {*wanted, *layout})

    return [moved, in_place] if distance(moved) < distance(in_place) else [in_place, moved]


def _free_empty(tokens: list[Token], after: int, layouts: list[dict[int, list[int]]],
                taken: set[int], form: str) -> int | None:
    """A key empty node for a response empty node written after key token ``after``: the
    first not taken there in the better layout, else in the other (the same form first)."""
    for layout in layouts:
        free = [c for c in layout.get(after, ()) if c not in taken]
        if free:
            same = [c for c in free if tokens[c].form == form]
            return (same or free)[0]
    return None


def _copy_token(token: Token) -> Token:
    return Token(token.form, token.index, token.sentence, token.attrs, token.id, token.lemma,
                 token.upos, token.xpos, token.feats, token.head, token.deprel, token.deps,
                 token.misc, token.speaker, token.is_empty)


def _empty_node(key: Document, anchor: int, source: Token, k: int) -> Token:
    """A new empty node after key token ``anchor`` (its word's id, the next free K)."""
    tokens = key.tokens
    word = anchor
    while word >= 0 and tokens[word].is_empty:
        word -= 1
    base = tokens[word].id if word >= 0 and tokens[word].id else str(word + 1 if word >= 0 else 0)
    existing = anchor - word
    sentence = tokens[word].sentence if word >= 0 else 0
    form = source.form if source.form else "_"
    return Token(form, -1, sentence, {"aligned": "added"}, f"{base}.{existing + k + 1}",
                 is_empty=True)


class _Builder:
    """Rebuilds the response's annotation on the aligned tokens."""

    def __init__(self, key: Document, response: Document, layer: _Layer,
                 policy: AlignmentPolicy, keep_unaligned: bool,
                 report: DocumentAlignment) -> None:
        self.key, self.response, self.layer = key, response, layer
        self.boundary, self.keep_unaligned, self.report = policy.boundary, keep_unaligned, report
        self.trim = policy.merged == "trim"
        self.claimed = {link[0]: index for index, link in enumerate(layer.links)
                        if link is not None and response.tokens[index].is_empty}
        self.ordinal = [0] * response.token_count   # 1-based word numbers, for notes
        count = 0
        for index, token in enumerate(response.tokens):
            if not token.is_empty:
                count += 1
            self.ordinal[index] = count
        self.phantoms: list[Token] = []
        self.word_number = []                       # 1-based key word number of each token
        count = 0
        for token in layer.tokens:
            if not token.is_empty:
                count += 1
            self.word_number.append(max(count, 1))

    def build(self) -> Document:
        key, response = self.key, self.response
        doc = Document(key.id, key.part, file=response.file)
        doc.line, doc.source_format = response.line, key.source_format
        doc.meta, doc.attrs = dict(key.meta), dict(key.attrs)
        doc.repairs = list(response.repairs)
        doc.tokens, doc.sentences = list(self.layer.tokens), self.layer.sentences
        projected: dict[Mention, tuple[int, ...] | None] = {}
        for mention in response.mentions:
            projected[mention] = self._project(mention, doc)
        for phantom in self.phantoms:
            phantom.index = len(doc.tokens)
            doc.tokens.append(phantom)
        entities = {e: doc.new_entity(layer=e.layer, pseudo=e.pseudo, attrs=dict(e.attrs))
                    for e in response.entities}
        made: dict[Mention, Mention] = {}
        # a key that states heads gets responses with heads: where the response gives none,
        # the head udapi's MoveHead gives on the key's tree (as text2text-coref's text2conllu
        # writes an answer into the key's CoNLL-U); a key without heads compares first nodes
        derive = any(m.head is not None for m in key.mentions)
        for mention in response.mentions:
            tokens = projected.get(mention)
            if tokens is None:
                continue
            entity = response.entity_of(mention)
            head = self._inside(mention.head, tokens)
            derived = mention.head_derived
            if head is None and derive and tokens[-1] < len(self.layer.tokens) and any(
                    doc.tokens[t].head not in MISSING_HEADS for t in tokens):  # a tree there
                head, derived = udapi_head(doc, tokens), True
            if entity is not None and mention.nonref is None and head is None \
                    and not mention.min_tokens and mention.layer == entity.layer:
                made[mention] = doc.add_read_mention(tokens, entities[entity],
                                                     dict(mention.attrs), mention.line)
                continue
            made[mention] = doc.add_mention(
                tokens, entities[entity] if entity is not None else None, layer=mention.layer,
                head=head, head_derived=derived,
                min_tokens=self._min(mention.min_tokens, tokens), min_derived=mention.min_derived,
                nonref=mention.nonref, attrs=dict(mention.attrs), line=mention.line)
        for membership in response.memberships():
            doc.add_to_set(entities[membership.member], entities[membership.set_entity],
                           evidence=[made[m] for m in membership.evidence if m in made])
        for bridge in response.bridging():
            if bridge.anaphor in made:
                anchor = made.get(bridge.anchor_mention) if bridge.anchor_mention else None
                doc.add_bridging(made[bridge.anaphor], entities[bridge.anchor],
                                 relation=bridge.relation, anchor_mention=anchor,
                                 attrs=dict(bridge.attrs))
        return doc

    # ------------------------------------------------------------------ one mention
    def _project(self, mention: Mention, doc: Document) -> tuple[int, ...] | None:
        report = self.report
        report.mentions += 1
        tokens: list[int] = []
        moved = expanded = refused = trimmed = False
        for start, end in mention.parts():
            found = self._run(start, end)
            if found is None:
                continue
            run, run_moved, inside, run_trimmed = found
            moved |= run_moved
            trimmed |= run_trimmed
            if inside and self.boundary == "unaligned":
                refused = True
                break
            expanded |= inside
            tokens.extend(run)
        words = (self.ordinal[mention.start], self.ordinal[mention.end])
        if refused or not tokens:
            report.mentions_unaligned += 1
            report.note(UNALIGNED, self.response.text(mention), words, None)
            return self._phantom(mention) if self.keep_unaligned else None
        tokens = sorted(set(tokens))
        for changed, category in ((moved, MOVED), (expanded, EXPANDED), (trimmed, TRIMMED)):
            if changed:
                setattr(report, f"mentions_{category}", getattr(report, f"mentions_{category}") + 1)
                if report.wants(category):
                    span = (self._key_word(tokens[0]), self._key_word(tokens[-1]))
                    report.note(category, self.response.text(mention), words, span)
        if not moved and not expanded and not trimmed:
            report.mentions_kept += 1
        return tuple(tokens)

    def _run(self, start: int, end: int) -> tuple[list[int], bool, bool, bool] | None:
        """The aligned tokens of response tokens start..end, whether a boundary moved,
        whether one lies inside a key token, and whether an edge was trimmed; None when no
        token of the run is linked."""
        links = self.layer.links
        # the range runs from the first to the last linked word; the run's empty nodes are
        # added where the key has them (text2text-coref writes an empty node after its
        # parent, which may lie beyond the key position of a mention's last word)
        linked = [i for i in range(start, end + 1) if links[i] is not None]
        if not linked:
            return None
        empty = self.response.tokens
        words = [i for i in linked if not empty[i].is_empty]
        first, last = (words[0], words[-1]) if words else (linked[0], linked[-1])
        moved = linked[0] != start or linked[-1] != end
        # an edge on an inserted repetition ("a a|[e1 third ...") stands for its twin's word:
        # which of two equal words the edit script called inserted is arbitrary
        if linked[0] != start and self._twin(start, start - 1):
            first = start - 1
        if linked[-1] != end and self._twin(end, end + 1):
            last = end + 1
        head, tail = links[first], links[last]
        assert head is not None and tail is not None
        lo, hi = head[0], tail[1]
        trimmed = False
        if self.trim:
            new_lo = self._edge(head[0], head[1], TRIM_START, 1)
            new_hi = self._edge(tail[1], tail[0], TRIM_END, -1)
            if new_lo <= new_hi:
                trimmed = new_lo != lo or new_hi != hi
                lo, hi = new_lo, new_hi
        if hi < lo:
            lo, hi = hi, lo
        claimed = self.claimed
        tokens = self.layer.tokens
        run = [t for t in range(lo, hi + 1)
               if not (tokens[t].is_empty and t in claimed and not start <= claimed[t] <= end)]
        for index in range(start, end + 1):  # the run's empty nodes, wherever the key has them
            link = links[index]
            if link is not None and self.response.tokens[index].is_empty and link[0] not in run:
                run.append(link[0])
        return run, moved, head[2] or tail[3], trimmed

    def _twin(self, index: int, other: int) -> bool:
        """Whether response word ``other`` is linked and the same word as ``index``."""
        tokens = self.response.tokens
        if not 0 <= other < len(tokens) or self.layer.links[other] is None:
            return False
        return comparable(tokens[index].form) == comparable(tokens[other].form)

    def _edge(self, outer: int, inner: int, trimmed: frozenset[str], step: int) -> int:
        """The first token from ``outer`` towards ``inner`` (the key tokens of one response
        token) that can be a mention's edge; ``outer`` when none can, or when the response
        token covers one key token."""
        if outer == inner:
            return outer
        tokens = self.layer.tokens
        t = outer
        while t != inner + step:
            token = tokens[t]
            if not token.is_empty and not _trimmable(token, trimmed):
                return t
            t += step
        return outer

    def _phantom(self, mention: Mention) -> tuple[int, ...]:
        """Tokens of its own (after the key's, in no sentence) for an unaligned mention."""
        base = self.layer.key_count + len(self.phantoms)
        for index in mention.tokens:
            source = self.response.tokens[index]
            self.phantoms.append(Token(source.form, -1, -1, {"aligned": "unaligned"}))
        return tuple(range(base, base + len(mention.tokens)))

    def _key_word(self, token: int) -> int:
        """The 1-based key word number of an aligned token (its word, for an empty node)."""
        return self.word_number[token]

    def _inside(self, head: int | None, tokens: Sequence[int]) -> int | None:
        if head is None:
            return None
        link = self.layer.links[head]
        if link is None:
            return None
        return link[0] if link[0] in tokens else None

    def _min(self, min_tokens: tuple[int, ...] | None,
             tokens: Sequence[int]) -> tuple[int, ...] | None:
        if not min_tokens:
            return None
        mapped: set[int] = set()
        for index in min_tokens:
            link = self.layer.links[index]
            if link is None:
                return None
            mapped.update(range(link[0], link[1] + 1))
        return tuple(sorted(mapped)) if mapped <= set(tokens) else None


def _trimmable(token: Token, trimmed: frozenset[str]) -> bool:
    if token.upos:
        return token.upos in trimmed
    return bool(token.form) and all(unicodedata.category(c)[0] in "PS" for c in token.form)


def _missing(key: Document, layer: _Layer, report: DocumentAlignment) -> None:
    """Key mentions wholly in text no response token is linked to."""
    covered = bytearray(len(layer.tokens))
    for link in layer.links:
        if link is not None:
            covered[link[0]:link[1] + 1] = b"\x01" * (link[1] - link[0] + 1)
    new_index = layer.new_index
    for entity in key.entities_in():
        for mention in key.mentions_of(entity, ordered=False):
            report.key_mentions += 1
            if mention.tokens and not any(covered[new_index[t]] for t in mention.tokens):
                report.key_mentions_missing += 1


__all__ = ["BOUNDARIES", "MERGED", "TRUNCATED_WORDS", "Aligned", "AlignmentPolicy", "align"]
