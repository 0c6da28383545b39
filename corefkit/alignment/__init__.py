"""Key and response texts that differ: alignment across tokenizations and rewritten text.

Scorers pair mentions by token position, so a response must have the key's tokens. A system
that tokenized the raw text itself, or an LLM that rewrote it, does not. This package re-expresses
a response document on the key's tokens and says exactly what that took:

* :func:`align` — one response :class:`~corefkit.model.Document` (its own tokens and text)
  against one key document: an :class:`Aligned` pair of the response on the key's tokens and
  its :class:`DocumentAlignment` report. Same text, other tokenization: exact, by characters;
  different text: by a near-linear word edit script (:mod:`corefkit.alignment.words`).
* :func:`pair_by_content` and :func:`join` — response documents without usable names (one LLM
  answer per line) paired with key documents by their text, pieces joined.
* :class:`AlignmentSummary` — the reports of a run, as ``corefkit score --align`` shows them.

``docs/reference/alignment.md`` gives the policy and every field of the report.
"""

from corefkit.alignment.pairing import ContentPairs, join, order_note, pair_by_content
from corefkit.alignment.project import BOUNDARIES, MERGED, Aligned, AlignmentPolicy, align
from corefkit.alignment.report import AlignmentSummary, DocumentAlignment, MentionNote

__all__ = ["BOUNDARIES", "MERGED", "Aligned", "AlignmentPolicy", "AlignmentSummary",
           "ContentPairs", "DocumentAlignment",
           "MentionNote", "align", "join", "order_note", "pair_by_content"]
