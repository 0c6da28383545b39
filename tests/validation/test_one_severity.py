"""What ``validate`` calls an error, every command refuses (issue 22).

One registry of checks with one severity drives every command: readers report through the
registry's ids, and every command runs the validator's checks on what it reads
(``corefkit/converters/gate.py``). Each malformed input below was accepted by ``score``,
``convert`` and ``stats`` (a mention silently dropped, a document converted twice under one
name, a file cut off read as 0 tokens); ``validate`` reports an ERROR with id X, and every
other command refuses it with exit 1 in one line naming the file, the line and X;
``--lenient`` goes on with a warning. The inputs are real files with one thing broken.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import corefkit
from corefkit.cli.main import main
from tests.conftest import CORPORA

PERSUASION = CORPORA / "codi-crac22/Persuasion_train.2022.first10docs.CONLLUA"
GUM = CORPORA / "gum/dep/GENTLE_poetry_death.conllu"
LITBANK = CORPORA / "litbank/105_persuasion_brat.conll"
FASTCOREF = CORPORA / "system-outputs/fastcoref/out_test.jsonlines"


def ua_document(n: int = 0) -> str:
    """Document ``n`` of the Persuasion file, with the file's column declaration."""
    lines = PERSUASION.read_text(encoding="utf-8").split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("# newdoc")]
    return "\n".join([lines[0], *lines[starts[n]:starts[n + 1]]])


def corefud_1x(tmp: Path) -> str:
    """The GUM document in CorefUD 1.x notation (eid-etype-head-other), as corefkit writes it."""
    out = tmp / "corefud-1x.conllu"
    corefkit.write(corefkit.read(GUM), out, profile="corefud")
    return out.read_text(encoding="utf-8")


def element_of_unknown(tmp: Path) -> str:
    text = ua_document(1)  # its first split antecedent: ElementOf=9 (children, people)
    assert "ElementOf=9 " in text
    return text.replace("ElementOf=9 ", "ElementOf=999 ", 1)


def repeated_entity(tmp: Path) -> str:
    """A second Entity item on a node: the reader keeps the first, the mention of the second
    was silently dropped."""
    return re.sub(r"(Entity=\(e1-person-1-[^\t\n|]*)", r"\1|Entity=(e9-person-1-)",
                  corefud_1x(tmp), count=1)


def head_outside(tmp: Path) -> str:
    text = corefud_1x(tmp)
    assert "Entity=(e1-person-1-" in text
    return text.replace("Entity=(e1-person-1-", "Entity=(e1-person-3-", 1)


def duplicate_document(tmp: Path) -> str:
    text = LITBANK.read_text(encoding="utf-8")
    return text + text


def cut_after_comments(tmp: Path) -> str:
    lines = ua_document().split("\n")
    at = [i for i, line in enumerate(lines) if line.startswith("# sent_id")][5]
    return "\n".join(lines[:at + 2]) + "\n"


def null_clusters(tmp: Path) -> str:
    records = [json.loads(line) for line in FASTCOREF.read_text(encoding="utf-8").splitlines()]
    records[1]["clusters"] = None
    return "".join(json.dumps(r) + "\n" for r in records)


def renamed_clusters(tmp: Path) -> str:
    records = [json.loads(line) for line in FASTCOREF.read_text(encoding="utf-8").splitlines()]
    records[0]["cluster"] = records[0].pop("clusters")
    return "".join(json.dumps(r) + "\n" for r in records)


def unknown_upos(tmp: Path) -> str:
    """A UD-validator error of the syntax layer, which the reader does not see."""
    text = GUM.read_text(encoding="utf-8")
    return re.sub(r"^(1\t[^\t]+\t[^\t]+\t)[A-Z]+\t", r"\1NOUNISH\t", text, count=1,
                  flags=re.M)


# name, builder, file name, the check validate reports and every command refuses
CASES: list[tuple[str, Callable[[Path], str], str, str]] = [
    ("ua-element-of-unknown", element_of_unknown, "x.conllua", "ua.set-without-mentions"),
    ("corefud-repeated-entity", repeated_entity, "x.conllu", "corefud.repeated-entity"),
    ("corefud-head-outside-mention", head_outside, "x.conllu",
     "corefud.mention-head-out-of-range"),
    ("conll-duplicate-document", duplicate_document, "x.conll", "conll.duplicate-document"),
    ("ua-cut-after-comments", cut_after_comments, "x.conllua", "ua.truncated"),
    ("jsonlines-null-clusters", null_clusters, "x.jsonlines", "jsonlines.null-clusters"),
    ("jsonlines-renamed-clusters", renamed_clusters, "x.jsonlines", "jsonlines.no-clusters"),
    ("corefud-unknown-upos", unknown_upos, "x.conllu", "corefud.unknown-upos"),
]


@pytest.fixture(params=CASES, ids=[c[0] for c in CASES])
def case(request, tmp_path: Path) -> tuple[Path, str]:
    _, build, name, check = request.param
    path = tmp_path / "in" / name
    path.parent.mkdir()
    path.write_text(build(tmp_path), encoding="utf-8")
    return path, check


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def commands(path: Path, out: Path) -> dict[str, list[object]]:
    suffix = "".join(path.suffixes)
    (out / "task").mkdir(parents=True)
    (out / "task" / "subs").mkdir()
    (out / "task" / "task.toml").write_text(
        f'gold = "{path}"\n[ranking]\nprimary = "muc"\n[significance]\ntest = "none"\n'
        '[submissions]\nlayout = "file"\n', encoding="utf-8")
    (out / "task" / "subs" / f"s{suffix}").write_bytes(path.read_bytes())
    return {
        "score": ["score", path, path],
        # (compare's by-type B3 has no split-antecedent form: UA files as crac18 scores them)
        "compare": ["compare", "--key", path, "--response", path, "--label", "a",
                    *(["--profile", "crac18"] if suffix == ".conllua" else [])],
        "analyze": ["analyze", path, path],
        "report": ["report", path, path, "-o", out / "r.html"],
        "task": ["task", out / "task" / "task.toml", out / "task" / "subs"],
        "convert": ["convert", path, out / "converted.conll"],
        "normalize": ["normalize", path, out / f"normalized{suffix}", "--pass",
                      "remove-singletons"],
        "stats": ["stats", path],
    }


def test_validate_reports_an_error_and_every_command_refuses_it(case, capsys, tmp_path):
    path, check = case
    code, out, _ = run(capsys, "validate", path)
    assert code == 1 and f"[ERROR] {check}:" in out, out
    line = re.search(rf"^{re.escape(str(path))}:(\d+): \[ERROR\] {re.escape(check)}:", out,
                     re.M)
    assert line is not None, out
    for name, args in commands(path, tmp_path / "out").items():
        code, _, err = run(capsys, *args, "-q")
        lines = err.strip().splitlines()
        assert code == 1 and len(lines) == 1, (name, err)
        assert str(path) in lines[0], (name, lines[0])
        if name == "task":  # the task names the gold's findings as validate prints them
            assert f"{path}:{line.group(1)}: [ERROR] {check}:" in lines[0], lines[0]
        else:
            assert f"({check})" in lines[0], (name, lines[0])
            assert f"{path}:{line.group(1)}" in lines[0], (name, lines[0], line.group(1))
    assert not (tmp_path / "out" / "converted.conll").exists()


def test_lenient_goes_on_with_a_warning(case, capsys, tmp_path):
    path, check = case
    for args in (["stats", path], ["convert", path, tmp_path / "converted.conll"],
                 ["score", path, path]):
        code, _, err = run(capsys, *args, "--lenient")
        assert code == 0 and check in err, (args[0], err)


def without_syntax(tmp: Path, keep_one_head: bool = False) -> Path:
    """The GUM document with UPOS, HEAD, DEPREL and DEPS '_' on every word (a key made by
    hand, a TSV export); ``keep_one_head`` leaves the first word's HEAD as it was."""
    lines = GUM.read_text(encoding="utf-8").split("\n")
    kept = False
    for n, line in enumerate(lines):
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit():
            for i in (3, 6, 7, 8):
                if not (keep_one_head and not kept and i == 6):
                    cols[i] = "_"
            kept = True
            lines[n] = "\t".join(cols)
    out = tmp / ("partial.conllu" if keep_one_head else "bare.conllu")
    out.write_text("\n".join(lines), encoding="utf-8")
    return out


def test_a_document_without_syntax_is_one_warning_everywhere(capsys, tmp_path):
    """(issue 22, policy c) CoNLL-U without any tree is one corefud.no-syntax warning per
    document in validate and every command, never one tree error per word."""
    path = without_syntax(tmp_path)
    findings = [(f.check, f.severity) for f in validate_findings(path)]
    assert findings == [("corefud.no-syntax", "warning")], findings
    code, out, _ = run(capsys, "validate", path)
    assert code == 0 and out.count("corefud.no-syntax:") == 1, out
    for args in (["stats", path], ["convert", path, tmp_path / "converted.conll"],
                 ["score", path, path]):
        code, _, err = run(capsys, *args)
        assert code == 0, (args[0], err)
        assert err.count("(corefud.no-syntax)") == 1, (args[0], err)
        assert "[ERROR]" not in err and "error:" not in err, (args[0], err)
    for name, args in commands(path, tmp_path / "out").items():
        code, _, err = run(capsys, *args, "-q")
        assert code == 0, (name, err)


def test_a_document_with_some_syntax_keeps_its_tree_errors(capsys, tmp_path):
    """One word with a HEAD is a tree: the other words' missing UPOS/HEAD/DEPREL stay errors
    that every command refuses."""
    path = without_syntax(tmp_path, keep_one_head=True)
    found = {f.check for f in validate_findings(path) if f.is_error}
    assert "corefud.no-syntax" not in found and "corefud.invalid-head" in found, found
    code, _, err = run(capsys, "score", path, path, "-q")
    assert code == 1 and "(corefud." in err, err


def validate_findings(path: Path) -> list[Any]:
    from corefkit.validation import validate

    return list(validate(path))
