"""Passes over accommodated sets: ``flatten-splits`` and ``drop-split-antecedents``."""

from __future__ import annotations

from collections import deque

from corefkit.errors import CorefkitError, Repair
from corefkit.model import Document, Entity, Mention
from corefkit.passes.registry import register_pass


class SplitCycleError(CorefkitError):
    """Accommodated sets that contain themselves, directly or through other sets."""


def check_acyclic(doc: Document) -> None:
    cycles = doc.split_antecedent_cycles()
    if cycles:
        shown = "; ".join(" → ".join(_describe(doc, e) for e in cycle + cycle[:1])
                          for cycle in cycles[:3])
        where = f"{doc.file}: " if doc.file else ""
        raise SplitCycleError(
            f"{where}document {doc.name}: split antecedents form a cycle ({shown}); a set cannot "
            "contain itself — fix the ElementOf / SplitAnte annotation (split.cycle)")


def _describe(doc: Document, entity: Entity) -> str:
    original = entity.attrs.get("original_id")
    return f"entity {original}" if original is not None else f"entity #{entity.id}"


def leaf_members(doc: Document, set_entity: Entity) -> list[tuple[Entity, tuple[Mention, ...]]]:
    """The atomic members of a set, breadth-first, with the evidence that led to each.

    A member that is itself a split-antecedent entity is replaced by its own members,
    recursively (Paun et al. 2023, §4.1, example (11)); the order is the order of discovery,
    as in the Universal Anaphora scorer.
    """
    evidence = {(m.member, m.set_entity): m.evidence for m in doc.memberships()}
    leaves: dict[Entity, tuple[Mention, ...]] = {}
    queue: deque[tuple[Entity, tuple[Mention, ...]]] = deque(
        (member, evidence[(member, set_entity)]) for member in doc.members(set_entity))
    expanded: set[Entity] = {set_entity}
    while queue:
        entity, found_by = queue.popleft()
        inner = doc.members(entity)
        if not inner:
            leaves[entity] = leaves.get(entity, ()) + tuple(m for m in found_by
                                                            if m not in leaves.get(entity, ()))
            continue
        if entity in expanded:  # reached twice (a diamond); cycles were rejected before
            continue
        expanded.add(entity)
        queue.extend((member, found_by) for member in inner)
    return list(leaves.items())


@register_pass(
    "flatten-splits",
    "replace members of accommodated sets that are themselves sets by their atomic members, "
    "recursively; cycles are errors (Paun et al. 2023, §4.1)",
)
def flatten_splits(doc: Document) -> Document:
    check_acyclic(doc)
    sets = doc.accommodated_sets()
    if not any(doc.members(member) for members in sets.values() for member in members):
        return doc  # nothing nested: the document is already flat
    result = doc.copy(text=False)
    changed = 0
    for set_entity in list(result.accommodated_sets()):
        leaves = leaf_members(result, set_entity)
        direct = result.members(set_entity)
        if [entity for entity, _ in leaves] == direct:
            continue
        changed += 1
        flat = dict(leaves)
        for member in direct:
            result.remove_from_set(member, set_entity)
        for entity, evidence in flat.items():
            result.add_to_set(entity, set_entity, evidence=evidence)
    if changed:
        result.repairs.append(Repair("pass.flatten-splits",
                                     f"flattened {changed} nested accommodated sets",
                                     document=doc.name, action="approximated"))
    return result


@register_pass(
    "drop-split-antecedents",
    "forget accommodated sets; split-antecedent entities stay ordinary entities with their "
    "own mentions",
)
def drop_split_antecedents(doc: Document) -> Document:
    memberships = doc.memberships()
    if not memberships:
        return doc
    result = doc.copy(text=False)
    for m in result.memberships():
        result.remove_from_set(m.member, m.set_entity)
    result.repairs.append(Repair("pass.drop-split-antecedents",
                                 f"dropped {len(memberships)} split-antecedent memberships",
                                 document=doc.name, action="dropped"))
    return result
