"""Lithuanian LCC annotator JSON (*.nkas.json): what the registry and the command line know
(formats/lcc.md)."""

from __future__ import annotations

from corefkit.converters.base import DISCONTINUOUS, FormatSpec, Option
from corefkit.converters.forms import LCC

BOM = "\ufeff"

LAYER = Option(
    "layer", "LCC: the coreference layer (manualCoreferences@1, the gold, by default; @2 is "
             "the annotator's output).", kind="text", metavar="LAYER")


def sniff(head: str) -> bool:
    """A JSON object that has ``annotationLayers``."""
    return head.lstrip(BOM + " \t\r\n").startswith("{") and '"annotationLayers"' in head


SPEC = FormatSpec(
    name="lcc",
    aliases=("nkas", "lcc-json"),
    description="Lithuanian coreference annotator JSON (*.nkas.json): character offsets, typed "
                "links, group links; --layer manualCoreferences@1 (gold, default) or @2",
    patterns=("*.nkas.json",),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "lemmas", "pos", "misc",
                            "mentions_with_empty_nodes", "singletons",
                            "crossing_same_entity", "cross_sentence", "split_antecedents",
                            "discourse_deixis", "mention_attributes", "typed_links",
                            "metadata"}),
    partial=(("tokens", "non-empty forms"),
             ("lemmas", "as read from LCC (the morphology layer of a file it read)"),
             ("pos", "XPOS as read from LCC (the morphology layer of a file it read)"),
             ("misc", "SpaceAfter=No inside a sentence, as the spacing of the text"),
             ("mentions_with_empty_nodes", "written without their empty nodes"),
             ("typed_links", "as read, while the coreference is unchanged; else each mention "
                             "linked to its entity's dominant mention"),
("singletons", "only with a type code other than a group code, or in a group "
                            "link that is written"),
             ("split_antecedents", "sets of two or more members with mentions"),
             ("discourse_deixis", "chains of two or more mentions"),
             ("mention_attributes", "the type code only"),
             ("metadata", "LCC's document fields only")),
    forms=LCC,
    package="corefkit.converters.lcc",
    sniff=sniff,
    sniff_priority=10,
    read_options=(
        LAYER,
        Option("adverbial_as_identity", "LCC input: read adverbial (a-) links as identity links "
                                        "instead of discourse deixis."),
    ),
    write_options=(
        LAYER,
        Option("ranking", "LCC output: how dominant mentions of generated links are chosen "
                          "(a ranking of the dominant-mentions pass, or a JSON file).",
               kind="text", metavar="NAME|FILE"),
        DISCONTINUOUS,
    ),
    lenient=True,
)
