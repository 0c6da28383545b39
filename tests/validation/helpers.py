"""Helpers of the validation tests: where the fixtures are, and what a run found."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from corefkit.validation import validate
from tests.conftest import FIXTURES

VALIDATION = FIXTURES / "validation"


def checks_of(path: Path | str, **options) -> Counter:
    """Check id -> number of findings of a validation run."""
    return Counter(f.check for f in validate(path, **options))


def only(path: Path | str, **options) -> set[str]:
    """The set of check ids a run reports."""
    return set(checks_of(path, **options))
