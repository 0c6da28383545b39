"""Zero-bearing gold through the CRAC LLM track's linear text and back (issue 25): the key
written as text2text with its empty nodes (``--text2text-zeros``), read as an answer and
aligned to the key, scores 100 on every coreference metric under head match — heads of the
answer's mentions come from the key's tree as udapi's ``corefud.MoveHead`` gives them
(:func:`corefkit.model.syntax.udapi_head`), its empty nodes find the key's where
text2text-coref moves them (:func:`corefkit.model.text_order.linear_order`), and two
near-identical documents (a reprinted article) still pair with their own key.

Before: MUC 11.76 (no heads), one document left unpaired, empty nodes added instead of found.
"""

from __future__ import annotations

import shutil
import subprocess
from fractions import Fraction

import pytest

import corefkit
from corefkit.alignment.pairing import pair_by_content
from corefkit.model import Document, Token
from corefkit.model.syntax import udapi_head
from corefkit.model.text_order import linear_order
from tests.conftest import CORPORA

ZEROS = CORPORA / "corefud-zeros"
DATASETS = ("hu_korkor_pilot", "la_proiel_peraeth", "osp_iswoc")
PEER = shutil.which("text2text-coref") or "/root/corefkit-peers/bin/text2text-coref"
COREFERENCE = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "zero", "conll")


def _linear(tmp_path, dataset: str):
    key = ZEROS / dataset / f"{dataset}.conllu"
    text = tmp_path / f"{dataset}.t2t.txt"
    # the keys are our conversions with UD level-2 errors (partial DEPS): read leniently; a
    # Latin form with spaces is written with '_' as text2text-coref does (--forms replace)
    corefkit.convert(key, text, output_format="text2text", lenient=True,
                     write_options={"text2text_zeros": True, "forms": "replace"})
    return key, text


@pytest.mark.parametrize("dataset", DATASETS)
def test_zero_gold_through_linear_text_scores_100_under_head_match(tmp_path, dataset):
    key, text = _linear(tmp_path, dataset)
    for profile in ("crac-llm", "crac26"):
        report = corefkit.score(key, text, ",".join(COREFERENCE), profile=profile,
                                response_format="text2text", align="expand", lenient=True)
        for metric in COREFERENCE:
            assert report.metrics[metric].f1 == Fraction(1), (profile, metric)
        totals = report.alignment.totals()
        assert totals["empty_nodes_added"] == 0 and totals["key_mentions_missing"] == 0
        assert totals["mentions_unaligned"] == 0 and totals["mentions_moved"] == 0
        assert totals["documents"] == len(list(corefkit.read(key, lenient=True)))


@pytest.mark.skipif(not shutil.which(PEER), reason="text2text-coref (the peer) is not installed")
@pytest.mark.parametrize("dataset", DATASETS)
def test_the_linear_text_has_the_words_of_conllu2text(tmp_path, dataset):
    """Every word and empty node in the place text2text-coref's ``conllu2text -z`` writes it."""
    key, mine = _linear(tmp_path, dataset)
    theirs = tmp_path / "peer.txt"
    subprocess.run([PEER, "conllu2text", "-z", str(key), "-o", str(theirs)], check=True,
                   capture_output=True, timeout=600)

    def words(path):
        return [[w.split("|")[0] for w in line.split(" ")]
                for line in path.read_text(encoding="utf-8").splitlines()]

    assert words(mine) == words(theirs)


# ------------------------------------------------------------------ the pieces, by hand
def _sentence(rows: list[tuple[str, str, str, str]]) -> Document:
    """One sentence from (id, form, HEAD, DEPS) rows (empty nodes: HEAD '_')."""
    doc = Document("d")
    doc.add_sentence([Token(form, n, 0, id=tid, head=None if head == "_" else head, deps=deps,
                            is_empty="." in tid)
                      for n, (tid, form, head, deps) in enumerate(rows)])
    return doc


def test_empty_nodes_move_after_their_first_parent_as_text2text_coref_moves_them():
    doc = _sentence([
        ("1", "a", "0", "_"), ("1.1", "_", "_", "3:cop"),      # moves after 3
        ("2", "b", "1", "_"), ("2.1", "_", "_", "2:nsubj"),    # stays
        ("3", "c", "1", "_"), ("3.1", "_", "_", "3:obj"),      # stays, before the moved-in
        ("4", "d", "3", "_"), ("4.1", "_", "_", "1.1:conj"),   # follows its moved parent
        ("5", "e", "4", "_"), ("5.1", "_", "_", "0:root"),     # the root: before word 1
    ])
    order = [doc.tokens[i].id for i in linear_order(doc, 0)]
    assert order == ["5.1", "1", "2", "2.1", "3", "3.1", "1.1", "4.1", "4", "5"]


def test_movehead_rule():
    # "the big dog barked": the span 1-3 has one basic head (3)
    doc = _sentence([("1", "the", "3", "_"), ("2", "big", "3", "_"), ("3", "dog", "4", "_"),
                     ("4", "barked", "0", "_")])
    assert udapi_head(doc, (0, 1, 2)) == 2
    assert udapi_head(doc, (3,)) == 3
    # two basic heads under one governor outside the span: the first word stays the head
    doc = _sentence([("1", "x", "3", "_"), ("2", "y", "3", "_"), ("3", "z", "0", "_")])
    assert udapi_head(doc, (0, 1)) == 0
    # an empty node in the span stands for its non-empty parent: the governor is inside
    doc = _sentence([("1", "v", "0", "0:root"), ("1.1", "_", "_", "1:nsubj"),
                     ("2", "w", "1", "1:obj")])
    assert udapi_head(doc, (0, 1, 2)) == 0


def test_two_near_identical_documents_pair_with_their_own_key():
    article = [f"w{i}" for i in range(200)]
    reprint = article[:190] + [f"v{i}" for i in range(10)]
    other = [f"o{i}" for i in range(50)]
    pairs = pair_by_content([article, other, reprint], [other, reprint, article])
    assert pairs.pieces == [[2], [0], [1]] and pairs.extra == []
