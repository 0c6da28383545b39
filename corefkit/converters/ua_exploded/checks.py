"""CoNLL-UA exploded checks: the reader's ids, plus attributes the format does not define.

The reader (``formats/ua-exploded.md`` §6) finds wrong column counts, unbalanced brackets,
``Min`` outside its markable, ``ElementOf`` naming an entity without markables and key
spellings that differ from the canonical ones (``EntityId``, ``Markable_ID``). This module
describes those ids and adds a warning for opener keys that are none of the format's
(``EntityID``, ``MarkableID``, ``Min``, ``SemType``, ``ElementOf``; in BRIDGING ``Rel``,
``MentionAnchor``, ``EntityAnchor``): the UA scorers ignore them, so a misspelt key silently
loses its value.
"""

from __future__ import annotations

from collections.abc import Iterator

from corefkit.checks.plugins import (
    FileChecks,
    FormatPlugin,
    Incident,
    conll_like_token_line,
    mention_incident,
)
from corefkit.checks.registry import ERROR, WARNING, Check, register
from corefkit.converters.conllu_comments import sent_id_incidents
from corefkit.model import Document

FORMAT = "ua-exploded"
NON_UNIQUE_SENT_ID = "ua.non-unique-sent-id"
MULTIPLE_SENT_ID = "ua.multiple-sent-id"
UNKNOWN_ATTRIBUTE = "ua.unknown-attribute"

# mention attributes the reader itself sets for IDENTITY and DD markables
READER_ATTRIBUTES = frozenset({"markable_id", "semtype", "reference"})


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    # ElementOf or an anchor naming nothing is read with a warning, not refused: the UA scorer
    # scores such files (system responses have them)
    return Check("ua." + check, level, severity, explanation, FORMAT, "reader")


register(
    # rejections
    _reader("columns", 1, ERROR,
            "a '# global.columns' declaration without ID, FORM and IDENTITY, or naming a column "
            "twice"),
    _reader("too-many-fields", 1, ERROR, "a token line with more fields than columns"),
    _reader("empty-field", 1, ERROR,
            "a field of a TAB-separated token line that is empty or only white space (the UA "
            "scorer splits lines at white space: the columns after it would shift)"),
    _reader("token-id-order", 1, ERROR,
            "a token id that neither follows the previous one (ids run through the document) "
            "nor is a decimal of it"),
    _reader("bad-chunk", 1, ERROR, "a bracket cell that is not '(Key=value|...', ')' or 'markable_N)'"),
    _reader("bad-feature", 1, ERROR, "a feature without 'Key=' in an opener"),
    _reader("missing-key", 1, ERROR,
            "an opener without EntityID (IDENTITY, DD) or MarkableID, or a bridging opener "
            "without an anchor"),
    _reader("markable-id-clash", 1, ERROR, "one MarkableID used for markables of different entities"),
    _reader("unbalanced-close", 1, ERROR, "a closing bracket with no open markable in its column"),
    _reader("unclosed", 1, ERROR, "markables still open at the end of a document"),
    # repairs
    _reader("key-spelling", 2, WARNING,
            "a key spelt otherwise than the format's canonical name (EntityId, Markable_ID, "
            "MentionID): inconsistent case or spelling of attribute names"),
    _reader("duplicate-key", 2, ERROR, "a key given twice in one opener (the first is kept)"),
    _reader("at-separator", 2, WARNING, "'@' between openers, as in the v1.1 examples"),
    _reader("closer-after-opener", 2, ERROR,
            "a closer after a one-token opener ('(...))'): the UA scorers read it as part of the "
            "last value; write closers first"),
    _reader("unbracketed-bridging", 2, ERROR,
            "a bridging value without brackets; the UA scorers ignore it"),
    _reader("missing-newdoc", 2, WARNING, "a document without '# newdoc id = ...'"),
    _reader("missing-blank-line", 2, WARNING, "a comment line right after token lines"),
    _reader("mixed-separators", 2, WARNING, "TAB-separated and space-aligned lines in one document"),
    _reader("space-separated", 2, WARNING,
            "token lines aligned with spaces instead of TABs (CODI-CRAC files do this)"),
    _reader("missing-identity", 1, ERROR,
            "token lines that end before the IDENTITY column (a truncated file, or columns "
            "other than global.columns declares): read without markables, they score 0.00"),
    _reader("truncated", 1, ERROR,
            "the file looks cut off (a truncated copy or download): it ends in the middle of a "
            "token line that lacks declared columns, after a sentence's comments without its "
            "token lines, or right after a '# newdoc' line"),
    _reader("missing-columns", 2, WARNING,
            "token lines with fewer fields than the declared columns (read as '_')"),
    _reader("extra-columns", 2, WARNING, "values in columns CoNLL-UA does not define"),
    _reader("visual-object-markable", 2, WARNING, "a bracket on a visual-situation line (id 0)"),
    _reader("reference-without-markable", 2, WARNING, "a REFERENCE value where no markable opens"),
    _reader("bad-min", 2, ERROR, "a Min value that is not a token id or a range N,M (dropped)"),
    _reader("min-setting-shift", 2, WARNING,
            "a Min counted without the '# setting' sentence (LIGHT); read shifted into the "
            "markable"),
    _reader("min-outside-span", 3, WARNING, "a Min outside its markable (dropped, markable kept)"),
    _reader("part-features-differ", 3, WARNING,
            "parts of one discontinuous markable with different features (the first kept)"),
    _reader("set-one-member", 3, WARNING, "a split-antecedent set (ElementOf) with one member"),
    _reader("set-without-mentions", 3, ERROR,
            "ElementOf names an entity that has no markable (a set referring to a missing entity)"),
    _reader("bridging-without-identity", 3, ERROR,
            "a bridging markable whose MarkableID has no identity markable"),
    _reader("bridging-span-mismatch", 3, ERROR,
            "a bridging markable over other tokens than the identity markable of its MarkableID"),
    _reader("unknown-anchor", 3, ERROR,
            "a bridging anchor (MentionAnchor or EntityAnchor) that names nothing (dropped)"),
    _reader("entity-anchor-mismatch", 3, WARNING,
            "EntityAnchor disagrees with the entity of MentionAnchor (the mention is trusted)"),
    _reader("nom-sem-without-markable", 3, WARNING, "a NOM_SEM markable with no identity markable"),
    Check(UNKNOWN_ATTRIBUTE, 2, WARNING,
          "an IDENTITY, DISCOURSE_DEIXIS or BRIDGING opener key the format does not define; the "
          "UA scorers ignore it (a misspelt key loses its value)", FORMAT),
    Check(NON_UNIQUE_SENT_ID, 2, ERROR,
          "a sent_id used by an earlier sentence of the file (the UD validator's "
          "non-unique-sent-id); tools that index sentences by id lose one", FORMAT),
    Check(MULTIPLE_SENT_ID, 2, ERROR,
          "a sentence with more than one '# sent_id' line (the UD validator's multiple-sent-id)",
          FORMAT),
)


class UaChecks(FileChecks):
    """sent_ids, and opener keys outside the format (once per key and document)."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.sent_ids: dict[str, int | None] = {}

    def document(self, doc: Document) -> Iterator[Incident]:
        yield from sent_id_incidents(doc, self.sent_ids, NON_UNIQUE_SENT_ID, MULTIPLE_SENT_ID)
        seen: set[str] = set()
        for mention in doc.sorted_mentions():
            nom_sem = {str(k).lower() for k in mention.attrs.get("_ua_nom_sem", ())}
            for key in mention.attrs:
                if key in READER_ATTRIBUTES or key.startswith("_") or key in nom_sem \
                        or key in seen:
                    continue
                seen.add(key)
                yield mention_incident(doc, mention, UNKNOWN_ATTRIBUTE,
                                       f"key {key!r} of markable "
                                       f"{mention.attrs.get('markable_id', mention.id)!s} is not a "
                                       "CoNLL-UA key")
        for bridge in doc.bridging():
            for key in bridge.attrs:
                if key not in seen and not key.startswith("_"):
                    seen.add(key)
                    yield mention_incident(doc, bridge.anaphor, UNKNOWN_ATTRIBUTE,
                                           f"bridging key {key!r} is not a CoNLL-UA key")


def _is_word_line(line: str) -> bool:
    head = line.split(None, 1)[0] if line.strip() else ""
    return head.isdigit() and head != "0"  # id 0: visual-situation objects


def token_line(file: str, first_line: int | None, ordinal: int) -> int | None:
    """The line of a document's ``ordinal``-th word (zeros and id-0 lines not counted)."""
    return conll_like_token_line(file, first_line, ordinal, _is_word_line)


PLUGIN = FormatPlugin(
    FORMAT,
    file_checks=UaChecks,
    covered={
        "split.one-member": "ua.set-one-member",
        "split.missing-entity": "ua.set-without-mentions",
        "bridging.missing-anchor": "ua.unknown-anchor",
    },
    token_line=token_line,
)
