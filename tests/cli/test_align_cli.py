"""``--align`` in score, compare, analyze, report and task; ``convert --gold``; the LLM
track's answers on the command line."""

from __future__ import annotations

import json

import pytest

from corefkit import read
from corefkit.cli.main import main
from corefkit.converters.registry import write
from tests.alignment.test_retokenized import retokenized
from tests.conftest import SHARED

GUM = SHARED / "corpora" / "gum" / "dep"
DATA = SHARED / "corpora" / "llm-text2text"
KEY = GUM / "GENTLE_poetry_death.conllu"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def response(tmp_path_factory):
    """The key's text in other tokens, as jsonlines (e2e shape)."""
    key = next(read(KEY))
    doc = retokenized(key, 5, split=0.3, merge=0.3, trimmable_edges=False, keep_empty=False)
    path = tmp_path_factory.mktemp("align") / "response.jsonlines"
    write([doc], path, format="jsonlines")
    return path


def test_score_without_align_refuses_other_tokens_and_with_it_scores_as_the_key(capsys,
                                                                                response):
    code, _, err = run(capsys, "score", KEY, response)
    assert code == 1 and "(pair.tokens)" in err  # issue 22: one id
    code, out, err = run(capsys, "score", KEY, response, "--align", "-f", "json")
    assert code == 0, err
    aligned = json.loads(out)
    _, out, _ = run(capsys, "score", KEY, KEY, "-f", "json")
    itself = json.loads(out)
    for name, metric in itself["metrics"].items():
        assert aligned["metrics"][name]["exact"] == metric["exact"], name
    import jsonschema
    from importlib import resources

    schema = json.loads(resources.files("corefkit").joinpath(
        "schemas/score-report.schema.json").read_text())
    jsonschema.validate(aligned, schema)
    (document,) = aligned["alignment"]["documents"]
    assert document["mode"] == "characters" and document["tokens_split"] > 0
    assert aligned["options"]["align"] == {"boundary": "expand", "merged": "trim"}


def test_llm_answers_align_by_default_and_the_table_says_what_alignment_did(capsys):
    answer = DATA / "responses" / "words" / "GENTLE_poetry_death.txt"
    code, out, err = run(capsys, "score", KEY, answer, "--response-from", "text2text",
                         "--profile", "crac-llm")
    assert code == 0, err
    assert "alignment (boundary expand, merged trim): 1 document, " in out  # in number
    assert "words: 1 replaced, 5 inserted, 2 deleted" in out
    code, _, err = run(capsys, "score", KEY, answer, "--response-from", "text2text",
                       "--no-align")
    # without the alignment an answer's documents (named by its file) pair with no key's
    assert code == 1 and "(pair.documents)" in err


def test_a_broken_answer_is_refused_without_lenient(capsys):
    answer = DATA / "responses" / "tags" / "GENTLE_poetry_death.txt"
    code, _, err = run(capsys, "score", KEY, answer, "--response-from", "text2text")
    assert code == 1
    assert err.count("\n") == 1 and ":1:34: word 7:" in err and "--lenient" in err


def test_compare_analyze_report_and_task_align(capsys, tmp_path, response):
    code, out, err = run(capsys, "compare", "--key", KEY, "--response", response, "--label",
                         "sys@gum", "--align", "--permutations", "10", "--bootstrap", "10",
                         "-f", "json")
    assert code == 0, err
    code, out, err = run(capsys, "analyze", KEY, response, "--align", "-f", "json")
    assert code == 0, err
    assert "align.document" in err and "aligned by characters" in err
    json.loads(out)
    code, _, err = run(capsys, "analyze", KEY, response)
    assert code == 1 and "(pair.tokens)" in err  # issue 22: one id
    page = tmp_path / "report.html"
    code, _, err = run(capsys, "report", KEY, response, "--align", "-o", page,
                       "--permutations", "10", "--bootstrap", "10", "-q")
    assert code == 0, err
    assert page.read_text().startswith("<!DOCTYPE html>")
    submissions = tmp_path / "submissions"
    submissions.mkdir()
    (submissions / "team.jsonlines").write_bytes(response.read_bytes())
    task = tmp_path / "task.toml"
    task.write_text(f'name = "t"\ngold = "{KEY}"\n[scoring]\nprofile = "crac"\n'
                    '[ranking]\nprimary = "conll"\n[significance]\ntest = "none"\n'
                    '[submissions]\nlayout = "file"\nformat = "jsonlines"\n'
                    'pattern = "*.jsonlines"\n')
    code, out, err = run(capsys, "task", task, submissions, "-f", "json")
    assert code == 0 and json.loads(out)["rejected"], err
    code, out, err = run(capsys, "task", task, submissions, "--align", "-f", "json")
    assert code == 0, err
    board = json.loads(out)
    assert not board["rejected"] and len(board["entries"]) == 1


def test_convert_puts_an_answer_on_the_golds_words(capsys, tmp_path):
    out = tmp_path / "answer.conllu"
    answer = DATA / "responses" / "words" / "GENTLE_poetry_death.txt"
    code, _, err = run(capsys, "convert", answer, out, "--from", "text2text", "--gold", KEY,
                       "--lenient")
    assert code == 0, err
    assert "align.document" in err
    converted = next(read(out))
    gold = next(read(KEY))
    assert [t.form for t in converted.tokens] == [t.form for t in gold.tokens]
    code, direct, _ = run(capsys, "score", KEY, answer, "--response-from", "text2text",
                          "--profile", "crac-llm", "-f", "json", "-m", "muc,bcub,ceafe,conll")
    code, written, _ = run(capsys, "score", KEY, out, "--profile", "crac", "-f", "json",
                           "-m", "muc,bcub,ceafe,conll")
    assert json.loads(direct)["metrics"] == json.loads(written)["metrics"]
