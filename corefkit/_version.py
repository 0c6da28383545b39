"""The version of corefkit (one place: the package, the reports and the build read it)."""

__version__ = "0.1.0"
