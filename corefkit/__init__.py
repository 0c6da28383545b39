"""corefkit: read, convert, check, normalize and score coreference and anaphora corpora.

The public API is small and mirrors the command line::

    import corefkit
    docs = list(corefkit.read("key.conll"))            # -> Document objects
    corefkit.write(docs, "copy.conll")
    report = corefkit.score("key.conll", "response.conll")
    print(report.metrics["muc"].f1)
    corefkit.score_clusters([[(0, 1), (4, 4)]], [[(0, 1)], [(4, 4)]])   # clusters in memory
    errors = corefkit.analyze("key.conll", "response.conll")   # error categories
    corefkit.report("key.conll", "response.conll", output="report.html")   # HTML report

Heavy modules (networkx, scipy) are imported only when these functions are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Iterable, Iterator

    from corefkit.converters.convert import ConvertResult
    from corefkit.model import Document
    from corefkit.report.build import Report
    from corefkit.scoring.clusters import Scorer
    from corefkit.diagnosis.report import AnalysisReport
    from corefkit.scoring.report import ScoreReport


def read(path: Any, format: str | None = None, **options: Any) -> Iterator[Document]:
    """Read documents from a file, a directory or ``"-"`` (standard input), one at a time."""
    from corefkit.converters.registry import read as _read

    return _read(path, format=format, **options)


def write(documents: Iterable[Document], path: Any, format: str | None = None, **options: Any):
    """Write documents to a file (atomically) or ``"-"``; returns the conversion report."""
    from corefkit.converters.registry import write as _write

    return _write(documents, path, format=format, **options)


def convert(source: Any, target: Any, **options: Any) -> ConvertResult:
    """Convert a file, folder or glob to a file or folder, as ``corefkit convert`` does.

    Options: ``input_format``, ``output_format``, ``passes``, ``read_options``,
    ``write_options``, ``fail_on_loss``; see :func:`corefkit.converters.convert.convert`.
    """
    from corefkit.converters.convert import convert as _convert

    return _convert(source, target, **options)


def score(key: Any, response: Any, metrics: Any = None, **options: Any) -> ScoreReport:
    """Score a response against a key (paths or iterables of documents)."""
    from corefkit.scoring.api import score as _score

    return _score(key, response, metrics=metrics, **options)


def score_clusters(key: Any, response: Any, metrics: Any = None, **options: Any) -> ScoreReport:
    """Score predicted clusters against gold ones held in memory (one document, a list of
    clusters of hashable mentions, or a list of documents); the reference scorer's numbers.
    Options: ``documents``, ``remove_singletons``; see
    :func:`corefkit.scoring.clusters.score_clusters`. ``corefkit.Scorer`` accumulates
    documents one ``update`` at a time (:class:`corefkit.scoring.clusters.Scorer`)."""
    from corefkit.scoring.clusters import score_clusters as _score_clusters

    return _score_clusters(key, response, metrics, **options)


def analyze(key: Any, response: Any, **options: Any) -> AnalysisReport:
    """Categorise a response's errors against a key (Kummerfeld & Klein 2013), as
    ``corefkit analyze`` does; see :func:`corefkit.diagnosis.engine.analyze`."""
    from corefkit.diagnosis.engine import analyze as _analyze

    return _analyze(key, response, **options)


def report(key: Any, *responses: Any, output: Any = None, **options: Any) -> Report:
    """A self-contained HTML report, as ``corefkit report`` writes it: ``responses`` against
    ``key`` side by side (scores, significance, error categories, a document browser), or
    the corpus ``key`` alone (statistics, chain browser); written to ``output`` if given.
    See :func:`corefkit.report.report`."""
    from corefkit.report import report as _report

    return _report(key, *responses, output=output, **options)


def __getattr__(name: str) -> Any:
    if name == "Scorer":  # imported when first used, as the functions above
        from corefkit.scoring.clusters import Scorer

        return Scorer
    raise AttributeError(f"module 'corefkit' has no attribute {name!r}")


__all__ = ["Scorer", "__version__", "analyze", "convert", "read", "report", "score",
           "score_clusters", "write"]
