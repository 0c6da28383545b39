"""Building a report: read the inputs once, score and analyse every system (or count the
corpus), and write the page.

A comparison report (a key and one or more responses) has three tabs — overview (scores,
significance, per-document distributions), errors (categories, costs, breakdowns, the list of
every error) and documents (the browser, key beside a system); a corpus report (one annotated
corpus) has statistics and the chain browser.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.diagnosis.categories import TITLES
from corefkit.errors import FormatError, Repair, UsageError, counted
from corefkit.evaluation.compare import PairTest
from corefkit.model import Document
from corefkit.report import sections
from corefkit.report.corpus import CorpusFacts, corpus_facts
from corefkit.report.documents import document_json
from corefkit.report.page import write_page
from corefkit.report.svg import colour
from corefkit.report.systems import (
    System,
    run_system,
    significance,
    testable,
    unique_labels,
)
from corefkit.scoring.engine import source_name

DEFAULT_PAGE_TOKENS = 1500


@dataclass
class Report:
    """A built report, written by :meth:`write` (nothing is rendered before)."""

    kind: str                                  # "compare" or "corpus"
    title: str
    source: str                                # the key or the corpus
    key: list[Document]
    systems: list[System] = field(default_factory=list)
    tests: list[PairTest] = field(default_factory=list)
    facts: CorpusFacts | None = None
    options: dict[str, Any] = field(default_factory=dict)
    warnings: list[Repair] = field(default_factory=list)

    @property
    def categories(self) -> list[str]:
        return list(self.systems[0].analysis.categories) if self.systems else []

    def pairs(self) -> list[list[Document | None]]:
        """Each key document with every system's document of the same name (or None)."""
        from corefkit.diagnosis.engine import pair_documents

        rows: list[list[Document | None]] = [[d] for d in self.key]
        for system in self.systems:
            paired, _ = pair_documents(self.key, system.documents, False)
            for row, (_, answer) in zip(rows, paired):
                row.append(answer)
        return rows

    def documents_json(self) -> Iterator[dict[str, Any]]:
        """The browser's data of each document, made one at a time as the page is written."""
        from corefkit.analysis.mention_types import load_type_table

        table = load_type_table(self.options.get("type_table"))
        for row in self.pairs():
            name = row[0].name if row[0] is not None else ""
            errors = [s.errors_by_document.get(name, []) for s in self.systems]
            yield document_json(row, errors, self.categories, table)

    def index(self) -> dict[str, Any]:
        """What the page's script reads when the page opens (documents, systems, errors)."""
        names = [d.name for d in self.key]
        docs = []
        for n, doc in enumerate(self.key):
            words = sum(1 for t in doc.tokens if not t.is_empty)
            entry: dict[str, Any] = {"n": doc.name, "t": words}
            if self.kind == "compare":
                entry["f"] = [s.document_scores("conll").get(doc.name) for s in self.systems]
                entry["x"] = [len(s.errors_by_document.get(doc.name, [])) for s in self.systems]
            else:
                assert self.facts is not None
                counts = self.facts.each[n].counts
                entry.update(m=counts["mentions"], e=counts["entities"])
            docs.append(entry)
        return {"kind": self.kind, "pageTokens": self.options.get("page_tokens",
                                                                  DEFAULT_PAGE_TOKENS),
                "sides": ["key", *(s.label for s in self.systems)],
                "colours": [colour(n) for n in range(len(self.systems))],
                "categories": [[c, TITLES[c]] for c in self.categories],
                "docs": docs, **self._errors(names)}

    def _errors(self, names: list[str]) -> dict[str, list[Any]]:
        """Every error as [document, system, category, line, text, its number in the
        document, file]; ``files`` are the file names (without folders) errors are in."""
        code = {c: n for n, c in enumerate(self.categories)}
        files: dict[str, int] = {}
        out = []
        for k, system in enumerate(self.systems, 1):
            for n, name in enumerate(names):
                for j, e in enumerate(system.errors_by_document.get(name, [])):
                    text = e.mentions_text(arrow="→", more="…")
                    where = files.setdefault(os.path.basename(e.file or ""), len(files))
                    out.append([n, k, code[e.category], e.line, text[:240], j, where])
        return {"errors": out, "files": list(files)}

    def page_sections(self) -> list[tuple[str, str, str]]:
        names = [d.name for d in self.key]
        if self.kind == "corpus":
            assert self.facts is not None
            return [("statistics", "Statistics", sections.statistics(self.facts, names)),
                    ("documents", "Documents", sections.browser(False))]
        metrics = testable(self.systems)
        return [("overview", "Overview",
                 sections.overview(self.systems, self.tests, metrics, names, self.options)
                 + sections.long_range(self.systems)),
                ("errors", "Errors", sections.errors_section(self.systems)),
                ("documents", "Documents", sections.browser(True))]

    def header_facts(self) -> list[str]:
        from html import escape

        from corefkit._version import __version__

        words = sum(1 for d in self.key for t in d.tokens if not t.is_empty)
        facts = [f"{'key' if self.kind == 'compare' else 'corpus'} <code>{escape(self.source)}"
                 "</code>", counted(len(self.key), "document"),
                 f"{words:,} word{'' if words == 1 else 's'}"]
        for n, s in enumerate(self.systems):
            facts.append(f"{sections.swatch(colour(n))}{escape(s.label)}: "
                         f"<code>{escape(s.source)}</code>")
        if self.systems:
            facts.append(f"{escape(str(self.systems[0].score.options.get('semantics', '')))} "
                         "semantics")
        facts.append(f"corefkit {escape(__version__)}")
        return facts

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the page to ``path`` atomically (a temporary file renamed; ``-``: stdout)."""
        from corefkit.converters.io import atomic_text_output

        with atomic_text_output(path) as out:
            write_page(out, title=self.title, facts=self.header_facts(),
                       sections=self.page_sections(), index=self.index(),
                       documents=self.documents_json())


def read_documents(source: Any, format: str | None, options: dict[str, Any],
                   lenient: bool) -> list[Document]:
    """Documents from paths (as ``corefkit.read``) or given as documents."""
    from corefkit.scoring.engine import documents_of

    docs = list(documents_of(source, format, options, lenient))
    if not docs:
        raise FormatError(f"{source_name(source)} holds no document", check="file.no-documents")
    return docs


def _read_all(key: Any, responses: Sequence[Any], options: dict[str, Any]
              ) -> tuple[list[Document], list[list[Document]]]:
    from corefkit.converters.registry import route_read_options

    fmt = options.get("format")
    key_fmt = options.get("key_format") or fmt
    response_fmt = options.get("response_format") or fmt
    routed = route_read_options(options.get("read_options") or {},
                                [(key, key_fmt), *((r, response_fmt) for r in responses)])
    lenient = bool(options.get("lenient"))
    key_docs = read_documents(key, key_fmt, {**routed[0], **(options.get("key_read_options")
                                                              or {})}, lenient)
    response_docs = [read_documents(r, response_fmt,
                                    {**own, **(options.get("response_read_options") or {})},
                                    lenient)
                     for r, own in zip(responses, routed[1:])]
    return key_docs, response_docs


def build(key: Any, responses: Sequence[Any] = (), *, labels: Sequence[str | None] = (),
          title: str | None = None, metrics: Any = None, permutations: int = 10_000,
          bootstrap: int = 10_000, seed: int = 0, alpha: float = 0.1,
          page_tokens: int = DEFAULT_PAGE_TOKENS, type_table: Any = None,
          anchors: str = "agreed", strata: str | None = None, **options: Any) -> Report:
    """Read, score and analyse; see :func:`corefkit.report.report`."""
    if len(labels) > len(responses):
        raise UsageError(f"{len(labels)} labels given for {len(responses)} responses")
    given = [label for label in labels if label is not None]
    if len(set(given)) < len(given):
        raise UsageError("every --label must be different")
    if permutations < 1 or bootstrap < 1:
        raise UsageError("--permutations and --bootstrap must be at least 1")
    if not 0 < alpha < 1:
        raise UsageError(f"--alpha must lie between 0 and 1, got {alpha}")
    if page_tokens < 50:
        raise UsageError("--page-tokens must be at least 50")
    key_docs, response_docs = _read_all(key, responses, options)
    settings = {"permutations": permutations, "bootstrap": bootstrap, "seed": seed,
                "alpha": alpha, "page_tokens": page_tokens, "type_table": type_table,
                "strata": strata}
    metric_options = None
    if strata is not None and responses:  # the long-range section: strata join the metrics
        from corefkit.scoring.metrics.strata import strata_request

        if metrics is None and options.get("profile"):
            from corefkit.scoring.profiles import profile_settings

            metrics = profile_settings(options["profile"]).get("metrics")
        if isinstance(metrics, (list, tuple)):
            metrics = ",".join(metrics)
        metrics, metric_options = strata_request(metrics or "all", strata)
    name = source_name(key)
    if not responses:
        facts = corpus_facts(key_docs, type_table)
        warnings = [r for d in key_docs for r in d.repairs]
        return Report("corpus", title or f"corefkit report: {name}", name, key_docs,
                      facts=facts, options=settings, warnings=warnings)
    sources = [source_name(r) for r in responses]
    systems = [run_system(label, source, key_docs, docs, metrics, options, type_table, anchors,
                          metric_options)
               for label, source, docs in zip(unique_labels(labels, sources), sources,
                                              response_docs)]
    tests = significance(systems, permutations=permutations, bootstrap=bootstrap, seed=seed,
                         alpha=alpha)
    warnings = [w for s in systems for w in (*s.score.warnings, *s.analysis.warnings)]
    return Report("compare", title or f"corefkit report: {name}", name, key_docs, systems, tests,
                  options=settings, warnings=_unique(warnings))


def _unique(records: Sequence[Repair]) -> list[Repair]:
    seen: set[str] = set()
    out = []
    for r in records:
        text = str(r)
        if text not in seen:
            seen.add(text)
            out.append(r)
    return out
