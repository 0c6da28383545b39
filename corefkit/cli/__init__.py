"""The ``corefkit`` command line (``corefkit.cli.main``)."""
