"""Normalization passes: pure ``Document -> Document`` functions registered by name.

Importing the package registers the built-in passes (their modules register themselves in
:mod:`corefkit.passes.registry` when imported; this is the one place that imports them).
"""

from corefkit.passes import crop, dominant, nonref, plurals, same_span, singletons, splits  # noqa: F401
from corefkit.passes import ua_compact  # noqa: F401
from corefkit.passes.registry import all_passes, apply_passes, get_pass, parse_pass, register_pass

__all__ = ["all_passes", "apply_passes", "get_pass", "parse_pass", "register_pass"]
