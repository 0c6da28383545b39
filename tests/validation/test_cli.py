"""``corefkit validate``: output lines, JSON, summary, exit codes 0 / 1 / 2."""

from __future__ import annotations

import json
import subprocess
import sys

from corefkit.cli.main import main
from tests.validation.helpers import VALIDATION

CONLL = VALIDATION / "conll2012"
PAIR = VALIDATION / "pair"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main(["validate", *[str(a) for a in args]])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_input_exits_0_with_a_summary(capsys):
    code, out, err = run(capsys, CONLL / "valid-ontonotes.conll")
    assert code == 0 and err == ""
    assert out == "corefkit validate: 1 file, 2 documents: 0 errors, 0 warnings\n"


def test_warnings_alone_exit_0(capsys):
    code, out, _ = run(capsys, CONLL / "empty-name.conll")
    assert code == 0
    assert out.splitlines()[0] == (
        f"{CONLL / 'empty-name.conll'}:1: [WARNING] conll.empty-name: document without a name; "
        "named it 'empty-name' after the file (document empty-name)")


def test_errors_exit_1_one_line_each(capsys):
    code, out, _ = run(capsys, CONLL / "same-span-mentions.conll", CONLL / "unclosed.conll")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 5
    assert lines[0].startswith(f"{CONLL / 'same-span-mentions.conll'}:2: [ERROR] "
                               "conll.same-span-mentions: ")
    assert lines[0].endswith("(document demo, sentence 1)")
    assert lines[1].startswith(f"{CONLL / 'unclosed.conll'}:5: [ERROR] conll.unclosed: ")
    assert lines[2] == "corefkit validate: 2 files, 1 document: 2 errors, 0 warnings"
    # then each check met, with its count (issue 13: a per-check summary)
    assert lines[3:] == ["  conll.same-span-mentions  1 error", "  conll.unclosed            1 error"]


def test_json_is_one_object_per_line_and_the_summary_goes_to_stderr(capsys):
    code, out, err = run(capsys, CONLL / "same-span-mentions.conll", "--format", "json")
    [line] = out.splitlines()
    finding = json.loads(line)
    assert code == 1 and list(finding) == ["level", "severity", "check", "file", "line",
                                           "document", "sentence", "message", "explanation"]
    assert finding["check"] == "conll.same-span-mentions" and finding["line"] == 2
    assert err == ("corefkit validate: 1 file, 1 document: 1 error, 0 warnings\n"
                   "  conll.same-span-mentions  1 error\n")


def test_options(capsys):
    code, out, _ = run(capsys, CONLL, "--level", "1", "--exclude", "conll.*",
                       "--include-only", "file.no-documents,text.invalid-utf8")
    checks = {line.split("] ")[1].split(":")[0] for line in out.splitlines() if "] " in line}
    # rejections always; file.no-documents selected; text.invalid-utf8 is a rejection anyway
    assert "file.no-documents" in checks and "conll.empty-name" not in checks
    code, out, _ = run(capsys, CONLL, "--max-err", "2")
    assert code == 1 and out.count("[ERROR]") == 2 and "stopped after 2 errors" in out
    code, out, _ = run(capsys, CONLL / "unknown-format.txt", "--from", "conll2012")
    assert "conll.outside-document" in out


def test_pair(capsys):
    code, out, _ = run(capsys, PAIR / "key.conll", PAIR / "response-good.conll", "--pair")
    assert code == 0
    code, out, _ = run(capsys, PAIR / "key.conll", PAIR / "response-tokens.conll", "--pair")
    assert code == 1 and "pair.tokens: word 4 is 'smiled' in the key but 'smiles'" in out


def test_usage_errors_exit_2(capsys):
    for args in ([], ["--level", "4", CONLL], ["--exclude", "nope.nope", CONLL],
                 ["--pair", CONLL / "empty-name.conll"],
                 ["--from", "word", CONLL], ["--max-err", "0", CONLL],
                 ["--format", "xml", CONLL]):
        code, out, err = run(capsys, *args)
        assert code == 2, args
        assert "Traceback" not in err and err.count("\n") <= 4


def test_a_missing_file_exits_1_as_in_every_command(capsys):
    """validate said 2 for a missing file where every other command said 1 (issue 22): a path
    that cannot be read is bad input, exit 1, one line."""
    code, out, err = run(capsys, CONLL / "no-such-file.conll")
    assert code == 1 and out == ""
    assert err == f"corefkit: error: {CONLL / 'no-such-file.conll'}: no such file or directory\n"


def test_list_checks(capsys):
    code, out, _ = run(capsys, "--list-checks")
    lines = out.splitlines()
    assert code == 0 and len(lines) > 60
    assert any(line.startswith("conll.unclosed\tlevel 1\terror\tconll2012\t") for line in lines)
    assert any(line.startswith("mention.same-span\tlevel 3\terror\tall formats\t")
               for line in lines)


def test_console_script_exit_code_and_no_traceback(tmp_path):
    garbage = tmp_path / "x.conll"
    garbage.write_bytes(b"#begin document (x)\n\x00\xff\xfe(((\n")
    result = subprocess.run([sys.executable, "-m", "corefkit", "validate", str(garbage)],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "text.invalid-utf8" in result.stdout
