"""Stanza's coreference output: what the registry and the command line know.

Two formats, one package, both as Stanza writes a document its ``coref`` processor annotated
(stanfordnlp.github.io/stanza/coref.html, docs at gh-pages e9fdcc2 of 2025-11-20; Stanza's
``stanza/models/common/doc.py`` and ``coref_chain.py`` at 1f4bfdd of 2026-07-14):

* ``stanza`` — ``"{:C}".format(doc)``: CoNLL-U whose MISC carries ``start_char``/``end_char``
  and ``coref_chains=`` attachments (``start-repr-id0``, ``end-repr-id0``, ``unit-id0``,
  ``middle-id0``, comma-separated when a word is in several mentions). Detected by a MISC with
  ``coref_chains=``.
* ``stanza-json`` — ``doc.to_dict()`` (what ``print(doc)`` shows): a list of sentences, each a
  list of word objects with ``id``, ``text``, ``start_char``, ``end_char`` and ``coref_chains``
  (``index``, ``representative_text``, ``is_start``, ``is_end``, ``is_representative``); or
  ``doc.to_serialized()`` (Stanza 1.11+), ``{"text", "sentences", "comments"}`` around it.

No real output file of Stanza's coref is public; both readers follow the documentation and
the source above exactly. corefkit reads both (no writer: Stanza reads neither back as
coreference). The documents bring their own text: scoring aligns them to the key.
"""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec

_MISC_CHAINS = re.compile(r"^[^#\n][^\n]*\t(?:[^\t\n]*\|)?coref_chains=(?:unit|start|middle|end)-",
                          re.M)
_JSON = re.compile(r'^\s*\[\s*\[\s*\{\s*"id"\s*:')
_SERIALIZED = re.compile(r'^\s*\{\s*"text"\s*:.*?"sentences"\s*:\s*\[\s*\[\s*\{\s*"id"', re.S)


def sniff_conllu(head: str) -> bool:
    return _MISC_CHAINS.search(head) is not None


def sniff_json(head: str) -> bool:
    text = head.lstrip("\ufeff")
    return _JSON.match(text) is not None or _SERIALIZED.match(text) is not None


CONLLU = FormatSpec(
    name="stanza",
    aliases=("stanza-conllu",),
    description="Stanza CoNLL-U with coref_chains= attachments and start_char/end_char in "
                "MISC; aligned to the key when scored",
    patterns=("*.stanza.conllu",),
    named_patterns=("*.conllu", "*.conll", "*.txt"),
    capabilities=frozenset({"singletons", "zeros", "empty_nodes"}),
    package="corefkit.converters.libraries.stanza",
    sniff=sniff_conllu,
    sniff_priority=35,   # before CoNLL-U (corefud), which it is
    own_text=True,
    pairs_by_content=True,
    writes=False,
    writes_any_corpus=False,
)

JSON = FormatSpec(
    name="stanza-json",
    aliases=(),
    description="Stanza Document.to_dict() JSON: sentences of words with coref_chains; "
                "aligned to the key when scored",
    patterns=("*.stanza.json",),
    named_patterns=("*.json",),
    capabilities=frozenset({"singletons", "zeros", "empty_nodes"}),
    package="corefkit.converters.libraries.stanza.json_format",
    sniff=sniff_json,
    sniff_priority=13,
    own_text=True,
    pairs_by_content=True,
    writes=False,
    writes_any_corpus=False,
)

SPECS = (CONLLU, JSON)
SPEC = CONLLU
