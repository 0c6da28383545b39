"""spaCy's coreference span groups as ``Doc.to_json()`` writes them: registry and options.

spacy-experimental's coreference components (github explosion/spacy-experimental, HEAD
66c4be5 of 2023-11-03; spacy.io/api/coref) put each predicted cluster in a span group of its
own, ``doc.spans["coref_clusters_1"]``, ``…_2``, … (the ``span_resolver``; the ``coref``
component's one-word heads go to ``coref_head_clusters_N``). ``Doc.to_json()`` (spaCy 3.x)
writes a document as ``{"text", "tokens": [{"id", "start", "end", …}], "sents", "spans":
{group: [{"start", "end", "label", "kb_id"}]}}``, character offsets end exclusive; a file holds
one such object a line. No real coreference model output of this kind is public: the reader
follows spaCy's documented layout and ``Doc.to_json``, and is tested on files that spaCy itself
writes. Detected by a first line with ``text``, ``tokens`` objects and ``spans``.
"""

from __future__ import annotations

import re

from corefkit.converters.base import DISCONTINUOUS, FormatSpec

_FIRST = re.compile(r'^\s*\{\s*"text"\s*:')
_TOKEN = re.compile(r'"tokens"\s*:\s*\[\s*\{\s*"id"\s*:\s*0\s*,\s*"start"\s*:')


def sniff(head: str) -> bool:
    first = head.lstrip("\ufeff").split("\n", 1)[0]
    return bool(_FIRST.match(first)) and _TOKEN.search(first) is not None \
        and '"spans"' in first


SPEC = FormatSpec(
    name="spacy",
    aliases=("spacy-json", "spacy-coref"),
    description="spaCy Doc.to_json() lines with coreference span groups coref_clusters_N "
                "(character offsets); aligned to the key when scored",
    patterns=("*.spacy.jsonl", "*.spacy.jsonlines"),
    named_patterns=("*.jsonlines", "*.jsonl", "*.json"),
    capabilities=frozenset({"singletons", "crossing_same_entity", "cross_sentence", "heads",
                            "metadata", "names", "parts", "lemmas", "pos", "morphology",
                            "syntax"}),
    partial=(("heads", "where every mention of a cluster has a one-word head inside it"),
             ("syntax", "where every word's head lies in its sentence (else no head is "
                        "written, only the relation)"),),
    package="corefkit.converters.libraries.spacy",
    sniff=sniff,
    sniff_priority=14,   # before jsonlines, which takes a "tokens" key for Maverick's
    own_text=True,
    pairs_by_content=True,
    write_options=(DISCONTINUOUS,),
)
