"""JSON that Python's parser cannot take is a located error, never an internal one (issue 22).

Nesting deeper than the parser's recursion allows raised RecursionError, and an integer of more
than 4,300 digits ValueError: exit 3 ("internal error") from a user's file. Generated inputs
for every JSON-based input corefkit reads — LCC files and the content of their layers, every
jsonlines record, MMAX2 level maps, mention-type rules, type-code schemes, task files — give
exit 1 (2 for the option files) and one line with file, line and column.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from corefkit.cli.main import main
from corefkit.converters.jsontext import locate, parse, show_path
from corefkit.errors import FormatError
from tests.conftest import CORPORA

LCC = CORPORA / "lcc/116352.nkas.json"
JSONLINES = CORPORA / "system-outputs/fastcoref/out_test.jsonlines"
DEEP = "[" * 50_000 + "]" * 50_000
LONG = "7" * 5_000


def run(capsys, *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def one_located_line(err: str, path: Path) -> tuple[int, int]:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in err and "Traceback" not in err, err
    found = re.match(rf"corefkit: error: {re.escape(str(path))}:(\d+):(\d+): ", lines[0])
    assert found, lines[0]
    return int(found.group(1)), int(found.group(2))


def lcc_with(edit) -> str:
    data = json.loads(LCC.read_text(encoding="utf-8"))
    edit(data)
    return json.dumps(data, ensure_ascii=False, indent=1)


def coreference_layer(data: dict) -> dict:
    return next(layer for layer in data["annotationLayers"]
                if layer["type"] == "manualCoreferences")


LCC_CASES = {
    "whole-file-deep": lambda: DEEP,
    "whole-file-long-number": lambda: LCC.read_text(encoding="utf-8").replace(
        '"corpusId":109', f'"corpusId":{LONG}'),
    "value-deep": lambda: lcc_with(lambda d: d.update(comment=json.loads("[" * 500 + "]" * 500))
                                   ).replace('"comment":', '"comment": ' + "[" * 3000 + "]" * 3000
                                             + ', "x":', 1),
    "layer-content-deep": lambda: lcc_with(lambda d: coreference_layer(d).update(
        content='{"coreferences": ' + "[" * 5000 + "]" * 5000 + "}")),
    "layer-content-long-number": lambda: lcc_with(lambda d: coreference_layer(d).update(
        content='{"coreferences": [{"Referant": [' + LONG + ", 3]}]}")),
}


@pytest.mark.parametrize("name", list(LCC_CASES))
def test_lcc(name, tmp_path, capsys):
    path = tmp_path / "x.nkas.json"
    path.write_text(LCC_CASES[name](), encoding="utf-8")
    for args in (["stats", path], ["convert", path, tmp_path / "x.conll"], ["score", path, path]):
        code, err = run(capsys, *args)
        assert code == 1, (args[0], err)
        line, column = one_located_line(err, path)
        assert "(lcc." in err
    code, out = main(["validate", str(path)]), capsys.readouterr().out
    assert code == 1 and "internal error" not in out


def test_lcc_places_are_where_the_value_is(tmp_path, capsys):
    path = tmp_path / "x.nkas.json"
    path.write_text(LCC_CASES["whole-file-long-number"](), encoding="utf-8")
    code, err = run(capsys, "stats", path)
    line, column = one_located_line(err, path)
    text = path.read_text(encoding="utf-8").split("\n")[line - 1]
    assert text[column - 1:].startswith(LONG[:20]) and "5,000 digits" in err


@pytest.mark.parametrize("value", [DEEP, LONG, '{"text": "a b", "clusters": ' + DEEP + "}"])
def test_jsonlines(value, tmp_path, capsys):
    path = tmp_path / "x.jsonlines"
    first = JSONLINES.read_text(encoding="utf-8").splitlines()[0]
    record = value if value.startswith("{") else first.replace('"clusters": [', '"x": '
                                                                + value + ', "clusters": [', 1)
    path.write_text(first + "\n" + record + "\n", encoding="utf-8")
    for args in (["stats", path], ["convert", path, tmp_path / "x.conll"],
                 ["validate", path]):
        code, err = run(capsys, *args)
        assert code == 1 and "internal error" not in err, err
        if args[0] != "validate":
            line, _ = one_located_line(err, path)
            assert line == 2 and "(jsonlines.bad-json)" in err


def test_a_deep_first_line_is_no_format_not_a_crash(tmp_path, capsys):
    path = tmp_path / "x.jsonlines"
    path.write_text(DEEP + "\n", encoding="utf-8")
    code, err = run(capsys, "stats", path)
    assert code in (1, 2) and "internal error" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("content", [DEEP, '{"classes": [' + LONG + "]}"])
def test_option_files(content, tmp_path, capsys):
    """JSON files named by options: bad usage (exit 2), located."""
    table = tmp_path / "table.json"
    table.write_text(content, encoding="utf-8")
    key = CORPORA / "litbank/105_persuasion_brat.conll"
    for args in (["score", key, key, "-m", "dominant", "--dominant-scheme", table],
                 ["score", key, key, "--by-type", "nested", "--type-rules", table],
                 ["stats", key, "--type-table", table]):
        code, err = run(capsys, *args)
        assert code == 2 and "internal error" not in err, (args, err)
        assert re.search(rf"{re.escape(str(table))}:\d+:\d+: ", err), (args, err)
    task = tmp_path / "task.json"
    task.write_text(content, encoding="utf-8")
    code, err = run(capsys, "task", task, tmp_path)
    assert code == 2 and re.search(rf"{re.escape(str(task))}:\d+:\d+: ", err), err


def test_mmax2_level_map(tmp_path, capsys):
    level_map = tmp_path / "map.json"
    level_map.write_text(DEEP, encoding="utf-8")
    project = next((CORPORA / "mmax2").rglob("*.mmax"))
    code, err = run(capsys, "stats", project, "--mmax-map", level_map)
    assert code in (1, 2) and "internal error" not in err
    assert re.search(rf"{re.escape(str(level_map))}:1:\d+: ", err), err


# ---------------------------------------------------------------------------- the locator
def test_locate_finds_values_by_path():
    text = '{\n "a": [1, {"b": "x,]}"}, [2]],\n "c": {"d": null}\n}'
    assert locate(text, ["a", 1, "b"]) == (2, 17)
    assert locate(text, ["a", 2, 0]) == (2, 27)
    assert locate(text, ["c", "d"]) == (3, 13)
    assert locate(text, ["a", 5]) is None and locate(text, ["x"]) is None
    assert show_path(["annotationLayers", 3, "content"]) == "annotationLayers[3].content"


def test_parse_locates_each_failure():
    with pytest.raises(FormatError) as caught:
        parse('{"a": 1,\n "b": [' + LONG + "]}", file="f.json", check="x.bad")
    assert (caught.value.line, caught.value.column) == (2, 8)
    with pytest.raises(FormatError) as caught:
        parse("\n" + DEEP, file="f.json", check="x.bad", first_line=10)
    assert caught.value.line == 11 and caught.value.check == "x.bad"
    with pytest.raises(FormatError) as caught:
        parse('{"a": }', file="f.json", check="x.bad")
    assert (caught.value.line, caught.value.column) == (1, 7)
