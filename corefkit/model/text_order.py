"""The order in which the CRAC LLM track's linear text writes a sentence's tokens.

text2text-coref's ``conllu2text -z`` (and ``text2conllu -z``, which must find the same places
again) moves every empty node to just after its first enhanced-dependency parent. It does so
by walking the sentence's empty nodes in their original order and giving each one that is not
already after its parent the decimal id ``P.(k+1)``, where ``P`` is the parent's word id (``0``:
the root, so before the first word) and ``k`` the empty nodes that bear ``P``'s number at that
moment — those still in their original place included, and those moved away no more. The
sentence is then written in the order of the new ids, ties in their earlier order. Both the
text writer (:mod:`corefkit.converters.text2text.layout`) and the alignment of an answer to the
key's empty nodes (:mod:`corefkit.alignment.project`) follow this one function, written from
that documented behaviour.
"""

from __future__ import annotations

from corefkit.model.document import Document


def _decimal(token_id: str | None) -> float | None:
    """An id as a number (``'14'`` → 14.0, ``'14.2'`` → 14.2), None when it is none."""
    try:
        return float(token_id) if token_id else None
    except ValueError:
        return None


def linear_order(doc: Document, sentence: int) -> list[int]:
    """The token indices of one sentence in the order the linear text writes them."""
    tokens = doc.tokens
    indices = list(doc.sentences[sentence].token_indices())
    number = {tokens[i].id: _decimal(tokens[i].id) for i in indices}
    if any(value is None for value in number.values()) or len(number) < len(indices):
        return indices  # tokens without (unique) CoNLL-U ids: nothing to move by
    words = [i for i in indices if not tokens[i].is_empty]
    empty: list[list[float]] = [[float(number[tokens[i].id] or 0.0), i]
                                for i in indices if tokens[i].is_empty]
    by_id = {tokens[i].id: i for i in indices}
    current = {int(i): entry for entry in empty for i in [entry[1]]}  # empty node -> entry
    for entry in list(empty):
        i = int(entry[1])
        deps = tokens[i].deps
        parent = None if not deps or deps == "_" else deps.split("|", 1)[0].partition(":")[0]
        if parent == "0":
            target: float | None = 0.0
        elif parent in by_id and by_id[parent] in current:  # an empty node, where it is now
            target = current[by_id[parent]][0]
        else:
            target = number.get(parent) if parent is not None else None
        if target is None or int(entry[0]) == target:
            continue
        new = target + 0.1
        for other in empty:
            if int(other[0]) == target:
                new += 0.1
        entry[0] = new
        empty.sort(key=lambda e: e[0])
    placed = [(float(number[tokens[i].id] or 0.0), 0, n, i) for n, i in enumerate(words)]
    placed += [(at, 1, n, int(i)) for n, (at, i) in enumerate(empty)]
    placed.sort()
    return [i for *_, i in placed]
