"""What an alignment did to one document, and to a run: the alignment report.

Every count a user needs to trust a score over re-aligned text: which way the texts were
aligned, the tokens split and merged, the words replaced, inserted and deleted, whether the
response was truncated and how much is missing, and what happened to the response's mentions
(kept as they were, moved, expanded, or unaligned and so counted as spurious) and to the key's
mentions (those in text the response lacks are missed). ``docs/reference/alignment.md``
explains each field; the JSON of ``corefkit score`` carries :meth:`DocumentAlignment.to_json`
per document under ``alignment.documents``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

from corefkit.errors import Repair, counted

# the mention categories of the report, in the order they are shown
MOVED = "moved"
EXPANDED = "expanded"
TRIMMED = "trimmed"
UNALIGNED = "unaligned"
EXAMPLES = 5   # examples kept per category and document


@dataclass(frozen=True)
class MentionNote:
    """One response mention the alignment changed: its words in the response (1-based word
    numbers), its text there, and the key words it now covers (None: unaligned)."""

    category: str
    text: str
    response_words: tuple[int, int]
    key_words: tuple[int, int] | None

    def __str__(self) -> str:
        where = (f"key words {self.key_words[0]}-{self.key_words[1]}"
                 if self.key_words is not None else "no key words")
        return (f"{self.category}: {self.text!r} (response words {self.response_words[0]}-"
                f"{self.response_words[1]}) -> {where}")


@dataclass
class DocumentAlignment:
    """The alignment report of one document (see the module's description)."""

    document: str                    # the key document's name
    response: str                    # the response document's name (or lines)
    mode: str                        # characters (same text) or words (different text)
    boundary: str                    # the policy for a mention boundary inside a key token
    merged: str                      # the policy for a mention edge on a merged token
    key_words: int = 0
    response_words: int = 0
    tokens_split: int = 0            # key tokens whose text several response tokens share
    tokens_merged: int = 0           # response tokens whose text spans several key tokens
    words_equal: int = 0             # word mode: response words equal to their key word
    words_replaced: int = 0          # word mode: response words standing for another word
    words_inserted: int = 0          # response words with no key counterpart
    words_deleted: int = 0           # key words with no response counterpart
    truncated: bool = False
    missing_words: int = 0           # key words after the last one the response reached
    missing_from: int | None = None  # the first of them (1-based key word number)
    empty_nodes_added: int = 0       # response empty nodes the key lacks (added after a word)
    pieces: int = 1                  # response pieces joined into this document
    mentions: int = 0                # response mentions
    mentions_kept: int = 0           # on the key tokens their text covers, unchanged
    mentions_moved: int = 0          # a boundary word had no counterpart: moved inward
    mentions_expanded: int = 0       # a boundary inside a key token: the whole token taken
    mentions_trimmed: int = 0        # an edge on a merged token left out punctuation etc.
    mentions_unaligned: int = 0      # no key token: counted as spurious
    key_mentions: int = 0
    key_mentions_missing: int = 0    # key mentions wholly in text the response lacks: missed
    examples: list[MentionNote] = field(default_factory=list)

    def wants(self, category: str) -> bool:
        """Whether an example of ``category`` would still be kept."""
        return sum(1 for e in self.examples if e.category == category) < EXAMPLES

    def note(self, category: str, text: str, response_words: tuple[int, int],
             key_words: tuple[int, int] | None) -> None:
        if sum(1 for e in self.examples if e.category == category) < EXAMPLES:
            self.examples.append(MentionNote(category, text, response_words, key_words))

    def to_json(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "examples"}
        out["examples"] = [asdict(e) for e in self.examples]
        return out

    def changed(self) -> bool:
        """Whether the alignment did anything a reader of the score should know about."""
        return bool(self.tokens_split or self.tokens_merged or self.words_replaced
                    or self.words_inserted or self.words_deleted or self.truncated
                    or self.mentions_moved or self.mentions_expanded or self.mentions_unaligned
                    or self.mentions_trimmed
                    or self.empty_nodes_added or self.pieces > 1)


# counts summed over a run's documents
SUMMED = ("key_words", "response_words", "tokens_split", "tokens_merged", "words_equal",
          "words_replaced", "words_inserted", "words_deleted", "missing_words",
          "empty_nodes_added", "mentions", "mentions_kept", "mentions_moved",
          "mentions_expanded", "mentions_trimmed", "mentions_unaligned", "key_mentions",
          "key_mentions_missing")


@dataclass
class AlignmentSummary:
    """The alignment reports of a run's documents and their totals."""

    policy: str
    documents: list[DocumentAlignment] = field(default_factory=list)

    def totals(self) -> dict[str, int]:
        found = {name: sum(getattr(d, name) for d in self.documents) for name in SUMMED}
        found["documents"] = len(self.documents)
        found["by_characters"] = sum(1 for d in self.documents if d.mode == "characters")
        found["truncated"] = sum(1 for d in self.documents if d.truncated)
        found["joined"] = sum(1 for d in self.documents if d.pieces > 1)
        return found

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "totals": self.totals(),
                "documents": [d.to_json() for d in self.documents]}

    def lines(self) -> list[str]:
        """The summary shown under a score table."""
        t = self.totals()
        lines = [
            f"alignment ({self.policy}): {counted(t['documents'], 'document')}, "
            f"{t['by_characters']} by characters (same text), "
            f"{t['documents'] - t['by_characters']} by words",
            f"  tokens: {counted(t['tokens_split'], 'key token')} split, "
            f"{counted(t['tokens_merged'], 'response token')} merged; words: {t['words_replaced']} replaced, {t['words_inserted']} "
            f"inserted, {t['words_deleted']} deleted",
            f"  response mentions: {t['mentions']}, {t['mentions_kept']} kept, "
            f"{t['mentions_moved']} moved, {t['mentions_expanded']} expanded, "
            f"{t['mentions_trimmed']} trimmed, "
            f"{t['mentions_unaligned']} unaligned (counted as spurious); key mentions in "
            f"missing text: {t['key_mentions_missing']} of {t['key_mentions']} (missed)",
        ]
        for d in self.documents:
            if d.truncated:
                lines.append(f"  truncated: {d.document}: the response stops at key word "
                             f"{d.missing_from}, {d.missing_words} of {d.key_words} words "
                             "missing")
            if d.pieces > 1:
                lines.append(f"  joined: {d.document}: {d.pieces} response pieces ({d.response})")
        return lines


def alignment_notes(reports: list[DocumentAlignment]) -> list[Repair]:
    """One warning per document whose alignment changed something (``align.document``), for
    commands that show warnings rather than the alignment report."""
    notes = []
    for d in reports:
        if not d.changed():
            continue
        truncated = (f"; truncated at key word {d.missing_from} ({d.missing_words} words "
                     "missing)" if d.truncated else "")
        notes.append(Repair(
            "align.document", f"aligned by {d.mode}: {d.tokens_split} key tokens split, "
            f"{d.tokens_merged} response tokens merged, words {d.words_replaced} replaced / "
            f"{d.words_inserted} inserted / {d.words_deleted} deleted; response mentions "
            f"{d.mentions_moved} moved, {d.mentions_expanded} expanded, {d.mentions_trimmed} "
            f"trimmed, {d.mentions_unaligned} unaligned (spurious); {d.key_mentions_missing} "
            f"key mentions in missing text{truncated}", document=d.document, action="aligned"))
    return notes
