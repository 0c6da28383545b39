"""The report in a real browser: headless Chromium (the system's ``/usr/bin/chromium``, as
``.ci/run`` installs it) driven by Playwright, the page opened from disk.

Every request the page makes is intercepted: anything but ``file:`` and ``data:`` fails the
test. Checked: the GUM comparison opens in under 2 s, its tables and plots render, a click on
an entity highlights its chain in both columns, the error-category filter, a 42,724-word
document rendered one page at a time, the corpus report, and every kind of markable.

Without Chromium or Playwright the tests are skipped with the reason, except under CI
(``CI`` set), where they fail: CI must run them.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import corefkit
from corefkit.cli.main import main
from tests.conftest import ROOT
from tests.report.helpers import GUM, GUM_PAIR, features_document, long_pair

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOT = ROOT / "docs/report-screenshot.png"
OPEN_SECONDS = 2.0
# a key mention on the page whose entity has mentions the response has too
CHAIN_IN_BOTH = """() => {
    const D = CK.viewer.D, key = D.sides[0], response = D.sides[1];
    for (const el of document.querySelectorAll('.col[data-side="0"] .m')) {
        const m = key.ms[+el.dataset.i];
        const chain = m.e >= 0 ? key.chains.get(m.e) : [];
        if (chain.length >= 3 && chain.every(i => response.bySpan.has(key.ms[i].span)))
            return m.i;
    }
    return null; }"""
# a key chain with mentions on two pages: [first mention, its page, a later one, its page]
CHAIN_OVER_PAGES = """() => {
    const D = CK.viewer.D, side = D.sides[0];
    const pageOf = i => { const s = D.sentOf[side.ms[i].parts[0][0]];
                          return D.pages.findIndex(([a, b]) => s >= a && s < b); };
    for (const list of side.chains.values()) {
        const pages = list.map(pageOf), n = pages.findIndex(p => p !== pages[0]);
        if (n > 0 && n < 60) return [list[0], pages[0], list[n], pages[n]];
    }
    return null; }"""


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed: pip install -e '.[dev]'"
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is missing: apt-get install -y chromium chromium-driver (.ci/run does)"
    return None


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests: {reason}")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM,
            headless=True, args=ARGS, viewport={"width": 1500, "height": 1000})
        try:
            yield context
        finally:
            context.close()


@dataclass
class Opened:
    page: Any
    seconds: float
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def offline(self) -> None:
        assert self.blocked == [], f"the page asked the network for {self.blocked}"
        assert all(u.startswith(("file:", "data:")) for u in self.requests), self.requests
        assert self.errors == []


def watch(page: Any) -> Opened:
    opened = Opened(page, 0.0)

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            opened.blocked.append(url)
            route.abort()

    page.route("**/*", guard)
    page.on("request", lambda r: opened.requests.append(r.url))
    page.on("pageerror", lambda e: opened.errors.append(f"page error: {e}"))
    page.on("console", lambda m: opened.errors.append(m.text) if m.type == "error" else None)
    return opened


def open_report(context: Any, path: Path) -> Opened:
    """Open the page from disk; ``seconds`` until its script has set everything up."""
    opened = watch(context.new_page())
    start = time.perf_counter()
    opened.page.goto(path.as_uri())
    opened.page.wait_for_selector("body[data-ready='1']", state="attached")
    opened.seconds = time.perf_counter() - start
    return opened


def tab(page: Any, name: str) -> None:
    page.click(f"nav.tabs button[data-tab={name}]")
    page.wait_for_selector(f"#tab-{name}", state="visible")


@pytest.fixture(scope="module")
def gum_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation's command (docs/guides/understand-the-errors.md): GUM (46 documents)
    against two systems."""
    out = tmp_path_factory.mktemp("gum") / "gum-report.html"
    code = main(["report", str(GUM), str(GUM_PAIR / "response-mild.conllu"),
                 str(GUM_PAIR / "response-heavy.conllu"), "--label", "mild", "--label",
                 "heavy", "-o", str(out), "-q",
                 "--lenient"])  # the perturbed responses hold errors on purpose (issue 22)
    assert code == 0
    return out


@pytest.fixture()
def gum(browser: Any, gum_report: Path) -> Iterator[Opened]:
    opened = open_report(browser, gum_report)
    yield opened
    opened.offline()
    opened.page.close()


def test_the_guard_sees_requests(browser: Any):
    opened = watch(browser.new_page())
    opened.page.set_content('<img src="http://127.0.0.1:9/x.png">')
    opened.page.wait_for_timeout(200)
    assert opened.blocked == ["http://127.0.0.1:9/x.png"]
    opened.page.close()


def test_gum_opens_fast_and_tables_and_plots_render(gum: Opened, gum_report: Path):
    size = gum_report.stat().st_size
    assert 500_000 < size < 8_000_000
    assert gum.seconds < OPEN_SECONDS, f"opened in {gum.seconds:.2f} s"
    page = gum.page
    metrics = page.locator("#scores table tr").count() - 1
    assert metrics >= 8 and page.locator("#scores table").is_visible()
    assert page.locator("#tests table tr").count() == metrics + 1   # one test per metric
    conll = page.locator('figure[data-metric="conll"]')
    assert conll.is_visible() and conll.locator("circle.pt").count() == 2 * 46
    assert page.locator('figure[data-metric="muc"]').is_hidden()
    page.select_option("#distmetric", "muc")
    assert page.locator('figure[data-metric="muc"]').is_visible() and conll.is_hidden()
    tab(page, "errors")
    assert page.locator("#errorcharts svg").count() == 2
    assert page.locator("#errorcharts rect").count() > 20
    assert page.locator("#costs table tr").count() >= 10
    assert page.locator("#errtable tr").count() == 101          # a page of 100 errors


def test_click_on_an_entity_highlights_its_chain_in_both_columns(gum: Opened, tmp_path: Path):
    page = gum.page
    page.locator('figure[data-metric="conll"] g[data-sys="1"] circle.pt').first.click()
    assert page.locator("#tab-documents").is_visible()
    assert page.locator("#docname").inner_text() == "GENTLE_dictionary_next"
    chosen = page.evaluate(CHAIN_IN_BOTH)
    assert chosen is not None
    page.locator(f'.col[data-side="0"] .m[data-i="{chosen}"]').first.click()
    key = page.locator('.col[data-side="0"] .m.hl')
    response = page.locator('.col[data-side="1"] .m.hl')
    size = page.evaluate("CK.viewer.D.sides[0].chains.get(CK.viewer.sel.e).length")
    assert size >= 2 and key.count() >= size and response.count() >= 2
    assert "entity" in page.locator("#chaininfo h3").inner_text()
    page.screenshot(path=str(tmp_path / "report.png"))
    assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_error_category_filter(gum: Opened):
    page = gum.page
    tab(page, "documents")
    page.wait_for_selector("#text .m.err")
    page.click('#catfilter button[data-cats="none"]')
    assert page.locator("#text .m.err").count() == 0
    missing = page.evaluate("CK.index.categories.findIndex(c => c[0] === 'missing_mention')")
    page.check(f'#catfilter input[data-cat="{missing}"]')
    marked = page.locator("#text .m.err")
    assert marked.count() > 0
    assert all("missing_mention" in c.split() for c in
               marked.evaluate_all("els => els.map(e => e.dataset.cats)"))
    items = page.locator("#docerrors li").all_inner_texts()
    assert items and all(t.startswith("missing mention") for t in items)
    tab(page, "errors")
    page.select_option("#errcat", str(missing))
    rows = page.locator("#errtable tr").all_inner_texts()[1:]
    assert rows and all("missing mention" in r for r in rows)
    page.locator("#errtable tr[data-err]").first.click()
    assert page.locator("#tab-documents").is_visible()
    assert page.locator("#text .m.flash").count() >= 1


def test_screenshot_for_the_readme(gum: Opened, tmp_path: Path):
    """The documentation's picture: the browser with a chain highlighted (docs/report-screenshot.png
    is replaced when COREFKIT_UPDATE_SCREENSHOT is set)."""
    page = gum.page
    page.set_viewport_size({"width": 1440, "height": 900})
    tab(page, "documents")
    page.locator("#doctable tr.doc", has_text="GUM_bio_byron").click()
    page.locator('.col[data-side="0"] .m:not(.sg)').nth(2).click()
    shot = tmp_path / "report-screenshot.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 20_000
    if os.environ.get("COREFKIT_UPDATE_SCREENSHOT"):
        shutil.copyfile(shot, SCREENSHOT)


def test_a_long_document_renders_a_page_at_a_time(browser: Any, tmp_path: Path):
    key, response = long_pair()
    assert sum(1 for t in key.tokens if not t.is_empty) > 40_000
    out = tmp_path / "long.html"
    corefkit.report([key], [response], labels=["heavy"], output=out, permutations=100,
                    bootstrap=100)
    opened = open_report(browser, out)
    assert opened.seconds < OPEN_SECONDS
    page = opened.page
    tab(page, "documents")
    page.wait_for_selector("#text .row")
    pages = page.locator(".docpager .pagesel").first.locator("option").count()
    assert pages >= 25
    assert page.locator("#text .row").count() < 2681 / 10
    assert page.locator("#text .m").count() < 2 * 12507 / 10
    page.select_option(".docpager .pagesel >> nth=0", "10")
    first = int(page.locator("#text .row").first.get_attribute("data-s"))
    assert first > 500
    # a chain over two pages: its list in the panel leads from one page to the other
    start, there, later, page_later = page.evaluate(CHAIN_OVER_PAGES)
    page.select_option(".docpager .pagesel >> nth=0", str(there))
    page.locator(f'.col[data-side="0"] .m[data-i="{start}"]').first.click()
    page.locator(f'#chaininfo li[data-k="0"][data-i="{later}"]').click()
    assert page.evaluate("CK.viewer.page") == page_later != there
    target = page.locator(f'.col[data-side="0"] .m[data-i="{later}"]').first
    assert "hl" in target.get_attribute("class").split()
    opened.offline()
    opened.page.close()


def test_corpus_report_in_the_browser(browser: Any, tmp_path: Path):
    out = tmp_path / "corpus.html"
    corefkit.report(GUM, output=out)
    opened = open_report(browser, out)
    assert opened.seconds < OPEN_SECONDS
    page = opened.page
    assert page.locator("#scores table").count() == 2
    assert page.locator("#tab-statistics svg.chart").count() == 5
    tab(page, "documents")
    page.locator("#doctable tr.doc", has_text="GENTLE_poetry_death").click()
    assert page.locator('.col[data-side="1"]').count() == 0
    assert page.locator("#text .m.set").count() >= 1
    assert page.locator("#text .m.brg").count() >= 1
    page.locator("#text .m.set").first.click()
    assert page.locator("#text .m.hl").count() >= 1 and page.locator("#text .m.hlm").count() >= 2
    opened.offline()
    opened.page.close()


def test_every_kind_of_markable_is_visible(browser: Any, tmp_path: Path):
    out = tmp_path / "features.html"
    corefkit.report([features_document()], [features_document(response=True)],
                    labels=["sys"], output=out)
    opened = open_report(browser, out)
    page = opened.page
    tab(page, "documents")
    key = page.locator('.col[data-side="0"]')
    assert key.locator(".z").count() == 1                       # the zero
    parts = key.locator(".m.disc")                              # "the old … dog": 2 parts
    assert parts.count() == 2 and len(set(parts.evaluate_all(
        "els => els.map(e => e.dataset.i)"))) == 1
    assert key.locator(".m.nr").inner_text().startswith("it")   # non-referring
    assert key.locator(".m.set").count() == 1                   # "they" = Ann + Bob
    bridging = key.locator(".m.brg").evaluate_all("els => els.map(e => e.dataset.i)")
    assert len(bridging) == 2 and bridging == parts.evaluate_all(  # the dog is the anaphor
        "els => els.map(e => e.dataset.i)")
    key.locator(".m.set").click()
    assert key.locator(".m.hlm").count() == 5                   # Ann, zero, She, Bob, him
    assert page.locator('.col[data-side="1"] .m.err').count() >= 1
    opened.offline()
    opened.page.close()


# ---------------------------------------------------------------------------- issue 22
LABELS = ["system1", "a-second-system-with-a-long-name"]
DOC_COLUMNS = """() => {
    const box = document.querySelector('.doclist').getBoundingClientRect();
    const heads = [...document.querySelectorAll('#doctable th[data-sys]')];
    return {
        scroll: document.querySelector('.doclist').scrollWidth,
        client: document.querySelector('.doclist').clientWidth,
        heads: heads.map(th => ({
            sys: +th.dataset.sys,
            colour: getComputedStyle(th.querySelector('.swatch')).backgroundColor,
            left: th.getBoundingClientRect().left - box.left,
            right: box.right - th.getBoundingClientRect().right,
            width: th.getBoundingClientRect().width})),
        expected: CK.index.colours,
        undefinedStyles: [...document.querySelectorAll('#doctable [style]')]
            .filter(e => e.getAttribute('style').includes('undefined')).length,
        cells: [...document.querySelectorAll('#doctable tr.doc')].slice(0, 5).map(
            tr => [...tr.querySelectorAll('td[data-sys]')].map(td => {
                const r = td.getBoundingClientRect();
                return [+td.dataset.sys, r.left >= box.left - 0.5, r.right <= box.right + 0.5,
                        td.innerText]; })),
    }; }"""
OVERFLOW = """(selector) => {
    const el = document.querySelector(selector), table = el.querySelector('table');
    return {page: document.documentElement.scrollWidth, viewport: window.innerWidth,
            right: table.getBoundingClientRect().right, box: el.getBoundingClientRect().right,
            scroll: el.scrollWidth, client: el.clientWidth}; }"""


def _rgb(hex_colour: str) -> str:
    value = hex_colour.lstrip("#")
    r, g, b = (int(value[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgb({r}, {g}, {b})"


@pytest.fixture(scope="module")
def labelled_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """GUM against two systems, one with a 7-character label and one with a long one."""
    out = tmp_path_factory.mktemp("labels") / "labels.html"
    code = main(["report", str(GUM), str(GUM_PAIR / "response-mild.conllu"),
                 str(GUM_PAIR / "response-heavy.conllu"), "--label", LABELS[0], "--label",
                 LABELS[1], "-o", str(out), "-q", "--lenient"])
    assert code == 0  # --lenient: response-mild gives one entity two identities
    return out


@pytest.fixture()
def labelled(browser: Any, labelled_report: Path) -> Iterator[Opened]:
    opened = open_report(browser, labelled_report)
    opened.page.set_viewport_size({"width": 1400, "height": 900})
    yield opened
    opened.offline()
    opened.page.close()


def test_each_system_column_of_the_documents_tab_has_its_own_colour(labelled: Opened):
    """Before: the colour index counted the token column, so the first system took the
    second's colour and the second was 'background:undefined'."""
    page = labelled.page
    tab(page, "documents")
    found = page.evaluate(DOC_COLUMNS)
    assert found["undefinedStyles"] == 0
    assert [h["sys"] for h in found["heads"]] == [1, 2]
    for head in found["heads"]:
        assert head["colour"] == _rgb(found["expected"][head["sys"] - 1])
    assert found["heads"][0]["colour"] != found["heads"][1]["colour"]
    # the same colours as the system's points in the plots and its rows in the error list
    plotted = page.evaluate("""() => [1, 2].map(s => getComputedStyle(document.querySelector(
        `figure[data-metric="conll"] g[data-sys="${s}"] circle.pt`)).fill)""")
    assert plotted == [h["colour"] for h in found["heads"]]


def test_at_1400_px_no_system_column_or_cost_is_cut(labelled: Opened):
    """Before: the document list cut the second system's column (7-character labels) and the
    Errors tab's "Costs" table ran past the window."""
    page = labelled.page
    tab(page, "documents")
    found = page.evaluate(DOC_COLUMNS)
    assert found["scroll"] <= found["client"], "the document list scrolls sideways"
    for head in found["heads"]:
        assert head["left"] >= 0 and head["right"] >= -0.5 and head["width"] >= 40
    for row in found["cells"]:
        assert [c[0] for c in row] == [1, 2]
        assert all(inside_left and inside_right and text for _, inside_left, inside_right, text
                   in row)
    tab(page, "errors")
    costs = page.evaluate(OVERFLOW, "#costs")
    assert costs["page"] <= costs["viewport"], "the page scrolls sideways"
    assert costs["right"] <= costs["box"] + 0.5 and costs["scroll"] <= costs["client"]
    headers = page.locator("#costs th.group").all_inner_texts()
    assert [h.strip() for h in headers] == LABELS


def test_agreement_view(browser: Any, tmp_path: Path):
    """corefkit agree --html: three annotators side by side, one pair chosen shows its two
    columns, the disagreements ringed and filterable, the list opens a disagreement in the
    browser, a click on a mention highlights its chain in every column."""
    example = ROOT / "examples/conll2012"
    third = tmp_path / "cleo.conll"
    third.write_text((example / "response.conll").read_text().replace("(1)\n", "-\n", 1))
    out = tmp_path / "agree.html"
    report = corefkit.agree([example / "key.conll", example / "response.conll", third],
                            labels=["ann", "bob", "cleo"], html=out)
    opened = open_report(browser, out)
    assert opened.seconds < OPEN_SECONDS
    page = opened.page
    assert page.locator("#tab-agreement table.data").first.locator("tr").count() == 1 + 3 + 1
    tab(page, "errors")
    assert page.locator("#errtable tr[data-err]").count() == len(report.disagreements)
    page.select_option("#errsys", "1")                                  # ann–bob
    rows = page.locator("#errtable tr[data-err]").all_inner_texts()
    assert len(rows) == len([d for d in report.disagreements if d.second == "bob"
                             and d.first == "ann"]) and all("ann–bob" in r for r in rows)
    tab(page, "documents")
    page.wait_for_selector("#text .row")
    assert page.locator("#text .row").first.locator(".col").count() == 3
    assert page.locator("#heads div").all_inner_texts()[1:] == ["ann", "bob", "cleo"]
    assert page.locator("#text .m.err").count() > 0
    page.click('#catfilter button[data-cats="none"]')
    assert page.locator("#text .m.err").count() == 0
    page.click('#catfilter button[data-cats="all"]')
    page.select_option("#sys", "1")
    assert page.locator("#text .row").first.locator(".col").count() == 2
    items = page.locator("#docerrors li").all_inner_texts()
    assert items and page.locator("#docerrors h3").inner_text().startswith(
        "Disagreements of ann–bob")
    page.select_option("#sys", "0")
    page.locator('.col[data-side="0"] .m').first.click()
    for side in range(3):
        assert page.locator(f'.col[data-side="{side}"] .m.hl').count() >= 1, side
    tab(page, "errors")
    page.locator("#errtable tr[data-err]").first.click()
    assert page.locator("#tab-documents").is_visible()
    assert page.locator("#text .m.flash").count() >= 1
    opened.offline()
    opened.page.close()
