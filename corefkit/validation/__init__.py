"""Annotation checks with located findings and stable check ids (``corefkit validate``).

::

    from corefkit.validation import validate, validate_pair
    findings = validate("corpus/", level=3, exclude=["conll.non-numeric-id"])
    for finding in findings:
        print(finding.to_text())
    print(findings.summary())

Every format plugs in the same way (see :mod:`corefkit.validation.plugins`): its reader's
repairs and rejections become findings under their check ids, the model checks run on every
document, and a format module adds the checks of its own.

The names below are imported on first use, so that the command line (which registers the
``validate`` command from :mod:`corefkit.validation.command`) starts without loading the
readers.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "ERROR": "checks", "WARNING": "checks", "Check": "checks", "Finding": "checks",
    "all_checks": "checks", "get_check": "checks",
    "ValidationResult": "engine", "validate": "engine",
    "validate_pair": "pair",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'corefkit.validation' has no attribute {name!r}")
    value = getattr(import_module(f"corefkit.validation.{module}"), name)
    globals()[name] = value
    return value
