"""Stanza's Document.to_dict() JSON with coref_chains per word."""
