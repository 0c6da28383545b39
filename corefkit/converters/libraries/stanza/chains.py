"""Stanza's coreference attachments: a word's part in each mention, read back into mentions.

Stanza attaches every mention of a chain to its words (``Document._attach_coref_mentions``):
``is_start`` on the first word, ``is_end`` on the last, both on a one-word mention and on a
zero (an empty node), neither on the words between; ``is_representative`` on every word of the
chain's representative mention; the chain's ``index`` (0-based, ``doc.coref``'s order). Mentions
never cross sentences. :func:`mentions` rebuilds a sentence's mentions: on each word, ends close
the latest mention of their chain opened on an earlier word, then one-word mentions, then
starts open (a word may end one mention and start the next of the same chain); a middle must
lie inside an open mention of its chain.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

MISC_RE = re.compile(r"^(unit|start|middle|end)-(repr-)?id([0-9]+)$")


@dataclass(frozen=True)
class Attachment:
    chain: int
    start: bool
    end: bool
    representative: bool

    @classmethod
    def from_misc(cls, text: str) -> Attachment | None:
        """``start-repr-id0`` (``dict_to_conll_text``'s spelling), or None."""
        found = MISC_RE.match(text)
        if found is None:
            return None
        position = found.group(1)
        return cls(int(found.group(3)), position in ("unit", "start"),
                   position in ("unit", "end"), found.group(2) is not None)


@dataclass(frozen=True)
class Found:
    chain: int
    first: int        # positions in the sentence's list of words
    last: int
    representative: bool


def mentions(words: Sequence[Sequence[Attachment]],
             fail: Callable[[int, str], Exception]) -> list[Found]:
    """The mentions of one sentence from its words' attachments; ``fail(word, message)`` makes
    the error raised for attachments that do not nest."""
    open_at: dict[int, list[tuple[int, bool]]] = {}
    found: list[Found] = []
    for i, attachments in enumerate(words):
        for a in attachments:
            if a.end and not a.start:
                stack = open_at.get(a.chain)
                if not stack:
                    raise fail(i, f"ends a mention of chain {a.chain} that no earlier word of "
                               "the sentence starts")
                first, representative = stack.pop()
                found.append(Found(a.chain, first, i, representative or a.representative))
            elif not a.start and not a.end and not open_at.get(a.chain):
                raise fail(i, f"is inside a mention of chain {a.chain} that no earlier word of "
                           "the sentence starts")
        for a in attachments:
            if a.start and a.end:
                found.append(Found(a.chain, i, i, a.representative))
            elif a.start:
                open_at.setdefault(a.chain, []).append((i, a.representative))
    for chain, stack in open_at.items():
        if stack:
            raise fail(stack[-1][0], f"starts a mention of chain {chain} that the sentence "
                       "never ends (Stanza's mentions never cross sentences)")
    return found
