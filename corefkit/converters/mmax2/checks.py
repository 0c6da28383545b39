"""MMAX2 checks: the reader's repairs and rejections, and where MMAX2 findings point.

Everything the issue asks of MMAX2 (missing files, spans over unknown words, overlapping
fragments, dangling pointers, XML errors) is found by the reader (``formats/mmax2.md`` §7);
the validator reads projects leniently, so that bad markables are reported one by one instead
of stopping at the first. Mention lines of an MMAX2 document are lines of the markable file of
the mention's level, which this plugin names in its findings.
"""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register
from corefkit.model import Document, Mention

FORMAT = "mmax2"


def _reader(check: str, level: int, severity: str, explanation: str,
            malformed: bool | None = None) -> Check:
    return Check("mmax2." + check, level, severity, explanation, FORMAT, "reader", malformed)


register(
    # rejections (a project that cannot be read)
    _reader("missing-file", 1, ERROR,
            "a file the project names does not exist (words, level or common paths file)"),
    _reader("no-project", 1, ERROR, "a directory that holds no .mmax project"),
    _reader("not-a-project", 1, ERROR, "the project file's root element is not <mmax_project>"),
    _reader("no-words", 1, ERROR, "the project names no words file"),
    _reader("xml-syntax", 1, ERROR, "malformed XML (the parser's line and column are given)"),
    _reader("bad-word", 1, ERROR, "a <word> without an id"),
    _reader("duplicate-word-id", 1, ERROR, "two words with the same id"),
    _reader("bad-common-paths", 1, ERROR, "a common paths file with an unnamed or repeated level"),
    _reader("ambiguous-common-paths", 1, ERROR,
            "several common paths files could apply; pass the one to use"),
    _reader("bad-map", 1, ERROR, "the level map given is not valid"),
    # markables (refused by strict reading, skipped one by one when read leniently)
    _reader("bad-markable", 2, ERROR, "a markable without an id", malformed=True),
    _reader("duplicate-markable-id", 2, ERROR, "two markables of one level with the same id",
            malformed=True),
    _reader("bad-span", 2, ERROR,
            "a markable without a span, with a range that ends before it starts, or over words "
            "the words file does not have", malformed=True),
    _reader("dangling-pointer", 3, ERROR, "a pointer attribute naming a markable that does not exist",
            malformed=True),
    # repairs
    _reader("assumed-paths", 2, WARNING,
            "no common_paths.xml: Basedata/ and Markables/ beside the project were assumed"),
    _reader("global-paths-found", 2, WARNING,
            "no common_paths.xml beside the project: a common_files/global_common_paths.xml "
            "above it was used"),
    _reader("common-paths-local", 2, WARNING,
            "the project has its own common_paths.xml; the one given was not used"),
    _reader("missing-level-file", 2, WARNING, "a level file the project lists does not exist"),
    _reader("no-coref-level", 2, WARNING, "no level holds mentions under the level map used"),
    _reader("no-scheme", 2, WARNING, "a level without its scheme file: attributes are free text"),
    _reader("no-sentences", 2, WARNING, "no sentence level: the document is one sentence"),
    _reader("sentence-overlap", 2, WARNING, "sentence markables that overlap"),
    _reader("sentence-gap", 2, WARNING, "words in no sentence markable"),
    _reader("sentence-with-gap", 2, WARNING,
            "a sentence markable in parts (word_1,word_9): read from its first to its last word"),
    _reader("value-not-in-scheme", 2, WARNING, "attribute values the scheme does not list"),
    _reader("unknown-pointer", 2, WARNING, "a pointer attribute the level map does not know"),
    _reader("pointer-to-other-level", 2, WARNING,
            "a pointer to markables that are not mentions (kept as an attribute)"),
    _reader("overlapping-fragments", 2, WARNING,
            "span fragments that overlap or repeat (word_3..word_5,word_4); read as their union"),
    _reader("attribute-not-enabled", 3, WARNING,
            "an attribute the scheme makes depend on values this markable does not have"),
    _reader("far-fragments", 3, WARNING,
            "the parts of a discontinuous markable lie in different sentences (often a slip)"),
    _reader("bad-head", 3, WARNING, "a head that is not one word of its markable (dropped)"),
    _reader("bad-min-span", 3, WARNING, "a min span that cannot be read (dropped)"),
    _reader("min-outside-span", 3, WARNING, "a min span outside its markable (dropped)"),
    _reader("pointer-to-skipped", 3, WARNING, "a pointer to a markable that was skipped as bad"),
    _reader("nonref-pointer", 3, WARNING,
            "an identity pointer between a non-referring markable and another (left out)"),
    _reader("nonref-in-set", 3, ERROR,
            "a non-referring markable in a coreference set (left out of the set)"),
    _reader("split-self", 3, ERROR,
            "a split antecedent in the anaphor's own chain (a set cannot contain itself)"),
    _reader("same-span", 3, ERROR,
            "two markables of one level with the same span (of one set or of two)"),
)


def mention_place(doc: Document, mention: Mention) -> tuple[str | None, int | None]:
    """The markable file of the mention's level and the markable's line there."""
    files = doc.attrs.get("mmax_level_files") or {}
    level = mention.attrs.get("mmax_level")
    file = files.get(level) if isinstance(files, dict) else None
    if file is None:
        return doc.file, doc.line  # a line of another file would mislead
    return file, mention.line


PLUGIN = FormatPlugin(
    FORMAT,
    covered={
        # the reader compares the spans of every level while reading them
        "mention.same-span": "mmax2.same-span",
        "mention.same-span-same-entity": "mmax2.same-span",
        "nonref.in-chain": "mmax2.nonref-in-set",
    },
    mention_place=mention_place,
)
