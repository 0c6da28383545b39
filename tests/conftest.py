"""Shared test helpers: where the shared data lives, and small document builders."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CONFORMANCE = SHARED / "conformance"
CORPORA = SHARED / "corpora"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not SHARED.is_dir():
        raise pytest.UsageError(
            f"the shared data folder {SHARED} is missing; tests read ../shared beside the project")
