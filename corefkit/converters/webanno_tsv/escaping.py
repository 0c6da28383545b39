"""WebAnno TSV 3.x escaping (INCEpTION's user guide, "WebAnno TSV 3.3 File format",
"Reserved Characters"; the reference implementation is INCEpTION's ``Escaping`` class).

*Feature values* escape ``\\ [ ] | _ -> ; * TAB LF`` with a backslash (``->`` as one unit, TAB
and LF as ``\\t`` and ``\\n``); a value that is ``_`` or ``*`` alone is the empty column or the
null value, so an escaped ``\\_`` or ``\\*`` is the character itself.

*Text* (``#Text=`` and ``#Sentence.id=`` lines, format 3.2 and later) escapes the backslash,
TAB, LF, CR, form feed, backspace as ``\\t \\n \\r \\f \\b`` and the other control characters
below 32 as a backslash followed by the character. Token forms are written as they are in the
text (the token column is not escaped: ``_``, ``|`` and ``*`` tokens occur unescaped).
"""

from __future__ import annotations

import re

VALUE_ESCAPES = {"\\": "\\\\", "[": "\\[", "]": "\\]", "|": "\\|", "_": "\\_", "->": "\\->",
                 ";": "\\;", "\t": "\\t", "\n": "\\n", "*": "\\*"}
_VALUE_RE = re.compile(r"->|[\\\[\]|_;\t\n*]")
_VALUE_UNESCAPES = {v: k for k, v in VALUE_ESCAPES.items()}
_VALUE_UNESCAPE_RE = re.compile(r"\\(?:->|[\\\[\]|_;tn*])")

_TEXT_NAMED = {"\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", "\b": "\\b", "\\": "\\\\"}
_TEXT_ESCAPES = {**{chr(i): "\\" + chr(i) for i in range(32) if not 7 < i < 14}, **_TEXT_NAMED}
_TEXT_RE = re.compile("[" + re.escape("".join(_TEXT_ESCAPES)) + "]")
_TEXT_UNESCAPES = {v: k for k, v in _TEXT_ESCAPES.items()}
_TEXT_UNESCAPE_RE = re.compile("|".join(re.escape(e) for e in sorted(_TEXT_UNESCAPES, key=len,
                                                                      reverse=True)))


def escape_value(value: str) -> str:
    return _VALUE_RE.sub(lambda m: VALUE_ESCAPES[m.group()], value)


_MINIMAL_RE = re.compile(r"[\\|\t\n]")


def escape_value_minimal(value: str) -> str:
    """Escape only what a reader would otherwise misread (a backslash, ``|``, TAB, LF, a value
    that is ``_`` or ``*`` alone, a final ``]``): the style of files whose values keep their
    reserved characters unescaped (GUM's ``n____``), given back as they were."""
    if value in ("_", "*"):
        return "\\" + value
    found = _MINIMAL_RE.sub(lambda m: VALUE_ESCAPES[m.group()], value)
    return found[:-1] + "\\]" if found.endswith("]") else found


def unescape_value(value: str) -> str:
    return _VALUE_UNESCAPE_RE.sub(lambda m: _VALUE_UNESCAPES[m.group()], value)


def escape_text(text: str) -> str:
    return _TEXT_RE.sub(lambda m: _TEXT_ESCAPES[m.group()], text)


def unescape_text(text: str) -> str:
    return _TEXT_UNESCAPE_RE.sub(lambda m: _TEXT_UNESCAPES[m.group()], text)


def unescape_old_text(text: str) -> str:
    """Format 3.0 and 3.1 text: Java string escapes (``\\t``, ``\\n``, ``\\uXXXX``, ...)."""
    names = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "b": "\b", "\\": "\\", "'": "'",
             '"': '"'}

    def one(m: re.Match[str]) -> str:
        body = m.group(1)
        if body.startswith("u"):
            return chr(int(body[1:], 16))
        return names.get(body, body)

    return re.sub(r"\\(u[0-9a-fA-F]{4}|.)", one, text)


def split_unescaped(cell: str, separator: str) -> list[str]:
    """``cell`` cut at every ``separator`` character that is not escaped by a backslash."""
    if "\\" not in cell:
        return cell.split(separator)
    pieces: list[str] = []
    start = i = 0
    n = len(cell)
    while i < n:
        ch = cell[i]
        if ch == "\\":
            i += 2
            continue
        if ch == separator:
            pieces.append(cell[start:i])
            start = i + 1
        i += 1
    pieces.append(cell[start:])
    return pieces


def escaped_at(text: str, index: int) -> bool:
    """Whether the character at ``index`` is preceded by an odd number of backslashes."""
    count = 0
    while index - count - 1 >= 0 and text[index - count - 1] == "\\":
        count += 1
    return count % 2 == 1
