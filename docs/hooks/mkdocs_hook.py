"""MkDocs hooks (``mkdocs.yml``, ``hooks:``): the generated parts of the pages, and Sphinx
roles in docstrings shown as code.

Nothing here fetches anything: the site builds offline.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

sys.path.insert(0, str(Path(__file__).resolve().parent))

from generated import GenerationError, expand  # noqa: E402

# :class:`~corefkit.errors.FormatError` as mkdocstrings renders it from a docstring
ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):<code>~?(?:[\w.]*\.)?([^<]+)</code>")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    try:
        return expand(markdown, page.file.src_uri)
    except GenerationError as exc:
        raise PluginError(str(exc)) from exc


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return ROLE.sub(r"<code>\1</code>", html)
