"""``corefkit convert`` never loses a file the user has (issue 22, "Data loss and leaks").

``convert SRC_DIR/ OUT_DIR/`` replaced a file the user already had in OUT_DIR; ``x.key``,
``x.response`` and ``x.conll`` in one folder all became ``x.conllu`` ("wrote 4 documents to
3 files", one file holding only the last input), also with ``--jobs 2``; ``convert a.conll
a.conll`` rewrote the input and turned a 0600 file into 0644.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters import atomic
from corefkit.converters.atomic import OutputExists, atomic_text_output
from tests.conftest import CORPORA, ROOT

KEY = ROOT / "examples" / "conll2012" / "key.conll"
RESPONSE = ROOT / "examples" / "conll2012" / "response.conll"
LITBANK = CORPORA / "litbank"


def run(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str]:
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.exists() else {}


@pytest.fixture(params=["1", "2"], ids=["serial", "jobs2"])
def jobs(request: pytest.FixtureRequest) -> str:
    return request.param


def test_a_folder_run_never_replaces_a_file_in_the_target(tmp_path, capsys, jobs):
    source = tmp_path / "in"
    source.mkdir()
    for name in ("a.conll", "b.conll", "c.conll"):
        shutil.copy(KEY, source / name)
    out = tmp_path / "out"
    out.mkdir()
    (out / "b.conllu").write_text("precious\n")
    before = listing(out)
    code, err = run(capsys, "convert", f"{source}/", f"{out}/", "--to", "corefud", "-j", jobs)
    assert code == 2 and err.count("\n") == 1
    assert f"{out / 'b.conllu'}: exists;" in err and "--overwrite" in err
    assert listing(out) == before  # nothing written, not even the files that did not exist
    code, err = run(capsys, "convert", f"{source}/", f"{out}/", "--to", "corefud", "-j", jobs,
                    "--overwrite", "-q")
    assert code == 0 and sorted(listing(out)) == ["a.conllu", "b.conllu", "c.conllu"]
    assert (out / "b.conllu").read_text() != "precious\n"


def test_a_single_file_into_a_folder_does_not_replace_either(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "key.conllu").write_text("precious\n")
    code, err = run(capsys, "convert", KEY, f"{out}/", "--to", "corefud")
    assert code == 2 and f"{out / 'key.conllu'}: exists;" in err
    assert (out / "key.conllu").read_text() == "precious\n"


def test_outputs_that_collide_are_refused_before_writing(tmp_path, capsys, jobs):
    source = tmp_path / "in"
    source.mkdir()
    for name in ("x.key", "x.response", "x.conll"):
        shutil.copy(KEY, source / name)
    shutil.copy(RESPONSE, source / "y.conll")
    out = tmp_path / "out"
    code, err = run(capsys, "convert", f"{source}/", f"{out}/", "--to", "corefud", "-j", jobs)
    assert code == 2 and err.count("\n") == 1
    assert (f"{source / 'x.conll'}, {source / 'x.key'} and {source / 'x.response'} would all "
            f"be written to {out / 'x.conllu'}") in err
    assert not out.exists()  # refused before the folder was made
    code, err = run(capsys, "convert", f"{source}/", f"{out}/", "--to", "corefud", "--overwrite")
    assert code == 2 and "would all be written to" in err  # --overwrite does not merge inputs


def test_the_summary_counts_what_was_written(tmp_path, capsys, jobs):
    code, err = run(capsys, "convert", f"{LITBANK}/", f"{tmp_path / 'out'}/", "--to",
                    "conll2012", "-j", jobs)
    files = sorted((tmp_path / "out").iterdir())
    documents = sum(p.read_text().count("#begin document") for p in files)
    assert code == 0
    assert f"corefkit: wrote {documents} documents to {len(files)} files\n" in err
    code, err = run(capsys, "convert", KEY.parent / "key.conll", tmp_path / "one.conll")
    written = (tmp_path / "one.conll").read_text().count("#begin document")
    assert code == 0 and err.endswith(f"corefkit: wrote {written} documents\n")
    single = tmp_path / "single.conll"
    single.write_text(KEY.read_text().split("#end document")[0] + "#end document\n")
    code, err = run(capsys, "convert", single, tmp_path / "single.conllu", "-q")
    code, err = run(capsys, "convert", single, tmp_path / "again.conll")
    assert code == 0 and err.endswith("corefkit: wrote 1 document\n")  # not "1 documents"


def test_converting_in_place_is_refused_unless_asked_and_keeps_the_rights(tmp_path, capsys):
    target = tmp_path / "a.conll"
    shutil.copy(KEY, target)
    target.chmod(0o600)
    original = target.read_bytes()
    code, err = run(capsys, "convert", target, target)
    assert code == 2 and err.count("\n") == 1 and f"{target}: is the input itself" in err
    assert target.read_bytes() == original
    code, err = run(capsys, "convert", target, target, "--overwrite", "-q")
    assert code == 0 and stat.S_IMODE(target.stat().st_mode) == 0o600
    link = tmp_path / "link.conll"  # the same file under another name
    os.symlink(target, link)
    code, err = run(capsys, "convert", target, link)
    assert code == 2 and "is the input itself" in err


@pytest.mark.parametrize("mode", [0o600, 0o640, 0o664])
def test_a_replaced_file_keeps_its_rights_a_new_one_gets_the_umask(tmp_path, capsys, mode):
    target = tmp_path / "out.conll"
    target.write_text("old\n")
    target.chmod(mode)
    code, _ = run(capsys, "convert", KEY, target, "-q")
    assert code == 0 and stat.S_IMODE(target.stat().st_mode) == mode
    assert target.read_text() != "old\n"
    old = os.umask(0o027)
    try:
        corefkit.convert(KEY, tmp_path / "new.conll")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.conll").stat().st_mode) == 0o640


@pytest.mark.parametrize("unnamed", [True, False], ids=["O_TMPFILE", "named"])
def test_no_replace_holds_against_a_file_that_appears_meanwhile(tmp_path, monkeypatch, unnamed):
    monkeypatch.setattr(atomic, "TMPFILE", unnamed and atomic.TMPFILE)
    target = tmp_path / "out.txt"
    with pytest.raises(OutputExists, match="exists, and corefkit does not replace it"):
        with atomic_text_output(target, replace=False) as out:
            out.write("new\n")
            target.write_text("appeared\n")
    assert target.read_text() == "appeared\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]  # no temporary left


@pytest.mark.parametrize("unnamed", [True, False], ids=["O_TMPFILE", "named"])
def test_a_failed_write_leaves_nothing(tmp_path, monkeypatch, unnamed):
    monkeypatch.setattr(atomic, "TMPFILE", unnamed and atomic.TMPFILE)
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    with pytest.raises(RuntimeError):
        with atomic_text_output(target) as out:
            out.write("half")
            if not unnamed:  # the named temporary file exists while it is written
                assert [p for p in tmp_path.iterdir() if p.name.startswith(".corefkit-")]
            raise RuntimeError
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_the_unnamed_temporary_file_is_used_on_linux(tmp_path):
    if not (atomic.TMPFILE and os.path.isdir(atomic.PROC_FD)):
        pytest.skip("no O_TMPFILE here: the named temporary file is used")
    with atomic_text_output(tmp_path / "out.txt") as out:
        out.write("x")
        assert list(tmp_path.iterdir()) == []  # nothing has a name until the file is whole
        names = [os.readlink(f"/proc/self/fd/{fd}") for fd in os.listdir("/proc/self/fd")
                 if os.path.exists(f"/proc/self/fd/{fd}")]
        assert any(re.fullmatch(rf"{re.escape(str(tmp_path))}/#\d+ \(deleted\)", n)
                   for n in names)
    assert (tmp_path / "out.txt").read_text() == "x"


def test_writing_to_dev_null_writes_through_it(capsys):
    code, _ = run(capsys, "convert", KEY, os.devnull, "--to", "corefud", "-q")
    assert code == 0 and stat.S_ISCHR(os.stat(os.devnull).st_mode)


ONTONOTES = """#begin document (bc/test); part 000
bc/test	0	0	John	NNP	(TOP(S(NP*)	-	-	-	Speaker#1	(PERSON)	(ARG0*)	(0)
bc/test	0	1	saw	VBD	(VP*	see	01	1	Speaker#1	*	(V*)	-
bc/test	0	2	Mary	NNP	(NP*)))	-	-	-	Speaker#1	(PERSON)	(ARG1*)	(1)
bc/test	0	3	.	.	*)	-	-	-	Speaker#1	*	*	-

bc/test	0	0	He	PRP	(TOP(S(NP*)	-	-	-	Speaker#2	*	*	(0)
bc/test	0	1	left	VBD	(VP*))	leave	01	2	Speaker#2	*	*	-

#end document
"""


def dropped_columns(err: str) -> dict[str, int]:
    """``{"POS, column 5": 6, ...}`` from the loss report."""
    return {m.group(2): int(m.group(1)) for m in re.finditer(
        r"^  (\d+) words with a value in a CoNLL-2012 column \(dropped: ([^)]+)\);", err, re.M)}


def test_converting_in_place_reports_every_column_it_drops(tmp_path, capsys):
    """``convert a.conll a.conll`` dropped POS, parse, lemma, sense and NE columns while the
    loss report named only speakers."""
    source = tmp_path / "a.conll"
    source.write_text(ONTONOTES)
    code, err = run(capsys, "convert", source, source, "--overwrite")
    assert code == 0 and "speakers (dropped)" in err
    # the POS and lemma columns are read into the model and reported as its features, once;
    # every other column per column
    assert re.search(r"^  6 part-of-speech tags \(UPOS, XPOS\) \(dropped\)", err, re.M)
    assert re.search(r"^  2 lemmas \(dropped\)", err, re.M)
    assert dropped_columns(err) == {
        "parse bit, column 6": 6, "predicate frameset, column 8": 2, "word sense, column 9": 2,
        "named entities, column 11": 2, "predicate arguments, column 12": 3}
    assert "other CoNLL-2012 columns" not in err
    assert all(len(line.split("\t")) in (1, 5) for line in source.read_text().splitlines())


def test_the_columns_a_target_keeps_are_not_reported(tmp_path, capsys):
    source = tmp_path / "a.conll"
    source.write_text(ONTONOTES)
    code, err = run(capsys, "convert", source, tmp_path / "kept.conll", "--layout", "source")
    assert code == 0 and dropped_columns(err) == {}  # every column written back
    assert (tmp_path / "kept.conll").read_text() == ONTONOTES
    code, err = run(capsys, "convert", source, tmp_path / "a.conllu")
    assert code == 0 and dropped_columns(err) == {  # POS and the lemma go to XPOS and LEMMA
        "parse bit, column 6": 6, "predicate frameset, column 8": 2, "word sense, column 9": 2,
        "named entities, column 11": 2, "predicate arguments, column 12": 3}
    assert "\tNNP\t" in (tmp_path / "a.conllu").read_text()


def test_a_real_ontonotes_layout_reports_its_pos_column_once(tmp_path, capsys):
    key = CORPORA.parent / "conformance" / "real" / "data" / "ontogum" / "key.conll"
    words = [line.split("\t") for line in key.read_text().splitlines()
             if line and not line.startswith("#")]
    tagged = sum(1 for row in words if row[4] not in ("-", "_", "*"))
    code, err = run(capsys, "convert", key, tmp_path / "five.conll")
    assert code == 0 and dropped_columns(err) == {}  # POS is the model's: counted once, as pos
    assert re.search(rf"^  {tagged} part-of-speech tags \(UPOS, XPOS\) \(dropped\)", err, re.M)
