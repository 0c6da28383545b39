"""A griffe extension (mkdocstrings): doctest examples in docstrings become ``pycon`` code
blocks, so that ``>>>`` lines are not read as Markdown quotes."""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Runs of ``>>>`` / ``...`` lines and their output, fenced as ``pycon``."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith(">>>") and not inside:
            out.append("```pycon")
            inside = True
        elif inside and not stripped:
            out.append("```")
            inside = False
        out.append(line.strip() if inside else line)
    if inside:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, node: Any, obj: griffe.Object, agent: Any, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
