"""GUM's WebAnno TSV sources against its released CorefUD files, document by document.

``corpora/webanno-tsv/gum/README.md`` says what a straight TSV → CorefUD conversion should
give: the same mention extents, entities (components of the ``coref`` relations), ``Bridge``
and ``SplitAnte`` (a source with two or more ``bridge`` relations), and which differences to
expect. Each cell of the table is ``equal``, ``documented (N)`` — a difference the README
explains, with its count — or ``UNEXPLAINED``. Run ``python -m tests.converters.gum_tsv`` for
the table.
"""

from __future__ import annotations

from pathlib import Path

import corefkit
from corefkit.model import IDENTITY, Document

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
TSV = CORPORA / "webanno-tsv" / "gum"
RELEASE = CORPORA / "gum" / "dep"
DOCUMENTS = sorted(p.stem for p in TSV.glob("*.tsv") if p.stem != "counts")
COLUMNS = ("mentions", "entities", "bridging", "split antecedents")

Extent = tuple[int, ...]


def structure(doc: Document) -> dict[str, object]:
    """Mentions, entities, bridging and split antecedents by word positions (CorefUD's empty
    nodes are not words: the TSV has none)."""
    words: dict[int, int] = {}
    for token in doc.tokens:
        if not token.is_empty:
            words[token.index] = len(words)

    def extent(mention: object) -> Extent:
        return tuple(words[t] for t in mention.tokens if t in words)  # type: ignore[attr-defined]

    def chain(entity: object) -> frozenset[Extent]:
        return frozenset(extent(m) for m in doc.mentions_of(entity))  # type: ignore[arg-type]

    return {
        "mentions": sorted(extent(m) for m in doc.mentions),
        "entities": {chain(e) for e in doc.entities_in(IDENTITY)},
        "bridging": {(extent(b.anaphor), chain(b.anchor)) for b in doc.bridging()},
        "split antecedents": {(chain(s.set_entity), chain(s.member)) for s in doc.memberships()},
    }


def compare(name: str) -> dict[str, str]:
    """The status of each column for one document."""
    (source,) = corefkit.read(str(TSV / f"{name}.tsv"))
    (release,) = corefkit.read(str(RELEASE / f"{name}.conllu"))
    ours, theirs = structure(source), structure(release)
    # README difference 4: a bridge between two mentions of one entity is dropped by GUM's
    # build; the reader leaves it out too, and says so
    dropped = sum(1 for r in source.repairs if r.check == "webanno-tsv.relation-within-entity")
    found: dict[str, str] = {}
    for column in COLUMNS:
        if ours[column] != theirs[column]:
            found[column] = "UNEXPLAINED"
        elif column == "bridging" and dropped:
            found[column] = f"documented ({dropped}: bridge within one entity, README 4)"
        else:
            found[column] = "equal"
    return found


def counts(name: str) -> tuple[int, int, int, int]:
    (doc,) = corefkit.read(str(TSV / f"{name}.tsv"))
    return (len(doc.mentions), len(doc.entities_in(IDENTITY)), len(doc.bridging()),
            len(doc.memberships()))


def main() -> None:
    print("| document | mentions | entities | bridging | split antecedents |")
    print("|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for name in DOCUMENTS:
        status = compare(name)
        numbers = counts(name)
        totals = [a + b for a, b in zip(totals, numbers)]
        cells = [f"{status[c]} ({n})" for c, n in zip(COLUMNS, numbers)]
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"| total | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |")


if __name__ == "__main__":
    main()
