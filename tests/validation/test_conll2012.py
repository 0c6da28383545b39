"""CoNLL-2012 checks: every check id has a fixture that triggers exactly it."""

from __future__ import annotations

import pytest

from corefkit.validation import all_checks, validate
from tests.validation.helpers import VALIDATION, only

FIXTURES = VALIDATION / "conll2012"

# fixture file -> the one check it must trigger
INVALID = {
    "bad-chunk.conll": "conll.bad-chunk",
    "unbalanced-close.conll": "conll.unbalanced-close",
    "unclosed.conll": "conll.unclosed",
    "outside-document.conll": "conll.outside-document",
    "too-few-columns.conll": "conll.too-few-columns",
    "missing-end.conll": "conll.missing-end",
    "empty-name.conll": "conll.empty-name",
    "comment-in-document.conll": "conll.comment-in-document",
    "no-word-column.conll": "conll.no-word-column",
    "word-number.conll": "conll.word-number",
    "mixed-separators.conll": "conll.mixed-separators",
    "split-antecedent-id.conll": "conll.split-antecedent-id",
    "duplicate-mention.conll": "conll.duplicate-mention",
    "same-span-mentions.conll": "conll.same-span-mentions",
    "duplicate-document.conll": "conll.duplicate-document",
    "non-numeric-id.conll": "conll.non-numeric-id",
    "invalid-utf8.conll": "text.invalid-utf8",
    "no-documents.conll": "file.no-documents",
    "unknown-format.txt": "file.unknown-format",
}
VALID = ["valid-ontonotes.conll", "valid-gum-layout.conll", "valid-litbank-layout.conll"]


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_fixture_triggers_exactly_its_check(name):
    assert only(FIXTURES / name) == {INVALID[name]}


@pytest.mark.parametrize("name", VALID)
def test_valid_fixture_triggers_nothing(name):
    result = validate(FIXTURES / name)
    assert list(result) == [] and result.documents >= 1


def test_every_conll_check_has_a_fixture():
    ids = {c.id for c in all_checks() if c.format == "conll2012"}
    assert ids <= set(INVALID.values())


def test_findings_are_located():
    [finding] = validate(FIXTURES / "unbalanced-close.conll")
    assert (finding.file, finding.line, finding.severity, finding.level) == (
        str(FIXTURES / "unbalanced-close.conll"), 3, "error", 1)
    assert "'3)'" in finding.message and "reading of this file stopped" in finding.message
    assert finding.explanation.startswith("a closing bracket")
    [finding] = validate(FIXTURES / "same-span-mentions.conll")
    assert (finding.line, finding.document, finding.sentence) == (2, "demo", "1")


def test_missing_end_points_at_the_open_document():
    [finding] = validate(FIXTURES / "missing-end.conll")
    assert finding.line == 1 and finding.severity == "error" and finding.document == "demo"


def test_duplicate_document_names_the_first_one():
    [finding] = validate(FIXTURES / "duplicate-document.conll")
    assert finding.line == 5 and "first at line 1" in finding.message
    # part 0 and part 000 are the same part for the scorers
    assert finding.document == "demo"


def test_duplicate_names_in_different_files_are_fine(tmp_path):
    # key and response files legitimately hold the same document names
    for name in ("a.conll", "b.conll"):
        (tmp_path / name).write_text((FIXTURES / "valid-gum-layout.conll").read_text())
    assert list(validate(tmp_path)) == []


def test_non_numeric_id_is_one_finding_per_document_with_counts(tmp_path):
    path = tmp_path / "mixed.conll"
    path.write_text("#begin document (d); part 0\nd\t0\t0\tA\t(1)\nd\t0\t1\tB\t(x-2)\n"
                    "d\t0\t2\tC\t(y)\n\n#end document\n")
    [finding] = validate(path)
    assert finding.check == "conll.non-numeric-id" and finding.line == 3
    assert finding.message.startswith("2 of 3 ids are not numbers, the first 'x-2'")


def test_errors_after_a_rejection_are_not_reported_but_earlier_documents_are(tmp_path):
    path = tmp_path / "two.conll"
    good = (FIXTURES / "duplicate-mention.conll").read_text()
    bad = (FIXTURES / "unclosed.conll").read_text()
    path.write_text(good + bad + good)
    result = validate(path)
    assert [f.check for f in result] == ["conll.duplicate-mention", "conll.unclosed"]
    assert result.documents == 1
