"""Shared test helpers: where the shared data lives, and small document builders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


def peer_cases(peer: str, xfail: dict[str, str] | None = None) -> list[Any]:
    """The cases of the CoNLL-2012 conformance suites (the reference scorer's test cases and
    coval's sanity sets) that hold ``peer``'s output, as pytest params named ``suite:id``;
    ``xfail`` maps case ids to the reason they fail (strictly)."""
    found = []
    for suite in ("reference-tc.json", "coval-sanity.json"):
        for case in json.loads((CONFORMANCE / suite).read_text())["cases"]:
            if peer in case["peer_output"]:
                reason = (xfail or {}).get(case["id"])
                marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
                found.append(pytest.param(case, id=f"{suite.removesuffix('.json')}:{case['id']}",
                                          marks=marks))
    return found
