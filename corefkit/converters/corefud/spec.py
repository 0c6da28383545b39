"""CoNLL-U with CorefUD / UA-compact coreference: what the registry and the command line know
(formats/corefud.md)."""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec, Option
from corefkit.converters.forms import CONLLU

DECLARATION_RE = re.compile(r"^#\s*global\.Entity\s*=", re.MULTILINE)
TOKEN_RE = re.compile(r"^[0-9][^\t\n]*(?:\t[^\t\n]*){8}\t[^\t\n]*Entity=", re.MULTILINE)
PROFILES = ("auto", "corefud", "ua-compact")


def sniff(head: str) -> bool:
    """A ``# global.Entity`` line, or a 10-column token line whose MISC has ``Entity=``."""
    return DECLARATION_RE.search(head) is not None or TOKEN_RE.search(head) is not None


SPEC = FormatSpec(
    name="corefud",
    aliases=("ua-compact", "conllu", "conll-u"),
    description="CoNLL-U with Entity/SplitAnte/Bridge in MISC (CorefUD 1.x; UA compact as in GUM)",
    patterns=("*.conllu",),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "empty_nodes", "lemmas", "pos",
                            "morphology", "syntax", "enhanced_deps", "misc", "singletons",
                            "discontinuous", "zeros", "mentions_with_empty_nodes",
                            "cross_sentence", "heads", "min_spans", "split_antecedents",
                            "bridging", "mention_attributes", "entity_attributes", "metadata",
                            "speakers", "parts"}),
    partial=(("tokens", "forms without TAB or line breaks, white space at either end or twice "
                        "in a row (the UD validator's level 1)"),
             ("speakers", "one a sentence ('# speaker')"),
("heads", "with a declaration that has a head field"),
             ("min_spans", "with a declaration that has a minspan field"),
             ("cross_sentence", "in the ua-compact profile only"),
             ("split_antecedents", "sets of two or more members"),
             ("bridging", "the anchor entity, not the anchor mention; relations as [a-z]+ in "
                          "the corefud profile")),
    forms=CONLLU,
    package="corefkit.converters.corefud",
    sniff=sniff,
    sniff_priority=40,
    read_options=(
        Option("entity_fields", "CoNLL-U input without '# global.Entity': the declaration to "
                                "assume, e.g. eid-etype-head-other.", kind="text",
               metavar="DECLARATION"),
    ),
    write_options=(
        Option("profile", "CoNLL-U output: the profile each document was read with (auto), "
                          "CorefUD 1.x (eid-etype-head-other) or the UA compact declaration of "
                          "the source.", kind="choice", choices=PROFILES, flag="--conllu-profile"),
        Option("keep_min", "CoNLL-U output: add a minspan field so that minimum spans are kept."),
    ),
)
