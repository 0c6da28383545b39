"""CoNLL-U with CorefUD / UA-compact coreference: ``spec``, ``reader``, ``writer``, ``checks``."""
