"""convert, validate and stats over many files in processes (issue 14): the same output as one
process, in the same order."""

from __future__ import annotations

import filecmp
from pathlib import Path

import corefkit
from corefkit.analysis.stats import source_stats
from corefkit.cli.main import main
from corefkit.validation import validate
from tests.conftest import CORPORA

LITBANK = CORPORA / "litbank"
GUM = CORPORA / "gum" / "dep"


def test_convert_a_folder_in_processes_writes_the_same_files(tmp_path: Path):
    one = corefkit.convert(LITBANK, tmp_path / "one/", output_format="corefud", jobs=1)
    two = corefkit.convert(LITBANK, tmp_path / "two/", output_format="corefud", jobs=2)
    assert len(one.written) == len(two.written) == 10
    assert [Path(p).name for p in one.written] == [Path(p).name for p in two.written]
    for a, b in zip(one.written, two.written):
        assert filecmp.cmp(a, b, shallow=False)
    assert one.report.loss_totals() == two.report.loss_totals()
    assert [str(w) for w in one.warnings] == [str(w) for w in two.warnings]


def test_a_failing_file_in_processes_says_exactly_what_was_written(tmp_path: Path, capsys):
    source = tmp_path / "in"
    source.mkdir()
    for path in sorted(LITBANK.glob("*.conll"))[:4]:
        (source / path.name).write_text(path.read_text())
    broken = sorted(source.iterdir())[1]
    broken.write_text(broken.read_text().replace("#end document", ""))
    code = main(["convert", str(source), str(tmp_path / "out/"), "--to", "corefud", "-j", "2"])
    err = capsys.readouterr().err
    assert code == 1 and "conll.missing-end" in err
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert f"{len(written)} of 4 files were written completely" in err
    assert broken.name.replace(".conll", ".conllu") not in written


def test_validate_in_processes_gives_the_same_findings_in_order():
    one = validate([GUM], jobs=1)
    two = validate([GUM], jobs=2)
    assert (one.files, one.documents) == (two.files, two.documents) == (46, 46)
    assert [f.to_text() for f in one] == [f.to_text() for f in two]


def test_stats_in_processes_sum_to_the_same_counts():
    one, each_one, _ = source_stats(str(GUM), per_document=True, jobs=1)
    two, each_two, _ = source_stats(str(GUM), per_document=True, jobs=2)
    assert one.to_json() == two.to_json()
    assert [s.name for s in each_one] == [s.name for s in each_two]
