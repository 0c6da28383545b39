"""Key and response must hold the same words: the check every scoring command shares.

Mentions are paired by word position, so a response whose words differ from its key's would
be scored as if they matched (one changed word: 100.00; a deleted token: every later mention
shifted; the wrong document: 0.00). Every pair of documents scored — by ``score``, ``compare``,
``analyze``, ``report`` and ``task``, in every format pair, serially or in workers — goes
through :meth:`TokenCheck.resolve` in :meth:`corefkit.scoring.engine.DocumentScorer.score`.
It compares the two documents' :class:`~corefkit.model.words.Words` (one list comparison in
the usual case) and, at the first difference, applies the run's *token policy*:

* ``refuse`` (the default): a :class:`~corefkit.errors.FormatError` under the check id
  ``pair.tokens`` (the id ``corefkit validate --pair`` reports), naming the response file and
  line, the document, the sentence and word, and both words;
* ``lenient`` (``--lenient``): the pair is scored by position, with a ``pair.tokens``
  warning naming the same place.

With ``--align`` (or a response format that brings its own text, such as ``text2text``) the
run aligns instead (:mod:`corefkit.alignment`, :meth:`DocumentScorer.align
<corefkit.scoring.engine.DocumentScorer.align>`): the response is re-expressed on the key's
tokens and this check is not applied. A policy is a function
``(difference, key, response) -> (response to score, warnings)``, registered by name with
:func:`register_policy`. The run's :class:`~corefkit.scoring.config.ScoreConfig` names its
policy (``tokens``), so workers in other processes apply the same one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from corefkit.errors import FormatError, Repair, location
from corefkit.model import Document
from corefkit.model.words import WordDifference, Words, first_difference


class Side(Protocol):
    """What the token check reads of a reduced document
    (:class:`corefkit.scoring.engine.Reduced`)."""

    doc: Any
    words: Words | None
    line: int | None
    format: str | None

    @property
    def name(self) -> str: ...


Reduced = TypeVar("Reduced", bound=Side)

TOKENS = "pair.tokens"   # registered in corefkit.validation.pair (ERROR, level 1)

REFUSE = "refuse"
LENIENT = "lenient"

Policy = Callable[[WordDifference, Any, Any], tuple[Any, list[Repair]]]


def document_words(doc: Document) -> Words:
    """A document's words, as its format knows them (CoNLL-2012 layouts without a word column
    know the count only)."""
    from corefkit.converters.registry import plugin_for

    words = doc.words()
    known = plugin_for(doc.source_format).words_known
    if known is not None and not known(doc):
        return Words(words.count, None, words.sentence_starts, words.sentence_ids)
    return words


def describe(difference: WordDifference, key: Side, response: Side) -> tuple[str, int | None]:
    """The message of a difference (document, sentence, word, both words; the key's place)
    and the response line it is on, where the response's format can say."""
    assert key.words is not None and response.words is not None
    response_line = _line(response, difference.ordinal)
    key_line = _line(key, min(difference.ordinal, max(key.words.count - 1, 0)))
    key_file = getattr(key.doc, "file", None)
    in_key = f"key {location(key_file, key_line)}" if key_file and key_line is not None \
        else None
    return (f"the response's words differ from the key's: document {response.name!r}, "
            f"{difference.describe(response.words, in_key)}", response_line)


def _line(side: Side, ordinal: int) -> int | None:
    """The file line of a side's ``ordinal``-th word (read again from the file: only for a
    message), or None."""
    file, first = getattr(side.doc, "file", None), side.line
    if not file or side.format is None:
        return first
    from corefkit.converters.registry import plugin_for

    token_line = plugin_for(side.format).token_line
    found = token_line(file, first, ordinal) if token_line is not None else None
    return found if found is not None else first


def refuse(difference: WordDifference, key: Reduced, response: Reduced
           ) -> tuple[Reduced, list[Repair]]:
    message, line = describe(difference, key, response)
    raise FormatError(f"{message}; mentions are paired by word position: check that the "
                      "response was made from this key's text, pass --align to align it to "
                      "the key's tokens, or --lenient to score it by position anyway",
                      file=getattr(response.doc, "file", None), line=line, check=TOKENS)


def score_by_position(difference: WordDifference, key: Reduced, response: Reduced
                      ) -> tuple[Reduced, list[Repair]]:
    message, line = describe(difference, key, response)
    return response, [Repair(TOKENS, f"{message}; scored by word position anyway (--lenient)",
                             getattr(response.doc, "file", None), line, None, response.name,
                             "scored")]


_POLICIES: dict[str, Policy] = {REFUSE: refuse, LENIENT: score_by_position}


def register_policy(name: str, policy: Policy) -> None:
    """Add a token policy (``align``); a name can be registered once."""
    if name in _POLICIES and _POLICIES[name] is not policy:
        raise ValueError(f"token policy {name!r} is registered already")
    _POLICIES[name] = policy


def policy_names() -> list[str]:
    return list(_POLICIES)


class TokenCheck:
    """The token policy of a run, applied to each pair before it is scored."""

    def __init__(self, name: str) -> None:
        if name not in _POLICIES:
            from corefkit.errors import UsageError

            raise UsageError(f"unknown token policy {name!r}; expected one of "
                             f"{', '.join(_POLICIES)}")
        self.name = name
        self.policy = _POLICIES[name]

    def resolve(self, key: Reduced, response: Reduced) -> tuple[Reduced, list[Repair]]:
        """The response to score against ``key`` and the warnings that go with it."""
        if key.words is None or response.words is None:
            return response, []
        difference = first_difference(key.words, response.words)
        if difference is None:
            return response, []
        return self.policy(difference, key, response)


__all__ = ["LENIENT", "REFUSE", "TOKENS", "TokenCheck", "describe", "document_words",
           "policy_names", "refuse", "register_policy", "score_by_position"]
