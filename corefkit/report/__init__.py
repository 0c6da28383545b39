"""The self-contained HTML report: ``corefkit report`` and :func:`corefkit.report`.

    import corefkit
    corefkit.report("key.conllu", "a.conllu", "b.conllu", labels=["a", "b"],
                    output="report.html")            # systems side by side
    corefkit.report("corpus/", output="corpus.html")  # one annotated corpus

One HTML file that opens from disk in any browser and makes no request: styles, scripts and
data inline, plots as SVG, system fonts. Documents are embedded as compact JSON and rendered
only when opened, a page of text at a time (:mod:`corefkit.report.page`).

Modules: :mod:`~corefkit.report.build` (reading, the :class:`Report`),
:mod:`~corefkit.report.systems` (scores, errors, significance),
:mod:`~corefkit.report.corpus` (statistics), :mod:`~corefkit.report.documents` (the browser's
data), :mod:`~corefkit.report.sections` and :mod:`~corefkit.report.svg` (tables and plots),
:mod:`~corefkit.report.page` (the file) and ``assets/`` (stylesheet and scripts).

This package is callable (``corefkit.report(...)`` works once the package is imported, when
the name ``corefkit.report`` is the package rather than the function of ``corefkit``).
"""

from __future__ import annotations

import os
import sys
import types
from typing import Any

from corefkit.report.build import Report, build


def report(key: Any, *responses: Any, output: str | os.PathLike[str] | None = None,
           **options: Any) -> Report:
    """Build a report of ``responses`` against ``key`` (a comparison) or of ``key`` alone
    (a corpus report), and write it to ``output`` if given.

    ``key`` and each response are what :func:`corefkit.score` takes (paths or documents).
    Options: ``labels`` (one per response; default the file names), ``title``, ``metrics``,
    the reading and scoring options of :func:`corefkit.score` and :func:`corefkit.analyze`
    (``format``, ``key_format``, ``response_format``, ``read_options``, ``semantics``,
    ``profile``, ``match``, ``zero_match``, ``keep_zeros``, ``remove_singletons``,
    ``passes``, ``lenient``, ``type_table``, ``anchors``, ...), the tests' ``permutations``,
    ``bootstrap``, ``seed`` and ``alpha`` (as in ``corefkit compare``) and ``page_tokens``
    (tokens of text the browser renders at once). Returns the :class:`Report`; its
    ``write(path)`` writes the page atomically.
    """
    built = build(key, responses, **options)
    if output is not None:
        built.write(output)
    return built


class _CallableModule(types.ModuleType):
    def __call__(self, key: Any, *responses: Any, **options: Any) -> Report:
        return report(key, *responses, **options)


sys.modules[__name__].__class__ = _CallableModule

__all__ = ["Report", "build", "report"]
