"""``corefkit agree``: the three output formats, the adjudication draft, the HTML view and the
errors (one line, exit 1 for bad input, 2 for bad usage)."""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from tests.conftest import CORPORA, ROOT

EXAMPLE = ROOT / "examples/conll2012"
KEY, RESPONSE = EXAMPLE / "key.conll", EXAMPLE / "response.conll"
LCC = CORPORA / "lcc"


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_table(capsys: pytest.CaptureFixture[str]):
    code, out, err = run(capsys, "agree", KEY, RESPONSE, "--label", "ann", "--label", "bob")
    assert code == 0 and err == ""
    assert out.startswith("corefkit agree: 2 annotators (ann, bob), 2 documents")
    row = next(line for line in out.splitlines() if line.startswith("ann–bob "))
    # docs, mentions exact/partial/head, MUC ... CoNLL: the API's numbers, rounded to read
    assert row.split()[1:6] == ["2", "96.77", "96.77", "96.77", "66.67"]
    assert "only ann marked it" in out and "examples/conll2012/key.conll:45 'costs'" in out


def test_json_is_the_api_report(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys, "agree", KEY, RESPONSE, "--label", "ann", "--label", "bob",
                       "-f", "json")
    data = json.loads(out)
    api = corefkit.agree([KEY, RESPONSE], labels=["ann", "bob"]).to_json()
    assert code == 0 and data == json.loads(json.dumps(api))
    pair = data["pairs"][0]
    assert pair["mentions"]["exact"]["exact"]["f1"] == "30/31"
    assert Fraction(pair["alpha_masi"]["exact"]["value"]) == \
        corefkit.agree([KEY, RESPONSE]).pairs[0].alpha.value
    assert [d["category"] for d in data["disagreements"]].count("split") == 3


def test_csv(capsys: pytest.CaptureFixture[str]):
    code, out, _ = run(capsys, "agree", KEY, RESPONSE, "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0
    conll = next(r for r in rows if r["scope"] == "pair" and r["measure"] == "conll")
    assert (conll["first"], conll["second"]) == ("key", "response")   # the file names
    api = corefkit.agree([KEY, RESPONSE]).pairs[0].chains["conll"].f1
    assert Fraction(conll["exact"]) == api
    assert sum(1 for r in rows if r["scope"] == "disagreement") == 6


def test_lcc_layers(capsys: pytest.CaptureFixture[str]):
    """The closing note's table: LCC's gold against the annotator's layer."""
    code, out, err = run(capsys, "agree", LCC, "--layers",
                         "manualCoreferences@1,manualCoreferences@2", "--label", "gold",
                         "--label", "annotator", "-q")
    assert code == 0 and err == ""
    assert "2 annotators (gold, annotator), 30 documents" in out
    assert "gold–annotator        30   81.32" in out


@pytest.mark.parametrize("rule, decided, left_open", [
    ("majority", 0, 15), ("union", 0, 15), ("intersection", 0, 13)])
def test_merge_writes_a_draft_with_the_disagreements_marked(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, rule: str, decided: int,
        left_open: int):
    """Two annotators: nothing is decided by vote. 15 mentions both marked, 'costs' by one
    (kept and open, or dropped by intersection). Of the kept mentions only 'the day' and
    'Critics' have the same chain (a singleton) for both: the other 13 chains are open, and
    'costs' has no chain of the other's (majority, union: 1 + 14 open; intersection 13)."""
    out = tmp_path / "draft.conllu"
    code, text, _ = run(capsys, "agree", KEY, RESPONSE, "--merge", rule, "-o", out)
    assert code == 0
    assert f"adjudication draft ({rule} of 2 annotators, 2 documents): {decided} decided by " \
           f"vote, {left_open} left open" in text
    assert f"wrote {out}" in text
    draft = list(corefkit.read(out))
    assert [d.name for d in draft] == ["news/mary", "news/committee"]
    marked = [m for d in draft for m in d.mentions if "disagreement" in m.attrs]
    assert marked and all(str(m.attrs["disagreement"]) for m in marked)
    costs = [m for d in draft for m in d.mentions if d.text(m) == "costs"]
    assert len(costs) == (0 if rule == "intersection" else 1)   # only ann marked it
    if costs:
        assert "mention 1/2 open" in str(costs[0].attrs["disagreement"])


def test_merge_json_counts(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    code, text, _ = run(capsys, "agree", KEY, RESPONSE, "--merge", "union", "-o",
                        tmp_path / "d.conllu", "-f", "json")
    merge = json.loads(text)["merge"]
    assert code == 0 and merge["rule"] == "union"
    assert merge["mentions"]["open"] == 1 and merge["mentions"]["agreed"] == 15


def test_merge_to_a_folder_in_another_format(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path):
    out = tmp_path / "draft"
    code, _, _ = run(capsys, "agree", KEY, RESPONSE, "--merge", "majority", "-o", out,
                     "--to", "conll2012", "-q")
    assert code == 0 and sorted(p.name for p in out.iterdir()) == \
        ["news_committee.conll", "news_mary.conll"]


def test_html(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    page = tmp_path / "agree.html"
    code, _, err = run(capsys, "agree", KEY, RESPONSE, "--html", page)
    assert code == 0 and f"wrote {page}" in err
    text = page.read_text(encoding="utf-8")
    assert '"kind":"agree"' in text.replace(" ", "") and "Every disagreement" in text


@pytest.mark.parametrize("args, message", [
    (["--merge", "union"], "needs both --merge RULE and -o OUTPUT"),
    (["--label", "one"], "1 labels given for 2 annotations"),
    (["--label", "a", "--label", "a"], "a"),
    (["--match", "fuzzy"], "fuzzy"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                             message: str):
    code, out, err = run(capsys, "agree", KEY, RESPONSE, *args)
    assert code == 2 and out == "" and message in err
    assert "Traceback" not in err


def test_one_annotation_is_a_usage_error(capsys: pytest.CaptureFixture[str]):
    code, _, err = run(capsys, "agree", KEY)
    assert code == 2 and "two or more annotations" in err


def test_an_existing_output_is_never_overwritten(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path):
    out = tmp_path / "draft.conllu"
    out.write_text("mine\n")
    code, _, err = run(capsys, "agree", KEY, RESPONSE, "--merge", "union", "-o", out)
    assert code == 2 and "exists" in err and out.read_text() == "mine\n"


def test_bad_input_is_one_line_and_exit_1(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path):
    broken = tmp_path / "broken.conll"
    broken.write_text("#begin document (d); part 000\nd\t0\t0\tword\n#end document\n")
    code, out, err = run(capsys, "agree", KEY, broken, "--from", "conll2012")
    assert code == 1 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1 and str(broken) in err


def test_documents_annotated_by_nobody_else_are_refused(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path):
    other = tmp_path / "other.conll"
    other.write_text(KEY.read_text().replace("news/mary", "news/x")
                     .replace("news/committee", "news/y"))
    code, _, err = run(capsys, "agree", KEY, other, "-q")
    assert code == 1 and "no document is annotated by two or more" in err


def test_an_inception_project_export(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    """annotation/<document>/<user>.tsv: the users are the annotators; --curation adds
    curation/<document>/CURATION_USER.tsv; a document one user annotated is left out, said."""
    gum = CORPORA / "webanno-tsv/gum"
    project = tmp_path / "project"
    art = gum / "GUM_academic_art.tsv"
    for folder in ("annotation/art", "annotation/ballet", "curation/art"):
        (project / folder).mkdir(parents=True)
    (project / "annotation/art/anna.tsv").write_bytes(art.read_bytes())
    (project / "curation/art/CURATION_USER.tsv").write_bytes(art.read_bytes())
    (project / "annotation/ballet/anna.tsv").write_bytes((gum / "GUM_whow_ballet.tsv")
                                                         .read_bytes())
    (doc,) = list(corefkit.read(art))
    dropped = next(m for m in doc.sorted_mentions() if doc.text(m) == "interestingness")
    doc.remove_mention(dropped)
    corefkit.write([doc], project / "annotation/art/ben.tsv", "webanno-tsv")
    code, out, err = run(capsys, "agree", project, "--curation", "-f", "json")
    data = json.loads(out)
    assert code == 0 and data["annotators"] == ["anna", "ben", "curation"]
    assert "document 'ballet' has 1 annotation file: left out" in err
    assert data["pairs"][1]["mentions"]["exact"]["exact"]["f1"] == "1"   # anna–curation
    only = [d for d in data["disagreements"] if d["category"] == "mention"]
    assert [(d["first"], d["second"], d["places"][0]["text"]) for d in only] == \
        [("anna", "ben", "interestingness"), ("ben", "curation", "interestingness")]
