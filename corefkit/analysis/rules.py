"""The JSON condition language of corefkit's rule tables over a mention's tokens.

Two tables are written in it: the dominant-mention rankings (``corefkit/schemas/dominant/``,
:mod:`corefkit.passes.dominant`) and the mention-type table
(``corefkit/schemas/mention-types.json``, :mod:`corefkit.analysis.mention_types`). This module
holds what they share, so that a condition means the same thing in both:

* a token test ``{"field": F, "match": REGEX}`` (the regex searched in the token's value of F);
* the conditions ``{}`` (always holds), ``{"all": [...]}``, ``{"any": [...]}``, ``{"not": C}``,
  ``{"head": TEST}``, ``{"any_token": TEST}``, ``{"all_tokens": TEST}`` and boolean flags
  ``{"NAME": true|false}`` that compare a property of the mention view;
* a head rule ``{"tree", "fallback", "skip", "stop"}`` for mentions without an annotated head;
* :class:`DocumentContext`, the per-document facts the tests read (token fields, named-entity
  classes, word shapes, dependency heads), and :class:`MentionView`, what a condition sees;
* finding and reading a table file (a shipped table by name, or a path).

Each table keeps its own token fields, flags, extra conditions (``type``, ``attribute``) and
error wording through a :class:`ConditionCompiler` subclass. Errors are :class:`UsageError`
messages that start with where in the file the bad value is.

The predicates of :mod:`corefkit.analysis.predicates` have a language of their own (three-valued
verdicts, whole-value matches, several keys per object, parent/children tests) and do not build
on this one.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from corefkit.converters.jsontext import parse
from corefkit.errors import FormatError, UsageError
from corefkit.model import Document, Mention
from corefkit.model.syntax import span_parents, tree_head

Condition = Callable[["MentionView"], bool]
TokenTest = tuple[str, re.Pattern[str]]
HEAD_FALLBACKS = ("first", "last")


def compile_regex(pattern: Any, where: str) -> re.Pattern[str]:
    """``pattern`` compiled; a UsageError that starts with ``where`` when it is not a valid
    regular expression string."""
    if not isinstance(pattern, str):
        raise UsageError(f"{where}: a pattern must be a string, got {pattern!r}")
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise UsageError(f"{where}: bad regular expression {pattern!r}: {exc}") from None


@dataclass(frozen=True)
class HeadRule:
    """How to find a mention's head when none is annotated: the dependency-tree head when
    ``tree`` and the sentence has a tree, else the ``fallback`` (first or last) of the mention's
    tokens that are not ``skip`` tokens, up to the first ``stop`` token after one kept."""

    fallback: str = "first"                 # "first" or "last" of the kept tokens
    skip: tuple[TokenTest, ...] = ()        # tokens never taken as head (punctuation)
    stop: tuple[TokenTest, ...] = ()        # tokens that end the head's phrase ("of", ",")
    tree: bool = True                       # whether a dependency tree decides first


# ============================================================================ table files
def table_path(name: str, shipped: Path) -> str | None:
    """The file a table name stands for: the shipped table ``shipped`` when it exists, else
    ``name`` itself when it looks like a path (``.json``, a directory part, an existing file)."""
    if shipped.is_file():
        return str(shipped)
    if name.endswith(".json") or os.sep in name or os.path.isfile(name):
        return os.path.abspath(name)
    return None


def read_table(path: str, what: str) -> Any:
    """The JSON value of the table file ``path``. ``what`` (``ranking file``, ...) names the
    kind of table in the errors, which name the file and where its JSON breaks."""
    from corefkit.converters.paths import InputError, read_text

    try:
        # regular files only: a pipe would never end
        return parse(read_text(path), file=path, check="rules.table", hint=f"a {what}")
    except InputError as exc:
        raise UsageError(f"cannot read the {what}: {exc}") from None
    except OSError as exc:
        raise UsageError(f"cannot read the {what} {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: the {what} is not UTF-8") from None
    except FormatError as exc:
        raise UsageError(str(exc)) from None


# ============================================================================ compiling
class ConditionCompiler:
    """Compiles the conditions, token tests and head rules of one kind of table.

    A subclass names the table's token fields, flags and conditions (for the error messages)
    and may add conditions of its own in :meth:`special`.
    """

    token_fields: ClassVar[tuple[str, ...]] = ()
    # {"NAME": true|false} holds when the view's property NAME is that value
    flags: ClassVar[tuple[str, ...]] = ()
    # every condition of the table, in the order the unknown-condition error lists them
    conditions: ClassVar[tuple[str, ...]] = ()
    # how the error for an object with several keys states the rule
    one_key: ClassVar[str] = "exactly one key"
    # whether {"all_tokens": T} holds for a mention without tokens (vacuous truth)
    all_tokens_of_none: ClassVar[bool] = True
    # the keys of a head rule, in the order its error message names them
    head_keys: ClassVar[tuple[str, ...]] = ("fallback", "skip", "stop")

    def special(self, value: dict[str, Any], where: str) -> Condition | None:
        """The table's own condition for a non-empty object ``value``, None if it is not one."""
        return None

    def token_test(self, value: Any, where: str) -> TokenTest:
        if not isinstance(value, dict) or set(value) != {"field", "match"}:
            raise UsageError(f"{where}: a token test is {{\"field\": F, \"match\": REGEX}}, got {value!r}")
        if value["field"] not in self.token_fields:
            raise UsageError(f"{where}: unknown token field {value['field']!r} "
                             f"(fields: {', '.join(self.token_fields)})")
        return value["field"], compile_regex(value["match"], where)

    def token_tests(self, values: Any, where: str) -> tuple[TokenTest, ...]:
        if not isinstance(values, list):
            raise UsageError(f"{where}: expected a list of token tests")
        return tuple(self.token_test(v, where) for v in values)

    def check_head_rule(self, value: Any, where: str) -> None:
        """The checks of :meth:`head_rule` that need no token test compiled."""
        if not isinstance(value, dict) or set(value) - set(self.head_keys):
            quoted = [f"'{key}'" for key in self.head_keys]
            raise UsageError(f"{where}: 'head' takes {', '.join(quoted[:-1])} and {quoted[-1]}")
        fallback = value.get("fallback", "first")
        if fallback not in HEAD_FALLBACKS:
            raise UsageError(f"{where}: head 'fallback' must be 'first' or 'last', not {fallback!r}")
        if not isinstance(value.get("tree", True), bool):
            raise UsageError(f"{where}: head 'tree' must be true or false")

    def head_rule(self, value: Any, where: str) -> HeadRule:
        self.check_head_rule(value, where)
        return HeadRule(value.get("fallback", "first"),
                        self.token_tests(value.get("skip", []), f"{where}: head skip"),
                        self.token_tests(value.get("stop", []), f"{where}: head stop"),
                        value.get("tree", True))

    def condition(self, value: Any, where: str) -> Condition:
        """Compile one condition object into a predicate over a :class:`MentionView`."""
        if not isinstance(value, dict):
            raise UsageError(f"{where}: a condition is a JSON object, got {value!r}")
        if not value:
            return lambda view: True
        own = self.special(value, where)
        if own is not None:
            return own
        if len(value) != 1:
            raise UsageError(f"{where}: a condition has {self.one_key}, got {', '.join(value)}")
        (key, arg), = value.items()
        if key in ("all", "any"):
            if not isinstance(arg, list):
                raise UsageError(f"{where}: '{key}' takes a list of conditions")
            parts = [self.condition(c, where) for c in arg]
            if key == "all":
                return lambda view: all(p(view) for p in parts)
            return lambda view: any(p(view) for p in parts)
        if key == "not":
            inner = self.condition(arg, where)
            return lambda view: not inner(view)
        if key in ("head", "any_token", "all_tokens"):
            field, regex = self.token_test(arg, where)
            if key == "head":
                return lambda view: view.test(view.head, field, regex)
            if key == "any_token":
                return lambda view: any(view.test(t, field, regex) for t in view.mention.tokens)
            if self.all_tokens_of_none:
                return lambda view: all(view.test(t, field, regex) for t in view.mention.tokens)
            return lambda view: bool(view.mention.tokens) and all(
                view.test(t, field, regex) for t in view.mention.tokens)
        if key in self.flags:
            if not isinstance(arg, bool):
                raise UsageError(f"{where}: '{key}' takes true or false")
            return lambda view: getattr(view, key) is arg
        raise UsageError(f"{where}: unknown condition {key!r} "
                         f"(conditions: {', '.join(self.conditions)})")


# ============================================================================ document facts
class DocumentContext:
    """Per-document facts that token tests and head rules read, computed on demand and kept:
    sentence word-id maps (for dependency heads) and named-entity classes."""

    # the values of a token column that mean "not annotated"
    missing: ClassVar[tuple[str | None, ...]] = (None, "_")
    # whether the form is read as it stands (a form "_" is then a word, not a gap)
    form_as_is: ClassVar[bool] = False

    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self._parents: dict[int, dict[int, int | None]] = {}  # sentence -> parent map
        self._ner: dict[int, str] | None = None

    def field(self, index: int, name: str) -> str | None:
        """Token ``index``'s value of a token-test field; None when it is not annotated."""
        token = self.doc.tokens[index]
        if name == "shape":
            return word_shape(token.form)
        if name == "ner":
            return self.ner_label(index)
        if name == "form" and self.form_as_is:
            return token.form
        value = getattr(token, name)
        return None if value in self.missing else value

    def ner_label(self, index: int) -> str | None:
        if self._ner is None:
            self._ner = named_entity_classes(self.doc)
        return self._ner.get(index)

    def matches(self, index: int, tests: Iterable[TokenTest]) -> bool:
        """Whether one of the token tests holds for token ``index``."""
        for name, regex in tests:
            value = self.field(index, name)
            if value is not None and regex.search(value):
                return True
        return False

    def head(self, mention: Mention, rule: HeadRule) -> int | None:
        """Annotated head, else the tree head (if the rule allows), else the rule's fallback."""
        if mention.head is not None:
            return mention.head
        if not mention.tokens:
            return None
        if rule.tree:
            found = self.tree_head(mention)
            if found is not None:
                return found
        kept: list[int] = []
        for index in mention.tokens:
            if kept and self.matches(index, rule.stop):
                break
            if self.matches(index, rule.skip):
                continue
            kept.append(index)
        if not kept:
            kept = list(mention.tokens)
        return kept[-1] if rule.fallback == "last" else kept[0]

    def tree_head(self, mention: Mention) -> int | None:
        """The mention word whose parent lies outside the mention (nearest the root, then
        leftmost; :func:`corefkit.model.syntax.tree_head`); None when the sentence has no
        tree. A one-word mention needs a tree too, and a word without an id (None or ``_``)
        counts as having none: the table's fallback then decides."""
        tokens = self.doc.tokens
        words = [i for i in mention.tokens if not tokens[i].is_empty]
        if any(tokens[i].id in (None, "_") for i in words):
            return None
        parents = span_parents(self.doc, words, self._parents)
        return tree_head(self.doc, mention.tokens, parents=parents, words_only=True)


class MentionView:
    """What a table's conditions look at for one mention; the head is found once, on demand."""

    __slots__ = ("_head", "context", "mention", "rule")

    def __init__(self, context: DocumentContext, mention: Mention, rule: HeadRule) -> None:
        self.context = context
        self.mention = mention
        self.rule = rule
        self._head: int | None | bool = False  # False: not looked for yet

    @property
    def head(self) -> int | None:
        if self._head is False:
            self._head = self.context.head(self.mention, self.rule)
        return self._head

    def test(self, index: int | None, field: str, regex: re.Pattern[str]) -> bool:
        if index is None:
            return False
        value = self.context.field(index, field)
        return value is not None and regex.search(value) is not None


def word_shape(form: str) -> str:
    """``EU`` → ``XX``, ``U.S.`` → ``X.X.``, ``Obama`` → ``Xxxxx``, ``1990`` → ``dddd``."""
    return "".join("X" if c.isupper() else "x" if c.isalpha() else "d" if c.isdigit() else c
                   for c in form)


def named_entity_classes(doc: Document) -> dict[int, str]:
    """Named-entity class per token index: ``token.attrs["ner"]`` (LCC NER layer), else the
    OntoNotes NE column of CoNLL-2012 files (column 11 of the 12+N layout: ``(PERSON*``,
    ``*``, ``*)``, ``(GPE)``)."""
    labels: dict[int, str] = {}
    current: str | None = None
    for token in doc.tokens:
        if "ner" in token.attrs:
            labels[token.index] = str(token.attrs["ner"])
            continue
        columns = token.attrs.get("conll_columns")
        if not columns or len(columns) < 11:
            current = None
            continue
        cell = columns[10]
        if cell.startswith("("):
            label = cell[1:].rstrip(")").rstrip("*")
            labels[token.index] = label
            current = None if cell.endswith(")") else label
        elif current is not None:
            labels[token.index] = current
            if cell.endswith(")"):
                current = None
    return labels
