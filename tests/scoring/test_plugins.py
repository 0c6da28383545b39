"""The labelled-metric extension point: labels reach the aligned document on both paths."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

import corefkit
from corefkit.scoring.metrics.labelled import LabelledMetric, register_labelled_metric
from corefkit.scoring.metrics.registry import unregister_metric
from tests.conftest import CONFORMANCE, CORPORA

DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"


@dataclass(frozen=True)
class Seen:
    key: tuple[str, ...] = ()
    response: tuple[str, ...] = ()

    def __add__(self, other: "Seen") -> "Seen":
        return Seen(self.key + other.key, self.response + other.response)


@pytest.fixture
def first_word_metric():
    """A test metric whose label is a mention's first word form."""

    def labeler(options):
        return lambda doc, mention: doc.tokens[mention.start].form.upper() if options["upper"] \
            else doc.tokens[mention.start].form

    def compute(aligned, table, options):
        return Seen(tuple(v["words"] for _, v in sorted(aligned.key_labels.items())),
                    tuple(v["words"] for _, v in sorted(aligned.response_labels.items())))

    register_labelled_metric(LabelledMetric("words", "first words", labeler, compute,
                                            {"upper": False}))
    yield
    unregister_metric("words")


def test_labels_on_the_exact_path(first_word_metric):
    report = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-4.response", metrics="muc,words",
                            lenient=True)
    seen = report.metrics["words"].counts
    assert seen.key == ("a1", "b1", "c", "d1", "e", "f1")
    assert sorted(seen.response) == sorted(("a1", "b1", "c", "d1", "x", "x", "y"))
    upper = corefkit.score(DATA / "TC-A.key", DATA / "TC-A-4.response", metrics="words",
                           metric_options={"words": {"upper": True}}, lenient=True)
    assert upper.metrics["words"].counts.key[0] == "A1"


def test_labels_on_the_corefud_path(first_word_metric):
    gum = CORPORA / "gum" / "dep" / "GUM_letter_arendt.conllu"
    report = corefkit.score(gum, gum, metrics="words")
    seen = report.metrics["words"].counts
    assert len(seen.key) == len(seen.response) > 100 and seen.key[0] == "August"
