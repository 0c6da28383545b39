"""``corefkit stats``: what a corpus holds — documents, tokens, mentions, entities, relations and
mention types (with the source each type count rests on).

Counts are taken on the document model, so they mean the same for every format:

* ``tokens`` are words (empty nodes are counted apart as ``empty_nodes``);
* ``mentions`` are the identity-layer markables, non-referring ones included; ``entities`` the
  identity entities (a non-referring markable's stand-in entity is not one), ``singletons``
  those with one mention;
* ``split_antecedents``: the entities with an accommodated set and the element-of links;
* ``bridging``: bridging relations; ``non_referring``: non-referring markables;
  ``discourse_deixis``: entities and mentions of the discourse-deixis layer;
* ``mention_types``: every identity-layer mention typed by
  :mod:`corefkit.analysis.mention_types`, with the counts per deciding source.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from corefkit.analysis.mention_types import (
    TYPES,
    MentionTyper,
    TypeCounts,
    TypeTable,
    load_type_table,
)
from corefkit.errors import Repair, counted
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document

COUNTS = ("documents", "sentences", "tokens", "empty_nodes", "mentions", "entities", "singletons",
          "split_antecedent_sets", "split_antecedent_members", "bridging", "non_referring",
          "dd_entities", "dd_mentions")


@dataclass
class Stats:
    """Counts of one document or a whole corpus; ``+`` adds."""

    name: str = ""
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTS, 0))
    types: TypeCounts = field(default_factory=TypeCounts)

    def __add__(self, other: Stats) -> Stats:
        return Stats(self.name, {k: self.counts[k] + other.counts[k] for k in COUNTS},
                     self.types + other.types)

    def to_json(self) -> dict[str, Any]:
        c = self.counts
        out: dict[str, Any] = {k: c[k] for k in ("documents", "sentences", "tokens", "empty_nodes",
                                                 "mentions", "entities", "singletons")}
        out["split_antecedents"] = {"sets": c["split_antecedent_sets"],
                                    "members": c["split_antecedent_members"]}
        out["bridging"] = c["bridging"]
        out["non_referring"] = c["non_referring"]
        out["discourse_deixis"] = {"entities": c["dd_entities"], "mentions": c["dd_mentions"]}
        types = self.types.to_json()
        out["mention_types"] = types["types"]
        out["mention_type_sources"] = types["sources"]
        out["mention_types_by_source"] = types["by_source"]
        return out


def document_stats(doc: Document, table: TypeTable | str | None = None) -> Stats:
    """The counts of one document."""
    identity = [m for m in doc.mentions if m.layer == IDENTITY]
    entities = doc.entities_in(IDENTITY)
    sets = doc.accommodated_sets()
    counts = {
        "documents": 1,
        "sentences": len(doc.sentences),
        "tokens": sum(1 for t in doc.tokens if not t.is_empty),
        "empty_nodes": sum(1 for t in doc.tokens if t.is_empty),
        "mentions": len(identity),
        "entities": len(entities),
        "singletons": sum(1 for e in entities if doc.size(e) == 1),
        "split_antecedent_sets": len(sets),
        "split_antecedent_members": sum(len(m) for m in sets.values()),
        "bridging": len(doc.bridging()),
        "non_referring": len(doc.non_referring()),
        "dd_entities": len(doc.entities_in(DISCOURSE_DEIXIS)),
        "dd_mentions": sum(1 for m in doc.mentions if m.layer == DISCOURSE_DEIXIS),
    }
    typer = MentionTyper(doc, table)
    types = TypeCounts()
    for mention in identity:
        types.add(typer(mention))
    return Stats(doc.name, counts, types)


def corpus_stats(documents: Iterable[Document], table: TypeTable | str | None = None,
                 per_document: bool = False) -> tuple[Stats, list[Stats]]:
    """Totals over ``documents`` and, with ``per_document``, each document's own counts."""
    table = load_type_table(table)
    total = Stats("total")
    each: list[Stats] = []
    for doc in documents:
        found = document_stats(doc, table)
        total = total + found
        if per_document:
            each.append(found)
    total.name = "total"
    return total, each


def source_stats(source: str, *, format: str | None = None, table: str = "default",
                 per_document: bool = False, lenient: bool = False, jobs: int | None = None,
                 **options: Any) -> tuple[Stats, list[Stats], list[Repair]]:
    """The counts of a file, folder or glob (``corefkit stats``): totals, each document's counts
    when asked, and the readers' repairs; files are counted in ``jobs`` processes (default:
    the machine's cores when there is enough input), summed in file order."""
    from corefkit.converters.registry import expand_paths, refuse_undeclared
    from corefkit.parallel import map_files, workers_for

    # each file read as the format its folder's expansion found (one detection per file)
    found = [(source, format)] if source == "-" else list(expand_paths(source, format))
    files = [f for f, _ in found]
    if options and source != "-":
        from corefkit.converters.registry import get

        refuse_undeclared(options, [get(fmt) for _, fmt in found if fmt is not None], "read")
    work = functools.partial(_file_stats, table=table, per_document=per_document,
                             lenient=lenient, options=options)
    total, each, repairs = Stats("total"), [], []
    for file_total, file_each, file_repairs in map_files(work, found,
                                                          workers_for(jobs, files)):
        total = total + file_total
        each.extend(file_each)
        repairs.extend(file_repairs)
    total.name = "total"
    return total, each, repairs


def _file_stats(item: tuple[str, str | None], *, table: str, per_document: bool,
                lenient: bool, options: dict[str, Any]) -> tuple[Stats, list[Stats],
                                                                   list[Repair]]:
    from corefkit.converters.registry import get, own_options, read

    file, fmt = item
    own = own_options(get(fmt), options, "read") if fmt is not None else options
    repairs: list[Repair] = []

    def documents() -> Iterator[Document]:
        for doc in read(file, format=fmt, lenient=lenient, checks=True, **own):
            repairs.extend(doc.repairs)
            yield doc

    total, each = corpus_stats(documents(), table, per_document=per_document)
    return total, each, repairs


def render_table(total: Stats, each: list[Stats], table: TypeTable, source: str) -> str:
    """The human-readable listing of ``corefkit stats``."""
    lines = [f"corpus: {source}"]
    for stats in ([*each, total] if each else [total]):
        c = stats.counts
        if each:
            lines += ["", f"document: {stats.name}" if stats is not total else "total:"]
        rows = [
            ("documents", c["documents"]),
            ("sentences", c["sentences"]),
            ("tokens", c["tokens"]),
            ("empty nodes", c["empty_nodes"]),
            ("mentions", c["mentions"]),
            ("entities", c["entities"]),
            ("  singletons", c["singletons"]),
            ("split antecedents",
             f"{counted(c['split_antecedent_sets'], 'set')}, "
             f"{counted(c['split_antecedent_members'], 'member')}"),
            ("bridging", c["bridging"]),
            ("non-referring", c["non_referring"]),
            ("discourse deixis", f"{counted(c['dd_entities'], 'entity', 'entities')}, "
                                 f"{counted(c['dd_mentions'], 'mention')}"),
        ]
        width = max(len(r[0]) for r in rows)
        lines += [f"{label:<{width}}  {value}" for label, value in rows]
        lines += ["", "mention types:"]
        mentions = sum(stats.types.types.values())
        for kind in TYPES:
            n = stats.types.types.get(kind, 0)
            share = f"{100 * n / mentions:5.1f}%" if mentions else "    -"
            by = ", ".join(f"{s} {stats.types.by_source[s][kind]}"
                           for s in sorted(stats.types.by_source)
                           if stats.types.by_source[s].get(kind))
            lines.append(f"  {kind:<8} {n:>7}  {share}" + (f"  ({by})" if by else ""))
        if stats.types.sources:
            lines.append("  decided by: " + ", ".join(
                f"{s} {n}" for s, n in stats.types.sources.most_common()))
    titles = table.source_titles()
    used = sorted(set(total.types.sources) & set(titles))
    if used:
        lines += ["", "sources:"] + [f"  {s}: {titles[s]}" for s in used]
    return "\n".join(lines) + "\n"
