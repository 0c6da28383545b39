"""CoNLL-2012 / OntoNotes coreference column: ``spec``, ``reader``, ``writer``, ``checks``."""
