"""``corefkit convert`` between CoNLL-2012 and CorefUD, and ``corefkit formats``."""

from __future__ import annotations

from pathlib import Path

import corefkit
from corefkit.cli.main import main
from tests.conftest import CONFORMANCE, CORPORA

GUM = CORPORA / "gum"
REFERENCE = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"


def run(capsys, *args) -> tuple[int, str, str]:
    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err


def test_gum_to_conll2012_reports_what_is_lost(tmp_path: Path, capsys):
    target = tmp_path / "arendt.conll"
    code, _, err = run(capsys, "convert", GUM / "dep/GUM_letter_arendt.conllu", target)
    assert code == 0 and target.exists()
    assert "not carried over:" in err
    for what in ("split antecedents", "bridging relations", "minimum spans", "document metadata"):
        assert what in err, what
    assert "GUM_letter_arendt: tokens " in err  # first locations


def test_strict_conversion_fails_and_writes_nothing(tmp_path: Path, capsys):
    target = tmp_path / "arendt.conll"
    code, _, err = run(capsys, "convert", GUM / "dep/GUM_letter_arendt.conllu", target, "--strict")
    assert code == 1 and not target.exists()
    assert err.startswith("corefkit: error: writing GUM_letter_arendt as conll2012 would lose: ")
    assert not list(tmp_path.iterdir())  # no temporary file left behind


def test_directory_of_gum_files_to_conll2012_and_back(tmp_path: Path, capsys):
    conll = tmp_path / "conll"
    conll.mkdir()
    code, _, err = run(capsys, "convert", GUM / "dep", conll, "--to", "conll2012", "-q")
    assert code == 0 and err == ""
    assert len(list(conll.glob("*.conll"))) == 46
    back = tmp_path / "conllu"
    back.mkdir()
    code, _, err = run(capsys, "convert", conll, back, "--to", "corefud")
    assert code == 0 and "wrote 46 documents" in err
    (doc,) = corefkit.read(back / "GUM_academic_art.conllu")
    (original,) = corefkit.read(GUM / "dep/GUM_academic_art.conllu")
    assert doc.attrs["corefud_profile"] == "corefud"
    assert len(doc.mentions) == len(original.mentions)


def test_glob_and_profiles(tmp_path: Path, capsys):
    pattern = str(GUM / "dep" / "GUM_news_*.conllu")
    code, _, _ = run(capsys, "convert", pattern, tmp_path, "--conllu-profile", "corefud",
                     "--keep-min", "-q")
    assert code == 0
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["GUM_news_afghan.conllu", "GUM_news_asylum.conllu"]
    text = (tmp_path / "GUM_news_afghan.conllu").read_text(encoding="utf-8")
    assert "# global.Entity = eid-etype-head-other-minspan\n" in text


def test_conll2012_to_corefud_file(tmp_path: Path, capsys):
    target = tmp_path / "tc-a.conllu"
    code, _, err = run(capsys, "convert", REFERENCE / "TC-A.key", target)
    assert code == 0 and "derived" in err
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# newdoc id = ") and "# global.Entity = eid-etype-head-other" in text


def test_formats_lists_corefud(capsys):
    code, out, _ = run(capsys, "formats")
    assert code == 0
    lines = out.split("corefud (aliases: ua-compact")[1].splitlines()[1:5]
    assert [line.split(":")[0].strip() for line in lines] == ["files", "holds", "holds in part",
                                                              "cannot hold"]
    assert "*.conllu" in lines[0]
    assert "zeros" in lines[1] and "parts" in lines[1]
    assert "split_antecedents (" in lines[2] and "bridging (" in lines[2]


def test_formats_says_what_lcc_holds_only_in_part(capsys):
    """LCC's writer keeps a singleton only through its type code: 'holds' alone misled."""
    _, out, _ = run(capsys, "formats")
    lcc = out.split("\nlcc (")[1].splitlines()
    holds = next(line for line in lcc if line.strip().startswith("holds:"))
    in_part = next(line for line in lcc if line.strip().startswith("holds in part:"))
    assert "singletons" not in holds and "singletons (only with a type code" in in_part
