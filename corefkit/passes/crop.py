"""Pass ``crop``: keep one stretch of a document's text and the annotation inside it.

A file may hold more text than was annotated — GerDraCor-Coref's annotators each have the whole
play in their XMI but annotated one act — and then comparing it counts text nobody looked at
(token-level agreement rises with every unannotated word). ``crop:start=S,end=E`` keeps the
tokens whose characters lie in ``[S, E)`` of the document's text (formats with character
offsets in their tokens: UIMA CAS, WebAnno TSV, brat, GAP), with the sentences they are in and every
mention, entity, set and bridging relation that lies wholly inside; the rest is removed, and
what is removed is counted in the document's repairs. ``start`` and ``end`` count characters of
the text as the file gives it (the offsets of its annotations).
"""

from __future__ import annotations

from corefkit.errors import Repair, UsageError
from corefkit.model import Document, Entity, Mention, Sentence, Token
from corefkit.passes.registry import register_pass

CHARS = "_chars"   # token.attrs: (start, end) in the document's text (converters.offsets)


@register_pass("crop", "keep the tokens whose characters lie in [start, end) of the text, and "
                       "the annotation wholly inside them (character-offset formats)",
               start=int, end=int)
def crop(doc: Document, start: int = 0, end: int = -1) -> Document:
    tokens = doc.tokens
    if tokens and any(CHARS not in t.attrs for t in tokens):
        raise UsageError(f"pass crop: document {doc.name!r} has no character offsets (its "
                         f"format is {doc.source_format or 'unknown'}); crop works on formats "
                         "whose tokens have character offsets (uima-cas, webanno-tsv, brat, gap)")
    stop = end if end >= 0 else max((t.attrs[CHARS][1] for t in tokens), default=0)
    if stop < start or start < 0:
        raise UsageError(f"pass crop: the range start={start}, end={end} is empty or negative")
    kept = [i for i, t in enumerate(tokens) if t.attrs[CHARS][0] >= start
            and t.attrs[CHARS][1] <= stop]
    new_index = {old: new for new, old in enumerate(kept)}
    result = Document(doc.id, doc.part, file=doc.file)
    result.line, result.source_format = doc.line, doc.source_format
    result.meta, result.attrs, result.repairs = dict(doc.meta), dict(doc.attrs), list(doc.repairs)
    result.tokens, result.sentences = _layer(doc, kept)
    dropped = _transfer(doc, result, new_index)
    removed_tokens = len(tokens) - len(kept)
    if removed_tokens or dropped:
        result.repairs.append(Repair(
            "pass.crop", f"kept characters {start}-{stop}: removed {removed_tokens} of "
                         f"{len(tokens)} tokens and {dropped} mentions not wholly inside",
            document=doc.name, action="dropped"))
    return result


def _layer(doc: Document, kept: list[int]) -> tuple[list[Token], list[Sentence]]:
    tokens = []
    sentences: list[Sentence] = []
    last_sentence = None
    for new, old in enumerate(kept):
        t = doc.tokens[old]
        if t.sentence != last_sentence:
            source = doc.sentences[t.sentence] if 0 <= t.sentence < len(doc.sentences) else None
            sentences.append(Sentence(len(sentences), new, new + 1,
                                      sent_id=source.sent_id if source else None,
                                      comments=list(source.comments) if source else None,
                                      speaker=source.speaker if source else None,
                                      attrs=dict(source.attrs) if source else None))
            last_sentence = t.sentence
        else:
            sentences[-1].stop = new + 1
        tokens.append(Token(t.form, new, len(sentences) - 1, dict(t.attrs), t.id, t.lemma,
                            t.upos, t.xpos, t.feats, t.head, t.deprel, t.deps, t.misc,
                            t.speaker, t.is_empty))
    return tokens, sentences


def _transfer(doc: Document, result: Document, new_index: dict[int, int]) -> int:
    """Copy the annotation wholly inside the kept tokens; return the mentions left out."""
    made: dict[Mention, Mention] = {}
    entities: dict[Entity, Entity] = {}
    dropped = 0
    for mention in doc.mentions:
        if not all(t in new_index for t in mention.tokens):
            dropped += 1
            continue
        entity = doc.entity_of(mention)
        target = None
        if entity is not None:
            target = entities.get(entity)
            if target is None:
                target = entities[entity] = result.new_entity(
                    layer=entity.layer, pseudo=entity.pseudo, attrs=dict(entity.attrs))
        head = new_index.get(mention.head) if mention.head is not None else None
        minimal = mention.min_tokens
        made[mention] = result.add_mention(
            [new_index[t] for t in mention.tokens], target, layer=mention.layer, head=head,
            head_derived=mention.head_derived,
            min_tokens=tuple(new_index[t] for t in minimal)
            if minimal and all(t in new_index for t in minimal) else None,
            min_derived=mention.min_derived, nonref=mention.nonref, attrs=dict(mention.attrs),
            line=mention.line)
    for membership in doc.memberships():
        member, group = entities.get(membership.member), entities.get(membership.set_entity)
        if member is not None and group is not None:
            result.add_to_set(member, group,
                              evidence=[made[m] for m in membership.evidence if m in made])
    for bridge in doc.bridging():
        anchor = entities.get(bridge.anchor)
        if bridge.anaphor in made and anchor is not None:
            anchor_mention = made.get(bridge.anchor_mention) \
                if bridge.anchor_mention is not None else None
            result.add_bridging(made[bridge.anaphor], anchor, relation=bridge.relation,
                                anchor_mention=anchor_mention, attrs=dict(bridge.attrs))
    return dropped
