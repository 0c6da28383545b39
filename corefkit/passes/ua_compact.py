"""Passes ``ua-compact-encode`` / ``ua-compact-decode``: UA layers through CorefUD's MISC.

CorefUD / UA compact has no place for non-referring markables or a discourse-deixis layer
(formats/README.md, capability matrix). These two passes carry them through CorefUD as ordinary
identity entities whose mentions carry an ``other`` key (CorefUD writes mention attributes into
the ``other`` field of ``Entity`` in MISC):

  non-referring markable → a singleton identity entity, mention attribute nonref=<kind>
                           (CorefUD: other=nonref:<kind>; conversion-notes §4)
  DD entity              → an identity entity whose mentions have dd=own or dd=shared
                           (shared: the DD markable shares its MarkableID with the identity
                           markable over the same tokens)

``ua-compact-encode`` runs before writing CorefUD, ``ua-compact-decode`` after reading it. The
decode pass also restores the CODI-CRAC bridging relation names that CorefUD's ``[a-z]+``
cannot hold and the CorefUD writer squashes (``undersp-rel`` → ``undersprel``).
"""

from __future__ import annotations

import re

from corefkit.errors import Repair, counted
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Mention
from corefkit.passes.registry import register_pass

NONREF_KEY = "nonref"
DD_KEY = "dd"
MAX_EXAMPLES = 5  # examples a repair message names (as many as a conversion report shows)
# The bridging relations of CODI-CRAC 2022 (ua-exploded.md §5) that CorefUD's [a-z]+ cannot
# hold, by the name the CorefUD writer gives them (undersprel -> undersp-rel)
UA_RELATIONS = ("undersp-rel", "subset-inv", "element-inv", "poss-inv", "other-inv")
SQUASHED_RELATIONS = {re.sub(r"[^a-z]", "", name): name for name in UA_RELATIONS}


@register_pass(
    "ua-compact-encode",
    "carry non-referring markables and the discourse-deixis layer through CorefUD: make them "
    "identity entities marked with the mention attribute nonref=<kind> or dd=own|shared",
)
def compact_encode(doc: Document) -> Document:
    result = doc.copy(text=False)
    nonref = 0
    for mention in result.non_referring():
        entity = result.entity_of(mention)
        if entity is None:
            entity = result.new_entity()
            result.set_entity(mention, entity)
        else:
            entity.pseudo = False  # safe: the copy's entity, no index depends on the flag
        mention.attrs[NONREF_KEY] = mention.nonref
        mention.nonref = None
        nonref += 1
    identity_markables = {(m.tokens, m.attrs.get("markable_id")) for m in result.mentions
                          if m.layer == IDENTITY and m.attrs.get("markable_id") is not None}
    dd = 0
    for entity in result.entities_in(DISCOURSE_DEIXIS, pseudo=True):
        for mention in result.mentions_of(entity, ordered=False):
            key = (mention.tokens, mention.attrs.get("markable_id"))
            mention.attrs[DD_KEY] = "shared" if key in identity_markables else "own"
            mention.layer = IDENTITY  # every mention of the entity moves with it
            dd += 1
        entity.layer = IDENTITY
    if nonref or dd:
        result.repairs.append(Repair(
            "ua.compact-encode",
            f"encoded {nonref} non-referring markables as singletons with nonref=<kind> and "
            f"{dd} discourse-deixis mentions as identity mentions with dd=own|shared",
            document=doc.name, action="moved"))
    return result


@register_pass(
    "ua-compact-decode",
    "undo ua-compact-encode after reading CorefUD: nonref=<kind> mentions become non-referring "
    "markables again and dd=own|shared entities the discourse-deixis layer",
)
def compact_decode(doc: Document) -> Document:
    result = doc.copy(text=False)
    relations = {s.member for s in result.memberships()} | {s.set_entity for s in
                                                             result.memberships()}
    relations |= {b.anchor for b in result.bridging()}
    identity_by_tokens: dict[tuple[int, ...], Mention] = {}
    for mention in result.sorted_mentions():
        if mention.layer == IDENTITY and DD_KEY not in mention.attrs:
            identity_by_tokens.setdefault(mention.tokens, mention)
    dd = nonref = shared = 0
    mixed: list[str] = []
    for entity in result.entities_in(IDENTITY, pseudo=True):
        mentions = result.mentions_of(entity)
        flagged = [m for m in mentions if DD_KEY in m.attrs]
        if flagged and len(flagged) != len(mentions):
            mixed.append(f"entity {entity.attrs.get('original_id', entity.id)}")
            continue
        if flagged:
            entity.layer = DISCOURSE_DEIXIS
            for mention in mentions:
                role = mention.attrs.pop(DD_KEY)
                mention.layer = DISCOURSE_DEIXIS
                dd += 1
                partner = identity_by_tokens.get(mention.tokens)
                if role == "shared" and partner is not None:
                    mid = partner.attrs.get("markable_id")
                    if mid is None:
                        shared += 1
                        mid = partner.attrs["markable_id"] = f"shared_{shared}"
                    mention.attrs["markable_id"] = mid
            continue
        kinds = [m.attrs.get(NONREF_KEY) for m in mentions]
        if not mentions or any(k is None for k in kinds):
            continue
        for mention, kind in zip(mentions, kinds):
            del mention.attrs[NONREF_KEY]
            mention.nonref = "unknown" if kind is True or kind == "" else str(kind)
            nonref += 1
        if entity in relations or len(mentions) > 1:
            entity.pseudo = True  # it takes part in a relation: keep it, as a pseudo entity
        else:
            result.remove_entity(entity)
    _restore_relation_names(result, doc.name)
    if mixed:
        result.repairs.append(Repair(
            "ua.compact-decode-mixed",
            f"{counted(len(mixed), 'entity', 'entities')} {'has' if len(mixed) == 1 else 'have'} "
            f"some mentions marked dd and some not; left {'it' if len(mixed) == 1 else 'them'} "
            "in the identity layer"
            f" (first: {', '.join(mixed[:MAX_EXAMPLES])})", document=doc.name))
    if nonref or dd:
        result.repairs.append(Repair(
            "ua.compact-decode",
            f"decoded {nonref} non-referring markables and {dd} discourse-deixis mentions",
            document=doc.name, action="moved"))
    return result


def _restore_relation_names(result: Document, name: str) -> None:
    """The UA names of the bridging relations the CorefUD writer squashed (undersprel)."""
    relations_restored = 0
    for bridge in result.bridging():
        if bridge.relation in SQUASHED_RELATIONS:  # add_bridging replaces the relation
            result.add_bridging(bridge.anaphor, bridge.anchor,
                                relation=SQUASHED_RELATIONS[bridge.relation],
                                anchor_mention=bridge.anchor_mention, attrs=bridge.attrs)
            relations_restored += 1
    if relations_restored:
        result.repairs.append(Repair(
            "ua.compact-decode",
            f"restored the UA names of {relations_restored} bridging relations (undersprel -> "
            "undersp-rel, ...)", document=name, action="renamed"))
