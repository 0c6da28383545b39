"""Command-line options every command shares, built once: format options from the format specs,
the aggregated warning display and the progress display.

Reader and writer options are declared once, in each format's ``spec.py``
(:class:`corefkit.converters.base.Option`); :func:`format_options` turns them into click options
so that every command offers the same spelling and help, and :func:`given` collects what the user
typed. Where an option goes (which formats, which side) is decided by the registry and
``corefkit.convert``, never here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

def _param(name: str, side: str) -> str:
    """The click parameter of a format option for one side (``both``, ``key``, ...)."""
    return f"format_{side}__{name}"


def format_options(*kinds: str, sides: tuple[str, ...] = ("both",)) -> Callable[[F], F]:
    """Add the reader (``"read"``) and/or writer (``"write"``) options of every format.

    Each option name is offered once (an LCC ``--layer`` serves reading and writing). With
    ``sides`` such as ``("both", "key", "response")`` every option is offered plain (both
    sides) and for one side (``--key-layer``).
    """
    from corefkit.converters.registry import all_options

    options: dict[str, Any] = {}
    for kind in kinds:
        for option in all_options(kind):
            options.setdefault(option.name, option)

    def decorate(function: F) -> F:
        for side in reversed(sides):
            for option in reversed(list(options.values())):
                plain = side == "both"
                flag = option.cli if plain else f"--{side}-{option.cli[2:]}"
                kwargs: dict[str, Any] = {"help": option.help + ("" if plain else f" ({side} only)")}
                if option.kind == "flag":
                    kwargs["is_flag"] = True
                    kwargs["default"] = None
                elif option.kind == "choice":
                    kwargs["type"] = click.Choice(option.choices)
                else:
                    kwargs["metavar"] = option.metavar or option.kind.upper()
                function = click.option(flag, _param(option.name, side), **kwargs)(function)
        return function

    return decorate


def given(params: dict[str, Any], side: str = "both") -> dict[str, Any]:
    """The format options the user gave for ``side``, as reader/writer keyword arguments.

    Removes them from ``params`` (the command's keyword arguments), so that the rest can be
    passed on by name.
    """
    prefix = _param("", side)
    chosen: dict[str, Any] = {}
    for param in [p for p in params if p.startswith(prefix)]:
        value = params.pop(param)
        if value is not None and value is not False:
            chosen[param[len(prefix):]] = value
    return chosen
