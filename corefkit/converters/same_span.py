"""Spans annotated more than once, as readers meet them: which ids already own a span.

A file may put any number of mentions on one span (a CoNLL-2012 cell ``(0)|(1)|...``, a
CorefUD ``Entity=(e1)(e2)...``, a jsonlines span in many clusters). Readers report each repeat,
and each report names the span's earlier owners; naming all of them in every report cost time
and output quadratic in the repeats (issue 22: 40,000 mentions on one token took 18 s and
2.5 GB). :class:`SpanOwners` answers in constant time per mention and names at most
:data:`SHOWN` owners, counting the rest.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

SHOWN = 3  # owners named in a message; the rest are counted


@dataclass(frozen=True)
class Repeat:
    """A mention on a span that has owners already."""

    duplicate: bool  # its id owns the span already
    others: str      # the span's other owners: 'a', 'b', 'c' and 5 more


class SpanOwners:
    """The ids that own each span, in the order they came."""

    def __init__(self, quote: bool = True) -> None:
        self._owners: dict[Hashable, dict[str, None]] = {}
        self._name = repr if quote else str

    def add(self, span: Hashable, owner: str) -> Repeat | None:
        """Record ``owner`` on ``span``; None when nobody owned the span before."""
        owners = self._owners.get(span)
        if owners is None:
            self._owners[span] = {owner: None}
            return None
        duplicate = owner in owners
        total = len(owners) - duplicate
        named = []
        for other in owners:
            if other != owner:
                named.append(self._name(other))
                if len(named) == SHOWN:
                    break
        owners[owner] = None
        more = f" and {total - SHOWN} more" if total > SHOWN else ""
        return Repeat(duplicate, ", ".join(named) + more)
