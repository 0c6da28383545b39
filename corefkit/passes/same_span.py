"""Pass ``merge-same-span``: one mention per span — a span annotated in two entities keeps one.

A system (or an annotator) sometimes puts the same span into two entities, or twice into one.
The model allows it, but a span then stands for two referents, and scorers treat the repeat
differently: the reference scorer v8.01 removes a repeated *response* mention only when the key
has the span (otherwise it keeps both), corefkit's scorer removes every repeat after the first
and warns. The pass makes the choice explicit before scoring or converting: of the mentions
with the same tokens on one layer, it
keeps the one in the first entity (``keep=first``, the order entities were read in, which is
the scorers' order) or in the entity with the most mentions (``keep=larger``, ties to the
first), and removes the others. Bridging relations whose anaphor was a removed mention move to
the kept one, and so does split-antecedent evidence; an entity left without mentions is removed
with its relations. Every removal is reported.
"""

from __future__ import annotations

from corefkit.errors import Repair, UsageError, counted
from corefkit.model import Document, Entity, Mention
from corefkit.passes.registry import register_pass

KEEP = ("first", "larger")


@register_pass(
    "merge-same-span",
    "keep one mention per span and layer when a span is annotated in several entities (or "
    "twice in one): keep=first (entity order, as scorers do) or keep=larger; reports each",
    keep=str,
)
def merge_same_span(doc: Document, keep: str = "first") -> Document:
    if keep not in KEEP:
        raise UsageError(f"pass merge-same-span: keep must be first or larger, not {keep!r}")
    if not _repeats(doc):
        return doc
    result = doc.copy(text=False)
    order = {e: n for n, e in enumerate(result.entities)}
    across = within = 0
    examples: list[str] = []
    emptied = set()
    for group in _repeats(result):
        def rank(m: Mention) -> tuple[int, int, int]:
            entity = _linked(result, m)
            size = result.size(entity) if keep == "larger" else 0
            return (-size, order[entity], m.id)

        kept, *dropped = sorted(group, key=rank)
        kept_entity = _linked(result, kept)
        for mention in dropped:
            entity = _linked(result, mention)
            if entity is kept_entity:
                within += 1
            else:
                across += 1
                if len(examples) < 3:
                    examples.append(f"'{result.text(mention)}' in entities "
                                    f"{_name(kept_entity)} and {_name(entity)}")
            _move_relations(result, mention, kept)
            result.remove_mention(mention)
            if result.size(entity) == 0:
                emptied.add(entity)
    for entity in emptied:
        result.remove_entity(entity)
    parts = []
    if across:
        parts.append(f"{counted(across, 'mention')} repeated a span of another entity "
                     f"({'; '.join(examples)})")
    if within:
        parts.append(f"{counted(within, 'mention')} repeated a span of "
                     f"{'its' if within == 1 else 'their'} own entity")
    message = " and ".join(parts) + f"; kept the mention of the {keep} entity"
    if emptied:
        message += (f", removed {counted(len(emptied), 'entity', 'entities')} left without "
                    "mentions")
    result.repairs.append(Repair("pass.merge-same-span", message, document=doc.name,
                                 action="dropped"))
    return result


def _linked(doc: Document, mention: Mention) -> Entity:
    """The entity of a mention of a repeat group (such mentions are linked)."""
    entity = doc.entity_of(mention)
    assert entity is not None
    return entity


def _repeats(doc: Document) -> list[list[Mention]]:
    """Groups of two or more linked mentions with the same tokens on the same layer."""
    groups: dict[tuple[str, tuple[int, ...]], list[Mention]] = {}
    for mention in doc.mentions:
        if mention.tokens and doc.entity_of(mention) is not None:
            groups.setdefault((mention.layer, mention.tokens), []).append(mention)
    return [g for g in groups.values() if len(g) > 1]


def _move_relations(doc: Document, old: Mention, new: Mention) -> None:
    """Give ``new`` the bridging relations and set evidence ``old`` carried."""
    for bridge in doc.bridging():
        if bridge.anaphor is old:
            doc.add_bridging(new, bridge.anchor, relation=bridge.relation,
                             anchor_mention=bridge.anchor_mention, attrs=bridge.attrs)
        elif bridge.anchor_mention is old:
            doc.add_bridging(bridge.anaphor, bridge.anchor, relation=bridge.relation,
                             anchor_mention=new, attrs=bridge.attrs)
    for membership in doc.memberships():
        if old in membership.evidence:
            doc.add_to_set(membership.member, membership.set_entity, evidence=[new])


def _name(entity: object) -> str:
    original = getattr(entity, "attrs", {}).get("original_id")
    return str(original) if original is not None else f"#{getattr(entity, 'id', '?')}"
