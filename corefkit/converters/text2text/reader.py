"""The CRAC LLM-track linear text (text2text-coref): the reader.

One document per line (blank lines are skipped), words separated by spaces, coreference tags
after a ``|`` (:mod:`corefkit.converters.text2text.tags`). The text carries no document names
and no sentence breaks: a document is named after the file and its number (``answers-3``) and
holds one sentence; scoring pairs such documents with the key's by their text and aligns them
(:mod:`corefkit.alignment`), and ``corefkit convert --gold`` puts them back on the gold's
sentences.

Mentions are built per document: a closer closes the latest open mention of its entity opened
on an earlier word, then one-word mentions, then openers open. What LLM output breaks is
repaired and reported, each repair with its line, column and word number: an opener never
closed and a closer never opened become one-word mentions (text2text-coref drops the first
silently) unless they repeat a tag of the same word that did open or close a mention (then
they are dropped); an opener still open when the line ends, in its last :data:`CUT_WORDS`
words and inside no mention opened before it, is dropped too — the answer was cut off inside
it (a truncated answer), its end is unknown —; a mention given twice is kept once, Markdown
code fences are skipped, and the tag repairs of :mod:`.tags` are made. Strict reading refuses
every repair (``--lenient`` accepts them).
"""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Iterator
from typing import BinaryIO

from corefkit.converters.io import iter_lines
from corefkit.converters.text2text.tags import CLOSE, OPEN, SINGLE, Problem, Word, words_of
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Entity, Token

FENCE = "text2text.markdown-fence"
# an opener left open this near the end of a line, inside no longer mention, was cut off
CUT_WORDS = 50


def read_stream(stream: BinaryIO, file: str, *, lenient: bool = False) -> Iterator[Document]:
    """Documents of a linear-text file, one line at a time (repairs always made and recorded;
    the registry refuses them unless ``lenient``)."""
    stem = os.path.splitext(os.path.basename(file))[0] or os.path.basename(file)
    ordinal = 0
    held: Document | None = None          # the last document, until the next line is read
    skipped: list[Repair] = []
    for number, line in iter_lines(stream, file):
        if not line.strip():
            continue
        if line.lstrip().startswith("```"):
            if not lenient:
                raise FormatError("a Markdown code fence (```); the file should hold the "
                                  "documents only, one per line (pass --lenient to skip such "
                                  "lines)", file=file, line=number, check=FENCE)
            skipped.append(Repair(FENCE, "a Markdown code fence (```); skipped", file, number,
                                  1, None, "dropped"))
            continue
        problems: list[Problem] = []
        words = words_of(line, problems)
        if not words:
            raise FormatError("the line holds tags but no word; a document is one line of "
                              "words", file=file, line=number, check="text2text.no-words")
        ordinal += 1
        doc = Document(f"{stem}-{ordinal}", None, file=file)
        doc.line = number
        build(doc, words, problems)
        doc.repairs.extend(Repair(p.check, _located(p, words), file, number, p.column,
                                  doc.name, p.action) for p in problems)
        if held is not None:
            held.repairs.extend(skipped)
            skipped = []
            yield held
        held = doc
    if held is not None:
        held.repairs.extend(skipped)
        yield held


def _reach(closed: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Starts of the closed mentions in order, and the furthest end of those up to each."""
    closed.sort()
    starts, furthest, best = [], [], -1
    for start, end in closed:
        best = max(best, end)
        starts.append(start)
        furthest.append(best)
    return starts, furthest


def _outlived(reach: tuple[list[int], list[int]], start: int) -> bool:
    """Whether a mention opened before word ``start`` closes after it: then an opener at
    ``start`` left open was meant to close before (damage), not cut off by the line's end."""
    starts, furthest = reach
    n = bisect_left(starts, start)
    return n > 0 and furthest[n - 1] > start


def _located(problem: Problem, words: list[Word]) -> str:
    """The message with the number of the word it is at (1-based, empty nodes counted)."""
    number = sum(1 for w in words if w.column <= problem.column)
    return f"word {max(number, 1)}: {problem.message}"


def build(doc: Document, words: list[Word], problems: list[Problem]) -> None:
    """Tokens (one sentence) and mentions of one document from its words."""
    tokens = []
    word_id, empty_id = 0, 0
    for word in words:
        if word.empty:
            empty_id += 1
            token = Token(word.form, id=f"{word_id}.{empty_id}", is_empty=True)
        else:
            word_id += 1
            empty_id = 0
            token = Token(word.form, id=str(word_id))
        tokens.append(token)
    doc.add_sentence(tokens)
    entities: dict[str, Entity] = {}
    spans: set[tuple[str, int, int]] = set()
    starts: set[tuple[str, int]] = set()
    ends: set[tuple[str, int]] = set()
    open_at: dict[str, list[tuple[int, int]]] = {}     # id -> (word index, column) stack

    def mention(name: str, start: int, end: int, column: int) -> None:
        if (name, start, end) in spans:
            problems.append(Problem("text2text.duplicate-mention", column,
                                    f"the mention of {name} on words {start + 1}-{end + 1} is "
                                    "given twice; kept once", "dropped"))
            return
        spans.add((name, start, end))
        starts.add((name, start))
        ends.add((name, end))
        entity = entities.get(name)
        if entity is None:
            entity = entities[name] = doc.new_entity(attrs={"original_id": name})
        doc.add_span(start, end, entity)

    closed: list[tuple[int, int]] = []   # (start, end) of mentions closed by a closer
    for index, word in enumerate(words):
        opened_here = [t for t in word.tags if t[0] == OPEN]
        for kind, name, column in word.tags:
            if kind != CLOSE:
                continue
            stack = open_at.get(name)
            if stack:
                start, _ = stack.pop()
                mention(name, start, index, column)
                closed.append((start, index))
            elif any(t[1] == name for t in opened_here):
                opener = next(t for t in opened_here if t[1] == name)
                opened_here.remove(opener)
                mention(name, index, index, column)
            elif (name, index) in ends:
                problems.append(Problem("text2text.duplicate-tag", column,
                                        f"{name}] is repeated on {word.form!r} with no other "
                                        f"open mention of {name} to close; dropped", "dropped"))
            else:
                problems.append(Problem("text2text.unopened-mention", column,
                                        f"{name}] closes no open mention of {name}; read as a "
                                        f"one-word mention [{name}]"))
                mention(name, index, index, column)
        for kind, name, column in word.tags:
            if kind == SINGLE:
                mention(name, index, index, column)
        for kind, name, column in opened_here:
            open_at.setdefault(name, []).append((index, column))
    reach = _reach(closed)
    for name, stack in open_at.items():
        for start, column in stack:
            if (name, start) in starts:
                problems.append(Problem("text2text.duplicate-tag", column,
                                        f"[{name} is repeated on {words[start].form!r} and "
                                        "never closed; dropped", "dropped"))
                continue
            if len(words) - start <= CUT_WORDS and not _outlived(reach, start):
                problems.append(Problem("text2text.cut-mention", column,
                                        f"[{name} is open when the line ends and no mention "
                                        "opened before it closes after it: the answer stops "
                                        "inside it (cut off), its end is unknown; dropped",
                                        "dropped"))
                continue
            problems.append(Problem("text2text.unclosed-mention", column,
                                    f"[{name} is never closed; read as a one-word mention "
                                    f"[{name}]"))
            mention(name, start, start, column)
