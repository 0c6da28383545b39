"""Pass registry and the remove-singletons pass."""

from __future__ import annotations

import pytest

import corefkit
from corefkit.errors import UsageError
from corefkit.passes import all_passes, apply_passes, parse_pass
from tests.conftest import CORPORA


def test_remove_singletons_on_litbank():
    [doc] = corefkit.read(CORPORA / "litbank" / "105_persuasion_brat.conll")
    [result] = apply_passes([doc], ["remove-singletons"])
    assert len(doc.entities) == 72 and len(result.entities) == 72 - 52
    assert all(result.size(e) > 1 for e in result.entities)
    assert len(result.mentions) == 286 - 52
    assert result.tokens[0] is doc.tokens[0]  # text layer shared, anaphora copied
    assert len(doc.mentions) == 286  # the input is untouched: passes are pure
    assert result.repairs[-1].check == "pass.remove-singletons"


def test_parse_pass_options():
    spec, options = parse_pass("remove-singletons")
    assert spec.name == "remove-singletons" and options == {}
    with pytest.raises(UsageError, match="no option"):
        parse_pass("remove-singletons:keep=1")
    with pytest.raises(UsageError, match="unknown pass"):
        parse_pass("nonsense")
    with pytest.raises(UsageError, match="name=value"):
        parse_pass("remove-singletons:oops")


def test_every_pass_has_a_description():
    passes = all_passes()
    assert passes and all(p.description for p in passes)
