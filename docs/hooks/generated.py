"""The parts of the documentation that are generated from the code, so that they never drift.

A page asks for a part with an HTML comment on a line of its own, ``<!-- corefkit:NAME ARGS -->``
(invisible where the Markdown is read raw); :func:`expand` replaces it with Markdown. The MkDocs
hook (``hooks/mkdocs_hook.py``) calls it for every page, and the test suite calls it too
(``tests/docs/test_site.py``), so a stale part fails the tests as well as ``mkdocs build``.

Parts: ``formats-table``, ``capabilities``, ``format-summary FORMAT``, ``format-options FORMAT``,
``format-losses FORMAT``, ``metrics-table``, ``profiles-table``, ``passes-table``,
``checks-table``, ``cli``. An unknown part or format is an error.
"""

from __future__ import annotations

import html
import inspect
import re
from collections.abc import Callable
from typing import Any

DIRECTIVE = re.compile(r"^<!-- corefkit:(?P<name>[a-z-]+)(?P<args>(?: [^ >]+)*) -->$", re.M)


class GenerationError(Exception):
    """A directive that cannot be expanded (unknown part, unknown format, ...)."""


def cell(text: str) -> str:
    """Text for one cell of a Markdown table."""
    return " ".join(str(text).split()).replace("|", "\\|")


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def plain(text: str) -> str:
    """Text from the code (a help, a description) shown as is: Markdown's marks escaped."""
    text = str(text).replace("\\", "\\\\")
    for mark in "*_[]":
        text = text.replace(mark, "\\" + mark)
    return text.replace("<", "&lt;")


def code(text: str) -> str:
    """``text`` as code; in a table cell a ``|`` must not end the cell, and a backslash before
    it would show inside a code span, so such code is written as HTML."""
    if not text:
        return ""
    if "|" in text:
        return "<code>" + html.escape(text).replace("|", "&#124;") + "</code>"
    return f"`{text}`"


# ---------------------------------------------------------------------------- formats
def _specs() -> list[Any]:
    from corefkit.converters.registry import formats

    return formats()


def _spec(name: str) -> Any:
    from corefkit.converters.registry import ALIASES, FORMATS

    key = ALIASES.get(name.lower())
    if key is None:
        raise GenerationError(f"unknown format {name!r}")
    return FORMATS[key]


def _page(page: str, target: str) -> str:
    """A link from the page ``page`` (a path under docs/) to ``target`` (also under docs/)."""
    depth = page.count("/")
    return "../" * depth + target


def format_page(name: str) -> str:
    """Where a format's page is, under docs/."""
    return f"formats/{name}.md"


def formats_table(page: str) -> str:
    rows = []
    for spec in _specs():
        rows.append([f"[{spec.name}]({_page(page, format_page(spec.name))})",
                     ", ".join(code(a) for a in spec.aliases),
                     " ".join(code(p) for p in spec.patterns), plain(spec.description)])
    return table(["format", "aliases", "files", "what it is"], rows)


def _holds(spec: Any, feature: str) -> str:
    partial = dict(spec.partial)
    if feature in partial:
        return "part"
    return "yes" if feature in spec.capabilities else "–"


def capabilities(page: str) -> str:
    from corefkit.converters.loss import FEATURES

    specs = _specs()
    header = ["feature"] + [f"[{s.name}]({_page(page, format_page(s.name))})" for s in specs]
    rows = [[f"{description} ({code(feature)})"] + [_holds(s, feature) for s in specs]
            for feature, description in FEATURES.items()]
    notes = [f"- **{s.name}**, in part: " + "; ".join(f"{f}: {plain(what)}" for f, what in s.partial)
             for s in specs if s.partial]
    return table(header, rows) + ("\n\n" + "\n".join(notes) if notes else "")


def format_summary(page: str, name: str) -> str:
    from corefkit.converters.loss import FEATURES

    spec = _spec(name)
    partial = dict(spec.partial)
    can = [FEATURES[f] for f in FEATURES if f in spec.capabilities and f not in partial]
    part = [f"{FEATURES[f]} ({plain(what)})" for f, what in spec.partial]
    cannot = [FEATURES[f] for f in FEATURES if f not in spec.capabilities]
    rows = [["name", code(spec.name)],
            ["aliases", ", ".join(code(a) for a in spec.aliases) or "–"],
            ["files", " ".join(code(p) for p in spec.patterns)],
            ["standard input/output (`-`)", "yes" if spec.stream else "no (several files)"],
            ["holds", ", ".join(can) or "–"]]
    if part:
        rows.append(["holds in part", "; ".join(part)])
    rows.append(["cannot hold", ", ".join(cannot) or "–"])
    return table(["", plain(spec.description)], rows)


def _option_rows(options: Any) -> list[list[str]]:
    rows = []
    for option in options:
        if option.kind == "flag":
            value = "(flag)"
        elif option.kind == "choice":
            value = " | ".join(code(c) for c in option.choices)
        else:
            value = option.metavar or option.kind.upper()
        rows.append([code(option.cli), value, code(option.name), plain(option.help)])
    return rows


def format_options(page: str, name: str) -> str:
    from corefkit.converters.registry import declared

    spec = _spec(name)
    parts = []
    for side, what in (("read", "Reader options"), ("write", "Writer options")):
        options = declared(spec, side)
        parts.append(f"**{what}**" + (":" if options else ": none."))
        if options:
            parts.append(table(["command line", "values", "Python keyword", "meaning"],
                               _option_rows(options)))
    return "\n\n".join(parts)


def format_losses(page: str, name: str) -> str:
    """For each other format corefkit writes: what of this format's features it cannot
    hold (formats corefkit only reads are no target)."""
    from corefkit.converters.loss import FEATURES

    spec = _spec(name)
    rows = []
    for other in _specs():
        if other.name == spec.name or not other.writes:
            continue
        lost = [FEATURES[f] for f in FEATURES
                if f in spec.capabilities and f not in other.capabilities]
        partly = [f"{FEATURES[f]} ({plain(what)})" for f, what in other.partial
                  if f in spec.capabilities]
        shown = ", ".join(lost) or "nothing"
        if partly:
            shown += "; in part: " + "; ".join(partly)
        rows.append([f"[{other.name}]({_page(page, format_page(other.name))})", shown])
    return table(["written as", f"loses (of what {spec.name} holds)"], rows)


# ---------------------------------------------------------------------------- scoring
def metrics_table(page: str) -> str:
    import corefkit.scoring.metrics  # noqa: F401 - fills the registry
    from corefkit.scoring.metrics.registry import LABELS, get, known

    rows = []
    for name in known():
        spec = get(name)
        default = ", ".join(LABELS[s] for s in spec.default) or "no (ask with `-m`)"
        rows.append([code(name), plain(spec.description), spec.family,
                     ", ".join(LABELS[s] for s in spec.semantics), default])
    return table(["metric", "what", "family", "semantics", "in `all` for"], rows)


def profiles_table(page: str) -> str:
    from corefkit.scoring.profiles import load_profiles

    profiles = load_profiles()
    rows = []
    for name, profile in profiles.items():
        settings = ", ".join(f"{k}={v}" for k, v in profile.items()
                             if k not in ("description", "official", "metrics", "semantics"))
        rows.append([code(name), profile.get("semantics", ""),
                     plain(profile.get("description", "")), plain(profile.get("official", "")),
                     plain(settings),
                     profile.get("metrics", "all").replace(",", ", ")])
    return table(["profile", "semantics", "what", "official scorer", "settings", "metrics"], rows)


def passes_table(page: str) -> str:
    from corefkit.passes import all_passes

    rows = [[code(p.name), ", ".join(f"{k}={v.__name__}" for k, v in p.options.items()) or "–",
             plain(p.description)] for p in all_passes()]
    return table(["pass", "options", "what it does"], rows)


def checks_table(page: str) -> str:
    from corefkit.validation.catalog import all_checks

    parts = []
    for level, title in ((1, "Level 1: the file can be read"),
                         (2, "Level 2: the format's conventions"),
                         (3, "Level 3: the annotation")):
        rows = [[code(c.id), c.severity, c.format or "all formats", plain(c.explanation)]
                for c in all_checks() if c.level == level]
        parts.append(f"### {title}\n\n" + table(["check", "severity", "formats", "meaning"],
                                                 rows))
    return "\n\n".join(parts)


# ---------------------------------------------------------------------------- command line
def _help_paragraphs(text: str) -> str:
    """Click help text as Markdown paragraphs (``\\b`` blocks as code)."""
    out = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        if paragraph.startswith("\b"):
            out.append("```text\n" + paragraph[1:].strip("\n") + "\n```")
        else:
            out.append(plain(" ".join(paragraph.split())))
    return "\n\n".join(out)


def _command_section(name: str, command: Any, ctx: Any, level: int) -> str:
    from corefkit.cli.help import GroupedHelp

    assert isinstance(command, GroupedHelp)
    summary, rest = command.summary_and_rest()
    usage = " ".join(command.collect_usage_pieces(ctx))
    anchor = "corefkit" + (f"-{name}" if name else "")
    parts = [f"{'#' * level} `corefkit{' ' + name if name else ''}` {{#{anchor}}}",
             plain(summary), f"**Usage:** `corefkit{' ' + name if name else ''} {usage}`"]
    if command.examples:
        parts.append("**Examples:**\n\n```text\n" + "\n".join(command.examples) + "\n```")
    if rest:
        parts.append(_help_paragraphs(rest))
    for title, note, params in command.option_groups(ctx):
        rows = []
        for param in params:
            record = command.help_record(param, ctx)
            if record is not None:
                rows.append([code(record[0]), plain(record[1])])
        parts.append(f"**{title}**" + (f". {plain(note)}" if note else ""))
        parts.append(table(["option", "meaning"], rows))
    return "\n\n".join(parts)


def cli(page: str) -> str:
    import click

    from corefkit.cli.main import COMMANDS, cli as group

    root = click.Context(group, info_name="corefkit")
    parts = [_command_section("", group, root, 2)]
    parts.append(table(["command", "what it does"],
                       [[f"[`{name}`](#corefkit-{name})",
                         plain(group.get_command(root, name).summary_and_rest()[0])]  # type: ignore
                        for name in COMMANDS]))
    for name in COMMANDS:
        command = group.get_command(root, name)
        if command is None:
            raise GenerationError(f"command {name!r} cannot be loaded")
        ctx = click.Context(command, info_name=name, parent=root)
        parts.append(_command_section(name, command, ctx, 2))
    return "\n\n".join(parts)


PARTS: dict[str, Callable[..., str]] = {
    "formats-table": formats_table, "capabilities": capabilities,
    "format-summary": format_summary, "format-options": format_options,
    "format-losses": format_losses, "metrics-table": metrics_table,
    "profiles-table": profiles_table, "passes-table": passes_table,
    "checks-table": checks_table, "cli": cli,
}


def expand(markdown: str, page: str) -> str:
    """``markdown`` of the page ``page`` (its path under docs/) with every directive replaced."""

    def replace(match: re.Match[str]) -> str:
        part = PARTS.get(match["name"])
        if part is None:
            raise GenerationError(f"{page}: unknown part {match['name']!r} "
                                  f"(known: {', '.join(PARTS)})")
        args = match["args"].split()
        try:
            return part(page, *args)
        except TypeError as exc:
            raise GenerationError(f"{page}: {match.group(0)}: {exc}") from exc

    return DIRECTIVE.sub(replace, markdown)
