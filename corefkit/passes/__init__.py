"""Normalization passes: pure ``Document -> Document`` functions registered by name."""

from corefkit.passes.registry import all_passes, apply_passes, get_pass, parse_pass, register_pass

__all__ = ["all_passes", "apply_passes", "get_pass", "parse_pass", "register_pass"]
