"""Maverick's ``predict()`` output as jsonlines: what the registry and the command line know.

Maverick (github SapienzaNLP/maverick-coref, README "Inference", HEAD 0dc6554 of 2025-06-10)
returns a dictionary per document: ``tokens``, ``clusters_token_offsets`` (``(start, end)``
token offsets, end **inclusive**), ``clusters_char_offsets`` (for plain-text input; end
inclusive too) and the mention strings (``clusters_token_text`` or, in the README's first
example, ``clusters_text_mentions``; ``clusters_char_text``). A file of them is one
``json.dumps`` of such a dictionary a line. Read as this format (``--from maverick``), documents
bring their own text; never detected from the content (such a file is the jsonlines family's
``maverick`` variant).
"""

from __future__ import annotations

from corefkit.converters import forms
from corefkit.converters.base import DISCONTINUOUS, FormatSpec

SPEC = FormatSpec(
    name="maverick",
    aliases=("maverick-coref",),
    description="Maverick predict() dictionaries as jsonlines: tokens, clusters_token_offsets "
                "and clusters_char_offsets (end inclusive); aligned to the key when scored",
    patterns=("*.maverick.jsonl", "*.maverick.jsonlines"),
    named_patterns=("*.jsonlines", "*.jsonl", "*.json"),
    capabilities=frozenset({"singletons", "crossing_same_entity", "cross_sentence", "parts",
                            "metadata"}),
    forms=forms.MAVERICK,
    package="corefkit.converters.libraries.maverick",
    sniff=lambda head: False,
    sniff_priority=95,
    own_text=True,
    pairs_by_content=True,
    write_options=(DISCONTINUOUS,),
)
