"""CoNLL-2012: what the registry and the command line know (formats/conll2012.md)."""

from __future__ import annotations

import re

from corefkit.converters.base import DISCONTINUOUS, FormatSpec, Option
from corefkit.converters.forms import CONLL2012

BEGIN_RE = re.compile(r"^#\s*begin document", re.MULTILINE)
LAYOUTS = ("default", "source", "gum")


def sniff(head: str) -> bool:
    """A ``#begin document`` line (any spelling the reader accepts)."""
    return BEGIN_RE.search(head) is not None


SPEC = FormatSpec(
    name="conll2012",
    aliases=("conll", "conll-2012"),
    description="CoNLL-2012 / OntoNotes coreference column (LitBank, GUM and OntoGUM dialects)",
    patterns=("*.conll", "*_conll", "*.key", "*.response", "*.gold_conll", "*.v4_*conll"),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "lemmas", "pos", "token_columns",
                            "speakers", "singletons", "cross_sentence", "parts"}),
    partial=(("tokens", "words without white space"),
             ("lemmas", "with --layout source, for documents read from CoNLL-2012"),
             ("pos", "with --layout source, for documents read from CoNLL-2012"),
             ("token_columns", "with --layout source, for documents read from CoNLL-2012"),
             ("speakers", "with --layout source, for documents read from CoNLL-2012")),
    forms=CONLL2012,
    package="corefkit.converters.conll2012",
    sniff=sniff,
    sniff_priority=50,
    read_options=(
        Option("parse_gum_ids", "CoNLL-2012: split GUM-style ids (etype-GRP-identity) into "
                                "entity attributes."),
    ),
    write_options=(
        Option("layout", "CoNLL-2012 output: default (5 columns), source (the columns and begin "
                         "lines read), gum (GUM's 3 columns).", kind="choice", choices=LAYOUTS),
        Option("keep_ids", "CoNLL-2012 output: keep the original entity ids instead of 0..n-1."),
        DISCONTINUOUS,
    ),
)
