"""Whose scoring rules a run follows: the reference scorer's, the CorefUD scorer's or the UA
scorer's. Each semantics reduces a document, aligns key and response mentions and adjusts
counts behind one protocol."""
