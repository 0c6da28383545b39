"""The page: one HTML file holding its stylesheet, scripts and data, that makes no request.

* styles and scripts are ``corefkit/report/assets/*`` put inline; fonts are the system's;
* data is JSON in ``<script type="application/json">`` elements, which the browser does not
  parse as it loads the page: the index (documents, systems, categories, the error list) is
  read when the page opens, a document's own element only when the document is opened;
* ``<`` in JSON is written ``\\u003c``, so no data can close its element early;
* a Content-Security-Policy meta tag allows no source but the page itself (inline styles,
  scripts and ``data:`` images): a browser refuses any request the page might make.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from importlib import resources
from typing import IO, Any

ASSETS = ("report.css", "browser.js", "report.js")
POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
          "img-src data:; font-src data:")


def asset(name: str) -> str:
    """The text of one file of ``corefkit/report/assets``."""
    return resources.files("corefkit.report").joinpath("assets").joinpath(name).read_text(
        encoding="utf-8")


def compact_json(data: Any) -> str:
    """JSON without spaces, safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c")


def tabs(names: Sequence[tuple[str, str]]) -> str:
    on = ' class="on"'
    buttons = "".join(f'<button data-tab="{key}"{on if n == 0 else ""}>{escape(title)}</button>'
                      for n, (key, title) in enumerate(names))
    return f'<nav class="tabs">{buttons}</nav>'


def write_page(out: IO[str], *, title: str, facts: Sequence[str],
               sections: Sequence[tuple[str, str, str]], index: dict[str, Any], documents: Iterable[dict[str, Any]]) -> None:
    """Write the page to ``out``: ``sections`` are (key, tab title, HTML), the first shown;
    ``documents`` each document's browser data, written one at a time."""
    css = asset("report.css")
    out.write(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="generator" content="corefkit">'
        f'<link rel="icon" href="data:,"><title>{escape(title)}</title>'
        f"<style>{css}</style></head><body>\n")
    subtitle = "".join(f"<span>{f}</span>" for f in facts)
    out.write(f'<header class="top"><h1>{escape(title)}</h1><p class="sub">{subtitle}</p>'
              f"{tabs([(k, t) for k, t, _ in sections])}</header><main>\n")
    for n, (key, _, html) in enumerate(sections):
        hidden = "" if n == 0 else " hidden"
        out.write(f'<section class="tab" id="tab-{key}"{hidden}>{html}</section>\n')
    out.write("</main>\n")
    out.write(f'<script type="application/json" id="report-index">{compact_json(index)}'
              "</script>\n")
    for n, data in enumerate(documents):
        out.write(f'<script type="application/json" id="doc-{n}">{compact_json(data)}</script>\n')
    for name in ASSETS[1:]:
        out.write(f"<script>{asset(name)}</script>\n")
    out.write("</body></html>\n")
