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
    return found + shared_losses(doc, **options)


def moved_empty_nodes(doc: Document) -> list[str]:
    """The empty nodes the linear text writes at another place — after another word, or
    after the same word but at another rank among its empty nodes (one before it moved)."""
    from corefkit.model.text_order import linear_order

    moved = []
    for sentence in doc.sentences:
        indices = list(sentence.token_indices())
        if not any(doc.tokens[i].is_empty for i in indices):
            continue
        before, after = _places(doc, indices), _places(doc, linear_order(doc, sentence.index))
        moved += [f"sentence {sentence.index + 1}, empty node {doc.tokens[i].id}"
                  for i in indices if doc.tokens[i].is_empty and before[i] != after[i]]
    return moved


def _places(doc: Document, order: list[int]) -> dict[int, tuple[int, int]]:
    """Each empty node's place in an order of tokens: (the word before it, its rank)."""
    found, word, rank = {}, -1, 0
    for i in order:
        if doc.tokens[i].is_empty:
            rank += 1
            found[i] = (word, rank)
        else:
            word, rank = i, 0
    return found


def shared_losses(doc: Document, **options: Any) -> list[LossRecord]:
    """The losses both LLM-track formats share: a document is one list of words, and with
    ``text2text_zeros`` an empty node stands after its first enhanced parent."""
    found: list[LossRecord] = []
    if options.get("text2text_zeros"):
        found += record(doc, "empty_nodes", moved_empty_nodes(doc),
                        "changed (written after its first enhanced parent, as text2text-coref "
                        "writes it: read back there, under another id)")
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
