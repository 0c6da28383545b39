"""A format package made for a test: a writer without discontinuous mentions or options."""
