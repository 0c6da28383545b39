"""Type-restricted B³ (``by_type``, ``corefkit score --by-type``): hand-computed values,
equality with B³ for a type every mention has, reports, and missing annotation layers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from tests.conftest import CONFORMANCE, CORPORA, FIXTURES

TYPES = FIXTURES / "types"
DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"
GUM = CORPORA / "gum"


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def every_mention(view, mention):
    return True


@pytest.mark.parametrize("key, response", [
    (DATA / "TC-A.key", DATA / "TC-A-4.response"),           # reference semantics
    (DATA / "TC-M.key", DATA / "TC-M-6.response"),
    (GUM / "dep" / "GUM_letter_arendt.conllu",                # CorefUD semantics
     GUM / "coref-ontogum-conllu" / "GUM_letter_arendt.conllu"),
])
def test_a_type_every_mention_has_gives_b_cubed(key, response):
    """Type-restricted B³ sums B³'s per-mention terms over the mentions of the type only."""
    report = corefkit.score(key, response, metrics="bcub,by_type", metric_options={
        "by_type": {"types": ["every"], "predicates": {"every": every_mention}}}, lenient=True)
    every = report.metrics["by_type"].counts["every"]
    assert every.counts == report.metrics["bcub"].counts
    assert every.f1 == report.metrics["bcub"].f1


def response_without_copula(tmp_path: Path) -> Path:
    """The fixture with 'a teacher' split off John Smith's entity."""
    text = (TYPES / "types.conllu").read_text()
    text = text.replace("9\tcop\t_\t_\n8\ta\ta\tDET\tDT\tDefinite=Ind|PronType=Art\t9\tdet\t_\t"
                        "Entity=(e1-person-2",
                        "9\tcop\t_\t_\n8\ta\ta\tDET\tDT\tDefinite=Ind|PronType=Art\t9\tdet\t_\t"
                        "Entity=(e10-person-2")
    text = text.replace("0\troot\t_\tEntity=e1)", "0\troot\t_\tEntity=e10)")
    assert text.count("e10") == 2
    path = tmp_path / "response.conllu"
    path.write_text(text)
    return path


def test_hand_computed_type_restricted_scores(tmp_path):
    """Key: John Smith = the CEO = a teacher; the response splits 'a teacher' off.

    copular (key: John Smith, a teacher): recall (2/3 + 1/3) / 2 = 1/2; the response has no
    copular mention left (they no longer corefer): precision 0/0, F1 0.
    generic (a teacher, Dogs, Sales, analysts on both sides): recall (1/3 + 1 + 1 + 1) / 4
    = 5/6, precision 1, F1 10/11. appositive (John Smith, the CEO): recall 2/3, precision 1.
    """
    report = corefkit.score(TYPES / "types.conllu", response_without_copula(tmp_path),
                            metrics="by_type")
    counts = report.metrics["by_type"].counts
    copular = counts["copular"]
    assert (copular.recall, copular.precision, copular.f1) == (Fraction(1, 2), 0, 0)
    assert (copular.key_mentions, copular.response_mentions) == (2, 0)
    generic = counts["generic"]
    assert (generic.recall, generic.precision, generic.f1) == (Fraction(5, 6), 1, Fraction(10, 11))
    assert (generic.key_mentions, generic.response_mentions) == (4, 4)
    appositive = counts["appositive"]
    assert (appositive.recall, appositive.precision) == (Fraction(2, 3), 1)
    for name in ("nested", "compound", "vp"):  # untouched mentions
        assert counts[name].f1 == 1
    data = report.to_json()["metrics"]["by_type"]
    assert list(data) == ["nested", "generic", "compound", "copular", "vp", "appositive"]
    assert data["generic"]["exact"]["f1"] == "10/11"
    assert {k: data["copular"][k] for k in ("recall", "precision", "f1", "key_mentions",
                                             "response_mentions")} == {
        "recall": 0.5, "precision": 0.0, "f1": 0.0, "key_mentions": 2, "response_mentions": 0}


def test_the_same_scores_from_conll2012_pos_and_parse(tmp_path):
    """The CoNLL-2012 copy of the fixture (POS, parse bits) types mentions as the CoNLL-U
    one does: scoring it against itself gives 1 everywhere, with the same mention counts."""
    ud = corefkit.score(TYPES / "types.conllu", TYPES / "types.conllu", metrics="by_type")
    ptb = corefkit.score(TYPES / "types.conll", TYPES / "types.conll", metrics="by_type")
    for name, c in ud.metrics["by_type"].counts.per_type.items():
        other = ptb.metrics["by_type"].counts[name]
        assert (c.key_mentions, c.f1) == (other.key_mentions, other.f1)
    assert not ptb.warnings


def test_missing_layers_are_reported_not_scored_as_zero():
    report = corefkit.score(TYPES / "types-nopos.conll", TYPES / "types-nopos.conll",
                            metrics="by_type", metric_options={"by_type": {"types": "generic,nested"}})
    generic = report.metrics["by_type"].counts["generic"]
    assert generic.recall is None and generic.precision is None and generic.f1 is None
    assert (generic.key_undecided, generic.response_undecided) == (15, 15)
    assert report.metrics["by_type"].counts["nested"].f1 == 1
    assert [w.message for w in report.warnings if w.check == "by-type.untested"] == [(
        "by_type: 15 key and 15 response mentions could not be tested for 'generic' (documents "
        "without syntax (a CoNLL-U tree, CoNLL-2012 parse bits): types); by_type.generic has no "
        "recall and no precision")]
    data = report.to_json()["metrics"]["by_type"]["generic"]
    assert data["recall"] is None and data["f1"] is None and data["key_undecided"] == 15
    assert "n/a" in report.to_table()


def test_gum_conll_without_pos_warns_on_real_data():
    """GUM's own CoNLL-2012 export has token, form and coreference only."""
    path = GUM / "coref-gum-conll" / "GUM_letter_arendt.conll"
    report = corefkit.score(path, path, metrics="by_type")
    by_type = report.metrics["by_type"].counts
    assert by_type["nested"].f1 == 1 and by_type["nested"].key_mentions == 3
    assert by_type["generic"].f1 is None and by_type["vp"].f1 is None
    assert any("could not be tested for 'compound'" in str(w) for w in report.warnings)
    # no sentence breaks in this export: "[John] . [He]" must not pass for an apposition
    appositive = by_type["appositive"]
    assert appositive.f1 is None and appositive.key_undecided == 150
    assert any("'appositive' (documents without sentence breaks" in str(w) for w in report.warnings)


# ---------------------------------------------------------------------------- command line
def test_cli_by_type_json_table_csv(capsys, tmp_path):
    response = response_without_copula(tmp_path)
    code, out, err = run(capsys, "score", TYPES / "types.conllu", response, "-m", "bcub",
                         "--by-type", "generic,copular", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data["metrics"]) == ["bcub", "by_type"]
    assert set(data["metrics"]["by_type"]) == {"generic", "copular"}
    assert data["metrics"]["by_type"]["generic"]["f1"] == pytest.approx(10 / 11)
    code, out, _ = run(capsys, "score", TYPES / "types.conllu", response, "-m", "bcub",
                       "--by-type", "generic,copular", "-f", "csv")
    rows = [line.split(",")[:2] for line in out.splitlines()[1:]]
    assert rows == [["*", "bcub"], ["*", "by_type.generic"], ["*", "by_type.copular"]]
    code, out, _ = run(capsys, "score", TYPES / "types.conllu", response, "--by-type", "all")
    assert "B³ by mention type" in out and "\nappositive " in out
    assert "\nmor " in out  # --by-type adds to the default list of CoNLL-U scoring


def test_cli_per_document_and_rules(capsys):
    code, out, err = run(capsys, "score", TYPES / "types.conllu", TYPES / "types.conllu",
                         "-m", "muc", "--by-type", "pronominal,vp", "--type-rules",
                         TYPES / "rules.json", "--per-document", "-f", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["metrics"]["by_type"]["pronominal"]["key_mentions"] == 3
    assert data["per_document"][0]["metrics"]["by_type"]["vp"]["key_mentions"] == 1


@pytest.mark.parametrize("args, message", [
    (["--by-type", "generics"], "unknown mention type 'generics'"),
    (["--type-rules", "/nonexistent/rules.json"], "cannot read the mention-type rules"),
])
def test_cli_by_type_usage_errors(capsys, args, message):
    code, out, err = run(capsys, "score", TYPES / "types.conllu", TYPES / "types.conllu", *args)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_readme_examples_of_by_type_run():
    """The documentation's rule file example (examples/mention-types/rules.json, shown on
    docs/reference/mention-types.md) loads, and its Python example scores."""
    import re

    from corefkit.analysis.predicates import load_rules, unregister_predicate
    from tests.conftest import ROOT

    page = (ROOT / "docs" / "reference" / "mention-types.md").read_text()
    section = page.split("### Rule files", 1)[1]
    assert "$ cat examples/mention-types/rules.json" in section
    rules = json.loads((ROOT / "examples" / "mention-types" / "rules.json").read_text())
    assert [p.name for p in load_rules(rules)] == ["pronominal", "definite", "bare-plural"]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL).group(1)
    # the page's example scores a GUM document; here the hand-made types fixture
    code = re.sub(r"^key = response = .*$", "", code, flags=re.M)
    code = code.replace('unregister_predicate("first-person")', "")
    scope = {"corefkit": corefkit, "key": TYPES / "types.conllu",
             "response": TYPES / "types.conllu"}
    try:
        exec(compile(code, "mention-types.md", "exec"), scope)  # noqa: S102 - the page's example
    finally:
        unregister_predicate("first-person")
    by_type = scope["report"].metrics["by_type"].counts
    assert by_type["first-person"].key_mentions == 1 and by_type["generic"].f1 == 1
