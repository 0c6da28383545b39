"""An independent differ of two documents, feature by feature: the oracle for loss reports.

A conversion's loss report (:mod:`corefkit.converters.loss` and the writers' own records) says
what a target format could not carry. This module finds what was actually lost by comparing
the source document with the document read back from the written file, without using any of
the loss-report code it checks: it has its own token alignment, mention matching and feature
predicates. It lives with the tests because it is an oracle: it reads the private markers
readers leave in ``attrs`` (CoNLL-2012's opaque columns) that library code must not.

**What is compared.** Every object of the source is classified as kept, ``changed`` (a
counterpart exists but differs: a mention over other tokens, a bridging relation without its
anchor mention, a token whose form changed) or ``dropped`` (no counterpart). The features and
the objects they count are the loss report's (``FEATURES`` below), so that the two can be
compared per feature, kind and count:

* tokens and their columns — ``tokens`` (words whose form or segmentation changed, or that are
  gone), ``empty_nodes``, ``sentences`` (source sentences whose boundaries are not kept),
  ``lemmas``, ``pos``, ``morphology``, ``syntax`` (HEAD and DEPREL), ``enhanced_deps``, ``misc``
  (MISC items other than coreference), ``speakers`` (per word); ``conll_columns`` (the
  CoNLL-2012 columns the model does not interpret: parse bits, senses, named entities, ...,
  one count per word and column, as the loss report counts them). A column of a word
  that is itself gone is not counted again: it is part of that word's loss;
* mentions — every source mention is matched to one of the result (same layer and the same
  tokens after alignment; else, as an approximation, one that shares its first or last token);
  a mention that is not kept is counted under each of its *properties*: ``discontinuous``,
  ``zeros``, ``mentions_with_empty_nodes``, ``crossing_same_entity``, ``cross_sentence``,
  ``singletons``, ``non_referring``, ``unlinked_mentions``, ``discourse_deixis``. Which of
  them explains the loss is the loss report's business (:func:`compare`);
* what hangs on mentions and entities, counted even when its mention or entity is gone —
  ``heads``, ``min_spans``, ``mention_attributes``, ``entity_attributes``,
  ``split_antecedents`` (memberships), ``bridging`` (with relation and anchor mention),
  ``typed_links`` (LCC's links: anaphor, antecedents, type code), ``sub_token`` (mentions
  that start or end inside a token, read back without their characters), ``chains`` (identity
  entities whose kept mentions are no longer exactly one entity of the result);
* the document — ``metadata`` (keys), ``parts``, ``names`` (the document id),
  ``opaque_levels`` (MMAX2 levels kept uninterpreted).
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.model import Document, Entity, Mention

IDENTITY_LAYER = "identity"
DROPPED, CHANGED = "dropped", "changed"

# properties of a mention whose loss one of them must explain (see compare)
MENTION_PROPERTIES = ("discontinuous", "zeros", "mentions_with_empty_nodes",
                      "crossing_same_entity", "crossing_mentions", "mentions_over_lost_tokens",
                      "cross_sentence", "singletons", "non_referring", "unlinked_mentions",
                      "discourse_deixis")
# token columns: feature -> the Token fields it covers
COLUMNS = {"lemmas": ("lemma",), "pos": ("upos", "xpos"), "morphology": ("feats",),
           "syntax": ("head", "deprel"), "enhanced_deps": ("deps",)}
COREF_MISC = ("Entity=", "SplitAnte=", "Bridge=", "Split=")
EMPTY_VALUES = (None, "", "_", "-")
ID_KEYS = frozenset({"original_id", "markable_id"})
SUBTOKEN = "_subtoken"   # mention.attrs: the characters of a sub-token annotation (WebAnno)


@dataclass
class Change:
    feature: str
    kind: str        # DROPPED or CHANGED
    where: str
    properties: tuple[str, ...] = ()   # a mention's properties (mention-level features only)


@dataclass
class DocumentDiff:
    source: str
    changes: list[Change] = field(default_factory=list)

    def add(self, feature: str, kind: str, where: str, properties: Iterable[str] = ()) -> None:
        self.changes.append(Change(feature, kind, where, tuple(properties)))

    def counts(self) -> Counter[tuple[str, str]]:
        """(feature, kind) -> how many objects; a mention counts once per property."""
        found: Counter[tuple[str, str]] = Counter()
        for change in self.changes:
            if change.feature == "mentions":
                for prop in change.properties:
                    found[(prop, change.kind)] += 1
            else:
                found[(change.feature, change.kind)] += 1
        return found


# ---------------------------------------------------------------------------- tokens
def _clean(form: str) -> str:
    return "".join(ch for ch in form if not ch.isspace())


def _char_map(a: str, b: str) -> list[int | None]:
    """For each character of ``a``, the position of the same character of ``b`` (None where
    the two differ)."""
    found: list[int | None] = [None] * len(a)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for x, y, size in matcher.get_matching_blocks():
        for k in range(size):
            found[x + k] = y + k
    return found


class TokenMap:
    """Source token index -> the result token indices that stand for it."""

    def __init__(self, source: Document, result: Document) -> None:
        self.source, self.result = source, result
        src_words = [t.index for t in source.tokens if not t.is_empty]
        res_words = [t.index for t in result.tokens if not t.is_empty]
        self.forward: dict[int, list[int]] = {}
        self.moved: set[int] = set()  # source empty nodes the result holds at another place
        self._align_words(src_words, res_words)
        self._align_empty()

    def _align_words(self, src: list[int], res: list[int]) -> None:
        """Words in order: the same forms one to one; the same characters (white space left
        out) by character; as many words one to one (forms changed); else by the longest
        runs of equal forms, the stretches between them as :meth:`_align_stretch` says."""
        s_tok, r_tok = self.source.tokens, self.result.tokens
        if [s_tok[i].form for i in src] == [r_tok[i].form for i in res]:
            for a, b in zip(src, res):
                self.forward[a] = [b]
            return
        if "".join(_clean(s_tok[i].form) for i in src) == \
                "".join(_clean(r_tok[i].form) for i in res):
            self._align_stretch(src, res)  # the same characters, tokenised otherwise
            return
        if len(src) == len(res):
            for a, b in zip(src, res):
                self.forward[a] = [b]
            return
        a_forms = [s_tok[i].form for i in src]
        b_forms = [r_tok[i].form for i in res]
        matcher = difflib.SequenceMatcher(None, a_forms, b_forms, autojunk=False)
        # the stretches between equal runs, each aligned as a whole (a deletion next to an
        # insertion is a token split or merged, not a token lost and another added)
        i = j = 0
        for a, b, size in matcher.get_matching_blocks():
            if a > i or b > j:
                self._align_stretch(src[i:a], res[j:b])
            for k in range(size):
                self.forward[src[a + k]] = [res[b + k]]
            i, j = a + size, b + size

    def _align_stretch(self, src: list[int], res: list[int]) -> None:
        """Source and result words between two equal runs: one to one when as many, else by
        their characters (white space left out; where the characters differ too, by the
        characters the two have in common)."""
        if not src or not res:
            return
        s_tok, r_tok = self.source.tokens, self.result.tokens
        a_text = "".join(_clean(s_tok[i].form) for i in src)
        b_text = "".join(_clean(r_tok[i].form) for i in res)
        if a_text != b_text and len(src) == len(res):  # forms changed one by one
            for a, b in zip(src, res):
                self.forward[a] = [b]
            return
        owner: list[int] = []
        for j in res:
            owner.extend([j] * len(_clean(r_tok[j].form)))
        char_map = list(range(len(a_text))) if a_text == b_text else _char_map(a_text, b_text)
        pos = 0
        for i in src:
            width = len(_clean(s_tok[i].form))
            covered = list(dict.fromkeys(owner[c] for c in char_map[pos:pos + width]
                                         if c is not None))
            if covered:
                self.forward[i] = covered
            pos += width

    def _align_empty(self) -> None:
        """An empty node stands after a word; it maps to the result's empty node at the same
        place (same word, same rank among the empty nodes after it)."""
        def places(doc: Document) -> dict[tuple[int, int], int]:
            found: dict[tuple[int, int], int] = {}
            word, rank = -1, 0
            for t in doc.tokens:
                if t.is_empty:
                    rank += 1
                    found[(word, rank)] = t.index
                else:
                    word, rank = t.index, 0
            return found

        res_places = places(self.result)
        source_places = places(self.source)
        if self.result.source_format in ("text2text", "text2text-json"):
            # the linear text writes each empty node where text2text-coref moves it
            moved = _text2text_places(self.source)
            self.moved = {i for place, i in source_places.items() if moved.get(i, place) != place}
            source_places = {place: i for i, place in moved.items()}
        for (word, rank), index in source_places.items():
            target = self.forward.get(word, [-1])[-1] if word >= 0 else -1
            found = res_places.get((target, rank))
            if found is not None:
                self.forward[index] = [found]

    def tokens(self, indices: Iterable[int]) -> frozenset[int]:
        return frozenset(j for i in indices for j in self.forward.get(i, ()))

    def all_mapped(self, indices: Iterable[int]) -> bool:
        return all(i in self.forward for i in indices)


def _text2text_places(doc: Document) -> dict[int, tuple[int, int]]:
    """Where text2text-coref's ``conllu2text -z`` puts each empty node: (the word before it,
    its rank after that word). It walks a sentence's empty nodes in order and gives each one
    not already after its first enhanced parent the id ``P.(k+1)`` (``P`` that parent's id,
    ``k`` the empty nodes numbered ``P.x`` at that moment), re-sorting the empty nodes by id
    after each move (an independent reading of its behaviour, for this oracle)."""
    found: dict[int, tuple[int, int]] = {}
    for sentence in doc.sentences:
        idx = list(sentence.token_indices())
        try:
            number = {i: float(doc.tokens[i].id or "") for i in idx}
        except ValueError:
            continue
        by_id = {doc.tokens[i].id: i for i in idx}
        empties = [i for i in idx if doc.tokens[i].is_empty]
        for i in list(empties):
            deps = doc.tokens[i].deps or "_"
            parent = None if deps == "_" else deps.split("|")[0].split(":")[0]
            if parent is None or (parent != "0" and parent not in by_id):
                continue
            target = 0.0 if parent == "0" else number[by_id[parent]]
            if int(number[i]) == target:
                continue
            value = target + 0.1
            for j in empties:
                if int(number[j]) == target:
                    value += 0.1
            number[i] = value
            empties.sort(key=lambda j: number[j])
        words = [i for i in idx if not doc.tokens[i].is_empty]
        order = sorted([(number[i], 0, n, i) for n, i in enumerate(words)]
                       + [(number[i], 1, n, i) for n, i in enumerate(empties)])
        word = sentence.start - 1
        while word >= 0 and doc.tokens[word].is_empty:
            word -= 1
        rank = 0
        for *_, i in order:
            if doc.tokens[i].is_empty:
                rank += 1
                found[i] = (word, rank)
            else:
                word, rank = i, 0
    return found


def _column_values(doc: Document, index: int) -> dict[str, Any]:
    """A token's column values by feature (empty values left out)."""
    token = doc.tokens[index]
    values: dict[str, Any] = {}
    for feature, names in COLUMNS.items():
        got = tuple(_value(getattr(token, n)) for n in names)
        if any(v is not None for v in got):
            values[feature] = got
    misc = [item for item in (token.misc or "").split("|")
            if item and item != "_" and not item.startswith(COREF_MISC)]
    if misc:
        values["misc"] = tuple(misc)
    speaker = token.speaker or doc.sentences[token.sentence].speaker \
        if 0 <= token.sentence < len(doc.sentences) else token.speaker
    if _value(speaker) is not None:
        values["speakers"] = speaker
    return values


def _value(value: Any) -> Any:
    return None if value in EMPTY_VALUES else value


def _diff_tokens(source: Document, result: Document, tmap: TokenMap, diff: DocumentDiff) -> None:
    s_tok, r_tok = source.tokens, result.tokens
    reached: set[int] = set()
    for token in s_tok:
        targets = tmap.forward.get(token.index)
        where = f"token {token.index} {token.form!r}"
        feature = "empty_nodes" if token.is_empty else "tokens"
        if not targets:
            diff.add(feature, DROPPED, where)
            continue
        reached.update(targets)
        if len(targets) != 1 or r_tok[targets[0]].form != token.form or (
                r_tok[targets[0]].is_empty != token.is_empty) or token.index in tmap.moved:
            diff.add(feature, CHANGED, where)
        # columns of a kept token (one target: a split token keeps none of them exactly)
        src_values = _column_values(source, token.index)
        res_values = _column_values(result, targets[0]) if len(targets) == 1 else {}
        for column, value in src_values.items():
            other = res_values.get(column)
            if other != value:
                kind = DROPPED if other is None else CHANGED
                diff.add(column, kind, f"{where}: {value!r} -> {other!r}")
    for token in r_tok:
        if token.index not in reached and not token.is_empty:
            diff.add("tokens", CHANGED, f"result token {token.index} {token.form!r} added")


def _diff_sentences(source: Document, result: Document, tmap: TokenMap,
                    diff: DocumentDiff) -> None:
    bounds = set()
    for s in result.sentences:
        words = [i for i in s.token_indices() if not result.tokens[i].is_empty]
        if words:
            bounds.add((words[0], words[-1]))
    for s in source.sentences:
        words = [i for i in s.token_indices() if not source.tokens[i].is_empty]
        if not words:
            continue
        first, last = tmap.forward.get(words[0]), tmap.forward.get(words[-1])
        if first is None or last is None or (first[0], last[-1]) not in bounds:
            diff.add("sentences", CHANGED, f"sentence {s.index}")


# ---------------------------------------------------------------------------- mentions
def _contiguous(m: Mention) -> bool:
    return not m.tokens or m.tokens[-1] - m.tokens[0] + 1 == len(m.tokens)


def _crossing_later(doc: Document) -> set[Mention]:
    """Mentions that cross an earlier mention of the same entity (overlap, neither inside,
    more than a shared last/first token)."""
    later: set[Mention] = set()
    chains: dict[Entity, list[Mention]] = defaultdict(list)
    for m in doc.mentions:
        e = doc.entity_of(m)
        if e is not None and m.tokens:
            chains[e].append(m)
    for ms in chains.values():
        for a in ms:
            for b in ms:
                if a is not b and a.tokens[0] < b.tokens[0] < a.tokens[-1] < b.tokens[-1]:
                    later.add(b)
    return later


def _crossing_other(doc: Document) -> set[Mention]:
    """Mentions whose extent crosses an earlier mention's of another entity (or of none)."""
    found: set[Mention] = set()
    ms = sorted((m for m in doc.mentions if m.tokens), key=lambda m: (m.tokens[0], -m.tokens[-1]))
    for i, b in enumerate(ms):
        for a in ms[:i]:
            crosses = a.tokens[0] < b.tokens[0] < a.tokens[-1] < b.tokens[-1]
            entity = doc.entity_of(a)
            if crosses and (entity is None or entity is not doc.entity_of(b)):
                found.add(b)
                break
    return found


def mention_properties(doc: Document, tmap: TokenMap | None = None
                       ) -> dict[Mention, tuple[str, ...]]:
    """The properties of every mention (see the module's text), by an own reading of the
    model: the loss code's detectors are not used. With ``tmap``, a mention over words the
    result has lost has the property ``mentions_over_lost_tokens``."""
    tokens = doc.tokens
    crossing = _crossing_later(doc)
    other = _crossing_other(doc)
    sizes: Counter[Entity] = Counter(e for e in (doc.entity_of(m) for m in doc.mentions)
                                     if e is not None)
    found: dict[Mention, tuple[str, ...]] = {}
    for m in doc.mentions:
        entity = doc.entity_of(m)
        props = []
        if not _contiguous(m):
            props.append("discontinuous")
        empty = [t for t in m.tokens if tokens[t].is_empty]
        if m.tokens and len(empty) == len(m.tokens):
            props.append("zeros")
        elif empty:
            props.append("mentions_with_empty_nodes")
        if m in crossing:
            props.append("crossing_same_entity")
        if m in other:
            props.append("crossing_mentions")
        if tmap is not None and any(not tokens[t].is_empty and t not in tmap.forward
                                    for t in m.tokens):
            props.append("mentions_over_lost_tokens")
        if m.tokens and tokens[m.tokens[0]].sentence != tokens[m.tokens[-1]].sentence:
            props.append("cross_sentence")
        if entity is not None and entity.layer == IDENTITY_LAYER and not entity.pseudo \
                and sizes[entity] == 1:
            props.append("singletons")
        if m.nonref is not None:
            props.append("non_referring")
        elif entity is None and m.layer == IDENTITY_LAYER:
            props.append("unlinked_mentions")
        if m.layer != IDENTITY_LAYER:
            props.append("discourse_deixis")
        found[m] = tuple(props)
    return found


def match_mentions(source: Document, result: Document,
                   tmap: TokenMap) -> tuple[dict[Mention, Mention], set[Mention]]:
    """Source mention -> its result mention, and the source mentions matched only
    approximately (another extent).

    Three passes: the same tokens and referring status; then approximations (a mention
    written over its extent, its first part, or without its empty nodes: pairs of the same
    layer and referring status that share tokens, the most similar first); then the same
    tokens whatever the status (a non-referring markable read back as a referring one)."""
    by_key: dict[tuple[str, frozenset[int]], list[Mention]] = defaultdict(list)
    for m in sorted(result.mentions, key=lambda m: m.id):
        by_key[(m.layer, frozenset(m.tokens))].append(m)
    matched: dict[Mention, Mention] = {}
    used: set[Mention] = set()

    def exact(m: Mention, same_status: bool) -> Mention | None:
        key = (m.layer, tmap.tokens(m.tokens))
        candidates = [r for r in by_key.get(key, ()) if r not in used
                      and (not same_status or (r.nonref is None) == (m.nonref is None))]
        if not candidates or not key[1] or not tmap.all_mapped(m.tokens):
            return None
        own = _user_attrs(m.attrs)  # of several, the one most like it
        return max(candidates, key=lambda r: (_user_attrs(r.attrs) == own, -r.id))

    ordered = sorted(source.mentions, key=lambda m: (m.tokens[:1], m.id))
    for m in ordered:
        found = exact(m, True)
        if found is not None:
            matched[m] = found
            used.add(found)
    rest = [m for m in ordered if m not in matched]
    by_token: dict[tuple[str, int], list[Mention]] = defaultdict(list)
    for r in result.mentions:
        if r not in used:
            for t in r.tokens:
                by_token[(r.layer, t)].append(r)
    pairs = []
    for m in rest:
        mapped = tmap.tokens(m.tokens)
        candidates = {r for t in mapped for r in by_token.get((m.layer, t), ())}
        for r in candidates:
            if (r.nonref is None) != (m.nonref is None):
                continue  # a non-referring markable is not written as a referring one
            common = len(mapped & frozenset(r.tokens))
            score = common / len(mapped | frozenset(r.tokens))
            if score >= 0.5:
                pairs.append((-score, m.id, r.id, m, r))
    approximate: set[Mention] = set()
    for _, _, _, m, r in sorted(pairs, key=lambda p: p[:3]):
        if m not in matched and r not in used:
            matched[m] = r
            used.add(r)
            approximate.add(m)
    for m in rest:
        if m not in matched:
            found = exact(m, False)
            if found is not None:
                matched[m] = found
                used.add(found)
    return matched, approximate


def _entity_map(source: Document, result: Document,
                matched: dict[Mention, Mention]) -> dict[Entity, Entity]:
    """Source entity -> the result entity most of its kept mentions belong to."""
    votes: dict[Entity, Counter[Entity]] = defaultdict(Counter)
    for m, r in matched.items():
        e, f = source.entity_of(m), result.entity_of(r)
        if e is not None and f is not None:
            votes[e][f] += 1
    return {e: c.most_common(1)[0][0] for e, c in votes.items()}


def _user_attrs(attrs: dict[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in attrs.items()
            if k not in ID_KEYS and not k.startswith("_") and v is not None and v != ""}


def _effective(doc: Document, m: Mention) -> dict[str, str]:
    entity = doc.entity_of(m)
    found = _user_attrs(entity.attrs) if entity is not None else {}
    found.update(_user_attrs(m.attrs))
    return found


def _diff_mentions(source: Document, result: Document, tmap: TokenMap,
                   diff: DocumentDiff) -> tuple[dict[Mention, Mention], dict[Entity, Entity]]:
    matched, approximate = match_mentions(source, result, tmap)
    props = mention_properties(source, tmap)
    for m in source.sorted_mentions():
        where = f"mention {m.tokens[:1]}..{m.tokens[-1:]} line {m.line}"
        r = matched.get(m)
        if r is None:
            diff.add("mentions", DROPPED, where, props[m])
        elif m in approximate:
            diff.add("mentions", CHANGED, where, props[m])
        elif m.nonref is not None and r.nonref is None:
            diff.add("mentions", CHANGED, f"{where}: read back as referring", ("non_referring",))
        elif "unlinked_mentions" in props[m] and result.entity_of(r) is not None:
            diff.add("mentions", CHANGED, f"{where}: read back with an entity",
                     ("unlinked_mentions",))
        _diff_mention_parts(source, result, m, r, tmap, diff, where)
    ematch = _entity_map(source, result, matched)
    _diff_chains(source, result, matched, diff)
    _diff_entity_attributes(source, result, matched, ematch, diff)
    return matched, ematch


def _diff_mention_parts(source: Document, result: Document, m: Mention, r: Mention | None,
                        tmap: TokenMap, diff: DocumentDiff, where: str) -> None:
    if m.head is not None and not m.head_derived:
        head = tmap.tokens([m.head])
        # a head the reader derived (not read) is no head; a head read back as the min span
        # (UA's Min) is kept in another form
        if r is None:
            diff.add("heads", DROPPED, where)
        elif r.head is not None and not r.head_derived and frozenset([r.head]) == head:
            pass
        elif m.min_tokens is None and r.min_tokens is not None and not r.min_derived \
                and frozenset(r.min_tokens) == head:
            diff.add("heads", CHANGED, where)  # written as the min span the mention lacked
        elif r.head is None or r.head_derived:
            diff.add("heads", DROPPED, where)
        else:
            diff.add("heads", CHANGED, where)
    if m.min_tokens is not None and not m.min_derived:
        if r is None or r.min_tokens is None or r.min_derived:
            diff.add("min_spans", DROPPED, where)
        elif frozenset(r.min_tokens) != tmap.tokens(m.min_tokens):
            diff.add("min_spans", CHANGED, where)
    if SUBTOKEN in m.attrs and (r is None or SUBTOKEN not in r.attrs):
        diff.add("sub_token", CHANGED, where)  # widened to whole tokens (or gone)
    own = _user_attrs(m.attrs)
    if own:
        if r is None:
            diff.add("mention_attributes", DROPPED, where)
        else:
            theirs = _effective(result, r)
            same = [k for k, v in own.items() if theirs.get(k) == v]
            if not same:
                diff.add("mention_attributes", DROPPED, where)
            elif len(same) < len(own):
                diff.add("mention_attributes", CHANGED, where)


def _diff_chains(source: Document, result: Document, matched: dict[Mention, Mention],
                 diff: DocumentDiff) -> None:
    back = {r: m for m, r in matched.items()}
    for entity in source.entities:
        if entity.pseudo or entity.layer != IDENTITY_LAYER:
            continue
        kept = [matched[m] for m in source.mentions_of(entity) if m in matched]
        if not kept:
            continue
        targets = {result.entity_of(r) for r in kept}
        if len(targets) != 1 or None in targets:
            diff.add("chains", CHANGED, f"entity {entity.id}")
            continue
        (target,) = targets
        assert target is not None
        others = [r for r in result.mentions_of(target) if r not in kept]
        if any(r in back and source.entity_of(back[r]) is not entity for r in others) or \
                target.pseudo:
            diff.add("chains", CHANGED, f"entity {entity.id} (merged)")


def _diff_entity_attributes(source: Document, result: Document,
                            matched: dict[Mention, Mention], ematch: dict[Entity, Entity],
                            diff: DocumentDiff) -> None:
    for entity in source.entities:
        own = _user_attrs(entity.attrs)
        if not own or entity.pseudo:
            continue
        where = f"entity {entity.id}"
        kept = [matched[m] for m in source.mentions_of(entity) if m in matched]
        if not kept:
            diff.add("entity_attributes", DROPPED, where)
            continue
        target = ematch.get(entity)
        theirs = _user_attrs(target.attrs) if target is not None else {}
        # carried on every mention instead of the entity counts as kept
        per_mention = [_effective(result, r) for r in kept]
        same = [k for k, v in own.items()
                if theirs.get(k) == v or all(p.get(k) == v for p in per_mention)]
        if not same:
            diff.add("entity_attributes", DROPPED, where)
        elif len(same) < len(own):
            diff.add("entity_attributes", CHANGED, where)


# ---------------------------------------------------------------------------- relations
def _diff_sets(source: Document, result: Document, ematch: dict[Entity, Entity],
               diff: DocumentDiff) -> None:
    have = {(m.member, m.set_entity) for m in result.memberships()}
    for membership in source.memberships():
        member, whole = ematch.get(membership.member), ematch.get(membership.set_entity)
        where = f"entity {membership.member.id} in set {membership.set_entity.id}"
        if member is None or whole is None or (member, whole) not in have:
            diff.add("split_antecedents", DROPPED, where)


def _diff_bridging(source: Document, result: Document, matched: dict[Mention, Mention],
                   ematch: dict[Entity, Entity], diff: DocumentDiff) -> None:
    theirs = {(b.anaphor, b.anchor): b for b in result.bridging()}
    for bridge in source.bridging():
        where = f"bridging from line {bridge.anaphor.line}"
        anaphor, anchor = matched.get(bridge.anaphor), ematch.get(bridge.anchor)
        if anchor is None and bridge.anchor.pseudo:
            # a pseudo anchor entity has no identity chain: follow its mention
            ms = source.mentions_of(bridge.anchor)
            kept = [matched[m] for m in ms if m in matched]
            anchor = result.entity_of(kept[0]) if kept else None
        other = theirs.get((anaphor, anchor)) if anaphor is not None and anchor is not None \
            else None
        if other is None:
            diff.add("bridging", DROPPED, where)
            continue
        want_anchor = matched.get(bridge.anchor_mention) if bridge.anchor_mention else None
        if (bridge.relation or "") != (other.relation or "") or (
                bridge.anchor_mention is not None
                and (want_anchor is None or other.anchor_mention is not want_anchor)):
            diff.add("bridging", CHANGED, where)


def _diff_links(source: Document, result: Document, matched: dict[Mention, Mention],
                diff: DocumentDiff) -> None:
    from corefkit.model.typed_links import LINKS  # a key name only

    records = source.attrs.get(LINKS) or []
    by_id = {m.id: m for m in source.mentions}
    res_by_id = {m.id: m for m in result.mentions}
    theirs: dict[int, list[tuple[frozenset[int], str]]] = defaultdict(list)
    for rec in result.attrs.get(LINKS) or []:
        theirs[rec["anaphor"]].append(
            (frozenset(rec["antecedents"]), str(rec["type"])))
    for rec in records:
        where = f"link {rec.get('index')}"
        anaphor = matched.get(by_id.get(rec["anaphor"]))  # type: ignore[arg-type]
        if anaphor is None or anaphor.id not in theirs:
            diff.add("typed_links", DROPPED, where)
            continue
        antecedents = frozenset(
            matched[by_id[i]].id for i in rec["antecedents"]
            if i in by_id and by_id[i] in matched)
        options = theirs[anaphor.id]
        if (antecedents, str(rec["type"])) in options:
            options.remove((antecedents, str(rec["type"])))
        else:
            diff.add("typed_links", CHANGED, where)
    del res_by_id


# ---------------------------------------------------------------------------- document
ONTONOTES_NAMES = {4: "POS", 6: "predicate lemma", 9: "speaker"}
PLACEHOLDERS = ("-", "_", "*")


def _diff_conll_columns(source: Document, result: Document, tmap: TokenMap,
                        diff: DocumentDiff) -> None:
    """``conll_columns``: the loss report's second view of the CoNLL-2012 columns, one count
    per word and column (after the word) that holds a value, the speaker column apart. A value
    is kept when the word read back has it in the same column of the same width, or (the
    OntoNotes layout) the POS as its XPOS and the predicate lemma as its LEMMA."""
    for token in source.tokens:
        row = token.attrs.get("conll_columns")
        if not row or len(row) <= 4:
            continue
        theirs = [result.tokens[j] for j in sorted(tmap.forward.get(token.index, ()))]
        other = theirs[0] if len(theirs) == 1 else None
        other_row = other.attrs.get("conll_columns") if other is not None else None
        for index in range(4, len(row)):
            value = row[index]
            name = ONTONOTES_NAMES.get(index) if len(row) >= 11 else None
            if value in PLACEHOLDERS or name in ("speaker", "POS", "predicate lemma"):
                continue  # read into the model: its speakers, pos and lemmas features
            if other_row is not None and len(other_row) == len(row) and other_row[index] == value:
                continue
            if other is not None and ((name == "POS" and other.xpos == value)
                                      or (name == "predicate lemma" and other.lemma == value)):
                continue
            diff.add("conll_columns", DROPPED, f"word {token.index} column {index + 1}")


def _diff_document(source: Document, result: Document, diff: DocumentDiff) -> None:
    for key, value in source.meta.items():
        other = result.meta.get(key)
        if other is None:
            diff.add("metadata", DROPPED, key)
        elif other != value:
            diff.add("metadata", CHANGED, f"{key}: {value!r} -> {other!r}")
    if source.pair_key()[1] != result.pair_key()[1]:
        diff.add("parts", DROPPED if result.pair_key()[1] == "0" else CHANGED,
                 f"part {source.part!r} -> {result.part!r}")
    if source.id != result.id:
        diff.add("names", CHANGED, f"{source.id!r} -> {result.id!r}")
    levels = source.attrs.get("opaque_levels") or {}
    others = result.attrs.get("opaque_levels") or {}
    for name, markables in levels.items():
        if name not in others:
            diff.add("opaque_levels", DROPPED, name)
        elif len(others[name]) != len(markables):
            diff.add("opaque_levels", CHANGED, name)


def diff_documents(source: Document, result: Document) -> DocumentDiff:
    """What of ``source`` is not in ``result`` (see the module's text)."""
    diff = DocumentDiff(source.name)
    tmap = TokenMap(source, result)
    _diff_tokens(source, result, tmap, diff)
    _diff_conll_columns(source, result, tmap, diff)
    _diff_sentences(source, result, tmap, diff)
    matched, ematch = _diff_mentions(source, result, tmap, diff)
    _diff_sets(source, result, ematch, diff)
    _diff_bridging(source, result, matched, ematch, diff)
    _diff_links(source, result, matched, diff)
    _diff_document(source, result, diff)
    return diff


# ---------------------------------------------------------------------------- comparison
def record_kind(action: str) -> str:
    """A loss record's action as a kind: ``dropped`` or ``changed`` (approximated, moved,
    renamed, changed)."""
    return DROPPED if action.startswith(("dropped", "later mention dropped")) else CHANGED


def compare(diff: DocumentDiff, records: Sequence[Any]) -> list[str]:
    """Where the loss records of one document and its diff disagree (empty: they agree).

    * For every feature the records name, their count per kind equals the diff's;
    * every feature the diff finds is named by the records — except mention properties: a
      mention that is not kept (dropped, or changed) is counted under each of its properties
      the records name with that kind, and at least one must be named (its loss is
      explained).
    """
    reported: Counter[tuple[str, str]] = Counter()
    for record in records:
        reported[(record.feature, record_kind(record.action))] += record.count
    found: Counter[tuple[str, str]] = Counter()
    problems = []
    for change in diff.changes:
        if change.feature == "mentions":
            explained = [p for p in change.properties if (p, change.kind) in reported]
            if not explained:
                problems.append(f"unreported mention loss ({change.kind}, properties "
                                f"{change.properties or 'none'}): {change.where}")
            for prop in explained:
                found[(prop, change.kind)] += 1
        else:
            found[(change.feature, change.kind)] += 1
    for key in sorted(set(found) | set(reported)):
        if found[key] != reported[key]:
            example = next((c.where for c in diff.changes
                            if (c.feature, c.kind) == key), "")
            problems.append(f"{key[0]} {key[1]}: reported {reported[key]}, found {found[key]}"
                            + (f" (first: {example})" if example else ""))
    return problems
