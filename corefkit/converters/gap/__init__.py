"""GAP (Gendered Ambiguous Pronouns) TSV: ``spec``, ``rows``, ``reader``, ``writer``, ``checks``."""
