"""Whose scoring rules a run follows: the reference scorer's, the CorefUD scorer's, the UA
scorer's, coval's or scorch's command line's, each a :class:`Semantics` strategy behind one
protocol.

A semantics reduces a document to what scoring needs (small, picklable), aligns a key and a
response document into one mention index space (plus the counts of metrics its alignment
computes itself), adjusts a document's counts where its scorer counts otherwise, and
converts totals (BLANC's rule for absent link types). :func:`make` builds the strategy a run
asks for; :func:`choose` decides which one when the user does not say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from corefkit.errors import Repair, UsageError
from corefkit.model import Document
from corefkit.scoring.align import Alignment, Labeler
from corefkit.scoring.semantics.exact import ExactExtents

__all__ = ["NAMES", "ExactExtents", "Semantics", "choose", "make"]

NAMES = ("reference", "corefud", "ua", "coval", "scorch")


class Semantics(Protocol):
    """One scorer's rules for one run (a picklable value: runs in worker processes too)."""

    name: ClassVar[str]        # reference, corefud, ua, coval, scorch
    label: ClassVar[str]       # the scorer it reproduces, as reports name it

    @property
    def remove_singletons(self) -> bool:
        """Singletons are removed (by the reduction, or by a pass for the reference)."""

    def reduce(self, doc: Document, labeler: Labeler | None = None) -> Any:
        """What scoring needs of ``doc`` (``.name``, ``.pair_key``, ``.file`` and chains)."""

    def align(self, key: Any, response: Any | None) -> Alignment:
        """Key and response of one document in one index space; ``response=None``: missing."""

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        """One document's counts, adjusted where this scorer counts otherwise."""

    def finish(self, counts: dict[str, Any]) -> dict[str, Any]:
        """Counts (of a document or the corpus) in this scorer's types (e.g. its BLANC)."""

    def options(self) -> dict[str, Any]:
        """The settings, as the report states them."""

    def warnings(self) -> list[Repair]:
        """Warnings about the settings themselves."""


def choose(semantics: str | None, profile: str | None, key_format: str | None,
           settings: dict[str, Any]) -> str:
    """Which scorer's semantics a run follows: the explicit choice, else the profile's, else
    the UA-only options, else the key's format (CoNLL-U: corefud, CoNLL-UA: ua, other:
    reference); CorefUD-only options on a key of another format select corefud."""
    if semantics is not None:
        if semantics not in NAMES:
            raise UsageError(f"unknown scoring semantics {semantics!r}; expected one of "
                             f"{', '.join(NAMES)}")
        return semantics
    if profile is not None:
        from corefkit.scoring.profiles import profile_settings

        return str(profile_settings(profile).get("semantics", "corefud"))
    if any(settings.get(k) for k in ("remove_split_antecedents", "only_split_antecedents",
                                     "discourse_deixis")) \
            or settings.get("lea_split_importance") is not None:
        return "ua"
    if key_format == "ua-exploded":
        return "ua"
    if key_format == "corefud" or any(settings.get(k) is not None
                                      for k in ("match", "zero_match", "keep_zeros")):
        return "corefud"
    return "reference"


def make(name: str, settings: dict[str, Any], metrics: Sequence[str]) -> Semantics:
    """The strategy of semantics ``name`` with the run's settings and metric names."""
    if name == "corefud":
        from corefkit.scoring.semantics.corefud import CorefUDScoring

        return CorefUDScoring.resolve(
            match=settings.get("match"), zero_match=settings.get("zero_match"),
            keep_zeros=settings.get("keep_zeros"),
            remove_singletons=settings.get("remove_singletons"),
            profile=settings.get("profile"), metrics=tuple(metrics))
    if name == "ua":
        from corefkit.scoring.semantics.ua import UAScoring

        if settings.get("zero_match") not in (None, "linear"):
            raise UsageError("UA scoring matches zeros by position only (--zero-match linear)")
        return UAScoring.resolve(
            match=settings.get("match"), keep_zeros=settings.get("keep_zeros"),
            remove_singletons=settings.get("remove_singletons"),
            remove_split_antecedents=bool(settings.get("remove_split_antecedents")),
            only_split_antecedents=bool(settings.get("only_split_antecedents")),
            discourse_deixis=bool(settings.get("discourse_deixis")),
            lea_split_importance=settings.get("lea_split_importance"),
            profile=settings.get("profile"), metrics=tuple(metrics),
            explain=bool(settings.get("explain")))
    if name == "scorch":
        from corefkit.scoring.semantics.scorch import ScorchSemantics

        if settings.get("remove_singletons"):
            raise UsageError("scorch's command line cannot remove singletons; drop "
                             "--remove-singletons or choose another --semantics")
        return ScorchSemantics()
    if name == "coval":
        from corefkit.scoring.semantics.coval import CovalSemantics

        return CovalSemantics(bool(settings.get("remove_singletons")))
    from corefkit.scoring.semantics.reference import ReferenceSemantics

    return ReferenceSemantics(bool(settings.get("remove_singletons")))
