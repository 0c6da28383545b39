"""CoNLL-UA exploded (Universal Anaphora): ``spec``, ``reader``, ``writer``, ``checks``."""
