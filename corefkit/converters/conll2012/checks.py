"""CoNLL-2012 checks: the reader's repairs and rejections, plus names and ids across a file.

The reader (``formats/conll2012.md`` §4) already finds unopened and unclosed brackets, a
missing ``#end document``, empty names and mixed separators; this module describes those ids
and adds what needs more than one document or a judgement about other tools: a document name
used twice in one file, and ids that are not numbers although the standard tools (the
reference scorer, coval) read only the digits of an id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from corefkit.checks.plugins import (
    FileChecks,
    FormatPlugin,
    Incident,
    conll_like_token_line,
    first_mention,
    mention_incident,
)
from corefkit.checks.registry import ERROR, WARNING, Check, register
from corefkit.model import Document

FORMAT = "conll2012"
DUPLICATE_DOCUMENT = "conll.duplicate-document"
NON_NUMERIC_ID = "conll.non-numeric-id"

NUMERIC_RE = re.compile(r"^\d+$")
SPLIT_ID_RE = re.compile(r"^\d+(?:\+\d+)+$")  # "(12+3)": reported as conll.split-antecedent-id


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check(check, level, severity, explanation, FORMAT, "reader")


register(
    # rejections: the file cannot be read past them
    _reader("conll.bad-chunk", 1, ERROR,
            "a coreference field that is not a sequence of chunks (7, 7) and (7) with or "
            "without '|' between them"),
    _reader("conll.unbalanced-close", 1, ERROR,
            "a closing bracket whose id has no open mention (an unopened bracket)"),
    _reader("conll.unclosed", 1, ERROR,
            "mentions still open at '#end document' (unclosed brackets)"),
    _reader("conll.outside-document", 1, ERROR,
            "a token line before '#begin document', or '#end document' without a begin"),
    _reader("conll.too-few-columns", 1, ERROR,
            "a token line with fewer than 2 columns (document and coreference)"),
    # repairs
    _reader("conll.missing-end", 1, ERROR,
            "a document without '#end document' (a new '#begin document' or the end of the file "
            "comes first); tools such as coval lose the document"),
    _reader("conll.empty-name", 2, WARNING,
            "'#begin document' without a name; corefkit names the document after the file, "
            "other tools key it by an empty string"),
    _reader("conll.comment-in-document", 2, WARNING,
            "a '#' line inside a document that is not begin/end; the reference scorer reads it "
            "as a token"),
    _reader("conll.no-word-column", 2, WARNING,
            "a layout with 2 or 4 columns has no word column; key and response words cannot be "
            "compared"),
    _reader("conll.word-number", 2, WARNING,
            "word numbers (third column) that do not count 0, 1, 2 ... within the sentence"),
    _reader("conll.mixed-separators", 2, WARNING,
            "a document mixes TAB- and space-separated token lines; whitespace-splitting tools "
            "and TAB-splitting tools then read different columns"),
    _reader("conll.split-antecedent-id", 2, WARNING,
            "an id such as (12+3) names a split-antecedent set; the reference scorer discards "
            "such mentions"),
    _reader("conll.duplicate-mention", 3, ERROR,
            "the same span is annotated twice with the same id; corefkit keeps one, the "
            "reference scorer counts a repeated mention"),
    _reader("conll.same-span-mentions", 3, ERROR,
            "the same span is a mention of two ids (a duplicate mention); the reference scorer "
            "refuses files with such repeats, scorch keeps only the first"),
    # this module's checks
    Check(DUPLICATE_DOCUMENT, 2, ERROR,
          "two documents of one file have the same name and part; scorers pair documents by "
          "(name, part), so one of them is lost", FORMAT),
    Check(NON_NUMERIC_ID, 2, WARNING,
          "coreference ids that are not numbers (GUM's 'place-9-Portsmouth'); the reference "
          "scorer and coval read only the digits of an id, so they merge or lose chains",
          FORMAT),
)


class ConllChecks(FileChecks):
    """Names repeated within a file; non-numeric ids per document."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.names: dict[tuple[str, str], int | None] = {}

    def document(self, doc: Document) -> Iterator[Incident]:
        key = doc.pair_key()
        if key in self.names:
            where = f" (first at line {self.names[key]})" if self.names[key] is not None else ""
            yield Incident(DUPLICATE_DOCUMENT,
                           f"document {doc.name!r} appears a second time in this file{where}",
                           doc.line)
        else:
            self.names[key] = doc.line
        if self.errors_only:  # the ids below are a warning
            return
        odd = []
        numeric = 0
        for entity in doc.entities:
            original = str(entity.attrs.get("original_id", ""))
            if NUMERIC_RE.match(original):
                numeric += 1
            elif original and not SPLIT_ID_RE.match(original):
                odd.append(entity)
        if odd:
            first = min(odd, key=lambda e: _first_line(doc, e))
            mention = first_mention(doc, first)
            message = (f"{len(odd)} of {len(odd) + numeric} ids are not numbers, the first "
                       f"{str(first.attrs['original_id'])!r}; the standard scorers read only "
                       "their digits")
            if mention is not None:
                yield mention_incident(doc, mention, NON_NUMERIC_ID, message)
            else:
                yield Incident(NON_NUMERIC_ID, message, doc.line)


def _first_line(doc: Document, entity) -> int:
    mention = first_mention(doc, entity)
    return mention.line if mention is not None and mention.line is not None else 0


def _is_token_line(line: str) -> bool:
    return bool(line.strip()) and not line.startswith("#")


def token_line(file: str, first_line: int | None, ordinal: int) -> int | None:
    """The line of a document's ``ordinal``-th token (counted from its begin line)."""
    return conll_like_token_line(file, first_line, ordinal, _is_token_line)


def words_known(doc: Document) -> bool:
    """False for 2- and 4-column layouts, whose forms the reader set to '_'."""
    return not any(r.check == "conll.no-word-column" for r in doc.repairs)


PLUGIN = FormatPlugin(
    FORMAT,
    file_checks=ConllChecks,
    covered={
        # the reader sees every repeated span while pairing brackets
        "mention.same-span": "conll.same-span-mentions",
        "mention.same-span-same-entity": "conll.duplicate-mention",
    },
    # brackets always cover tokens, the format has no non-referring markables or zeros, and
    # the reader makes the entities of each document anew
    absent=frozenset({"mention.no-tokens", "nonref.in-chain", "zero.no-empty-node",
                      "entity.across-documents"}),
    token_line=token_line,
    words_known=words_known,
)
