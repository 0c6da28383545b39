"""Scoring profiles: the named settings of shared tasks (``corefkit/schemas/profiles.json``),
each reproducing its task's official scorer."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from corefkit.errors import UsageError
from corefkit.schemas import DIRECTORY


@cache
def _profiles() -> dict[str, dict[str, Any]]:
    data = json.loads((DIRECTORY / "profiles.json").read_text(encoding="utf-8"))
    return dict(data["profiles"])


def load_profiles() -> dict[str, dict[str, Any]]:
    """Every profile: name -> settings (a copy: callers may change it)."""
    return {name: dict(settings) for name, settings in _profiles().items()}


def profile_settings(name: str) -> dict[str, Any]:
    """The settings of profile ``name``; a usage error naming the known ones otherwise."""
    profiles = _profiles()
    if name not in profiles:
        raise UsageError(f"unknown scoring profile {name!r}; known profiles: "
                         f"{', '.join(sorted(profiles))}")
    return dict(profiles[name])
