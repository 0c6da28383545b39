"""Many datasets, one leaderboard (:mod:`corefkit.evaluation.task.datasets`), on the CRAC
demonstration task of ``examples/crac/demo.py`` built from ../shared with two documents per
dataset: GUM and the three zero-bearing CorefUD datasets, five submissions."""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import shutil
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.errors import FormatError, UsageError
from corefkit.evaluation.task import run_task
from corefkit.evaluation.task.datasets import register_submission_check, SUBMISSION_CHECKS
from corefkit.evaluation.task.spec import dataset_name, load_task
from corefkit.evaluation.task.submission import excluded_checks
from corefkit.schemas import DIRECTORY as SCHEMAS
from tests.conftest import ROOT, SHARED

DOCUMENTS = 2


def _demo():
    spec = importlib.util.spec_from_file_location("crac_demo", ROOT / "examples/crac/demo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("crac") / "demo"
    _demo().build(out, SHARED, DOCUMENTS, permutations=5000, bootstrap=500)
    return out


@pytest.fixture(scope="module")
def board(demo):
    return run_task(demo / "task.toml", demo / "submissions", output=demo / "board", jobs=1)


def test_the_demo_ranks_every_valid_submission(board):
    assert [e.name for e in board.entries] == ["team-mild", "team-mixed", "team-heavy",
                                               "team-three"]
    assert [e.rank for e in board.entries] == [1, 2, 3, 4]
    assert [d.name for d, _ in board.datasets] == ["en_gum-corefud", "hu_korkor-corefud",
                                                   "la_proiel-corefud", "osp_iswoc-corefud"]
    assert board.documents == 4 * DOCUMENTS


def test_dataset_values_are_corefkit_score_and_the_macro_is_their_mean(board, demo):
    task = load_task(demo / "task.toml")
    for entry in board.entries:
        for dataset, result in entry.results.items():
            if result.missing:
                continue
            gold = demo / "gold" / f"{dataset}-test.conllu"
            with excluded_checks(task):  # read as the task reads: its exclusions left out
                report = corefkit.score(gold, result.path, profile="crac26", jobs=1)
            assert result.values["conll"] == report.metrics["conll"].f1
            assert result.values["zero"] == report.metrics["zero"].f1
        mean = sum((r.values["conll"] for r in entry.results.values()), Fraction(0)) / 4
        assert entry.values["conll"] == mean


def test_variants_rescore_with_the_overrides(board, demo):
    entry = board.entry("team-heavy")
    gold = demo / "gold" / "hu_korkor-corefud-test.conllu"
    result = entry.results["hu_korkor-corefud"]
    with pytest.raises(FormatError, match="corefud.edeps-only-sometimes"):
        corefkit.score(gold, result.path, profile="crac26", jobs=1)  # strict: the UD error
    with excluded_checks(load_task(demo / "task.toml")):  # the task's [validation] exclude
        partial = corefkit.score(gold, result.path, profile="crac26", match="partial", jobs=1)
        singletons = corefkit.score(gold, result.path, profile="crac26", remove_singletons=False,
                                    jobs=1)
    assert result.values["partial"] == partial.metrics["conll"].f1
    assert result.values["singletons"] == singletons.metrics["conll"].f1
    assert set(entry.variants) == {"partial", "exact", "singletons", "zero"}


def test_a_missing_dataset_counts_zero_and_is_flagged(board):
    three = board.entry("team-three")
    assert three.missing == ["osp_iswoc-corefud"]
    missing = three.results["osp_iswoc-corefud"]
    assert missing.missing and all(v == 0 for v in missing.values.values())
    present = [r.values["conll"] for r in three.results.values() if not r.missing]
    assert three.values["conll"] == sum(present, Fraction(0)) / 4
    assert "(missing: counted 0)" in board.to_table()


def test_a_refused_file_refuses_the_submission_naming_the_first_difference(board):
    typo = board.rejection("team-typo")
    assert typo.stage == "pairing"
    assert typo.reason.startswith("dataset la_proiel-corefud: ")
    assert "word 45 is 'Haec' in the key but 'Haecx' in the response" in typo.reason
    assert "document la-per-aeth-1265, sentence per-aeth-57403" in typo.reason
    assert "team-typo" not in [e.name for e in board.entries]


def test_the_macro_permutation_test_is_exact_and_reproduces_a_brute_force(board, demo):
    """2^8 assignments ≤ 5000 permutations: every swap of documents between the two systems
    is enumerated; recomputed here in exact fractions from the per-document counts."""
    first, second = board.entries[0], board.entries[1]
    test = first.versus_next
    assert test.exact and test.permutations == 2 ** (4 * DOCUMENTS)

    def documents(entry):
        found = []
        for dataset in sorted(entry.results):
            report = entry.results[dataset].entry.report
            found.append([{m: d.metrics[m].counts for m in ("muc", "bcub", "ceafe")}
                          for d in sorted(report.per_document, key=lambda d: d.name)])
        return found

    a, b = documents(first), documents(second)
    flat = [(d, i) for d in range(4) for i in range(DOCUMENTS)]

    def macro(sides):
        total = Fraction(0)
        for d in range(4):
            conll = Fraction(0)
            for metric in ("muc", "bcub", "ceafe"):
                counts = None
                for i in range(DOCUMENTS):
                    c = sides[(d, i)][metric]
                    counts = c if counts is None else counts + c
                conll += counts.f1
            total += conll / 3
        return total / 4

    observed = macro({k: a[k[0]][k[1]] for k in flat}) - macro({k: b[k[0]][k[1]] for k in flat})
    assert float(observed) == pytest.approx(test.difference, abs=1e-12)
    extreme = 0
    for mask in itertools.product((0, 1), repeat=len(flat)):
        swap_a = {k: (b if m else a)[k[0]][k[1]] for k, m in zip(flat, mask)}
        swap_b = {k: (a if m else b)[k[0]][k[1]] for k, m in zip(flat, mask)}
        extreme += abs(macro(swap_a) - macro(swap_b)) >= abs(observed)
    assert test.p_value == extreme / 2 ** len(flat)


def test_tests_are_seeded_and_reproducible(board, demo):
    again = run_task(demo / "task.toml", demo / "submissions", jobs=1)
    for x, y in zip(board.entries, again.entries):
        assert (x.versus_next and x.versus_next.to_json()) == \
            (y.versus_next and y.versus_next.to_json())
        assert {d: t.to_json() for d, t in x.per_dataset_tests.items()} == \
            {d: t.to_json() for d, t in y.per_dataset_tests.items()}


def test_outputs_and_schema(board, demo):
    written = json.loads((demo / "board" / "leaderboard.json").read_text())
    assert written == json.loads(json.dumps(board.to_json()))
    assert (demo / "board" / "reports" / "team-mild" / "en_gum-corefud.json").is_file()
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((SCHEMAS / "leaderboard.schema.json").read_text())
    jsonschema.validate(written, schema)
    lines = (demo / "board" / "leaderboard.csv").read_text().splitlines()
    assert lines[0].startswith("rank,cluster,submission,status,dataset,missing,conll,partial")
    assert sum(",team-mild,ranked," in line for line in lines) == 5  # macro + 4 datasets
    assert any(line.startswith(",,team-typo,rejected") for line in lines)


def _copy(demo: Path, tmp_path: Path) -> Path:
    target = tmp_path / "demo"
    shutil.copytree(demo / "gold", target / "gold")
    shutil.copytree(demo / "submissions" / "team-three", target / "submissions" / "team-three")
    shutil.copy(demo / "task.toml", target / "task.toml")
    return target


def test_missing_reject_refuses_instead(demo, tmp_path):
    target = _copy(demo, tmp_path)
    text = (target / "task.toml").read_text().replace('missing = "zero"', 'missing = "reject"')
    (target / "task.toml").write_text(text)
    board = run_task(target / "task.toml", target / "submissions", jobs=1)
    assert not board.entries
    assert board.rejection("team-three").reason == \
        "dataset osp_iswoc-corefud: no file osp_iswoc-corefud-test.conllu for the dataset"


def test_two_files_for_a_dataset_and_a_registered_check(demo, tmp_path):
    target = _copy(demo, tmp_path)
    folder = target / "submissions" / "team-three"
    shutil.copy(folder / "hu_korkor-corefud-test.conllu", folder / "hu_korkor-corefud.conllu")
    board = run_task(target / "task.toml", target / "submissions", jobs=1)
    assert board.rejection("team-three").reason == (
        "dataset hu_korkor-corefud: two files for the dataset: hu_korkor-corefud-test.conllu "
        "and hu_korkor-corefud.conllu")
    (folder / "hu_korkor-corefud.conllu").unlink()
    register_submission_check("no-latin", lambda path, dataset, task:
                              "not today" if dataset.name.startswith("la_") else None)
    try:
        board = run_task(target / "task.toml", target / "submissions", jobs=1)
    finally:
        del SUBMISSION_CHECKS["no-latin"]
    assert board.rejection("team-three").reason == "dataset la_proiel-corefud: no-latin: not today"


def test_task_files_with_datasets(tmp_path):
    assert dataset_name("cs_pdt-corefud-test.conllu") == "cs_pdt-corefud"
    assert dataset_name("/x/en_gum-corefud-dev.conllu") == "en_gum-corefud"
    with pytest.raises(UsageError, match="'gold' is required"):
        load_task({"name": "x"})
    with pytest.raises(UsageError, match="give only one of 'gold', 'datasets'"):
        load_task({"gold": "a", "datasets": [{"gold": "b"}]})
    with pytest.raises(UsageError, match="two datasets have the name"):
        load_task({"datasets": [{"gold": "a/x-test.conllu"}, {"gold": "b/x-dev.conllu"}]})
    task = load_task({"datasets": [{"gold": "a/x-test.conllu"}],
                      "variants": {"lea": {"metric": "lea"}}, "scoring": {"profile": "crac26"}},
                     base=tmp_path)
    assert [(v.name, v.metric) for v in task.variants] == [("lea", "lea")]
    assert task.strata == "entity-size,distance"


def test_long_range_tables(board):
    """crac26's strata: CoNLL F1 per bucket averaged over the datasets with key mentions in
    it; the per-dataset reports hold the strata whose buckets add up to the totals."""
    strata = board.strata()
    assert set(strata) == {"entity-size", "sentences", "words"}
    mild = board.entry("team-mild")
    report = mild.results["en_gum-corefud"].entry.report
    counts = report.metrics["strata"].counts
    total = sum((counts.counts("entity-size", b, "muc").recall_num
                 for b in counts.buckets("entity-size")), Fraction(0))
    assert total == report.metrics["muc"].counts.recall_num
    assert "long range: CoNLL F1 by entity size" in board.to_table()
    three = strata["entity-size"]["team-three"]
    assert all(0 <= v <= 1 for v in three.values())


# ============================================================================ platform bundles
def _platform_run(bundle: Path, platform: str, submission: Path, tmp_path: Path):
    """Unpack the bundle and run its scoring program as the platform does: a clean folder with
    the program, input/ref (the reference data) and input/res (the participant's files), then
    ``python evaluate.py input output``."""
    root = tmp_path / f"{platform}-{submission.name}"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "bundle")
    run = root / "run"
    (run / "input").mkdir(parents=True)
    if platform == "codabench":
        shutil.copytree(root / "bundle" / "scoring_program", run / "program")
        shutil.copytree(root / "bundle" / "reference_data", run / "input" / "ref")
    else:  # CodaLab: the program and the reference data are zips inside the bundle
        for part, target in (("scoring_program", run / "program"),
                             ("reference_data", run / "input" / "ref")):
            with zipfile.ZipFile(root / "bundle" / f"{part}.zip") as archive:
                archive.extractall(target)
    shutil.copytree(submission, run / "input" / "res")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "program/evaluate.py", "input", "output"], cwd=run,
                          capture_output=True, text=True, env=env, timeout=900)
    return done, run / "output"



@pytest.mark.parametrize("platform", ["codabench", "codalab"])
def test_the_bundle_scores_as_the_leaderboard(platform, board, demo, tmp_path):
    from corefkit.cli.main import main
    from corefkit.evaluation.task.bundle import column_key, columns, percent

    bundle = tmp_path / f"{platform}.zip"
    assert main(["task", "bundle", str(demo / "task.toml"), "--platform", platform,
                 "-o", str(bundle)]) == 0
    yaml = pytest.importorskip("yaml")
    with zipfile.ZipFile(bundle) as archive:
        competition = yaml.safe_load(archive.read("competition.yaml"))
        names = archive.namelist()
    keys = [k for k, _ in columns(board.task)]
    if platform == "codabench":
        assert competition["version"] == 2 and competition["docker_image"]
        assert [c["key"] for c in competition["leaderboards"][0]["columns"]] == keys
        assert "scoring_program/metadata.yaml" in names
        assert "scoring_program/corefkit/__init__.py" in names  # vendored
        # the package alone: not the project around it (tests, a virtualenv)
        assert all(n.startswith("scoring_program/corefkit/") or n.count("/") == 1
                   for n in names if n.startswith("scoring_program/")), \
            [n for n in names if n.startswith("scoring_program/")][:5]
        assert "reference_data/gold/en_gum-corefud-test.conllu" in names
    else:
        assert list(competition["leaderboard"]["columns"]) == keys
        assert {"scoring_program.zip", "reference_data.zip"} <= set(names)
        assert competition["phases"][1]["scoring_program"] == "scoring_program.zip"
    for team in ("team-mild", "team-three"):
        done, output = _platform_run(bundle, platform, demo / "submissions" / team, tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"from {output.parent / 'program' / 'corefkit'}" in done.stdout  # the vendored one
        if platform == "codabench":
            scores = json.loads((output / "scores.json").read_text())
        else:
            scores = {}
            for line in (output / "scores.txt").read_text().splitlines():
                key, _, value = line.partition(": ")
                scores[key] = float(value)
        entry = board.entry(team)
        expected = {column_key("conll"): percent(entry.values["conll"])}
        expected.update({column_key(k): percent(v) for k, v in entry.variants.items()})
        expected.update({column_key(f"conll_{d}"): percent(r.values["conll"])
                         for d, r in entry.results.items()})
        assert scores == expected
        assert list(scores) == keys
    done, output = _platform_run(bundle, platform, demo / "submissions" / "team-typo", tmp_path)
    assert done.returncode == 1 and not output.exists()
    assert "submission refused (pairing): dataset la_proiel-corefud:" in done.stderr
    assert "'Haec' in the key but 'Haecx' in the response" in done.stderr


def test_a_bundle_is_never_written_over_a_file(demo, tmp_path):
    from corefkit.cli.main import main

    target = tmp_path / "competition.zip"
    target.write_text("mine")
    assert main(["task", "bundle", str(demo / "task.toml"), "--platform", "codabench",
                 "-o", str(target)]) == 2
    assert target.read_text() == "mine"
    assert main(["task", "bundle", str(demo / "task.toml"), "--platform", "kaggle",
                 "-o", str(tmp_path / "x.zip")]) == 2


def test_a_linked_submission_folder_is_refused_unread(demo, tmp_path):
    """Submissions are untrusted in a task with datasets too: a submission folder that is a
    link (here to the gold, which would score 100) is refused without being read."""
    target = _copy(demo, tmp_path)
    (target / "submissions" / "gold-link").symlink_to(target / "gold")
    board = run_task(target / "task.toml", target / "submissions", jobs=1)
    refused = board.rejection("gold-link")
    assert refused.stage == "refused" and "symbolic link" in refused.reason
    assert [e.name for e in board.entries] == ["team-three"]
