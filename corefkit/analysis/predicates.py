"""Mention-type predicates: which mentions are nested, generic, compound, copular, verbal or
appositive, as a registry that users extend with Python callables or JSON rules.

The types are those of Porada et al. (2024), "Challenges to Evaluating the Generalization of
Coreference Resolution Models: A Measurement Modeling Perspective", §4.1 (nested, OntoNotes
generic, compound, copular) and appendix D (verb phrases, appositives). Type-restricted B³
(:mod:`corefkit.scoring.metrics.by_type`) and ``corefkit compare`` read them.

A predicate answers ``True``, ``False`` or ``None`` for one mention: ``None`` means the
document lacks the annotation layer the predicate needs (no POS tags, no syntax), so that a
report can say so instead of counting the mention as not of the type.

Syntax comes from the document's own annotation:

* CoNLL-U (CorefUD, GUM): the UD tree (HEAD, DEPREL), UPOS and FEATS of each word;
* CoNLL-2012 (OntoNotes 12+N columns): the POS column, and the parse-bit column turned into a
  dependency tree with head rules. The conversion labels only the relations the predicates
  read (``det``, ``nmod:poss``, ``compound``, ``nsubj``, ``cop``, ``aux``, ``case``,
  ``punct``, a few others) and calls the rest ``dep``; it is an approximation of the UD
  conversion, good enough for these tests, not a general converter.

Built-in predicates (the issue's definitions):

``nested``      corefers with a mention it overlaps (containing it or contained in it)
``generic``     (OntoNotes) its head has an indefinite article child (``det`` *a*/*an*), or
                is a plural noun without a determiner (``det``, possessive) child
``compound``    its head is the dependent of a ``compound`` relation
``copular``     in an ``nsubj`` relation with a coreferent mention whose head has a ``cop``
                dependent (both the subject and the predicate nominal have the type)
``vp``          all its words have verbal POS (VERB/AUX; PTB ``VB*``/``MD``)
``appositive``  a coreferent mention in the same sentence is adjacent to it or separated from
                it by one punctuation token (both mentions have the type)

``nested`` and ``appositive`` need no syntax (punctuation falls back to the word form);
``copular`` is decided without syntax for a mention with no coreferent mention in its
sentence. ``appositive`` and ``copular`` need sentence breaks: a document read as one
sentence with sentence-final punctuation inside (GUM's CoNLL-2012 export) leaves them
undecided for every mention that has a coreferent mention, since "[John] . [He]" would
otherwise look like an apposition.
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.converters.jsontext import parse
from corefkit.errors import FormatError, UsageError
from corefkit.model import IDENTITY, Document, Mention
from corefkit.model.syntax import tree_depth, tree_head

Verdict = bool | None  # None: the document lacks what the predicate needs

# ============================================================================ token layer
# PTB (OntoNotes) part-of-speech tags as UPOS, so that predicates and rules read one tag set.
PTB_UPOS = {
    "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN", "PRP": "PRON", "WP": "PRON",
    "EX": "PRON", "PRP$": "PRON", "WP$": "PRON", "DT": "DET", "PDT": "DET", "WDT": "DET",
    "VB": "VERB", "VBD": "VERB", "VBG": "VERB", "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB",
    "MD": "AUX", "JJ": "ADJ", "JJR": "ADJ", "JJS": "ADJ", "AFX": "ADJ", "RB": "ADV",
    "RBR": "ADV", "RBS": "ADV", "WRB": "ADV", "IN": "ADP", "TO": "PART", "POS": "PART",
    "RP": "ADP", "CC": "CCONJ", "CD": "NUM", "UH": "INTJ", "FW": "X", "LS": "X", "ADD": "X",
    "GW": "X", "XX": "X", "SYM": "SYM", "$": "SYM", "#": "SYM", ",": "PUNCT", ".": "PUNCT",
    ":": "PUNCT", "``": "PUNCT", "''": "PUNCT", "-LRB-": "PUNCT", "-RRB-": "PUNCT",
    "HYPH": "PUNCT", "NFP": "PUNCT",
}
VERBAL = frozenset({"VERB", "AUX"})
NOMINAL_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
BE_FORMS = frozenset({"be", "is", "are", "was", "were", "been", "being", "am", "'s", "'re",
                      "'m", "ai"})
INDEFINITE = frozenset({"a", "an"})
_EMPTY = (None, "", "_", "-")


def _value(value: str | None) -> str | None:
    return None if value in _EMPTY else value


def parse_feats(value: str | None) -> dict[str, str]:
    """``Number=Plur|Person=3`` as a dict (``_`` is no features)."""
    feats: dict[str, str] = {}
    if value in _EMPTY:
        return feats
    for item in value.split("|"):
        name, sep, val = item.partition("=")
        if sep:
            feats[name] = val
    return feats


def _is_punctuation_form(form: str) -> bool:
    return bool(form) and all(unicodedata.category(c).startswith("P") for c in form)


@dataclass
class SentenceTree:
    """A dependency tree over the words of one sentence (document token indices).

    ``source`` is ``ud`` (the file's HEAD/DEPREL) or ``ptb`` (converted from CoNLL-2012 parse
    bits). ``parent[i]`` is None for the root.
    """

    source: str
    parent: dict[int, int | None]
    deprel: dict[int, str]
    children: dict[int, list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.children:
            for i in self.parent:
                self.children.setdefault(i, [])
            for i, p in self.parent.items():
                if p is not None:
                    self.children.setdefault(p, []).append(i)

    def depth(self, i: int) -> int:
        return tree_depth(self.parent, i)


def _base(deprel: str | None) -> str:
    return (deprel or "").split(":")[0]


# ============================================================================ PTB parse bits
_BIT = re.compile(r"\(([^()*\s]+)|\*|\)")


class _Node:
    __slots__ = ("children", "label")

    def __init__(self, label: str) -> None:
        self.label = label
        self.children: list[_Node | int] = []


def _phrase_label(label: str) -> str:
    """``NP-SBJ-1`` → ``NP`` (function tags and indices off); ``-NONE-`` stays."""
    if label.startswith("-"):
        return label
    return re.split(r"[-=]", label, maxsplit=1)[0]


def _parse_bits(bits: Sequence[tuple[int, str]]) -> _Node | None:
    """The constituency tree of one sentence from its parse bits, None if they are malformed."""
    stack: list[_Node] = []
    roots: list[_Node] = []
    for index, bit in bits:
        stars = 0
        for match in _BIT.finditer(bit):
            text = match.group(0)
            if text.startswith("("):
                stack.append(_Node(_phrase_label(match.group(1))))
            elif text == "*":
                if not stack or stars:
                    return None
                stack[-1].children.append(index)
                stars += 1
            else:
                if not stack:
                    return None
                node = stack.pop()
                (stack[-1].children if stack else roots).append(node)
        if stars != 1:
            return None
    if stack or not roots:
        return None
    if len(roots) == 1:
        return roots[0]
    top = _Node("TOP")
    top.children.extend(roots)
    return top


# Head rules: (direction, [labels in priority order]) after Collins (1999) and Magerman
# (1995), changed where UD picks another head: a VP child over auxiliaries, the object of a
# PP over the preposition, the clause of an SBAR over the complementizer, and the predicate
# of a copula (handled in _convert).
_HEAD_RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "ADJP": ("left", ("NNS", "QP", "NN", "$", "ADVP", "JJ", "VBN", "VBG", "ADJP", "JJR", "NP",
                      "JJS", "DT", "FW", "RBR", "RBS", "SBAR", "RB")),
    "ADVP": ("right", ("RB", "RBR", "RBS", "FW", "ADVP", "TO", "CD", "JJR", "JJ", "IN", "NP",
                       "JJS", "NN")),
    "PP": ("left", ("NP", "S", "SBAR", "VP", "ADJP", "IN", "TO", "VBG", "VBN", "RP", "FW")),
    "S": ("left", ("VP", "S", "SBAR", "ADJP", "UCP", "NP", "TO", "IN")),
    "SINV": ("left", ("VP", "VBZ", "VBD", "VBP", "VB", "MD", "S", "SINV", "ADJP", "NP")),
    "SQ": ("left", ("VP", "VBZ", "VBD", "VBP", "VB", "MD", "SQ")),
    "SBAR": ("left", ("S", "SQ", "SINV", "SBAR", "FRAG", "WHNP", "WHPP", "WHADVP", "WHADJP",
                      "IN", "DT")),
    "SBARQ": ("left", ("SQ", "S", "SINV", "SBARQ", "FRAG")),
    "VP": ("left", ("VP", "VBD", "VBN", "VBZ", "VB", "VBG", "VBP", "MD", "TO", "ADJP", "NN",
                    "NNS", "NP")),
    "QP": ("left", ("$", "IN", "NNS", "NN", "JJ", "RB", "DT", "CD", "NCD", "QP", "JJR", "JJS")),
    "WHADVP": ("right", ("CC", "WRB")),
    "WHADJP": ("left", ("CC", "WRB", "JJ", "ADJP")),
    "WHPP": ("right", ("IN", "TO", "FW")),
    "PRT": ("right", ("RP",)),
}
_NOMINAL_PHRASES = frozenset({"NP", "NML", "NX", "WHNP", "NAC"})
_PUNCT_TAGS = frozenset(t for t, u in PTB_UPOS.items() if u == "PUNCT")


class _PTBConverter:
    """Constituency tree → dependency tree with the relations the predicates read."""

    def __init__(self, tags: Mapping[int, str], words: Mapping[int, str]) -> None:
        self.tags = tags
        self.words = words
        self.parent: dict[int, int | None] = {}
        self.deprel: dict[int, str] = {}
        self._heads: dict[int, int] = {}
        self._copular: set[int] = set()  # VPs whose be-verb gave its head to the predicate

    def label(self, child: _Node | int) -> str:
        return self.tags.get(child, "") if isinstance(child, int) else child.label

    def is_punct(self, child: _Node | int) -> bool:
        return isinstance(child, int) and self.tags.get(child, "") in _PUNCT_TAGS

    def is_be(self, child: _Node | int) -> bool:
        return (isinstance(child, int) and self.tags.get(child, "").startswith("VB")
                and self.words.get(child, "").lower() in BE_FORMS)

    def head_child(self, node: _Node) -> int:
        children = node.children
        labels = [self.label(c) for c in children]
        content = [k for k, c in enumerate(children) if not self.is_punct(c)] or \
            list(range(len(children)))
        if node.label in _NOMINAL_PHRASES:
            for k in reversed(content):
                if labels[k] in NOMINAL_TAGS or labels[k] in ("NX", "NML", "JJR"):
                    return k
            for k in content:
                if labels[k] == "NP":
                    return k
            for group in (("$", "ADJP", "PRN"), ("CD",), ("JJ", "JJS", "RB", "QP")):
                for k in reversed(content):
                    if labels[k] in group:
                        return k
            # a possessive NP without a noun ("his 's"): not the clitic
            rest = [k for k in content if labels[k] != "POS"] or content
            return rest[-1]
        rule = _HEAD_RULES.get(node.label)
        if rule is not None:
            direction, priority = rule
            order = content if direction == "left" else list(reversed(content))
            for wanted in priority:
                for k in order:
                    if labels[k] == wanted:
                        return k
        return content[0]

    def head(self, child: _Node | int) -> int:
        if isinstance(child, int):
            return child
        key = id(child)
        if key not in self._heads:
            self._heads[key] = self._resolve(child)
        return self._heads[key]

    def _resolve(self, node: _Node) -> int:
        k = self.head_child(node)
        if node.label == "VP" and self.is_be(node.children[k]):
            # a copula: the predicate nominal or adjective heads the clause, as in UD
            for c in node.children[k + 1:]:
                if self.label(c) in ("NP", "ADJP", "NML"):
                    self._copular.add(id(node))
                    return self.head(c)
        return self.head(node.children[k])

    def convert(self, root: _Node) -> None:
        self.parent[self.head(root)] = None
        self.deprel[self.head(root)] = "root"
        self._attach(root)

    def _attach(self, node: _Node) -> None:
        h = self.head(node)
        head_child = next(k for k, c in enumerate(node.children) if self.head(c) == h)
        for k, child in enumerate(node.children):
            if k != head_child:
                d = self.head(child)
                self.parent[d] = h
                self.deprel[d] = self.relation(node, child, k, head_child)
            if isinstance(child, _Node):
                self._attach(child)

    def relation(self, node: _Node, child: _Node | int, k: int, head_child: int) -> str:
        label = self.label(child)
        if self.is_punct(child):
            return "punct"
        if node.label in _NOMINAL_PHRASES:
            if label in ("DT", "PDT", "WDT"):
                return "det"
            if label in ("PRP$", "WP$"):
                return "nmod:poss"
            if label == "POS":
                return "case"
            if label == "NP" and isinstance(child, _Node) and child.children and \
                    self.label(child.children[-1]) == "POS":
                return "nmod:poss"
            if k < head_child and (label in NOMINAL_TAGS or label in ("NML", "NX")):
                return "compound"
            if label == "CD" or label == "QP":
                return "nummod"
            if label.startswith("JJ") or label == "ADJP":
                return "amod"
            if label == "PP":
                return "nmod"
            if label in ("SBAR", "RRC", "VP", "S"):
                return "acl"
            if label == "NP" and k > head_child:
                return "appos"
            return "dep"
        if node.label in ("S", "SINV", "SQ"):
            if label in ("NP", "NML") and k < head_child:
                return "nsubj"
            if label == "ADVP":
                return "advmod"
            return "dep"
        if node.label == "VP":
            if id(node) in self._copular and self.is_be(child):
                return "cop"
            if isinstance(child, int) and (label.startswith("VB") or label in ("MD", "TO")) \
                    and k < head_child:
                return "aux"
            if label == "NP" and k > head_child:
                return "obj"
            if label == "PP":
                return "obl"
            return "dep"
        if node.label == "PP" and label in ("IN", "TO"):
            return "case"
        return "dep"


def ptb_tree(tags: Mapping[int, str], words: Mapping[int, str],
             bits: Sequence[tuple[int, str]]) -> SentenceTree | None:
    """A :class:`SentenceTree` from one sentence's POS tags, words and parse bits."""
    root = _parse_bits(bits)
    if root is None:
        return None
    converter = _PTBConverter(tags, words)
    converter.convert(root)
    if set(converter.parent) != {i for i, _ in bits}:
        return None
    return SentenceTree("ptb", converter.parent, converter.deprel)


# ============================================================================ the document view
class DocumentView:
    """What predicates look at in one document, computed on demand and kept.

    ``doc`` is the :class:`Document`; the methods give each token's UPOS (PTB tags mapped),
    FEATS, lemma, whether it is punctuation, the sentence's dependency tree, a mention's head
    and its coreferent mentions. ``None`` always means "not annotated in this document".
    """

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.tokens = doc.tokens
        self._trees: dict[int, SentenceTree | None] = {}
        self._chain: dict[Mention, list[Mention]] | None = None
        self._relations: dict[str, set[Mention]] = {}
        self._undecided: dict[str, set[Mention]] = {"copular": set(), "appositive": set()}
        self._sentence_breaks: bool | None = None

    # ------------------------------------------------------------------ tokens
    def upos(self, i: int) -> str | None:
        token = self.tokens[i]
        upos = _value(token.upos)
        if upos is not None:
            return upos
        xpos = _value(token.xpos)
        return PTB_UPOS.get(xpos) if xpos is not None else None

    def xpos(self, i: int) -> str | None:
        return _value(self.tokens[i].xpos)

    def feats(self, i: int) -> dict[str, str] | None:
        """The features; None when the file has no FEATS column (CoNLL-2012)."""
        token = self.tokens[i]
        if token.feats is None:
            return None
        return parse_feats(token.feats)

    def lemma(self, i: int) -> str:
        token = self.tokens[i]
        return (_value(token.lemma) or token.form).lower()

    def is_punct(self, i: int) -> bool:
        upos = self.upos(i)
        if upos is not None:
            return upos == "PUNCT"
        return _is_punctuation_form(self.tokens[i].form)

    def plural(self, i: int) -> bool | None:
        feats = self.feats(i)
        if feats is not None and "Number" in feats:
            return feats["Number"] == "Plur"
        xpos = self.xpos(i)
        if xpos in ("NNS", "NNPS"):
            return True
        if xpos in ("NN", "NNP"):
            return False
        return False if feats is not None else None

    # ------------------------------------------------------------------ syntax
    def tree(self, i: int) -> SentenceTree | None:
        """The dependency tree of token ``i``'s sentence, None when the file has none."""
        s = self.tokens[i].sentence
        if s not in self._trees:
            self._trees[s] = self._build_tree(s)
        return self._trees[s]

    def _build_tree(self, s: int) -> SentenceTree | None:
        if s < 0 or s >= len(self.doc.sentences):
            return None
        sentence = self.doc.sentences[s]
        words = [i for i in sentence.token_indices() if not self.tokens[i].is_empty]
        if not words:
            return None
        first = self.tokens[words[0]]
        if _value(first.head) is not None and _value(first.deprel) is not None:
            return self._ud_tree(words)
        columns = first.attrs.get("conll_columns")
        if columns is not None and len(columns) >= 11:
            return self._ptb_tree(words)
        return None

    def _ud_tree(self, words: list[int]) -> SentenceTree | None:
        by_id = {self.tokens[i].id: i for i in words}
        parent: dict[int, int | None] = {}
        deprel: dict[int, str] = {}
        for i in words:
            token = self.tokens[i]
            head, rel = _value(token.head), _value(token.deprel)
            if head is None or rel is None:
                return None
            if head == "0":
                parent[i] = None
            elif head in by_id:
                parent[i] = by_id[head]
            else:
                return None
            deprel[i] = rel
        return SentenceTree("ud", parent, deprel)

    def _ptb_tree(self, words: list[int]) -> SentenceTree | None:
        bits = []
        for i in words:
            columns = self.tokens[i].attrs.get("conll_columns")
            if columns is None or len(columns) < 11 or _value(columns[5]) is None:
                return None
            bits.append((i, columns[5]))
        tags = {i: self.xpos(i) or "" for i in words}
        forms = {i: self.tokens[i].form for i in words}
        return ptb_tree(tags, forms, bits)

    def head(self, mention: Mention) -> int | None:
        """The annotated head, else the word whose parent lies outside the mention (nearest
        the root, then leftmost; :func:`corefkit.model.syntax.tree_head`); None without a
        tree."""
        words = [i for i in mention.tokens if not self.tokens[i].is_empty]
        if mention.head is not None and (not words or not self.tokens[mention.head].is_empty):
            return mention.head  # an empty-node head of an overt mention: use the words
        if not words:
            return mention.tokens[0] if mention.tokens else None
        if len(words) == 1:
            return words[0]
        tree = self.tree(words[0])
        if tree is None:
            return None
        # the tree covers the words of the first word's sentence: pass over the others
        return tree_head(self.doc, mention.tokens, parents=tree.parent, words_only=True,
                         partial=True)

    # ------------------------------------------------------------------ coreference
    def coreferent(self, mention: Mention) -> list[Mention]:
        """The other mentions of the mention's identity entity."""
        if self._chain is None:
            self._chain = {}
            for entity in self.doc.entities_in(IDENTITY):
                chain = self.doc.mentions_of(entity, ordered=False)
                for m in chain:
                    self._chain[m] = chain
        return [m for m in self._chain.get(mention, ()) if m is not mention]

    def _chains(self) -> list[list[Mention]]:
        return [self.doc.mentions_of(e) for e in self.doc.entities_in(IDENTITY)]

    def relation(self, name: str) -> set[Mention]:
        """The mentions in a coreference relation ``nested``, ``appositive`` or ``copular``
        (one pass over the document, kept)."""
        if name not in self._relations:
            self._relations[name] = getattr(self, f"_{name}")()
        return self._relations[name]

    def _nested(self) -> set[Mention]:
        """Mentions that share a token with another mention of their chain: counted per
        token, O(positions) (the pairs of a chain of n overlapping mentions are n²/2)."""
        found: set[Mention] = set()
        for chain in self._chains():
            covering: dict[int, int] = {}
            for m in chain:
                for t in m.tokens:
                    covering[t] = covering.get(t, 0) + 1
            found.update(m for m in chain if any(covering[t] > 1 for t in m.tokens))
        return found

    def sentence_breaks(self) -> bool:
        """False when the document is one "sentence" with sentence-final punctuation inside
        (GUM's CoNLL-2012 export has no sentence breaks): "in one sentence" cannot be told."""
        if self._sentence_breaks is None:
            self._sentence_breaks = len(self.doc.sentences) > 1 or not any(
                t.form in (".", "!", "?") for t in self.tokens[:-1])
        return self._sentence_breaks

    def undecided(self, name: str) -> set[Mention]:
        """Mentions the relation ``name`` (copular, appositive) cannot be decided for."""
        self.relation(name)
        return self._undecided[name]

    def _same_sentence_groups(self, name: str) -> Iterable[list[Mention]]:
        """The mentions of each chain that lie in one sentence, per sentence (groups of two or
        more); without sentence breaks every mention of a chain is undecided for relation
        ``name`` instead."""
        if not self.sentence_breaks():
            for chain in self._chains():
                if len(chain) > 1:
                    self._undecided[name].update(chain)
            return
        for chain in self._chains():
            by_sentence: dict[int, list[Mention]] = {}
            for m in chain:
                if m.tokens and self.tokens[m.start].sentence == self.tokens[m.end].sentence:
                    by_sentence.setdefault(self.tokens[m.start].sentence, []).append(m)
            yield from (group for group in by_sentence.values() if len(group) > 1)

    def _appositive(self) -> set[Mention]:
        """Coreferent mentions of one sentence next to each other, or with one punctuation
        mark between them: the mentions ending just before a start, grouped by position
        (the pairs of a group are never enumerated)."""
        found: set[Mention] = set()
        for group in self._same_sentence_groups("appositive"):
            ending: dict[int, list[Mention]] = {}
            starting: dict[int, list[Mention]] = {}
            for m in group:
                ending.setdefault(m.end, []).append(m)
                starting.setdefault(m.start, []).append(m)
            for end, firsts in ending.items():
                for gap in (0, 1):
                    seconds = starting.get(end + 1 + gap)
                    if seconds and (gap == 0 or self.is_punct(end + 1)):
                        found.update(firsts)
                        found.update(seconds)
        return found

    def _copular(self) -> set[Mention]:
        """Coreferent mentions of one sentence whose heads are the subject (nsubj) and the
        predicate (with a cop child) of a copular clause: each mention's head looked up once,
        its partners found by the predicate's index."""
        found: set[Mention] = set()
        for group in self._same_sentence_groups("copular"):
            tree = self.tree(group[0].start)
            if tree is None:
                self._undecided["copular"].update(group)
                continue
            by_head: dict[int, list[Mention]] = {}
            for m in group:
                head = self.head(m)
                if head is not None:
                    by_head.setdefault(head, []).append(m)
            for subject, mentions in by_head.items():
                predicate = tree.parent.get(subject)
                if predicate is None:
                    continue
                partners = by_head.get(predicate)
                if partners and _base(tree.deprel.get(subject)) == "nsubj" and any(
                        _base(tree.deprel.get(c)) == "cop"
                        for c in tree.children.get(predicate, ())):
                    found.update(mentions)
                    found.update(partners)
        self._undecided["copular"] -= found
        return found


# ============================================================================ predicates
PredicateTest = Callable[[DocumentView, Mention], Verdict]


@dataclass(frozen=True)
class Predicate:
    """A mention type: ``test(view, mention)`` says whether a mention has it (None: unknown).

    ``needs`` names the annotation the predicate reads, for the message given when a document
    lacks it.
    """

    name: str
    test: PredicateTest
    description: str = ""
    needs: str = ""
    builtin: bool = False


PREDICATES: dict[str, Predicate] = {}
BUILTIN_TYPES = ("nested", "generic", "compound", "copular", "vp", "appositive")
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def register_predicate(name: str, test: PredicateTest, description: str = "", *,
                       needs: str = "", replace: bool = False) -> Predicate:
    """Add a mention type to the registry.

    ``test(view, mention)`` gets a :class:`DocumentView` (``view.doc`` is the document) and a
    mention of it, and returns True, False, or None when the document lacks what it needs.
    """
    if not _NAME.match(name) or name == "all":
        raise UsageError(f"invalid mention-type name {name!r}: use letters, digits, '_' and '-', "
                         "starting with a letter ('all' is reserved)")
    known = PREDICATES.get(name)
    if known is not None and (known.builtin or not replace):
        raise UsageError(f"mention type {name!r} is already defined"
                         + (" (built in)" if known.builtin else "; pass replace=True"))
    predicate = Predicate(name, test, description, needs)
    PREDICATES[name] = predicate
    return predicate


def unregister_predicate(name: str) -> None:
    """Remove a user predicate (built-in ones stay)."""
    known = PREDICATES.get(name)
    if known is not None and not known.builtin:
        del PREDICATES[name]


def _builtin(name: str, description: str,
             needs: str = "") -> Callable[[PredicateTest], PredicateTest]:
    def decorate(test: PredicateTest) -> PredicateTest:
        PREDICATES[name] = Predicate(name, test, description, needs, builtin=True)
        return test
    return decorate


def _zero(view: DocumentView, mention: Mention) -> bool:
    return not mention.tokens or all(view.tokens[i].is_empty for i in mention.tokens)


@_builtin("nested", "corefers with a mention it overlaps (larger or smaller)")
def is_nested(view: DocumentView, mention: Mention) -> Verdict:
    return mention in view.relation("nested")


@_builtin("generic", "OntoNotes generic: indefinite article child, or plural noun without "
          "a determiner", needs="syntax (a CoNLL-U tree, CoNLL-2012 parse bits)")
def is_generic(view: DocumentView, mention: Mention) -> Verdict:
    if _zero(view, mention):
        return False
    head = view.head(mention)
    tree = view.tree(head) if head is not None else None
    if head is None or tree is None or head not in tree.parent:
        return None
    dependents = tree.children.get(head, ())
    if any(_base(tree.deprel[c]) == "det" and view.tokens[c].form.lower() in INDEFINITE
           for c in dependents):
        return True
    if view.upos(head) != "NOUN":
        return False
    plural = view.plural(head)
    if plural is None:
        return None
    determined = any(_base(tree.deprel[c]) == "det" or tree.deprel[c] == "nmod:poss"
                     for c in dependents)
    return plural and not determined


@_builtin("compound", "its head is the dependent of a compound relation",
          needs="syntax (a CoNLL-U tree, CoNLL-2012 parse bits)")
def is_compound(view: DocumentView, mention: Mention) -> Verdict:
    if _zero(view, mention):
        return False
    head = view.head(mention)
    tree = view.tree(head) if head is not None else None
    if head is None or tree is None or head not in tree.deprel:
        return None
    deprel = tree.deprel[head]
    return _base(deprel) == "compound" and deprel != "compound:prt"


@_builtin("copular", "nsubj of, or predicate with a cop dependent over, a coreferent mention",
          needs="sentence breaks or syntax (a CoNLL-U tree, CoNLL-2012 parse bits)")
def is_copular(view: DocumentView, mention: Mention) -> Verdict:
    if mention in view.relation("copular"):
        return True
    return None if mention in view.undecided("copular") else False


@_builtin("vp", "only verbal parts of speech", needs="part-of-speech tags")
def is_vp(view: DocumentView, mention: Mention) -> Verdict:
    words = [i for i in mention.tokens if not view.tokens[i].is_empty]
    if not words:
        return False
    tags = [view.upos(i) for i in words]
    if any(t is None for t in tags):
        return None
    return all(t in VERBAL for t in tags)


@_builtin("appositive", "a coreferent mention in the sentence is adjacent or one punctuation "
          "token away", needs="sentence breaks")
def is_appositive(view: DocumentView, mention: Mention) -> Verdict:
    if mention in view.relation("appositive"):
        return True
    return None if mention in view.undecided("appositive") else False


# ============================================================================ JSON rules
# A rule file: {"predicates": {NAME: RULE, ...}}. A RULE is an object whose keys all have to
# hold (description aside): head / any_token / all_tokens / first_token / last_token (a TOKEN
# pattern), all / any (lists of RULEs), not (a RULE), predicate (another type's name),
# length ({"min": n, "max": n}). A TOKEN pattern: upos, xpos, deprel, form, lemma (regular
# expressions matched against the whole value), feats ({"Feature": "regex"}), parent (a
# TOKEN), children (TOKENs that each some child matches), no_children (TOKENs no child
# matches), not (a TOKEN). Logic is three-valued: a layer the file lacks gives None ("cannot
# tell"), which a report counts apart; see corefkit/schemas/predicates.schema.json.
RULE_KEYS = frozenset({"description", "head", "any_token", "all_tokens", "first_token",
                       "last_token", "all", "any", "not", "predicate", "length"})
TOKEN_KEYS = frozenset({"upos", "xpos", "deprel", "form", "lemma", "feats", "parent",
                        "children", "no_children", "not"})
TokenTest = Callable[[DocumentView, int], Verdict]
RuleTest = Callable[[DocumentView, Mention], Verdict]


def _negated_token(inner: TokenTest) -> TokenTest:
    return lambda view, i: _not(inner(view, i))


def _negated_rule(inner: RuleTest) -> RuleTest:
    return lambda view, m: _not(inner(view, m))


def _combined(parts: list[RuleTest], combine: Callable[[Iterable[Verdict]], Verdict]) -> RuleTest:
    return lambda view, m: combine(p(view, m) for p in parts)


def _length(low: int, high: int | None) -> RuleTest:
    return lambda view, m: len(m.tokens) >= low and (high is None or len(m.tokens) <= high)


def _all(values: Iterable[Verdict]) -> Verdict:
    unknown = False
    for v in values:
        if v is False:
            return False
        if v is None:
            unknown = True
    return None if unknown else True


def _any(values: Iterable[Verdict]) -> Verdict:
    unknown = False
    for v in values:
        if v is True:
            return True
        if v is None:
            unknown = True
    return None if unknown else False


def _not(value: Verdict) -> Verdict:
    return None if value is None else not value


class _RuleCompiler:
    def __init__(self, source: str) -> None:
        self.source = source
        self.local: dict[str, Predicate] = {}        # the file's own rules, by name
        self.references: dict[str, set[str]] = {}    # rule -> types it names
        self.current = ""

    def fail(self, where: str, message: str) -> UsageError:
        return UsageError(f"{self.source}: {where}: {message}")

    def regex(self, where: str, value: Any) -> re.Pattern[str]:
        if not isinstance(value, str):
            raise self.fail(where, f"expected a regular expression string, got {value!r}")
        try:
            return re.compile(value)
        except re.error as exc:
            raise self.fail(where, f"invalid regular expression {value!r}: {exc}") from None

    def token(self, where: str, spec: Any) -> TokenTest:
        if not isinstance(spec, dict) or not spec:
            raise self.fail(where, "a token pattern must be a non-empty object")
        unknown = set(spec) - TOKEN_KEYS
        if unknown:
            raise self.fail(where, f"unknown key {min(unknown)!r} in a token pattern; "
                                   f"known: {', '.join(sorted(TOKEN_KEYS))}")
        tests: list[TokenTest] = []
        for key, value in spec.items():
            at = f"{where}.{key}"
            if key in ("upos", "xpos", "form", "lemma"):
                tests.append(self._field(key, self.regex(at, value)))
            elif key == "deprel":
                pattern = self.regex(at, value)

                def deprel(view: DocumentView, i: int,
                           pattern: re.Pattern[str] = pattern) -> Verdict:
                    tree = view.tree(i)
                    if tree is None or i not in tree.deprel:
                        return None
                    return pattern.fullmatch(tree.deprel[i]) is not None
                tests.append(deprel)
            elif key == "feats":
                if not isinstance(value, dict) or not value:
                    raise self.fail(at, "feats must be an object of feature: regex")
                wanted = {name: self.regex(f"{at}.{name}", v) for name, v in value.items()}

                def feats(view: DocumentView, i: int,
                          wanted: dict[str, re.Pattern[str]] = wanted) -> Verdict:
                    have = view.feats(i)
                    if have is None:
                        return None
                    return all(name in have and p.fullmatch(have[name]) is not None
                               for name, p in wanted.items())
                tests.append(feats)
            elif key == "parent":
                inner = self.token(at, value)

                def parent(view: DocumentView, i: int, inner: TokenTest = inner) -> Verdict:
                    tree = view.tree(i)
                    if tree is None or i not in tree.parent:
                        return None
                    p = tree.parent[i]
                    return False if p is None else inner(view, p)
                tests.append(parent)
            elif key in ("children", "no_children"):
                if not isinstance(value, list) or not value:
                    raise self.fail(at, f"{key} must be a non-empty list of token patterns")
                inners = [self.token(f"{at}[{n}]", v) for n, v in enumerate(value)]
                tests.append(self._children(inners, key == "children"))
            else:  # not
                tests.append(_negated_token(self.token(at, value)))
        return lambda view, i: _all(t(view, i) for t in tests)

    @staticmethod
    def _field(name: str, pattern: re.Pattern[str]) -> TokenTest:
        def test(view: DocumentView, i: int) -> Verdict:
            if name == "upos":
                value = view.upos(i)
            elif name == "xpos":
                value = view.xpos(i)
            elif name == "lemma":
                value = _value(view.tokens[i].lemma)
            else:
                value = view.tokens[i].form
            return None if value is None else pattern.fullmatch(value) is not None
        return test

    @staticmethod
    def _children(inners: list[TokenTest], exist: bool) -> TokenTest:
        def test(view: DocumentView, i: int) -> Verdict:
            tree = view.tree(i)
            if tree is None or i not in tree.parent:
                return None
            kids = tree.children.get(i, [])
            found = [_any(inner(view, c) for c in kids) for inner in inners]
            return _all(found) if exist else _all(_not(f) for f in found)
        return test

    def rule(self, where: str, spec: Any) -> RuleTest:
        if not isinstance(spec, dict):
            raise self.fail(where, "a rule must be an object")
        unknown = set(spec) - RULE_KEYS
        if unknown:
            raise self.fail(where, f"unknown key {min(unknown)!r} in a rule; known: "
                                   f"{', '.join(sorted(RULE_KEYS))}")
        tests: list[RuleTest] = []
        for key, value in spec.items():
            at = f"{where}.{key}"
            if key == "description":
                if not isinstance(value, str):
                    raise self.fail(at, "description must be a string")
            elif key == "head":
                inner = self.token(at, value)

                def on_head(view: DocumentView, m: Mention, inner: TokenTest = inner) -> Verdict:
                    h = view.head(m)
                    return None if h is None else inner(view, h)
                tests.append(on_head)
            elif key in ("any_token", "all_tokens", "first_token", "last_token"):
                inner = self.token(at, value)
                tests.append(self._over_tokens(key, inner))
            elif key in ("all", "any"):
                if not isinstance(value, list) or not value:
                    raise self.fail(at, f"{key} must be a non-empty list of rules")
                parts = [self.rule(f"{at}[{n}]", v) for n, v in enumerate(value)]
                tests.append(_combined(parts, _all if key == "all" else _any))
            elif key == "not":
                tests.append(_negated_rule(self.rule(at, value)))
            elif key == "predicate":
                if not isinstance(value, str):
                    raise self.fail(at, "predicate must name a mention type")
                self.references.setdefault(self.current, set()).add(value)

                def other(view: DocumentView, m: Mention, name: str = value) -> Verdict:
                    # late bound: a rule may name a rule defined after it in the file
                    predicate = self.local.get(name) or PREDICATES[name]
                    return predicate.test(view, m)
                tests.append(other)
            else:  # length
                if not isinstance(value, dict) or not set(value) <= {"min", "max"} or not all(
                        isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
                    raise self.fail(at, 'length must be {"min": n, "max": n} with integers')
                tests.append(_length(value.get("min", 0), value.get("max")))
        if not tests:
            raise self.fail(where, "a rule needs at least one condition")
        return lambda view, m: _all(t(view, m) for t in tests)

    @staticmethod
    def _over_tokens(key: str, inner: TokenTest) -> RuleTest:
        def test(view: DocumentView, m: Mention) -> Verdict:
            words = [i for i in m.tokens if not view.tokens[i].is_empty]
            if not words:
                return False
            if key == "first_token":
                return inner(view, words[0])
            if key == "last_token":
                return inner(view, words[-1])
            verdicts = (inner(view, i) for i in words)
            return _any(verdicts) if key == "any_token" else _all(verdicts)
        return test


def load_rules(source: str | os.PathLike[str] | Mapping[str, Any]) -> list[Predicate]:
    """Predicates from a JSON rule file (or the parsed object); they are not registered.

    Errors (unreadable file, bad JSON, unknown keys, bad regular expressions, a name that a
    built-in type has) are :class:`UsageError` messages naming the file and the rule.
    """
    if isinstance(source, Mapping):
        data: Any = source
        name = "<rules>"
    else:
        name = os.fspath(source)
        from corefkit.converters.paths import InputError, read_text

        try:
            data = parse(read_text(name), file=name, check="rules.table",
                         hint="a file of mention-type rules")  # regular files only
        except InputError as exc:
            raise UsageError(f"cannot read the mention-type rules: {exc}") from None
        except OSError as exc:
            raise UsageError(f"cannot read the mention-type rules {name}: "
                             f"{exc.strerror or exc}") from None
        except UnicodeDecodeError as exc:
            raise UsageError(f"{name}: not valid JSON: {exc}") from None
        except FormatError as exc:
            raise UsageError(str(exc)) from None
    compiler = _RuleCompiler(name)
    if not isinstance(data, Mapping) or not isinstance(data.get("predicates"), Mapping) \
            or set(data) - {"predicates", "$schema", "description"}:
        raise compiler.fail("top level", 'expected {"predicates": {"NAME": RULE, ...}}')
    found = []
    for type_name, spec in data["predicates"].items():
        if not isinstance(type_name, str) or not _NAME.match(type_name) or type_name == "all":
            raise compiler.fail(f"predicates.{type_name}", "invalid mention-type name (letters, "
                                "digits, '_' and '-', starting with a letter)")
        if type_name in PREDICATES and PREDICATES[type_name].builtin:
            raise compiler.fail(f"predicates.{type_name}",
                                "redefines a built-in mention type; choose another name")
        compiler.current = type_name
        test = compiler.rule(f"predicates.{type_name}", spec)
        description = spec.get("description", "") if isinstance(spec, dict) else ""
        predicate = Predicate(type_name, test, description, "the annotation the rule reads")
        compiler.local[type_name] = predicate
        found.append(predicate)
    for type_name, named in compiler.references.items():
        for other in sorted(named):
            if other not in compiler.local and other not in PREDICATES:
                raise compiler.fail(f"predicates.{type_name}.predicate",
                                    f"unknown mention type {other!r}")
    _check_cycles(compiler)
    return found


def _check_cycles(compiler: _RuleCompiler) -> None:
    """Rules that name each other in a circle would never finish: refuse them."""
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2 or name not in compiler.local:
            return
        if state.get(name) == 1:
            cycle = " -> ".join(path[path.index(name):] + [name])
            raise compiler.fail(f"predicates.{name}", f"rules name each other in a circle: {cycle}")
        state[name] = 1
        for other in sorted(compiler.references.get(name, ())):
            visit(other, path + [name])
        state[name] = 2

    for name in compiler.local:
        visit(name, [])


def resolve_predicates(types: str | Sequence[str] | None = None,
                       rules: str | os.PathLike[str] | Mapping[str, Any] | None = None,
                       extra: Mapping[str, PredicateTest | Predicate] | None = None
                       ) -> list[Predicate]:
    """The predicates a run asks for, in order.

    ``types``: a comma list or sequence of names, or ``None``/``"all"`` for every built-in
    type, every registered one and every rule of ``rules``. ``rules`` (a JSON rule file or
    object) and ``extra`` (name → callable or :class:`Predicate`) add types for this run only.
    """
    available: dict[str, Predicate] = dict(PREDICATES)
    local: dict[str, Predicate] = {}
    if rules is not None:
        for predicate in load_rules(rules):
            local[predicate.name] = predicate
    for name, value in (extra or {}).items():
        if name in available and available[name].builtin:
            raise UsageError(f"mention type {name!r} is built in; choose another name")
        local[name] = value if isinstance(value, Predicate) else Predicate(name, value)
    available.update(local)
    if isinstance(types, str):
        names = [t.strip() for t in types.split(",") if t.strip()]
    else:
        names = list(types) if types is not None else ["all"]
    if not names:
        raise UsageError("no mention type given")
    chosen: list[Predicate] = []
    for name in names:
        if name == "all":
            wanted = [*BUILTIN_TYPES, *(n for n in PREDICATES if n not in BUILTIN_TYPES),
                      *(n for n in local if n not in PREDICATES)]
        elif name in available:
            wanted = [name]
        else:
            raise UsageError(f"unknown mention type {name!r}; known: "
                             f"{', '.join(available)} (add one with a rule file)")
        for w in wanted:
            if all(p.name != w for p in chosen):
                chosen.append(available[w])
    return chosen


def mention_types(doc: Document, predicates: Sequence[Predicate] | str | None = None
                  ) -> dict[Mention, dict[str, Verdict]]:
    """Every identity mention of ``doc`` with each predicate's verdict (for analysis and
    tests; scoring uses a labeler over the same predicates)."""
    chosen = resolve_predicates(predicates) if predicates is None or isinstance(predicates, str) \
        else list(predicates)
    view = DocumentView(doc)
    result: dict[Mention, dict[str, Verdict]] = {}
    for entity in doc.entities_in(IDENTITY):
        for m in doc.mentions_of(entity):
            result[m] = {p.name: p.test(view, m) for p in chosen}
    return result
