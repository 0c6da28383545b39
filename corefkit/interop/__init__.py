"""Bridges between corefkit's document model and other libraries' models, imported on demand.

Nothing here is imported by ``corefkit`` itself: each bridge imports its library inside its
functions, so the library stays an optional extra (``pip install corefkit[udapi]``).
"""
