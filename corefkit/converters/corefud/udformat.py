"""The UD validator's CoNLL-U tests (levels 1 and 2) that the CorefUD reader leaves to ``validate``.

The reader checks what it must to read a file (ids, word intervals, the line structure; see
:mod:`.reader`); everything else the UD validator (``udvalidate --level 2``) requires of a
CoNLL-U file is checked here, on the columns the reader keeps verbatim: white space and empty
fields, Unicode normalization, UPOS, FEATS, DEPREL, DEPS, HEAD and the basic tree, MISC, and
the sentence metadata (sent_id, parallel_id, text, newdoc, newpar). The findings use the UD
validator's test ids (``corefud.<test id>``). The checks are written from the UD guidelines
(https://universaldependencies.org/format.html) and the validator's documented tests; none
changes how a file is read, so that scoring files with odd trees keeps working as the
official coreference scorers do.

:class:`UdFormat` holds what the tests carry from one sentence and one document to the next
(sent_ids and parallel_ids seen, whether enhanced graphs were seen, SpaceAfter=No at the end
of the last sentence).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from corefkit.checks.plugins import Incident
from corefkit.model import Document, Sentence

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)
COLUMNS = "ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC".split()

# the 17 universal part-of-speech tags and the 37 universal relations (UD v2)
UPOS_TAGS = frozenset("ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM "
                      "VERB X".split())
UDEPRELS = frozenset(
    "acl advcl advmod amod appos aux case cc ccomp clf compound conj cop csubj dep det "
    "discourse dislocated expl fixed flat goeswith iobj list mark nmod nsubj nummod obj obl "
    "orphan parataxis punct reparandum root vocative xcomp".split())
# MISC attributes the UD documentation defines (each at most once)
MISC_KNOWN = ("SpaceAfter", "Lang", "Translit", "LTranslit", "Gloss", "LId", "LDeriv", "Ref")
MISC_LOWER = {k.lower() for k in MISC_KNOWN}

WORD_RE = re.compile(r"[1-9][0-9]*")
EMPTY_RE = re.compile(r"([0-9]+)\.([1-9][0-9]*)")
MWT_RE = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)")
HEAD_RE = re.compile(r"0|[1-9][0-9]*")
EHEAD_RE = re.compile(r"(?:0|[1-9][0-9]*)(?:\.[1-9][0-9]*)?")
DEPREL_RE = re.compile(r"[a-z]+(?::[a-z]+)?")
ASCII_PART_RE = re.compile(r"[a-z]+")
FEATURE_RE = re.compile(r"([A-Z][A-Za-z0-9]*(?:\[[a-z0-9]+\])?)="
                        r"([A-Z0-9][A-Za-z0-9]*(?:,[A-Z0-9][A-Za-z0-9]*)*)")
SPACE_RE = re.compile(r"\s")
NOT_TAB_SPACE_RE = re.compile(r"[^\S\t]")
DOUBLE_SPACE_RE = re.compile(r"\s\s")
SENT_ID_RE = re.compile(r"#\s*sent_id\s*=\s*(\S+)")
PARALLEL_ID_RE = re.compile(r"#\s*parallel_id\s*=\s*(([a-z]+)/([-0-9a-z]+)"
                            r"(?:/(alt[1-9][0-9]*|part[1-9][0-9]*|alt[1-9][0-9]*part[1-9][0-9]*))?)")
ALT_PART_RE = re.compile(r"(?:alt([0-9]+))?(?:part([0-9]+))?")
TEXT_RE = re.compile(r"#\s*text\s*=\s*(.*)")
NEWPAR_RE = re.compile(r"#\s*newpar(?:\s|$)")
GLOBAL_ENTITY_RE = re.compile(r"#\s*global\.Entity\s*=\s*(.+)")


class Row:
    """One line of a sentence's token block: a multiword-token range, a word or an empty node."""

    __slots__ = ("kind", "cols", "line")

    def __init__(self, kind: str, cols: list[str], line: int | None) -> None:
        self.kind = kind  # "mwt", "word", "empty" or "bad" (an id the reader reported)
        self.cols = cols
        self.line = line


def _kind(tid: str) -> str:
    if WORD_RE.fullmatch(tid):
        return "word"
    if EMPTY_RE.fullmatch(tid):
        return "empty"
    if MWT_RE.fullmatch(tid):
        return "mwt"
    return "bad"


def rows(doc: Document, sentence: Sentence) -> list[Row]:
    """The lines of a sentence's token block, in file order, with their line numbers."""
    first = sentence.attrs.get("token_line")
    line = first if isinstance(first, int) else None
    found = []
    for token in doc.tokens[sentence.start:sentence.stop]:
        mwt = token.attrs.get("conllu_mwt") if token.attrs else None
        if mwt is not None:
            cols = str(mwt).split("\t")
            found.append(Row(_kind(cols[0]), cols, line))
            line = line + 1 if line is not None else None
        cols = [token.id or "", token.form, token.lemma or "", token.upos or "", token.xpos or "",
                token.feats or "", token.head or "", token.deprel or "", token.deps or "",
                token.misc or ""]
        found.append(Row(_kind(cols[0]), cols, line))
        line = line + 1 if line is not None else None
    return found


def _unicode_part(text: str) -> bool:
    """``[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+`` parts joined by single underscores."""
    for piece in text.split("_"):
        if not piece or not all(unicodedata.category(c) in ("Ll", "Lm", "Lo")
                                or unicodedata.category(c).startswith("M") for c in piece):
            return False
    return True


def edeprel_ok(deprel: str) -> bool:
    """An enhanced relation: ``udeprel[:subtype][:case-marker][:case]``, the case marker in
    lowercase letters of any script."""
    parts = deprel.split(":")
    if not ASCII_PART_RE.fullmatch(parts[0]) or len(parts) > 4:
        return False
    rest = parts[1:]
    ascii_ = [bool(ASCII_PART_RE.fullmatch(p)) for p in rest]
    if len(rest) <= 1:
        return all(_unicode_part(p) for p in rest)
    if len(rest) == 2:
        return (ascii_[0] and _unicode_part(rest[1])) or (_unicode_part(rest[0]) and ascii_[1])
    return ascii_[0] and _unicode_part(rest[1]) and ascii_[2]


def _node_key(node: str) -> tuple[int, int]:
    word, _, empty = node.partition(".")
    return int(word), int(empty) if empty else 0


class UdFormat:
    """The UD validator's level 1-2 tests over the documents of one file, in reading order."""

    def __init__(self) -> None:
        self.sent_ids: dict[str, int | None] = {}
        self.parallel_ids: set[str] = set()
        self.last_alt: dict[str, int | None] = {}
        self.last_part: dict[str, int | None] = {}
        self.with_graph: int | None = None     # first sentence line with enhanced deps
        self.without_graph: int | None = None  # first sentence line without
        self.space_after_no = False            # the last token read had SpaceAfter=No
        self.declarations: set[str] = set()
        self.bare = False                      # the document has no syntax at all

    # ------------------------------------------------------------------ a document
    def document(self, doc: Document) -> Iterator[Incident]:
        yield from self.declarations_of(doc)
        yield from self.syntax(doc)
        doc_comments = doc.attrs.get("conllu_doc_comments") or []
        newdocs = [c for c in doc_comments if c[1] == "newdoc"]
        for number, sentence in enumerate(doc.sentences):
            where = sentence.sent_id or str(number + 1)
            comment_line = sentence.attrs.get("line")
            first_line = comment_line if isinstance(comment_line, int) else doc.line
            block = rows(doc, sentence)
            token_line = block[0].line if block and block[0].line is not None else first_line
            for row in block:
                yield from self.row_format(row, where)
            for comment in sentence.comments:
                yield from self.text_line(comment, first_line, where)
            if number == 0:
                for _, _, raw in doc_comments:
                    yield from self.text_line(raw, doc.line, where)
            yield from self.references_and_tree(block, token_line, where)
            for row in block:
                yield from self.row_values(row, where)
            yield from self.graphs(block, token_line, where)
            yield from self.sent_id(sentence.comments, token_line, where)
            yield from self.parallel_id(sentence.comments, token_line, where)
            yield from self.metadata(sentence.comments, block, token_line, where,
                                     len(newdocs) if number == 0 else 0)

    def syntax(self, doc: Document) -> Iterator[Incident]:
        """A document without any syntax (UPOS, HEAD and DEPREL ``_`` on every word: keys
        made by hand, TSV exports, a library's output) is one warning, not a tree error per
        word; the per-word UPOS, DEPREL and HEAD tests are skipped for it."""
        words = [t for t in doc.tokens if not t.is_empty]
        self.bare = bool(words) and all(
            value in (None, "", "_") for t in words for value in (t.upos, t.head, t.deprel))
        if self.bare:
            yield Incident("corefud.no-syntax",
                           f"{len(words)} words have no UPOS, HEAD or DEPREL (the document has "
                           "no dependency tree); scoring does not need one, but UD validation "
                           "refuses such a file: parse the text (UDPipe, Stanza) where a tree "
                           "is required", doc.line)

    def declarations_of(self, doc: Document) -> Iterator[Incident]:
        """CorefUD's ``# global.Entity``: eid, etype and head first, in that order, then other;
        lowercase names, each once. Declarations with GRP (the UA compact profile) are not
        CorefUD's and are left alone."""
        doc_comments = doc.attrs.get("conllu_doc_comments") or []
        found = [(raw, doc.line) for _, kind, raw in doc_comments if kind == "global.Entity"]
        for sentence in doc.sentences:
            line = sentence.attrs.get("line")
            found += [(c, line if isinstance(line, int) else doc.line)
                      for c in sentence.comments if c.startswith(("# global.", "#global."))]
        for raw, line in found:
            matched = GLOBAL_ENTITY_RE.fullmatch(raw)
            if matched is None or matched.group(1) in self.declarations:
                continue
            value = matched.group(1)
            self.declarations.add(value)
            names = value.strip().split("-")
            if "GRP" in names:
                continue
            problem = None
            if not re.fullmatch(r"[a-z]+(?:-[a-z]+)*", value):
                problem = "field names are lowercase letters joined by '-'"
            elif names[:3] != ["eid", "etype", "head"]:
                problem = "it starts 'eid-etype-head'"
            elif "other" in names and names[3] != "other":
                problem = "'other', if declared, comes fourth"
            elif len(set(names)) != len(names):
                problem = "each field is declared once"
            if problem is not None:
                yield Incident("corefud.spurious-global-entity",
                               f"global.Entity declaration {value!r}: CorefUD requires that "
                               f"{problem}", line)

    # ------------------------------------------------------------------ level 1
    def row_format(self, row: Row, where: str) -> Iterator[Incident]:
        cols = row.cols
        raw = "\t".join(cols)
        if "\ufffd" in raw:
            column = next(i for i, c in enumerate(cols) if "\ufffd" in c)
            yield Incident("corefud.invalid-utf", f"{COLUMNS[column]} holds U+FFFD (the "
                           "replacement character): a byte the UTF-8 encoding lost", row.line,
                           where)
        if not raw.isascii() and not unicodedata.is_normalized("NFC", raw):
            column = next(i for i, c in enumerate(cols)
                          if not unicodedata.is_normalized("NFC", c))
            yield Incident("corefud.unicode-normalization",
                           f"{COLUMNS[column]} {cols[column]!r} is not in Unicode normalization "
                           "form NFC (a base letter followed by combining marks?)", row.line,
                           where)
        if "" not in cols and NOT_TAB_SPACE_RE.search(raw) is None:
            return
        mwt = row.kind == "mwt"
        for i, value in enumerate(cols):
            if mwt and i in (FORM, LEMMA) and SPACE_RE.search(value):
                yield Incident("corefud.invalid-whitespace-mwt",
                               f"white space in the {COLUMNS[i]} of multiword token {value!r}; "
                               "a token with a space is no single surface token", row.line, where)
            elif i in (ID, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS) and SPACE_RE.search(value):
                yield Incident("corefud.invalid-whitespace",
                               f"white space in {COLUMNS[i]} {value!r}", row.line, where)
            elif not value:
                yield Incident("corefud.empty-column", f"empty {COLUMNS[i]}; an empty value is "
                               "written '_'", row.line, where)
            else:
                if value[0].isspace():
                    yield Incident("corefud.leading-whitespace",
                                   f"{COLUMNS[i]} {value!r} starts with white space", row.line,
                                   where)
                if value[-1].isspace():
                    yield Incident("corefud.trailing-whitespace",
                                   f"{COLUMNS[i]} {value!r} ends with white space", row.line,
                                   where)
                if DOUBLE_SPACE_RE.search(value):
                    yield Incident("corefud.repeated-whitespace",
                                   f"{COLUMNS[i]} {value!r} holds two white-space characters in "
                                   "a row", row.line, where)

    def text_line(self, comment: str, line: int | None, where: str) -> Iterator[Incident]:
        if "\ufffd" in comment:
            yield Incident("corefud.invalid-utf", "a comment holds U+FFFD (the replacement "
                           "character): a byte the UTF-8 encoding lost", line, where)
        if not comment.isascii() and not unicodedata.is_normalized("NFC", comment):
            yield Incident("corefud.unicode-normalization",
                           f"comment {comment[:40]!r} is not in Unicode normalization form NFC",
                           line, where)

    # ------------------------------------------------------------------ level 2: nodes
    def row_values(self, row: Row, where: str) -> Iterator[Incident]:
        cols, line, kind = row.cols, row.line, row.kind
        if kind == "mwt":
            for i in range(LEMMA, MISC):
                if cols[i] != "_" and not (i == FEATS and cols[i] == "Typo=Yes"):
                    yield Incident("corefud.mwt-nonempty-field",
                                   f"a multiword-token line has {COLUMNS[i]} {cols[i]!r}; only "
                                   "FORM and MISC are filled", line, where)
        elif kind == "empty":
            for i in (HEAD, DEPREL):
                if cols[i] != "_":
                    yield Incident("corefud.empty-node-nonempty-field",
                                   f"an empty node has {COLUMNS[i]} {cols[i]!r}; it is '_' (the "
                                   "node's relations are in DEPS)", line, where)
        if kind in ("word", "empty"):
            upos = cols[UPOS]
            if not ((kind == "empty" or self.bare) and upos == "_") and upos not in UPOS_TAGS:
                yield Incident("corefud.unknown-upos", f"UPOS {upos!r} is not one of the 17 "
                               "universal tags", line, where)
            if cols[XPOS] == "":
                yield Incident("corefud.empty-string-in-xpos", "XPOS is empty; a missing XPOS "
                               "is written '_'", line, where)
            yield from self.features(cols[FEATS], line, where)
            if kind == "word" and not self.bare:
                deprel = cols[DEPREL]
                if not DEPREL_RE.fullmatch(deprel):
                    yield Incident("corefud.invalid-deprel", f"DEPREL {deprel!r} is not a "
                                   "relation (lowercase letters, one optional ':subtype')",
                                   line, where)
                elif deprel.split(":", 1)[0] not in UDEPRELS:
                    yield Incident("corefud.unknown-udeprel", f"DEPREL {deprel!r} is no "
                                   "universal relation", line, where)
        yield from self.misc(cols[MISC], line, where)

    def features(self, feats: str, line: int | None, where: str) -> Iterator[Incident]:
        if feats == "_":
            return
        items = feats.split("|")
        if [f.lower() for f in items] != sorted(f.lower() for f in items):
            yield Incident("corefud.unsorted-features", f"FEATS {feats!r} is not sorted "
                           "alphabetically", line, where)
        names = set()
        for item in items:
            found = FEATURE_RE.fullmatch(item)
            if found is None:
                names.add(item)
                yield Incident("corefud.invalid-feature", f"feature {item!r} is not Feature=Value "
                               "(a name [A-Z][A-Za-z0-9]*, values [A-Z0-9][A-Za-z0-9]*)", line,
                               where)
                continue
            names.add(found.group(1))
            values = found.group(2).split(",")
            if len(set(values)) != len(values):
                yield Incident("corefud.repeated-feature-value",
                               f"feature {item!r} repeats a value", line, where)
            if [v.lower() for v in values] != sorted(v.lower() for v in values):
                yield Incident("corefud.unsorted-feature-values",
                               f"the values of feature {item!r} are not sorted", line, where)
        if len(names) != len(items):
            yield Incident("corefud.repeated-feature", f"FEATS {feats!r} names a feature twice",
                           line, where)

    def misc(self, misc: str, line: int | None, where: str) -> Iterator[Incident]:
        if misc == "_":
            return
        counts: dict[str, int] = {}
        for item in misc.split("|"):
            key, sep, value = item.partition("=")
            if key == "":
                if not sep:
                    yield Incident("corefud.empty-misc", "an empty MISC item (a '|' too many?)",
                                   line, where)
                else:
                    yield Incident("corefud.empty-misc-key",
                                   f"MISC item {item!r} has no name", line, where)
            if key[:1].isspace() or key[-1:].isspace() or value[:1].isspace() \
                    or value[-1:].isspace():
                yield Incident("corefud.misc-extra-space", f"MISC item {item!r} has white "
                               "space around its name or value", line, where)
            if key in MISC_KNOWN:
                counts[key] = counts.get(key, 0) + 1
            elif key.strip().lower() in MISC_LOWER:
                yield Incident("corefud.misc-attr-typo", f"MISC item {item!r}: a typo of one of "
                               f"{', '.join(MISC_KNOWN)} (case or spaces)?", line, where)
        for key, n in counts.items():
            if n > 1:
                yield Incident("corefud.repeated-misc", f"MISC states {key} {n} times; it is "
                               "stated once", line, where)

    # ------------------------------------------------------------------ level 2: the tree
    def references_and_tree(self, block: list[Row], line: int | None,
                            where: str) -> Iterator[Incident]:
        ids = {r.cols[ID] for r in block if r.kind in ("word", "empty")}
        heads_ok = True
        for row in block:
            if row.kind not in ("word", "empty"):
                heads_ok = heads_ok and row.kind == "mwt"
                continue
            head = row.cols[HEAD]
            if self.bare:
                heads_ok = False  # no tree to check (one corefud.no-syntax warning)
            elif row.kind == "word":
                if not HEAD_RE.fullmatch(head):
                    heads_ok = False
                    yield Incident("corefud.invalid-head", f"HEAD {head!r} is not a word id or 0",
                                   row.line, where)
                if head != "0" and head not in ids:
                    heads_ok = False
                    yield Incident("corefud.unknown-head", f"HEAD {head!r} names no node of the "
                                   "sentence", row.line, where)
            deps = row.cols[DEPS]
            if deps == "_":
                continue
            pairs = [item.split(":", 1) for item in deps.split("|")]
            if any(len(p) != 2 for p in pairs):
                yield Incident("corefud.invalid-deps", f"DEPS {deps!r} is not a list of "
                               "head:relation", row.line, where)
                continue
            for ehead, _ in pairs:
                if not EHEAD_RE.fullmatch(ehead):
                    yield Incident("corefud.invalid-ehead", f"DEPS head {ehead!r} is not a node "
                                   "id or 0", row.line, where)
                if ehead != "0" and ehead not in ids:
                    yield Incident("corefud.unknown-ehead", f"DEPS head {ehead!r} names no node "
                                   "of the sentence", row.line, where)
        words = [r for r in block if r.kind == "word"]
        if not heads_ok or [r.cols[ID] for r in words] != [str(i) for i in
                                                           range(1, len(words) + 1)]:
            return  # the ids or heads are broken: reported above or by the reader
        children: dict[int, list[int]] = {}
        for row in words:
            wid, parent = int(row.cols[ID]), int(row.cols[HEAD])
            if parent == wid:
                yield Incident("corefud.head-self-loop", f"word {wid} is its own HEAD", row.line,
                               where)
                return
            children.setdefault(parent, []).append(wid)
        roots = children.get(0, [])
        if len(roots) > 1:
            yield Incident("corefud.multiple-roots", f"words {', '.join(map(str, roots))} all "
                           "have HEAD 0; a tree has one root", line, where)
            return
        reached: set[int] = set()
        todo = [0]
        while todo:
            for child in children.get(todo.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    todo.append(child)
        missing = [r for r in range(1, len(words) + 1) if r not in reached]
        if missing:
            shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
            yield Incident("corefud.non-tree", f"words {shown} are not reachable from the root "
                           "(a cycle, or no word with HEAD 0)", line, where)

    def graphs(self, block: list[Row], line: int | None, where: str) -> Iterator[Incident]:
        """DEPS: the enhanced graph in every sentence or in none, well-formed, connected."""
        nodes = [r for r in block if r.kind in ("word", "empty")]
        exists = any(r.kind == "empty" or r.cols[DEPS] != "_" for r in nodes)
        if exists:
            if self.with_graph is None:
                self.with_graph = line
                if self.without_graph is not None:
                    yield Incident("corefud.edeps-only-sometimes",
                                   "this sentence has enhanced dependencies (DEPS), but the one "
                                   f"on line {self.without_graph} has none", line, where)
        elif self.without_graph is None:
            self.without_graph = line
            if self.with_graph is not None:
                yield Incident("corefud.edeps-only-sometimes",
                               "this sentence has no enhanced dependencies (DEPS), but the one "
                               f"on line {self.with_graph} has", line, where)
        if not exists:
            return
        ids = {r.cols[ID] for r in nodes}
        children: dict[str, set[str]] = {"0": set()}
        for row in nodes:
            node = row.cols[ID]
            deps = row.cols[DEPS]
            pairs = [] if deps == "_" else [item.split(":", 1) for item in deps.split("|")]
            if any(len(p) != 2 or (p[0] != "0" and p[0] not in ids)
                   or not EHEAD_RE.fullmatch(p[0]) for p in pairs):
                return  # reported by references_and_tree
            yield from self.deps_format(row, pairs, where)
            for head, _ in pairs:
                children.setdefault(head, set()).add(node)
        reached: set[str] = set()
        todo = ["0"]
        while todo:
            for child in children.get(todo.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    todo.append(child)
        missing = sorted(ids - reached, key=_node_key)
        if missing:
            yield Incident("corefud.unconnected-egraph", f"nodes {', '.join(missing[:10])} are "
                           "not reachable from the root in the enhanced graph", line, where)

    def deps_format(self, row: Row, pairs: list[list[str]], where: str) -> Iterator[Incident]:
        deps, line = row.cols[DEPS], row.line
        heads = [_node_key(h) for h, _ in pairs]
        if heads != sorted(heads):
            yield Incident("corefud.unsorted-deps", f"DEPS {deps!r} is not sorted by head",
                           line, where)
        else:
            for (h1, d1), (h2, d2) in zip(pairs, pairs[1:]):
                if h1 == h2 and d2 < d1:
                    yield Incident("corefud.unsorted-deps-2", f"the relations of head {h1} in "
                                   f"DEPS {deps!r} are not sorted", line, where)
                elif h1 == h2 and d1 == d2:
                    yield Incident("corefud.repeated-deps", f"DEPS {deps!r} states {h1}:{d1} "
                                   "twice", line, where)
        if _node_key(row.cols[ID]) in heads:
            yield Incident("corefud.deps-self-loop", f"DEPS {deps!r} makes node {row.cols[ID]} "
                           "its own head", line, where)
        for head, deprel in pairs:
            if not edeprel_ok(deprel):
                yield Incident("corefud.invalid-edeprel", f"enhanced relation {deprel!r} is not "
                               "udeprel[:subtype][:case-marker][:case]", line, where)
            elif deprel.split(":", 1)[0] not in UDEPRELS | {"ref"}:
                yield Incident("corefud.unknown-eudeprel", f"enhanced relation {deprel!r} is no "
                               "universal relation", line, where)

    # ------------------------------------------------------------------ level 2: metadata
    def sent_id(self, comments: list[str], line: int | None, where: str) -> Iterator[Incident]:
        matched = []
        for comment in comments:
            found = SENT_ID_RE.fullmatch(comment)
            if found is not None:
                matched.append(found.group(1))
            elif comment.startswith(("# sent_id", "#sent_id")):
                yield Incident("corefud.invalid-sent-id", f"{comment!r} is not '# sent_id = ID' "
                               "with an ID without white space", line, where)
        if not matched:
            yield Incident("corefud.missing-sent-id", "the sentence has no '# sent_id' line",
                           line, where)
        elif len(matched) == 1:
            sid = matched[0]
            if sid in self.sent_ids:
                seen = self.sent_ids[sid]
                at = f" (line {seen})" if seen is not None else ""
                yield Incident("corefud.non-unique-sent-id", f"sent_id {sid!r} is used by an "
                               f"earlier sentence{at}; sent_ids must be unique in a file", line,
                               where)
            else:
                self.sent_ids[sid] = line
            if sid.count("/") > 1:
                yield Incident("corefud.slash-in-sent-id", f"sent_id {sid!r} holds more than "
                               "one '/'; UD reserves the slash for parallel treebanks", line,
                               where)
        else:
            yield Incident("corefud.multiple-sent-id", f"the sentence has {len(matched)} "
                           "'# sent_id' lines; keep one", line, where)

    def parallel_id(self, comments: list[str], line: int | None,
                    where: str) -> Iterator[Incident]:
        matched = []
        for comment in comments:
            found = PARALLEL_ID_RE.fullmatch(comment)
            if found is not None:
                matched.append(found)
            elif comment.startswith(("# parallel_id", "#parallel_id")):
                yield Incident("corefud.invalid-parallel-id",
                               f"{comment!r} is not '# parallel_id = corpus/sentence[/altN"
                               "partN]' (corpus [a-z]+, sentence [-0-9a-z]+)", line, where)
        if len(matched) > 1:
            yield Incident("corefud.multiple-parallel-id", "the sentence has "
                           f"{len(matched)} '# parallel_id' lines", line, where)
            return
        if not matched:
            return
        pid = matched[0].group(1)
        if pid in self.parallel_ids:
            yield Incident("corefud.non-unique-parallel-id", f"parallel_id {pid!r} is used by "
                           "an earlier sentence", line, where)
            return
        self.parallel_ids.add(pid)
        sid = f"{matched[0].group(2)}/{matched[0].group(3)}"
        alt = part = None
        suffix = ALT_PART_RE.fullmatch(matched[0].group(4) or "")
        if matched[0].group(4) and suffix is not None:
            alt = int(suffix.group(1)) if suffix.group(1) else None
            part = int(suffix.group(2)) if suffix.group(2) else None
        for name, value, last, check in (("alt", alt, self.last_alt, "parallel-id-alt"),
                                         ("part", part, self.last_part, "parallel-id-part")):
            if sid in last:
                before = last[sid]
                if (before is None) != (value is None):
                    yield Incident(f"corefud.{check}", f"some sentences {sid!r} have the {name} "
                                   "suffix and others not", line, where)
                elif value is not None and before is not None and value != before + 1:
                    yield Incident(f"corefud.{check}", f"the {name} suffix of {sid!r} is "
                                   f"{value}, expected {before + 1}", line, where)
            elif value is not None and value != 1:
                yield Incident(f"corefud.{check}", f"the first {name} suffix of {sid!r} is "
                               f"{value}, expected 1", line, where)
            last[sid] = value

    def metadata(self, comments: list[str], block: list[Row], line: int | None, where: str,
                 newdocs: int) -> Iterator[Incident]:
        newpars = sum(1 for c in comments if NEWPAR_RE.match(c))
        if newdocs > 1:
            yield Incident("corefud.multiple-newdoc", f"{newdocs} '# newdoc' lines before one "
                           "sentence", line, where)
        if newpars > 1:
            yield Incident("corefud.multiple-newpar", f"{newpars} '# newpar' lines before one "
                           "sentence", line, where)
        if (newdocs or newpars) and self.space_after_no:
            yield Incident("corefud.spaceafter-newdocpar", "a new document or paragraph starts "
                           "here, but the last token before it has SpaceAfter=No", line, where)
        texts = [found.group(1) for c in comments if (found := TEXT_RE.fullmatch(c))]
        if not texts:
            yield Incident("corefud.missing-text", "the sentence has no '# text' line", line,
                           where)
            return
        if len(texts) > 1:
            yield Incident("corefud.multiple-text", f"the sentence has {len(texts)} '# text' "
                           "lines", line, where)
            return
        text = texts[0]
        if not text:
            yield Incident("corefud.empty-text", "the '# text' line is empty", line, where)
        elif text[-1].isspace():
            yield Incident("corefud.text-trailing-whitespace", "the '# text' line ends with "
                           "white space", line, where)
        skip: set[str] = set()
        mismatch = False
        for row in block:
            cols = row.cols
            misc = cols[MISC]
            if "NoSpaceAfter=Yes" in misc:
                yield Incident("corefud.nospaceafter-yes", "'NoSpaceAfter=Yes' is written "
                               "'SpaceAfter=No'", row.line, where)
            if any(x.startswith("SpaceAfter=") and x != "SpaceAfter=No" for x in misc.split("|")):
                yield Incident("corefud.spaceafter-value", "SpaceAfter has a value other than "
                               "No (SpacesAfter gives other spacing)", row.line, where)
            if row.kind == "empty":
                if "SpaceAfter=No" in misc:
                    yield Incident("corefud.spaceafter-empty-node", "an empty node has "
                                   "SpaceAfter=No; empty nodes are not in the text", row.line,
                                   where)
                continue
            if row.kind == "mwt":
                first, last = (int(x) for x in cols[ID].split("-"))
                skip.update(str(i) for i in range(first, last + 1))
            elif cols[ID] in skip:
                if "SpaceAfter=No" in misc:
                    yield Incident("corefud.spaceafter-mwt-node", "a word of a multiword token "
                                   "has SpaceAfter=No; the range line carries it", row.line,
                                   where)
                continue
            form = cols[FORM]
            if not text.startswith(form):
                if not mismatch:
                    mismatch = True
                    yield Incident("corefud.text-form-mismatch", f"FORM {form!r} of node "
                                   f"{cols[ID]} does not match the text at {text[:20]!r}",
                                   row.line, where)
                continue
            text = text[len(form):]
            if "SpaceAfter=No" in misc.split("|"):
                self.space_after_no = True
            else:
                self.space_after_no = False
                if text and not text[0].isspace():
                    yield Incident("corefud.missing-spaceafter", f"node {cols[ID]} {form!r} has "
                                   f"no SpaceAfter=No, but the text goes on {text[:15]!r}",
                                   row.line, where)
                text = text.lstrip()
        if text:
            yield Incident("corefud.text-extra-chars", f"the text ends with {text[:30]!r}, "
                           "which no FORM accounts for", line, where)
