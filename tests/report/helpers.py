"""Shared by the report tests: a document with every kind of markable, a long document
made of many, and the GUM files."""

from __future__ import annotations

from collections.abc import Sequence

import corefkit
from corefkit.model import Document, Token
from tests.conftest import CONFORMANCE, CORPORA

GUM = CORPORA / "gum/dep"
GUM_PAIR = CONFORMANCE / "real/data/gum-corefud"

# S1: Ann met Bob .   S2: (zero) She told him it rained and they left the old , tired dog .
WORDS = [["Ann", "met", "Bob", "."],
         ["_", "She", "told", "him", "it", "rained", "and", "they", "left", "the", "old", ",",
          "tired", "dog", "."]]


def features_document(name: str = "features", response: bool = False) -> Document:
    """Every kind of markable the browser shows: a zero, a discontinuous mention, a split
    antecedent (they = Ann + Bob), bridging and a non-referring 'it'."""
    doc = Document(name)
    for s, words in enumerate(WORDS):
        doc.add_sentence([Token(w, id=f"{s}.1" if w == "_" else str(n + 1), is_empty=w == "_",
                                upos="PRON" if w in ("She", "him", "it", "they") else None)
                          for n, w in enumerate(words)])
    ann, bob, they, dog = (doc.new_entity() for _ in range(4))
    for t in ((0, 5) if response else (0, 4, 5)):
        doc.add_span(t, t, ann)
    for t in (2, 7):
        doc.add_span(t, t, bob if not response or t == 2 else ann)
    doc.add_span(11, 11, they)
    dog_mention = doc.add_mention((13, 14, 17), dog)
    doc.add_span(8, 8, nonref="expletive")
    doc.add_to_set(ann, they)
    doc.add_to_set(bob, they)
    doc.add_bridging(dog_mention, they, relation="poss")
    return doc


def merged(docs: Sequence[Document], name: str) -> Document:
    """One document holding ``docs`` one after another (entities kept apart)."""
    out = Document(name, file=docs[0].file)
    out.source_format = docs[0].source_format
    for n, doc in enumerate(docs):
        offset = out.token_count
        for s in doc.sentences:
            out.add_sentence([Token(t.form, id=t.id, lemma=t.lemma, upos=t.upos, xpos=t.xpos,
                                    feats=t.feats, head=t.head, deprel=t.deprel, deps=t.deps,
                                    misc=t.misc, is_empty=t.is_empty)
                              for t in doc.tokens[s.start:s.stop]], sent_id=f"{n}-{s.sent_id}")
        entities = {}
        for e in doc.entities:
            label = f"{n}.{e.attrs.get('original_id', e.id)}"
            entities[e] = out.new_entity(layer=e.layer, pseudo=e.pseudo,
                                         attrs={**e.attrs, "original_id": label})
        for m in doc.mentions:
            entity = doc.entity_of(m)
            out.add_mention([t + offset for t in m.tokens],
                            entities[entity] if entity is not None else None, layer=m.layer,
                            head=m.head + offset if m.head is not None else None,
                            nonref=m.nonref, line=m.line)
    return out


def long_pair() -> tuple[Document, Document]:
    """The 46 GUM documents of the conformance pair as one key and one response document
    (42,724 words)."""
    key = merged(list(corefkit.read(GUM_PAIR / "key.conllu")), "GUM_all")
    response = merged(list(corefkit.read(GUM_PAIR / "response-heavy.conllu")), "GUM_all")
    return key, response
