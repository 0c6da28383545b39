"""Conversion between corefkit :class:`~corefkit.model.Document` objects and udapi documents.

udapi (``udapi/udapi-python``, GPL-3.0-or-later) is optional: install ``corefkit[udapi]``.
It is imported inside the functions below, never when this module is imported.

* :func:`to_udapi` lets users run udapi blocks (``write.CorefHtml``, the ``corefud.*`` fixes, …)
  on documents read by any corefkit reader. corefkit writes the documents as CoNLL-U with its
  own writer and udapi's CoNLL-U reader builds the trees from that text: udapi's reader is the
  one place that knows every invariant of udapi's objects (node order, multiword tokens,
  empty nodes, coreference loading), so the result is exactly what udapi would build from
  the equivalent file.
* :func:`from_udapi` walks udapi's objects — trees, nodes, empty nodes, multiword tokens,
  coreference entities and mentions, split antecedents, bridging — and builds corefkit
  documents directly (one per ``# newdoc``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from corefkit.converters.corefud.misc import (
    COREF_KEYS,
    ETYPE_FIELDS,
    ID_FIELDS,
    MIN_FIELDS,
    decode_value,
    profile_of,
)
from corefkit.converters.corefud.writer import write_stream
from corefkit.converters.loss import ConversionReport
from corefkit.errors import CorefkitError
from corefkit.model import Document, Entity, Sentence, Token


def _require_udapi() -> None:
    try:
        import udapi  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the environment
        raise CorefkitError("udapi is not installed; install it with "
                            "'pip install corefkit[udapi]' (GPL-3.0-or-later)") from None


def to_conllu(documents: Document | Iterable[Document], *, profile: str = "auto") -> str:
    """The documents as CoNLL-U text (corefkit's CorefUD writer); a form CoNLL-U cannot hold
    is refused, naming the token, as :func:`corefkit.write` refuses it."""
    from corefkit.converters.forms import CONLLU, check_forms

    docs = [check_forms(d, CONLLU, "corefud")[0]
            for d in ([documents] if isinstance(documents, Document) else documents)]
    out = io.StringIO()
    write_stream(docs, out, ConversionReport(), profile=profile)
    return out.getvalue()


def to_udapi(documents: Document | Iterable[Document], *, profile: str = "auto") -> Any:
    """A ``udapi.core.document.Document`` holding the given documents.

    ``profile`` is the CorefUD writer profile: ``auto`` keeps each document's declaration
    (GUM's ``GRP-…`` for GUM data), ``corefud`` gives ``eid-etype-head-other`` with heads.
    """
    _require_udapi()
    from udapi.block.read.conllu import Conllu
    from udapi.core.document import Document as UdapiDocument

    udoc = UdapiDocument()
    reader = Conllu(filehandle=io.StringIO(to_conllu(documents, profile=profile)),
                    empty_parent="ignore")
    reader.apply_on_document(udoc)
    return udoc


def from_udapi(udoc: Any, *, name: str = "udapi") -> list[Document]:
    """corefkit documents for a udapi document (one per ``# newdoc``; ``name`` names the
    documents that have no id). Mentions keep udapi's head; it is flagged as derived when the
    ``global.Entity`` declaration has no head field (udapi then takes the first word)."""
    _require_udapi()
    declaration = udoc.meta.get("global.Entity")
    builder = _FromUdapi(declaration, name)
    for bundle in udoc.bundles:
        for tree in bundle.trees:
            builder.tree(tree)
    builder.finish_document()
    builder.coreference(udoc)
    return builder.documents


class _FromUdapi:
    """Builds documents tree by tree, then attaches udapi's coreference objects."""

    def __init__(self, declaration: str | None, name: str) -> None:
        self.declaration = declaration
        self.names = declaration.split("-") if declaration else []
        self.name = name
        self.documents: list[Document] = []
        self.doc: Document | None = None
        self.doc_comments: list[tuple[int, str, str]] = []
        self.node_at: dict[int, tuple[Document, int]] = {}  # id(node) -> (document, index)
        self.anonymous = 0

    def start_document(self, tree: Any) -> None:
        self.finish_document()
        newdoc = tree.newdoc
        if isinstance(newdoc, str) and newdoc:
            doc_id = newdoc
        else:
            self.anonymous += 1
            doc_id = self.name if self.anonymous == 1 else f"{self.name}-{self.anonymous}"
        doc = Document(doc_id)
        doc.source_format = "corefud"
        doc.attrs["conllu"] = True
        doc.attrs["conllu_read_id"] = doc_id
        if self.declaration:
            doc.attrs["corefud_declaration"] = self.declaration
            doc.attrs["corefud_profile"] = profile_of(self.declaration)
        self.doc = doc
        self.doc_comments = []

    def finish_document(self) -> None:
        if self.doc is not None:
            self.doc.attrs["conllu_doc_comments"] = self.doc_comments
            self.documents.append(self.doc)
            self.doc = None

    def tree(self, tree: Any) -> None:
        if self.doc is None or tree.newdoc:
            self.start_document(tree)
        doc = self.doc
        assert doc is not None
        first = not doc.sentences
        comments: list[str] = []
        for line in tree.comment.split("\n"):
            if not line:
                continue
            if line == "$NEWDOC":
                raw = f"# newdoc id = {tree.newdoc}" if isinstance(tree.newdoc, str) else "# newdoc"
                self.doc_comments.append((len(comments), "newdoc", raw))
            elif line == "$GLOBAL.ENTITY":
                self.doc_comments.append((len(comments), "global.Entity",
                                          f"# global.Entity = {self.declaration}"))
            elif line == "$SENT_ID":
                comments.append(f"# sent_id = {tree.sent_id}")
            elif line == "$TEXT":
                comments.append(f"# text = {tree.text}")
            elif line == "$NEWPAR":
                newpar = tree.newpar
                comments.append(f"# newpar id = {newpar}" if isinstance(newpar, str) else "# newpar")
            elif first and line.startswith(" meta::") and "=" in line:
                key, _, value = line[len(" meta::"):].partition("=")
                key = key.strip()
                doc.meta[key] = value[1:] if value.startswith(" ") else value
                self.doc_comments.append((len(comments), "meta:" + key, "#" + line))
            else:
                comments.append("#" + line)
        start = len(doc.tokens)
        mwt_first = {id(m.words[0]): m for m in tree.multiword_tokens}
        for node in tree.descendants_and_empty:
            index = len(doc.tokens)
            empty = node.is_empty()
            if empty:
                head = deprel = "_"
            else:
                parent = node.parent
                head = str(parent.ord) if parent is not None else "0"
                deprel = node.deprel or "_"
            token = Token(node.form if node.form is not None else "_", index, len(doc.sentences),
                          None, str(node.ord), node.lemma or "_", node.upos or "_",
                          node.xpos or "_", str(node.feats), head, deprel,
                          node.raw_deps or "_", _misc_without_coreference(str(node.misc)),
                          None, empty)
            mwt = mwt_first.get(id(node))
            if mwt is not None:
                token.attrs["conllu_mwt"] = "\t".join((
                    f"{mwt.words[0].ord}-{mwt.words[-1].ord}", mwt.form or "_", "_", "_", "_",
                    str(mwt.feats), "_", "_", "_", str(mwt.misc)))
            doc.tokens.append(token)
            self.node_at[id(node)] = (doc, index)
        sent_id = tree.sent_id
        doc.sentences.append(Sentence(len(doc.sentences), start, len(doc.tokens),
                                      sent_id=sent_id, comments=comments))

    # ------------------------------------------------------------------ coreference
    def coreference(self, udoc: Any) -> None:
        head_declared = not self.names or "head" in self.names
        made: dict[tuple[int, int], Entity] = {}       # (id(udapi entity), id(doc)) -> entity
        mention_of: dict[int, Any] = {}                 # id(udapi mention) -> corefkit mention
        for uentity in udoc.coref_entities:
            for umention in uentity.mentions:
                placed = [self.node_at[id(w)] for w in umention.words if id(w) in self.node_at]
                if not placed:
                    continue
                doc = placed[0][0]
                key = (id(uentity), id(doc))
                entity = made.get(key)
                if entity is None:
                    attrs: dict[str, Any] = {"original_id": uentity.eid}
                    if uentity.etype:
                        attrs["etype"] = uentity.etype
                    entity = doc.new_entity(attrs=attrs)
                    made[key] = entity
                tokens = [i for d, i in placed if d is doc]
                head = self.node_at.get(id(umention.head))
                mention_attrs: dict[str, Any] = {}
                min_tokens = None
                other = umention._other  # None when the mention has no other fields
                if other:
                    for name, value in dict(other).items():
                        # udapi keeps values %-escaped (',' as %2C): decode them once here
                        value = decode_value(value) if isinstance(value, str) else value
                        if name in MIN_FIELDS:
                            first = min(tokens)
                            try:
                                min_tokens = tuple(sorted(first + int(p) - 1
                                                          for p in str(value).split(",")))
                            except ValueError:
                                mention_attrs[name] = value
                        elif name == "identity":
                            entity.attrs.setdefault("identity", str(value))
                        elif name == "orig_etype":
                            mention_attrs[name] = value
                        elif name in ID_FIELDS or name in ETYPE_FIELDS:
                            continue
                        else:
                            mention_attrs[name] = value
                mention = doc.add_mention(
                    tokens, entity,
                    head=head[1] if head is not None and head[0] is doc else None,
                    head_derived=not head_declared, min_tokens=min_tokens, attrs=mention_attrs)
                mention_of[id(umention)] = mention
        by_entity = {k[0]: e for k, e in made.items()}
        for uentity in udoc.coref_entities:
            set_entity = by_entity.get(id(uentity))
            if set_entity is None:
                continue
            doc = next(d for d in self.documents if set_entity in d.entities)
            for member in uentity.split_ante:
                member_entity = made.get((id(member), id(doc)))
                if member_entity is not None:
                    doc.add_to_set(member_entity, set_entity)
            for umention in uentity.mentions:
                links = umention._bridging
                anaphor = mention_of.get(id(umention))
                if not links or anaphor is None:
                    continue
                for link in links:
                    anchor = made.get((id(link.target), id(doc)))
                    if anchor is not None:
                        doc.add_bridging(anaphor, anchor, relation=link.relation or None)


def _misc_without_coreference(misc: str) -> str:
    if misc in ("", "_") or "=" not in misc:
        return misc or "_"
    kept = [item for item in misc.split("|") if item.partition("=")[0] not in COREF_KEYS]
    return "|".join(kept) if kept else "_"
