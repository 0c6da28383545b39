"""JSON input as corefkit reads it: parse errors located, JSON paths found in the text.

Every JSON a user hands corefkit (an LCC file, a jsonlines record, a rule table, a task file)
is parsed by :func:`parse`, which turns each way Python's parser can fail into a
:class:`~corefkit.errors.FormatError` with file, line and column: invalid JSON, nesting deeper
than the parser's recursion allows (``RecursionError``), and an integer of more digits than
Python converts (``ValueError``: 4,300 by default). :func:`locate` finds where the value at a
JSON path (``annotationLayers[3].content``) starts in the text, in one linear scan, so that
errors about a parsed value can name its line and column as well as its path.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from corefkit.errors import FormatError

Path = Sequence["str | int"]

_LONG_NUMBER_RE = re.compile(r"-?\d{4000,}")
_STRING_RE = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR_RE = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
_SPACE_RE = re.compile(r"[ \t\n\r]*")


def parse(text: str, *, file: str | None, check: str, hint: str | None = None,
          first_line: int = 1) -> Any:
    """The JSON value of ``text``; every failure is a :class:`FormatError` under ``check`` at
    its line and column (``first_line``: the file line where ``text`` starts), its message
    followed by ``hint`` (what the file should be)."""
    tail = f"; {hint}" if hint else ""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg}{tail}", file=file,
                          line=exc.lineno + first_line - 1, column=exc.colno,
                          check=check) from None
    except RecursionError:
        line, column = position(text, deepest(text))
        raise FormatError("arrays and objects nested too deeply to read (more than about 1,000 "
                          f"levels; no coreference format needs that){tail}", file=file,
                          line=line + first_line - 1, column=column, check=check) from None
    except ValueError:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        found = _LONG_NUMBER_RE.search(text)
        line, column = position(text, found.start() if found else 0)
        digits = len(found.group().lstrip("-")) if found else None
        size = f" ({digits:,} digits)" if digits else ""
        raise FormatError(f"a number too long to read{size}; offsets and ids are small "
                          f"integers{tail}", file=file, line=line + first_line - 1,
                          column=column, check=check) from None


def position(text: str, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of character ``offset`` of ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def deepest(text: str, limit: int = 900) -> int:
    """The offset of the first bracket that opens nesting level ``limit`` (outside strings),
    else 0."""
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            found = _STRING_RE.match(text, i)
            i = found.end() if found else n
            continue
        if c in "[{":
            depth += 1
            if depth >= limit:
                return i
        elif c in "]}":
            depth -= 1
        i += 1
    return 0


def show_path(path: Path) -> str:
    """``annotationLayers[3].content`` (``$`` for the whole value)."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "$"


def locate(text: str, path: Path) -> tuple[int, int] | None:
    """(line, column) where the value at ``path`` starts in the JSON ``text``, or None when
    the text does not hold it (a scan of the text, no parse: linear, no recursion)."""
    offset = _find(text, list(path))
    return position(text, offset) if offset is not None else None


def _skip_space(text: str, i: int) -> int:
    found = _SPACE_RE.match(text, i)
    return found.end() if found else i


def _find(text: str, path: list[str | int]) -> int | None:
    i = _skip_space(text, 0)
    for step in path:
        if i >= len(text):
            return None
        if isinstance(step, int):
            if text[i] != "[":
                return None
            i = _skip_space(text, i + 1)
            for _ in range(step):
                end = _value_end(text, i)
                if end is None:
                    return None
                i = _skip_space(text, end)
                if i >= len(text) or text[i] != ",":
                    return None
                i = _skip_space(text, i + 1)
            if i >= len(text) or text[i] == "]":
                return None
        else:
            if text[i] != "{":
                return None
            i = _skip_space(text, i + 1)
            while True:
                key = _STRING_RE.match(text, i)
                if key is None:
                    return None
                i = _skip_space(text, key.end())
                if i >= len(text) or text[i] != ":":
                    return None
                i = _skip_space(text, i + 1)
                try:
                    name = json.loads(key.group())
                except ValueError:
                    return None
                if name == step:
                    break
                end = _value_end(text, i)
                if end is None:
                    return None
                i = _skip_space(text, end)
                if i >= len(text) or text[i] != ",":
                    return None
                i = _skip_space(text, i + 1)
    return i


def _value_end(text: str, i: int) -> int | None:
    """The offset just after the JSON value that starts at ``i`` (brackets counted, strings
    skipped, without recursion)."""
    if i >= len(text):
        return None
    if text[i] == '"':
        found = _STRING_RE.match(text, i)
        return found.end() if found else None
    if text[i] not in "[{":
        found = _SCALAR_RE.match(text, i)
        return found.end() if found and found.end() > i else None
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            found = _STRING_RE.match(text, i)
            if found is None:
                return None
            i = found.end()
            continue
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


__all__ = ["deepest", "locate", "parse", "position", "show_path"]
