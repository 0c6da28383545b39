"""corefkit: read, convert, check, normalize and score coreference and anaphora corpora.

The public API mirrors the command line::

    import corefkit
    docs = list(corefkit.read("key.conll"))                    # Document objects
    corefkit.write(docs, "copy.conllu")                        # any format, atomically
    corefkit.convert("corpus/", "out/", output_format="corefud")
    findings = corefkit.validate("corpus/")                    # located findings
    report = corefkit.score("key.conll", "response.conll")     # exact fractions
    report.metrics["muc"].f1
    corefkit.score_clusters(gold_clusters, predicted_clusters) # clusters in memory
    scorer = corefkit.Scorer()                                 # ... one document at a time
    analysis = corefkit.analyze("key.conll", "response.conll") # error categories
    corefkit.report("key.conll", "response.conll", output="report.html")
    corefkit.agree(["anna.tsv", "ben.tsv"])                   # inter-annotator agreement

Everything is imported when first used: ``import corefkit`` loads neither NumPy, SciPy,
networkx nor click.
"""

import typing as _typing

from corefkit import _deprecated
from corefkit._api import (
    agree,
    analyze,
    convert,
    read,
    report,
    score,
    score_clusters,
    validate,
    write,
)
from corefkit._version import __version__

if _typing.TYPE_CHECKING:  # pragma: no cover
    from corefkit.scoring.clusters import Scorer

__all__ = ["Scorer", "__version__", "agree", "analyze", "convert", "read", "report", "score",
           "score_clusters", "validate", "write"]

_deprecated.install()  # the import paths that moved (_deprecated.MOVED) work, with a warning


def __getattr__(name: str) -> object:
    if name == "Scorer":  # imported when first used, as the functions are
        from corefkit.scoring.clusters import Scorer

        return Scorer
    raise AttributeError(f"module 'corefkit' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
