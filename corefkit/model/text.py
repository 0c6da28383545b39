"""The text layer of a document: tokens (words and empty nodes) and sentences.

Tokens live in one document-wide list in reading order; an empty node ``N.K`` of CoNLL-U
comes right after word ``N`` (conversion-notes §5). Everything else refers to a token by its
index in that list, so a mention is simply a tuple of integers.
"""

from __future__ import annotations

from typing import Any


class Token:
    """One syntactic word or empty node.

    Only ``form`` is always known. The CoNLL-U columns are kept as the strings of the file
    (``head`` is the CoNLL-U head id, ``"0"`` for the root) so that writers can give them back
    unchanged; ``attrs`` holds whatever else a format carries (opaque CoNLL-2012 columns,
    character offsets, morphology candidates, ...).
    """

    __slots__ = (
        "index", "form", "sentence", "id", "lemma", "upos", "xpos", "feats",
        "head", "deprel", "deps", "misc", "speaker", "is_empty", "attrs",
    )

    def __init__(  # positional-or-keyword: readers call it positionally, which is much faster
        self,
        form: str,
        index: int = -1,
        sentence: int = -1,
        attrs: dict[str, Any] | None = None,
        id: str | None = None,
        lemma: str | None = None,
        upos: str | None = None,
        xpos: str | None = None,
        feats: str | None = None,
        head: str | None = None,
        deprel: str | None = None,
        deps: str | None = None,
        misc: str | None = None,
        speaker: str | None = None,
        is_empty: bool = False,
    ) -> None:
        self.index = index
        self.form = form
        self.sentence = sentence
        self.id = id
        self.lemma = lemma
        self.upos = upos
        self.xpos = xpos
        self.feats = feats
        self.head = head
        self.deprel = deprel
        self.deps = deps
        self.misc = misc
        self.speaker = speaker
        self.is_empty = is_empty
        self.attrs = attrs if attrs is not None else {}

    def __repr__(self) -> str:
        kind = "EmptyNode" if self.is_empty else "Token"
        return f"{kind}({self.index}, {self.form!r}, sentence={self.sentence})"


class Sentence:
    """A sentence: the half-open range ``start:stop`` of document token indices."""

    __slots__ = ("index", "start", "stop", "sent_id", "comments", "speaker", "attrs")

    def __init__(
        self,
        index: int,
        start: int,
        stop: int,
        *,
        sent_id: str | None = None,
        comments: list[str] | None = None,
        speaker: str | None = None,
        attrs: dict[str, Any] | None = None,
    ) -> None:
        self.index = index
        self.start = start
        self.stop = stop
        self.sent_id = sent_id
        self.comments = comments if comments is not None else []
        self.speaker = speaker
        self.attrs = attrs if attrs is not None else {}

    def __len__(self) -> int:
        return self.stop - self.start

    def token_indices(self) -> range:
        return range(self.start, self.stop)

    def __repr__(self) -> str:
        return f"Sentence({self.index}, tokens {self.start}:{self.stop})"
