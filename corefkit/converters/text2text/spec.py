"""The CRAC LLM-track formats (text2text-coref): what the registry and the command line know.

Two formats, one package: ``text2text``, the linear text (``Los|[e1 jugadores de el
Espanyol|[e2],e1]``, one document per line), and ``text2text-json``, its JSON variant
(``doc_id``, ``tokens``, ``clusters_token_offsets``, ``clusters_text_mentions``). Both bring their
own words — what an LLM answered — so scoring aligns them to the key (``--align`` is on by
default); the linear text has no document names, so its documents are paired with the key's by
their text. Detection: a line of words with ``|[e1``-style tags (blind text has none: pass
``--from text2text``), or a JSON list whose objects have ``doc_id`` and ``tokens``.
"""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec, Option
from corefkit.converters.text2text import forms

_TAGGED = re.compile(r"\S\|(?:\[[^\s\[\],|]+\]?|[^\s\[\],|]+\])(?:[,\s]|$)")
_JSON_KEYS = re.compile(r'^\s*\[\s*\{\s*"(doc_id|tokens|clusters_token_offsets)"\s*:')

COMMON_WRITE = (
    Option("text2text_blind", "text2text output: words only, no tags (the input an LLM is "
                              "prompted with; text2text-coref's --blind)."),
    Option("text2text_zeros", "text2text output: write empty nodes as ##FORM words after their "
                              "first enhanced parent (text2text-coref's --zero_mentions)."),
    Option("text2text_bare_empty", "text2text output with --text2text-zeros: empty nodes as "
                                   "bare ## (text2text-coref's --no_empty_node_form)."),
)


def sniff_text(head: str) -> bool:
    """Lines of words, one with coreference tags, none with TAB-separated columns (an LLM's
    answer may hold a stray TAB between words, a CoNLL line holds many)."""
    lines = [line for line in head.lstrip("\ufeff").splitlines()[:20] if line.strip()]
    if not lines or any(line.count("\t") >= 3 for line in lines[:5]):
        return False
    if lines[0].lstrip().startswith(("#", "{", "[", "<")):
        return False
    return any(_TAGGED.search(line) for line in lines)


def sniff_json(head: str) -> bool:
    return _JSON_KEYS.match(head.lstrip("\ufeff")) is not None


TEXT = FormatSpec(
    name="text2text",
    aliases=("crac-llm", "llm-text", "text2text-coref"),
    description="CRAC LLM-track linear text of text2text-coref: one document per line, "
                "word|[e1 ... word|e1] tags, ##form empty nodes; LLM answers read with "
                "reported repairs, paired with the key by content and aligned",
    patterns=("*.t2t.txt", "*.t2t"),
    named_patterns=("*.txt",),
    capabilities=frozenset({"singletons", "cross_sentence", "zeros", "empty_nodes",
                            "mentions_with_empty_nodes"}),
    partial=(("zeros", "with --text2text-zeros only"),
             ("empty_nodes", "with --text2text-zeros only"),
             ("mentions_with_empty_nodes", "with --text2text-zeros only")),
    forms=forms.LINEAR,
    package="corefkit.converters.text2text",
    sniff=sniff_text,
    sniff_priority=90,
    lenient=True,
    own_text=True,
    pairs_by_content=True,
    write_options=(*COMMON_WRITE,
                   Option("text2text_ids", "text2text output: entity ids e1, e2, ... in order "
                                           "of first mention (sequential, default; "
                                           "text2text-coref's --sequential_ids) or the file's "
                                           "own (corpus).", kind="choice",
                          choices=("sequential", "corpus"))),
)

JSON = FormatSpec(
    name="text2text-json",
    aliases=("crac-llm-json",),
    description="CRAC LLM-track JSON of text2text-coref: a list of {doc_id, tokens, "
                "clusters_token_offsets, clusters_text_mentions}; aligned to the key when scored",
    patterns=("*.t2t.json",),
    named_patterns=("*.json",),
    capabilities=frozenset({"singletons", "cross_sentence", "zeros", "empty_nodes",
                            "mentions_with_empty_nodes"}),
    partial=(("zeros", "with --text2text-zeros only"),
             ("empty_nodes", "with --text2text-zeros only"),
             ("mentions_with_empty_nodes", "with --text2text-zeros only")),
    forms=forms.JSON,
    package="corefkit.converters.text2text.json_format",
    sniff=sniff_json,
    sniff_priority=12,
    lenient=True,
    own_text=True,
    write_options=COMMON_WRITE,
)

SPECS = (TEXT, JSON)
SPEC = TEXT
