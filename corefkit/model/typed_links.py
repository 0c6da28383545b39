"""Typed anaphoric links: the LCC type codes a mention carries and the links a document keeps.

A type code (Žitkus & Butkienė 2018; the scheme the ``dominant`` evaluation scores, spelled
out with the meaning of every letter in ``corefkit/schemas/lcc-type-scheme.json``) has four
positions:

1. the class of the referring expression: ``p`` pronominal, ``g`` generic nominal, ``d``
   definitive nominal, ``a`` adverbial (a clausal antecedent: discourse deixis), ``e``
   ellipsis;
2. the subclass (``ppas``: personal pronoun, ``poas``: possessive, ``dtis``: repetition ...);
3. the direction: ``a`` anaphoric, ``p`` cataphoric, ``i`` irrelevant;
4. the antecedents: ``s`` single, ``g`` group (a split antecedent), ``a`` ambiguous.

A mention keeps the codes of the links it is the referring expression of in
``mention.attrs["lcc_type"]`` (several joined by commas, so that they travel through other
formats as one attribute string). A document read from a format with typed links keeps every
link, with its code, in ``doc.attrs[LINKS]``: records ``{"anaphor": mention id,
"antecedents": [mention ids], "type": code, "layer": layer, "index": position in the file}``
(mention ids, so that copies and passes keep them valid), because the type-aware evaluation
scores links, not only clusters.
"""

from __future__ import annotations

import re

from corefkit.model.anaphora import Mention
from corefkit.model.document import Document

LINKS = "anaphoric_links"   # doc.attrs key: the typed links, format-neutral (see module doc)
UNKNOWN_TYPE = "----"       # corefkit's code for "type unknown": the scheme has none
GROUP_TYPE = "---g"
DD_TYPE = "a---"
TYPE_RE = re.compile(r"^[pgdae-][a-z-][api-][sga-]$")


def type_codes(mention: Mention) -> list[str]:
    """The LCC type codes a mention carries: ``attrs["lcc_type"]``, several joined by commas
    (the referring expression of several links), or a list."""
    value = mention.attrs.get("lcc_type")
    if value is None or value == "":
        return []
    if isinstance(value, str):
        return value.split(",")
    return [str(v) for v in value]


def links(doc: Document) -> list[tuple[Mention, list[Mention], str, str]]:
    """The typed links of a document as (anaphor, antecedents, type code, layer).

    Links whose anaphor has left the document (a pass removed it) are left out, and so are
    antecedents that have.
    """
    by_id = {m.id: m for m in doc.mentions}
    found = []
    for record in doc.attrs.get(LINKS, ()):
        anaphor = by_id.get(record["anaphor"])
        if anaphor is None:
            continue
        antecedents = [by_id[i] for i in record["antecedents"] if i in by_id]
        found.append((anaphor, antecedents, record["type"], record["layer"]))
    return found
