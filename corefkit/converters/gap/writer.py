"""GAP TSV: the writer of prediction files from a system's clusters over the GAP texts.

``corefkit convert system.jsonlines predictions.tsv --to gap --gap-gold gap-development.tsv``
reads a system's output in any format corefkit reads and writes what the official scorer
(``gap_scorer.py --system_tsv``) reads: one line per example, ``ID<TAB>A-coref<TAB>B-coref``
with ``TRUE``/``FALSE``, no header, in the order of the documents. Each document is matched to
the GAP example of the same id in ``gap_gold`` (documents read from a GAP file carry their
example and need no ``gap_gold``).

The decision for an example (:func:`predict`): the document's tokens are aligned to the
example's text (:func:`corefkit.converters.offsets.align`: the words must be the text's, in
order; Penn Treebank escapes such as ``-LRB-`` match their character), giving every mention a
character extent. The pronoun's entities are those of the mentions whose extent is exactly
the pronoun; ``A-coref`` is TRUE when another mention of one of them meets the labelled span of
name A (``gap_match``): ``contain`` (default) — one of the two spans lies inside the other, as
the SpanBERT/e2e-coref evaluation script ``to_gap_tsv.py`` decides —, ``exact`` — the same
span —, or ``name`` — its text is inside the name or the name inside its text, wherever it is.
A system that did not make the pronoun a mention gets FALSE, FALSE.

Examples of ``gap_gold`` without a document, documents without an example and documents whose
words are not the example's text get no line (the official scorer counts a missing line as two
missed links), each reported as a warning.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.gap.reader import EXAMPLE
from corefkit.converters.gap.rows import GapExample, read_examples
from corefkit.converters.gap.spec import MATCHES
from corefkit.converters.io import open_binary
from corefkit.converters.loss import FEATURES, ConversionReport
from corefkit.converters.offsets import Misaligned, Span, align, kept_layout
from corefkit.errors import Repair, UsageError, counted
from corefkit.model import IDENTITY, Document, Mention

NOT_HELD = "dropped (a GAP prediction file holds only the two TRUE/FALSE decisions per example)"


def loss_actions(**options: Any) -> dict[str, str]:
    """Everything but the pronoun's links to A and B is left out of a prediction file."""
    return {feature: NOT_HELD for feature in FEATURES}


def load_gold(path: str) -> dict[str, GapExample]:
    """The examples of a GAP file by ID (the first of a repeated ID)."""
    found: dict[str, GapExample] = {}
    with open_binary(path) as handle:
        for example in read_examples(handle, path):
            found.setdefault(example.id, example)
    return found


def example_of(doc: Document, gold: dict[str, GapExample] | None) -> GapExample | None:
    """The GAP example a document stands for: by id in ``gold``, else the one it was read from."""
    if gold is not None:
        return gold.get(doc.id)
    data = doc.attrs.get(EXAMPLE)
    return GapExample.from_json(data) if isinstance(data, dict) else None


def token_spans(doc: Document, text: str) -> dict[int, Span]:
    """Character spans in ``text`` of the document's visible tokens (raises Misaligned)."""
    layout = kept_layout(doc)
    if layout is not None and layout[0] == text:
        return layout[1]
    visible = [t for t in doc.tokens if not t.is_empty]
    [spans] = align(text, [[t.form for t in visible]])
    return {t.index: span for t, span in zip(visible, spans)}


def _meets(span: Span, target: Span, name: str, text: str, match: str) -> bool:
    if match == "exact":
        return span == target
    if match == "contain":
        return (target[0] <= span[0] and span[1] <= target[1]) or (
            span[0] <= target[0] and target[1] <= span[1])
    words = text[span[0]:span[1]]
    return bool(words) and (words in name or name in words)


def predict(doc: Document, example: GapExample, match: str = "contain") -> tuple[bool, bool]:
    """(A-coref, B-coref) of a system document for an example (see the module's text)."""
    if match not in MATCHES:
        raise UsageError(f"unknown GAP match {match!r}; expected one of {', '.join(MATCHES)}")
    spans = token_spans(doc, example.text)

    def extent(mention: Mention) -> Span | None:
        found = [spans[t] for t in mention.tokens if t in spans]
        return (found[0][0], found[-1][1]) if found else None

    pronoun = example.span("pronoun")
    anaphors = [m for m in doc.mentions if extent(m) == pronoun]
    entities = {e for e in (doc.entity_of(m) for m in anaphors)
                if e is not None and e.layer == IDENTITY and not e.pseudo}
    others = [(extent(m), m) for e in entities for m in doc.mentions_of(e) if m not in anaphors]
    decisions = []
    for role, name in (("A", example.a), ("B", example.b)):
        target = example.span(role)
        decisions.append(any(span is not None and _meets(span, target, name, example.text, match)
                             for span, _ in others))
    return decisions[0], decisions[1]


def predictions(documents: Iterable[Document], gold: dict[str, GapExample] | None,
                match: str = "contain") -> tuple[dict[str, tuple[bool, bool]], list[Repair]]:
    """The decisions for every document that stands for an example, and what was skipped."""
    found: dict[str, tuple[bool, bool]] = {}
    warnings: list[Repair] = []
    for doc in documents:
        example = example_of(doc, gold)
        if example is None:
            if gold is None:
                raise UsageError(f"document {doc.name!r} was not read from a GAP file: give the "
                                 "GAP file it answers (--gap-gold FILE)")
            warnings.append(Repair("gap.not-an-example", f"document {doc.name!r} is no example "
                                   "of the GAP file; left out", document=doc.name,
                                   action="dropped"))
            continue
        if example.id in found:
            warnings.append(Repair("gap.duplicate-document", f"a second document {doc.name!r}; "
                                   "the first one's decisions are kept", document=doc.name,
                                   action="dropped"))
            continue
        try:
            found[example.id] = predict(doc, example, match)
        except Misaligned as exc:
            what = repr(exc.word) if exc.word is not None else "the end of the words"
            warnings.append(Repair("gap.unaligned", f"the words of {doc.name!r} are not the "
                                   f"example's text (at {what}, character {exc.position}); no "
                                   "prediction written", document=doc.name, action="dropped"))
    if gold is not None:
        missing = [ident for ident in gold if ident not in found]
        if missing:
            shown = ", ".join(missing[:3]) + (" ..." if len(missing) > 3 else "")
            warnings.append(Repair("gap.missing-prediction",
                                   f"{counted(len(missing), 'example')} of the GAP file "
                                   f"{'has' if len(missing) == 1 else 'have'} no document ({shown}); the scorer counts each as "
                                   "two missed links", action="dropped"))
    return found, warnings


def write_stream(documents: Iterable[Document], out: IO[str], report: ConversionReport, *,
                 gap_gold: str | None = None, gap_match: str = "contain") -> None:
    """Write the prediction file of the documents (see the module's text)."""
    if gap_match not in MATCHES:
        raise UsageError(f"unknown --gap-match {gap_match!r}; expected one of {', '.join(MATCHES)}")
    gold = load_gold(gap_gold) if gap_gold is not None else None
    found, warnings = predictions(documents, gold, gap_match)
    for ident, (a, b) in found.items():
        out.write(f"{ident}\t{'TRUE' if a else 'FALSE'}\t{'TRUE' if b else 'FALSE'}\n")
    report.repairs.extend(warnings)
