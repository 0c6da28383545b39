"""One option surface (issue 13): reader and writer options come from the format specs and
every command offers them; warnings are grouped by check id; ``--ignore`` silences one."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from corefkit.cli.main import main
from corefkit.converters.registry import all_options, formats
from tests.conftest import CORPORA

AMI = CORPORA / "codi-crac22/AMI_dev_v2.2022.ES2004a.CONLLUA"
LCC = CORPORA / "lcc/116352.nkas.json"
HTC = next((CORPORA / "mmax2/htc").rglob("*.mmax"))
GUM = CORPORA / "gum/dep/GENTLE_dictionary_next.conllu"
LITBANK = CORPORA / "litbank/105_persuasion_brat.conll"


def run(capsys, *args: object) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", ["score", "convert", "normalize", "validate", "stats",
                                     "compare"])
def test_every_command_offers_every_reader_option(command, capsys):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    for option in all_options("read"):
        assert option.cli in out, (command, option.cli)


@pytest.mark.parametrize("command", ["convert", "normalize"])
def test_writing_commands_offer_every_writer_option(command, capsys):
    _, out, _ = run(capsys, command, "--help")
    for option in all_options("write"):
        assert option.cli in out, (command, option.cli)


def test_formats_lists_each_formats_options(capsys):
    _, out, _ = run(capsys, "formats")
    for spec in formats():
        for option in spec.read_options:
            assert option.cli in out


def test_score_takes_the_mmax_map(capsys):
    code, out, err = run(capsys, "score", HTC, HTC, "--mmax-map", "generic", "-m", "muc", "-q")
    assert code == 0 and "100.00" in out, err


def test_per_side_layers_and_an_option_for_the_other_format(capsys):
    code, out, _ = run(capsys, "score", LCC, LCC, "--key-layer", "manualCoreferences@1",
                       "--response-layer", "manualCoreferences@2", "-m", "muc", "-q")
    assert code == 0 and "muc" in out
    # --parse-gum-ids concerns the CoNLL-2012 side only; the LCC side does not get it
    code, _, err = run(capsys, "score", LCC, LCC, "--parse-gum-ids", "-q")
    assert code == 2 and "--parse-gum-ids applies to conll2012 input only" in err


def test_validate_takes_the_layer(capsys):
    code, out, _ = run(capsys, "validate", LCC, "--layer", "manualCoreferences@2")
    assert code == 0 and "0 errors" in out
    code, _, err = run(capsys, "validate", LCC, "--layer", "nonsense@x")
    assert code == 2 and "nonsense@x" in err


def test_key_and_response_formats_when_piped(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(LITBANK.read_bytes())))
    code, out, err = run(capsys, "score", "-", LITBANK, "--key-from", "conll2012", "-m", "muc",
                         "-q")
    assert code == 0 and "100.00" in out, err
    code, _, err = run(capsys, "score", "-", LITBANK, "-q")
    assert code == 2 and "pass --from" in err


def test_writing_to_stdout_without_to_says_stdout(capsys):
    code, _, err = run(capsys, "convert", LITBANK, "-")
    assert code == 2 and "output format of standard output" in err and "stdin" not in err


def test_warnings_are_grouped_by_check_and_ignore_silences_one(capsys, tmp_path: Path):
    code, _, err = run(capsys, "convert", AMI, tmp_path / "ami.conll")
    assert code == 0
    lines = err.splitlines()
    # ua.min-outside-span occurs 11 times in this file: one line for the first, one for the rest
    grouped = [line for line in lines if "ua.min-outside-span" in line]
    assert len(grouped) == 2 and "and 10 more ua.min-outside-span" in grouped[1]
    assert len(lines) < 40 and "not carried over:" in err
    code, _, err = run(capsys, "convert", AMI, tmp_path / "ami2.conll", "--ignore",
                       "ua.min-outside-span,ua.space-*")
    assert code == 0 and "ua.min-outside-span" not in err and "ua.space-separated" not in err
    assert "ua.missing-columns" in err


def test_stats_warnings_grouped(capsys):
    code, _, err = run(capsys, "stats", AMI)
    assert code == 0 and sum("ua.min-outside-span" in line for line in err.splitlines()) == 2
