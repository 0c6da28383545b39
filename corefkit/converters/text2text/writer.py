"""The CRAC LLM-track linear text (text2text-coref): the writer.

One line per document: the words (:mod:`.layout`) separated by single spaces, each followed by
``|`` and its tags when it has any — ``[ID`` where a mention starts, ``ID]`` where one ends,
``[ID]`` for a one-word mention, sorted as strings and joined by commas, as text2text-coref's
``conllu2text`` writes them. ``text2text_blind`` writes the words only: the input an LLM is
prompted with. Sentence breaks, document names and every annotation but identity mentions are
not held (reported as losses).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.loss import ConversionReport, LossRecord, record
from corefkit.converters.text2text.layout import ID_MODES, lay_out
from corefkit.errors import UsageError
from corefkit.model import Document, Mention


def loss_actions(**options: Any) -> dict[str, str]:
    return {}


def capabilities(held: frozenset[str], **options: Any) -> frozenset[str]:
    """Empty nodes (and the zero mentions on them) only with ``text2text_zeros``: without it
    they are lost, and mentions with empty nodes are written without them."""
    return held if options.get("text2text_zeros") else held - {"empty_nodes", "zeros",
                                                               "mentions_with_empty_nodes"}


def partial_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """What the linear text cannot hold of ``doc``: its name and its sentence breaks."""
    found = record(doc, "names", [repr(doc.name)], "changed (the linear text holds no document "
                   "name: a reader names each line after its file)")
    return found + sentence_losses(doc, **options)


def sentence_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """The loss both LLM-track formats share: a document is one list of words."""
    found: list[LossRecord] = []
    written = [s for s in doc.sentences
               if options.get("text2text_zeros") or any(not doc.tokens[i].is_empty
                                                        for i in s.token_indices())]
    if len(written) > 1:
        found += record(doc, "sentences", written, "changed (a document is one list of words: "
                        "no sentence breaks)")
    return found


def line_of(doc: Document, *, blind: bool = False, zeros: bool = False,
            bare_empty: bool = False, ids: str = "sequential") -> str:
    """One document as a line of linear text (without the line end)."""
    written = lay_out(doc, zeros=zeros, bare_empty=bare_empty, ids=ids)
    if blind:
        return " ".join(written.words)
    tags: list[list[str]] = [[] for _ in written.words]
    for first, last, name in written.spans:
        if first == last:
            tags[first].append(f"[{name}]")
        else:
            tags[first].append(f"[{name}")
            tags[last].append(f"{name}]")
    return " ".join(word + ("|" + ",".join(sorted(t)) if t else "")
                    for word, t in zip(written.words, tags))


def check_ids(ids: str | None) -> str:
    ids = ids or "sequential"
    if ids not in ID_MODES:
        raise UsageError(f"unknown --text2text-ids {ids!r}; expected one of {', '.join(ID_MODES)}")
    return ids


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 text2text_blind: bool = False, text2text_zeros: bool = False,
                 text2text_bare_empty: bool = False, text2text_ids: str | None = None) -> None:
    ids = check_ids(text2text_ids)
    for doc in documents:
        out.write(line_of(doc, blind=text2text_blind, zeros=text2text_zeros,
                          bare_empty=text2text_bare_empty, ids=ids) + "\n")
