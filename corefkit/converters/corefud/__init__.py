"""CoNLL-U with CorefUD / UA-compact coreference: ``spec``, ``reader`` (with ``coreference``), ``writer``, the shared MISC grammar ``misc``, ``checks``."""
