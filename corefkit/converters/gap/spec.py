"""GAP (Gendered Ambiguous Pronouns) TSV: what the registry and the command line know.

Reading takes the gold layout (11 TAB-separated columns after a header line, one example per
line; :mod:`corefkit.converters.gap.reader`); writing gives the official scorer's prediction
layout (``ID``, ``A-coref``, ``B-coref``; :mod:`corefkit.converters.gap.writer`).
"""

from __future__ import annotations

from corefkit.converters.base import FormatSpec, Option

HEADER = ("ID", "Text", "Pronoun", "Pronoun-offset", "A", "A-offset", "A-coref", "B",
          "B-offset", "B-coref", "URL")
MATCHES = ("contain", "exact", "name")


def sniff(head: str) -> bool:
    """The GAP header line."""
    first = head.lstrip("\ufeff").split("\n", 1)[0].rstrip("\r")
    return tuple(first.split("\t")) == HEADER


SPEC = FormatSpec(
    name="gap",
    aliases=("gap-tsv",),
    description="GAP TSV (Gendered Ambiguous Pronouns): reads the examples (pronoun and names "
                "A, B as mentions, TRUE links as coreference); writes the scorer's prediction "
                "file (ID, A-coref, B-coref) from a system's clusters over the GAP texts",
    patterns=("*.tsv",),
    capabilities=frozenset(),
    package="corefkit.converters.gap",
    sniff=sniff,
    sniff_priority=45,
    writes_any_corpus=False,
    shared_extension=True,  # WebAnno TSV, text2text's tables and many others are .tsv too
    write_options=(
        Option("gap_gold", "GAP output: the GAP file whose texts and labelled spans the "
                           "documents are matched to by id (not needed for documents read "
                           "from GAP).", kind="path", flag="--gap-gold", metavar="FILE"),
        Option("gap_match", "GAP output: how a mention of the pronoun's entity must meet name "
                            "A or B: contain (one inside the other; default), exact, or name "
                            "(its text inside the name or the name inside it).",
               kind="choice", choices=MATCHES, flag="--gap-match"),
    ),
)
