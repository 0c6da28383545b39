"""Annotation checks with located findings and stable check ids (``corefkit validate``).

::

    from corefkit.validation import validate, validate_pair
    findings = validate("corpus/", level=3, exclude=["conll.non-numeric-id"])
    for finding in findings:
        print(finding.to_text())
    print(findings.summary())

Every format plugs in the same way (see :mod:`corefkit.checks.plugins`): its reader's
repairs and rejections become findings under their check ids, the model checks run on every
document, and a format module adds the checks of its own.

The package imports the modules that register its checks (the model checks of
:mod:`corefkit.checks.model`, file and pair checks) here,
so that whichever of its modules a caller imports, the check registry holds them;
:mod:`corefkit.validation.catalog` adds the formats' checks before every lookup. The command
line imports this package only when ``corefkit validate`` runs.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from corefkit.checks import model  # noqa: F401  (the model checks register themselves)
from corefkit.validation import engine, pair  # noqa: F401  (they register checks)

_EXPORTS = {
    "ERROR": "corefkit.checks.registry", "WARNING": "corefkit.checks.registry",
    "Check": "corefkit.checks.registry", "Finding": "corefkit.checks.registry",
    "all_checks": "corefkit.validation.catalog", "get_check": "corefkit.validation.catalog",
    "ValidationResult": "corefkit.validation.engine", "validate": "corefkit.validation.engine",
    "validate_pair": "corefkit.validation.pair",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'corefkit.validation' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
