"""The ``corefkit`` command line: outputs, exit codes, and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from corefkit.cli.main import main
from tests.conftest import CONFORMANCE, CORPORA, ROOT

DATA = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"
EXAMPLE = ROOT / "examples" / "conll2012"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_score_table(capsys):
    code, out, err = run(capsys, "score", EXAMPLE / "key.conll", EXAMPLE / "response.conll")
    assert code == 0 and err == ""
    for metric in ("mentions", "muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "conll"):
        assert f"\n{metric} " in out
    assert "documents: 2" in out


def test_score_json(capsys):
    # --lenient: TC-A-8 repeats a mention in two entities on purpose
    code, out, _ = run(capsys, "score", DATA / "TC-A.key", DATA / "TC-A-8.response",
                       "-m", "muc,bcub", "-f", "json", "-q", "--lenient")
    data = json.loads(out)
    assert code == 0 and list(data["metrics"]) == ["muc", "bcub"]
    assert data["metrics"]["bcub"]["exact"]["precision"] == "17/42"
    assert data["options"]["metrics"] == ["muc", "bcub"]


def test_score_warnings_go_to_stderr_and_quiet_silences_them(capsys):
    _, _, err = run(capsys, "score", DATA / "TC-A.key", DATA / "TC-A-8.response", "-m", "muc",
                    "--lenient")  # TC-A-8 repeats a mention in two entities on purpose
    assert "repeated response mentions removed" in err
    _, _, err = run(capsys, "score", DATA / "TC-A.key", DATA / "TC-A-8.response", "-m", "muc", "-q",
                    "--lenient")
    assert err == ""


def test_score_reference_and_csv(capsys):
    code, out, _ = run(capsys, "score", DATA / "TC-A.key", DATA / "TC-A-1.response",
                       "-m", "ceafe", "-f", "reference")
    assert code == 0 and out.startswith("\n====== TOTALS =======\nIdentification of Mentions: ")
    code, out, _ = run(capsys, "score", DATA / "TC-A.key", DATA / "TC-A-1.response",
                       "-m", "lea", "-f", "csv")
    assert out.splitlines()[1].startswith("*,lea,1.0,1.0,1.0,")


def test_score_missing_and_extra_documents(tmp_path: Path, capsys):
    key = tmp_path / "key.conll"
    response = tmp_path / "response.conll"
    key.write_text("#begin document (a); part 000\na 0 0 x (1)\n#end document\n"
                   "#begin document (b); part 000\nb 0 0 y (1)\n#end document\n")
    response.write_text("#begin document (a); part 0\na 0 0 x (7)\n#end document\n"
                        "#begin document (c); part 000\nc 0 0 z (1)\n#end document\n")
    code, out, err = run(capsys, "score", key, response, "-m", "mentions", "-f", "json")
    data = json.loads(out)
    assert code == 0 and data["documents"] == 2
    assert data["metrics"]["mentions"]["recall"] == 0.5  # b is all missed, c ignored
    assert "document b is missing from the response" in err
    assert "document c is only in the response; ignored" in err


def test_score_directories_pair_documents_by_name(tmp_path: Path, capsys):
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    keys.mkdir()
    responses.mkdir()
    for name in ("TC-A-1", "TC-A-4"):
        (keys / f"{name}.conll").write_text((DATA / "TC-A.key").read_text().replace(
            "(LuoTestCase)", f"({name})"))
        (responses / f"{name}.conll").write_text((DATA / f"{name}.response").read_text().replace(
            "(LuoTestCase)", f"({name})"))
    code, out, _ = run(capsys, "score", keys, responses, "-m", "muc", "-f", "json",
                       "--per-document", "-q", "--lenient")  # TC-A-4 changes a word
    data = json.loads(out)
    assert data["documents"] == 2
    assert data["metrics"]["muc"]["recall_num"] == 3 + 1
    assert [d["document"] for d in data["per_document"]] == ["TC-A-1", "TC-A-4"]


def test_score_from_stdin(capsys, monkeypatch):
    import io

    class FakeStdin:
        buffer = io.BytesIO((DATA / "TC-A-1.response").read_bytes())

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    code, out, _ = run(capsys, "score", DATA / "TC-A.key", "-", "--from", "conll2012",
                       "-m", "muc", "-f", "json")
    assert code == 0 and json.loads(out)["metrics"]["muc"]["f1"] == 1.0


def test_remove_singletons(capsys):
    code, out, _ = run(capsys, "score", DATA / "TC-A.key", DATA / "TC-A-1.response",
                       "-m", "mentions", "-f", "json", "--remove-singletons")
    data = json.loads(out)
    # TC-A's key has entities of 1, 2 and 3 mentions: the singleton {a} goes
    assert data["metrics"]["mentions"]["recall_den"] == 6 - 1
    assert data["options"]["remove_singletons"] is True


@pytest.mark.parametrize("args, code, message", [
    (["score", "missing.conll", "missing2.conll"], 1, "missing2.conll: no such file or directory"),
    (["score", str(DATA / "TC-A.key"), str(DATA / "TC-A-1.response"), "-m", "nope"], 2,
     "unknown metric nope"),
    (["score", str(DATA / "TC-A.key"), str(DATA / "TC-A-1.response"), "--pass", "nope"], 2,
     "unknown pass 'nope'"),
    (["score", str(DATA / "TC-A.key"), str(DATA / "TC-A-1.response"), "--from", "nope"], 2,
     "unknown format 'nope'"),
])
def test_errors_are_one_line(capsys, args, code, message):
    got, out, err = run(capsys, *args)
    assert got == code and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_unbalanced_brackets_name_file_and_line(tmp_path: Path):
    bad = tmp_path / "bad.conll"
    bad.write_text("#begin document (d); part 0\nd 0 0 a (1\nd 0 1 b 2)\n#end document\n")
    result = subprocess.run([sys.executable, "-m", "corefkit", "score", str(bad), str(bad)],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.startswith(f"corefkit: error: {bad}:3:")
    assert "conll.unbalanced-close" in result.stderr and "Traceback" not in result.stderr


def test_convert_file_and_directory(tmp_path: Path, capsys):
    out = tmp_path / "copy.conll"
    code, _, err = run(capsys, "convert", CORPORA / "litbank" / "105_persuasion_brat.conll", out)
    assert code == 0 and out.read_text().startswith("#begin document (105_persuasion_brat); part 0\n")
    assert err.endswith("wrote 1 document\n")  # issue 22: it said "1 documents"
    target = tmp_path / "all"
    target.mkdir()
    code, _, _ = run(capsys, "convert", CORPORA / "gum" / "coref-ontogum-conll", target,
                     "--layout", "gum", "-q")
    assert code == 0 and len(os.listdir(target)) == 46
    glob_target = tmp_path / "some"
    glob_target.mkdir()
    code, _, _ = run(capsys, "convert", str(CORPORA / "litbank" / "1*.conll"), glob_target, "-q")
    assert sorted(os.listdir(glob_target)) == [
        "105_persuasion_brat.conll", "1064_the_masque_of_the_red_death_brat.conll",
        "1400_great_expectations_brat.conll", "1661_the_adventures_of_sherlock_holmes_brat.conll"]


def test_convert_reports_losses_and_strict_fails(tmp_path: Path, capsys):
    source = tmp_path / "plus.conll"
    source.write_text("#begin document (d); part 0\nd 0 0 A (1)\nd 0 1 B (2)\nd 0 2 they (1+2)\n"
                      "#end document\n")
    out = tmp_path / "out.conll"
    code, _, err = run(capsys, "convert", source, out)
    assert code == 0 and "2 split antecedents" in err
    out.unlink()
    code, _, err = run(capsys, "convert", source, out, "--strict")
    assert code == 1 and "would lose" in err and not out.exists()


def test_convert_to_stdout(capsys):
    code, out, _ = run(capsys, "convert", DATA / "TC-A-1.response", "-", "--to", "conll2012", "-q")
    assert code == 0 and out.startswith("#begin document (LuoTestCase); part 000\n")


def test_normalize_and_listings(tmp_path: Path, capsys):
    out = tmp_path / "norm.conll"
    code, _, _ = run(capsys, "normalize", DATA / "TC-A.key", out, "--pass", "remove-singletons", "-q")
    assert code == 0
    import corefkit

    [doc] = corefkit.read(out)
    assert sorted(doc.size(e) for e in doc.entities) == [2, 3]
    code, out_text, _ = run(capsys, "formats")
    assert code == 0 and "conll2012" in out_text and "cannot hold:" in out_text
    code, out_text, _ = run(capsys, "passes")
    assert "remove-singletons" in out_text


def test_help_and_version(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "score" in out and "convert" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and "corefkit" in out


def test_the_command_line_keeps_numpy_single_threaded_unless_told(tmp_path: Path):
    """corefkit does no multithreaded linear algebra; the CLI stops OpenBLAS from starting a
    thread per core (CPU per process, oversubscribed --jobs workers) but keeps a user's value."""
    probe = ("import os, corefkit.cli.main, numpy; "
             "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['OMP_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["1", "1"]
    env["OPENBLAS_NUM_THREADS"] = "3"
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["3", "1"]


def test_every_command_is_found_and_imported_only_when_used():
    """The group lists every command of COMMANDS, each resolves to its click command, and a
    command's module is not imported before it runs."""
    import click

    from corefkit.cli.main import COMMANDS, cli

    ctx = click.Context(cli)
    assert cli.list_commands(ctx) == list(COMMANDS)
    for name in COMMANDS:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command) and command.name == name
    assert cli.get_command(ctx, "nosuch") is None
    probe = ("import sys; from corefkit.cli.main import main; main(['formats']); "
             "print(sorted(m for m in sys.modules if m.startswith('corefkit.cli.')))")
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           cwd=ROOT, check=True).stdout.splitlines()[-1]
    assert found == "['corefkit.cli.help', 'corefkit.cli.listings', 'corefkit.cli.main']"


def test_unknown_command_is_bad_usage(capsys):
    code, _, err = run(capsys, "nosuch")
    assert code == 2 and "No such command 'nosuch'" in err
