"""The MISC column of CorefUD / UA-compact CoNLL-U: the coreference items' grammar, shared by
the reader and the writer.

Specification: ``formats/corefud.md``. MISC carries ``Entity`` (mention brackets: chunks
``(e1-person-1``, ``e1)``, ``(e1-person-1)``, discontinuous parts ``e1[1/2]``), ``SplitAnte``
(``ANTECEDENT<SET`` items) and ``Bridge`` (``ANCHOR<ANAPHOR[:relation]`` items); the
``# global.Entity`` declaration names the ``-``-separated fields of an opening bracket. This
module holds the patterns of those items, the declared field names, the field-value codec
(``%XX`` escapes, the ``other`` field) and :func:`merge_misc`, which puts regenerated items
into a MISC value while keeping everything else in it as it was.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

# One chunk of an Entity value: group 1 = one-node mention, 2 = opener, 3 = closer.
CHUNK_RE = re.compile(r"\(([^()\s]+)\)|\(([^()\s]+)|([^()\s]+)\)")
PART_RE = re.compile(r"^(.*)\[(\d+)/(\d+)\]$")
DECLARATION_RE = re.compile(r"^#\s*global\.Entity\s*=\s*(.*?)\s*$")
META_RE = re.compile(r"^#\s*meta::([^=]*?)\s*=\s?(.*)$")
# ids hold no ( ) < > (as in the UD validator's grammar), nor , : | = or white space
SPLIT_ITEM_RE = re.compile(r"^([^<>(),:|=\s]+)<([^<>(),:|=\s]+)$")
BRIDGE_ITEM_RE = re.compile(r"^([^<>(),:|=\s]+)<([^<>(),:|=\s]+)(?::([^<>(),|=\s]*))?$")
RELATION_RE = re.compile(r"^[a-z]+$")

ID_FIELDS = ("eid", "GRP")
ETYPE_FIELDS = ("etype", "entity")
MIN_FIELDS = ("minspan", "MIN")
COREF_KEYS = ("Entity", "SplitAnte", "Bridge", "Split")
PROFILES = ("auto", "corefud", "ua-compact")
# characters a field value cannot hold; written as %XX (formats/corefud.md §3)
_ENCODE = {c: f"%{ord(c):02X}" for c in "%()-|,="}


def profile_of(declaration: str | None) -> str:
    """``corefud`` for declarations starting ``eid-etype-head``, else ``ua-compact``."""
    if declaration is not None and declaration.split("-")[:3] == ["eid", "etype", "head"]:
        return "corefud"
    return "ua-compact"


def decode_value(value: str) -> str:
    """A field value as the model holds it: ``%XX`` escapes and ``&#45;`` decoded."""
    if "%" in value:
        value = unquote(value)
    if "&#" in value:
        value = value.replace("&#45;", "-")
    return value


def encode_value(value: str, also: str = "") -> str:
    """A value that has no raw form, made safe for a bracket field (``%XX`` escapes of
    ``%()-|,=``, whitespace and the characters in ``also``)."""
    out = []
    for ch in value:
        if ch in _ENCODE or ch in also:
            out.append(f"%{ord(ch):02X}")
        elif ch.isspace():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def parse_other(value: str) -> dict[str, str | bool]:
    """``key:value,key`` (the CorefUD ``other`` field) as a dict; a bare key means True."""
    result: dict[str, str | bool] = {}
    for item in value.split(","):
        if not item:
            continue
        key, sep, val = item.partition(":")
        result[decode_value(key)] = decode_value(val) if sep else True
    return result


def format_other(values: dict[str, Any]) -> str:
    items = []
    for key in sorted(values):
        val = values[key]
        if val is True:
            items.append(encode_value(key, ":"))
        else:
            items.append(f"{encode_value(key, ':')}:{encode_value(str(val))}")
    return ",".join(items)


# ============================================================================ MISC items
def _misc_items(misc: str | None) -> list[str]:
    return [] if misc is None or misc in ("", "_") else misc.split("|")


def merge_misc(misc: str | None, entity: str | None, split: list[tuple[str, str]] | None,
               bridge: list[tuple[str, str, str]] | None) -> str:
    """MISC with the coreference items set to the given values (None: absent).

    An item whose value says the same as the one already there keeps its raw text (SplitAnte
    and Bridge lists compare as sets); new items go to their case-insensitive alphabetical
    place, as GUM's MISC is sorted; other items keep their text and order.
    """
    items = _misc_items(misc)
    present: dict[str, tuple[int, str, str]] = {}
    for i, item in enumerate(items):
        key, sep, raw = item.partition("=")
        if sep and key in COREF_KEYS:
            canonical = "SplitAnte" if key == "Split" else key
            if canonical not in present:
                present[canonical] = (i, key, raw)
    wanted: dict[str, str | None] = {
        "Entity": entity,
        "SplitAnte": None if not split else ",".join(f"{a}<{s}" for a, s in split),
        "Bridge": None if not bridge else ",".join(
            f"{t}<{s}:{r}" if r else f"{t}<{s}" for t, s, r in bridge),
    }
    same = True
    for key, value in wanted.items():
        old = present.get(key)
        if old is None or value is None:
            if (old is None) != (value is None):
                same = False
            continue
        if key == "Entity":
            same = same and old[2] == value
        elif key == "SplitAnte":
            same = same and _split_set(old[2]) == set(split or ())
        else:
            same = same and _bridge_set(old[2]) == set(bridge or ())
    if same and len(present) == sum(1 for item in items if item.partition("=")[0] in COREF_KEYS):
        return misc if misc else "_"
    result = []
    for i, item in enumerate(items):
        key, sep, _ = item.partition("=")
        if sep and key in COREF_KEYS:
            canonical = "SplitAnte" if key == "Split" else key
            old = present.get(canonical)
            if old is None or old[0] != i or wanted[canonical] is None:
                continue
            value = wanted[canonical]
            keep_raw = (canonical == "SplitAnte" and _split_set(old[2]) == set(split or ())) or \
                (canonical == "Bridge" and _bridge_set(old[2]) == set(bridge or ()))
            result.append(item if keep_raw else f"{canonical}={value}")
            continue
        result.append(item)
    for key, value in wanted.items():
        if value is None or key in present:
            continue
        lowered = key.lower()
        at = len(result)
        for i, item in enumerate(result):
            if item.partition("=")[0].lower() > lowered:
                at = i
                break
        result.insert(at, f"{key}={value}")
    return "|".join(result) if result else "_"


def _split_set(value: str) -> set[tuple[str, str]] | None:
    found = set()
    for item in value.split(","):
        match = SPLIT_ITEM_RE.match(item)
        if match is None:
            return None
        found.add((match.group(1), match.group(2)))
    return found


def _bridge_set(value: str) -> set[tuple[str, str, str]] | None:
    found = set()
    for item in value.split(","):
        match = BRIDGE_ITEM_RE.match(item)
        if match is None:
            return None
        found.add((match.group(1), match.group(2), match.group(3) or ""))
    return found

