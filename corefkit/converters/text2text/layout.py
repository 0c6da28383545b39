"""What the CRAC LLM-track writers write of a document: its words in order and its mentions
as spans over them, with the entity ids to write.

Both writers (the linear text and its JSON variant) write the same words: the document's words
in order, spaces inside a form as ``_``; with ``zeros`` also its empty nodes, as ``##FORM``
(``##`` with ``bare_empty`` or when the form is ``_``), each placed right after its first
enhanced-dependency parent in the same sentence as text2text-coref's ``conllu2text -z``
places them (in place when it has none). A mention becomes the span from its first to its last
written token — the part holding its head when its written tokens are not consecutive (an
empty node moved away); without ``zeros`` a mention on empty nodes only is not written (the
writer's partial losses report it). Entities are numbered ``e1``, ``e2``, … in order of first
mention
(``sequential``) or keep the ids of the file they came from (``corpus``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from corefkit.model import IDENTITY, Document, Entity, Mention
from corefkit.model.text_order import linear_order

ID_MODES = ("sequential", "corpus")
_UNSAFE = re.compile(r"[\s\[\](){}<>,|]")


@dataclass
class Written:
    words: list[str]
    spans: list[tuple[int, int, str]]       # first, last written word, entity id to write
    order: list[str]                        # entity ids in order of first mention
    mentions: list[tuple[int, int, str, Mention]]


def lay_out(doc: Document, *, zeros: bool = False, bare_empty: bool = False,
            ids: str = "sequential") -> Written:
    tokens = doc.tokens
    order = _token_order(doc) if zeros else [i for i, t in enumerate(tokens) if not t.is_empty]
    position = {token: n for n, token in enumerate(order)}
    words = []
    for index in order:
        token = tokens[index]
        form = token.form.replace(" ", "_") if token.form else "_"
        if token.is_empty:
            form = "##" if bare_empty or form == "_" else "##" + form
        words.append(form)
    placed: list[tuple[int, int, Entity, Mention]] = []
    for entity in doc.entities_in(IDENTITY):
        for mention in doc.mentions_of(entity):
            spots = sorted(position[t] for t in mention.tokens if t in position)
            if spots:
                first, last = _run_with_head(doc, spots, mention, position)
                placed.append((first, last, entity, mention))
    placed.sort(key=lambda p: (p[0], -p[1], p[2].id))
    names: dict[Entity, str] = {}
    for _, _, entity, _ in placed:
        if entity not in names:
            names[entity] = _name(entity, len(names) + 1, ids)
    seen: set[tuple[int, int, str]] = set()
    spans, mentions = [], []
    for first, last, entity, mention in placed:
        item = (first, last, names[entity])
        if item not in seen:
            seen.add(item)
            spans.append(item)
            mentions.append((first, last, names[entity], mention))
    return Written(words, spans, list(names.values()), mentions)


def _run_with_head(doc: Document, spots: list[int], mention: Mention,
                   position: dict[int, int]) -> tuple[int, int]:
    """The run of consecutive written positions of a mention that holds its head (annotated,
    else its dependency-tree head, else its first token): a mention whose empty nodes moved
    away is written as that part, as conllu2text reduces a discontinuous mention."""
    if len(spots) == spots[-1] - spots[0] + 1:
        return spots[0], spots[-1]
    head = mention.head if mention.head in position else None
    if head is None:
        from corefkit.model.syntax import tree_head

        head = tree_head(doc, mention.tokens, words_only=True, partial=True)
    target = position.get(head, spots[0]) if head is not None else spots[0]
    start = 0
    for n in range(1, len(spots) + 1):
        if n == len(spots) or spots[n] != spots[n - 1] + 1:
            if spots[start] <= target <= spots[n - 1]:
                return spots[start], spots[n - 1]
            start = n
    return spots[0], spots[-1]


def _name(entity: Entity, number: int, ids: str) -> str:
    if ids == "corpus":
        original = entity.attrs.get("original_id")
        if original not in (None, ""):
            return _UNSAFE.sub("_", str(original))
    return f"e{number}"


def _token_order(doc: Document) -> list[int]:
    """Token indices in writing order: each empty node after its first enhanced parent, as
    text2text-coref moves it (:func:`corefkit.model.text_order.linear_order`)."""
    return [i for s in range(len(doc.sentences)) for i in linear_order(doc, s)]
