"""Scoring jsonlines from the command line: a CoNLL-2012 key against its jsonlines conversion
scores 100 on every metric; a perturbed jsonlines response scores exactly what the same
response converted to CoNLL-2012 scores; a response whose words differ from the key's is
refused at the first differing word; the README's commands run on the bundled data."""

from __future__ import annotations

import json
from pathlib import Path

from corefkit.cli.main import main
from tests.conftest import CORPORA, ROOT, SHARED

LITBANK = sorted((CORPORA / "litbank").glob("*.conll"))


def score_json(capsys, key: Path, response: Path, *extra: str) -> dict:
    code = main(["score", str(key), str(response), "-f", "json", "-q", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def perturbed(record: dict) -> dict:
    """A system's response: one mention dropped, one moved to another cluster, one added."""
    clusters_ = [list(c) for c in record["clusters"]]
    big = max(range(len(clusters_)), key=lambda i: len(clusters_[i]))
    clusters_[big] = clusters_[big][1:]
    other = next(i for i, c in enumerate(clusters_) if i != big and len(c) > 1)
    clusters_[other].append(clusters_[big].pop())
    clusters_.append([[0, 2]])
    return dict(record, clusters=clusters_)


def test_conll_key_against_its_jsonlines_scores_100(capsys, tmp_path):
    key = LITBANK[0]
    response = tmp_path / "response.jsonlines"
    assert main(["convert", str(key), str(response), "-q"]) == 0
    result = score_json(capsys, key, response)
    assert result["documents"] == 1
    for name, metric in result["metrics"].items():
        values = metric.get("exact", metric)
        assert all(v in ("1", 1, 1.0, "1/1", 100, 100.0) or str(v).split("/")[0] ==
                   str(v).split("/")[-1] for k, v in values.items() if k != "counts"), (name,
                                                                                          values)


def test_a_jsonlines_response_scores_as_its_conll_conversion(capsys, tmp_path):
    key = LITBANK[1]
    (tmp_path / "gold.jsonlines").write_text("")
    assert main(["convert", str(key), str(tmp_path / "gold.jsonlines"), "-q"]) == 0
    record = json.loads((tmp_path / "gold.jsonlines").read_text())
    response = tmp_path / "response.jsonlines"
    response.write_text(json.dumps(perturbed(record)) + "\n")
    assert main(["convert", str(response), str(tmp_path / "response.conll"), "-q"]) == 0
    from_jsonlines = score_json(capsys, key, response)
    from_conll = score_json(capsys, key, tmp_path / "response.conll")
    assert from_jsonlines["metrics"] == from_conll["metrics"]
    assert from_jsonlines["metrics"]["muc"] != score_json(capsys, key, key)["metrics"]["muc"]


def test_a_response_with_other_words_names_the_first_one(capsys, tmp_path):
    key = LITBANK[0]
    converted = tmp_path / "c.jsonlines"
    assert main(["convert", str(key), str(converted), "-q"]) == 0
    record = json.loads(converted.read_text())
    record["sentences"][1][2] = "XYZ"
    response = tmp_path / "r.jsonlines"
    response.write_text(json.dumps(record) + "\n")
    offset = len(record["sentences"][0]) + 3
    code = main(["score", str(key), str(response), "-q"])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert f"word {offset} is " in err and "but 'XYZ' in the response" in err
    assert "(pair.tokens)" in err and "105_persuasion_brat" in err  # validate --pair's id
    code = main(["validate", str(key), str(response), "--pair"])
    out = capsys.readouterr().out
    assert code == 1 and f"{response}:1: [ERROR] pair.tokens: word {offset} is " in out
    # a response of other documents only pairs nothing: refused (issue 22: it scored 0.00,
    # exit 0); --lenient scores the key as missed, with a warning
    record["doc_key"] = "other_0"
    response.write_text(json.dumps(record) + "\n")
    code = main(["score", str(key), str(response), "-m", "muc"])
    assert code == 1 and "(pair.documents)" in capsys.readouterr().err
    code = main(["score", str(key), str(response), "-m", "muc", "--lenient"])
    assert code == 0 and "missing from the response" in capsys.readouterr().err


def test_the_readme_commands_run(capsys, tmp_path, monkeypatch):
    page = ROOT / "docs" / "guides" / "score-a-system.md"
    section = page.read_text().split("## From a neural system's output", 1)[1]
    block = section.split("```console\n", 1)[1].split("```", 1)[0]
    commands = [line.split()[2:] for line in block.splitlines() if line.startswith("$ corefkit ")]
    assert len(commands) >= 5
    monkeypatch.chdir(tmp_path)
    for command in commands:
        args = [a.replace("../shared", str(SHARED)) for a in command]
        code = main([*args, "-q"])
        _, err = capsys.readouterr()
        assert code == 0, (command, err)
    assert "100.00" in main_output(capsys, ["score", str(LITBANK[0]), "gold.jsonlines", "-m",
                                            "conll", "-q"])


def main_output(capsys, args: list[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


