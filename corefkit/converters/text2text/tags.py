"""Reading one line of the CRAC LLM-track linear text: words and their coreference tags.

A well-formed word is ``FORM`` or ``FORM|TAGS``; ``TAGS`` is a comma-separated list of ``[ID``
(a mention of entity ID opens), ``ID]`` (one closes) and ``[ID]`` (a one-word mention); an
empty node is a word ``##FORM`` (``##`` alone when its form is ``_``). IDs are ``e1``, ``e2``, …
(text2text-coref's ``--sequential_ids``) or the corpus's (``d1.12``).

LLM output breaks this in a handful of ways; :func:`words_of` repairs each one it can and records
a :class:`Problem` (check id, 1-based column, message) for it — whether a repair is accepted is
the caller's business (strict reading refuses it):

* a tag standing alone (``[e3 The Carriage e3]``, ``w |[e3``, the second half of ``w|[e1, e2]``)
  goes to the next word (an opener) or the previous one (a closer, a one-word mention);
* ``||`` is one pipe; a tag glued to its word without the pipe (``Death[e2]``) is split off;
* brackets of other shapes (``(e3)``, ``{e3}``, ``<e3>``, ``[e3)``) are read as square;
  ``E3`` is ``e3``;
* empty tags (``w|``, ``w|[e3,``), tags that name no entity (``[e``) and anything else that is no
  tag are dropped.

A tag repeated on a word is no error here (two nested mentions of one entity may end on the same
word); the reader decides when a repetition has nothing to open or close.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

OPEN, CLOSE, SINGLE = "open", "close", "single"

_ID = r"[^\s\[\](){}<>,|]+"
_TAG = re.compile(rf"^\[({_ID})(\]?)$|^({_ID})\]$")
_BAD_BRACKETS = re.compile(rf"^([\[({{<]?)({_ID})([\])}}>]?)$")
_STANDALONE = re.compile(rf"^(?:\[{_ID}\]?|{_ID}\])(?:,(?:\[{_ID}\]?|{_ID}\]))*$")
_GLUED_ID = r"[A-Za-z][\w.]*\d"
_GLUED = re.compile(rf"^(.*?[^\[|])(\[{_GLUED_ID}\]?(?:,(?:\[{_GLUED_ID}\]?|{_GLUED_ID}\]))*)$")
_IRREGULAR_SPACE = re.compile(r"[^\S ]+ *| {2,}")
_UPPER_ID = re.compile(r"^E(\d+)$")
_ENTITY_ID = re.compile(r"^[A-Za-z]+[\w.]*\d$|^\d[\w.]*$")


@dataclass
class Problem:
    check: str      # text2text.<id>
    column: int     # 1-based, in the line
    message: str
    action: str = "repaired"


@dataclass
class Word:
    form: str
    column: int
    empty: bool = False
    tags: list[tuple[str, str, int]] = field(default_factory=list)   # kind, id, column


def words_of(line: str, problems: list[Problem]) -> list[Word]:
    """The words of one line with their tags, repairs recorded in ``problems``."""
    words: list[Word] = []
    waiting: list[tuple[str, str, int]] = []      # openers standing alone, for the next word
    spaces = len(_IRREGULAR_SPACE.findall(line.strip()))
    for column, item in _items(line):
        if "|" in item:
            form, _, tags = item.partition("|")
            if tags.startswith("|"):
                problems.append(Problem("text2text.double-pipe", column,
                                        f"{item!r} has more than one '|'; read as one"))
                tags = tags.lstrip("|")
        elif _STANDALONE.match(item) and _tag_like(item):
            form, tags = "", item
        else:
            glued = _GLUED.match(item)
            if glued:
                form, tags = glued.group(1), glued.group(2)
                problems.append(Problem("text2text.glued-tag", column,
                                        f"{item!r}: the tag {tags!r} follows its word without "
                                        f"'|'; read as {form}|{tags}"))
            else:
                form, tags = item, ""
        at = column + (item.rindex(tags) if tags else len(item))
        parsed = _tags(tags, at, problems) if tags or "|" in item else []
        if not form:
            # "w |[e3": every tag is the previous word's; "[e3 w" alone: an opener waits
            _detached(parsed, words, waiting, item, column, problems,
                      after_space=item.startswith("|"))
            continue
        word = Word(form, column)
        if form.startswith("##"):
            word.empty, word.form = True, form[2:] or "_"
        word.tags = waiting + parsed
        waiting = []
        words.append(word)
    for kind, name, at in waiting:
        problems.append(Problem("text2text.unknown-tag", at,
                                f"the tag [{name} stands alone at the end of the line; dropped",
                                "dropped"))
    if spaces:
        problems.append(Problem("text2text.whitespace", 1,
                                f"{spaces} word(s) not separated by a single space (tabs, "
                                "double or non-breaking spaces); read as one space", "kept"))
    return words


def _items(line: str) -> list[tuple[int, str]]:
    return [(m.start() + 1, m.group()) for m in re.finditer(r"\S+", line)]


def _tag_like(item: str) -> bool:
    """A lone item that is only tags: every id looks like an entity id (not ``[`` text)."""
    return all(_ENTITY_ID.match(piece.strip("[]")) for piece in item.split(","))


def _detached(parsed: list[tuple[str, str, int]], words: list[Word],
              waiting: list[tuple[str, str, int]], item: str, column: int,
              problems: list[Problem], after_space: bool) -> None:
    """Tags without a word: after a space before '|' they are the previous word's; alone,
    openers wait for the next word and the others join the previous one."""
    if not parsed:
        problems.append(Problem("text2text.unknown-tag", column,
                                f"{item!r} is neither a word nor a tag; dropped", "dropped"))
        return
    for tag in parsed:
        kind = tag[0]
        if (kind == OPEN and not after_space) or not words:
            waiting.append(tag)
            where = "the next word"
        else:
            words[-1].tags.append(tag)
            where = f"the word before it ({words[-1].form!r})"
        problems.append(Problem("text2text.detached-tag", tag[2],
                                f"the tag {_show(tag)} stands apart from its word; read as a tag "
                                f"of {where}"))


def _show(tag: tuple[str, str, int]) -> str:
    kind, name, _ = tag
    return f"[{name}" if kind == OPEN else f"{name}]" if kind == CLOSE else f"[{name}]"


def _tags(text: str, column: int, problems: list[Problem]) -> list[tuple[str, str, int]]:
    found: list[tuple[str, str, int]] = []
    at = column
    for piece in text.split(","):
        here, at = at, at + len(piece) + 1
        piece = piece.strip()
        if not piece:
            problems.append(Problem("text2text.empty-tag", here,
                                    "an empty tag (a '|' or ',' with nothing after it); dropped",
                                    "dropped"))
            continue
        tag = _tag(piece, here, problems)
        if tag is not None:
            found.append(tag)
    return found


def _tag(piece: str, column: int, problems: list[Problem]) -> tuple[str, str, int] | None:
    match = _TAG.match(piece)
    if match is None:
        bad = _BAD_BRACKETS.match(piece)
        if bad is None or not (bad.group(1) or bad.group(3)) or not _ENTITY_ID.match(bad.group(2)):
            problems.append(Problem("text2text.unknown-tag", column,
                                    f"{piece!r} is no tag ([ID, ID] or [ID]); dropped",
                                    "dropped"))
            return None
        opener, name, closer = bad.groups()
        fixed = ("[" if opener else "") + name + ("]" if closer else "")
        problems.append(Problem("text2text.bad-bracket", column,
                                f"the tag {piece!r} has brackets other than [ ]; read as "
                                f"{fixed}"))
        match = _TAG.match(fixed)
        assert match is not None
    if match.group(1) is not None:
        name, kind = match.group(1), SINGLE if match.group(2) else OPEN
    else:
        name, kind = match.group(3), CLOSE
    if not _ENTITY_ID.match(name):
        problems.append(Problem("text2text.unknown-tag", column,
                                f"{piece!r} names no entity (ids are e1, e2, ... or the "
                                "corpus's); dropped", "dropped"))
        return None
    upper = _UPPER_ID.match(name)
    if upper:
        problems.append(Problem("text2text.id-case", column,
                                f"the entity id {name!r} is upper case; read as e{upper.group(1)}"))
        name = f"e{upper.group(1)}"
    return (kind, name, column)
