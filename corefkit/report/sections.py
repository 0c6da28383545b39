"""The report's static sections as HTML: tables and SVG plots, made once in Python.

The page's script only switches tabs, links plots to documents and renders the document
browser and the error list from the embedded JSON (:mod:`corefkit.report.page`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from corefkit.analysis.mention_types import TYPES
from corefkit.diagnosis.categories import TITLES
from corefkit.diagnosis.report import SIZE_BUCKETS
from corefkit.evaluation.compare import PairTest
from corefkit.report import svg
from corefkit.report.corpus import (
    DISTANCE_BINS,
    LENGTH_BINS,
    SIZE_BINS,
    CorpusFacts,
    binned,
)
from corefkit.report.systems import System

METRIC_TITLES = {"mentions": "mentions", "muc": "MUC", "bcub": "B³", "ceafm": "CEAFm",
                 "ceafe": "CEAFe", "blanc": "BLANC", "lea": "LEA", "conll": "CoNLL",
                 "mor": "MOR", "zero": "zero"}


def title_of(metric: str) -> str:
    return METRIC_TITLES.get(metric, metric)


def pct(value: Any) -> str:
    return "–" if value is None else f"{100 * float(value):.2f}"


def swatch(colour: str) -> str:
    return f'<span class="swatch" style="background:{colour}"></span>'


def table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "data",
          left: int = 1) -> str:
    """A table of already escaped cells; the first ``left`` columns are left-aligned."""
    head = "".join(f'<th class="l">{h}</th>' if n < left else f"<th>{h}</th>"
                   for n, h in enumerate(header))
    body = []
    for row in rows:
        cells = "".join(c if c.startswith("<td") else
                        (f'<td class="l">{c}</td>' if n < left else f"<td>{c}</td>")
                        for n, c in enumerate(row))
        body.append(f"<tr>{cells}</tr>")
    return f'<table class="{cls}"><tr>{head}</tr>{"".join(body)}</table>'


def grouped_table(first: str, groups: Sequence[tuple[str, Sequence[str]]],
                  rows: Sequence[Sequence[str]]) -> str:
    """A table whose columns come in groups (one per system): a header row of group labels,
    each spanning its columns, over a row of the columns' names, so that no header repeats a
    system's label and the table stays as narrow as its numbers."""
    top = f'<th class="l" rowspan="2">{first}</th>' + "".join(
        f'<th colspan="{len(parts)}" class="group">{label}</th>' for label, parts in groups)
    names = "".join(f"<th>{part}</th>" for _, parts in groups for part in parts)
    body = "".join("<tr>" + "".join(f'<td class="l">{c}</td>' if n == 0 else f"<td>{c}</td>"
                                    for n, c in enumerate(row)) + "</tr>" for row in rows)
    return f'<table class="data grouped"><tr>{top}</tr><tr>{names}</tr>{body}</table>'


def figure(caption: str, content: str, attrs: str = "") -> str:
    return f"<figure{attrs}><figcaption>{caption}</figcaption>{content}</figure>"


# ---------------------------------------------------------------------------- comparison
def long_range(systems: Sequence[System]) -> str:
    """The long-range section (``--by``): CoNLL F1 and the F1 of its components per bucket of
    entity size and of distance to the previous mention, every system side by side; the
    buckets add up exactly to the overall scores (:mod:`corefkit.scoring.metrics.strata`)."""
    from corefkit.scoring.metrics.strata import TITLES, _sorted_labels

    found = [s.score.metrics.get("strata") for s in systems]
    if not systems or any(f is None for f in found):
        return ""
    strata = [f.counts for f in found if f is not None]
    parts = ["<h2>Long-range entities</h2>",
             '<p class="note">Scores per bucket, in %: recall over the key mentions of the '
             "bucket (their key entity's size, their distance to its previous mention), "
             "precision over the response mentions likewise; the buckets' counts add up exactly "
             "to the overall ones. <i>first</i>: first mentions (MUC and LEA credit links to the "
             "later mention); <i>repeats</i>: what the CorefUD repeated-mention rule counts "
             "beyond the mentions.</p>"]
    for dimension, _ in strata[0].order:
        buckets = _sorted_labels(tuple(dict.fromkeys(b for s in strata
                                                     for b in s.buckets(dimension))))
        header = ["bucket", "key mentions"] + [
            f"{swatch(svg.colour(n))}{escape(s.label)} {m}" for n, s in enumerate(systems)
            for m in ("MUC", "B³", "CEAFe", "CoNLL")]
        rows = []
        for bucket in buckets:
            row = [escape(bucket), str(_units(strata[0].counts(dimension, bucket,
                                                                 "bcub").recall_den))]
            for s in strata:
                row += [pct(s.counts(dimension, bucket, m).f1) for m in ("muc", "bcub", "ceafe")]
                row.append(pct(s.conll(dimension, bucket)))
            rows.append(row)
        parts.append(f"<h3>by {escape(TITLES[dimension])}</h3>" + table(header, rows))
    return f'<div id="long-range">{"".join(parts)}</div>'


def _units(value: Any) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:.2f}"



def scores_table(systems: Sequence[System], tests: Sequence[PairTest]) -> str:
    """Recall, precision and F1 of every metric and system; the best F1 in bold, with * when
    it is significantly better than every other system's."""
    header = ["metric"] + [f"{swatch(svg.colour(n))}{escape(s.label)} {part}"
                           for n, s in enumerate(systems) for part in ("R", "P", "F1")]
    rows = []
    for name, first in systems[0].score.metrics.items():
        if hasattr(first.counts, "to_json"):
            continue  # a family with its own shape (dominant): in corefkit score's output
        f1s = [float(s.score.metrics[name].f1) for s in systems]
        best = max(range(len(systems)), key=lambda n: f1s[n])
        if f1s.count(f1s[best]) > 1:
            best = -1  # a tie: nobody is best
        row = [escape(title_of(name))]
        for n, s in enumerate(systems):
            m = s.score.metrics[name]
            mark = "*" if len(systems) > 1 and n == best and _beats_all(s.label, name, tests) \
                else ""
            f1 = f'<td class="best">{pct(m.f1)}{mark}</td>' if n == best else pct(m.f1)
            row += [pct(m.recall), pct(m.precision), f1]
        rows.append(row)
    return table(header, rows)


def _beats_all(label: str, metric: str, tests: Sequence[PairTest]) -> bool:
    mine = [t for t in tests if t.metric == metric and label in (t.a, t.b)]
    return bool(mine) and all(t.significant and (t.difference > 0) == (t.a == label)
                              for t in mine)


def tests_table(tests: Sequence[PairTest]) -> str:
    if not tests:
        return '<p class="note">One system: no significance test.</p>'
    rows = []
    for t in tests:
        interval = ("" if t.ci_low is None or t.ci_high is None
                    else f"[{100 * t.ci_low:+.2f}, {100 * t.ci_high:+.2f}]")
        rows.append([escape(title_of(t.metric)), escape(t.a), escape(t.b),
                     f"{100 * t.difference:+.2f}", f"{t.p_value:.4f}" + (" (exact)" if t.exact
                                                                        else ""),
                     interval, "yes" if t.significant else "no"])
    return table(["metric", "a", "b", "F1 a − b", "p", "interval of a − b", "significant"],
                 rows, left=3)


def distribution(systems: Sequence[System], metrics: Sequence[str], names: Sequence[str]) -> str:
    """A strip plot per metric of the documents' F1 (one shown at a time)."""
    figures, options = [], []
    for metric in metrics:
        series = []
        for n, s in enumerate(systems):
            scores = s.document_scores(metric)
            values = [100 * scores[d] if d in scores else None for d in names]
            series.append((svg.Series(s.label, svg.colour(n), values), names))
        known = [v for found, _ in series for v in found.values if v is not None]
        low = max(0.0, 10 * ((min(known, default=0.0) - 2) // 10))
        chart = svg.strip_box(series, title=f"per-document {title_of(metric)} F1", low=low)
        figures.append(figure(f"{escape(title_of(metric))} F1 of each document (click a dot "
                              "to open the document)", chart, f' data-metric="{metric}"'))
        selected = " selected" if metric == "conll" else ""
        options.append(f'<option value="{metric}"{selected}>{escape(title_of(metric))}</option>')
    chooser = (f'<div class="controls"><label>metric <select id="distmetric">{"".join(options)}'
               "</select></label></div>")
    return chooser + '<div class="charts">' + "".join(figures) + "</div>"


def overview(systems: Sequence[System], tests: Sequence[PairTest], metrics: Sequence[str],
             names: Sequence[str], options: dict[str, Any]) -> str:
    level = f"{100 * (1 - options['alpha']):g}%"
    return "".join([
        "<h2>Scores</h2>",
        '<p class="note">Recall, precision and F1 in %, as <code>corefkit score</code> gives them. '
        "The best F1 of each metric is in bold; * marks one significantly better than every "
        "other system's.</p>",
        f'<div id="scores">{scores_table(systems, tests)}</div>',
        "<h2>Significance</h2>",
        f'<p class="note">Paired permutation tests over documents ({options["permutations"]} '
        f"permutations, exact when 2^documents is fewer; significant when p ≤ "
        f"{options['alpha']:g}) and {level} paired bootstrap intervals of the difference "
        f"({options['bootstrap']} replicates; seed {options['seed']}), as "
        "<code>corefkit compare</code> computes them.</p>",
        f'<div id="tests">{tests_table(tests)}</div>',
        "<h2>Per-document scores</h2>",
        '<p class="note">Each dot is a document; the box spans the middle half of the documents, '
        "the line in it is the median, the whiskers reach the furthest document within 1.5 "
        "times the box's width.</p>",
        f'<div id="distribution">{distribution(systems, metrics, names)}</div>',
    ])


def _shown_categories(systems: Sequence[System]) -> list[str]:
    categories = systems[0].analysis.categories
    return [c for c in categories
            if any(s.analysis.counts.get(c) or any(r.delta for r in s.analysis.results
                                                    if r.category == c) for s in systems)]


def error_charts(systems: Sequence[System]) -> str:
    shown = _shown_categories(systems)
    if not shown:
        return '<p class="note">No error at all: every response equals the key.</p>'
    titles = [TITLES[c] for c in shown]
    counts = [svg.Series(s.label, svg.colour(n), [s.analysis.counts.get(c, 0) for c in shown])
              for n, s in enumerate(systems)]
    gains = [svg.Series(s.label, svg.colour(n),
                        [100 * float(next(r.delta for r in s.analysis.results if r.category == c))
                         for c in shown]) for n, s in enumerate(systems)]
    return ('<div class="charts" id="errorcharts">'
            + figure("Errors per category", svg.hbars(titles, counts, title="errors"))
            + figure("Cost: CoNLL F1 gained by fixing the category alone (points)",
                     svg.hbars(titles, gains, title="cost",
                               fmt=lambda v: f"{v:.2f}".rstrip("0").rstrip(".")))
            + "</div>")


def cumulative_table(systems: Sequence[System]) -> str:
    groups = [(f"{swatch(svg.colour(n))}{escape(s.label)}",
               ("errors", "F1 alone", "F1 cumulative", "gain")) for n, s in enumerate(systems)]
    rows = [["(as it is)"] + [c for s in systems
                              for c in ("", "", pct(s.analysis.original.conll), "")]]
    for c in systems[0].analysis.categories:
        row = [escape(TITLES[c])]
        for s in systems:
            alone = next(r for r in s.analysis.results if r.category == c)
            step = next(x for x in s.analysis.cumulative if x.category == c)
            row += [str(alone.count), pct(alone.alone.conll), pct(step.scores.conll),
                    f"{100 * float(step.delta):+.2f}"]
        rows.append(row)
    return grouped_table("category", groups, rows)


def breakdown_table(systems: Sequence[System], attribute: str, columns: Sequence[str]) -> str:
    """Errors per category (rows) and mention type or entity size (columns), one row per
    system; cells shaded by their share of the row's largest count."""
    header = ["category", "system", *map(escape, columns)]
    rows = []
    for c in systems[0].analysis.categories:
        for n, s in enumerate(systems):
            values = getattr(s.analysis, attribute).get(c, {})
            top = max([1, *values.values()])
            cells = [f'<td class="heat" style="background:rgba(209,36,47,'
                     f'{0.45 * values.get(k, 0) / top:.2f})">{values.get(k, 0)}</td>'
                     for k in columns]
            rows.append([escape(TITLES[c]) if n == 0 else "",
                         swatch(svg.colour(n)) + escape(s.label), *cells])
    return table(header, rows, left=2)


def errors_section(systems: Sequence[System]) -> str:
    return "".join([
        "<h2>Error categories</h2>",
        '<p class="note">Kummerfeld &amp; Klein (2013), as <code>corefkit analyze</code> finds '
        "them: the response is turned into the key by altering spans, splitting, removing, "
        "introducing and merging; each step is an error. The cost of a category is the CoNLL "
        "F1 gained by fixing its errors alone; fixed one after another in this order, the "
        "categories lead to the key (100).</p>",
        error_charts(systems),
        f'<h3>Costs, alone and cumulative</h3><div id="costs">{cumulative_table(systems)}</div>',
        "<h3>Errors per mention type</h3>",
        breakdown_table(systems, "by_type", TYPES),
        "<h3>Errors per entity size (mentions of the entity concerned)</h3>",
        breakdown_table(systems, "by_size", SIZE_BUCKETS),
        "<h2>Every error</h2>",
        '<div class="controls"><select id="errsys"></select><select id="errcat"></select>'
        '<input type="search" id="errtext" placeholder="words or document">'
        '<span id="errpager" class="pager"></span></div>',
        '<table class="data errlist" id="errtable"></table>',
    ])


# ---------------------------------------------------------------------------- corpus
def counts_table(facts: CorpusFacts) -> str:
    c = facts.total.counts
    rows = [("documents", c["documents"]), ("sentences", c["sentences"]), ("words", c["tokens"]),
            ("empty nodes (zeros' places)", c["empty_nodes"]), ("mentions", c["mentions"]),
            ("entities", c["entities"]), ("singletons", c["singletons"]),
            ("split-antecedent sets", c["split_antecedent_sets"]),
            ("split-antecedent members", c["split_antecedent_members"]),
            ("bridging relations", c["bridging"]), ("non-referring markables", c["non_referring"]),
            ("discourse-deixis entities", c["dd_entities"]),
            ("discourse-deixis mentions", c["dd_mentions"])]
    return table(["", "count"], [[escape(k), f"{v:,}"] for k, v in rows])


def types_table(facts: CorpusFacts) -> str:
    types = facts.total.types
    total = sum(types.types.values()) or 1
    rows = []
    for kind in TYPES:
        n = types.types.get(kind, 0)
        by = ", ".join(f"{escape(s)} {types.by_source[s][kind]}" for s in sorted(types.by_source)
                       if types.by_source[s].get(kind))
        rows.append([escape(kind), f"{n:,}", f"{100 * n / total:.1f}%", by])
    return table(["type", "mentions", "share", "decided by"], rows, left=1)


def statistics(facts: CorpusFacts, names: Sequence[str]) -> str:
    types = facts.total.types.types
    sizes, lengths = binned(facts.sizes, SIZE_BINS), binned(facts.lengths, LENGTH_BINS)
    distances = binned(facts.distances, DISTANCE_BINS)
    density = svg.strip_box([(svg.Series("documents", svg.colour(0), facts.density()), names)],
                            title="mentions per 100 words", low=0,
                            high=max([10.0, *facts.density()]))
    plots = [
        figure("Mention types", svg.vbars(list(TYPES), [types.get(t, 0) for t in TYPES],
                                          title="mention types")),
        figure("Entity sizes (mentions per entity)",
               svg.vbars([k for k, _ in sizes], [v for _, v in sizes], title="entity sizes",
                         fill=svg.colour(2))),
        figure("Mention lengths (words)",
               svg.vbars([k for k, _ in lengths], [v for _, v in lengths],
                         title="mention lengths", fill=svg.colour(1))),
        figure("Sentences from a mention back to its entity's previous one",
               svg.vbars([k for k, _ in distances], [v for _, v in distances],
                         title="antecedent distances", fill=svg.colour(3))),
    ]
    return "".join([
        "<h2>Counts</h2>",
        '<p class="note">As <code>corefkit stats</code> counts them.</p>',
        '<div class="charts" id="scores">',
        figure("Corpus", counts_table(facts)), figure("Mention types", types_table(facts)),
        "</div>",
        '<h2>Distributions</h2><div class="charts" id="distribution">', "".join(plots),
        figure("Mentions per 100 words in each document (click a dot to open it)", density),
        "</div>",
    ])


# ---------------------------------------------------------------------------- browser
LEGEND = (
    '<div class="legend">Mentions are boxed and coloured by entity{matching}; the number is '
    "the entity. "
    '<span class="m sg">grey<sub class="lb">1</sub></span> singleton, '
    '<span class="m disc" style="--h:30">dashed<sub class="lb">4</sub></span> discontinuous, '
    '<span class="z">∅</span> zero (empty node), '
    '<span class="m set" style="--h:100">set<sub class="lb">7</sub></span> split antecedent, '
    '<span class="m brg" style="--h:280">bridging<sub class="lb">9</sub></span> bridging '
    'anaphor, <span class="m nr">it<sub class="lb">expletive</sub></span> non-referring'
    "{errors}. Click a mention: its chain is highlighted{where}.</div>")


def browser(compare: bool) -> str:
    errors = (', <span class="m err" style="--h:200">ringed<sub class="lb">3</sub></span> '
              "an error of the categories ticked") if compare else ""
    system = ('<label>system <select id="sys"></select></label>' if compare else "")
    heads = ('<div class="heads" style="--cols:2"><div></div><div>key</div>'
             '<div id="syshead">system</div></div>' if compare else
             '<div class="heads" style="--cols:1"><div></div><div>annotation</div></div>')
    return "".join([
        '<div class="browser"><aside class="doclist">',
        '<input type="search" id="docfilter" placeholder="filter documents">',
        '<table id="doctable"></table></aside><div class="viewer">',
        f'<div class="vbar"><b id="docname"></b>{system}',
        '<label><input type="checkbox" id="singletons" checked> singletons</label>',
        '<span class="pager docpager"></span></div>',
        '<div class="catfilter" id="catfilter"></div>' if compare else "",
        LEGEND.format(errors=errors, where=" in both columns" if compare else "",
                      matching=" (a system's entity takes the colour of the key entity it "
                      "matches best)" if compare else ""), heads,
        f'<div id="text" class="text" style="--cols:{2 if compare else 1}"></div>',
        '<div class="pager docpager"></div></div>',
        '<aside class="info"><div id="chaininfo"></div><div id="docerrors"></div></aside></div>',
    ])
