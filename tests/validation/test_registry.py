"""The check registry: unique ids, one-line explanations, and every reader id described."""

from __future__ import annotations

import re

import pytest

from corefkit.converters.registry import formats, get, plugin_for
from corefkit.validation import all_checks, get_check
from tests.conftest import ROOT

PREFIX = {"conll2012": "conll", "corefud": "corefud", "lcc": "lcc", "mmax2": "mmax2",
          "ua-exploded": "ua", "jsonlines": "jsonlines", "brat": "brat", "gap": "gap",
          "webanno-tsv": "webanno-tsv", "uima-cas": "cas",
          "text2text": "text2text", "text2text-json": "text2text-json",
          "fastcoref": "fastcoref", "maverick": "maverick", "spacy": "spacy", "stanza": "stanza",
          "stanza-json": "stanza-json", "corenlp": "corenlp", "corenlp-json": "corenlp-json"}
# the checks of the annotation-tool layers' shared builder (tool_layers/build.py), which each
# reader reports under its own prefix
TOOL_LAYER_CHECKS = ("span-outside-tokens", "self-relation", "relation-within-entity")
# ids built with f-strings in the readers, spelled out
DYNAMIC = {
    "webanno-tsv": {f"webanno-tsv.{c}" for c in TOOL_LAYER_CHECKS},
    "uima-cas": {f"cas.{c}" for c in (*TOOL_LAYER_CHECKS, "group-without-mentions")},
    "corefud": {"corefud.repeated-entity", "corefud.repeated-splitante",
                "corefud.repeated-bridge", "corefud.entity-type-mismatch",
                "corefud.entity-identity-mismatch", "corefud.repeated-bridge-relation",
                "corefud.bridge-relation-mismatch"},
}


def reader_ids(fmt: str) -> set[str]:
    """Literal check ids in the reading modules of a format package (all but the writer, the
    spec and the checks)."""
    package = ROOT.joinpath(*get(fmt).package.split("."))
    found: set[str] = set()
    for module in sorted(package.glob("*.py")):
        if module.name in ("writer.py", "spec.py", "checks.py", "__init__.py"):
            continue
        source = module.read_text()
        cut = re.search(r"^# =+ writing", source, re.M)  # a module that also writes
        source = source[: cut.start()] if cut else source
        found |= set(re.findall(rf"[\"']((?:{PREFIX[fmt]}|text|split|file)\.[a-z0-9-]+)[\"']",
                                source))
    assert found, f"no check id found in {package}"
    return found


def test_every_registered_format_has_a_plugin():
    for spec in formats():
        assert plugin_for(spec.name).format == spec.name
        assert spec.checks().PLUGIN is plugin_for(spec.name)


@pytest.mark.parametrize("fmt", sorted(PREFIX))
def test_every_reader_check_is_registered(fmt):
    missing = sorted(i for i in reader_ids(fmt) | DYNAMIC.get(fmt, set()) if get_check(i) is None)
    assert missing == []


def test_checks_are_well_formed():
    checks = all_checks()
    assert len({c.id for c in checks}) == len(checks)
    for check in checks:
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*", check.id)
        assert check.explanation and "\n" not in check.explanation
        assert not check.explanation.endswith(".")
        if check.format is not None:
            assert check.id.split(".")[0] == PREFIX[check.format]
            assert get(check.format).name == check.format


@pytest.mark.parametrize("fmt", sorted(PREFIX))
def test_plugin_maps_name_registered_checks(fmt):
    plugin = plugin_for(fmt)
    for model_id, format_id in {**plugin.covered, **plugin.renamed}.items():
        assert get_check(model_id).format is None
        assert get_check(format_id).format == fmt
    for format_id in plugin.renamed.values():
        assert get_check(format_id).origin == "validator"
