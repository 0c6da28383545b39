"""The annotations of one document on one token layer, so that their mentions can be compared.

Annotators of the same document rarely see different words, but their files may cut the words
differently: CorefAnnotator's XMI has no tokens (the reader cuts the text at whitespace and at
that annotator's own mention boundaries), exports of one text by two tools tokenize it their
own way. Comparing token positions of such files would pair unrelated words. So:

* **same tokens** (every annotation has the same token forms in the same order): used as they
  are;
* **same text, other tokens** (the forms, joined without whitespace, are the same string and no
  annotation has empty nodes): the text is cut at every token boundary of every annotation —
  the coarsest tokenization finer than all of them — and each annotation is re-expressed on
  those tokens exactly, character by character (nothing moves, nothing is lost);
* **anything else** (texts that differ in case, quotes, words, or have empty nodes): each
  annotation is aligned onto the one with the most words by :func:`corefkit.alignment.align`
  (characters when the texts agree up to what it normalizes, words otherwise), and what that
  took — words replaced, inserted, deleted, mention edges moved or expanded, mentions in text
  the other lacks — is reported per document and annotator. Texts that differ beyond
  tokenization are said to differ, never paired by position in silence.

The first annotation's sentences, token attributes and document fields are kept (a token cut
in pieces keeps its sentence and, in a character-offset format, its characters).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.model import Document, Mention, Sentence, Token

CHARS = "_chars"   # corefkit.converters.offsets.CHARS: a token's (start, end) in the text

SAME, REFINED, ALIGNED = "same tokens", "characters", "aligned"


@dataclass
class TextNote:
    """How one annotation of a document was put on the common tokens."""

    document: str
    annotator: str
    mode: str                       # same tokens | characters | aligned
    tokens: int                     # the annotation's own tokens
    common_tokens: int
    alignment: dict[str, Any] = field(default_factory=dict)  # the alignment report (aligned)

    @property
    def text_differs(self) -> bool:
        """The texts differ beyond tokenization (aligned by words)."""
        return self.mode == ALIGNED and self.alignment.get("mode") == "words"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"document": self.document, "annotator": self.annotator,
                               "mode": self.mode, "tokens": self.tokens,
                               "common_tokens": self.common_tokens,
                               "text_differs": self.text_differs}
        if self.alignment:
            out["alignment"] = self.alignment
        return out

    def describe(self) -> str:
        if self.mode == SAME:
            return f"{self.annotator}: the same tokens"
        if self.mode == REFINED:
            return (f"{self.annotator}: {self.tokens} tokens, re-cut into the "
                    f"{self.common_tokens} common tokens by characters")
        a = self.alignment
        if self.text_differs:
            return (f"{self.annotator}: the text differs beyond tokenization (aligned by words: "
                    f"{a.get('words_replaced', 0)} replaced, {a.get('words_inserted', 0)} "
                    f"inserted, {a.get('words_deleted', 0)} missing; {a.get('mentions_unaligned', 0)}"
                    f" of {a.get('mentions', 0)} mentions in text the other lacks)")
        return (f"{self.annotator}: aligned by characters ({a.get('mentions_expanded', 0)} "
                f"mention edges inside a token expanded, {a.get('mentions_moved', 0)} moved)")


def common_layer(name: str, part: str | None, labels: Sequence[str],
                 docs: Sequence[Document]) -> tuple[list[Document], list[TextNote]]:
    """The annotations ``docs`` (one per annotator in ``labels``) of one document, on one token
    layer, each renamed ``name``/``part``; and how each got there."""
    forms = [[t.form for t in d.tokens] for d in docs]
    if all(f == forms[0] for f in forms[1:]):
        out = [_renamed(d, name, part) for d in docs]
        return out, [TextNote(name, label, SAME, d.token_count, d.token_count)
                     for label, d in zip(labels, docs)]
    joined = [_letters(d) for d in docs]
    if all(j == joined[0] for j in joined[1:]) and not any(
            t.is_empty for d in docs for t in d.tokens):
        return _refine(name, part, labels, docs)
    return _align(name, part, labels, docs)


def _renamed(doc: Document, name: str, part: str | None) -> Document:
    if doc.id == name and doc.part == part:
        return doc
    copy = doc.copy(text=False)
    copy.id, copy.part = name, part
    return copy


def _letters(doc: Document) -> str:
    return "".join("".join(t.form.split()) for t in doc.tokens)


# ------------------------------------------------------------------------------- refine
def _refine(name: str, part: str | None, labels: Sequence[str],
            docs: Sequence[Document]) -> tuple[list[Document], list[TextNote]]:
    """Cut the shared text at every annotation's token boundaries (see the module's text)."""
    spans = [_spans(d) for d in docs]
    total = len(_letters(docs[0]))
    cuts = sorted({0, total, *(p for own in spans for a, b in own for p in (a, b))})
    pieces = [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]
    starts = [a for a, _ in pieces]
    tokens, sentences = _common_tokens(docs[0], spans[0], pieces)
    out, notes = [], []
    for label, doc, own in zip(labels, docs, spans):
        ranges = []
        for a, b in own:
            first = min(bisect.bisect_right(starts, a) - 1, len(pieces) - 1)
            last = max(first, bisect.bisect_left(starts, b) - 1)
            ranges.append((max(first, 0), last))
        out.append(rebuild(doc, name, part, tokens, sentences, ranges))
        notes.append(TextNote(name, label, REFINED, doc.token_count, len(tokens)))
    return out, notes


def _spans(doc: Document) -> list[tuple[int, int]]:
    """Each token's (start, end) in the document's letters (its text without whitespace)."""
    found, at = [], 0
    for token in doc.tokens:
        size = len("".join(token.form.split()))
        found.append((at, at + size))
        at += size
    return found


def _common_tokens(reference: Document, spans: list[tuple[int, int]],
                   pieces: list[tuple[int, int]]) -> tuple[list[Token], list[Sentence]]:
    """The common tokens, each a piece of a token of ``reference`` (the first annotation),
    whose sentence, attributes and characters it keeps."""
    tokens: list[Token] = []
    owner_starts = [a for a, _ in spans]
    sentence_of: list[int] = []
    for a, b in pieces:
        index = max(bisect.bisect_right(owner_starts, a) - 1, 0)
        while index + 1 < len(spans) and spans[index][1] <= a:  # skip empty tokens
            index += 1
        source = reference.tokens[index]
        start, end = spans[index]
        if (a, b) == (start, end):
            token = _copy_token(source)
        else:
            token = _piece(source, a - start, b - start, last=b == end)
        token.index = len(tokens)
        tokens.append(token)
        sentence_of.append(source.sentence)
    sentences: list[Sentence] = []
    for n, number in enumerate(sentence_of):
        if sentences and sentence_of[n - 1] == number:
            sentences[-1].stop = n + 1
            continue
        own = reference.sentences[number] if 0 <= number < len(reference.sentences) else None
        sentences.append(Sentence(len(sentences), n, n + 1,
                                  sent_id=own.sent_id if own else None,
                                  comments=list(own.comments) if own else None,
                                  speaker=own.speaker if own else None,
                                  attrs=dict(own.attrs) if own else None))
    for s in sentences:
        for i in range(s.start, s.stop):
            tokens[i].sentence = s.index
    return tokens, sentences


def _copy_token(token: Token) -> Token:
    return Token(token.form, token.index, token.sentence, dict(token.attrs), token.id,
                 token.lemma, token.upos, token.xpos, token.feats, token.head, token.deprel,
                 token.deps, token.misc, token.speaker, token.is_empty)


def _piece(token: Token, a: int, b: int, *, last: bool) -> Token:
    """Letters ``a:b`` of ``token`` as a token of their own (a token without whitespace
    inside keeps its characters in the text)."""
    form = "".join(token.form.split())[a:b]
    attrs: dict[str, Any] = {}
    chars = token.attrs.get(CHARS)
    if chars is not None and not any(c.isspace() for c in token.form):
        attrs[CHARS] = (chars[0] + a, chars[0] + b)
    misc = token.misc if last else "SpaceAfter=No"
    return Token(form, -1, token.sentence, attrs, misc=misc, speaker=token.speaker)


# ------------------------------------------------------------------------------- align
def _align(name: str, part: str | None, labels: Sequence[str],
           docs: Sequence[Document]) -> tuple[list[Document], list[TextNote]]:
    """Every annotation on the tokens of the one with the most words (the first of them)."""
    from corefkit.alignment import AlignmentPolicy, align

    words = [sum(1 for t in d.tokens if not t.is_empty) for d in docs]
    chosen = words.index(max(words))
    reference = _renamed(docs[chosen], name, part)
    policy = AlignmentPolicy(boundary="expand", merged="keep")
    out, notes = [], []
    for n, (label, doc) in enumerate(zip(labels, docs)):
        if n == chosen:
            out.append(reference)
            notes.append(TextNote(name, label, SAME, doc.token_count, reference.token_count))
            continue
        aligned = align(reference, doc, policy, keep_unaligned=False)
        result = aligned.document
        result.id, result.part, result.file = name, part, doc.file
        result.source_format = doc.source_format
        out.append(result)
        report = aligned.report.to_json()
        report.pop("document", None)
        report.pop("response", None)
        notes.append(TextNote(name, label, ALIGNED, doc.token_count, reference.token_count,
                              report))
    return out, notes


# ------------------------------------------------------------------------------- rebuild
def rebuild(doc: Document, name: str, part: str | None, tokens: list[Token],
            sentences: list[Sentence], ranges: Sequence[tuple[int, int]]) -> Document:
    """``doc``'s annotation on the token layer ``tokens``/``sentences``, where its token i
    covers the new tokens ``ranges[i]`` (first, last); the text layer is shared, not copied."""
    new = Document(name, part, file=doc.file)
    new.line, new.source_format = doc.line, doc.source_format
    new.meta, new.attrs, new.repairs = dict(doc.meta), dict(doc.attrs), list(doc.repairs)
    new.tokens, new.sentences = tokens, sentences

    def moved(old: Sequence[int]) -> tuple[int, ...]:
        found: set[int] = set()
        for t in old:
            first, last = ranges[t]
            found.update(range(first, last + 1))
        return tuple(sorted(found))

    entities = {e: new.new_entity(layer=e.layer, pseudo=e.pseudo, attrs=dict(e.attrs))
                for e in doc.entities}
    made: dict[Mention, Mention] = {}
    for mention in doc.mentions:
        covered = moved(mention.tokens)
        entity = doc.entity_of(mention)
        head = ranges[mention.head][0] if mention.head is not None else None
        made[mention] = new.add_mention(
            covered, entities[entity] if entity is not None else None, layer=mention.layer,
            head=head if head in covered else None, head_derived=mention.head_derived,
            min_tokens=moved(mention.min_tokens) if mention.min_tokens else None,
            min_derived=mention.min_derived, nonref=mention.nonref, attrs=dict(mention.attrs),
            line=mention.line)
    for membership in doc.memberships():
        new.add_to_set(entities[membership.member], entities[membership.set_entity],
                       evidence=[made[m] for m in membership.evidence if m in made])
    for bridge in doc.bridging():
        anchor = made.get(bridge.anchor_mention) if bridge.anchor_mention is not None else None
        new.add_bridging(made[bridge.anaphor], entities[bridge.anchor], relation=bridge.relation,
                         anchor_mention=anchor, attrs=dict(bridge.attrs))
    return new
