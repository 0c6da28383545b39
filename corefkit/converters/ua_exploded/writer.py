"""CoNLL-UA exploded (Universal Anaphora in CoNLL-U Plus): the writer.

The writer emits canonical files (ua-exploded §6): the 15 default columns, TAB-separated,
markables and entities renumbered in canonical order (conversion-notes §1, §5; the old→new
table goes to the report), ``ElementOf`` on the recorded member markables (else placed as
conversion-notes §3 says). What it decides beyond the spec:

* Bracket order follows conversion-notes §5 except that a one-token markable is written
  *after* the closers also on a token without openers (``)(…)``): the UA scorers read
  ``(…))`` as a value ending in ``)`` (ua-exploded §3.1 and §7).
* Crossing is judged on bracket parts (the parts of two discontinuous markables may
  interleave without crossing). Without ``allow_id_closers`` the later of two crossing
  markables is left out and reported; with it every closer of that document names its
  markable, as the UA scorer's crossing mode needs — and since the closers name markables,
  not entities, this holds crossing markables of one entity too.
* ``Min`` is one range of word ids: a gapped min span is written as its hull, empty nodes at
  its ends are left out (the scorers read ``Min`` as integers), a head becomes the ``Min`` of
  a markable that has none; each is reported.
* Whitespace inside a token field becomes ``_`` (the UA scorers split lines on any
  whitespace); CorefUD's ``Entity``/``SplitAnte``/``Bridge`` items are not copied from MISC;
  entity attributes and document metadata have no place and are reported lost.

The choices themselves (which markables, which ids, where ElementOf, bridging anchors and
``Min`` go) are made by :class:`~corefkit.converters.ua_exploded.plan.Plan`; this module
renders them as lines and reports what the rendering changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.conllu_comments import (
    comment_line,
    newdoc_id,
    part_lines,
    sentence_comments,
)
from corefkit.converters.loss import (
    MAX_EXAMPLES,
    ConversionReport,
    LossRecord,
    record,
    speakers_by_sentence_lost,
    user_attributes,
)
from corefkit.converters.ua_exploded.columns import (
    COLUMNS_LINE,
    DEFAULT_COLUMNS,
    ID_NUMBER_RE,
    NOT_IN_VALUE_RE,
)
from corefkit.converters.ua_exploded.plan import Plan, nom_sem_keys
from corefkit.errors import Repair, counted
from corefkit.model import Document, Mention, Token

# Mention attributes the writer places itself (not as extra opener keys).
PLACED_ATTRIBUTES = frozenset({"semtype", "reference"})


def kept_conll_columns(doc: Document, **options: object) -> frozenset[str]:
    """The CoNLL-2012 columns this writer keeps: POS and the predicate lemma, which the
    reader puts into the model's XPOS and LEMMA (written as XPOS and LEMMA)."""
    return KEPT_CONLL_COLUMNS


KEPT_CONLL_COLUMNS = frozenset({"POS", "predicate lemma"})


def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {}


def partial_losses(doc: Document, *, allow_zeros: bool = False, allow_id_closers: bool = False,
                   align_spaces: bool = False) -> list[LossRecord]:
    """Loss records for what this document needs that the writer's options cannot hold.

    The format holds zeros only as UA scorer 2.0 ids (``allow_zeros``), crossing markables
    only with closers that name them (``allow_id_closers``), heads only as a Min, min spans
    only as one range, and one bridging anchor per markable (formats/README.md, loss table).
    """
    plan = Plan(doc, allow_zeros, allow_id_closers)
    return plan.losses + _field_losses(doc, plan) + record(
        doc, "speakers", speakers_by_sentence_lost(doc, (doc.tokens[i] for i in plan.ids)))


# the token columns after FORM, by the loss feature they belong to (HEAD and DEPREL: syntax)
FIELD_FEATURES = {"lemma": "lemmas", "upos": "pos", "xpos": "pos", "feats": "morphology",
                  "head": "syntax", "deprel": "syntax", "deps": "enhanced_deps"}


def _field_losses(doc: Document, plan: Plan) -> list[LossRecord]:
    """The tokens whose columns hold white space: each white-space character is written
    ``_`` (the UA scorers split token lines on any), which changes the value."""
    changed: dict[str, list[Token]] = {}
    tokens = doc.tokens
    for index in plan.ids:
        token = tokens[index]
        features = {feature for name, feature in FIELD_FEATURES.items()
                    if _has_space(getattr(token, name) or "")}
        if _has_space(_misc_without_coreference(token.misc) or ""):
            features.add("misc")
        for feature in features:
            changed.setdefault(feature, []).append(token)
    found: list[LossRecord] = []
    for feature, items in changed.items():
        found += record(doc, feature, items,
                        "changed (each white-space character written '_': the UA scorers "
                        "split token lines on any)")
    return found


def write_stream(
    documents: Iterable[Document],
    out: IO[str],
    report: ConversionReport,
    *,
    allow_zeros: bool = False,
    allow_id_closers: bool = False,
    align_spaces: bool = False,
) -> None:
    """Write documents as canonical CoNLL-UA exploded (ua-exploded §6).

    ``allow_zeros`` writes empty nodes as ``N.k`` token lines (UA scorer 2.0); without it
    zero mentions are left out and reported. ``allow_id_closers`` writes documents with
    crossing markables with closers that name them (``markable_3)``, UA scorer 2.0; every
    closer of such a document is named, as the scorer's crossing mode requires); without it
    the later of two crossing markables is left out and reported. ``align_spaces`` pads the
    fields with spaces to columns per sentence (the CODI-CRAC look) instead of TABs.
    """
    out.write(COLUMNS_LINE + "\n")
    for doc in documents:
        plan = _DocumentWriter(doc, allow_zeros, allow_id_closers)
        out.write(plan.render(align_spaces))
        report.repairs.extend(plan.repairs)
        if plan.id_map:
            report.id_maps[doc.name] = plan.id_map


class _DocumentWriter(Plan):
    """A :class:`Plan` rendered: the lines of one document, and the repairs they needed."""

    def repair(self, check: str, message: str, action: str = "approximated") -> None:
        self.repairs.append(Repair(check, message, document=self.doc.name, action=action))

    def note(self, check: str, example: str, action: str) -> None:
        """A writer change that may repeat: reported once per document, with a count."""
        self.notes.setdefault((check, action), []).append(example)

    def flush_notes(self) -> None:
        what = {
            "ua.value-escaped": "values contain characters CoNLL-UA values cannot hold "
                                "('(', ')', '|', '=', '%', '@', whitespace); wrote them as %XX",
            "ua.attribute-dropped": "attribute names cannot be written as CoNLL-UA keys",
            "ua.reference-conflict": "REFERENCE values were dropped: another markable starting "
                                     "on the same token has one (only one fits the column)",
        }
        for (check, action), examples in self.notes.items():
            shown = "; ".join(examples[:MAX_EXAMPLES])
            self.repair(check, f"{len(examples)} {what[check]} (first: {shown})", action)
        self.notes = {}

    # ------------------------------------------------------------------ rendering
    def render(self, align_spaces: bool) -> str:
        doc = self.doc
        identity_cells = self._bracket_cells(self.identity, self._identity_features)
        dd_cells = self._bracket_cells(self.dd, self._dd_features)
        bridging_cells = self._bracket_cells(list(self.bridges), self._bridging_features)
        nom_sem = [m for m in sorted(self.identity + self.side + self.dd, key=self.position)
                   if m not in self.shared and nom_sem_keys(m)]
        nom_sem_cells = self._bracket_cells(nom_sem, self._nom_sem_features)
        references = self._references()
        lines = [f"# newdoc id = {newdoc_id(doc)}", *part_lines(doc)]
        running_speaker = None
        bad_fields: Counter[str] = Counter()
        tokens = doc.tokens
        ids = self.ids
        for sentence in doc.sentences:
            # UA states a speaker where it changes; a UA source's own lines stay as they were
            lines.extend(sentence_comments(self.doc, sentence, running_speaker,
                                           keep_repeated_speakers="ua_columns" in doc.attrs))
            if sentence.speaker is not None:
                running_speaker = sentence.speaker
            rows: list[list[str]] = [list(v) for v in sentence.attrs.get("ua_visual_objects", [])]
            for index in range(sentence.start, sentence.stop):
                if index not in ids:
                    continue
                token = tokens[index]
                row: list[Any]  # token fields may be None until replaced by '_'
                row = [ids[index], token.form, token.lemma, token.upos, token.xpos, token.feats,
                       token.head, token.deprel, token.deps, _misc_without_coreference(token.misc),
                       identity_cells.get(index, "_"), bridging_cells.get(index, "_"),
                       dd_cells.get(index, "_"), references.get(index, "_"),
                       nom_sem_cells.get(index, "_")]
                for k in range(1, 10):
                    value = row[k]
                    if value is None or value == "":
                        row[k] = "_"
                    elif _has_space(value):
                        # the UA scorers split token lines on any whitespace
                        row[k] = "".join("_" if ch.isspace() else ch for ch in value)
                        bad_fields[DEFAULT_COLUMNS[k]] += 1
                rows.append(row)
            lines.extend(_join_rows(rows, align_spaces))
            lines.append("")
        trailing = doc.attrs.get("ua_trailing_comments")
        if trailing:
            lines.extend(comment_line(c) for c in trailing)
        objects = doc.attrs.get("ua_trailing_visual_objects")
        if objects:
            lines.extend(_join_rows([list(v) for v in objects], align_spaces))
            lines.append("")
        self.flush_notes()
        self._report_fields(bad_fields)
        if self.derived_anchors:
            self.repair("ua.bridging-anchor-derived",
                        f"{self.derived_anchors} bridging relations without an anchor mention "
                        "were given one (CoNLL-UA names the anchor markable): the anchor "
                        "entity's closest mention before the anaphor, else after")
        return "\n".join(lines) + "\n"

    def _report_fields(self, bad_fields: Counter[str]) -> None:
        """What of the token lines was changed or left out, one repair each."""
        tokens = self.doc.tokens
        if bad_fields:
            listed = ", ".join(f"{n} {name}" for name, n in sorted(bad_fields.items()))
            self.repair("ua.field-whitespace",
                        f"token fields with whitespace ({listed}): the UA scorers split token "
                        "lines on any whitespace, so each whitespace character became '_'",
                        "renamed")
        mwt = sum(1 for t in tokens if "conllu_mwt" in t.attrs)
        if mwt:
            self.repair("ua.multiword-tokens",
                        f"{mwt} multiword-token range lines are not written (CoNLL-UA has none; "
                        "the UA scorers would count them as words)", "dropped")
        extra = sum(1 for t in tokens if "ua_columns" in t.attrs)
        if extra:
            self.repair("ua.extra-columns",
                        f"{counted(extra, 'token')} {'has' if extra == 1 else 'have'} values in "
                        "columns beyond the 15 canonical ones; "
                        "not written", "dropped")

    def _bracket_cells(self, mentions: list[Mention], features: Any) -> dict[int, str]:
        """The chunks of one column per token, in the order of conversion-notes §5.

        Closers (inner first), then openers (outer first), then one-token markables — also on
        tokens without openers, since the UA scorers misread ``(...))`` (ua-exploded §7).
        """
        order = self.order
        closers: dict[int, list[tuple[tuple, str]]] = {}
        openers: dict[int, list[tuple[tuple, str]]] = {}
        singles: dict[int, list[tuple[tuple, str]]] = {}
        for position, mention in enumerate(mentions):
            text = features(mention)
            mid = self.markable_ids[mention]
            rank = self.rank(mention)
            for a, b in self.parts(self.tokens_of[mention]):
                if a == b:
                    singles.setdefault(a, []).append(((rank, position), f"({text})"))
                else:
                    span = order[b] - order[a]
                    openers.setdefault(a, []).append(((-order[b], -span, rank, position),
                                                      f"({text}"))
                    closer = f"{mid})" if self.named_closers else ")"
                    closers.setdefault(b, []).append(((-order[a], span, -rank, -position),
                                                      closer))
        cells: dict[int, str] = {}
        for token in set(closers) | set(openers) | set(singles):
            chunks = [c for _, c in sorted(closers.get(token, ()))]
            chunks += [c for _, c in sorted(openers.get(token, ()))]
            chunks += [c for _, c in sorted(singles.get(token, ()))]
            cells[token] = "".join(chunks)
        return cells

    def _identity_features(self, mention: Mention) -> str:
        entity = self.doc.entity_of(mention)
        eid = self.nonref_ids[mention] if entity is None else self.entity_ids[entity]
        items = [f"EntityID={eid}", f"MarkableID={self.markable_ids[mention]}"]
        return self._common_features(mention, items)

    def _dd_features(self, mention: Mention) -> str:
        entity = self.doc.entity_of(mention)
        assert entity is not None  # self.dd holds mentions with an entity only
        items = [f"EntityID={self.entity_ids[entity]}",
                 f"MarkableID={self.markable_ids[mention]}"]
        return self._common_features(mention, items)

    def _common_features(self, mention: Mention, items: list[str]) -> str:
        if mention in self.min_of:
            items.append(f"Min={self.min_of[mention]}")
        semtype = mention.attrs.get("semtype")
        if semtype is None and mention.nonref is not None:
            semtype = mention.nonref
        if semtype is not None and semtype != "":
            items.append(f"SemType={self._value(semtype)}")
        sets = self.element_of.get(mention)
        if sets:
            items.append("ElementOf=" + ",".join(sorted(set(sets), key=_id_sort_key)))
        taken = PLACED_ATTRIBUTES | {k.lower() for k in nom_sem_keys(mention)}
        for key in sorted(user_attributes(mention.attrs)):
            value = mention.attrs[key]
            if key in taken or key.lower() in ("entityid", "markableid", "min", "elementof") \
                    or value is None or value == "":  # an empty value says nothing
                continue
            items.append(self._extra(key, value))
        return "|".join(i for i in items if i)

    def _bridging_features(self, anaphor: Mention) -> str:
        relation, anchor_id, anchor_mention, _, attrs = self.bridges[anaphor]
        items = [f"MarkableID={self.markable_ids[anaphor]}"]
        if relation:
            items.append(f"Rel={self._value(relation)}")
        if anchor_mention is not None:
            items.append(f"MentionAnchor={self.markable_ids[anchor_mention]}")
        items.append(f"EntityAnchor={anchor_id}")
        for key in sorted(attrs):
            items.append(self._extra(key, attrs[key]))
        return "|".join(i for i in items if i)

    def _nom_sem_features(self, mention: Mention) -> str:
        items = [f"MarkableID={self.markable_ids[mention]}"]
        for key in nom_sem_keys(mention):
            value = mention.attrs.get(key.lower())
            if value is not None:
                items.append(f"{key}={self._value(value)}")
        return "|".join(items)

    def _extra(self, key: str, value: Any) -> str:
        if NOT_IN_VALUE_RE.search(key) or not key:
            self.note("ua.attribute-dropped", repr(key), "dropped")
            return ""
        return f"{key}={self._value(value)}"

    def _value(self, value: Any) -> str:
        text = "yes" if value is True else str(value)
        if NOT_IN_VALUE_RE.search(text) or text == "":
            # '(' ')' '|' '=' and whitespace would break the bracket grammar
            escaped = "".join(f"%{ord(c):02X}" if c in "()|=%@" or c.isspace() else c
                              for c in text) or "_"
            self.note("ua.value-escaped", f"{text!r} as {escaped!r}", "approximated")
            return escaped
        return text

    def _references(self) -> dict[int, str]:
        cells: dict[int, str] = {}
        for mention in sorted(self.identity + self.dd, key=self.position):
            value = mention.attrs.get("reference")
            if value is None or value == "":
                continue
            start = self.tokens_of[mention][0]
            if start in cells:
                self.note("ua.reference-conflict", repr(value), "dropped")
                continue
            cells[start] = self._value(value)
        for token in self.doc.tokens:
            value = token.attrs.get("ua_reference")
            if value and token.index in self.ids and token.index not in cells:
                cells[token.index] = value
        return cells


def _id_sort_key(written: str) -> tuple[int, str]:
    found = ID_NUMBER_RE.match(written)
    return (int(found.group(1)) if found else 0, written)


def _misc_without_coreference(misc: str | None) -> str | None:
    """MISC without CorefUD's coreference items: read from CoNLL-U, MISC still holds
    ``Entity=``, ``SplitAnte=`` and ``Bridge=``, which the UA columns now say instead."""
    if not misc or "=" not in misc:
        return misc
    items = [item for item in misc.split("|")
             if item.partition("=")[0] not in ("Entity", "SplitAnte", "Bridge", "Split")]
    return "|".join(items) or "_"


def _has_space(value: str) -> bool:
    return any(ch.isspace() for ch in value)


def _join_rows(rows: list[list[str]], align_spaces: bool) -> list[str]:
    if not align_spaces:
        return ["\t".join(row) for row in rows]
    if not rows:
        return []
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]) - 1)]
    widths[0] = max(widths[0], 4)
    return ["".join(value.ljust(width + 2) for value, width in zip(row, widths)) + row[-1]
            for row in rows]


