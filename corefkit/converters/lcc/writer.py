"""LCC JSON (``*.nkas.json``, the Lithuanian coreference annotator's format): the writer.

Specification: ``formats/lcc.md`` §5. A document read from LCC whose coreference (partition,
sets, DD layer, type codes) is unchanged is written back byte for byte; otherwise the selected
coreference layer is regenerated and every other layer is written back unchanged. Documents
from other formats get a generated text, ``lex`` layer and coreference layer in which every
mention of an entity is linked to the entity's dominant mention (pass ``dominant-mentions``).
What LCC holds only in part (singletons, sets, DD chains, mention attributes, metadata) is
counted by :func:`partial_losses`, from the same plan the writer writes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import IO, Any

from corefkit.converters.lcc.layers import (
    COREF_LAYER,
    DEFAULT_VERSION,
    META_KEYS,
    STATE,
    coreference_signature,
    parse_layer,
)
from corefkit.converters.loss import (
    ConversionReport,
    LossRecord,
    column_value,
    discontinuous_action,
    record,
    user_attributes,
    writable_tokens,
)
from corefkit.errors import CorefkitError, Repair, UsageError
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention, Token
from corefkit.model.typed_links import DD_TYPE, GROUP_TYPE, UNKNOWN_TYPE
from corefkit.model.typed_links import type_codes as _codes

EMPTY_LIST_RE = re.compile(r'^( *)("(?:[^"\\]|\\.)*":)\[\](,?)$', re.MULTILINE)
# A link as the writer collects it: referring expression, antecedents, type code, and the
# mentions (the referring expression first)
_Link = tuple[list[int], list[list[int]], str, list[Mention]]


def serialize(obj: dict[str, Any]) -> str:
    """The JSON text of a document object, in the layout of the annotator's files (lcc.md §5).

    Indented by 4 without spaces after ``:`` and ``,``; an empty list that ends a line is
    written as ``[``, newline, the same indentation, ``]``; no final newline.
    """
    text = json.dumps(obj, ensure_ascii=False, indent=4, separators=(",", ":"))
    return EMPTY_LIST_RE.sub(lambda m: f"{m.group(1)}{m.group(2)}[\n{m.group(1)}]{m.group(3)}", text)


def layer_content(value: Any) -> str:
    """A layer's content string: compact JSON, non-ASCII characters as they are."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def loss_actions(**options: Any) -> dict[str, str]:
    """How this writer handles what it cannot hold (the default is ``dropped``)."""
    return {"discontinuous": discontinuous_action(str(options.get("discontinuous", "drop"))),
            "zeros": "dropped"}


def partial_losses(doc: Document, *, layer: str | None = None, ranking: str = "auto",
                   discontinuous: str = "drop") -> list[LossRecord]:
    """Loss records for the features LCC holds only in part (registry hook).

    The capability list declares singletons, split antecedents, discourse deixis, mention
    attributes, typed links and metadata as held; what of them the writer cannot write is
    counted here, from the links the writer writes: singletons other than those with a
    non-group type code (written as a link without antecedent) and those of a group link
    that is written, memberships of sets that cannot be written as a group link of two or
    more antecedents, DD mentions not in a DD link of two or more mentions, mentions with
    empty nodes (written without them, or not at all), mention attributes other than the
    type code, the columns LCC keeps only in a file it read (lemma and tag, spacing), typed
    links that are made anew, and metadata keys that are not LCC document fields.
    """
    plan = _Plan(doc, parse_layer(layer) if layer is not None else None, ranking, discontinuous)
    records = []
    for (feature, action), found in plan.lost.items():
        records += record(doc, feature, found, action)
    return records


def write_stream(
    documents: Iterable[Document],
    out: IO[str],
    report: ConversionReport,
    *,
    layer: str | None = None,
    ranking: str = "auto",
    discontinuous: str = "drop",
) -> None:
    """Write one document as LCC JSON.

    ``layer`` is the coreference layer to write when it is generated (default: the layer the
    document was read from, else ``manualCoreferences@1``); ``ranking`` chooses dominant
    mentions for generated links (see the ``dominant-mentions`` pass).
    """
    wanted = parse_layer(layer) if layer is not None else None
    items = iter(documents)
    doc = next(items, None)
    if doc is None:
        raise UsageError("nothing to write: an LCC file holds exactly one document")
    extra = next(items, None)
    if extra is not None:
        raise CorefkitError(
            f"an LCC file holds one document, but {extra.name!r} follows {doc.name!r}; write each "
            "document to its own file (give a directory as the target)")
    plan = _Plan(doc, wanted, ranking, discontinuous)
    if plan.unknown_types:
        report.repairs.append(Repair(
            "lcc.unknown-type",
            f"{plan.unknown_types} generated links have no type code; wrote {UNKNOWN_TYPE} "
            "(a corefkit convention: the LCC scheme has no code for an unknown type)",
            document=doc.name, action="approximated"))
    out.write(serialize(plan.obj))


class _Plan:
    """What the writer writes for one document, and what it cannot write."""

    offsets: dict[int, tuple[int, int]]   # token index -> [offset, length] in the written text

    def __init__(self, doc: Document, wanted: tuple[str, int] | None, ranking: str,
                 discontinuous: str = "drop") -> None:
        self.doc = doc
        self.ranking = ranking
        self.discontinuous = discontinuous
        self.unknown_types = 0
        # (feature, action) -> the objects lost that way
        self.lost: dict[tuple[str, str], list[Any]] = {}
        self.memberships_kept: set[tuple[Entity, Entity]] = set()
        state = doc.attrs.get(STATE)
        if state is not None and _same_text(doc, state["json"]):
            stored_layer = tuple(state["layer"])
            obj = state["json"]
            if coreference_signature(doc) == state["signature"] and wanted in (None, stored_layer):
                self.obj = obj  # written back as read: nothing is lost
                return
            self.offsets = {t.index: tuple(t.attrs["lcc_offset"]) for t in doc.tokens}
            self.obj = self._regenerated(obj, wanted or stored_layer, state)
            self._account(stored=True)
            return
        self.loss("metadata", sorted(k for k in doc.meta if k not in META_KEYS))
        self.obj = self._generated(wanted or (COREF_LAYER, DEFAULT_VERSION))
        self._account(stored=False)

    def loss(self, feature: str, found: list[Any], action: str = "dropped") -> None:
        if found:
            self.lost.setdefault((feature, action), []).extend(found)

    def _account(self, stored: bool) -> None:
        """What of the document the links written (``self.links``) do not hold."""
        doc = self.doc
        written = {m for _, _, _, mentions in self.links for m in mentions}
        lost = [m for m in doc.sorted_mentions() if m not in written]
        sizes = {e: doc.size(e) for e in doc.entities_in(IDENTITY)}
        self.loss("singletons", [m for m in lost if sizes.get(doc.entity_of(m)) == 1])  # type: ignore[arg-type]
        self.loss("discourse_deixis", [m for m in lost if m.layer != IDENTITY])
        tokens = doc.tokens
        partly_empty = [m for m in doc.sorted_mentions()
                        if any(tokens[t].is_empty for t in m.tokens)
                        and not all(tokens[t].is_empty for t in m.tokens)]
        self.loss("mentions_with_empty_nodes", [m for m in partly_empty if m in written],
                  "approximated (written without their empty nodes)")
        self.loss("mentions_with_empty_nodes", [m for m in partly_empty if m not in written])
        self.loss("split_antecedents", [s for s in doc.memberships()
                                        if (s.member, s.set_entity) not in self.memberships_kept])
        self._attribute_losses(written)
        if not stored:
            self._column_losses()
        self._link_losses(written)

    def _attribute_losses(self, written: set[Mention]) -> None:
        """Of a written mention's attributes the type code of the link it is the referring
        expression of comes back (``lcc_type``); any other is lost."""
        doc = self.doc
        codes: dict[Mention, list[str]] = {}
        for _, _, code, mentions in self.links:  # in file order, as the reader joins them
            codes.setdefault(mentions[0], []).append(code)
        dropped, changed = [], []
        for mention in doc.sorted_mentions():
            own = {k: str(v) for k, v in mention.attrs.items()
                   if k in user_attributes(mention.attrs) and v is not None and v != ""}
            if not own or mention not in written:
                continue  # a mention not written: its attributes go with it (the cascade)
            back = _read_back(codes.get(mention, []))
            kept = [k for k, v in own.items() if back.get(k) == v]
            if not kept:
                dropped.append(mention)
            elif len(kept) < len(own):
                changed.append(mention)
        self.loss("mention_attributes", dropped)
        self.loss("mention_attributes", changed, "changed (LCC keeps the type code only)")

    def _column_losses(self) -> None:
        """A generated text keeps the spacing inside a sentence (the reader makes
        ``SpaceAfter=No`` of it), nothing else of the token columns."""
        doc = self.doc
        words = [t for t in doc.tokens if not t.is_empty]
        for feature in ("lemmas", "pos"):
            self.loss(feature, [t for t in words if column_value(t, feature)])
        last = {max((i for i in s.token_indices() if not doc.tokens[i].is_empty), default=-1)
                for s in doc.sentences}
        dropped, changed = [], []
        for token in words:
            value = column_value(token, "misc")
            if value is None:
                continue
            kept = ("SpaceAfter=No",) if _no_space_after(token) and token.index not in last \
                else None
            if kept is None:
                dropped.append(token)
            elif kept != value:
                changed.append(token)
        self.loss("misc", dropped)
        self.loss("misc", changed, "changed (LCC keeps the spacing only)")

    def _link_losses(self, written: set[Mention]) -> None:
        """The typed links read from LCC that the links written do not repeat (same referring
        expression, antecedents and type code)."""
        from corefkit.model.typed_links import LINKS

        doc = self.doc
        made = {(ms[0].id, frozenset(m.id for m in ms[1:]), code)
                for _, _, code, ms in self.links}
        by_id = {m.id: m for m in doc.mentions}
        dropped, changed = [], []
        for rec in doc.attrs.get(LINKS, ()):
            anaphor = by_id.get(rec["anaphor"])
            if anaphor is None:
                continue
            if anaphor not in written:
                dropped.append(rec)
            elif (rec["anaphor"], frozenset(rec["antecedents"]), rec["type"]) not in made:
                changed.append(rec)
        self.loss("typed_links", dropped)
        self.loss("typed_links", changed,
                  "changed (links made anew: each mention to its entity's dominant mention)")

    # ------------------------------------------------------------------ documents
    def _regenerated(self, stored: dict[str, Any], wanted: tuple[str, int], state: dict) -> dict:
        obj = dict(stored)
        layers = [dict(layer) for layer in stored["annotationLayers"]]
        content = layer_content({"coreferences": self._links()})
        for layer in layers:
            if (layer.get("type"), layer.get("version")) == wanted:
                layer["content"] = content
                break
        else:
            layers.append(_new_layer(wanted[0], wanted[1], content))
        obj["annotationLayers"] = layers
        return obj

    def _generated(self, wanted: tuple[str, int]) -> dict[str, Any]:
        doc = self.doc
        content, lex = self._text()
        meta = doc.meta
        obj: dict[str, Any] = {
            "id": int(doc.id) if doc.id.isdigit() else doc.id,
            "corpusName": meta.get("corpusName", ""),
            "corpusId": _number_or_text(meta.get("corpusId", "")),
            "name": meta.get("name", doc.name),
            "comment": meta.get("comment", ""),
            "dateCreated": meta.get("dateCreated", ""),
            "dateModified": meta.get("dateModified", ""),
            "content": content,
            "source": meta.get("source", ""),
            "url": meta.get("url", ""),
            "lexemeCount": len(lex["seg"]),
            "tags": _json_or_empty(meta.get("tags")),
            "annotationLayers": [
                _new_layer("lex", 1, layer_content(lex)),
                _new_layer(wanted[0], wanted[1], layer_content({"coreferences": self._links()})),
            ],
        }
        return obj

    def _text(self) -> tuple[str, dict[str, list[list[int]]]]:
        """Text and lex layer from the tokens: spaces between tokens unless ``SpaceAfter=No``,
        a space between sentences, a newline between paragraphs (``# newpar``)."""
        doc = self.doc
        pieces: list[str] = []
        length = 0
        seg: list[list[int]] = []
        sentences: list[list[int]] = []
        paragraphs: list[list[int]] = []
        self.offsets = {}
        previous_paragraph: Any = None
        for sentence in doc.sentences:
            tokens = [doc.tokens[i] for i in sentence.token_indices() if not doc.tokens[i].is_empty]
            if not tokens:
                continue
            paragraph = sentence.attrs.get("lcc_paragraph", previous_paragraph)
            new_paragraph = any(c.lstrip("# ").startswith("newpar") for c in sentence.comments)
            if pieces:
                if new_paragraph or paragraph != previous_paragraph:
                    pieces.append("\n")
                    paragraphs.append([])
                else:
                    pieces.append(" ")
                length += 1
            elif not paragraphs:
                paragraphs.append([])
            previous_paragraph = paragraph
            sentence_start = length
            for k, token in enumerate(tokens):
                if k and not _no_space_after(tokens[k - 1]):
                    pieces.append(" ")
                    length += 1
                form = token.form or "_"
                self.offsets[token.index] = (length, len(form))
                seg.append([length, len(form)])
                pieces.append(form)
                length += len(form)
            sentences.append([sentence_start, length - sentence_start])
            paragraphs[-1].append(len(sentences) - 1)
        paragraph_spans = []
        for members in paragraphs:
            if members:
                first, last = sentences[members[0]], sentences[members[-1]]
                paragraph_spans.append([first[0], last[0] + last[1] - first[0]])
        return "".join(pieces), {"seg": seg, "s": sentences, "p": paragraph_spans}

    # ------------------------------------------------------------------ links
    def _span(self, mention: Mention) -> list[int] | None:
        """[offset, length] of a mention's written tokens (a discontinuous one as the
        ``discontinuous`` mode says); None if not writable."""
        tokens = writable_tokens(mention, self.discontinuous)
        if tokens is None:
            return None
        positions = [self.offsets[t] for t in tokens if t in self.offsets]
        if not positions:
            return None
        start = positions[0][0]
        return [start, positions[-1][0] + positions[-1][1] - start]

    def _at(self, mention: Mention) -> list[int]:
        """The span of a mention already found writable."""
        span = self._span(mention)
        assert span is not None
        return span

    def _links(self) -> list[dict[str, Any]]:
        """The coreference layer's links, in text order (kept in ``self.links``)."""
        found: list[_Link] = []
        sets = self.doc.accommodated_sets()
        self._group_links(found, sets)  # first: which sets are written decides below
        self._identity_links(found)
        self._dd_links(found)
        found.sort(key=lambda x: (x[0][0], x[1][0][0] if x[1] else -1, x[0][1]))
        self.links = found
        return [{"Mentions": antecedents, "Referant": referant, "Type": code}
                for referant, antecedents, code, _ in found]

    def _identity_links(self, found: list[_Link]) -> None:
        """Every mention of a chain to its dominant mention; typed singletons, and a mention
        left alone by chain mates that cannot be written, without antecedent."""
        from corefkit.passes.dominant import dominant_mentions

        doc = self.doc
        dominant = dominant_mentions(doc, self.ranking)
        # entities a written group link holds (as an antecedent or its referring expression)
        in_groups = {e for pair in self.memberships_kept for e in pair}
        for entity in doc.entities_in(IDENTITY):
            written = [m for m in doc.mentions_of(entity) if self._span(m) is not None]
            if len(written) == 1:
                mention = written[0]
                codes = _codes(mention)
                if entity in in_groups:
                    continue  # written as a group link's antecedent or referring expression
                if (codes and not any(c[3:4] == "g" for c in codes)) or doc.size(entity) > 1:
                    found.append((self._at(mention), [], self._type(mention, group=False),
                                  [mention]))
                continue  # a singleton without a type code: LCC has none (partial_losses)
            if not written:
                continue
            target = dominant.get(entity, (written[0], ""))[0]
            if target not in written:
                target = written[0]
            for mention in written:
                if mention is not target:
                    found.append((self._at(mention), [self._at(target)],
                                  self._type(mention, group=False), [mention, target]))

    def _group_links(self, found: list[_Link], sets: dict[Entity, list[Entity]]) -> None:
        """One group link per accommodated set with a writable mention and two members
        (non-referring markables cannot be members: LCC has none)."""
        from corefkit.passes.dominant import position

        doc = self.doc
        for set_entity, members in sets.items():
            if set_entity.layer != IDENTITY or set_entity.pseudo:
                continue
            evidence = {}
            for membership in doc.memberships():
                if membership.set_entity is set_entity:
                    evidence[membership.member] = membership.evidence
            own = [m for m in doc.mentions_of(set_entity) if self._span(m) is not None]
            if not own:
                continue
            anchors = [m for ev in evidence.values() for m in ev if m in own]
            anchor = anchors[0] if anchors else own[0]
            antecedents = []
            for member in members:
                candidates = [m for m in doc.mentions_of(member)
                              if self._span(m) is not None and m.nonref is None]
                chosen = [m for m in evidence.get(member, ()) if m in candidates]
                if not chosen and candidates:
                    before = [m for m in candidates if position(m) < position(anchor)]
                    chosen = [before[-1] if before else candidates[0]]
                if chosen:
                    antecedents.append((member, chosen[0]))
            if len(antecedents) < 2:
                continue  # one antecedent reads back as identity: a one-member set is lost
            self.memberships_kept.update((member, set_entity) for member, _ in antecedents)
            found.append((self._at(anchor), [self._at(m) for _, m in antecedents],
                          self._type(anchor, group=True), [anchor, *(m for _, m in antecedents)]))

    def _dd_links(self, found: list[_Link]) -> None:
        """Discourse-deixis chains: each anaphor (``a-`` code, else every later mention) to
        the chain's segments."""
        doc = self.doc
        for entity in doc.entities_in(DISCOURSE_DEIXIS):
            written = [m for m in doc.mentions_of(entity) if self._span(m) is not None]
            if len(written) < 2:
                continue  # a DD chain of one mention: lost (partial_losses)
            anaphors = [m for m in written if any(c.startswith("a") for c in _codes(m))] or written[1:]
            segments = [m for m in written if m not in anaphors] or written[:1]
            for anaphor in anaphors:
                found.append((self._at(anaphor), [self._at(m) for m in segments],
                              self._type(anaphor, group=False, dd=True), [anaphor, *segments]))

    def _type(self, mention: Mention, *, group: bool, dd: bool = False) -> str:
        for code in _codes(mention):
            if dd and code.startswith("a"):
                return code
            if not dd and not code.startswith("a") and (code[3:4] == "g") == group:
                return code
        self.unknown_types += 1
        return DD_TYPE if dd else GROUP_TYPE if group else UNKNOWN_TYPE


def _read_back(codes: list[str]) -> dict[str, str]:
    """The attributes the LCC reader gives the referring expression of links with ``codes``."""
    found = {"lcc_type": ",".join(codes)} if codes else {}
    if any(len(c) == 4 and c[3] == "a" for c in codes):
        found["ambiguous"] = "True"
    if any(c.startswith("e") for c in codes):
        found["ellipsis_anchor"] = "True"
    return found


def _same_text(doc: Document, stored: dict[str, Any]) -> bool:
    """The tokens still are those of the stored text (passes never change the text layer)."""
    content = stored.get("content", "")
    for token in doc.tokens:
        offset = token.attrs.get("lcc_offset")
        if offset is None or content[offset[0]:offset[0] + offset[1]] != token.form:
            return False
    return True


def _no_space_after(token: Token) -> bool:
    return bool(token.misc and "SpaceAfter=No" in token.misc.split("|"))


def _new_layer(kind: str, version: int, content: str) -> dict[str, Any]:
    # Generated layers have no server id or dates: writing the same document twice must give
    # the same bytes (formats/README.md, determinism).
    return {"id": None, "type": kind, "version": version, "dateCreated": "", "dateModified": "",
            "content": content, "tags": []}


def _number_or_text(value: str) -> int | str:
    return int(value) if isinstance(value, str) and value.isdigit() else value


def _json_or_empty(value: str | None) -> Any:
    if not value:
        return []
    try:
        return json.loads(value)
    except json.JSONDecodeError:
        return [value]
