"""How a format plugs into the validator, and the helpers every check module shares.

A format plugin is the ``checks`` module of the format's package
(``corefkit/converters/<format>/checks.py``): it registers the checks of its format (the
reader's repair and rejection ids plus checks of its own) and exposes ``PLUGIN``, a
:class:`FormatPlugin`. Adding a format to the validator means writing that module; nothing else
in the validator changes. :func:`corefkit.converters.registry.plugin_for` finds a format's
plugin.

Checks report :class:`Incident` records; the engine turns them into located findings with the
registry's level, severity and explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from corefkit.model import Document, Entity, Mention


class Incident(NamedTuple):
    """One occurrence of a check, before the engine adds level, severity and explanation.

    ``file`` defaults to the document's file and ``document`` to the document's name.
    """

    check: str
    message: str
    line: int | None = None
    sentence: str | None = None
    file: str | None = None
    document: str | None = None


class FileChecks:
    """The checks of one format over the documents of one file, in reading order.

    ``document`` is called for every document as it is read, ``finish`` once at the end
    (after the last document, or after the reader stopped at an error). ``errors_only`` is
    set when a command runs the checks (:mod:`corefkit.converters.gate`): only errors matter
    there, so a check may skip work that can only find warnings.
    """

    errors_only = False

    def __init__(self, file: str) -> None:
        self.file = file

    def document(self, doc: Document) -> Iterable[Incident]:
        return ()

    def finish(self) -> Iterable[Incident]:
        return ()


@dataclass(frozen=True)
class FormatPlugin:
    """What the validator knows about one format.

    * ``file_checks`` makes the format's own checks for a file (None: the format has none
      beyond its reader's repairs and rejections).
    * ``covered`` maps a model check to the reader check that already reports the same
      incident for this format, so the model check is not repeated for its documents.
    * ``absent`` names the model checks whose incidents the format's reader cannot produce
      (CoNLL-2012 has no non-referring markables and no mention without tokens), so that the
      commands, which run the checks on every document they read, do not pay for them.
    * ``renamed`` maps a model check to the format's id for it (the format's spelling and
      severity, e.g. CorefUD's ``crossing-mentions-same-entity``).
    * ``mention_place`` gives (file, line) of a mention when the mention's line refers to
      another file than the document's (MMAX2 markable files).
    * ``token_line(file, first line of the document, n)`` gives the line of the document's n-th
      word (0-based, empty nodes not counted), for key/response messages; ``words_known`` says whether the document's word forms are
      real (CoNLL-2012 layouts without a word column have none).
    * ``announced`` names the format's warnings that every command reports, as ``validate``
      does (the others are left to ``validate``): CorefUD's ``no-syntax``, which says once per
      document why a tree-less file is read at all.
    """

    format: str
    file_checks: Callable[[str], FileChecks] | None = None
    covered: Mapping[str, str] = field(default_factory=dict)
    absent: frozenset[str] = frozenset()
    renamed: Mapping[str, str] = field(default_factory=dict)
    mention_place: Callable[[Document, Mention], tuple[str | None, int | None]] | None = None
    token_line: Callable[[str, int | None, int], int | None] | None = None
    words_known: Callable[[Document], bool] | None = None
    announced: frozenset[str] = frozenset()


# ---------------------------------------------------------------------------- shared helpers
def sentence_label(doc: Document, token_index: int) -> str | None:
    """The sentence of a token as users know it: its ``sent_id``, else its 1-based number."""
    if token_index < 0 or token_index >= doc.token_count:
        return None
    index = doc.tokens[token_index].sentence
    if index < 0 or index >= len(doc.sentences):
        return None
    sentence = doc.sentences[index]
    return sentence.sent_id or str(index + 1)


def mention_text(doc: Document, mention: Mention, limit: int = 40) -> str:
    """A short quotation of a mention for messages (``'the old man'``)."""
    if not mention.tokens:
        return "an empty mention"
    try:
        text = doc.text(mention)
    except IndexError:  # tokens outside the document: describe by index only
        return f"tokens {mention.start}-{mention.end}"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return repr(text)


def entity_name(entity: Entity) -> str:
    """An entity as its file names it (``'7'``, ``'e12'``), else by its model number."""
    original = entity.attrs.get("original_id")
    return repr(str(original)) if original not in (None, "") else f"#{entity.id}"


def mention_incident(doc: Document, mention: Mention, check: str, message: str,
                     plugin: FormatPlugin | None = None) -> Incident:
    """An incident located at a mention: its line (or the document's) and sentence."""
    file = None
    line = mention.line if mention.line is not None else doc.line
    if plugin is not None and plugin.mention_place is not None:
        file, line = plugin.mention_place(doc, mention)
    sentence = sentence_label(doc, mention.start) if mention.tokens else None
    return Incident(check, message, line, sentence, file)


def first_mention(doc: Document, entity: Entity) -> Mention | None:
    mentions = doc.mentions_of(entity)
    return mentions[0] if mentions else None


def conll_like_token_line(file: str, first_line: int | None, ordinal: int,
                          is_word: Callable[[str], bool]) -> int | None:
    """The line of the ``ordinal``-th word line of a document in a line-based file.

    Counts from the document's first line the lines ``is_word`` accepts; used for messages
    only, so any problem reading the file again just gives None.
    """
    if first_line is None or file in ("<stdin>", "-"):
        return None
    try:
        with open(file, encoding="utf-8-sig", errors="replace", newline=None) as handle:
            seen = -1
            for number, line in enumerate(handle, 1):
                if number <= first_line:
                    continue
                if is_word(line.rstrip("\n")):
                    seen += 1
                    if seen == ordinal:
                        return number
    except OSError:
        return None
    return None


