"""Key/response alignment: the checks that make two files scorable against each other.

Scorers pair documents by (name, part) and mentions by token position, so a key and a
response must hold the same documents, the same sentences and the same words. Each side is
validated as usual; then, per document pair, the first mismatch is named: a document only
one side has, a sentence id that differs, a word whose form differs (empty nodes are not
compared: zeros are annotation, not text).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from corefkit.checks.plugins import FormatPlugin, Incident
from corefkit.checks.registry import ERROR, WARNING, Check, Finding, register
from corefkit.errors import counted
from corefkit.model import IDENTITY, Document
from corefkit.validation.engine import Run, ValidationResult, iterate

DOCUMENTS = "pair.documents"
SENTENCES = "pair.sentences"
SENTENCE_BOUNDARIES = "pair.sentence-boundaries"
TOKENS = "pair.tokens"
EMPTY_KEY = "pair.empty-key"
EMPTY_RESPONSE = "pair.empty-response"

register(
    Check(DOCUMENTS, 1, ERROR,
          "key and response do not hold the same documents (paired by name and part): key "
          "documents the response lacks count as entirely missed, response-only documents are "
          "ignored", origin="pair"),
    Check(SENTENCES, 1, ERROR,
          "a key document and its response have different sentence ids; CoNLL-U scoring needs "
          "the same sentences on both sides", origin="pair"),
    Check(SENTENCE_BOUNDARIES, 1, WARNING,
          "a key document and its response (without sentence ids) split their words into "
          "sentences differently; token-based scorers do not mind, sentence-based ones do",
          origin="pair"),
    Check(TOKENS, 1, ERROR,
          "a key document and its response have different words (forms compared in order, "
          "empty nodes excluded): mentions are paired by position, so they cannot be aligned",
          origin="pair"),
    Check(EMPTY_KEY, 1, ERROR,
          "the key holds no mention at all: every recall is 0/0 and every score 0 (a blind "
          "file without coreference annotation, or the wrong layer?)", origin="pair"),
    Check(EMPTY_RESPONSE, 1, WARNING,
          "the response holds no mention at all: every precision is 0/0 and every score 0 (the "
          "system predicted nothing, or its clusters were not read)", origin="pair"),
)

NO_PLUGIN = FormatPlugin("")


@dataclass
class _Side:
    """What the comparison needs of one document, without keeping the document."""

    name: str
    file: str
    line: int | None
    plugin: FormatPlugin
    words: list[str]
    word_sentence: list[int]          # sentence index of each word
    sentence_ids: list[str | None]
    sentence_words: list[int]         # words per sentence
    sentence_lines: list[int | None]  # first line of each sentence, where the reader knows it
    words_known: bool
    mentions: int = 0                 # identity mentions

    @classmethod
    def of(cls, doc: Document, plugin: FormatPlugin, file: str) -> _Side:
        words: list[str] = []
        word_sentence: list[int] = []
        per_sentence = [0] * len(doc.sentences)
        for token in doc.tokens:
            if token.is_empty:
                continue
            words.append(token.form)
            word_sentence.append(token.sentence)
            if 0 <= token.sentence < len(per_sentence):
                per_sentence[token.sentence] += 1
        known = plugin.words_known(doc) if plugin.words_known is not None else True
        lines = [s.attrs.get("line") if isinstance(s.attrs.get("line"), int) else None
                 for s in doc.sentences]
        mentions = sum(doc.size(e) for e in doc.entities_in(IDENTITY))
        return cls(doc.name, doc.file or file, doc.line, plugin, words, word_sentence,
                   [s.sent_id for s in doc.sentences], per_sentence, lines, known, mentions)

    def sentence_label(self, index: int) -> str | None:
        if 0 <= index < len(self.sentence_ids):
            return self.sentence_ids[index] or str(index + 1)
        return None

    def sentence_place(self, index: int) -> int | None:
        """The line where sentence ``index`` starts, or the document's line."""
        if 0 <= index < len(self.sentence_lines) and self.sentence_lines[index] is not None:
            return self.sentence_lines[index]
        ordinal = sum(self.sentence_words[:index])
        if 0 <= index < len(self.sentence_words) and ordinal < len(self.words):
            return self.word_place(ordinal)[0]
        return self.line

    def word_place(self, ordinal: int) -> tuple[int | None, str | None]:
        """(line, sentence) of the ``ordinal``-th word, or of the document when unknown."""
        ordinal = min(ordinal, len(self.words) - 1)  # past the end: the last word
        line = None
        if self.plugin.token_line is not None and 0 <= ordinal < len(self.words):
            line = self.plugin.token_line(self.file, self.line, ordinal)
        sentence = self.sentence_label(self.word_sentence[ordinal]) \
            if 0 <= ordinal < len(self.words) else None
        return (line if line is not None else self.line), sentence


def validate_pair(
    key: Any,
    response: Any,
    format: str | None = None,
    level: int = 3,
    include_only: Iterable[str] = (),
    exclude: Iterable[str] = (),
    max_errors: int | None = None,
    *,
    key_options: dict[str, Any] | None = None,
    response_options: dict[str, Any] | None = None,
) -> ValidationResult:
    """Validate a key and a response (paths or documents) and check that they align.

    The findings of both sides come first, then the alignment findings (``pair.*``).
    ``key_options`` / ``response_options`` are reader options for each side (e.g. the LCC
    ``layer``: one LCC file read twice is a key/response pair).
    """
    run = Run(format=format, level=level, include_only=include_only, exclude=exclude,
              max_errors=max_errors)
    for _ in iterate_pair(run, key, response, key_options, response_options):
        pass
    return run.result


def iterate_pair(run: Run, key: Any, response: Any, key_options: dict[str, Any] | None = None,
                 response_options: dict[str, Any] | None = None) -> Iterator[Finding]:
    """The findings of a pair run as they are found (the CLI prints them so)."""
    sides: list[list[_Side]] = [[], []]
    for index, (path, options) in enumerate(((key, key_options), (response, response_options))):
        run.read_options = dict(options or {})

        def observe(doc: Document, plugin: FormatPlugin, file: str, index: int = index) -> None:
            sides[index].append(_Side.of(doc, plugin, file))

        yield from iterate(run, path, observe)
        if run.stopped:
            return
    found = []
    for incident in compare(sides[0], sides[1]):
        finding = run.make_finding(incident, NO_PLUGIN, None, incident.file or "")
        if finding is not None:
            found.append(finding)
    yield from run.emit(found)


def compare(keys: list[_Side], responses: list[_Side]) -> list[Incident]:
    """The alignment incidents of two lists of document summaries."""
    incidents: list[Incident] = []
    key_by: dict[str, _Side] = {}
    for side in keys:
        key_by.setdefault(side.name, side)
    response_by: dict[str, _Side] = {}
    for side in responses:
        response_by.setdefault(side.name, side)
    missing = [s for s in key_by.values() if s.name not in response_by]
    extra = [s for s in response_by.values() if s.name not in key_by]
    if missing:
        more = f"; {len(missing) - 1} more key documents are missing too" if len(missing) > 1 else ""
        first = missing[0]
        incidents.append(Incident(DOCUMENTS, f"key document {first.name} is not in the "
                                  f"response{more}", first.line, None, first.file, first.name))
    if extra:
        more = f"; {len(extra) - 1} more response documents are not in the key either" \
            if len(extra) > 1 else ""
        first = extra[0]
        incidents.append(Incident(DOCUMENTS, f"response document {first.name} is not in the "
                                  f"key{more}", first.line, None, first.file, first.name))
    for name, key in key_by.items():
        response = response_by.get(name)
        if response is not None:
            incidents.extend(_sentences(key, response))
            incidents.extend(_words(key, response))
    for sides, check, what in ((keys, EMPTY_KEY, "key"), (responses, EMPTY_RESPONSE, "response")):
        if sides and not any(side.mentions for side in sides):
            incidents.append(Incident(check, f"the {what} holds no mention in any of its "
                                      f"{len(sides)} document{'' if len(sides) == 1 else 's'}: "
                                      "every score would be 0", sides[0].line, None,
                                      sides[0].file, sides[0].name))
    return incidents


def _sentences(key: _Side, response: _Side) -> list[Incident]:
    def at(index: int, check: str, message: str) -> Incident:
        return Incident(check, message, response.sentence_place(index),
                        response.sentence_label(index), response.file, response.name)

    with_ids = all(key.sentence_ids) and all(response.sentence_ids) and \
        key.sentence_ids and response.sentence_ids
    if with_ids:
        for i, (a, b) in enumerate(zip(key.sentence_ids, response.sentence_ids)):
            if a != b:
                return [at(i, SENTENCES, f"sentence {i + 1} is {a!r} in the key but {b!r} in "
                                         "the response")]
        n, m = len(key.sentence_ids), len(response.sentence_ids)
        if n != m:
            missing = key.sentence_ids[m] if n > m else response.sentence_ids[n]
            side = "response" if n > m else "key"
            return [at(min(n, m), SENTENCES, f"the key has {counted(n, 'sentence')} and the "
                                             f"response {m}; "
                                             f"the first the {side} lacks is {missing!r}")]
        return []
    if len(key.words) != len(response.words):
        return []  # the word comparison names the first difference
    for i, (k, r) in enumerate(zip(key.sentence_words, response.sentence_words)):
        if k != r:
            return [at(i, SENTENCE_BOUNDARIES, f"sentence {i + 1} has {counted(k, 'word')} in the "
                                               f"key and {r} in the response")]
    n, m = len(key.sentence_words), len(response.sentence_words)
    if n != m:
        return [at(min(n, m), SENTENCE_BOUNDARIES,
                   f"the key has {counted(n, 'sentence')} and the response {m}")]
    return []


def _words(key: _Side, response: _Side) -> list[Incident]:
    def at(ordinal: int, message: str) -> Incident:
        line, sentence = response.word_place(ordinal)
        return Incident(TOKENS, message, line, sentence, response.file, response.name)

    if key.words_known and response.words_known:
        for i, (a, b) in enumerate(zip(key.words, response.words)):
            if a != b:
                return [at(i, f"word {i + 1} is {a!r} in the key but {b!r} in the response")]
    n, m = len(key.words), len(response.words)
    if n != m:
        if n > m:
            what = f"; the response ends before key word {m + 1}" + (
                f" ({key.words[m]!r})" if key.words_known else "")
        else:
            what = f"; the response has extra words from word {n + 1}" + (
                f" ({response.words[n]!r})" if response.words_known else "")
        return [at(min(n, m), f"the key has {counted(n, 'word')} and the response {m}{what}")]
    return []
