"""The HTML report's long-range section (``corefkit report --by``): the strata of every system
side by side, the same numbers as ``corefkit score --by``."""

from __future__ import annotations

import importlib.util

import corefkit
from corefkit.cli.main import main
from tests.conftest import CONFORMANCE, CORPORA, ROOT

KEY = CORPORA / "corefud-zeros/la_proiel_peraeth/la_proiel_peraeth.conllu"
DATA = CONFORMANCE / "real/data/corefud-zeros/la_proiel_peraeth"


def _first(path, count, target):
    spec = importlib.util.spec_from_file_location("crac_demo", ROOT / "examples/crac/demo.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    target.write_text(module.first_documents(path, count), encoding="utf-8")
    return target


def test_long_range_section(tmp_path, capsys):
    key = _first(KEY, 3, tmp_path / "key.conllu")
    mild = _first(DATA / "response-mild.conllu", 3, tmp_path / "mild.conllu")
    heavy = _first(DATA / "response-heavy.conllu", 3, tmp_path / "heavy.conllu")
    page = tmp_path / "report.html"
    assert main(["report", str(key), str(mild), str(heavy), "-o", str(page), "--profile",
                 "crac23", "--by", "entity-size,distance", "--permutations", "50",
                 "--bootstrap", "50", "-q", "--lenient"]) == 0
    html = page.read_text(encoding="utf-8")
    assert '<div id="long-range">' in html and "Long-range entities" in html
    assert "by entity size (mentions of the entity)" in html
    assert "by distance to the previous mention (words)" in html
    # the heavy system's CoNLL F1 in the bucket of two-mention entities, as score --by gives it
    from corefkit.scoring.metrics.strata import strata_request

    metrics, options = strata_request("muc,bcub,ceafe", "entity-size")
    strata = corefkit.score(key, heavy, metrics, profile="crac23", metric_options=options,
                            jobs=1, lenient=True).metrics["strata"].counts
    assert f"<td>{100 * float(strata.conll('entity-size', '2')):.2f}</td>" in html
    without = tmp_path / "plain.html"
    assert main(["report", str(key), str(mild), "-o", str(without), "--profile", "crac23",
                 "--permutations", "50", "--bootstrap", "50", "-q", "--lenient"]) == 0
    assert "long-range" not in without.read_text(encoding="utf-8")
