"""MMAX2 stand-off XML projects: what the registry and the command line know
(formats/mmax2.md)."""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec, Option
from corefkit.converters.forms import MMAX2

PROJECT_RE = re.compile(r"<mmax_project[\s/>]")
# the root elements of a project's other files: base data (words), markable levels, schemes,
# customizations, common paths, their DTDs, and the styles' MMAX2 discourse loader namespace
PART_RE = re.compile(r"<(?:words|markables|annotationscheme|customization|common_paths)[\s>]"
                     r"|<!ELEMENT (?:words|word|markables|markable)[\s(]"
                     r"|org\.eml\.MMAX2\.")

LEVEL_MAP = Option(
    "level_map", "MMAX2 input and output: the level map saying which levels and attributes hold "
                 "coreference (shipped: generic, arrau, acl-anthology; default generic).",
    kind="text", flag="--mmax-map", metavar="NAME|FILE")


def sniff(head: str) -> bool:
    """The text of a ``.mmax`` project file."""
    return PROJECT_RE.search(head) is not None


def part_of(path: str, head: str) -> bool:
    """A project's XML, DTD or XSL file (base data, markables, scheme, style, paths)."""
    return path.lower().endswith((".xml", ".dtd", ".xsl")) and PART_RE.search(head) is not None


SPEC = FormatSpec(
    name="mmax2",
    aliases=("mmax",),
    description="MMAX2 stand-off XML projects (*.mmax + Basedata/, Markables/, Schemes/); "
                "coreference levels and attributes from a level map (--mmax-map)",
    patterns=("*.mmax",),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "singletons", "discontinuous",
                            "crossing_same_entity",
                            "cross_sentence", "min_spans", "split_antecedents", "bridging",
                            "discourse_deixis", "non_referring", "mention_attributes",
                            "heads", "opaque_levels", "parts"}),
    partial=(("tokens", "forms with characters XML 1.0 can hold"),
             ("bridging", "as far as the level map names them"),
             ("split_antecedents", "as far as the level map names them"),
             ("non_referring", "as far as the level map names them"),
             ("discourse_deixis", "as far as the level map names them"),
             ("min_spans", "as far as the level map names them, not on empty nodes only"),
             ("heads", "with --mmax-heads and a level map that names them, not on empty "
                       "nodes")),
    forms=MMAX2,
    package="corefkit.converters.mmax2",
    sniff=sniff,
    sniff_priority=20,
    read_options=(
        LEVEL_MAP,
        Option("common_paths", "MMAX2 input: the common_paths.xml for projects without one "
                               "beside them.", kind="path", flag="--mmax-common-paths",
               metavar="FILE"),
    ),
    write_options=(
        LEVEL_MAP,
        Option("heads", "MMAX2 output: write mention heads into the level map's head "
                        "attribute.", flag="--mmax-heads"),
    ),
    stream=False,
    part_of=part_of,
    reads_paths=True,
    writes_directory=True,
    lenient=True,
)
