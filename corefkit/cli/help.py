"""Command help that starts with examples and lists options in groups.

Every ``corefkit`` command is a :class:`Command`: its ``--help`` shows the one-line summary, then
two to four ``examples`` (command lines that the tests run on the bundled data,
``tests/cli/test_help.py``), then the rest of the description, then the options in the groups
of :data:`GROUPS` — input, scoring, checks, output, engine and, last, the reader and writer
options that the format specs declare, so that the options of eleven formats do not bury the
rest. The documentation's CLI reference is generated from the same :meth:`Command.option_groups`.

Only click is imported here: ``corefkit --help`` and every command's help stay fast.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import click

# group title -> the parameter names that belong to it in every command (a command may move a
# parameter with ``groups=``); reader/writer options (``format_*``) always go to FORMAT_GROUP
INPUT = "Input options"
SCORING = "Scoring options"
CHECKS = "Check options"
ALIGNMENT = "Alignment options"
OUTPUT = "Output options"
ENGINE = "Engine options"
FORMAT_GROUP = "Format options"
OTHER = "Other options"

GROUPS: dict[str, tuple[str, ...]] = {
    INPUT: ("input_format", "key_format", "response_format", "system_format", "keys",
            "responses", "labels", "passes", "lenient", "type_rules", "gold", "gold_format"),
    ALIGNMENT: ("align", "align_boundary", "align_merged"),
    SCORING: ("metrics", "profile", "semantics", "match", "zero_match", "keep_zeros",
              "remove_singletons", "remove_split_antecedents", "only_split_antecedents",
              "discourse_deixis", "lea_split_importance", "dominant_k", "dominant_scheme",
              "dominant_ranking", "by_type", "lweights", "anchors", "type_table", "in_domain",
              "gaps", "score", "permutations", "bootstrap", "seed", "alpha", "strata",
              "buckets"),
    CHECKS: ("level", "exclude", "include_only", "max_errors", "pair", "list_checks"),
    OUTPUT: ("output_format", "output", "per_document", "limit", "explain", "plot", "title",
             "page_tokens", "strict", "overwrite", "ignore", "quiet", "version"),
    ENGINE: ("jobs", "engine", "scheduler"),
    FORMAT_GROUP: (),
    OTHER: (),  # an option no group names lands here (tests/cli/test_help.py refuses it)
}

FORMAT_PREFIX = "format_"
BOTH_SIDES = "format_both__"     # corefkit.cli.options: the plain spelling of a format option
FORMAT_NOTE = ("The reader and writer options of the formats (each says which format it is "
               "for; 'corefkit formats' lists them by format).")
SIDED_NOTE = "Each is also offered for one side only, as --key-NAME and --response-NAME."


def group_of(param: click.Parameter, moved: Mapping[str, str] | None = None) -> str:
    """The title of the group ``param`` is listed in."""
    name = param.name or ""
    if name.startswith(FORMAT_PREFIX):
        return FORMAT_GROUP
    if moved and name in moved:
        return moved[name]
    for title, names in GROUPS.items():
        if name in names:
            return title
    return OTHER


def _example_lines(examples: Sequence[str]) -> list[str]:
    for example in examples:
        if not example.startswith("corefkit "):
            raise ValueError(f"a help example must start with 'corefkit ': {example!r}")
    return list(examples)


class GroupedHelp:
    """What a command and the group share: examples first, options in groups."""

    examples: list[str]
    moved: dict[str, str]

    def _init_help(self, examples: Iterable[str], groups: Mapping[str, Iterable[str]]) -> None:
        self.examples = _example_lines(list(examples))
        self.moved = {name: title for title, names in groups.items() for name in names}

    def option_groups(self, ctx: click.Context) -> list[tuple[str, str, list[click.Parameter]]]:
        """``(title, note, parameters)`` for each non-empty group, in :data:`GROUPS` order;
        hidden options are left out."""
        assert isinstance(self, click.Command)
        found: dict[str, list[click.Parameter]] = {title: [] for title in GROUPS}
        sided = False
        help_option = self.get_help_option(ctx)
        for param in self.get_params(ctx):
            if not isinstance(param, click.Option):
                continue
            if param.hidden:
                sided = sided or (param.name or "").startswith(FORMAT_PREFIX)
                continue
            title = OUTPUT if param is help_option else group_of(param, self.moved)
            found[title].append(param)
        notes = {FORMAT_GROUP: FORMAT_NOTE + (" " + SIDED_NOTE if sided else "")}
        return [(title, notes.get(title, ""), params) for title, params in found.items() if params]

    def help_record(self, param: click.Parameter, ctx: click.Context) -> tuple[str, str] | None:
        """The option's help row; a format option offered for one side too lists those
        spellings with it (``--layer, --key-layer, --response-layer LAYER``), so that the
        three copies take one row."""
        assert isinstance(self, click.Command)
        record = param.get_help_record(ctx)
        name = param.name or ""
        if record is None or not name.startswith(BOTH_SIDES):
            return record
        option = name[len(BOTH_SIDES):]
        sided = [flag for p in self.get_params(ctx) if isinstance(p, click.Option) and p.hidden
                 and p.name in (f"format_key__{option}", f"format_response__{option}")
                 for flag in p.opts]
        if not sided:
            return record
        first, space, rest = record[0].partition(" ")
        return ", ".join([first, *sided]) + space + rest, record[1]

    def summary_and_rest(self) -> tuple[str, str]:
        """The first paragraph of the help text, and the rest."""
        assert isinstance(self, click.Command)
        text = inspect.cleandoc(self.help or "")
        first, _, rest = text.partition("\n\n")
        return " ".join(first.split()), rest.strip()

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        first, rest = self.summary_and_rest()
        if first:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(first)
        if self.examples:
            with formatter.section("Examples"):
                for example in self.examples:
                    formatter.write_text("\b\n" + example)
        if rest:
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(rest)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        for title, note, params in self.option_groups(ctx):
            rows = [row for row in (self.help_record(p, ctx) for p in params) if row is not None]
            with formatter.section(title):
                if note:
                    formatter.write_text(note)
                    formatter.write_paragraph()
                formatter.write_dl(rows)


class Command(GroupedHelp, click.Command):
    """A click command with ``examples=[...]`` and optional ``groups={title: [param, ...]}``."""

    def __init__(self, *args: Any, examples: Iterable[str] = (),
                 groups: Mapping[str, Iterable[str]] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._init_help(examples, groups or {})
