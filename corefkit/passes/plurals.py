"""Passes over plural mentions: ``split-plural-repeats`` and ``distribute-plurals``.

Plural mentions that refer to a group of entities ("they" for Ross and Monica) are
split-antecedent entities in the model: an entity whose accommodated set holds the members
(Paun et al. 2023). Corpora annotate them in two ways that these passes convert between:

* **FRIENDS style** (Zhou & Choi 2018, as converted to Universal Anaphora): every plural
  mention is marked with the group's members on its own, so each becomes a separate
  split-antecedent entity with the same members. ``split-plural-repeats`` turns the later ones
  into coreference with the first, one group entity per set of members, as Paun et al. (2023,
  §7.3) did for FRIENDS.
* **Distributed** (Zhou & Choi 2018's own representation): a plural mention is a mention of each
  of its referents. ``distribute-plurals`` produces it for comparison with that work only: the
  same span then belongs to several entities, which breaks the model's one-entity-per-mention
  rule (and the scorers' handling of repeated spans), so the pass says so in a warning.
"""

from __future__ import annotations

from corefkit.errors import Repair, counted
from corefkit.model import Document, Entity
from corefkit.passes.registry import register_pass
from corefkit.passes.splits import check_acyclic, leaf_members


def _first_position(doc: Document, entity: Entity) -> tuple[int, int, int]:
    mentions = doc.mentions_of(entity)
    if not mentions:
        return (2**62, 0, entity.id)
    first = mentions[0]
    return (first.start, -first.end, entity.id)


@register_pass(
    "split-plural-repeats",
    "FRIENDS-style plural mentions (each marked with the group's members): split-antecedent "
    "entities with the same members become one entity, the later mentions coreferent with the "
    "first (Paun et al. 2023, §7.3); compares direct members (run flatten-splits first to "
    "compare atomic ones)",
)
def split_plural_repeats(doc: Document) -> Document:
    groups = _same_members(doc)
    if not groups:
        return doc
    result = doc.copy(text=False)
    merged_entities = merged_mentions = 0
    examples: list[str] = []
    for group in _same_members(result):
        first, *later = sorted(group, key=lambda e: _first_position(result, e))
        for entity in later:
            merged_mentions += result.size(entity)
            merged_entities += 1
            if len(examples) < 3 and result.size(entity) and result.size(first):
                examples.append(f"'{result.text(result.mentions_of(entity)[0])}' → "
                                f"'{result.text(result.mentions_of(first)[0])}'")
            result.merge_entities(first, entity)
    result.repairs.append(Repair(
        "pass.split-plural-repeats",
        f"merged {counted(merged_entities, 'split-antecedent entity', 'split-antecedent entities')} "
        f"({counted(merged_mentions, 'mention')}) into "
        f"the first entity with the same members" + (f" ({'; '.join(examples)})" if examples else ""),
        document=doc.name, action="approximated"))
    return result


def _same_members(doc: Document) -> list[list[Entity]]:
    """Split-antecedent entities grouped by their set of direct members (groups of 2+)."""
    by_members: dict[frozenset[Entity], list[Entity]] = {}
    for set_entity, members in doc.accommodated_sets().items():
        by_members.setdefault(frozenset(members), []).append(set_entity)
    return [g for g in by_members.values() if len(g) > 1]


@register_pass(
    "distribute-plurals",
    "Zhou & Choi (2018)'s representation, for comparison only: each mention of a "
    "split-antecedent entity becomes a mention of every (atomic) member and the set entity "
    "goes; WARNING: the same span then belongs to several entities",
)
def distribute_plurals(doc: Document) -> Document:
    sets = doc.accommodated_sets()
    if not sets:
        return doc
    check_acyclic(doc)
    result = doc.copy(text=False)
    plan = []
    for set_entity in result.accommodated_sets():
        members = [entity for entity, _ in leaf_members(result, set_entity)]
        plan.append((set_entity, members, result.mentions_of(set_entity)))
    copies = distributed = lost_bridges = 0
    for set_entity, members, mentions in plan:
        for mention in mentions:
            made = []
            for member in members:
                made.append(result.add_mention(
                    mention.tokens, member, head=mention.head, head_derived=mention.head_derived,
                    min_tokens=mention.min_tokens, min_derived=mention.min_derived,
                    attrs=dict(mention.attrs), line=mention.line))
            copies += len(made)
            distributed += 1
            # a bridging relation of the plural mention goes with its first copy
            for bridge in result.bridging():
                if bridge.anaphor is mention and made:
                    result.add_bridging(made[0], bridge.anchor, relation=bridge.relation,
                                        anchor_mention=bridge.anchor_mention, attrs=bridge.attrs)
    for set_entity, _, mentions in plan:
        for mention in mentions:
            result.remove_mention(mention)
        before = len(result.bridging())
        result.remove_entity(set_entity)
        lost_bridges += before - len(result.bridging())
    message = (f"distributed {distributed} plural mentions of {len(plan)} split-antecedent "
               f"entities over their members ({copies} copies); the same span now belongs to "
               "several entities, which violates one entity per mention: use this only to "
               "compare with Zhou & Choi (2018) — scorers drop or keep repeated spans by their "
               "own rules, and converters may refuse them")
    if lost_bridges:
        message += f"; {lost_bridges} bridging relations anchored at the set entities dropped"
    result.repairs.append(Repair("pass.distribute-plurals", message, document=doc.name,
                                 action="approximated"))
    return result
