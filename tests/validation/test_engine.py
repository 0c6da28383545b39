"""The validation run: levels, include/exclude, the error limit, inputs, and never a traceback."""

from __future__ import annotations

import os

import pytest

from corefkit.checks.registry import Check, register, unregistered
from corefkit.converters.paths import InputError
from corefkit.errors import UsageError
from corefkit.model import Document
from corefkit.validation import Finding, get_check, validate
from tests.validation.helpers import VALIDATION, checks_of, only

CONLL = VALIDATION / "conll2012"


def test_levels_select_checks_by_depth():
    # level 2 (non-numeric id) and level 3 (same span) in one run
    path = CONLL / "same-span-mentions.conll"
    assert only(path, level=3) == {"conll.same-span-mentions"}
    assert only(path, level=2) == set()
    assert only(CONLL / "non-numeric-id.conll", level=2) == {"conll.non-numeric-id"}
    assert only(CONLL / "non-numeric-id.conll", level=1) == set()


def test_rejections_are_reported_whatever_the_filters():
    path = CONLL / "unclosed.conll"
    assert only(path, level=1, include_only=["conll.empty-name"]) == {"conll.unclosed"}
    assert only(path, exclude=["conll.*"]) == {"conll.unclosed"}


def test_include_only_and_exclude_take_ids_and_patterns():
    rejections = {"conll.bad-chunk", "conll.unbalanced-close", "conll.unclosed",
                  "conll.outside-document", "conll.too-few-columns", "text.invalid-utf8"}
    # (a directory's files of no known format, like unknown-format.txt, are skipped)
    assert only(VALIDATION / "conll2012", include_only=["conll.empty-name"]) == \
        {"conll.empty-name"} | rejections
    everything = checks_of(VALIDATION / "conll2012")
    without = checks_of(VALIDATION / "conll2012", exclude=["conll.empty-name,conll.word-number"])
    assert set(everything) - set(without) == {"conll.empty-name", "conll.word-number"}
    assert only(VALIDATION / "conll2012", include_only=["file.*"]) >= {"file.no-documents"}


@pytest.mark.parametrize("option", ["include_only", "exclude"])
def test_unknown_check_ids_are_usage_errors(option):
    with pytest.raises(UsageError, match="no check is called 'conll.nope'"):
        validate(CONLL / "valid-gum-layout.conll", **{option: ["conll.nope"]})


def test_bad_levels_limits_formats_and_paths_are_usage_errors(tmp_path):
    with pytest.raises(UsageError):
        validate(CONLL, level=4)
    with pytest.raises(UsageError):
        validate(CONLL, max_errors=0)
    with pytest.raises(UsageError, match="unknown format"):
        validate(CONLL, format="word")
    # paths that name nothing to read are input errors (exit 1), as in every command (issue 22)
    with pytest.raises(InputError, match="no such file"):
        validate(tmp_path / "missing.conll")
    with pytest.raises(InputError, match="matches no file"):
        validate(str(tmp_path / "*.conll"))
    with pytest.raises(InputError, match="holds no"):
        validate(tmp_path)
    with pytest.raises(UsageError, match="either paths or Document"):
        validate([CONLL / "valid-gum-layout.conll", Document("x")])


def test_max_errors_stops_the_run():
    full = validate(CONLL)
    assert full.errors > 3
    stopped = validate(CONLL, max_errors=3)
    assert stopped.errors == 3 and stopped.stopped
    assert list(stopped) == list(full)[: len(stopped)]
    assert stopped.summary().endswith("stopped after 3 errors (--max-err)")
    assert not validate(CONLL, max_errors=full.errors + 1).stopped


def test_summary_counts_files_documents_errors_warnings():
    result = validate([CONLL / "valid-ontonotes.conll", CONLL / "empty-name.conll"])
    assert result.summary() == "2 files, 3 documents: 0 errors, 1 warning"
    assert (result.files, result.documents, result.errors, result.warnings) == (2, 3, 0, 1)


def test_globs_and_forced_format(tmp_path):
    assert checks_of(str(CONLL / "empty-*.conll")) == {"conll.empty-name": 1}
    # detection reads the content, not the name
    copy = tmp_path / "data.txt"
    copy.write_text((CONLL / "empty-name.conll").read_text())
    assert only(copy) == {"conll.empty-name"}
    prose = CONLL / "unknown-format.txt"
    assert only(prose) == {"file.unknown-format"}
    assert only(prose, format="conll") == {"conll.outside-document"}


def test_an_unreadable_file_is_a_finding(monkeypatch):
    path = str(CONLL / "valid-gum-layout.conll")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if p == path else real(p, mode))
    [finding] = validate(path)
    assert (finding.check, finding.severity, finding.file) == ("file.unreadable", "error", path)


def test_a_failing_disk_is_a_finding_not_a_traceback(monkeypatch):
    import corefkit.validation.engine as engine

    def broken(*args, **kwargs):
        raise OSError(5, "Input/output error")
        yield  # pragma: no cover - a generator, as the registry's read

    monkeypatch.setattr(engine, "read", broken)
    [finding] = validate(CONLL / "valid-gum-layout.conll")
    assert finding.check == "file.unreadable" and "Input/output error" in finding.message


def test_unregistered_reader_ids_keep_their_id():
    doc = Document("d")
    doc.add_sentence(["a"])
    from corefkit.errors import Repair

    doc.repairs.append(Repair("newformat.something", "a new repair", "f", 3, None, "d"))
    [finding] = validate([doc])
    assert (finding.check, finding.severity, finding.level, finding.line) == (
        "newformat.something", "warning", 2, 3)
    assert unregistered("x.y", rejected=True).severity == "error"


def test_registering_a_conflicting_check_fails():
    check = get_check("conll.unclosed")
    register(check)  # the same definition again is fine
    with pytest.raises(ValueError):
        register(Check("conll.unclosed", 2, "warning", "something else"))
    with pytest.raises(ValueError):
        Check("x.y", 4, "error", "bad level")


def test_finding_renderings():
    finding = Finding(3, "error", "mention.same-span", "a.conll", 12, "doc", "4", "msg", "why")
    assert finding.to_text() == "a.conll:12: [ERROR] mention.same-span: msg (document doc, sentence 4)"
    assert finding.to_json() == {"level": 3, "severity": "error", "check": "mention.same-span",
                                 "file": "a.conll", "line": 12, "document": "doc",
                                 "sentence": "4", "message": "msg", "explanation": "why"}
    whole = Finding(1, "warning", "file.no-documents", "a.conll", None, None, None, "m", "w")
    assert whole.to_text() == "a.conll:0: [WARNING] file.no-documents: m"


def test_standard_input(monkeypatch):
    import io
    import sys

    data = (CONLL / "empty-name.conll").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    [finding] = validate("-", format="conll2012")
    assert finding.check == "conll.empty-name" and finding.file == "<stdin>"
    with pytest.raises(UsageError):
        validate("-")
