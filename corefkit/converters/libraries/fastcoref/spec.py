"""fastcoref's output file: what the registry and the command line know.

One JSON object a line, as ``FCoref.predict(texts=..., output_file=...)`` writes it (fastcoref
2.x, github shon-otmazgin/fastcoref ``tests/out_test.jsonlines``): ``text``, ``clusters`` of
``[start, end]`` character offsets into it (end exclusive) and ``clusters_strings``. The same
file is the jsonlines family's ``fastcoref`` variant; read as this format (``--from
fastcoref``), its documents bring their own text: scoring aligns them to the key and pairs them
by content, and a mention string that contradicts its offsets is an error. Never detected from
the content (a fastcoref file is detected as ``jsonlines``): name the format.
"""

from __future__ import annotations

from corefkit.converters.base import DISCONTINUOUS, FormatSpec

SPEC = FormatSpec(
    name="fastcoref",
    aliases=("f-coref", "lingmess"),
    description="fastcoref predict(output_file=...) jsonlines: text, clusters of character "
                "offsets (end exclusive), clusters_strings; aligned to the key when scored",
    patterns=("*.fastcoref.jsonl", "*.fastcoref.jsonlines"),
    named_patterns=("*.jsonlines", "*.jsonl", "*.json"),
    capabilities=frozenset({"singletons", "crossing_same_entity", "cross_sentence", "parts",
                            "metadata"}),
    package="corefkit.converters.libraries.fastcoref",
    sniff=lambda head: False,
    sniff_priority=95,
    own_text=True,
    pairs_by_content=True,
    words_kept=False,
    write_options=(DISCONTINUOUS,),
)
