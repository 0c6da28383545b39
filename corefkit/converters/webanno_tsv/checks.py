"""WebAnno TSV 3.x checks: the reader's rejections and repairs.

The reader (:mod:`corefkit.converters.webanno_tsv.reader`) reports under these ids; findings
point at the line of the file. Level 1: the file cannot be read as it is (refused unless
``--lenient`` where a repair exists); level 2: conventions of the format (INCEpTION reads the
file, corefkit says what it did); level 3: the annotation (relations the model cannot hold).
"""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "webanno-tsv"


def _reader(check: str, level: int, severity: str, explanation: str,
            malformed: bool | None = None) -> Check:
    return Check(FORMAT + "." + check, level, severity, explanation, FORMAT, "reader", malformed)


register(
    # rejections: the file cannot be read
    _reader("no-header", 1, ERROR, "an empty file; a WebAnno TSV file starts with "
            "'#FORMAT=WebAnno TSV 3.x'"),
    _reader("bad-header", 1, ERROR,
            "a header that is not WebAnno TSV 3.x: no or another '#FORMAT' line, a layer "
            "declaration without a type or with malformed features (a chain layer without "
            "referenceType and referenceRelation, a relation layer without its BT_ field, a "
            "slot feature without its target type), a layer declared twice, or no two blank "
            "lines before the first sentence"),
    _reader("scheme", 1, ERROR,
            "the coreference layers asked for (--coref-scheme, --chain-layer, --span-layer, "
            "--relation-layer, --relation-feature, --relation-types) are not in the file, or "
            "the file has several and none was named"),
    _reader("bad-columns", 1, ERROR,
            "a token row with fewer TAB-separated fields than the header declares columns"),
    _reader("bad-id", 1, ERROR,
            "a row whose id is not 's-t' or 's-t.n', or not the next token of its sentence, or "
            "a sub-token that does not follow its token"),
    _reader("bad-offsets", 1, ERROR,
            "offsets that are not 'begin-end', end before they begin, lie outside the "
            "sentence's #Text, start inside the sentence before, or put a sub-token outside "
            "its token"),
    _reader("missing-text", 1, ERROR, "token rows without a '#Text=' line before them"),
    _reader("sentence-without-tokens", 1, ERROR, "a '#Text=' line followed by no token row"),
    _reader("misplaced-line", 1, ERROR, "a '#' line among the rows of a sentence"),
    _reader("bad-value", 1, ERROR, "a placeholder column holding a value other than '*'"),
    _reader("bad-chain", 1, ERROR,
            "chain cells that are not 'TYPE[N]' and 'RELATION->N-K', or whose two columns "
            "disagree (a value in one and '_' in the other, different counts, other chains)"),
    _reader("bad-relation", 1, ERROR,
            "a relation cell whose source is not 's-t' or 's-t[a_b]', or whose feature "
            "columns hold another number of values than relations"),
    # repairs
    _reader("dangling-relation", 1, ERROR,
            "a relation whose source or target names no annotation of the span layer on that "
            "row (left out when reading leniently)"),
    _reader("extra-columns", 2, WARNING,
            "rows with more fields than the header declares columns; the extra ones are "
            "ignored, as INCEpTION ignores them (GUM_vlog_college has such rows)"),
    _reader("token-text-mismatch", 2, WARNING,
            "a token whose form is not the text at its offsets in the #Text lines; the text's "
            "is taken, as INCEpTION takes it"),
    _reader("span-gap", 2, WARNING,
            "an annotation whose [N] appears on rows that are not adjacent; it covers the rows "
            "between, as INCEpTION reads it"),
    _reader("unknown-base-layer", 2, WARNING,
            "a relation layer over a span layer the header does not declare"),
    _reader("no-coreference-layer", 2, WARNING,
            "a file without a chain layer or a relation layer over a span layer: the document "
            "is read without coreference"),
    _reader("span-outside-tokens", 2, WARNING,
            "a coreference annotation that covers no token (left out)"),
    _reader("self-relation", 3, WARNING,
            "a coreference, bridging or split-antecedent relation from a mention to itself "
            "(left out)"),
    _reader("relation-within-entity", 3, WARNING,
            "a bridging or split-antecedent relation between two mentions of one entity "
            "(left out, as GUM's build leaves out such bridges: 4 in the 46 GUM documents)"),
)

# repairs of the writer (in the conversion report)
register(Check(FORMAT + ".form-changed", 2, WARNING,
               "a token whose form holds a TAB, a line break or nothing is written with '_' for it",
               FORMAT, "reader"))

PLUGIN = FormatPlugin(FORMAT)
