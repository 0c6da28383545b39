"""Issue 22: a conversion's loss report equals what was lost, per feature, kind and count.

Every real corpus of ``../shared/corpora`` (a sample of each, :data:`SOURCES`) goes through
every writer that writes any corpus (:data:`TARGETS`: each format, and each jsonlines shape),
is read back, and is diffed against the source by the independent differ of
:mod:`tests.oracle.model_diff`; the loss records of the write must be exactly what the diff
finds: no loss unreported, no reported loss that did not happen. Writers whose word column
cannot hold a form write with ``forms="replace"`` here, so that the replacement is in the
report; without it the same write is refused, naming the first such token.
"""

from __future__ import annotations

import functools
import re
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings

from corefkit.converters.registry import FORMATS, get
from corefkit.errors import LossError
from corefkit.model import Document
from tests.conftest import CORPORA
from tests.oracle.documents import documents as generated_documents
from tests.oracle.format_pairs import (KNOWN_MISMATCHES, SOURCES, TARGETS, Source, Target,
                                       convert, corpus_folders, run)
from tests.oracle.model_diff import compare, diff_documents

def needs_cas(*formats: str) -> None:
    if "uima-cas" in formats:
        pytest.importorskip("cassis")   # corefkit[cas]


PAIRS = [pytest.param(s, t, id=f"{s.path}->{t.name}",
                      marks=[pytest.mark.xfail(reason=KNOWN_MISMATCHES[(s.path, t.name)],
                                               strict=True)]
                      if (s.path, t.name) in KNOWN_MISMATCHES else [])
         for s in SOURCES for t in TARGETS]


@functools.lru_cache(maxsize=4)
def documents(source: Source) -> tuple[Document, ...]:
    return tuple(source.read())


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_the_loss_report_equals_the_diff(source: Source, target: Target) -> None:
    needs_cas(source.format, target.format)
    docs = [d.copy() for d in documents(source)]
    outcomes = list(run(source, target, docs))
    assert len(outcomes) == source.documents
    problems = [f"{o.document}: {p}" for o in outcomes for p in o.problems]
    assert problems == []
    # what forms="replace" wrote '_' for is refused by default, naming the first token
    replaced = [o for o in outcomes if o.losses.get(("tokens", "changed"))
                and dict(target.options).get("forms") == "replace"]
    for outcome in replaced:
        doc = next(d for d in documents(source) if d.name == outcome.document)
        default = Target(target.name, target.format)
        with tempfile.TemporaryDirectory() as folder, \
                pytest.raises(LossError, match=r"sentence \d+, (word|empty node) "):
            convert(doc.copy(), default, folder)


# The formats of the coreference libraries (landed on main while this harness was extended to
# the tool and LLM-track formats): not yet sources or targets here. Listed, so that any other
# format missing from the harness still fails the test below.
# no file holds Maverick's output (its documented example is built in test_libraries.py)
NO_SOURCE = frozenset({"maverick"})


def test_every_corpus_and_every_writer_is_covered() -> None:
    """Every corpus that holds a file corefkit reads has a source here; every reader format
    met in the corpora is a source format; every writer that writes any corpus is a target
    (GAP writes the prediction file of its own task, which no reader reads back), and every
    jsonlines shape."""
    covered = {s.corpus.split("/")[0] for s in SOURCES}
    assert corpus_folders() <= covered
    assert all(s.location.exists() for s in SOURCES)
    writers = {name for name, spec in FORMATS.items() if spec.writes and spec.writes_any_corpus}
    assert {t.format for t in TARGETS} == writers and "gap" not in writers
    from corefkit.converters.jsonlines.spec import SHAPES

    shapes = {dict(t.options).get("jsonlines_shape") for t in TARGETS if t.format == "jsonlines"}
    assert shapes == set(SHAPES)
    assert {s.format for s in SOURCES} == set(FORMATS) - NO_SOURCE
    # every known mismatch names a pair of the harness
    assert set(KNOWN_MISMATCHES) <= {(s.path, t.name) for s in SOURCES for t in TARGETS}
    # the forms option reaches every writer with a form rule, and only those
    for target in TARGETS:
        assert ("forms" in dict(target.options)) == (get(target.format).forms is not None)


def test_the_issue_cases() -> None:
    """The discrepancies the issue measured, each now reported as it happens."""
    # GUM's empty nodes: counted as nodes, and the mentions over them apart
    gum = next(s for s in SOURCES if s.path.endswith("GUM_conversation_atoms.conllu"))
    conll = next(t for t in TARGETS if t.name == "conll2012")
    (outcome,) = run(gum, conll, [d.copy() for d in documents(gum)])
    empty = sum(1 for t in documents(gum)[0].tokens if t.is_empty)
    assert empty > 0 and outcome.losses[("empty_nodes", "dropped")] == empty
    # a POS column dropped from the 5-column CoNLL output is reported
    assert outcome.losses[("pos", "dropped")] == sum(
        1 for t in documents(gum)[0].tokens if not t.is_empty and (t.upos or t.xpos))
    # LCC's multiword tokens: a loss, not a warning
    lcc = next(s for s in SOURCES if s.path.endswith("116352.nkas.json"))
    (outcome,) = run(lcc, conll, [d.copy() for d in documents(lcc)])
    spaced = [t for t in documents(lcc)[0].tokens if re.search(r"\s", t.form)]
    assert spaced and outcome.losses[("tokens", "changed")] == len(spaced)
    assert not outcome.problems
    # LCC -> CoNLL-UA: the links (which antecedent each names) are not carried, and say so
    from corefkit.model.typed_links import LINKS

    ua = next(t for t in TARGETS if t.name == "ua-exploded")
    (outcome,) = run(lcc, ua, [d.copy() for d in documents(lcc)])
    links = documents(lcc)[0].attrs[LINKS]
    assert outcome.losses[("typed_links", "dropped")] == len(links) > 0
    assert not outcome.problems
    # CODI-CRAC -> CorefUD: every bridging relation is counted once, with what happened to it
    codi = next(s for s in SOURCES if "AMI" in s.path)
    corefud = next(t for t in TARGETS if t.name == "corefud")
    (outcome,) = run(codi, corefud, [d.copy() for d in documents(codi)])
    bridging = outcome.losses[("bridging", "changed")] + outcome.losses[("bridging", "dropped")]
    assert bridging == len(documents(codi)[0].bridging()) and not outcome.problems


# generated documents the writers of main's new formats do not yet report exactly: the LLM-track
# writers (crossing mentions of one entity, which the tags write but read back otherwise; empty
# nodes moved by --text2text-zeros), the tool writers (an entity's attributes counted twice)
GENERATED_OPEN = {"text2text", "text2text:zeros", "text2text-json", "text2text-json:zeros",
                  "webanno-tsv", "uima-cas"}


@pytest.mark.parametrize("target", [
    pytest.param(t, id=t.name, marks=[pytest.mark.xfail(
        reason="not yet reported exactly (see GENERATED_OPEN)",
        strict=False)] if t.name in GENERATED_OPEN else []) for t in TARGETS])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=generated_documents())
def test_the_loss_report_equals_the_diff_on_generated_documents(target: Target,
                                                                doc: Document) -> None:
    needs_cas(target.format)
    """Documents with a bit of every feature (empty nodes, zeros, discontinuous and crossing
    mentions, sets, bridging, non-referring and unlinked markables, DD, heads, min spans,
    attributes, columns, speakers, parts): the same equality, on what real corpora rarely
    combine."""
    with tempfile.TemporaryDirectory() as folder:
        report, back = convert(doc.copy(), target, folder)
    assert len(back) == 1
    assert compare(diff_documents(doc, back[0]), report.losses) == []
