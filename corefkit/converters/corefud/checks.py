"""CorefUD / UA compact checks: the UD validator's coreference tests where they apply.

The reader (``formats/corefud.md`` §7) finds most incidents while it pairs brackets and
reports them under ``corefud.<name>``, reusing the UD validator's level-6 test names
(``cross-sentence-mention``, ``entity-across-newdoc``, ``same-span-entity-mentions``, ...).
This module describes those ids and adds the checks that need the whole document: crossing
(ill-nested) mentions, entity ids other tools cannot read, split-antecedent lists that differ
between mentions of one set, and chunk cells that are not in the canonical order
(conversion-notes §5; a warning, since every reader pairs them anyway).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from corefkit.checks.plugins import (
    FileChecks,
    FormatPlugin,
    Incident,
    conll_like_token_line,
    entity_name,
    first_mention,
    mention_incident,
    mention_text,
    sentence_label,
)
from corefkit.checks.registry import ERROR, WARNING, Check, register
from corefkit.converters.corefud.misc import CHUNK_RE, ID_FIELDS  # the reader's own grammar
from corefkit.converters.corefud.udformat import UdFormat
from corefkit.model import IDENTITY, Document, Entity, Mention
from corefkit.model.overlaps import crossings, more

FORMAT = "corefud"
NON_UNIQUE_SENT_ID = "corefud.non-unique-sent-id"
MULTIPLE_SENT_ID = "corefud.multiple-sent-id"
ILL_NESTED = "corefud.ill-nested-entities"
CROSSING_SAME_ENTITY = "corefud.crossing-mentions-same-entity"
SPURIOUS_ENTITY_ID = "corefud.spurious-entity-id"
SPLIT_MISMATCH = "corefud.split-antecedent-mismatch"
BRACKET_ORDER = "corefud.bracket-order"

# characters an id may not hold: udapi's set plus those of SplitAnte/Bridge lists
FORBIDDEN_ID_RE = re.compile(r"[-=|\s()\[\]<>,:]")

# The UD validator's tests (udtools' ``udvalidate --level 2 --coref``) that corefkit reports
# under another id: its reader rejects or repairs the same incident under a name of its own,
# which stays for compatibility (docs/deviations.md §8 gives the reasons). Every other UD
# test that corefkit finds is reported as ``corefud.<ud test id>``.
UD_EQUIVALENTS: dict[str, tuple[str, ...]] = {
    "number-of-columns": ("corefud.bad-columns",),
    # a byte-order mark makes the UD validator read the file's first line as a spurious line,
    # the comments after it as misplaced, and a global.Entity among them as absent
    "invalid-line": ("corefud.byte-order-mark",),
    "misplaced-comment": ("corefud.byte-order-mark",),
    "entity-without-global-entity": ("corefud.byte-order-mark",),
    "invalid-word-id": ("corefud.bad-id",),
    "word-interval-out": ("corefud.bad-mwt",),
    "invalid-utf": ("text.invalid-utf8",),
    "spurious-global-entity": ("corefud.global-entity-no-id", "corefud.global-entity-bad"),
    "multiple-entity-statements": ("corefud.repeated-entity",),
    "multiple-bridge-statements": ("corefud.repeated-bridge",),
    "multiple-splitante-statements": ("corefud.repeated-splitante",),
    "spurious-entity-statement": ("corefud.bracket-order", "corefud.missing-eid"),
    "too-many-entity-attributes": ("corefud.too-many-fields",),
    "spurious-entity-id": ("corefud.bad-discontinuous",),
    "misplaced-mention-part": ("corefud.bad-discontinuous",),
    "spurious-mention-head": ("corefud.mention-head-not-number",),
    # the UD validator skips every bracket of a node with two Entity items, which leaves the
    # mentions they open or close unpaired for it
    "ill-nested-entities": ("corefud.unbalanced-close", "corefud.cross-sentence-mention",
                            "corefud.repeated-entity"),
    "ill-nested-entities-warning": ("corefud.ill-nested-entities",
                                    "corefud.crossing-mentions-same-entity",
                                    "corefud.bracket-order"),
    "cross-sentence-mention": ("corefud.unclosed", "corefud.bad-discontinuous",
                               "corefud.repeated-entity"),
    "spurious-bridge-statement": ("corefud.bad-bridge", "corefud.bridge-relation"),
    "spurious-bridge-relation": ("corefud.bridge-self-reference",),
    "spurious-splitante-statement": ("corefud.bad-splitante",),
    "spurious-splitante-relation": ("corefud.splitante-self-reference",),
}


def _reader(check: str, level: int, severity: str, explanation: str,
            malformed: bool | None = None) -> Check:
    return Check("corefud." + check, level, severity, explanation, FORMAT, "reader", malformed)


def _ud(check: str, level: int, explanation: str, severity: str = ERROR) -> Check:
    """A test of the UD validator that the validation plugin makes (:mod:`.udformat`). The
    reader does not make these: a plain ``corefkit.read`` reads the file as it stands
    (``malformed=False`` for those of level 1), every command refuses their errors
    (:mod:`corefkit.converters.gate`)."""
    return Check("corefud." + check, level, severity, explanation, FORMAT,
                 malformed=False if level == 1 else None)


register(
    # rejections
    _reader("bad-columns", 1, ERROR, "a token line without exactly 10 TAB-separated fields"),
    _reader("invalid-line", 1, ERROR,
            "a line that is neither a comment (#), a token line (starting with a digit) nor "
            "blank (the UD validator's invalid-line)"),
    _reader("reversed-word-interval", 1, ERROR,
            "a multiword-token range N-M with M < N (the UD validator's reversed-word-interval)"),
    _reader("invalid-word-id", 1, ERROR,
            "a token id that is no word id (1, 2, ...), range (4-5) or empty node id (3.1) "
            "(the UD validator's invalid-word-id)"),
    _reader("word-id-sequence", 1, ERROR,
            "word ids that do not run 1, 2, 3, ... through a sentence (the UD validator's "
            "word-id-sequence)"),
    _reader("misplaced-empty-node", 1, ERROR,
            "an empty node N.M that does not follow word N and empty nodes N.1 ... N.(M-1), or "
            "that stands between a multiword-token line and its words"),
    _reader("misplaced-word-interval", 1, ERROR,
            "a multiword-token range line after its first word (a range comes right before "
            "its words)"),
    _reader("overlapping-word-intervals", 1, ERROR,
            "multiword-token ranges of one sentence that share words"),
    _reader("word-interval-out", 1, ERROR,
            "a multiword-token range that ends after the sentence's last word"),
    # line structure: errors for the UD validator, read as they stand (not refused)
    _reader("misplaced-comment", 1, ERROR,
            "a comment line between the token lines of a sentence (read as the sentence's)",
            malformed=False),
    _reader("pseudo-empty-line", 1, ERROR,
            "a line of white space only where a blank line ends a sentence", malformed=False),
    _reader("empty-sentence", 1, ERROR,
            "a blank line that ends no sentence: two blank lines in a row, a blank first line, "
            "or comments with no token lines", malformed=False),
    _reader("missing-empty-line", 1, ERROR,
            "the file does not end with a blank line after its last sentence", malformed=False),
    _reader("non-unix-newline", 1, ERROR,
            "lines ending in CR LF or CR; CoNLL-U lines end with LF", malformed=False),
    _reader("byte-order-mark", 1, ERROR,
            "a byte-order mark (U+FEFF) at the start of the file; the UD validator reads the "
            "first line as a spurious line (invalid-line)", malformed=False),
    _reader("bad-id", 1, ERROR, "a multiword-token id that is not a range N-M with M >= N"),
    _reader("bad-mwt", 1, ERROR, "a multiword-token line not followed by its words"),
    _reader("entity-mwt", 1, ERROR,
            "Entity on a multiword-token range line; mentions attach to syntactic words"),
    _reader("missing-eid", 1, ERROR, "an opening bracket without an id at the declared position"),
    _reader("spurious-entity-statement", 1, ERROR,
            "an Entity value that is not a sequence of chunks (e1-person-1, e1) and (e1-person-1)"),
    _reader("unbalanced-close", 1, ERROR, "a closing bracket whose id has no open mention"),
    _reader("unclosed", 1, ERROR,
            "mentions (or parts of a discontinuous mention) still open at the end of a document"),
    _reader("bad-discontinuous", 1, ERROR,
            "discontinuous parts [i/n] numbered wrongly or opened out of order"),
    _reader("bad-splitante", 1, ERROR, "a SplitAnte item that is not ANTECEDENT<SET"),
    _reader("splitante-self-reference", 1, ERROR,
            "a SplitAnte item that makes a set its own member (dropped)"),
    _reader("bad-bridge", 1, ERROR, "a Bridge item that is not ANCHOR<ANAPHOR[:relation]"),
    _reader("bridge-self-reference", 2, WARNING,
            "a Bridge item that links an entity to itself (kept by the reader)"),
    _reader("global-entity-no-id", 1, ERROR,
            "a '# global.Entity' declaration without an id field (eid or GRP)"),
    _reader("global-entity-bad", 1, ERROR, "a '# global.Entity' declaration with an empty field name"),
    # repairs (most are errors for the UD validator: the file is not valid CorefUD)
    _reader("entity-without-global-entity", 2, WARNING,
            "Entity values without a '# global.Entity' declaration (bare numbers are read as GRP "
            "ids; anything else cannot be read)"),
    _reader("global-entity-mismatch", 2, ERROR,
            "a '# global.Entity' declaration that differs from an earlier one of the file"),
    _reader("repeated-entity", 2, ERROR, "a second Entity item on one node (the first is kept)"),
    _reader("repeated-splitante", 2, ERROR, "a second SplitAnte item on one node (the first is kept)"),
    _reader("repeated-bridge", 2, ERROR, "a second Bridge item on one node (the first is kept)"),
    _reader("too-many-entity-attributes", 2, ERROR,
            "a closing bracket that carries attributes (an old notation); closers carry the id only"),
    _reader("too-many-fields", 2, ERROR,
            "an opening bracket with more fields than '# global.Entity' declares"),
    _reader("spurious-entity-type", 2, ERROR,
            "an entity type outside CorefUD's list (person, place, organization, animal, plant, "
            "object, substance, time, number, abstract, event, other)"),
    _reader("mention-head-not-number", 2, ERROR,
            "a head field that is empty or not a number 1, 2, ... (the UD validator's "
            "spurious-mention-head)"),
    _reader("bad-min-span", 2, ERROR, "a minimum span field that is not a comma list of numbers"),
    _reader("splitante-without-entity", 2, ERROR, "SplitAnte on a node without Entity"),
    _reader("bridge-without-entity", 2, ERROR, "Bridge on a node without Entity"),
    _reader("bridge-relation", 2, ERROR, "a bridging relation that is not [a-z]+"),
    _reader("mention-head-out-of-range", 3, ERROR,
            "a head index larger than the mention's node count (empty nodes and all parts of a "
            "discontinuous mention count)"),
    _reader("min-outside-span", 3, WARNING, "a minimum span outside its mention (dropped)"),
    _reader("mention-attribute-mismatch", 3, ERROR,
            "the parts of one discontinuous mention carry different fields"),
    _reader("entity-type-mismatch", 3, ERROR, "mentions of one entity with different entity types"),
    _reader("entity-identity-mismatch", 3, ERROR,
            "mentions of one entity with different identity (entity linking) values"),
    _reader("same-span-entity-mentions", 3, ERROR,
            "two mentions on the same nodes (of one entity or of two)"),
    _reader("cross-sentence-mention", 3, ERROR,
            "a mention that crosses a sentence boundary: invalid in CorefUD (the UA compact "
            "proposal allows it)"),
    _reader("entity-across-newdoc", 3, ERROR,
            "an eid used again after a later '# newdoc'; eids are unique per file"),
    _reader("splitante-unknown-entity", 3, ERROR,
            "SplitAnte names an entity with no mention in the document (relation dropped)",
            malformed=True),
    _reader("misplaced-splitante-statement", 3, ERROR,
            "SplitAnte on a node where no mention of the set entity starts"),
    _reader("only-one-split-antecedent", 3, ERROR,
            "a SplitAnte statement (or a split-antecedent set) with one antecedent; CorefUD "
            "requires at least two"),
    _reader("bridge-unknown-entity", 3, ERROR,
            "Bridge names an entity with no mention in the document (relation dropped)",
            malformed=True),
    _reader("misplaced-bridge-statement", 3, ERROR,
            "Bridge on a node where no mention of the anaphor entity starts"),
    _reader("repeated-bridge-relation", 3, ERROR, "the same bridging relation stated twice"),
    _reader("repeated-splitante-relation", 3, ERROR,
            "one SplitAnte value that states the same antecedent of a set twice"),
    _reader("bridge-relation-mismatch", 3, ERROR,
            "one anaphor/anchor pair stated twice with different relations"),
    # this module's checks
    Check(ILL_NESTED, 3, WARNING,
          "mentions of different entities cross (neither contains the other); allowed, but "
          "the UD validator warns and many tools assume well-nested brackets", FORMAT),
    Check(CROSSING_SAME_ENTITY, 3, ERROR,
          "two crossing mentions of one entity: invalid in CorefUD (brackets pair by id and "
          "cannot express it)", FORMAT),
    Check(SPURIOUS_ENTITY_ID, 2, ERROR,
          "an entity id with a character other tools cannot read (- = | ( ) [ ] < > , : or "
          "whitespace)", FORMAT),
    Check(SPLIT_MISMATCH, 3, ERROR,
          "mentions of one split-antecedent set state different SplitAnte member lists; every "
          "statement of a set must list the same members", FORMAT),
    Check(BRACKET_ORDER, 2, WARNING,
          "the chunks of an Entity value are not in the canonical order (closers inner before "
          "outer, then openers outer before inner, one-node chunks last, or first when nothing "
          "opens), which the UD validator and udapi expect", FORMAT),
    Check(NON_UNIQUE_SENT_ID, 2, ERROR,
          "a sent_id used by an earlier sentence of the file (the UD validator's "
          "non-unique-sent-id); tools that index sentences by id lose one", FORMAT),
    Check(MULTIPLE_SENT_ID, 2, ERROR,
          "a sentence with more than one '# sent_id' line (the UD validator's multiple-sent-id)",
          FORMAT),
    _ud("spurious-global-entity", 2,
        "a '# global.Entity' declaration (without GRP) that is not CorefUD's: lowercase "
        "fields, eid-etype-head first, other fourth if declared, each field once"),
    # the UD validator's CoNLL-U tests, level 1 (udformat.py)
    _ud("invalid-utf", 1, "a line holding U+FFFD, the replacement character of lost bytes"),
    _ud("unicode-normalization", 1, "text not in Unicode normalization form NFC"),
    _ud("empty-column", 1, "an empty field of a token line (an empty value is written '_')"),
    _ud("invalid-whitespace", 1,
        "white space in ID, UPOS, XPOS, FEATS, HEAD, DEPREL or DEPS"),
    _ud("invalid-whitespace-mwt", 1, "white space in the FORM or LEMMA of a multiword token"),
    _ud("leading-whitespace", 1, "a FORM, LEMMA or MISC value that starts with white space"),
    _ud("trailing-whitespace", 1, "a FORM, LEMMA or MISC value that ends with white space"),
    _ud("repeated-whitespace", 1,
        "a FORM, LEMMA or MISC value with two white-space characters in a row"),
    # level 2: nodes
    _ud("mwt-nonempty-field", 2,
        "a multiword-token line with a value other than '_' in LEMMA to DEPS (FEATS may be "
        "Typo=Yes)"),
    _ud("empty-node-nonempty-field", 2, "an empty node with a HEAD or DEPREL other than '_'"),
    _ud("unknown-upos", 2, "a UPOS that is not one of the 17 universal tags"),
    _ud("empty-string-in-xpos", 2, "an empty XPOS (a missing XPOS is written '_')"),
    _ud("unsorted-features", 2, "FEATS not sorted alphabetically (case-insensitively)"),
    _ud("invalid-feature", 2,
        "a FEATS item that is not Feature=Value ([A-Z][A-Za-z0-9]* names, [A-Z0-9][A-Za-z0-9]* "
        "values)"),
    _ud("repeated-feature-value", 2, "a feature that lists one value twice"),
    _ud("unsorted-feature-values", 2, "the values of a multi-valued feature not sorted"),
    _ud("repeated-feature", 2, "FEATS naming one feature twice"),
    _ud("invalid-deprel", 2, "a DEPREL that is not lowercase letters with one optional :subtype"),
    _ud("unknown-udeprel", 2, "a DEPREL whose main type is none of the 37 universal relations"),
    _ud("no-syntax", 2,
        "a document without syntax: UPOS, HEAD and DEPREL '_' on every word (keys made by "
        "hand, TSV exports, a library's output); scoring needs no tree, so it is one warning "
        "instead of the per-word UPOS, DEPREL and HEAD errors", WARNING),
    _ud("invalid-head", 2, "a HEAD that is not a word id or 0"),
    _ud("unknown-head", 2, "a HEAD that names no word or empty node of the sentence"),
    _ud("head-self-loop", 2, "a word that is its own HEAD"),
    _ud("multiple-roots", 2, "more than one word of a sentence with HEAD 0"),
    _ud("non-tree", 2,
        "words not reachable from the root through HEAD (a cycle, or no word with HEAD 0)"),
    _ud("invalid-deps", 2, "a DEPS value that is not '_' or a list of head:relation"),
    _ud("invalid-ehead", 2, "a DEPS head that is not a node id (word, empty node) or 0"),
    _ud("unknown-ehead", 2, "a DEPS head that names no node of the sentence"),
    _ud("unsorted-deps", 2, "DEPS not sorted by head"),
    _ud("unsorted-deps-2", 2, "the relations of one DEPS head not sorted"),
    _ud("repeated-deps", 2, "one head:relation stated twice in DEPS"),
    _ud("deps-self-loop", 2, "a DEPS item that makes a node its own head"),
    _ud("invalid-edeprel", 2,
        "an enhanced relation that is not udeprel[:subtype][:case-marker][:case]"),
    _ud("unknown-eudeprel", 2,
        "an enhanced relation whose main type is none of the universal relations (or ref)"),
    _ud("edeps-only-sometimes", 2,
        "enhanced dependencies (DEPS, empty nodes) in some sentences of a file and not in "
        "others"),
    _ud("unconnected-egraph", 2, "nodes not reachable from the root in the enhanced graph"),
    _ud("repeated-misc", 2,
        "a MISC attribute the UD documentation defines (SpaceAfter, Lang, Translit, "
        "LTranslit, Gloss, LId, LDeriv, Ref) stated twice on one line"),
    _ud("empty-misc", 2, "an empty MISC item (a '|' too many?)", WARNING),
    _ud("empty-misc-key", 2, "a MISC item =value without a name", WARNING),
    _ud("misc-extra-space", 2, "white space around the name or value of a MISC item", WARNING),
    _ud("misc-attr-typo", 2,
        "a MISC name that differs from a documented one (SpaceAfter, Lang, ...) in case or "
        "spaces", WARNING),
    # level 2: metadata
    _ud("invalid-sent-id", 2, "a '# sent_id' line that is not '# sent_id = ID' (ID without "
        "white space)"),
    _ud("missing-sent-id", 2, "a sentence without a '# sent_id' line"),
    _ud("slash-in-sent-id", 2,
        "a sent_id with more than one '/' (UD reserves the slash for parallel treebanks)"),
    _ud("invalid-parallel-id", 2,
        "a '# parallel_id' line that is not corpus/sentence[/altNpartN]"),
    _ud("multiple-parallel-id", 2, "a sentence with more than one '# parallel_id' line"),
    _ud("non-unique-parallel-id", 2, "a parallel_id used by an earlier sentence of the file"),
    _ud("parallel-id-alt", 2,
        "alt suffixes of one parallel sentence missing on some of its sentences, or not "
        "numbered 1, 2, 3 in order"),
    _ud("parallel-id-part", 2,
        "part suffixes of one parallel sentence missing on some of its sentences, or not "
        "numbered 1, 2, 3 in order"),
    _ud("multiple-newdoc", 2, "more than one '# newdoc' line before one sentence"),
    _ud("multiple-newpar", 2, "more than one '# newpar' line before one sentence"),
    _ud("spaceafter-newdocpar", 2,
        "a document or paragraph that starts after a token with SpaceAfter=No"),
    _ud("missing-text", 2, "a sentence without a '# text' line"),
    _ud("multiple-text", 2, "a sentence with more than one '# text' line"),
    _ud("empty-text", 2, "an empty '# text' line"),
    _ud("text-trailing-whitespace", 2, "a '# text' line that ends with white space"),
    _ud("nospaceafter-yes", 2, "NoSpaceAfter=Yes in MISC (UD writes SpaceAfter=No)"),
    _ud("spaceafter-value", 2, "a SpaceAfter value other than No"),
    _ud("spaceafter-empty-node", 2, "SpaceAfter=No on an empty node"),
    _ud("spaceafter-mwt-node", 2,
        "SpaceAfter=No on a word of a multiword token (the range line carries it)"),
    _ud("text-form-mismatch", 2, "the FORMs of a sentence that do not spell its '# text'"),
    _ud("missing-spaceafter", 2,
        "a token followed in '# text' by no space that lacks SpaceAfter=No"),
    _ud("text-extra-chars", 2, "characters at the end of '# text' that no FORM accounts for"),
)


class CorefudChecks(FileChecks):
    """Crossing mentions, ids, split-antecedent statements, bracket order, and the UD
    validator's CoNLL-U tests of levels 1-2 (:mod:`.udformat`)."""

    def __init__(self, file: str) -> None:
        super().__init__(file)
        self.ud = UdFormat()

    def document(self, doc: Document) -> Iterator[Incident]:
        yield from self.ud.document(doc)
        yield from _ill_nested(doc)
        yield from _ids(doc)
        yield from _split_statements(doc)
        yield from _bracket_order(doc)


def _ill_nested(doc: Document) -> Iterator[Incident]:
    """Each mention that crosses an earlier mention of another entity, once (overlaps.py)."""
    mentions = [m for m in doc.mentions if m.layer == IDENTITY and doc.entity_of(m) is not None]
    for found in crossings(mentions, group=doc.entity_of):
        b, a = found.mention, found.other
        ea, eb = doc.entity_of(a), doc.entity_of(b)
        assert ea is not None and eb is not None
        yield mention_incident(doc, b, ILL_NESTED,
                               f"{mention_text(doc, b)} of entity {entity_name(eb)} crosses "
                               f"{mention_text(doc, a)} of entity {entity_name(ea)}"
                               f"{more(found.more)}")


def _ids(doc: Document) -> Iterator[Incident]:
    for entity in doc.entities:
        original = str(entity.attrs.get("original_id", ""))
        forbidden = FORBIDDEN_ID_RE.search(original) if original else None
        if forbidden is not None:
            mention = first_mention(doc, entity)
            message = f"entity id {original!r} holds {forbidden.group()!r}"
            yield mention_incident(doc, mention, SPURIOUS_ENTITY_ID, message) \
                if mention is not None else Incident(SPURIOUS_ENTITY_ID, message, doc.line)


def _split_statements(doc: Document) -> Iterator[Incident]:
    # members stated at each evidence mention, per set entity
    stated: dict[Entity, dict[Mention, set[Entity]]] = {}
    for membership in doc.memberships():
        for mention in membership.evidence:
            stated.setdefault(membership.set_entity, {}).setdefault(mention, set()).add(
                membership.member)
    for set_entity, by_mention in stated.items():
        if len(by_mention) < 2:
            continue
        ordered = sorted(by_mention, key=lambda m: (m.start, m.id))
        first = by_mention[ordered[0]]
        for mention in ordered[1:]:
            if by_mention[mention] != first:
                def names(members: set[Entity]) -> str:
                    return ", ".join(entity_name(e) for e in sorted(members, key=lambda e: e.id))
                yield mention_incident(
                    doc, mention, SPLIT_MISMATCH,
                    f"SplitAnte of set {entity_name(set_entity)} lists "
                    f"{names(by_mention[mention])} here but {names(first)} at "
                    f"{mention_text(doc, ordered[0])}")
                break


def _entity_value(misc: str | None) -> str | None:
    if not misc or "Entity=" not in misc:
        return None
    for item in misc.split("|"):
        key, sep, value = item.partition("=")
        if sep and key == "Entity":
            return value
    return None


class _Chunk:
    __slots__ = ("kind", "start", "end")

    def __init__(self, kind: str, start: int, end: int) -> None:
        self.kind = kind    # "close", "open" or "one"
        self.start = start  # node position where the bracketed part opens
        self.end = end      # ... and where it closes


def _bracket_order(doc: Document) -> Iterator[Incident]:
    declaration = doc.attrs.get("corefud_declaration")
    if not declaration:
        return
    names = str(declaration).split("-")
    id_pos = next((i for i, n in enumerate(names) if n in ID_FIELDS), None)
    if id_pos is None:
        return
    cells: list[tuple[int, str, list[_Chunk]]] = []
    open_: dict[str, list[_Chunk]] = {}
    for token in doc.tokens:
        value = _entity_value(token.misc)
        if value is None:
            continue
        chunks: list[_Chunk] = []
        position = token.index
        for single, opener, closer in CHUNK_RE.findall(value):
            if single:
                chunks.append(_Chunk("one", position, position))
            elif opener:
                fields = opener.split("-")
                chunk = _Chunk("open", position, -1)
                chunks.append(chunk)
                if len(fields) > id_pos:
                    open_.setdefault(fields[id_pos], []).append(chunk)
            else:
                parts = closer.split("-")
                bracket_id = parts[id_pos] if "-" in closer and len(parts) > id_pos else closer
                stack = open_.get(bracket_id)
                if not stack:
                    return  # the reader would have rejected this; nothing sound to say
                match = stack.pop()
                match.end = position
                chunks.append(_Chunk("close", match.start, position))
        if len(chunks) > 1:
            cells.append((position, value, chunks))
    for position, value, chunks in cells:
        problem = _order_problem(chunks)
        if problem:
            yield Incident(BRACKET_ORDER, f"Entity={value}: {problem}", _token_line(doc, position),
                           sentence_label(doc, position))


def _order_problem(chunks: list[_Chunk]) -> str | None:
    kinds = [c.kind for c in chunks]
    if "open" in kinds:
        rank = {"close": 0, "open": 1, "one": 2}
        if any(rank[a] > rank[b] for a, b in zip(kinds, kinds[1:])):
            return "expected closers, then openers, then one-node chunks"
    elif any(a == "close" and b == "one" for a, b in zip(kinds, kinds[1:])):
        return "expected one-node chunks before closers when nothing opens here"
    closers = [c for c in chunks if c.kind == "close"]
    if any(a.start < b.start for a, b in zip(closers, closers[1:])):
        return "closers must close the inner (later-starting) mention first"
    openers = [c for c in chunks if c.kind == "open"]
    if any(a.end < b.end for a, b in zip(openers, openers[1:])):
        return "openers must open the outer (later-ending) mention first"
    return None


def _token_line(doc: Document, position: int) -> int | None:
    """The file line of a node, counted from its sentence's first line."""
    sentence = doc.sentences[doc.tokens[position].sentence] \
        if 0 <= doc.tokens[position].sentence < len(doc.sentences) else None
    line = sentence.attrs.get("line") if sentence is not None else None
    if sentence is None or not isinstance(line, int):
        return doc.line
    found = conll_like_token_line(doc.file or "", line - 1, position - sentence.start, _is_node_line)
    return found if found is not None else line


def _is_node_line(line: str) -> bool:
    """A word or empty-node line (multiword-token ranges are not nodes)."""
    head = line.split("\t", 1)[0]
    return bool(head) and head[0].isdigit() and "-" not in head


def _is_word_line(line: str) -> bool:
    head = line.split("\t", 1)[0]
    return head.isdigit()


def token_line(file: str, first_line: int | None, ordinal: int) -> int | None:
    """The line of a document's ``ordinal``-th word (empty nodes and ranges not counted)."""
    return conll_like_token_line(file, first_line, ordinal, _is_word_line)


PLUGIN = FormatPlugin(
    FORMAT,
    file_checks=CorefudChecks,
    covered={
        "mention.same-span": "corefud.same-span-entity-mentions",
        "mention.same-span-same-entity": "corefud.same-span-entity-mentions",
        "entity.across-documents": "corefud.entity-across-newdoc",
        "split.one-member": "corefud.only-one-split-antecedent",
        "split.missing-entity": "corefud.splitante-unknown-entity",
        "bridging.missing-anchor": "corefud.bridge-unknown-entity",
    },
    renamed={"mention.crossing-same-entity": CROSSING_SAME_ENTITY},
    token_line=token_line,
    announced=frozenset({"corefud.no-syntax"}),
)
