"""CoNLL-UA exploded (Universal Anaphora, CODI-CRAC): what the registry and the command line
know (formats/ua-exploded.md)."""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec, Option
from corefkit.converters.forms import UA

COLUMNS_RE = re.compile(r"^#\s*global\.columns\s*=[^\n]*\bIDENTITY\b", re.MULTILINE)


def sniff(head: str) -> bool:
    """A ``# global.columns`` line that names IDENTITY."""
    return COLUMNS_RE.search(head) is not None


SPEC = FormatSpec(
    name="ua-exploded",
    aliases=("ua", "conllua", "conll-ua"),
    description="CoNLL-UA exploded: CoNLL-U Plus with IDENTITY / BRIDGING / DISCOURSE_DEIXIS "
                "columns (Universal Anaphora, CODI-CRAC)",
    patterns=("*.CONLLUA", "*.conllua", "*.ua"),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "empty_nodes", "lemmas", "pos",
                            "morphology", "syntax", "enhanced_deps", "misc", "singletons",
                            "discontinuous", "zeros", "mentions_with_empty_nodes",
                            "crossing_same_entity", "cross_sentence", "heads", "min_spans",
                            "split_antecedents",
                            "bridging", "discourse_deixis", "non_referring", "unlinked_mentions",
                            "mention_attributes", "speakers", "parts"}),
    partial=(("tokens", "words without white space (the UA scorers split lines at any)"),
             ("empty_nodes", "with --allow-zeros (UA scorer 2.0 ids)"),
             ("lemmas", "without white space (each white-space character becomes '_')"),
             ("misc", "without white space (each white-space character becomes '_')"),
             ("speakers", "one a sentence ('# speaker')"),
             ("zeros", "with --allow-zeros (UA scorer 2.0 ids)"),
             ("mentions_with_empty_nodes", "with --allow-zeros (UA scorer 2.0 ids)"),
             ("crossing_same_entity", "with --allow-id-closers (UA scorer 2.0)"),
             ("crossing_mentions", "with --allow-id-closers (UA scorer 2.0)"),
             ("heads", "as Min, where the markable has no min span"),
             ("min_spans", "one range: gapped min spans become their hull"),
             ("unlinked_mentions", "as bridging anaphors or NOM_SEM markables"),
             ("bridging", "one anchor per markable")),
    forms=UA,
    package="corefkit.converters.ua_exploded",
    sniff=sniff,
    sniff_priority=30,  # before corefud (a UA file's token lines can look like CoNLL-U)
    write_options=(
        Option("allow_zeros", "CoNLL-UA output: write empty nodes as N.k token lines (UA scorer "
                              "2.0)."),
        Option("allow_id_closers", "CoNLL-UA output: write crossing markables with closers that "
                                   "name them (markable_3), UA scorer 2.0."),
        Option("align_spaces", "CoNLL-UA output: align columns with spaces (the CODI-CRAC look), "
                               "not TABs."),
    ),
)
