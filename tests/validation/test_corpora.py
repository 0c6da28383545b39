"""Every shared corpus and the conformance data validate; what they report is real and counted.

No shared file produces a rejection. The findings below are real properties of the data,
each explained where it is listed; the counts agree with the corpus READMEs and the format
pages (``formats/*.md``) where those count the same thing.
"""

from __future__ import annotations

from collections import Counter

import pytest

from corefkit.validation import validate
from tests.conftest import SHARED

CORPORA = [
    ("corpora/litbank", 10, {}),
    # GUM's CoNLL export uses string ids (place-9-Portsmouth): one warning per document
    ("corpora/gum/coref-gum-conll", 46, {"conll.non-numeric-id": 46}),
    # OntoGUM's export has an empty document name in every file (conll2012.md §3)
    ("corpora/gum/coref-ontogum-conll", 46, {"conll.empty-name": 46}),
    ("corpora/gum/dep", 46, {}),
    # OntoGUM cells such as 4)(2), (6)(8, 9)10) are not in canonical order (conversion-notes §5
    # says 69; corefkit's writer reorders exactly these 68 cells, the same ones reported here)
    ("corpora/gum/coref-ontogum-conllu", 46, {"corefud.bracket-order": 68}),
    # LIGHT's Min values that skip the '# setting' sentence (1,711, ua-exploded.md §3.3), 31 Min
    # values outside their markable, one one-member set (light episode_6927, set 47); every
    # document is aligned with spaces and drops empty last columns (ua-exploded.md §6)
    ("corpora/codi-crac22", 21, {"ua.min-outside-span": 31, "ua.min-setting-shift": 1711,
                                 "ua.set-one-member": 1, "ua.space-separated": 21,
                                 "ua.missing-columns": 21}),
    # lcc.md §7, v1: 6 contradicted directions, 5 duplicated links, 2 empty Mentions, 1 span
    # off the token grid, 7 e- (ellipsis) links whose anchor is a visible word; one layer error
    # object (116363) and the manualLex document (116356, with its lexemeCount)
    ("corpora/lcc", 30, {"lcc.direction-mismatch": 6, "lcc.duplicate-link": 5,
                         "lcc.layer-error": 1, "lcc.lexeme-count": 1,
                         "lcc.manual-lex-ignored": 1, "lcc.no-antecedent": 2,
                         "lcc.snapped-span": 1, "zero.no-empty-node": 7}),
    # jsonlines (corpora/jsonlines/*/README.md): SpanBERT's "clusters": [[]] is one empty
    # cluster; fastcoref's output names no document; singe.conll (the CoNLL source of
    # singe.jsonlines) has CoNLL-U columns, and the lemma '1777' of sentence 58 stands where
    # the CoNLL-2012 reader reads a word number
    ("corpora/jsonlines/dygie-scierc", 21, {}),
    ("corpora/jsonlines/e2e-boberle", 2, {"conll.word-number": 1}),
    ("corpora/jsonlines/fastcoref-output", 3, {"jsonlines.no-id": 3}),
    ("corpora/jsonlines/preco", 2, {}),
    ("corpora/jsonlines/spanbert-minimized", 1, {"jsonlines.empty-cluster": 1}),
    ("corpora/jsonlines/wl-coref-input", 2, {}),
    # HTC: sentence markable_65 overlaps markable_1 (mmax2.md §6)
    ("corpora/mmax2/htc", 1, {"mmax2.sentence-overlap": 1}),
    # ACL: no per-project common paths (12 projects), comma spans that overlap (22) or lie in
    # two sentences (4), same-span markables (C02-1016, P08-1082, ...), 6 attributes set
    # although the scheme disables them (np_form="none" with a set)
    ("corpora/mmax2/acl-anthology", 12, {"mmax2.attribute-not-enabled": 6,
                                         "mmax2.far-fragments": 4,
                                         "mmax2.global-paths-found": 12,
                                         "mmax2.overlapping-fragments": 22,
                                         "mmax2.same-span": 3}),
]

def _skeletons(sentences: int, words: int) -> dict[str, int]:
    """The UD errors of sentences whose words are all '_' with HEAD 0."""
    return {"corefud.multiple-roots": sentences, "corefud.text-form-mismatch": sentences,
            "corefud.text-extra-chars": sentences, "corefud.unknown-upos": words,
            "corefud.invalid-deprel": words}


# The test cases repeat mentions on purpose (TC-A-8, TC-A-9: 10 same-entity and 2
# cross-entity repeats in every format the suites carry them in); 2-column layouts have no
# words; the CorefUD versions use the entity type 'x', which CorefUD's list does not have.
CONFORMANCE = [
    ("conformance/data/reference-coreference-scorers/DataFiles", 50,
     {"conll.duplicate-mention": 10, "conll.no-word-column": 22, "conll.same-span-mentions": 2}),
    ("conformance/data/coval/tests/boundary", 7, {}),
    ("conformance/data/coval/tests/boundary_with_singletons", 7, {}),
    ("conformance/data/coval/tests/correct_entities", 9, {}),
    ("conformance/data/coval/tests/correct_links", 10, {}),
    ("conformance/data/coval/tests/extra_mention", 22, {}),
    ("conformance/data/coval/tests/mention_identification", 6, {}),
    ("conformance/data/coval/tests/merge", 9, {}),
    ("conformance/data/coval/tests/split", 15, {}),
    # TC-PB has a set with one member; the UA test files are aligned with spaces, and the
    # plural tests also lack the last columns (one warning of each per document)
    ("conformance/data/universal-anaphora-scorer/plural-tests", 17,
     {"ua.set-one-member": 1, "ua.space-separated": 17, "ua.missing-columns": 17}),
    # The CorefUD scorer's test files are skeletons for the UD validator: every word has HEAD 0
    # (one multiple-roots per sentence, all the UD validator reports, as it stops there) and
    # '_' for FORM, UPOS and DEPREL (one unknown-upos and invalid-deprel per word; FORMs that
    # do not spell '# text = sentence', with the text left over: one of each per sentence).
    # The zero tests add empty nodes with HEAD 0, DEPS in some sentences only (graphs without
    # a root, relations '_').
    ("conformance/data/corefud-scorer/tests-corefud/exact-match", 52,
     {"corefud.same-span-entity-mentions": 12, "corefud.spurious-entity-type": 52,
      **_skeletons(80, 1490)}),
    ("conformance/data/corefud-scorer/tests-corefud/head-match", 6,
     {"corefud.spurious-entity-type": 6, **_skeletons(6, 426)}),
    ("conformance/data/corefud-scorer/tests-corefud/zeros", 29,
     {"corefud.spurious-entity-type": 29, **_skeletons(41, 556),
      "corefud.edeps-only-sometimes": 11, "corefud.unconnected-egraph": 28,
      "corefud.empty-node-nonempty-field": 37, "corefud.unknown-eudeprel": 12}),
    # the OLM cases are about overlapping (crossing) mentions of different entities: 11
    # crossing pairs, reported once per crossing mention (issue 22: n nested or crossing
    # mentions made n² findings), so the mention of TC-OLMC-7 that crosses two is one finding
    # ("... (and 1 more)")
    ("conformance/data/corefud-scorer/tests-corefud/partial-corefud-match/overlapping_mentions",
     29, {"corefud.ill-nested-entities": 10, "corefud.spurious-entity-type": 29,
          **_skeletons(29, 2059)}),
    ("conformance/data/corefud-scorer/tests-corefud/partial-corefud-match/noncontig_mentions",
     17, {"corefud.spurious-entity-type": 17, **_skeletons(17, 1207)}),
    ("conformance/data/corefud-scorer/tests-ua/original-conll", 50,
     {"mention.same-span": 2, "mention.same-span-same-entity": 10, "ua.space-separated": 50}),
    ("conformance/data/corefud-scorer/tests-ua/zeros", 12, {"ua.space-separated": 12}),
    ("conformance/data/corefud-scorer/tests-ua/discontinuous-craft", 13, {"ua.space-separated": 13}),
    ("conformance/data/corefud-scorer/tests-ua/partial-match-corefud", 2, {"ua.space-separated": 2}),
    # UA 2.0 id closers (markable_1)) express crossing mentions of one entity
    ("conformance/data/corefud-scorer/tests-ua/partial-match-corefud/overlapping_mentions", 26,
     {"mention.crossing-same-entity": 4, "ua.space-separated": 26}),
    # TC-NCMB: the parts of one discontinuous markable carry different features
    ("conformance/data/corefud-scorer/tests-ua/partial-match-corefud/noncontig_mentions", 17,
     {"ua.part-features-differ": 1, "ua.space-separated": 17}),
]


def _with_subfolders(entries: list) -> list:
    """Each entry's numbers are its folder's own files'; validating a folder reads the folders
    below it too (the expansion is recursive), so a folder's expectation adds those of the
    entries below it."""
    total = []
    for path, documents, expected in entries:
        counts = Counter(expected)
        for other, more, found in entries:
            if other.startswith(path + "/"):
                documents += more
                counts.update(found)
        total.append((path, documents, dict(counts)))
    return total


CORPORA = _with_subfolders(CORPORA)
CONFORMANCE = _with_subfolders(CONFORMANCE)


def _check(path: str, documents: int, expected: dict[str, int], **options) -> None:
    result = validate(SHARED / path, **options)
    rejected = [f for f in result if "reading of this file stopped" in f.message]
    assert rejected == []
    assert result.documents == documents
    assert dict(Counter(f.check for f in result)) == expected


@pytest.mark.parametrize(("path", "documents", "expected"), CORPORA,
                         ids=[c[0] for c in CORPORA])
def test_shared_corpora(path, documents, expected):
    _check(path, documents, expected)


def test_lcc_system_layer():
    # lcc.md §7, v2: 4 contradicted directions, 3 duplicated links, 2 empty Mentions, 2 spans
    # off the token grid, 1 e- link
    _check("corpora/lcc", 30, {"lcc.direction-mismatch": 4, "lcc.duplicate-link": 3,
                               "lcc.layer-error": 1, "lcc.lexeme-count": 1,
                               "lcc.manual-lex-ignored": 1, "lcc.no-antecedent": 2,
                               "lcc.snapped-span": 2, "zero.no-empty-node": 1},
           read_options={"layer": "manualCoreferences@2"})


@pytest.mark.parametrize(("path", "documents", "expected"), CONFORMANCE,
                         ids=[c[0].split("data/")[1] for c in CONFORMANCE])
def test_conformance_data(path, documents, expected):
    _check(path, documents, expected)


def test_every_conformance_folder_is_covered():
    folders = {str(p.parent.relative_to(SHARED)) for p in (SHARED / "conformance/data").rglob("*")
               if p.is_file() and p.suffix in (".key", ".response", ".conll")}
    assert folders <= {c[0] for c in CONFORMANCE}


def test_the_real_findings_are_where_the_format_pages_say():
    found = validate(SHARED / "corpora/mmax2/acl-anthology", include_only=["mmax2.same-span"])
    places = {(f.document, f.message.split(" have")[0]) for f in found}
    assert ("C02-1016", "markables markable_193 and markable_548") in places
    assert ("P08-1082", "markables markable_973 and markable_974") in places
    [overlap] = validate(SHARED / "corpora/mmax2/htc")
    assert "markable_65" in overlap.message or "markable_1" in overlap.message
