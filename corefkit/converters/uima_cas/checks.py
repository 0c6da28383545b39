"""UIMA CAS checks: the reader's rejections and repairs (:mod:`corefkit.converters.uima_cas`).

Findings name the CAS file (XMI has no useful line numbers for annotations).
"""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "uima-cas"


def _reader(check: str, level: int, severity: str, explanation: str,
            malformed: bool | None = None) -> Check:
    return Check("cas." + check, level, severity, explanation, FORMAT, "reader", malformed)


register(
    _reader("no-files", 1, ERROR, "a directory that holds no .xmi file"),
    _reader("no-typesystem", 1, ERROR,
            "no type system: no TypeSystem.xml beside the file and no --cas-typesystem "
            "(cassis' bundled DKPro Core type system lacks DocumentMetaData, which every "
            "WebAnno and INCEpTION XMI carries, so corefkit does not guess one)"),
    _reader("undefined-types", 1, ERROR,
            "the XMI uses types its type system does not define; with --lenient their "
            "annotations are skipped (dkpro-cassis' lenient loading)"),
    _reader("unreadable", 1, ERROR, "dkpro-cassis cannot read the file (not XMI or CAS JSON, "
            "or not matching its type system)"),
    _reader("unreadable-typesystem", 1, ERROR,
            "the type system file is not a UIMA type system dkpro-cassis can read (malformed "
            "XML, cut off, or another kind of file)"),
    _reader("scheme", 1, ERROR,
            "the coreference layers asked for are not used in the file, or it uses several and "
            "none was named"),
    _reader("no-tokens", 2, WARNING,
            "a CAS without DKPro Core Token annotations (CorefAnnotator's); its text is "
            "tokenized at whitespace and at the mentions' boundaries"),
    _reader("no-coreference-layer", 2, WARNING,
            "a CAS without a chain layer or a relation layer over a span layer: read without "
            "coreference"),
    _reader("span-outside-tokens", 2, WARNING,
            "a coreference annotation that covers no token, e.g. a zero-width one between "
            "tokens (left out)"),
    _reader("group-without-mentions", 2, WARNING,
            "a CorefAnnotator entity group without a mention of its own (left out)"),
    _reader("self-relation", 3, WARNING,
            "a relation from a mention to itself (left out)"),
    _reader("relation-within-entity", 3, WARNING,
            "a bridging or split-antecedent relation between two mentions of one entity "
            "(left out)"),
)
register(Check("cas.form-changed", 2, WARNING,
               "a token whose form holds a TAB, a line break or nothing is written with '_' for it",
               FORMAT, "reader"))

PLUGIN = FormatPlugin(FORMAT)
