"""The agreement view of the HTML report: annotators side by side, disagreements highlighted.

``corefkit agree ... --html agreement.html`` and ``corefkit.agree(..., html=...)`` write it: one
self-contained page (:mod:`corefkit.report.page`) with three tabs — *agreement* (the pairwise
table, the coefficients of all annotators, per type and per document), *disagreements* (every
disagreement, filterable by pair, category and text; a click opens it in the browser) and
*documents* (the browser: every annotator's column over the common tokens, or the two of the
pair chosen; the disagreements of the categories ticked ringed in their colour; a click on a
mention highlights its chain in every column).

A document's JSON is the browser's (:mod:`corefkit.report.documents`: the sides are the
annotators, entity colours follow the first annotator's) plus ``"dis"``: each disagreement as
``[category, pair, [[side, mention], ...]]``, sides counted from 0 in the annotators' order.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from html import escape
from typing import Any

from corefkit.evaluation.agreement.api import agree as measure
from corefkit.evaluation.agreement.disagreements import CATEGORIES, TITLES, Disagreement
from corefkit.evaluation.agreement.merge import MARK
from corefkit.evaluation.agreement.report import CHAIN_TITLES, AgreementReport, TypeAgreement
from corefkit.evaluation.agreement.scores import CHAIN_METRICS, MATCHES
from corefkit.model import Document
from corefkit.report.documents import Layout, SideData
from corefkit.report.sections import LEGEND, pct, swatch, table
from corefkit.report.svg import colour

DEFAULT_PAGE_TOKENS = 1500


def agree(sources: Any, *, labels: Sequence[str] = (), layers: Sequence[str] = (),
          format: str | None = None, read_options: dict[str, Any] | None = None,
          lenient: bool = False, passes: Sequence[str] = (), curation: bool = False,
          match: str = "exact", remove_singletons: bool = False, type_table: Any = None,
          merge: str | None = None, output: str | os.PathLike[str] | None = None,
          output_format: str | None = None, write_options: dict[str, Any] | None = None,
          mark: str = MARK, fail_on_loss: bool = False,
          html: str | os.PathLike[str] | None = None, title: str | None = None,
          page_tokens: int = DEFAULT_PAGE_TOKENS,
          progress: Any = None) -> AgreementReport:
    """:func:`corefkit.evaluation.agreement.agree`, and the page written to ``html``."""
    if page_tokens < 50:
        from corefkit.errors import UsageError

        raise UsageError("--page-tokens must be at least 50")
    report = measure(sources, labels=labels, layers=layers, format=format,
                     read_options=read_options, lenient=lenient, passes=passes,
                     curation=curation, match=match, remove_singletons=remove_singletons,
                     type_table=type_table, merge=merge, output=output,
                     output_format=output_format, write_options=write_options, mark=mark,
                     fail_on_loss=fail_on_loss, progress=progress)
    if html is not None:
        write_agreement_page(report, html, title=title, page_tokens=page_tokens,
                             type_table=type_table)
    return report


def write_agreement_page(report: AgreementReport, path: str | os.PathLike[str], *,
                         title: str | None = None, page_tokens: int = DEFAULT_PAGE_TOKENS,
                         type_table: Any = None) -> None:
    """Write the agreement view of ``report`` to ``path`` atomically (``-``: stdout)."""
    from corefkit.converters.io import atomic_text_output
    from corefkit.report.page import write_page

    heading = title or f"corefkit agree: {', '.join(report.annotators)}"
    with atomic_text_output(path) as out:
        write_page(out, title=heading, facts=_facts(report),
                   sections=[("agreement", "Agreement", overview(report)),
                             ("errors", "Disagreements", disagreement_section()),
                             ("documents", "Documents", browser(report))],
                   index=index(report, page_tokens), documents=documents(report, type_table))


# ------------------------------------------------------------------------------ data
def pairs_of(report: AgreementReport) -> list[tuple[int, int]]:
    at = {label: n for n, label in enumerate(report.annotators)}
    return [(at[p.first], at[p.second]) for p in report.pairs]


def index(report: AgreementReport, page_tokens: int) -> dict[str, Any]:
    """What the page's script reads when it opens: annotators, pairs, documents, the list."""
    pairs = pairs_of(report)
    pair_at = {(report.annotators[a], report.annotators[b]): n for n, (a, b) in enumerate(pairs)}
    files: dict[str, int] = {}
    errors = []
    docs = []
    names = {d.name: n for n, d in enumerate(report.documents)}
    counters: dict[str, int] = {}
    for d in report.disagreements:
        n = names[d.document]
        j = counters.get(d.document, 0)
        counters[d.document] = j + 1
        first = d.places[0]
        where = files.setdefault(os.path.basename(first.file), len(files))
        text = " | ".join(f"{p.annotator}: {p.text}" for p in d.places)
        errors.append([n, pair_at[(d.first, d.second)] + 1, CATEGORIES.index(d.category),
                       first.line, text[:240], j, where])
    for doc, annotations in zip(report.documents, report.annotations):
        words = sum(1 for t in next(iter(annotations.values())).tokens if not t.is_empty)
        docs.append({"n": doc.name, "t": words, "m": _value(doc.mention_f1()),
                     "c": _value(doc.chain_f1()), "x": sum(doc.disagreements.values())})
    return {"kind": "agree", "pageTokens": page_tokens, "sides": report.annotators,
            "colours": [colour(n) for n in range(len(report.annotators))],
            "pairs": pairs, "categories": [[c, TITLES[c]] for c in CATEGORIES],
            "docs": docs, "errors": errors, "files": list(files)}


def _value(value: Any) -> float | None:
    return None if value is None else float(value)


def documents(report: AgreementReport, type_table: Any = None) -> Iterator[dict[str, Any]]:
    """The browser's data of each document, made one at a time as the page is written."""
    from corefkit.analysis.mention_types import load_type_table

    table_ = load_type_table(type_table)
    pairs = pairs_of(report)
    pair_at = {(report.annotators[a], report.annotators[b]): n for n, (a, b) in enumerate(pairs)}
    by_document: dict[str, list[Disagreement]] = {}
    for d in report.disagreements:
        by_document.setdefault(d.document, []).append(d)
    for doc, annotations in zip(report.documents, report.annotations):
        sides: list[Document | None] = [annotations.get(label) for label in report.annotators]
        yield document_data(doc.name, sides, report.annotators, by_document.get(doc.name, []),
                            pair_at, table_)


def document_data(name: str, docs: Sequence[Document | None], labels: Sequence[str],
                  found: Sequence[Disagreement], pair_at: dict[tuple[str, str], int],
                  table_: Any) -> dict[str, Any]:
    layout = Layout(docs)
    sides = [SideData(d, n, layout, table_) if d is not None else None
             for n, d in enumerate(docs)]
    reference = next(s for s in sides if s is not None)
    out_sides = [s.to_json(None if s is reference else reference) if s is not None else None
                 for s in sides]
    side_of = {label: n for n, label in enumerate(labels)}
    dis = []
    for d in found:
        refs = []
        for p in d.places:
            n = side_of[p.annotator]
            data = sides[n]
            if data is None:
                continue
            span = tuple(sorted(layout.maps[n][t] for t in p.tokens))
            mention = data.by_span.get(span)
            if mention is not None:
                refs.append([n, mention])
        dis.append([CATEGORIES.index(d.category), pair_at[(d.first, d.second)], refs])
    first = next(d for d in docs if d is not None)
    return {"n": name, "t": layout.forms, "z": layout.empty, "g": layout.glued,
            "s": layout.starts, "sides": out_sides, "dis": dis,
            "file": first.file or ""}


# ------------------------------------------------------------------------------ sections
def _facts(report: AgreementReport) -> list[str]:
    from corefkit._version import __version__

    facts = [f"{len(report.documents)} documents"]
    for n, label in enumerate(report.annotators):
        source = report.sources.get(label, "")
        facts.append(f"{swatch(colour(n))}{escape(label)}: <code>{escape(source)}</code>")
    facts.append(f"chains matched {escape(str(report.options.get('match', 'exact')))}")
    facts.append(f"corefkit {escape(__version__)}")
    return facts


def _coef(value: Any) -> str:
    return "–" if value is None else f"{float(value):.3f}"


def overview(report: AgreementReport) -> str:
    header = ["pair", "documents", *(f"mentions {m}" for m in MATCHES),
              *(CHAIN_TITLES[m] for m in CHAIN_METRICS), "Cohen's κ (tokens)",
              "α MASI", "units"]
    rows = []
    for p in report.pairs:
        rows.append([escape(p.name), str(p.documents), *(pct(p.mentions[m].f1) for m in MATCHES),
                     *(pct(p.chains[m].f1) for m in CHAIN_METRICS), _coef(p.kappa),
                     _coef(p.alpha.value), str(p.alpha.units)])
    if len(report.pairs) > 1:
        rows.append(["<b>average</b>", "", *(pct(report.average_mentions(m)) for m in MATCHES),
                     *(pct(report.average_chains(m)) for m in CHAIN_METRICS),
                     _coef(report.average_kappa()), "", ""])
    parts = [
        "<h2>Agreement between annotators</h2>",
        '<p class="note">F1 in percent, each annotator as key in turn and averaged (the '
        "scoring engine's numbers, CorefUD semantics); mentions under exact, partial and head "
        f"matching, chains matched {escape(str(report.options.get('match', 'exact')))}. "
        "Cohen's κ: tokens in or out of a mention. α: Krippendorff's α with the MASI distance "
        "between the chains of the mentions both marked (Passonneau 2004, 2006).</p>",
        table(header, rows, cls="data", left=1),
        f"<p>All annotators ({report.complete_documents} documents every one annotated): "
        f"Fleiss' κ (tokens) <b>{_coef(report.fleiss)}</b>, Krippendorff's α (MASI) "
        f"<b>{_coef(report.alpha.value)}</b> over {report.alpha.units} mentions all marked.</p>",
    ]
    if report.types:
        names = [p.name for p in report.pairs]
        type_rows = []
        for t in report.types:
            per = {f"{a}–{b}": f"{pct(TypeAgreement.f1(c))} ({c.first}/{c.second})"
                   for a, b, c in t.pairs}
            type_rows.append([escape(f"{t.kind} {t.type}"), *(per.get(n, "–") for n in names),
                              pct(t.average())])
        parts += ["<h3>Per mention type and entity type (exact mention F1; mentions of each "
                  "annotator in brackets)</h3>",
                  table(["type", *(escape(n) for n in names), "average"], type_rows)]
    doc_rows = [[escape(d.name), ", ".join(escape(a) for a in d.annotators),
                 pct(d.mention_f1()), pct(d.chain_f1()), _coef(d.fleiss), _coef(d.alpha.value),
                 *(str(d.disagreements[c]) for c in CATEGORIES)] for d in report.documents]
    parts += ["<h3>Per document (averages over pairs)</h3>",
              table(["document", "annotators", "mentions exact", "CoNLL", "Fleiss' κ",
                     "α MASI", *(escape(c) for c in CATEGORIES)], doc_rows, left=2)]
    changed = [n for n in report.text if n.mode != "same tokens"]
    if changed:
        parts += ["<h3>Tokens</h3><ul>"] + [f"<li>{escape(n.document)}: "
                                            f"{escape(n.describe())}</li>" for n in changed]
        parts.append("</ul>")
    if report.merge is not None:
        parts += ["<h3>Adjudication draft</h3>"] + [f"<p>{escape(line)}</p>"
                                                    for line in report.merge.lines()]
    return "".join(parts)


def disagreement_section() -> str:
    return "".join([
        "<h2>Every disagreement</h2>",
        '<p class="note">A mention only one annotator marked, the same mention with other '
        "boundaries, a chain the other annotator split into several, chains the other merged. "
        "Click a row to see it in the browser.</p>",
        '<div class="controls"><select id="errsys"></select><select id="errcat"></select>'
        '<input type="search" id="errtext" placeholder="words or document">'
        '<span id="errpager" class="pager"></span></div>',
        '<table class="data errlist" id="errtable"></table>',
    ])


def browser(report: AgreementReport) -> str:
    errors = (', <span class="m err" style="--h:200">ringed<sub class="lb">3</sub></span> '
              "a disagreement of the categories ticked")
    heads = "".join(f"<div>{escape(label)}</div>" for label in report.annotators)
    return "".join([
        '<div class="browser"><aside class="doclist">',
        '<input type="search" id="docfilter" placeholder="filter documents">',
        '<table id="doctable"></table></aside><div class="viewer">',
        '<div class="vbar"><b id="docname"></b><label>annotators <select id="sys"></select>'
        "</label>",
        '<label><input type="checkbox" id="singletons" checked> singletons</label>',
        '<span class="pager docpager"></span></div>',
        '<div class="catfilter" id="catfilter"></div>',
        LEGEND.format(errors=errors, where=" in every column",
                      matching=" (an annotator's entity takes the colour of the first "
                      "annotator's entity it matches best)"),
        f'<div class="heads" id="heads" style="--cols:{len(report.annotators)}"><div></div>'
        f"{heads}</div>",
        f'<div id="text" class="text" style="--cols:{len(report.annotators)}"></div>',
        '<div class="pager docpager"></div></div>',
        '<aside class="info"><div id="chaininfo"></div><div id="docerrors"></div></aside></div>',
    ])
