"""``Document``: one document's text layer plus its anaphoric graph.

The anaphoric structure is a typed graph whose nodes are :class:`Mention` and
:class:`Entity` objects and whose edges are:

* ``refers``      mention → entity         (a mention refers to at most one entity)
* ``element_of``  member entity → set entity (accommodated sets; may nest)
* ``bridge``      anaphor mention → anchor entity (relation, anchor mention)

The edges are stored in adjacency dictionaries owned by the document (a reader adds tens of
thousands of ``refers`` edges per file, which plain dictionaries do several times faster than
``networkx``); :meth:`Document.graph` returns the same structure as a
``networkx.MultiDiGraph`` for structural questions (cycles, components, spanning trees), and
networkx is imported only then. Callers use the typed accessors below; nothing outside this
module and :mod:`corefkit.model.storage` (mentions and refers edges, which a reader may hand
over unbuilt) touches the storage, so it can change without touching readers, passes or
metrics.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from corefkit.errors import ModelError, Repair
from corefkit.model.anaphora import (
    DISCOURSE_DEIXIS,
    IDENTITY,
    LAYERS,
    Bridging,
    Entity,
    Mention,
    SetMembership,
)
from corefkit.model.storage import MentionStore
from corefkit.model.text import Sentence, Token
from corefkit.model.words import Words

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

REFERS = "refers"
ELEMENT_OF = "element_of"
BRIDGE = "bridge"


class Document(MentionStore):
    """A document: tokens and sentences, mentions, entities and their relations.

    ``id`` and ``part`` identify the document (CoNLL-2012 documents have parts; the others use
    ``part=None``); key and response documents are paired on :meth:`pair_key`. ``meta`` holds
    document metadata, ``attrs`` format-specific things a writer may need again, ``repairs``
    what the reader changed or warned about, ``file`` and ``line`` where it was read from, and
    ``source_format`` the format it was read from (set by the reader: scoring chooses its
    semantics by it).
    """

    def __init__(self, id: str, part: str | None = None, *, file: str | None = None) -> None:
        self.id = id
        self.part = part
        self.file = file
        self.line: int | None = None
        self.source_format: str | None = None
        self._tokens: list[Token] = []
        self._token_factory: Callable[[], list[Token]] | None = None
        self._words_factory: Callable[[], Words] | None = None
        self._deferred_count = 0
        self.sentences: list[Sentence] = []
        self.meta: dict[str, str] = {}
        self.attrs: dict[str, Any] = {}
        self.repairs: list[Repair] = []
        super().__init__()  # mentions and refers edges (corefkit.model.storage)
        # insertion-ordered set of entities
        self._entities: dict[Entity, None] = {}
        # element_of edges: (member, set) -> evidence; bridge edges: (anaphor, anchor) -> data
        self._sets: dict[tuple[Entity, Entity], tuple[Mention, ...]] = {}
        self._bridges: dict[tuple[Mention, Entity], dict[str, Any]] = {}
        self._next_entity_id = 0

    def chain_extents(self, layer: str = IDENTITY) -> list[list[tuple[int, ...]]]:
        """The mentions of each non-pseudo entity of ``layer`` (entities in creation order,
        mentions in the order they joined) as their :attr:`Mention.extent`, without building
        a reader's deferred mentions."""
        # built mentions joined their entities before the pending ones
        found = {e: [m.extent for m in self._chain_nodes[e]] for e in self.entities_in(layer)}
        for entity, first, last, _ in self._pending or ():
            chain = found.get(entity)
            if chain is not None:
                chain.append((first, last))
        return list(found.values())

    # ------------------------------------------------------------------ identity
    def pair_key(self) -> tuple[str, str]:
        """The key on which key and response documents are paired: (id, normalised part).

        Parts compare as numbers when they are numbers (``part 0`` = ``part 000``); a missing
        part is part 0, as in the CoNLL-2012 reader.
        """
        part = self.part if self.part not in (None, "") else "0"
        return (self.id, str(int(part)) if part.isdecimal() else part)

    @property
    def name(self) -> str:
        """Human-readable name: the id, with the part when it is not 0."""
        _, part = self.pair_key()
        return self.id if part == "0" else f"{self.id}; part {part}"

    def __repr__(self) -> str:
        return (
            f"Document({self.name!r}, {self.token_count} tokens, {len(self._mentions)} "
            f"mentions, {len(self._entities)} entities)"
        )

    def _token_total(self) -> int:  # for the covered-positions limit (storage.py)
        return self.token_count

    def _place(self) -> tuple[str | None, int | None, str]:
        return self.file, self.line, self.name

    # ------------------------------------------------------------------ text layer
    @property
    def tokens(self) -> list[Token]:
        """All tokens (words and empty nodes) in reading order; indices are positions here."""
        if self._token_factory is not None:
            factory, self._token_factory = self._token_factory, None
            self._tokens = factory()
        return self._tokens

    @tokens.setter
    def tokens(self, value: list[Token]) -> None:
        self._token_factory = None
        self._words_factory = None
        self._tokens = value

    @property
    def token_count(self) -> int:
        """``len(doc.tokens)``, without building deferred tokens."""
        return self._deferred_count if self._token_factory is not None else len(self._tokens)

    def defer_tokens(self, count: int, factory: Callable[[], list[Token]],
                     words: Callable[[], Words] | None = None) -> None:
        """Let a reader postpone building its ``count`` tokens until someone asks for them.

        Scoring needs only mentions, so a reader whose token objects are a large share of its
        work (CoNLL-2012) hands over a factory instead; ``tokens`` calls it on first access.
        ``words`` makes :meth:`words` without building the tokens (scoring compares words).
        """
        self._tokens = []
        self._deferred_count = count
        self._token_factory = factory
        self._words_factory = words

    def words(self) -> Words:
        """The document's words (forms in order, empty nodes left out) with where each
        sentence starts, as key/response pairing compares them (:mod:`corefkit.model.words`)."""
        if self._token_factory is not None and self._words_factory is not None:
            return self._words_factory()
        tokens = self.tokens
        forms: list[str] = []
        starts: list[int] = []
        covered = 0
        for sentence in self.sentences:
            starts.append(len(forms))
            forms.extend([t.form for t in tokens[sentence.start:sentence.stop] if not t.is_empty])
            covered += sentence.stop - sentence.start
        if covered != len(tokens):  # sentences that do not tile the tokens: the words alone
            forms = [t.form for t in tokens if not t.is_empty]
            starts = [0] if forms else []
            return Words(len(forms), forms, starts)
        return Words(len(forms), forms, starts, [s.sent_id for s in self.sentences])

    def add_sentence(self, tokens: Iterable[Token | str], **kwargs: Any) -> Sentence:
        """Append a sentence; plain strings become tokens with that form."""
        start = len(self.tokens)
        index = len(self.sentences)
        for item in tokens:
            token = item if isinstance(item, Token) else Token(item)
            token.index = len(self.tokens)
            token.sentence = index
            self.tokens.append(token)
        sentence = Sentence(index, start, len(self.tokens), **kwargs)
        self.sentences.append(sentence)
        return sentence

    def sentence_of(self, token_index: int) -> Sentence:
        return self.sentences[self.tokens[token_index].sentence]

    def text(self, mention: Mention) -> str:
        """The forms of a mention's tokens joined by spaces (gaps shown as ``...``)."""
        pieces = []
        for a, b in mention.parts():
            pieces.append(" ".join(self.tokens[i].form for i in range(a, b + 1)))
        return " ... ".join(pieces)

    # ------------------------------------------------------------------ entities
    def new_entity(
        self,
        *,
        layer: str = IDENTITY,
        pseudo: bool = False,
        attrs: dict[str, Any] | None = None,
    ) -> Entity:
        if layer not in LAYERS:
            raise ModelError(f"unknown layer {layer!r}; expected one of {', '.join(LAYERS)}")
        entity = Entity(self._next_entity_id, layer=layer, pseudo=pseudo, attrs=attrs)
        self._next_entity_id += 1
        self._entities[entity] = None
        self._chains[entity] = {}
        return entity

    @property
    def entities(self) -> list[Entity]:
        """All entities of every layer, in creation order."""
        return list(self._entities)

    def entities_in(self, layer: str = IDENTITY, *, pseudo: bool = False) -> list[Entity]:
        """Entities of one layer; pseudo entities only when asked for."""
        return [e for e in self._entities if e.layer == layer and (pseudo or not e.pseudo)]

    def mentions_of(self, entity: Entity, *, ordered: bool = True) -> list[Mention]:
        """The entity's mentions in document order (start, longer first, creation).

        ``ordered=False`` gives them in the order they joined the entity, without sorting.
        """
        self._require_entity(entity)
        if not ordered:
            return list(self._chains[entity])
        return sorted(self._chains[entity], key=_position_key)

    def size(self, entity: Entity) -> int:
        """Number of mentions of an entity."""
        self._require_entity(entity)
        return len(self._chains[entity])

    def remove_entity(self, entity: Entity, *, delete_mentions: bool = False) -> None:
        """Remove an entity; its mentions are deleted or left without an entity."""
        self._require_entity(entity)
        for mention in list(self._chains[entity]):
            if delete_mentions:
                self.remove_mention(mention)
            else:
                del self._entity_of[mention]
        for pair in [p for p in self._sets if entity in p]:
            del self._sets[pair]
        for bridge in [p for p in self._bridges if p[1] is entity]:
            del self._bridges[bridge]
        del self._chains[entity]
        del self._entities[entity]

    def merge_entities(self, keep: Entity, other: Entity) -> Entity:
        """Move every mention and relation of ``other`` onto ``keep`` and remove ``other``."""
        if keep is other:
            return keep
        if keep.layer != other.layer:
            raise ModelError(f"cannot merge {keep} and {other}: different layers")
        for mention in list(self._chains[other]):
            self.set_entity(mention, keep, replace=True)
        for membership in self.memberships():
            if membership.member is other or membership.set_entity is other:
                member = keep if membership.member is other else membership.member
                set_entity = keep if membership.set_entity is other else membership.set_entity
                self.add_to_set(member, set_entity, evidence=membership.evidence)
        for bridge in self.bridging():
            if bridge.anchor is other:
                self.add_bridging(bridge.anaphor, keep, relation=bridge.relation,
                                  anchor_mention=bridge.anchor_mention, attrs=bridge.attrs)
        self.remove_entity(other)
        return keep

    # ------------------------------------------------------------------ mentions
    def add_mention(
        self,
        tokens: Iterable[int],
        entity: Entity | None = None,
        *,
        layer: str | None = None,
        head: int | None = None,
        head_derived: bool = False,
        min_tokens: tuple[int, ...] | None = None,
        min_derived: bool = False,
        nonref: str | None = None,
        attrs: dict[str, Any] | None = None,
        line: int | None = None,
    ) -> Mention:
        """Create a mention over the given token indices (sorted, duplicates removed).

        The keyword arguments are the fields of :class:`Mention`. With ``entity`` the mention
        joins that chain; its layer is then the entity's unless given.
        """
        if isinstance(tokens, range) and tokens.step == 1:
            token_tuple = tuple(tokens)
        else:
            token_tuple = tuple(sorted(set(tokens)))
        if token_tuple and (token_tuple[0] < 0 or token_tuple[-1] >= self.token_count):
            bad = token_tuple[0] if token_tuple[0] < 0 else token_tuple[-1]
            raise ModelError(
                f"token index {bad} is outside the document ({self.token_count} tokens)")
        if layer is None:
            layer = entity.layer if entity is not None else IDENTITY
        elif layer not in LAYERS:
            raise ModelError(f"unknown layer {layer!r}")
        if entity is not None:
            if entity not in self._chains:
                raise ModelError(f"{entity} does not belong to document {self.name!r}")
            if layer != entity.layer:
                raise ModelError(f"a mention on the {layer} layer cannot refer to {entity}, "
                                 f"which is on the {entity.layer} layer")
        self.count_covered(len(token_tuple))
        mention = Mention(self._next_mention_id, token_tuple, layer, head, head_derived,
                          min_tokens, min_derived, nonref, attrs, line)
        self._next_mention_id += 1
        self._mentions[mention] = None
        if entity is not None:  # a new mention has no entity yet: link directly
            self._entity_of[mention] = entity
            self._chains[entity][mention] = None
        return mention

    def add_read_mention(self, tokens: tuple[int, ...], entity: Entity,
                         attrs: dict[str, Any], line: int | None, head: int | None = None,
                         min_tokens: tuple[int, ...] | None = None) -> Mention:
        """:meth:`add_mention` for a reader that guarantees what it checks.

        ``tokens`` are ascending distinct indices inside the document and ``entity`` is one of
        this document's entities; a reader creating tens of thousands of mentions saves the
        checks.
        """
        self.count_covered(len(tokens))
        mention = Mention(self._next_mention_id, tokens, entity.layer, head, False, min_tokens,
                          False, None, attrs, line)
        self._next_mention_id += 1
        self._mentions[mention] = None
        self._entity_of[mention] = entity
        self._chains[entity][mention] = None
        return mention

    def add_span(self, start: int, end: int, entity: Entity | None = None, **kwargs: Any) -> Mention:
        """Create a contiguous mention from token ``start`` to ``end`` (both included)."""
        if end < start:
            raise ModelError(f"span end {end} is before its start {start}")
        return self.add_mention(range(start, end + 1), entity, **kwargs)

    @property
    def mentions(self) -> list[Mention]:
        """All mentions of every layer, in creation order."""
        return list(self._mentions)

    def sorted_mentions(self) -> list[Mention]:
        """All mentions in canonical order: start, longer first, layer, entity, creation."""
        layer_rank = {IDENTITY: 0, DISCOURSE_DEIXIS: 1}
        entity_of = self._entity_of

        def key(m: Mention) -> tuple[int, int, int, int, int]:
            entity = entity_of.get(m)
            return (m.start, -m.end, layer_rank[m.layer],
                    entity.id if entity is not None else -1, m.id)

        return sorted(self._mentions, key=key)

    def entity_of(self, mention: Mention) -> Entity | None:
        """The entity the mention refers to, or None (unlinked or non-referring)."""
        return self._entity_of.get(mention)

    def set_entity(self, mention: Mention, entity: Entity, *, replace: bool = False) -> None:
        """Make ``mention`` refer to ``entity``.

        A mention refers to at most one entity: if it already refers to another one this is a
        :class:`ModelError` unless ``replace`` is given.
        """
        self._require_mention(mention)
        self._require_entity(entity)
        if mention.layer != entity.layer:
            raise ModelError(
                f"{mention} is on the {mention.layer} layer but {entity} on the {entity.layer} layer"
            )
        current = self._entity_of.get(mention)
        if current is entity:
            return
        if current is not None:
            if not replace:
                raise ModelError(
                    f"{mention} already refers to {current}; a mention refers to at most one entity"
                )
            del self._chains[current][mention]
        self._entity_of[mention] = entity
        self._chains[entity][mention] = None

    def detach(self, mention: Mention) -> None:
        """Leave the mention without an entity (it stays in the document)."""
        current = self._entity_of.pop(mention, None)
        if current is not None:
            del self._chains[current][mention]

    def remove_mention(self, mention: Mention) -> None:
        """Delete a mention and every relation that starts or ends at it."""
        self._require_mention(mention)
        self.detach(mention)
        for pair, evidence in self._sets.items():
            if mention in evidence:
                self._sets[pair] = tuple(m for m in evidence if m is not mention)
        for bridge in list(self._bridges):
            if bridge[0] is mention:
                del self._bridges[bridge]
            elif self._bridges[bridge]["anchor_mention"] is mention:
                self._bridges[bridge]["anchor_mention"] = None
        del self._mentions[mention]

    # ------------------------------------------------------------------ accommodated sets
    def add_to_set(
        self, member: Entity, set_entity: Entity, *, evidence: Iterable[Mention] = ()
    ) -> None:
        """Record that ``member`` is an element of the accommodated set of ``set_entity``."""
        self._require_entity(member)
        self._require_entity(set_entity)
        known = self._sets.get((member, set_entity), ())
        self._sets[(member, set_entity)] = known + tuple(m for m in evidence if m not in known)

    def remove_from_set(self, member: Entity, set_entity: Entity) -> None:
        self._sets.pop((member, set_entity), None)

    def members(self, set_entity: Entity) -> list[Entity]:
        """The direct members of an accommodated set, in entity creation order."""
        self._require_entity(set_entity)
        return sorted((m for m, s in self._sets if s is set_entity), key=_creation_key)

    def sets_of(self, entity: Entity) -> list[Entity]:
        """The split-antecedent entities that have ``entity`` as a direct member."""
        self._require_entity(entity)
        return sorted((s for m, s in self._sets if m is entity), key=_creation_key)

    def accommodated_sets(self) -> dict[Entity, list[Entity]]:
        """Every split-antecedent entity with its direct members, in entity order."""
        sets: dict[Entity, list[Entity]] = {}
        for membership in self.memberships():
            sets.setdefault(membership.set_entity, []).append(membership.member)
        return sets

    def memberships(self) -> list[SetMembership]:
        """Every element-of edge with its evidence, in (set, member) entity order."""
        found = [SetMembership(m, s, evidence) for (m, s), evidence in self._sets.items()]
        found.sort(key=lambda x: (x.set_entity.id, x.member.id))
        return found

    def split_antecedent_cycles(self) -> list[list[Entity]]:
        """Cycles among accommodated sets (a set that contains itself, directly or not).

        Each cycle is listed once, as the entities along it. An empty list means the
        element-of relation is acyclic, as the model requires before scoring.
        """
        if not self._sets or _acyclic(self._sets):
            return []
        import networkx as nx  # only to list the cycles there are (its import is ~0.2 s)

        sub = nx.DiGraph()
        sub.add_edges_from(self._sets)
        return [list(cycle) for cycle in nx.simple_cycles(sub)]

    # ------------------------------------------------------------------ bridging
    def add_bridging(
        self,
        anaphor: Mention,
        anchor: Entity,
        *,
        relation: str | None = None,
        anchor_mention: Mention | None = None,
        attrs: dict[str, Any] | None = None,
    ) -> Bridging:
        """Record a bridging relation; a second call for the same pair replaces the first."""
        self._require_mention(anaphor)
        self._require_entity(anchor)
        if anchor_mention is not None:
            self._require_mention(anchor_mention)
        kept = dict(attrs or {})
        self._bridges[(anaphor, anchor)] = {"relation": relation, "anchor_mention": anchor_mention,
                                            "attrs": kept}
        return Bridging(anaphor, anchor, relation, anchor_mention, kept)

    def bridging(self) -> list[Bridging]:
        """Every bridging relation, ordered by anaphor position then anchor entity."""
        found = [
            Bridging(u, v, d["relation"], d["anchor_mention"], d["attrs"])
            for (u, v), d in self._bridges.items()
        ]
        found.sort(key=lambda b: (_position_key(b.anaphor), b.anchor.id))
        return found

    def remove_bridging(self, anaphor: Mention, anchor: Entity) -> None:
        self._bridges.pop((anaphor, anchor), None)

    # ------------------------------------------------------------------ whole-document
    def non_referring(self) -> list[Mention]:
        """Non-referring markables, in document order."""
        return sorted((m for m in self._mentions if m.nonref is not None), key=_position_key)

    def is_zero(self, mention: Mention) -> bool:
        """True if every token of the mention is an empty node (a zero mention)."""
        return bool(mention.tokens) and all(self.tokens[t].is_empty for t in mention.tokens)

    def chains(self, layer: str = IDENTITY) -> list[list[Mention]]:
        """The mentions of each non-pseudo entity of a layer, entities in creation order."""
        return [self.mentions_of(e) for e in self.entities_in(layer)]

    def graph(self) -> nx.MultiDiGraph:
        """The anaphoric structure as a ``networkx.MultiDiGraph`` (a snapshot).

        Nodes are the document's mentions and entities; edge keys are ``refers``,
        ``element_of`` (with ``evidence``) and ``bridge`` (with ``relation``,
        ``anchor_mention``, ``attrs``).
        """
        import networkx as nx

        g = nx.MultiDiGraph()
        g.add_nodes_from(self._mentions)
        g.add_nodes_from(self._entities)
        g.add_edges_from((m, e, REFERS) for m, e in self._entity_of.items())
        for (member, set_entity), evidence in self._sets.items():
            g.add_edge(member, set_entity, key=ELEMENT_OF, evidence=evidence)
        for (anaphor, anchor), data in self._bridges.items():
            g.add_edge(anaphor, anchor, key=BRIDGE, **data)
        return g

    def copy(self, *, text: bool = True) -> Document:
        """A deep copy: new mentions, entities and relations with the same values.

        With ``text=False`` the copy shares the token and sentence objects with this
        document instead of copying them; passes that change only the anaphoric layer use
        it, and must then treat the text layer as read-only.
        """
        import copy as _copy

        if text:
            return _copy.deepcopy(self)
        memo: dict[int, Any] = {id(t): t for t in self.tokens}
        memo.update({id(s): s for s in self.sentences})
        memo[id(self.tokens)] = self.tokens
        memo[id(self.sentences)] = self.sentences
        return _copy.deepcopy(self, memo)

    def __deepcopy__(self, memo: dict[int, Any]) -> Document:
        import copy as _copy

        new = Document(self.id, self.part, file=self.file)
        memo[id(self)] = new
        new.line = self.line
        new.source_format = self.source_format
        new.tokens = _copy.deepcopy(self.tokens, memo)
        new.sentences = _copy.deepcopy(self.sentences, memo)
        new.meta = dict(self.meta)
        new.attrs = _copy.deepcopy(self.attrs, memo)
        new.repairs = list(self.repairs)
        new._next_mention_id = self._next_mention_id
        new._next_entity_id = self._next_entity_id
        emap: dict[Entity, Entity] = {}
        for e in self._entities:
            emap[e] = Entity(e.id, layer=e.layer, pseudo=e.pseudo, attrs=_copy.deepcopy(e.attrs, memo))
            new._entities[emap[e]] = None
            new._chains[emap[e]] = {}
        mmap: dict[Mention, Mention] = {}
        for m in self._mentions:
            mmap[m] = Mention(
                m.id, m.tokens, layer=m.layer, head=m.head, head_derived=m.head_derived,
                min_tokens=m.min_tokens, min_derived=m.min_derived, nonref=m.nonref,
                attrs=_copy.deepcopy(m.attrs, memo), line=m.line,
            )
            new._mentions[mmap[m]] = None
        for m, e in self._entity_of.items():
            new._entity_of[mmap[m]] = emap[e]
            new._chains[emap[e]][mmap[m]] = None
        for (member, set_entity), evidence in self._sets.items():
            new._sets[(emap[member], emap[set_entity])] = tuple(mmap[m] for m in evidence)
        for (anaphor, anchor), data in self._bridges.items():
            anchor_mention = data["anchor_mention"]
            new._bridges[(mmap[anaphor], emap[anchor])] = {
                "relation": data["relation"],
                "anchor_mention": mmap[anchor_mention] if anchor_mention is not None else None,
                "attrs": _copy.deepcopy(data["attrs"], memo),
            }
        return new

    # ------------------------------------------------------------------ helpers
    def _require_mention(self, mention: Mention) -> None:
        if mention not in self._mentions:
            raise ModelError(f"{mention} does not belong to document {self.name!r}")

    def _require_entity(self, entity: Entity) -> None:
        if entity not in self._entities:
            raise ModelError(f"{entity} does not belong to document {self.name!r}")


def _creation_key(entity: Entity) -> int:
    return entity.id


def _position_key(mention: Mention) -> tuple[int, int, int]:
    return (mention.start, -mention.end, mention.id)


def _acyclic(edges: Iterable[tuple[Entity, Entity]]) -> bool:
    """Whether the directed graph of ``edges`` has no cycle (Kahn: repeatedly remove nodes
    nothing points to; a cycle is what cannot be removed)."""
    successors: dict[Entity, list[Entity]] = {}
    indegree: dict[Entity, int] = {}
    for source, target in edges:
        successors.setdefault(source, []).append(target)
        indegree[target] = indegree.get(target, 0) + 1
        indegree.setdefault(source, 0)
    ready = [node for node, degree in indegree.items() if degree == 0]
    removed = 0
    while ready:
        node = ready.pop()
        removed += 1
        for target in successors.get(node, ()):
            indegree[target] -= 1
            if indegree[target] == 0:
                ready.append(target)
    return removed == len(indegree)
