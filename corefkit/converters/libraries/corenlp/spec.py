"""Stanford CoreNLP's coreference output: what the registry and the command line know.

Two formats, one package, as CoreNLP's ``XMLOutputter`` and ``JSONOutputter`` write a document
annotated with ``coref`` or ``dcoref`` (github stanfordnlp/CoreNLP, ``doc/corenlp/input.txt.xml``
and the outputters at 1b7edd1 of 2025-06-07; the FAQ "What is the format of the XML output for
coref?"):

* ``corenlp`` — ``-outputFormat xml``: ``<root><document><sentences>`` of ``<token>``\\ s
  (``<word>``, ``<CharacterOffsetBegin>``, ``<CharacterOffsetEnd>``) and ``<coreference>`` of
  chains of ``<mention>``\\ s (``<sentence>``, ``<start>``, ``<end>`` exclusive, ``<head>``, all
  1-based; ``<text>`` in newer versions). The XML holds no text: ``--corenlp-text FILE`` gives
  the text CoreNLP read, against which the token offsets are checked.
* ``corenlp-json`` — ``-outputFormat json``: ``sentences`` of ``tokens`` (``word``,
  ``originalText``, ``characterOffsetBegin``/``End``, ``before``, ``after``) and ``corefs``:
  chain id → mentions (``sentNum``, ``startIndex``, ``endIndex`` exclusive, ``headIndex``,
  ``text``, …). The text is the tokens' ``before``, ``originalText`` and ``after``.

corefkit reads both (no writer: no tool reads CoreNLP's coreference back). The documents bring
their own text: scoring aligns them to the key.
"""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec, Option

_XML = re.compile(r"^\s*(?:<\?[^>]*\?>\s*)*<root>\s*<document>\s*(?:<docId>[^<]*</docId>\s*)?"
                  r"<sentences>")
_JSON = re.compile(r'^\s*\{\s*(?:"docId"\s*:\s*"[^"]*"\s*,\s*)?"sentences"\s*:\s*\[\s*\{\s*'
                   r'"index"\s*:')


def sniff_xml(head: str) -> bool:
    return _XML.match(head.lstrip("\ufeff")) is not None


def sniff_json(head: str) -> bool:
    return _JSON.match(head.lstrip("\ufeff")) is not None


CAPABILITIES = frozenset({"heads"})

XML = FormatSpec(
    name="corenlp",
    aliases=("corenlp-xml", "stanford-corenlp"),
    description="Stanford CoreNLP XML output with <coreference> chains (read only); aligned "
                "to the key when scored",
    patterns=("*.txt.xml",),
    named_patterns=("*.xml",),
    capabilities=CAPABILITIES,
    package="corefkit.converters.libraries.corenlp",
    sniff=sniff_xml,
    sniff_priority=18,
    own_text=True,
    pairs_by_content=True,
    writes=False,
    writes_any_corpus=False,
    read_options=(Option("corenlp_text", "CoreNLP XML input: the text file CoreNLP read; its "
                                         "characters become the tokens' forms, checked "
                                         "against the words.", kind="path", metavar="FILE"),),
)

JSON = FormatSpec(
    name="corenlp-json",
    aliases=(),
    description="Stanford CoreNLP JSON output with corefs (read only); aligned to the key when "
                "scored",
    patterns=("*.txt.json",),
    named_patterns=("*.json",),
    capabilities=CAPABILITIES | {"singletons"},
    package="corefkit.converters.libraries.corenlp.json_format",
    sniff=sniff_json,
    sniff_priority=13,
    own_text=True,
    pairs_by_content=True,
    writes=False,
    writes_any_corpus=False,
)

SPECS = (XML, JSON)
SPEC = XML
