"""``corefkit formats`` and ``corefkit passes``: what corefkit can read, write and apply."""

from __future__ import annotations

import click

from corefkit.cli.help import Command


@click.command(cls=Command, examples=[
    "corefkit formats",
    "corefkit formats conll2012 corefud",
])
@click.argument("names", nargs=-1, metavar="[FORMAT]...")
def formats(names: tuple[str, ...]) -> None:
    """List the formats corefkit reads and writes, with what each can hold.

    With FORMAT names (or aliases), only those formats.
    """
    from corefkit.converters.loss import FEATURES
    from corefkit.converters.registry import declared, get
    from corefkit.converters.registry import formats as all_formats

    for spec in [get(name) for name in names] or all_formats():
        aliases = f" (aliases: {', '.join(spec.aliases)})" if spec.aliases else ""
        click.echo(f"{spec.name}{aliases}: {spec.description}")
        click.echo(f"  files: {' '.join(spec.patterns)}")
        if not spec.writes:
            click.echo("  read only (corefkit has no writer for it)")
        in_part = {f for f, _ in spec.partial}
        can = [f for f in FEATURES if f in spec.capabilities and f not in in_part]
        cannot = [f for f in FEATURES if f not in spec.capabilities]
        click.echo(f"  holds: {', '.join(can) or '-'}")
        if spec.partial:
            click.echo("  holds in part: " + "; ".join(f"{f} ({what})" for f, what in spec.partial))
        click.echo(f"  cannot hold: {', '.join(cannot) or '-'}")
        for side, what in (("read", "reading"), ("write", "writing")):
            names_ = [o.cli for o in declared(spec, side)]
            if names_:
                click.echo(f"  {what} options: {' '.join(names_)}")


@click.command(name="passes", cls=Command, examples=[
    "corefkit passes",
    "corefkit passes merge-same-span drop-non-referring",
])
@click.argument("names", nargs=-1, metavar="[PASS]...")
def list_passes(names: tuple[str, ...]) -> None:
    """List the normalization passes and their options.

    With PASS names, only those passes.
    """
    from corefkit.passes import all_passes, get_pass

    for spec in [get_pass(name) for name in names] or all_passes():
        options = ", ".join(f"{k}={v.__name__}" for k, v in spec.options.items())
        click.echo(f"{spec.name}: {spec.description}"
                   + (f" [options: {options}]" if options else ""))
