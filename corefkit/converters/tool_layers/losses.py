"""What a coreference scheme cannot hold of a document (the writers' ``partial_losses``).

The chain scheme has no bridging and no split antecedents; GUM's scheme writes a set as two or
more ``bridge`` relations from one mention, so it cannot write a set of one member, nor two
bridging relations from one anaphor (they would read back as a set); mention attributes are
held as far as the coreference layer has features for them, entity attributes (etype,
identity) in the relation schemes only.
"""

from __future__ import annotations

from corefkit.converters.loss import MAX_EXAMPLES, LossRecord, describe_mention, user_attributes
from corefkit.converters.offsets import SUBTOKEN
from corefkit.converters.tool_layers.extract import side_relations, writable
from corefkit.converters.tool_layers.schemes import CHAIN_SHAPE, ENTITY_ATTRIBUTES, Scheme
from corefkit.model import Document


def scheme_losses(doc: Document, scheme: Scheme,
                  span_features: tuple[str, ...]) -> list[LossRecord]:
    records: list[LossRecord] = []

    def record(feature: str, found: list[str], action: str = "dropped") -> None:
        if found:
            records.append(LossRecord(feature, len(found), action, found[:MAX_EXAMPLES],
                                      doc.name))

    held = {scheme.attribute(f) for f in span_features}
    if scheme.shape != CHAIN_SHAPE:
        held.add(scheme.link_attribute)
        held |= {"orig_" + name for name in ENTITY_ATTRIBUTES}
    record("mention_attributes", [describe_mention(doc, m) for m in writable(doc)
                                  if any(k not in held and k != SUBTOKEN
                                         for k in user_attributes(m.attrs))])
    entity_held = set(ENTITY_ATTRIBUTES) & held if scheme.shape != CHAIN_SHAPE else set()
    record("entity_attributes", [f"entity {e.id}" for e in doc.entities
                                 if any(k not in entity_held for k in user_attributes(e.attrs))])
    if scheme.shape == CHAIN_SHAPE:
        record("bridging", [describe_mention(doc, b.anaphor) for b in doc.bridging()],
               "dropped (the chain scheme has no bridging; write with --coref-scheme relation)")
        record("split_antecedents", [f"entity {s.member.id} in set {s.set_entity.id}"
                                     for s in doc.memberships()],
               "dropped (the chain scheme has no split antecedents)")
        return records
    side = side_relations(doc, scheme, set(writable(doc)))
    why = ("dropped (no mention the layer holds, or GUM's scheme: a set of fewer than two "
           "members, a second bridge relation from one anaphor)"
           if scheme.split_from_multiple_bridges else
           "dropped (the anaphor, anchor or member has no mention the layer holds)")
    record("bridging", [describe_mention(doc, b.anaphor) for b in side.lost_bridges], why)
    record("split_antecedents", [f"entity {s.member.id} in set {s.set_entity.id}"
                                 for s in side.lost_memberships], why)
    return records
