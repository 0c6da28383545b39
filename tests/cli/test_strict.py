"""Strict by default (issue 13): malformed input made from real files is refused by every
command with exit 1 and one line naming file, line and check; ``--lenient`` repairs it and says
so; ``validate`` exits 1."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import CORPORA

GUM = CORPORA / "gum/dep/GENTLE_esports_fortnite.conllu"
AMI = CORPORA / "codi-crac22/AMI_dev_v2.2022.ES2004a.CONLLUA"
LITBANK = CORPORA / "litbank/105_persuasion_brat.conll"
LCC = CORPORA / "lcc/116352.nkas.json"


def token_id_x(text: str) -> str:
    """The first word id of the file becomes 'X': a line that starts with no digit (the UD
    validator's invalid-line)."""
    return re.sub(r"^1\t", "X\t", text, count=1, flags=re.M)


def without_identity(text: str) -> str:
    """Every token line keeps only its first 6 of 15 columns, TAB-separated."""
    lines = [line if line.startswith("#") or not line.strip() else "\t".join(line.split()[:6])
             for line in text.split("\n")]
    return "\n".join(lines)


def truncated(text: str) -> str:
    """The file is cut in the middle of a token line (a partial copy)."""
    start = text.index("\n1004 ")
    return text[:start + 12]


def unknown_split_antecedent(text: str) -> str:
    return text.replace("SplitAnte=132<168", "SplitAnte=9999<168", 1)


def offsets_outside_text(text: str) -> str:
    """The first mention of each coreference layer starts past the end of the text."""
    data = json.loads(text)
    for layer in data["annotationLayers"]:
        if layer["type"] == "manualCoreferences":
            content = json.loads(layer["content"])
            content["coreferences"][0]["Mentions"][0][0] = 10 ** 7
            layer["content"] = json.dumps(content)
    return json.dumps(data, ensure_ascii=False, indent=1)


# name, source file, mutation, suffix, the check refused, the line it names
CASES: list[tuple[str, Path, Callable[[str], str], str, str, int | None]] = [
    ("token-id-x", GUM, token_id_x, ".conllu", "corefud.invalid-line", 26),
    ("no-identity", AMI, without_identity, ".conllua", "ua.missing-identity", 7),
    ("truncated", AMI, truncated, ".conllua", "ua.truncated", None),
    ("no-end", LITBANK, lambda t: t.replace("#end document", ""), ".conll", "conll.missing-end", 1),
    ("empty", LITBANK, lambda t: "", ".conll", "file.no-documents", 1),
    ("split-unknown", GUM, unknown_split_antecedent, ".conllu",
     "corefud.splitante-unknown-entity", None),
    ("lcc-outside", LCC, offsets_outside_text, ".nkas.json", "lcc.span-outside-text", None),
]


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def broken(request, tmp_path: Path) -> tuple[Path, Path, str, int | None]:
    name, source, mutate, suffix, check, line = request.param
    path = tmp_path / f"{name}{suffix}"
    path.write_text(mutate(source.read_text(encoding="utf-8")), encoding="utf-8")
    return source, path, check, line


def assert_refused(code: int, err: str, path: Path, check: str, line: int | None) -> None:
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    where = f"{path.name}:{line}:" if line is not None else f"{path.name}:"
    assert where in lines[0] and f"({check})" in lines[0], lines[0]


def test_every_command_refuses_it(broken, capsys, tmp_path: Path):
    source, path, check, line = broken
    commands = [
        ("score", source, path),
        ("score", path, path),
        ("convert", path, tmp_path / "converted.conllu"),
        ("normalize", path, tmp_path / f"normalized{''.join(path.suffixes)}",
         "--pass", "remove-singletons"),
        ("stats", path),
    ]
    for command in commands:
        if command[0] == "score" and command[1] == source and check == "file.no-documents":
            continue  # an empty response is read leniently as 'no document': the key is missed
        code, _, err = run(capsys, *command, "-q")
        assert_refused(code, err, path, check, line)
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # nothing written


def test_an_empty_response_is_refused_too(tmp_path: Path, capsys):
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    code, _, err = run(capsys, "score", LITBANK, empty, "-q")
    assert_refused(code, err, empty, "file.no-documents", 1)


def test_validate_exits_1(broken, capsys):
    _, path, check, _ = broken
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and check in out


def test_lenient_repairs_and_says_so(broken, capsys, tmp_path: Path):
    source, path, check, _ = broken
    if check == "file.no-documents":
        code, out, err = run(capsys, "stats", path, "--lenient")
        assert code == 1 and "holds no document" in err  # nothing to count, even leniently
        return
    code, _, err = run(capsys, "convert", path, tmp_path / "out.conllu", "--lenient")
    assert code == 0 and check in err, err
    key = path if check == "ua.truncated" else source  # a cut-off response misses words
    code, out, err = run(capsys, "score", key, path, "--lenient", "-m", "muc")
    assert code == 0 and "muc" in out and check in err
