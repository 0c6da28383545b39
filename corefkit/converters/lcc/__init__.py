"""Lithuanian LCC annotator JSON: ``spec``, ``reader``, ``writer``, ``checks``."""
