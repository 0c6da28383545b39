"""Comment lines that the CoNLL-U based formats (CorefUD, CoNLL-UA exploded) read and write alike.

Only patterns that accept exactly the same lines in both formats live here; the others stay
with their format (the empty-node id, for one: CorefUD refuses ``N.0``, UA takes it).
"""

from __future__ import annotations

import re

from corefkit.model import Document, Sentence

# "# newdoc" or "# newdoc id = X" (group 1: X). The word break after "newdoc" is implied by
# what must follow it (white space or the end of the line): "# newdocs" is no newdoc line.
NEWDOC_RE = re.compile(r"^#\s*newdoc\b(?:\s+id\s*=\s*(.*?))?\s*$")
# "# sent_id = X" and "# speaker = X"; group 1 is the value without surrounding white space
SENT_ID_RE = re.compile(r"^#\s*sent_id\s*=\s*(.*?)\s*$")
SPEAKER_RE = re.compile(r"^#\s*speaker\s*=\s*(.*?)\s*$")


def sentence_text(doc: Document, sentence: Sentence) -> str:
    """The value of a ``# text =`` line for a sentence that has none: its words (empty nodes
    left out), separated by a space unless MISC says ``SpaceAfter=No``."""
    pieces = []
    for index in range(sentence.start, sentence.stop):
        token = doc.tokens[index]
        if token.is_empty:
            continue
        pieces.append(token.form)
        if "SpaceAfter=No" not in (token.misc or "").split("|"):
            pieces.append(" ")
    return "".join(pieces).rstrip()
