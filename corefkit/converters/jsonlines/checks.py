"""jsonlines checks: the reader's rejections and repairs, plus names repeated in a file.

The reader refuses a line that is not a JSON object, a record whose keys are those of no
variant, missing or ill-shaped fields and spans outside the document; it repairs (only when
lenient) subword spans that cut words, and warns about empty clusters, records without a
name, tokens split at mention boundaries, mention strings that disagree with their offsets
and repeated spans. This module adds what needs the whole file: two records with the same
document name and part.
"""

from __future__ import annotations

from collections.abc import Iterator

from corefkit.checks.plugins import FileChecks, FormatPlugin, Incident
from corefkit.checks.registry import ERROR, WARNING, Check, register
from corefkit.model import Document

FORMAT = "jsonlines"
DUPLICATE_DOCUMENT = "jsonlines.duplicate-document"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("jsonlines." + check, level, severity, explanation, FORMAT, "reader")


register(
    # rejections
    _reader("bad-json", 1, ERROR, "a line that is not valid JSON (each line must be one JSON "
                                  "object; the column is given)"),
    _reader("not-object", 1, ERROR, "a line whose JSON value is not an object"),
    _reader("unknown-variant", 1, ERROR,
            "the first record's keys are those of no jsonlines variant (e2e, minimized, "
            "wl-coref, dygie, preco, fastcoref, maverick, coref-data); --jsonlines-variant "
            "names one"),
    _reader("missing-key", 1, ERROR, "a record lacks a key its variant needs (sentences, "
                                     "cased_words, tokens, text, subtoken_map...)"),
    _reader("bad-field", 1, ERROR, "a field of the wrong type or shape (a token that is not a "
                                   "string, a sentence that is not a list, a decreasing "
                                   "sent_id...)"),
    _reader("length-mismatch", 1, ERROR,
            "per-token lists of different lengths (speakers and sentences, sent_id and "
            "cased_words, subtoken_map and the subtokens)"),
    _reader("null-clusters", 1, ERROR,
            "a record whose clusters are null: read as no coreference, every score would be 0; "
            "write [] for a document without clusters (--lenient reads it as none)"),
    _reader("no-clusters", 1, ERROR,
            "a record without the key its variant keeps the clusters under (missing, or "
            "renamed to another key named like clusters): read as no coreference, every score "
            "would be 0 (--lenient reads it as none; wl-coref's input has no clusters key)"),
    _reader("bad-span", 1, ERROR, "a mention that is not a pair (or triple) of integers, or "
                                  "lies outside its document, sentence or text"),
    _reader("word-map", 1, ERROR, "a minimized record's subtoken_map or sentence_map does not "
                                  "number words and sentences in order"),
    # repairs (refused unless lenient)
    _reader("subword-span", 1, ERROR,
            "a subword mention that does not start at a word's first subtoken and end at a "
            "word's last one; --lenient snaps it to the words it touches"),
    # warnings
    _reader("empty-cluster", 2, WARNING, "a cluster without mentions (SpanBERT's [[]]); "
                                         "dropped"),
    _reader("no-id", 2, WARNING, "a record without doc_key, document_id or id; named after the "
                                 "file and its place, which no other file shares"),
    _reader("split-token", 2, WARNING,
            "character offsets that fall inside a token of corefkit's tokenisation rule; the "
            "token is split there so that the mention keeps its characters"),
    _reader("mention-text", 2, WARNING, "a stated mention string (clusters_strings, "
                                        "clusters_token_text) differs from what its offsets "
                                        "give; the offsets are read"),
    _reader("duplicate-mention", 3, ERROR,
            "the same span twice in one cluster; corefkit keeps one, scorers may count two"),
    _reader("same-span-mentions", 3, ERROR,
            "the same span in two clusters (a duplicate mention); the reference scorer refuses "
            "such files"),
    Check(DUPLICATE_DOCUMENT, 2, ERROR,
          "two records of one file name the same document and part; scorers pair documents "
          "by name, so one of them is lost", FORMAT),
)


class JsonlinesChecks(FileChecks):
    """Document names repeated within a file."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.names: dict[tuple[str, str], int | None] = {}

    def document(self, doc: Document) -> Iterator[Incident]:
        key = doc.pair_key()
        if key in self.names:
            where = f" (first at line {self.names[key]})" if self.names[key] is not None else ""
            yield Incident(DUPLICATE_DOCUMENT, f"document {doc.name!r} appears a second time in "
                           f"this file{where}", doc.line)
        else:
            self.names[key] = doc.line


def token_line(file: str, first_line: int | None, ordinal: int) -> int | None:
    """A document is one line: every token is on it."""
    return first_line


PLUGIN = FormatPlugin(
    FORMAT,
    file_checks=JsonlinesChecks,
    covered={
        # the reader sees every repeated span while adding clusters
        "mention.same-span": "jsonlines.same-span-mentions",
        "mention.same-span-same-entity": "jsonlines.duplicate-mention",
    },
    token_line=token_line,
)
