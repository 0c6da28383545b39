"""WebAnno TSV 3.x (INCEpTION, WebAnno): what the registry and the command line know.

Specification: INCEpTION's user guide, section "WebAnno TSV 3.3 File format"
(github.com/inception-project/inception, ``inception/inception-io-webanno-tsv/src/main/
resources/META-INF/asciidoc/user-guide/webannotsv.adoc``), and INCEpTION's reader and writer
of the format (``Tsv3XDeserializer``, ``Tsv3XSerializer``, ``Escaping``), whose behaviour
corefkit follows where the guide is silent: a header of layer declarations and two blank lines;
per sentence ``#Sentence.id=`` (3.3) and ``#Text=`` lines and one row per token (``s-t``) and
sub-token (``s-t.n``) with UTF-16 character offsets, the token, and one cell per annotation
column, each field followed by a TAB; stacked values separated by ``|`` with ``[N]`` ids;
``_`` an empty cell and ``*`` a null value; reserved characters escaped with a backslash.

Coreference is read in either shape INCEpTION stores it (a chain layer, or a span layer with
a relation layer; :mod:`corefkit.converters.tool_layers.schemes`). One document per file.
"""

from __future__ import annotations

import re

from corefkit.converters.base import FormatSpec
from corefkit.converters.forms import WEBANNO_TSV
from corefkit.converters.tool_layers.schemes import READ_OPTIONS, WRITE_SCHEME_OPTION

HEADER_RE = re.compile(r"\A\ufeff?#FORMAT=WebAnno TSV 3\.\d+\r?\n")


def sniff(head: str) -> bool:
    """The format line ``#FORMAT=WebAnno TSV 3.x``."""
    return HEADER_RE.match(head) is not None


SPEC = FormatSpec(
    name="webanno-tsv",
    aliases=("webanno", "tsv3", "webanno-tsv3", "inception-tsv"),
    description="WebAnno TSV 3.x, as INCEpTION and WebAnno export it: coreference as DKPro "
                "Core's chain layer or as a span + relation layer (GUM's sources); other layers "
                "kept for the round trip; one document per file",
    patterns=("*.tsv",),
    capabilities=frozenset({"singletons", "cross_sentence", "crossing_same_entity",
                            "split_antecedents", "bridging", "mention_attributes",
                            "entity_attributes", "metadata", "opaque_levels", "sub_token"}),
    partial=(("split_antecedents", "in the relation and gum schemes (gum: sets of two or more "
                                   "members, as two or more bridge relations)"),
             ("bridging", "in the relation and gum schemes"),
             ("mention_attributes", "the features of the coreference layer (chain: "
                                    "referenceType and referenceRelation; relation: the span "
                                    "layer's features) and the link label"),
             ("entity_attributes", "etype and identity, as features of every mention, in the "
                                   "relation and gum schemes"),
             ("metadata", "the header lines of a WebAnno TSV file read back"),
             ("opaque_levels", "the other layers of a WebAnno TSV file read back")),
    forms=WEBANNO_TSV,
    package="corefkit.converters.webanno_tsv",
    sniff=sniff,
    sniff_priority=10,
    read_options=READ_OPTIONS,
    write_options=(WRITE_SCHEME_OPTION,),
    shared_extension=True,  # GAP, text2text's tables and many others are .tsv too: content decides
)
