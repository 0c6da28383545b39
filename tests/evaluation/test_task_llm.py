"""The LLM track in a task (``track = "llm"``): the answers in the track's text format
(text2text), read leniently, aligned to the gold's words and scored, on the CRAC demonstration
task of ``examples/crac/demo.py`` (its ``task-llm.toml`` and ``llm-submissions/``)."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.errors import UsageError
from corefkit.evaluation.task import run_task
from corefkit.evaluation.task.spec import load_task
from corefkit.schemas import DIRECTORY as SCHEMAS
from tests.conftest import SHARED
from tests.evaluation.test_task_datasets import DOCUMENTS, _demo


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("crac-llm") / "demo"
    _demo().build(out, SHARED, DOCUMENTS, permutations=200, bootstrap=50)
    return out


@pytest.fixture(scope="module")
def llm_board(demo):
    return run_task(demo / "task-llm.toml", demo / "llm-submissions", jobs=1)


def test_the_llm_track_defaults():
    task = load_task({"datasets": [{"gold": "g/en_gum-corefud-test.conllu"}], "track": "llm"})
    assert task.track == "llm" and task.scoring["align"] == "expand"
    assert task.submissions.format == "text2text"
    given = load_task({"gold": "k.conllu", "track": "llm", "scoring": {"align": "unaligned"},
                       "submissions": {"format": "text2text-json"}})
    assert given.scoring["align"] == "unaligned" and given.submissions.format == "text2text-json"
    assert load_task({"gold": "k.conllu"}).track == "standard"
    with pytest.raises(UsageError, match="align cannot be false"):
        load_task({"gold": "k.conllu", "track": "llm", "scoring": {"align": False}})
    with pytest.raises(UsageError, match="track"):
        load_task({"gold": "k.conllu", "track": "chat"})


def test_every_answer_is_scored_by_its_text_file(llm_board):
    assert [e.name for e in llm_board.entries] == ["llm-mild", "llm-rewritten", "llm-heavy"]
    assert not llm_board.rejected
    for entry in llm_board.entries:
        assert not entry.missing
        assert all(r.path.endswith("-test.txt") for r in entry.results.values())


def test_an_answer_on_the_golds_words_scores_as_the_conllu_it_was_written_from(llm_board,
                                                                               demo):
    """llm-mild is team-mild's CoNLL-U written as text2text: on GUM (no zeros) the aligned
    answer scores exactly as the CoNLL-U does, in every column."""
    result = llm_board.entry("llm-mild").results["en_gum-corefud"]
    gold = demo / "gold" / "en_gum-corefud-test.conllu"
    conllu = demo / "submissions" / "team-mild" / "en_gum-corefud-test.conllu"
    direct = corefkit.score(gold, conllu, profile="crac26", jobs=1)
    assert result.values["conll"] == direct.metrics["conll"].f1
    exact = corefkit.score(gold, conllu, profile="crac26", match="exact", jobs=1)
    assert result.values["exact"] == exact.metrics["conll"].f1
    answer = corefkit.score(gold, result.path, profile="crac26", response_format="text2text",
                            align="expand", lenient=True, jobs=1)
    assert result.values["conll"] == answer.metrics["conll"].f1


def test_a_rewritten_answer_is_aligned_not_refused(llm_board, demo):
    """The standard track refuses one changed word (team-typo); the LLM track aligns a
    dropped, a repeated and a respelt word and scores what remains."""
    rewritten = llm_board.entry("llm-rewritten").results["en_gum-corefud"]
    mild = llm_board.entry("llm-mild").results["en_gum-corefud"]
    assert Fraction(0) < rewritten.values["conll"] < mild.values["conll"]
    documents = rewritten.entry.report.alignment.documents
    assert len(documents) == DOCUMENTS
    assert all(d.words_inserted + d.words_deleted >= 1 for d in documents)
    for dataset in ("hu_korkor-corefud", "la_proiel-corefud", "osp_iswoc-corefud"):
        assert llm_board.entry("llm-rewritten").results[dataset].values == \
            llm_board.entry("llm-mild").results[dataset].values
    macro = sum((r.values["conll"] for r in llm_board.entry("llm-mild").results.values()),
                Fraction(0)) / 4
    assert llm_board.entry("llm-mild").values["conll"] == macro


def test_llm_track_files_are_found_missing_or_ambiguous(demo, tmp_path):
    submissions = tmp_path / "answers"
    one = submissions / "llm-one"
    one.mkdir(parents=True)
    source = demo / "llm-submissions" / "llm-mild"
    shutil.copy(source / "en_gum-corefud-test.txt", one / "en_gum-corefud.txt")  # NAME.txt
    two = submissions / "llm-two"
    two.mkdir()
    shutil.copy(source / "en_gum-corefud-test.txt", two / "en_gum-corefud-test.txt")
    shutil.copy(source / "en_gum-corefud-test.txt", two / "en_gum-corefud-test.t2t.txt")
    task = json.loads(json.dumps(load_task(demo / "task-llm.toml").to_json()))
    board = run_task(demo / "task-llm.toml", submissions, jobs=1)
    entry = board.entry("llm-one")
    assert entry.missing == ["hu_korkor-corefud", "la_proiel-corefud", "osp_iswoc-corefud"]
    assert entry.results["en_gum-corefud"].values["conll"] == \
        corefkit.score(demo / "gold" / "en_gum-corefud-test.conllu",
                       one / "en_gum-corefud.txt", profile="crac26",
                       response_format="text2text", align="expand", lenient=True,
                       jobs=1).metrics["conll"].f1
    assert [r.name for r in board.rejected] == ["llm-two"]
    assert "two files for the dataset" in board.rejected[0].reason
    assert task["track"] == "llm"


def test_an_unreadable_answer_is_refused_with_its_place(demo, tmp_path, capsys):
    submissions = tmp_path / "answers"
    bad = submissions / "llm-bad"
    shutil.copytree(demo / "llm-submissions" / "llm-mild", bad)
    (bad / "hu_korkor-corefud-test.txt").write_bytes(b"\xff\xfe not text\n")
    out = tmp_path / "board"
    code = main(["task", str(demo / "task-llm.toml"), str(submissions), "-o", str(out),
                 "-f", "json", "-q"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    board = json.loads(captured.out)
    assert not board["entries"]
    assert board["rejected"][0]["name"] == "llm-bad"
    assert "dataset hu_korkor-corefud" in board["rejected"][0]["reason"]
    assert "hu_korkor-corefud-test.txt" in board["rejected"][0]["reason"]
    schema = json.loads((SCHEMAS / "leaderboard.schema.json").read_text())
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(json.loads((out / "leaderboard.json").read_text()), schema)


def test_a_malformed_answer_is_repaired_as_the_track_repairs_it(demo, tmp_path, llm_board):
    """Tags an LLM garbles (a doubled '|', a glued tag in capitals, a mention never closed)
    are repaired and counted as warnings on the LLM track; the same file on the standard
    track's checks (no track) is refused at validation."""
    submissions = tmp_path / "answers"
    team = submissions / "llm-tags"
    shutil.copytree(demo / "llm-submissions" / "llm-mild", team)
    answer = team / "en_gum-corefud-test.txt"
    text = answer.read_text(encoding="utf-8")
    garbled = text.replace("|[e3 ", "||[e3 ", 1).replace("|[e2]", "[E2]", 1)
    assert garbled.count("||[e3 ") == 1 and garbled.count("[E2]") == 1
    answer.write_text(garbled, encoding="utf-8")
    board = run_task(demo / "task-llm.toml", submissions, jobs=1)
    assert not board.rejected
    result = board.entry("llm-tags").results["en_gum-corefud"]
    assert result.entry.validation_warnings >= 3     # double-pipe, glued-tag, id-case
    assert result.values == llm_board.entry("llm-mild").results["en_gum-corefud"].values
    strict = load_task(demo / "task-llm.toml")
    from dataclasses import replace

    standard = replace(strict, track="standard")
    board = run_task(standard, submissions, jobs=1)
    assert [r.stage for r in board.rejected] == ["validation"]
    assert board.rejected[0].errors == 3
    assert {f.check for f in board.rejected[0].findings} == {
        "text2text.double-pipe", "text2text.glued-tag", "text2text.id-case"}


def test_the_llm_track_bundle_scores_as_the_leaderboard(demo, llm_board, tmp_path):
    """The Codabench bundle of the LLM-track task, its scoring program run as the platform
    runs it on an answer folder: the leaderboard's values."""
    from corefkit.evaluation.task.bundle import column_key, percent
    from tests.evaluation.test_task_datasets import _platform_run

    bundle = tmp_path / "llm.zip"
    assert main(["task", "bundle", str(demo / "task-llm.toml"), "--platform", "codabench",
                 "-o", str(bundle)]) == 0
    done, output = _platform_run(bundle, "codabench", demo / "llm-submissions" / "llm-rewritten",
                                 tmp_path)
    assert done.returncode == 0, done.stderr
    scores = json.loads((output / "scores.json").read_text())
    entry = llm_board.entry("llm-rewritten")
    assert scores[column_key("conll")] == percent(entry.values["conll"])
    assert scores[column_key("conll_en_gum_corefud")] == \
        percent(entry.results["en_gum-corefud"].values["conll"])
