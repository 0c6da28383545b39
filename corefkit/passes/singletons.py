"""Pass ``remove-singletons``: drop entities that have a single mention."""

from __future__ import annotations

from corefkit.errors import Repair
from corefkit.model import IDENTITY, Document
from corefkit.passes.registry import register_pass


@register_pass(
    "remove-singletons",
    "remove identity entities with one mention, and that mention (as scorers do for "
    "singleton-free evaluation)",
)
def remove_singletons(doc: Document) -> Document:
    result = doc.copy(text=False)
    removed = 0
    for entity in result.entities_in(IDENTITY):
        if result.size(entity) == 1:
            result.remove_entity(entity, delete_mentions=True)
            removed += 1
    if removed:
        result.repairs.append(Repair("pass.remove-singletons", f"removed {removed} singleton entities",
                                     document=doc.name, action="dropped"))
    return result
