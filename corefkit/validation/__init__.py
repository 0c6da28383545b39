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
"""

from corefkit.validation.checks import ERROR, WARNING, Check, Finding, all_checks, get_check
from corefkit.validation.engine import ValidationResult, validate
from corefkit.validation.pair import validate_pair

__all__ = [
    "ERROR", "WARNING", "Check", "Finding", "ValidationResult", "all_checks", "get_check",
    "validate", "validate_pair",
]
