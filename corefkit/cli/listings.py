"""``corefkit formats`` and ``corefkit passes``: what corefkit can read, write and apply."""

from __future__ import annotations

import click


@click.command()
def formats() -> None:
    """List the formats corefkit reads and writes, with what each can hold."""
    from corefkit.converters.loss import FEATURES
    from corefkit.converters.registry import declared
    from corefkit.converters.registry import formats as all_formats

    for spec in all_formats():
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
            names = [o.cli for o in declared(spec, side)]
            if names:
                click.echo(f"  {what} options: {' '.join(names)}")


@click.command(name="passes")
def list_passes() -> None:
    """List the normalization passes and their options."""
    from corefkit.passes import all_passes

    for spec in all_passes():
        options = ", ".join(f"{k}={v.__name__}" for k, v in spec.options.items())
        click.echo(f"{spec.name}: {spec.description}" + (f" [options: {options}]" if options else ""))
