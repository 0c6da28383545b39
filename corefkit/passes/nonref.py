"""Pass ``drop-non-referring``: remove non-referring markables (expletives, predicates, ...).

Universal Anaphora data marks markables that refer to nothing (``-Pseudo`` ids in CoNLL-UA,
``reference=non_referring`` in MMAX2): the model keeps them as mentions with ``nonref`` set to
their kind (:data:`corefkit.model.NONREF_KINDS`) and no entity, or a one-markable *pseudo*
entity when a relation needs them (a member of a split-antecedent set, a bridging anchor).
Scorers that do not evaluate non-reference want them gone. The pass deletes them — all, or only
the ``kinds`` given — together with the pseudo entities they leave empty and the relations that
started or ended there, and reports each count.
"""

from __future__ import annotations

from collections import Counter

from corefkit.errors import Repair, UsageError
from corefkit.model import NONREF_KINDS, Document
from corefkit.passes.registry import register_pass


def _kinds(text: str | None) -> set[str] | None:
    if text is None or text.strip() in ("", "all"):
        return None
    wanted = {k.strip().lower() for k in text.replace("+", ",").split(",") if k.strip()}
    unknown = sorted(wanted - set(NONREF_KINDS))
    if unknown:
        raise UsageError(f"pass drop-non-referring: unknown kind {', '.join(unknown)} "
                         f"(kinds: {', '.join(NONREF_KINDS)}, or all)")
    return wanted


@register_pass(
    "drop-non-referring",
    "remove non-referring markables (all, or kinds=expletive+predicate+...), the pseudo "
    "entities they leave empty and the relations through them",
    kinds=str,
)
def drop_non_referring(doc: Document, kinds: str | None = None) -> Document:
    wanted = _kinds(kinds)
    doomed = [m for m in doc.non_referring() if wanted is None or m.nonref in wanted]
    if not doomed:
        return doc
    result = doc.copy(text=False)
    targets = [m for m in result.non_referring() if wanted is None or m.nonref in wanted]
    bridges_before = len(result.bridging())
    memberships_before = len(result.memberships())
    touched = {e for m in targets if (e := result.entity_of(m)) is not None}
    by_kind = Counter(m.nonref for m in targets)
    for mention in targets:
        result.remove_mention(mention)
    emptied = [e for e in touched if result.size(e) == 0]
    for entity in emptied:
        result.remove_entity(entity)
    detail = ", ".join(f"{n} {kind}" for kind, n in by_kind.most_common())
    message = f"removed {len(targets)} non-referring markables ({detail})"
    if emptied:
        message += f" and {len(emptied)} pseudo entities left empty"
    lost_bridges = bridges_before - len(result.bridging())
    lost_members = memberships_before - len(result.memberships())
    if lost_bridges or lost_members:
        message += (f"; dropped {lost_bridges} bridging relations and {lost_members} "
                    "split-antecedent memberships through them")
    result.repairs.append(Repair("pass.drop-non-referring", message, document=doc.name,
                                 action="dropped"))
    return result
