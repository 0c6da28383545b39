"""The jsonlines family: what the registry and the command line know.

One JSON object per line, one document per object. The variant is told by the keys of the
first record (:func:`detect_variant`); ``--jsonlines-variant`` overrides it:

* ``e2e`` — e2e-coref word level: ``doc_key``, ``sentences`` (token lists), ``speakers``,
  ``clusters`` of ``[start, end]`` inclusive offsets over the whole document;
* ``dygie`` — DyGIE++: the same plus ``ner`` and ``relations`` per sentence;
* ``minimized`` — SpanBERT / e2e "minimized" subword segments (``[CLS]`` … ``[SEP]``) with
  ``subtoken_map`` and ``sentence_map``; mapped back to words;
* ``wl-coref`` — word-level coreference: ``document_id``, ``cased_words``, ``sent_id``, …,
  ``span_clusters`` (end exclusive) and ``word_clusters`` (head words);
* ``preco`` — ``id``, ``sentences``, ``mention_clusters`` of ``[sentence, start, end)``;
* ``fastcoref`` — ``text`` with ``clusters`` of character offsets (end exclusive);
* ``maverick`` — ``tokens`` with ``clusters_token_offsets`` (inclusive);
* ``coref-data`` — the unified format of coref-data: ``sentences`` of ``{tokens: [...]}``
  objects and ``coref_chains`` of ``[sentence, start, end]`` (inclusive).
"""

from __future__ import annotations

import json
import re
from typing import Any

from corefkit.converters.base import DISCONTINUOUS, FormatSpec, Option

VARIANTS = ("e2e", "dygie", "minimized", "wl-coref", "preco", "fastcoref", "maverick",
            "coref-data")
SHAPES = ("e2e", "wl-coref", "preco", "maverick", "coref-data", "fastcoref")
DOC_KEY_MODES = ("name-part", "whole")

# the first key of a record whose line is longer than the sniffed head
_FIRST_KEY_RE = re.compile(
    r'^\{\s*"(doc_key|document_id|sentences|clusters|cased_words|mention_clusters|'
    r'coref_chains|tokens|text|id)"\s*:')


def detect_variant(record: dict[str, Any]) -> str | None:
    """The variant a record's keys say, or None when they say none."""
    keys = record.keys()
    if "annotationLayers" in keys:  # LCC annotator JSON, never ours
        return None
    if "subtoken_map" in keys or "sentence_map" in keys:
        return "minimized"
    if "cased_words" in keys:
        return "wl-coref"
    if "mention_clusters" in keys:
        return "preco"
    sentences = record.get("sentences")
    if "coref_chains" in keys or (isinstance(sentences, list) and sentences
                                  and isinstance(sentences[0], dict)):
        return "coref-data"
    if "clusters_token_offsets" in keys or ("tokens" in keys and "sentences" not in keys):
        return "maverick"
    if isinstance(record.get("text"), str) and "sentences" not in keys:
        return "fastcoref"
    if isinstance(sentences, list):
        return "dygie" if keys & {"relations", "events", "dataset"} else "e2e"
    return None


def sniff(head: str) -> bool:
    """A first line that is a JSON object of a known variant (or, when the first line is
    longer than the head, that starts like one)."""
    text = head.lstrip("\ufeff \t\r\n")
    if not text.startswith("{"):
        return False
    first = text.split("\n", 1)[0].strip()
    try:
        record = json.loads(first)
    except (ValueError, RecursionError):
        return _FIRST_KEY_RE.match(first) is not None and '"annotationLayers"' not in first
    return isinstance(record, dict) and detect_variant(record) is not None


SPEC = FormatSpec(
    name="jsonlines",
    aliases=("jsonl", "e2e", "e2e-coref", "json-lines"),
    description="jsonlines of neural coreference systems, one document per line: e2e-coref "
                "(doc_key/sentences/clusters), SpanBERT minimized subwords, wl-coref, DyGIE++, "
                "PreCo, fastcoref (character offsets), Maverick, coref-data",
    patterns=("*.jsonlines", "*.jsonl"),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "lemmas", "pos", "morphology",
                            "syntax", "enhanced_deps", "misc", "singletons",
                            "crossing_same_entity", "cross_sentence", "heads", "speakers",
                            "parts", "metadata"}),
    partial=(("tokens", "in every shape but fastcoref, whose reader splits the text by its own "
                        "rule"),
             ("sentences", "in every shape but maverick (none) and fastcoref (split by a rule)"),
             ("mentions_over_lost_tokens", "in every shape but fastcoref, where a mention over "
                                           "white space only cannot be written"),
             ("names", "as read: a record read without a name gets its file's"),
             ("lemmas", "in the coref-data shape"),
             ("pos", "in the coref-data shape, XPOS in wl-coref and in e2e when read with pos"),
             ("morphology", "in the coref-data shape"),
             ("syntax", "in the coref-data shape, and in wl-coref when every word's head is "
                        "known"),
             ("enhanced_deps", "in the coref-data shape"),
             ("misc", "in the coref-data shape"),
("cross_sentence", ("in every shape but preco and coref-data, whose offsets are "
                                 "sentence-relative")),
             ("heads", ("in the wl-coref shape, as word_clusters and head2span, when every "
                        "mention has one")),
             ("speakers", ("per token in the e2e and wl-coref shapes, per sentence in "
                           "coref-data, not in preco, maverick, fastcoref")),
             ("parts", ("in the doc_key of e2e, maverick and fastcoref and the part_id of "
                        "wl-coref, not in preco, coref-data"))),
    package="corefkit.converters.jsonlines",
    sniff=sniff,
    sniff_priority=15,  # after LCC (a single JSON object), before the line formats
    read_options=(
        Option("jsonlines_variant", "jsonlines input: the variant (default: told by the first "
                                    "record's keys).", kind="choice", choices=VARIANTS),
        Option("jsonlines_doc_key", "jsonlines input: how a doc_key names a document: "
                                    "name-part (default; 'x_0' is document x, part 0, as "
                                    "e2e-coref builds it) or whole.",
               kind="choice", choices=DOC_KEY_MODES),
    ),
    write_options=(
        Option("jsonlines_shape", "jsonlines output: e2e (word level), wl-coref, preco, "
                                  "maverick, coref-data or fastcoref (default: the variant a "
                                  "jsonlines document was read in, else e2e).",
               kind="choice", choices=SHAPES),
        DISCONTINUOUS,
    ),
)
