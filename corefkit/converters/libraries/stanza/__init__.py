"""Stanza coreference output: CoNLL-U with coref_chains= in MISC, and its JSON."""
