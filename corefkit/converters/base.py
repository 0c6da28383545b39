"""What a format package declares about itself: its :class:`FormatSpec` and :class:`Option`\\ s.

Each format is one package ``corefkit/converters/<format>/``:

* ``spec.py`` — ``SPEC``, a :class:`FormatSpec`: name, aliases, capabilities, how to recognise
  a file (``sniff``, a few regular expressions), and the reader's and writer's options, each
  declared once with its type and help. It imports nothing heavy: the registry reads every
  spec to detect formats and the command line builds its options from them.
* ``reader.py`` — ``read_stream(stream, file, **options)`` (or ``read_path(path, file,
  **options)`` for formats whose documents are several files), an iterator of documents.
* ``writer.py`` — ``write_stream(documents, out, report, **options)`` (or ``write_path``),
  ``loss_actions(**options)`` and optionally ``partial_losses(doc, **options)`` and
  ``capabilities(held, **options)`` (what of the spec's capabilities these options hold).
* ``checks.py`` — the format's validation checks and its ``PLUGIN`` for the validator.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from corefkit.converters.forms import FormRule

OPTION_KINDS = ("flag", "text", "choice", "path")


@dataclass(frozen=True)
class Option:
    """One keyword option of a reader or writer, as the command line offers it.

    ``kind`` is ``flag`` (on when given), ``text``, ``path`` or ``choice`` (one of
    ``choices``). ``flag`` is the command-line spelling when it is not ``--`` plus the name
    with dashes (MMAX2's ``level_map`` is ``--mmax-map``).
    """

    name: str
    help: str
    kind: str = "flag"
    choices: tuple[str, ...] = ()
    flag: str | None = None
    metavar: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {OPTION_KINDS}")
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"option {self.name}: choices go with kind 'choice' only")

    @property
    def cli(self) -> str:
        """The option as typed on the command line (``--parse-gum-ids``)."""
        return self.flag or "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class FormatSpec:
    """What the registry and the command line know about a format without importing it."""

    name: str
    aliases: tuple[str, ...]
    description: str
    patterns: tuple[str, ...]           # file-name patterns (fnmatch, case-insensitive)
    capabilities: frozenset[str]
    package: str                        # corefkit.converters.<format>
    sniff: Callable[[str], bool]        # recognises the first 64 KB of a file
    sniff_priority: int                 # lower is tried first
    read_options: tuple[Option, ...] = ()
    write_options: tuple[Option, ...] = ()
    stream: bool = True                 # a single text stream: "-" works for it
    reads_paths: bool = False           # read_path(project file) instead of read_stream
    writes_directory: bool = False      # write_path(directory) instead of write_stream
    lenient: bool = False               # the reader itself takes lenient= (its own repairs)
    # False: the writer answers documents of its own task only (a GAP prediction file needs
    # the GAP examples the documents answer), not any corpus
    writes_any_corpus: bool = True
    # capabilities held only in part: feature -> what of it the writer cannot write (the
    # writer's partial_losses() reports the cases a document has)
    partial: tuple[tuple[str, str], ...] = ()
    # the names alone do not identify the format's files (``*.tsv`` is also WebAnno's and
    # text2text's): in a folder such a file is read as this format only when its content is
    shared_extension: bool = False
    # recognises, from its path and first 64 KB, a file that belongs to a document of this
    # format without being one (read through the project or annotation file): a folder's
    # summary lists it as a part, never as a file of no known format
    part_of: Callable[[str, str], bool] | None = None
    # what the word column can hold (corefkit.converters.forms); None: any string
    forms: FormRule | None = None
    # the documents bring their own words, which need not be the key's (an LLM's answer):
    # scoring aligns them to the key's tokens (corefkit.alignment) unless told not to
    own_text: bool = False
    # file-name patterns taken only when the format is named (--from): too common a name
    # ("*.txt") to detect the format by
    named_patterns: tuple[str, ...] = ()
    # the documents have no names of their own (one per line of text): scoring pairs them with
    # the key's documents by their text
    pairs_by_content: bool = False
    # False: corefkit reads the format but has no writer for it (a library's output that no
    # tool reads back, such as CoreNLP's XML)
    writes: bool = True
    # False: the reader splits a raw text into words by its own rule, so the words a writer
    # wrote come back as other words (fastcoref's "dog's" as dog ' s); what it wrote comes
    # back once aligned to the words written (corefkit.alignment), character for character
    words_kept: bool = True

    def reader(self) -> ModuleType:
        return importlib.import_module(self.package + ".reader")

    def writer(self) -> ModuleType:
        return importlib.import_module(self.package + ".writer")

    def checks(self) -> ModuleType:
        return importlib.import_module(self.package + ".checks")

    def read_option(self, name: str) -> Option | None:
        return next((o for o in self.read_options if o.name == name), None)

    def write_option(self, name: str) -> Option | None:
        return next((o for o in self.write_options if o.name == name), None)


# Writers of formats without discontinuous mentions take this option (the registry applies it
# for those whose writer does not choose its mentions itself; see loss.writable_tokens).
DISCONTINUOUS = Option(
    "discontinuous", "Writers without discontinuous mentions: drop them (reported), write "
    "their extent, or their first part.", kind="choice", choices=("drop", "extent", "first"))


# Writers whose word column cannot hold every form take this option (the registry applies it:
# corefkit.converters.forms).
FORMS = Option(
    "forms", "Writers whose word column cannot hold a form (white space in CoNLL-2012 or "
    "CoNLL-UA, a TAB or line break in CoNLL-U, an empty form): refuse, naming the token "
    "(default), or write '_' for what the format cannot hold (reported as lost).",
    kind="choice", choices=("refuse", "replace"))
