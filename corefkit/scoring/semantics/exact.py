"""What the semantics that match mentions by exact extents share (reference, coval, scorch).

Its own module, below the strategies and the package that chooses among them
(:func:`corefkit.scoring.semantics.make`), so that a strategy never imports the module that
imports it.
"""

from __future__ import annotations

from typing import Any

from corefkit.errors import Repair
from corefkit.scoring.align import Alignment


class ExactExtents:
    """What the strategies that match mentions by exact extents share (reference, coval,
    scorch): their options, no warnings about settings, counts as their metrics give them."""

    remove_singletons: bool

    def adjust(self, counts: dict[str, Any], alignment: Alignment) -> dict[str, Any]:
        return counts

    def finish(self, counts: dict[str, Any]) -> dict[str, Any]:
        return counts

    def options(self) -> dict[str, Any]:
        return {"match": "exact", "remove_singletons": self.remove_singletons}

    def warnings(self) -> list[Repair]:
        return []
