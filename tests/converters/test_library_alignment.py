"""NLP libraries' outputs of real documents, in other tokens, score as the key against itself.

Real GUM and LitBank documents are written as each library writes its output
(:mod:`tests.converters.library_outputs`: running text, tokenized again, mentions as character
or token offsets), read back with the library's reader and scored against the original key
with the default of ``corefkit score`` for such formats (aligned, paired by content): the exact
counts (fractions) of every metric are those of the key scored against itself. CoreNLP's XML
leaves one-mention chains out, so it is compared with singletons removed on both sides.
"""

from __future__ import annotations

import pytest

from corefkit import read, score
from tests.conftest import SHARED
from tests.converters.library_outputs import SHAPES, layout, write

GUM = SHARED / "corpora" / "gum" / "dep"
KEYS = [GUM / "GENTLE_poetry_death.conllu", GUM / "GUM_academic_art.conllu",
        GUM / "GUM_bio_byron.conllu", GUM / "GENTLE_legal_abortion.conllu",
        SHARED / "corpora" / "litbank" / "105_persuasion_brat.conll"]
METRICS = "muc,bcub,ceafe,ceafm,lea,blanc,conll"


def _counts(report) -> dict:
    return {n: (m.counts.recall_num, m.counts.recall_den, m.counts.precision_num,
                m.counts.precision_den) if hasattr(m.counts, "recall_num") else (m.f1,)
            for n, m in report.metrics.items()}


@pytest.mark.parametrize("fmt", sorted(SHAPES))
@pytest.mark.parametrize("key", KEYS, ids=[k.stem for k in KEYS])
def test_library_output_scores_as_the_key(key, fmt, tmp_path):
    doc = next(read(key))
    assert not any(t.is_empty for t in doc.tokens)
    lay = layout(doc)
    assert len(lay.tokens) != len(doc.tokens)          # another tokenization
    path = write(doc, fmt, tmp_path)
    remove = fmt == "corenlp"
    aligned = score(key, path, METRICS, response_format=fmt, remove_singletons=remove)
    itself = score(key, key, METRICS, remove_singletons=remove)
    assert _counts(aligned) == _counts(itself)
    assert aligned.metrics["conll"].f1 == 1
    [report] = aligned.alignment.documents
    assert report.mode == "characters" and report.mentions_unaligned == 0
    assert report.mentions_expanded == 0
