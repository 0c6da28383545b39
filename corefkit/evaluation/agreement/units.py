"""What the chance-corrected coefficients rate, for coreference: the units and their values.

* **Tokens, in or out** (Cohen's κ, Fleiss' κ): every token of the document (on the common
  tokens, :mod:`~corefkit.evaluation.agreement.tokens`) is a unit; an annotator's value is
  whether some mention of theirs covers it (any mention: singleton, chain member,
  non-referring markable, discourse deixis). It asks "do the annotators mark the same text as
  mentions?", whatever the boundaries inside a marked stretch.
* **Mentions, with their chain** (Krippendorff's α with the MASI distance; Passonneau 2004,
  2006): a unit is a mention every annotator of the comparison marked (the same tokens); an
  annotator's value is the set of mentions of the identity chain they put it in, itself
  included (a mention in no chain: the set of itself). Identical chains are at distance 0, a
  chain one annotator split or extended at a distance between, disjoint ones at 1.
  Mentions only some annotators marked are not units (they are what mention F1 measures).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from corefkit.evaluation.agreement.coefficients import (
    MASI_WEIGHTS,
    Alpha,
    cohen_kappa,
    fleiss_kappa,
    krippendorff_alpha,
)
from corefkit.model import IDENTITY, Document

Extent = tuple[int, ...]
Chains = dict[Extent, frozenset[tuple[int, Extent]]]


def token_labels(doc: Document) -> list[bool]:
    """Whether each token is covered by a mention of the document."""
    covered = [False] * doc.token_count
    for mention in doc.mentions:
        for t in mention.tokens:
            covered[t] = True
    return covered


def cohen_tokens(first: Sequence[Document], second: Sequence[Document]) -> Fraction | None:
    """Cohen's κ of two annotators over the tokens of their documents (paired in order)."""
    a: list[bool] = []
    b: list[bool] = []
    for x, y in zip(first, second):
        a += token_labels(x)
        b += token_labels(y)
    return cohen_kappa(a, b)


def fleiss_tokens(groups: Sequence[Sequence[Document]]) -> Fraction | None:
    """Fleiss' κ over the tokens of documents each annotated by all (one list per document)."""
    def units() -> Any:
        for docs in groups:
            labels = [token_labels(d) for d in docs]
            yield from zip(*labels)

    return fleiss_kappa(units())


def chain_values(doc: Document, document: int = 0) -> Chains:
    """Each identity-layer mention's extent with its value: its chain's mentions as
    (``document``, extent) pairs; the first mention of an extent decides."""
    values: Chains = {}
    of_entity: dict[Any, frozenset[tuple[int, Extent]]] = {}
    for mention in doc.sorted_mentions():
        if mention.layer != IDENTITY or not mention.tokens:
            continue
        extent = mention.extent
        if extent in values:
            continue
        entity = doc.entity_of(mention)
        if entity is None:
            values[extent] = frozenset({(document, extent)})
        else:
            chain = of_entity.get(entity)
            if chain is None:
                chain = of_entity[entity] = frozenset(
                    (document, m.extent) for m in doc.mentions_of(entity, ordered=False)
                    if m.tokens)
            values[extent] = chain
    return values


def masi_units(documents: Sequence[Sequence[Chains]]) -> list[list[frozenset[Any]]]:
    """The units of MASI α: for each document (its annotators' chain values), the mentions
    every annotator marked, each with every annotator's value."""
    units = []
    for values in documents:
        if not values:
            continue
        shared = set(values[0])
        for other in values[1:]:
            shared &= set(other)
        for extent in sorted(shared):
            units.append([v[extent] for v in values])
    return units


def masi_alpha(documents: Sequence[Sequence[Chains]],
               weights: tuple[Fraction, Fraction, Fraction, Fraction] = MASI_WEIGHTS) -> Alpha:
    """Krippendorff's α with the MASI distance over the mentions every annotator marked."""
    return krippendorff_alpha(masi_units(documents), sets=True, weights=weights)
