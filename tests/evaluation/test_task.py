"""``corefkit task``: a shared task over submissions made from real documents.

GUM (CorefUD CoNLL-U, ``crac`` profile, a folder per submission) and LitBank (CoNLL-2012,
``conll12`` profile, a file per submission): perturbed copies of the gold are ranked with the
numbers ``corefkit score`` gives each, while a malformed submission, one missing a document,
one with a renamed document and one with a changed word are rejected with their findings.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.paths import InputError
from corefkit.errors import UsageError
from corefkit.evaluation.task import Leaderboard, load_task, run_task
from corefkit.evaluation.task.spec import check_schema
from corefkit.schemas import DIRECTORY as SCHEMAS
from tests.conftest import CORPORA, ROOT

GUM = CORPORA / "gum" / "dep"
LITBANK = CORPORA / "litbank"
# the eight smallest GUM documents (368 KB) and the three smallest LitBank ones
GUM_FILES = sorted(GUM.glob("*.conllu"), key=lambda p: p.stat().st_size)[:8]
LITBANK_FILES = sorted(LITBANK.glob("*.conll"), key=lambda p: p.stat().st_size)[:3]
SINGLE = re.compile(r"\((\d+)(-[^()|]*)?\)")   # a one-word mention: (ID...) or (ID)


# ---------------------------------------------------------------------------- perturbations
def split_mentions(text: str, every: int, limit: int | None = None, column: int = -1) -> str:
    """Every ``every``-th one-word mention of an entity with at least three mentions gets an
    entity of its own (a system that misses its link); at most ``limit`` of them."""
    openings: dict[str, int] = {}
    for match in re.finditer(r"\((\d+)", text):
        openings[match.group(1)] = openings.get(match.group(1), 0) + 1
    seen = [0, 0]

    def fresh(match: re.Match[str]) -> str:
        if openings.get(match.group(1), 0) < 3 or (limit is not None and seen[1] >= limit):
            return match.group(0)
        seen[0] += 1
        if seen[0] % every:
            return match.group(0)
        seen[1] += 1
        return f"({90000 + seen[1]}{match.group(2) or ''})"

    lines = []
    for line in text.split("\n"):
        cells = line.split("\t")
        # (not on a node with a Bridge or SplitAnte statement, which names the mention's
        # entity: a new entity there is a malformed file, corefud.misplaced-*-statement)
        if len(cells) >= 4 and not line.startswith("#") and "(" in cells[column] \
                and "Bridge=" not in cells[column] and "SplitAnte=" not in cells[column]:
            cells[column] = SINGLE.sub(fresh, cells[column])
        lines.append("\t".join(cells))
    assert seen[1], "the perturbation changed nothing"
    return "\n".join(lines)


def copy_gold(files: list[Path], target: Path) -> Path:
    target.mkdir(parents=True)
    for file in files:
        shutil.copyfile(file, target / file.name)
    return target


def rewrite(path: Path, change) -> None:
    text = path.read_text(encoding="utf-8")
    changed = change(text)
    assert changed != text
    path.write_text(changed, encoding="utf-8")


def change_word(text: str, old: str, new: str) -> str:
    """A CoNLL-U whose first word ``old`` is ``new`` (FORM and the sentence text alike)."""
    lines = text.split("\n")
    for n, line in enumerate(lines):
        cells = line.split("\t")
        if len(cells) == 10 and cells[1] == old:
            cells[1] = new
            lines[n] = "\t".join(cells)
            start = max(i for i in range(n) if lines[i].startswith("# text = "))
            lines[start] = lines[start].replace(old, new, 1)
            return "\n".join(lines)
    raise AssertionError(f"no word {old!r}")


# ---------------------------------------------------------------------------- GUM, crac
GUM_TASK = """
name = "GUM sample, CRAC setting"
gold = "gold"

[scoring]
profile = "crac"

[validation]
level = 2
show = 3

[ranking]
primary = "conll"
tie_breakers = ["lea", "muc.recall"]

[significance]
test = "permutation"
permutations = 5000
bootstrap = 2000
alpha = 0.05
seed = 7

[submissions]
layout = "folder"
format = "corefud"
"""


@pytest.fixture(scope="module")
def gum(tmp_path_factory) -> Path:
    """task.toml, gold/ and submissions/{oracle,near,worse,broken,missing,retokenized}/."""
    root = tmp_path_factory.mktemp("gum-task")
    gold = copy_gold(GUM_FILES, root / "gold")
    (root / "task.toml").write_text(GUM_TASK)
    subs = root / "submissions"
    made = {name: copy_gold(GUM_FILES, subs / name)
            for name in ("oracle", "near", "worse", "broken", "missing", "retokenized")}
    first, death = GUM_FILES[0].name, "GENTLE_poetry_death.conllu"
    assert (gold / death).exists()
    rewrite(made["near"] / first, lambda t: split_mentions(t, 1, limit=1))
    for file in GUM_FILES:
        rewrite(made["worse"] / file.name, lambda t: split_mentions(t, 2))
    # an entity left open: the reader's level-1 error corefud.unclosed
    rewrite(made["broken"] / death, lambda t: t.replace("Entity=6)|SpaceAfter=No",
                                                        "SpaceAfter=No", 1))
    (made["missing"] / GUM_FILES[-1].name).unlink()
    rewrite(made["retokenized"] / death, lambda t: change_word(t, "slowly", "quickly"))
    (subs / "README.txt").write_text("not a submission: the layout is a folder each")
    return root


@pytest.fixture(scope="module")
def gum_board(gum) -> Leaderboard:
    return run_task(gum / "task.toml", gum / "submissions", output=gum / "out", jobs=1)


def test_valid_submissions_are_ranked_with_the_scores_of_corefkit_score(gum, gum_board):
    assert [(e.rank, e.name) for e in gum_board.entries] == [(1, "oracle"), (2, "near"),
                                                            (3, "worse")]
    assert gum_board.documents == len(GUM_FILES)
    for entry in gum_board.entries:
        alone = corefkit.score(gum / "gold", gum / "submissions" / entry.name, profile="crac")
        assert set(alone.metrics) <= set(entry.report.metrics)
        for name, result in alone.metrics.items():
            got = entry.report.metrics[name]
            assert (got.recall, got.precision, got.f1) == (result.recall, result.precision,
                                                           result.f1), (entry.name, name)
        assert entry.values == {"conll": alone.metrics["conll"].f1,
                                "lea": alone.metrics["lea"].f1,
                                "muc.recall": alone.metrics["muc"].recall}
    assert gum_board.entry("oracle").values["conll"] == 1
    assert 1 > gum_board.entry("near").values["conll"] > gum_board.entry("worse").values["conll"]


def test_malformed_submission_is_rejected_with_its_findings(gum_board):
    broken = gum_board.rejection("broken")
    assert broken.stage == "validation"
    assert [f.check for f in broken.findings] == ["corefud.unclosed"]
    assert "GENTLE_poetry_death" in broken.reason and "corefud.unclosed" in broken.reason
    assert broken.findings[0].file.endswith("broken/GENTLE_poetry_death.conllu")


def test_missing_document_is_rejected_naming_it(gum_board):
    missing = gum_board.rejection("missing")
    name = GUM_FILES[-1].stem
    assert missing.stage == "pairing" and missing.errors == 1
    assert [(f.check, f.document) for f in missing.findings] == [("pair.documents", name)]
    assert f"key document {name} is not in the response" in missing.reason


def test_changed_token_is_rejected_with_the_first_differing_word(gum_board):
    retokenized = gum_board.rejection("retokenized")
    assert retokenized.stage == "pairing"
    finding = retokenized.findings[0]
    assert finding.check == "pair.tokens"
    assert finding.document == "GENTLE_poetry_death"
    assert finding.sentence == "GENTLE_poetry_death-3"
    assert "word 26 is 'slowly' in the key but 'quickly' in the response" in finding.message
    # rejected submissions are never scored
    assert {e.name for e in gum_board.entries}.isdisjoint(r.name for r in gum_board.rejected)
    assert [r.name for r in gum_board.rejected] == ["broken", "missing", "retokenized"]


def test_significance_between_neighbours_both_ways(gum_board):
    oracle, near, worse = gum_board.entries
    # one mention of one document apart: every assignment of that document is as extreme
    assert oracle.versus_next.other == "near"
    assert oracle.versus_next.p_value == 1.0 and not oracle.versus_next.significant
    assert oracle.versus_next.exact and oracle.versus_next.permutations == 2 ** len(GUM_FILES)
    # worse in every document: only the identity and the full swap are as extreme
    assert near.versus_next.other == "worse" and near.versus_next.significant
    assert near.versus_next.p_value <= 0.05
    assert near.versus_next.ci_low > 0
    assert near.versus_next.difference == pytest.approx(
        float(near.values["conll"] - worse.values["conll"]))
    assert worse.versus_next is None
    assert [e.cluster for e in gum_board.entries] == [1, 1, 2]


def test_tests_are_repeatable_with_the_seed(gum, gum_board):
    again = run_task(gum / "task.toml", gum / "submissions", jobs=1)
    assert [e.versus_next for e in again.entries] == [e.versus_next for e in gum_board.entries]


def test_outputs_validate_against_their_schemas(gum, gum_board):
    jsonschema = pytest.importorskip("jsonschema")
    out = gum / "out"
    schema = json.loads((SCHEMAS / "leaderboard.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    data = json.loads((out / "leaderboard.json").read_text())
    jsonschema.validate(data, schema)
    assert data == json.loads(json.dumps(gum_board.to_json()))
    assert [e["name"] for e in data["entries"]] == ["oracle", "near", "worse"]
    assert data["entries"][0]["exact"]["conll"] == "1"
    assert (data["task"]["gold_format"], data["task"]["submissions"]["format"]) == (
        "corefud", "corefud")
    report_schema = json.loads((SCHEMAS / "score-report.schema.json").read_text())
    for name in ("oracle", "near", "worse"):
        report = json.loads((out / "reports" / f"{name}.json").read_text())
        jsonschema.validate(report, report_schema)
        assert len(report["per_document"]) == len(GUM_FILES)
    rows = list(csv.DictReader(io.StringIO((out / "leaderboard.csv").read_text())))
    assert [(r["rank"], r["submission"], r["status"]) for r in rows] == [
        ("1", "oracle", "ranked"), ("2", "near", "ranked"), ("3", "worse", "ranked"),
        ("", "broken", "rejected"), ("", "missing", "rejected"), ("", "retokenized", "rejected")]
    assert float(rows[1]["conll.f1"]) == float(gum_board.entry("near").values["conll"])
    assert float(rows[1]["muc.recall"]) == float(gum_board.entry("near").values["muc.recall"])
    assert list(rows[0])[5:8] == ["conll.f1", "lea.f1", "muc.recall"]
    header = (out / "leaderboard.csv").read_text().split("\n", 1)[0].split(",")
    assert len(header) == len(set(header))
    assert rows[1]["significant_next"] == "True" and rows[0]["significant_next"] == "False"
    assert rows[3]["stage"] == "validation"
    assert (out / "leaderboard.txt").read_text() == gum_board.to_table()
    task_schema = json.loads((SCHEMAS / "task.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(task_schema)


def test_cli_prints_the_table_and_writes_the_folder(gum, gum_board, capsys):
    out = gum / "cli-out"
    code = main(["task", str(gum / "task.toml"), str(gum / "submissions"), "-o", str(out),
                 "--jobs", "1"])
    captured = capsys.readouterr()
    assert code == 0
    assert captured.out == gum_board.to_table()
    table = captured.out
    assert re.search(r"^\s+1\s+1\s+oracle\s+100\.00", table, flags=re.MULTILINE)
    assert re.search(r"^\s+3\s+2\s+worse\s+82\.\d\d", table, flags=re.MULTILINE)
    assert " muc.recall " in table.splitlines()[4]
    assert "rejected (3, not scored):" in table
    assert "corefkit: rejected missing (pairing, 1 error):" in captured.err
    assert "README.txt is not a folder (layout folder): not a submission" in captured.err
    assert json.loads((out / "leaderboard.json").read_text())["entries"][1]["name"] == "near"
    # an earlier leaderboard folder is replaced, a folder of other files is not touched
    assert main(["task", str(gum / "task.toml"), str(gum / "submissions"), "-o", str(out),
                 "-q", "-f", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["documents"] == len(GUM_FILES)
    assert main(["task", str(gum / "task.toml"), str(gum / "submissions"), "-o",
                 str(gum / "gold"), "-q"]) == 1
    assert "holds files corefkit did not write" in capsys.readouterr().err


def test_json_of_the_cli_equals_corefkit_score_json(gum, gum_board, capsys):
    assert main(["score", str(gum / "gold"), str(gum / "submissions" / "near"),
                 "--profile", "crac", "-f", "json", "-q"]) == 0
    alone = json.loads(capsys.readouterr().out)["metrics"]
    entry = gum_board.entry("near").to_json()["metrics"]
    for name, values in alone.items():
        assert entry[name] == values, name


# ---------------------------------------------------------------------------- LitBank, conll12
@pytest.fixture(scope="module")
def litbank(tmp_path_factory) -> Path:
    """gold.conll (three LitBank documents) and a file per submission."""
    root = tmp_path_factory.mktemp("litbank-task")
    gold = "".join(p.read_text(encoding="utf-8") for p in LITBANK_FILES)
    (root / "gold.conll").write_text(gold, encoding="utf-8")
    subs = root / "submissions"
    subs.mkdir()
    (subs / "team-a.conll").write_text(split_mentions(gold, 3), encoding="utf-8")
    (subs / "team-b.conll").write_text(split_mentions(gold, 7), encoding="utf-8")
    (subs / "team-b-copy.conll").write_text(split_mentions(gold, 7), encoding="utf-8")
    first = LITBANK_FILES[0].stem
    renamed = gold.replace(f"#begin document ({first})", f"#begin document ({first}-v2)")
    (subs / "renamed.conll").write_text(renamed.replace(f"{first}\t", f"{first}-v2\t"),
                                        encoding="utf-8")
    (subs / "notes.md").write_text("left out by the pattern")
    task = {"name": "LitBank sample", "gold": "gold.conll",
            "scoring": {"profile": "conll12", "metrics": ["muc", "bcub", "ceafe", "conll"]},
            "ranking": {"primary": "conll", "tie_breakers": ["bcub.precision"]},
            "significance": {"test": "bootstrap", "bootstrap": 2000, "seed": 3},
            "submissions": {"layout": "file", "pattern": "*.conll"}}
    (root / "task.json").write_text(json.dumps(task))
    return root


@pytest.fixture(scope="module")
def litbank_board(litbank) -> Leaderboard:
    return run_task(litbank / "task.json", litbank / "submissions")


def test_file_layout_ranks_with_shared_ranks_for_equal_scores(litbank, litbank_board):
    board = litbank_board
    assert [(e.rank, e.name) for e in board.entries] == [(1, "team-b"), (1, "team-b-copy"),
                                                        (3, "team-a")]
    for entry in board.entries:
        alone = corefkit.score(litbank / "gold.conll", entry.path, profile="conll12")
        for name in ("muc", "bcub", "ceafe", "conll"):
            assert entry.report.metrics[name].f1 == alone.metrics[name].f1
        assert entry.values["bcub.precision"] == alone.metrics["bcub"].precision
        assert isinstance(entry.values["conll"], Fraction)
    assert board.metrics == ["muc", "bcub", "ceafe", "conll"]
    assert board.warnings == []  # notes.md is not a *.conll file: not looked at


def test_renamed_document_is_rejected(litbank_board):
    renamed = litbank_board.rejection("renamed")
    first = LITBANK_FILES[0].stem
    assert renamed.stage == "pairing"
    assert [f.message.split(";")[0] for f in renamed.findings] == [
        f"key document {first} is not in the response",
        f"response document {first}-v2 is not in the key"]


def test_bootstrap_marks_a_difference_whose_interval_excludes_zero(litbank_board):
    b, copy, _ = litbank_board.entries
    assert b.versus_next.difference == 0 and not b.versus_next.significant
    assert b.versus_next.ci_low == b.versus_next.ci_high == 0.0
    assert b.versus_next.p_value is None  # the bootstrap test gives an interval only
    # worse in each of the three documents: every resample keeps the sign
    assert copy.versus_next.other == "team-a" and copy.versus_next.significant
    assert copy.versus_next.ci_low > 0
    assert [e.cluster for e in litbank_board.entries] == [1, 1, 2]
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "leaderboard.schema.json").read_text())
    jsonschema.validate(json.loads(json.dumps(litbank_board.to_json())), schema)


# ---------------------------------------------------------------------------- task files
def test_example_task_of_the_readme_runs(capsys):
    example = ROOT / "examples" / "task"
    assert main(["task", str(example / "task.toml"), str(example / "submissions")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^\s+1\s+1\s+team-b\s+88\.27", out, flags=re.MULTILINE)
    assert "team-c: validation:" in out and "conll.unclosed" in out
    assert "team-d: pairing:" in out and "key document news/committee is not in the " \
        "response" in out
    readme = (ROOT / "docs" / "guides" / "run-a-shared-task.md").read_text()
    readme = readme.split("## Many systems", 1)[0]
    assert "$ corefkit task examples/task/task.toml examples/task/submissions" in readme
    tomllib = pytest.importorskip("tomllib")
    shown = re.search(r"```toml\n(.*?)```", readme, flags=re.DOTALL)
    assert shown is not None
    example_file = tomllib.loads((example / "task.toml").read_text())
    assert tomllib.loads(shown.group(1)) == example_file


BAD_TASKS = [
    ({"scoring": {"profile": "crac"}}, "'gold' is required"),
    ({"gold": "g", "ranking": {"primery": "conll"}}, "unknown key 'primery'"),
    ({"gold": "g", "validation": {"level": 4}}, "validation.level: must be at most 3"),
    ({"gold": "g", "significance": {"alpha": 1}}, "must be less than 1"),
    ({"gold": "g", "significance": {"test": "t-test"}}, "expected one of"),
    ({"gold": "g", "submissions": {"layout": "zip"}}, "submissions.layout"),
    ({"gold": "g", "scoring": {"metrics": []}}, "needs at least 1 item"),
    ({"gold": "g", "validation": {"level": True}}, "expected integer"),
]


@pytest.mark.parametrize("data,message", BAD_TASKS)
def test_bad_task_files_are_refused_as_the_schema_says(data, message):
    with pytest.raises(UsageError, match=re.escape(message)):
        load_task(data)
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "task.schema.json").read_text())
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)


def test_example_task_file_fits_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "task.schema.json").read_text())
    tomllib = pytest.importorskip("tomllib")
    data = tomllib.loads((ROOT / "examples" / "task" / "task.toml").read_text())
    jsonschema.validate(data, schema)
    check_schema(data, schema, "example")
    task = load_task(ROOT / "examples" / "task" / "task.toml")
    assert task.gold == str(ROOT / "examples" / "conll2012" / "key.conll")
    assert [k.label for k in task.ranking] == ["conll", "lea", "muc"]


def test_problems_of_the_task_are_errors_not_rejections(tmp_path, gum):
    with pytest.raises(UsageError, match="unknown scoring profile"):
        run_task({"gold": str(gum / "gold"), "scoring": {"profile": "crack"}},
                 gum / "submissions")
    with pytest.raises(UsageError, match="unknown pass"):
        load_task({"gold": "g", "scoring": {"passes": ["no-such-pass"]}})
    # a gold that cannot be read is an input error (exit 1) as in every command (issue 22)
    with pytest.raises(InputError, match="the gold: .*nowhere: no such file or directory"):
        run_task({"gold": str(tmp_path / "nowhere")}, gum / "submissions")
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="no submission folder"):
        run_task({"gold": str(gum / "gold")}, tmp_path / "empty")
    (tmp_path / "bad.toml").write_text("gold = [")
    with pytest.raises(UsageError, match="not valid TOML"):
        load_task(tmp_path / "bad.toml")


def test_toml_without_tomllib_asks_for_json_or_tomli(tmp_path, monkeypatch):
    """Python 3.10 has no tomllib: a TOML task file needs tomli, a JSON one works as is."""
    import sys

    (tmp_path / "task.toml").write_text('gold = "gold"\n')
    (tmp_path / "task.json").write_text('{"gold": "gold"}')
    monkeypatch.setattr(sys, "version_info", (3, 10, 14, "final", 0))
    monkeypatch.setitem(sys.modules, "tomli", None)  # not installed
    with pytest.raises(UsageError, match="needs Python 3.11 or later, or the tomli package"):
        load_task(tmp_path / "task.toml")
    assert load_task(tmp_path / "task.json").gold == str(tmp_path / "gold")


def test_a_primary_metric_without_additive_counts_cannot_be_tested(gum):
    with pytest.raises(UsageError, match=r"\[significance\]: cannot test"):
        run_task({"gold": str(gum / "gold"), "scoring": {"profile": "crac", "metrics": "conll"},
                  "ranking": {"primary": "dominant"}},
                 gum / "submissions", jobs=1)
