"""Documents put on the words of their gold documents, for writing (``corefkit convert --gold``).

An LLM-track participant converts the model's answer to CoNLL-U for the CorefUD scorer; the
answer has its own words, the scorer wants the gold's. :func:`onto_gold` pairs each document
with a gold document — by content when the documents have no names of their own, else by name —
and yields it re-expressed on the gold's tokens and sentences (the gold's text layer, the
answer's annotation; :func:`corefkit.alignment.align`, with unaligned mentions dropped: the
written file holds the gold's text only). Gold documents without an answer are written
without annotation. What each alignment did, and the documents left unpaired, are in ``notes``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from corefkit.alignment.pairing import join, order_note, pair_by_content
from corefkit.alignment.project import AlignmentPolicy, align
from corefkit.alignment.report import DocumentAlignment, alignment_notes
from corefkit.errors import Repair
from corefkit.model import Document


def onto_gold(documents: Iterable[Document], gold: Iterable[Document], *,
              by_content: bool, policy: AlignmentPolicy | None = None,
              notes: list[Repair] | None = None,
              reports: list[DocumentAlignment] | None = None) -> Iterator[Document]:
    """``documents`` re-expressed on the tokens of their ``gold`` documents, in gold order."""
    answers, keys = list(documents), list(gold)
    notes = notes if notes is not None else []
    if by_content:
        found = pair_by_content([_words(d) for d in keys], [_words(d) for d in answers])
        pieces = found.pieces
        extra = found.extra
        moved = order_note(found, keys, answers)
        if moved is not None:
            notes.append(moved)
    else:
        index: dict[tuple[str, str], list[int]] = {}
        for n, doc in enumerate(answers):
            index.setdefault(doc.pair_key(), []).append(n)
        pieces = [index.get(k.pair_key(), [])[:1] for k in keys]
        used = {n for p in pieces for n in p}
        extra = [n for n in range(len(answers)) if n not in used]
    for n in extra:
        notes.append(Repair("score.extra-document", f"document {answers[n].name} matches no "
                            "gold document; not written", document=answers[n].name,
                            action="dropped"))
    for key, chosen in zip(keys, pieces):
        if not chosen:
            notes.append(Repair("score.missing-document", f"gold document {key.name} has no "
                                "answer; written without annotation", document=key.name,
                                action="kept"))
            response = Document(key.id, key.part)
        else:
            response = join([answers[n] for n in chosen])
        found_alignment = align(key, response, policy, keep_unaligned=False)
        if len(chosen) > 1:
            found_alignment.report.pieces = len(chosen)
            found_alignment.report.response = " + ".join(answers[n].name for n in chosen)
        if chosen:
            notes.extend(alignment_notes([found_alignment.report]))
            if reports is not None:
                reports.append(found_alignment.report)
        yield found_alignment.document


def _words(doc: Document) -> list[str]:
    return [t.form for t in doc.tokens if not t.is_empty]
