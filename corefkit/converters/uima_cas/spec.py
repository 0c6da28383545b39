"""UIMA CAS (XMI, CAS JSON), INCEpTION's and WebAnno's own export: what the registry and the
command line know.

Read and written through dkpro-cassis (``pip install corefkit[cas]``), imported only when a CAS
file is read or written. A CAS file is read with its type system (``TypeSystem.xml`` beside it,
or ``--cas-typesystem``); coreference as DKPro Core chains (``CoreferenceChain`` /
``CoreferenceLink``), a custom span + relation layer (GUM's scheme among them) or
CorefAnnotator's mentions and entities. The writer writes a folder with one ``.xmi`` per
document and the ``TypeSystem.xml`` that declares what they use (INCEpTION's export layout).
"""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec, Option
from corefkit.converters.forms import UIMA_CAS
from corefkit.converters.tool_layers.schemes import READ_OPTIONS, WRITE_SCHEME_OPTION

XMI_RE = re.compile(r"<xmi:XMI\b[^>]*http:///uima/cas\.ecore")
JSON_RE = re.compile(r'\A\ufeff?\s*\{\s*"%(?:TYPES|FEATURE_STRUCTURES|VIEWS)"')


TYPESYSTEM_RE = re.compile(
    r"<typeSystemDescription\b[^>]*http://uima\.apache\.org/resourceSpecifier")


def part_of(path: str, head: str) -> bool:
    """A UIMA type system (``TypeSystem.xml``): part of the CAS files beside it, which are read
    with it (or name it with --cas-typesystem), not a document of its own."""
    return path.lower().endswith(".xml") and TYPESYSTEM_RE.search(head) is not None


def sniff(head: str) -> bool:
    """An XMI root element with the UIMA CAS namespace, or CAS JSON's ``%TYPES`` key."""
    return XMI_RE.search(head) is not None or JSON_RE.match(head) is not None


SPEC = FormatSpec(
    name="uima-cas",
    aliases=("xmi", "cas", "uima", "cas-xmi", "uima-xmi"),
    description="UIMA CAS XMI (and CAS JSON), INCEpTION's and WebAnno's export, through "
                "dkpro-cassis (pip install corefkit[cas]): DKPro Core coreference chains, "
                "a span + relation layer, CorefAnnotator entities; writes a folder of .xmi "
                "files with their TypeSystem.xml",
    patterns=("*.xmi", "*.xmi.gz"),
    capabilities=frozenset({"singletons", "cross_sentence", "crossing_same_entity",
                            "split_antecedents", "bridging", "mention_attributes",
                            "entity_attributes", "sub_token"}),
    partial=(("split_antecedents", "in the relation and gum schemes (gum: sets of two or more "
                                   "members)"),
             ("bridging", "in the relation and gum schemes"),
             ("mention_attributes", "string features of the coreference layer (chain: "
                                    "referenceType and referenceRelation)"),
             ("entity_attributes", "etype and identity, as features of every mention, in the "
                                   "relation and gum schemes")),
    forms=UIMA_CAS,
    package="corefkit.converters.uima_cas",
    sniff=sniff,
    sniff_priority=15,
    read_options=(
        Option("cas_typesystem", "UIMA CAS input: the type system, one or more files separated "
                                 "by commas (default: TypeSystem.xml beside each file, as "
                                 "INCEpTION exports it).", kind="path",
               flag="--cas-typesystem", metavar="FILE[,FILE]"),
        *READ_OPTIONS,
    ),
    write_options=(WRITE_SCHEME_OPTION,),
    stream=False,
    reads_paths=True,
    part_of=part_of,
    writes_directory=True,
    lenient=True,
)
