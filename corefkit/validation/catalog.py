"""Every check, looked up after loading every module that registers one.

The registry (:mod:`corefkit.checks.registry`) holds what has been registered; checks are
registered by the modules that define them, when imported: each format's ``checks`` module
(:func:`corefkit.converters.registry.load_format_checks` imports them all), the model
checks (:mod:`corefkit.checks.model`) and this package's :mod:`~corefkit.validation.engine`
and :mod:`~corefkit.validation.pair`, which the package's ``__init__`` imports (the engine
imports the model checks) before any of its modules can be used. The lookups here are the ones that must see every check: the engine's,
``corefkit validate --list-checks`` and the public :func:`corefkit.validation.all_checks`.
"""

from __future__ import annotations

from collections.abc import Iterable

from corefkit.checks import registry
from corefkit.checks.registry import Check
from corefkit.converters.registry import load_format_checks


def load_all() -> None:
    """Register every check (this package's are registered when the package is imported)."""
    load_format_checks()


def get_check(check_id: str) -> Check | None:
    """The check with this id, or None."""
    load_all()
    return registry.get_check(check_id)


def all_checks() -> list[Check]:
    """Every check, sorted by (format, id); the model checks come first."""
    load_all()
    return registry.all_checks()


def expand_patterns(patterns: Iterable[str], option: str) -> frozenset[str]:
    """Check ids named by ids or shell patterns (``conll.*``); unknown names are usage errors."""
    load_all()
    return registry.expand_patterns(patterns, option)
