"""``python -m corefkit`` runs the command line."""

from corefkit.cli.main import console_main

console_main()
