"""``corefkit report`` and ``corefkit.report`` without a browser: what the page holds, that it
holds nothing from elsewhere, the numbers against ``score``/``analyze``/``compare``, the data
of the document browser (zeros, discontinuous mentions, split antecedents, bridging,
non-referring markables, errors) and the atomic write."""

from __future__ import annotations

import importlib
import json
import os
import re
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.report.documents import document_json
from corefkit.report.systems import unique_labels
from tests.conftest import ROOT
from tests.report.helpers import features_document

EXAMPLE = ROOT / "examples/conll2012"
def test_document_json_shows_every_kind_of_markable():
    key, response = features_document(), features_document(response=True)
    data = document_json([key, response], [[]], ["span_error"])
    assert data["t"][4] == "_" and data["z"] == [4] and data["s"] == [0, 4]
    side = data["sides"][0]
    mentions = side["m"]
    dog = next(m for m in mentions if m[2] == 13)
    assert dog[2:] == [13, 14, 17, 17]                  # discontinuous: two parts
    zero = next(m for m in mentions if m[2] == 4)
    assert zero[1] == 3 and zero[0] == mentions[0][0]   # type "zero", Ann's entity
    it = next(n for n, m in enumerate(mentions) if m[2] == 8)
    assert mentions[it][0] == -1 and side["nr"] == {it: "expletive"}
    (set_entity, members), = side["sets"]
    assert sorted(members) == [0, 1] and set_entity == 2
    assert side["br"] == [[mentions.index(dog), 2, "poss", -1]]
    # the response's Ann entity takes the key's colour; 'him' joined it there
    assert data["sides"][1]["e"][0][1] == side["e"][0][1] == 0


def test_report_from_documents_maps_errors_to_mentions(tmp_path: Path):
    key, response = features_document(), features_document(response=True)
    built = corefkit.report([key], [response], labels=["sys"], output=tmp_path / "r.html")
    analysis = corefkit.analyze([key], [response])
    assert built.systems[0].analysis.counts == analysis.counts
    categories = {e.category for e in analysis.errors}
    assert "missing_mention" in categories or "missing_zero" in categories
    (doc,) = list(built.documents_json())
    errors = doc["sides"][1]["err"]
    assert len(errors) == len(analysis.errors)
    assert all(refs for _, _, refs in errors)           # every error shows on a mention
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert html.count('<script type="application/json" id="doc-') == 1


def test_a_document_a_system_lacks_keeps_its_errors():
    key = list(corefkit.read(EXAMPLE / "key.conll"))
    response = list(corefkit.read(EXAMPLE / "response.conll"))[:1]
    built = corefkit.report(key, response, labels=["half"])
    assert any(w.check == "score.missing-document" for w in built.warnings)
    first, second = built.documents_json()
    assert first["sides"][1]["m"] and "x" not in first["sides"][1]
    lacking = second["sides"][1]
    assert lacking["x"] == 1 and lacking["m"] == []
    assert {e[0] for e in lacking["err"]} <= {6, 8}          # missing mentions and entities
    assert all(refs and all(side == 0 for side, _ in refs) for _, _, refs in lacking["err"])


def test_comparison_numbers_are_those_of_score_analyze_and_compare(tmp_path: Path):
    key, response = EXAMPLE / "key.conll", EXAMPLE / "response.conll"
    built = corefkit.report(key, response, key, labels=["a", "perfect"],
                            permutations=500, bootstrap=200, seed=3)
    score = corefkit.score(key, response)
    for name, result in score.metrics.items():
        assert built.systems[0].score.metrics[name].f1 == result.f1
    assert built.systems[1].score.metrics["conll"].f1 == 1
    assert built.systems[0].analysis.counts == corefkit.analyze(key, response).counts
    from corefkit.evaluation.compare import compare

    found = compare([(key, response, "a"), (key, key, "perfect")], metrics="muc,bcub,conll",
                    types="generic", permutations=500, bootstrap=200, seed=3)
    expected = {t.metric: t.p_value for t in found.tests}
    mine = {t.metric: t.p_value for t in built.tests}
    assert {m: mine[m] for m in expected} == expected
    assert all(t.a == "a" and t.b == "perfect" for t in built.tests)


def test_page_is_self_contained(tmp_path: Path):
    doc = features_document()
    doc.tokens[1].form = "</script><script>alert(1)</script>"
    response = features_document(response=True)  # the same words (pair.tokens otherwise)
    response.tokens[1].form = doc.tokens[1].form
    out = tmp_path / "r.html"
    corefkit.report([doc], [response], output=out)
    html = out.read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html and "\\u003c/script>" in html
    urls = set(re.findall(r"""\s(?:src|srcset|href|action|poster)=["']([^"']*)""", html))
    urls |= set(re.findall(r"""url\(\s*["']?([^"')]+)""", html))
    assert urls <= {"data:,"}, urls
    assert "@import" not in html and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in html
    assert "default-src 'none'" in html                 # the browser refuses any request
    index = re.search(r'<script type="application/json" id="report-index">(.*?)</script>',
                      html).group(1)
    assert json.loads(index)["sides"] == ["key", "system1"]


def test_write_is_atomic_and_follows_the_umask(tmp_path: Path, monkeypatch):
    out = tmp_path / "r.html"
    out.write_text("old")
    built = corefkit.report(EXAMPLE / "key.conll")
    build_module = importlib.import_module("corefkit.report.build")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(build_module, "write_page", broken)
    with pytest.raises(RuntimeError):
        built.write(out)
    assert out.read_text() == "old" and os.listdir(tmp_path) == ["r.html"]
    monkeypatch.undo()
    out.chmod(0o600)
    fresh = tmp_path / "new.html"
    old = os.umask(0o027)
    try:
        built.write(out)
        built.write(fresh)
    finally:
        os.umask(old)
    # a new file gets the umask's rights; a replaced one keeps its own (issue 22)
    assert fresh.stat().st_mode & 0o777 == 0o640 and out.stat().st_mode & 0o777 == 0o600
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_labels():
    assert unique_labels([], ["a/ami.2022.mild.conllua", "b/ami.2022.heavy.conllua"]) == \
        ["mild", "heavy"]
    assert unique_labels([], ["x/response.conll", "y/response.conll"]) == \
        ["response", "response-2"]
    assert unique_labels(["A"], ["sys.conll", "other.conll"]) == ["A", "other"]


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_comparison_and_corpus(tmp_path: Path, capsys):
    out = tmp_path / "r.html"
    code, _, err = run(capsys, "report", EXAMPLE / "key.conll", EXAMPLE / "response.conll",
                       EXAMPLE / "key.conll", "--label", "sys", "--label", "gold", "-o", out,
                       "--permutations", "200", "--bootstrap", "100")
    assert code == 0 and f"wrote {out} (2 documents, 2 systems)" in err
    html = out.read_text(encoding="utf-8")
    assert 'data-tab="errors"' in html and "sys" in html and "gold" in html
    code, _, err = run(capsys, "report", EXAMPLE / "key.conll", "-o", out, "-q")
    assert code == 0 and err == ""
    assert 'data-tab="statistics"' in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("args, message", [
    (["--label", "a", "--label", "a"], "every --label must be different"),
    (["--label", "a", "--label", "b", "--label", "c"], "3 labels given for 2 responses"),
    (["--alpha", "2"], "--alpha must lie between 0 and 1"),
])
def test_cli_usage_errors(tmp_path: Path, capsys, args, message):
    code, _, err = run(capsys, "report", EXAMPLE / "key.conll", EXAMPLE / "response.conll",
                       EXAMPLE / "key.conll", *args, "-o", tmp_path / "r.html")
    assert code == 2 and message in err
    assert not (tmp_path / "r.html").exists()


def test_cli_missing_input(tmp_path: Path, capsys):
    code, _, err = run(capsys, "report", tmp_path / "nothing.conll", "-o", tmp_path / "r.html")
    assert code != 0 and "nothing.conll" in err and "Traceback" not in err


def test_callable_package():
    import corefkit.report as package

    assert callable(package) and callable(corefkit.report)
    built = corefkit.report(EXAMPLE / "key.conll")
    assert built.kind == "corpus" and len(built.key) == 2
