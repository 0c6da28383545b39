"""Token forms a format cannot hold: each format's rule, the refusal, the replacement.

A writer writes every token so that its own reader reads the same token back. Where a
format cannot hold a form — white space in the word column of CoNLL-2012 or CoNLL-UA, a TAB
or a line break in CoNLL-U's FORM, an empty form anywhere — the conversion is refused with
the token's place (document, sentence, word, the form escaped), unless the user asks for
``--forms replace``: each character the format cannot hold is then written ``_`` (an empty
form as ``_``), and the loss report counts the changed forms (feature ``tokens``). The rule
of each format is declared in its ``spec.py`` (``FormatSpec.forms``); the registry applies it
before the writer sees the documents (:func:`check_forms`). ``docs/formats/`` says, per
format, what it holds and why.

Lone surrogates (which JSON text can hold, ``"\\ud800"``) cannot be written as UTF-8 by any
writer but jsonlines'; every rule refuses them.
"""

from __future__ import annotations

import copy as _copy
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from corefkit.converters.loss import LossRecord, describe_token, record
from corefkit.errors import LossError, UsageError
from corefkit.model import Document

FORMS_MODES = ("refuse", "replace")
SURROGATE = "\ud800-\udfff"
# characters XML 1.0 cannot hold (MMAX2 words are XML text)
XML_FORBIDDEN = "\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff"


@dataclass(frozen=True)
class FormRule:
    """What a format's word column can hold.

    ``forbidden`` is a character class (without brackets) of characters that cannot be in a
    form, ``why`` says what they would break; ``ends`` refuses white space at either end of
    a form (a form of white space only included), ``doubles`` white space twice in a row (the
    UD validator's level-1 rules for FORM); ``empty`` allows an empty form.
    """

    forbidden: str
    why: str
    ends: bool = False
    doubles: bool = False
    empty: bool = False
    why_ends: str = "which the UD validator refuses"
    # values other than forms that the format writes into a line of their own (comment or
    # header lines), where a line break would end the line: names, speakers, metadata
    line_values: tuple[str, ...] = ()
    # a check of the whole form beyond its characters (text2text: a word its reader would take
    # for a tag or an empty node): why the reader would not read it back (None: it would)
    shape: Callable[[str], str | None] | None = None

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        return re.compile(f"[{self.forbidden}{SURROGATE}]")

    @cached_property
    def refused(self) -> re.Pattern[str]:
        """Matches a non-empty form the rule refuses (one search per form)."""
        ends = r"|^\s|\s$" if self.ends else ""
        doubles = r"|\s\s" if self.doubles else ""
        return re.compile(f"[{self.forbidden}{SURROGATE}]{ends}{doubles}")

    def problem(self, form: str) -> str | None:
        """Why ``form`` cannot be written (None: it can)."""
        if not form:
            return None if self.empty else "an empty form cannot be written"
        found = self.pattern.search(form)
        if found is not None:
            char = found.group()
            if "\ud800" <= char <= "\udfff":
                return "it holds a lone surrogate, which UTF-8 cannot encode"
            return f"it holds {char!r}, {self.why}"
        if self.ends and (form[0].isspace() or form[-1].isspace()):
            return f"it has white space at one end, {self.why_ends}"
        if self.doubles and _DOUBLE_SPACE_RE.search(form):
            return "it has white space twice in a row, which the UD validator refuses"
        return self.shape(form) if self.shape is not None else None

    def refuses(self, form: str) -> bool:
        """Whether ``form`` cannot be written (as :meth:`problem`, faster)."""
        if not form:
            return not self.empty
        return self.refused.search(form) is not None or (
            self.shape is not None and self.shape(form) is not None)

    def replace(self, form: str) -> str:
        """``form`` with every character the format cannot hold as ``_``."""
        if not form:
            return "_"
        form = self.pattern.sub("_", form)
        if self.ends:
            form = _EDGE_RE.sub(lambda m: "_" * len(m.group()), form)
        if self.doubles:
            form = _DOUBLE_SPACE_RE.sub(lambda m: m.group()[0] + "_" * (len(m.group()) - 1), form)
        if self.shape is not None and self.shape(form) is not None:
            # what a reader takes for markup starts with its first character: write that '_'
            form = "_" + form[1:]
            if self.shape(form) is not None:
                form = "_" * len(form)
        return form


_DOUBLE_SPACE_RE = re.compile(r"\s{2,}")
_EDGE_RE = re.compile(r"^\s+|\s+$")


# The rules of the formats (their specs refer to these).
CONLL2012 = FormRule(r"\s", "white space, which ends a column", line_values=("names",))
UA = FormRule(r"\s", "white space, which ends a column", line_values=("names", "speakers"))
CONLLU = FormRule("\t\n\r", "which would break the line into fields or lines", ends=True,
                  doubles=True, line_values=("names", "speakers", "metadata"))
BRAT = FormRule("\\s\ufeff", "white space, at which the brat reader splits the text into "
                               "tokens")
LCC = FormRule("", "", ends=True,
               why_ends="which the LCC reader strips from the mentions over it")
MMAX2 = FormRule(XML_FORBIDDEN, "which XML 1.0 cannot hold", empty=True)
# Maverick's tokens are a JSON list (any string), checked against the text it writes beside
# them, where a byte-order mark is not read as a character (white space nulls the offsets)
MAVERICK = FormRule("\ufeff", "a byte-order mark, which the reader does not read as a "
                               "character of the text", empty=True)
# the tool formats lay a document out as text, a token a row (WebAnno TSV) or a span of the
# text (UIMA CAS): a TAB or line break would end the row or the sentence
WEBANNO_TSV = FormRule("\t\n\r", "which would break the row into fields or lines")
UIMA_CAS = FormRule("\t\n\r" + XML_FORBIDDEN, "which would break the text into lines or "
                    "fields, or which XML 1.0 cannot hold")


def check_forms(doc: Document, rule: FormRule, format: str, mode: str = "refuse",
                words_only: bool = False) -> tuple[Document, list[LossRecord]]:
    """``doc`` as the writer may write it, and the loss records of what was replaced.

    ``mode`` ``refuse`` raises a :class:`LossError` naming the first token ``rule`` refuses
    (and how many there are), or the first value with a line break in it that the format
    writes into a line of its own (``rule.line_values``: the name, speakers, metadata);
    ``replace`` returns a copy with those forms replaced, and line breaks in those values
    written as spaces. ``words_only``: empty nodes are not written (their forms do not matter).
    """
    if mode not in FORMS_MODES:
        raise UsageError(f"unknown --forms mode {mode!r}; expected one of {', '.join(FORMS_MODES)}")
    problem = rule.problem
    refuses = rule.refuses
    bad = [t for t in doc.tokens if not (words_only and t.is_empty) and refuses(t.form)]
    broken = _broken_values(doc, rule.line_values)
    if not bad and not broken:
        return doc, []
    where = f"{doc.file}: " if doc.file else ""
    if mode == "refuse" and bad:
        first = bad[0]
        more = f" ({len(bad)} forms in this document cannot be written)" if len(bad) > 1 else ""
        raise LossError(
            f"{where}document {doc.name!r}, {describe_token(doc, first)}: {format} cannot hold "
            f"this form: {problem(first.form)}{more}; fix the tokens, or pass --forms replace "
            "to write '_' for what the format cannot hold (reported as lost)")
    if mode == "refuse":
        _, what, value = broken[0]
        raise LossError(
            f"{where}document {doc.name!r}: {format} writes {what} on a line of its own, and "
            f"{value!r} holds a line break; fix it, or pass --forms replace to write a space "
            "for it (reported as lost)")
    # a copy that shares the text layer but for the tokens and sentences that change
    copy = doc.copy(text=False)
    tokens = list(doc.tokens)
    for token in bad:
        changed = _copy.copy(token)
        changed.form = rule.replace(token.form)
        tokens[token.index] = changed
    records = record(doc, "tokens", bad, f"changed (characters {format} cannot hold written '_')")
    if broken:
        records += _replace_values(doc, copy, tokens, broken)
    copy.tokens = tokens
    return copy, records


_LINE_BREAK_RE = re.compile("[\n\r]")


def _broken_values(doc: Document, kinds: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """(feature, what, value) of the values of ``kinds`` that hold a line break."""
    found: list[tuple[str, str, str]] = []
    if "names" in kinds:
        for what, value in (("the document name", doc.id), ("the part", doc.part or "")):
            if _LINE_BREAK_RE.search(value):
                found.append(("names", what, value))
    if "speakers" in kinds:
        for sentence in doc.sentences:
            if sentence.speaker and _LINE_BREAK_RE.search(sentence.speaker):
                found.append(("speakers", f"the speaker of sentence {sentence.index + 1}",
                              sentence.speaker))
    if "metadata" in kinds:
        for key, value in doc.meta.items():
            if _LINE_BREAK_RE.search(key) or _LINE_BREAK_RE.search(value):
                found.append(("metadata", f"metadata {key!r}", value))
    return found


def _replace_values(doc: Document, copy: Document, tokens: list[Any],
                    broken: list[tuple[str, str, str]]) -> list[LossRecord]:
    """Line breaks as spaces in ``copy`` (whose token list is ``tokens``); the records."""
    def mend(value: str) -> str:
        return _LINE_BREAK_RE.sub(" ", value)

    records: list[LossRecord] = []
    kinds = {feature for feature, _, _ in broken}
    if "names" in kinds:
        copy.id, copy.part = mend(doc.id), mend(doc.part) if doc.part is not None else None
        records += record(doc, "names", [f"{doc.name!r} as {copy.name!r}"],
                          "changed (a line break written as a space)")
    if "metadata" in kinds:
        keys = [k for k, v in doc.meta.items()
                if _LINE_BREAK_RE.search(k) or _LINE_BREAK_RE.search(v)]
        copy.meta = {mend(k): mend(v) for k, v in doc.meta.items()}
        records += record(doc, "metadata", keys, "changed (a line break written as a space)")
    if "speakers" in kinds:  # the sentences' speakers, and the words' that are the same
        sentences = list(doc.sentences)
        changed = []
        for k, sentence in enumerate(sentences):
            if not (sentence.speaker and _LINE_BREAK_RE.search(sentence.speaker)):
                continue
            sentences[k] = _copy.copy(sentence)
            sentences[k].speaker = mend(sentence.speaker)
            for i in sentence.token_indices():
                token = tokens[i]
                if token.speaker in (None, "", sentence.speaker):
                    changed.append(doc.tokens[i])
                    if token.speaker:
                        tokens[i] = _copy.copy(token)
                        tokens[i].speaker = mend(token.speaker)
        copy.sentences = sentences
        records += record(doc, "speakers", changed, "changed (a line break written as a space)")
    return records
