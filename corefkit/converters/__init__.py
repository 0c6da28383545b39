"""Readers and writers, one module per format, behind one registry (see ``registry``)."""
