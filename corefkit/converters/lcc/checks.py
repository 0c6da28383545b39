"""LCC (Lithuanian coreference JSON) checks: the reader's ids, plus overlapping mentions.

The reader (``formats/lcc.md`` §2-4) reports offsets outside the text or off the token grid,
links without antecedent, duplicated and self links, and type codes that contradict the link.
Because LCC links spans rather than chains, one phrase is sometimes annotated with two
different extents in two links; this module reports mentions that overlap with different
extents (crossing, or nested inside one chain).
"""

from __future__ import annotations

from collections.abc import Iterator

from corefkit.checks.plugins import (
    FileChecks,
    FormatPlugin,
    Incident,
    entity_name,
    mention_incident,
    mention_text,
)
from corefkit.checks.registry import ERROR, WARNING, Check, register
from corefkit.model import Document, Mention
from corefkit.model.overlaps import crossings, more, nested_in_own_group

FORMAT = "lcc"
OVERLAPPING = "lcc.overlapping-mentions"


def _reader(check: str, level: int, severity: str, explanation: str,
            malformed: bool | None = None) -> Check:
    return Check("lcc." + check, level, severity, explanation, FORMAT, "reader", malformed)


register(
    # rejections
    _reader("invalid-json", 1, ERROR, "the file is not valid JSON"),
    _reader("not-object", 1, ERROR, "the JSON value is not an object"),
    _reader("no-content", 1, ERROR, "the document object has no 'content' string"),
    _reader("bad-layers", 1, ERROR, "'annotationLayers' is not a list"),
    _reader("bad-layer", 1, ERROR, "a layer that is not an object with a 'type'"),
    _reader("layer-invalid-json", 1, ERROR,
            "a layer whose 'content' string is not valid JSON (skipped when read leniently)"),
    _reader("no-lex", 1, ERROR,
            "no lex layer (tokens and sentences); read leniently, words come from whitespace"),
    _reader("bad-lex", 1, ERROR, "a lex layer without token spans, or spans outside the text"),
    _reader("missing-layer", 1, ERROR, "the requested manualCoreferences version is missing"),
    _reader("bad-coreferences", 1, ERROR, "a coreference layer without a 'coreferences' list"),
    _reader("bad-link", 1, ERROR,
            "a link whose Referant or Mentions are not [offset, length] spans"),
    # repairs
    _reader("no-id", 2, WARNING, "the document has no 'id'; named after the file"),
    _reader("offset-unit-unverified", 2, WARNING,
            "characters outside the Basic Multilingual Plane: offsets were counted in code "
            "points, the annotator's units may differ"),
    _reader("manual-lex-ignored", 2, WARNING, "a manualLex layer that does not match the text"),
    _reader("lexeme-count", 2, WARNING, "lexemeCount differs from the number of lex tokens"),
    _reader("layer-error", 2, WARNING, "a layer holding an error object instead of data"),
    _reader("duplicate-layer", 2, WARNING, "two layers of the same type and version"),
    _reader("unsorted-tokens", 2, WARNING, "lex tokens not in text order"),
    _reader("token-outside-sentence", 2, WARNING, "lex tokens outside every sentence span"),
    _reader("morphology-misaligned", 2, WARNING,
            "a morphology layer whose entries do not match the tokens (not read)"),
    _reader("bad-type", 2, WARNING, "a link type that is not a 4-letter LCC type code"),
    _reader("span-outside-text", 2, ERROR,
            "a span whose offsets lie outside the text, or that covers no token (the link is "
            "dropped)", malformed=True),
    _reader("snapped-span", 2, WARNING,
            "a span that does not start and end on token boundaries (read as the tokens it "
            "touches)"),
    _reader("no-antecedent", 3, WARNING,
            "a link with an empty Mentions list: a referring expression without antecedent"),
    _reader("duplicate-link", 3, WARNING, "the same link twice (read once)"),
    _reader("self-link", 3, WARNING, "a referring expression that is its own antecedent"),
    _reader("group-one-antecedent", 3, WARNING, "a group link (type ...g) with one antecedent"),
    _reader("type-count-mismatch", 3, WARNING,
            "a single-antecedent type (...s, ...a) on a link with several antecedents"),
    _reader("direction-mismatch", 3, WARNING,
            "a type's direction (anaphoric/cataphoric) contradicts the order of the spans"),
    _reader("group-contains-itself", 3, ERROR,
            "a group link whose antecedent is in the referring expression's own chain"),
    Check(OVERLAPPING, 3, WARNING,
          "two mentions share words but have different extents: they cross, or one contains "
          "the other inside one chain (usually one phrase annotated with two boundaries in two "
          "links)", FORMAT),
)


class LccChecks(FileChecks):
    """Mentions that overlap with different extents."""

    def document(self, doc: Document) -> Iterator[Incident]:
        """Each mention that crosses an earlier one of its layer, and each that lies inside
        another of its chain with other extents, once (overlaps.py); nested mentions of
        different entities are ordinary."""
        layers: dict[str, list[Mention]] = {}
        for mention in doc.mentions:
            layers.setdefault(mention.layer, []).append(mention)
        found: list[tuple[Mention, str, Mention, int]] = []
        for mentions in layers.values():
            for cross in crossings(mentions):
                found.append((cross.mention, "crosses", cross.other, cross.more))
            chained = [m for m in mentions if doc.entity_of(m) is not None]
            for inner in nested_in_own_group(chained, group=doc.entity_of):
                found.append((inner.mention, "overlaps, in the same chain,", inner.other, 0))
        found.sort(key=lambda f: (f[0].start, -f[0].end, f[0].id))
        for b, how, a, count in found:
            ea, eb = doc.entity_of(a), doc.entity_of(b)
            entity = f" (entity {entity_name(ea)})" if ea is not None and ea is eb else ""
            yield mention_incident(doc, b, OVERLAPPING, f"{mention_text(doc, b)} {how} "
                                   f"{mention_text(doc, a)}{more(count)}{entity}")


PLUGIN = FormatPlugin(
    FORMAT,
    file_checks=LccChecks,
    # crossing mentions of one chain are a case of the overlap this format reports
    covered={"mention.crossing-same-entity": OVERLAPPING},
)
