"""Spans annotated many times (issue 22: 40,000 mentions on one token took 18 s and 2.5 GB,
then exit 3): each repeat is reported once with a bounded message, and what the model cannot
hold in linear space is refused with a located error."""

from __future__ import annotations

import json

import pytest

from corefkit.converters.registry import read
from corefkit.converters.same_span import SpanOwners
from corefkit.errors import FormatError
from corefkit.validation import validate


def test_span_owners_name_three_and_count_the_rest():
    owners = SpanOwners()
    assert owners.add((0, 0), "a") is None
    assert owners.add((0, 0), "b").others == "'a'"
    for name in "cde":
        owners.add((0, 0), name)
    repeat = owners.add((0, 0), "f")
    assert not repeat.duplicate and repeat.others == "'a', 'b', 'c' and 2 more"
    again = owners.add((0, 0), "a")
    assert again.duplicate and again.others == "'b', 'c', 'd' and 2 more"
    assert SpanOwners(quote=False).add((1, 1), "7") is None


def _conll(tmp_path, cell: str):
    path = tmp_path / "repeats.conll"
    path.write_text(f"#begin document (d); part 000\nd\t0\t0\tJohn\t{cell}\n"
                    "d\t0\t1\tsaw\t-\n\n#end document\n")
    return path


def test_conll_repeats_on_one_token_are_reported_briefly(tmp_path):
    path = _conll(tmp_path, "|".join(f"({i})" for i in range(2000)) + "|(0)")
    (doc,) = read(path, lenient=True)
    same = [r for r in doc.repairs if r.check == "conll.same-span-mentions"]
    duplicate = [r for r in doc.repairs if r.check == "conll.duplicate-mention"]
    assert len(same) == 1999 and len(duplicate) == 1
    assert same[-1].message == ("tokens 0-0 are a mention of '1999' and of '0', '1', '2' and "
                                "1996 more; kept both (the merge-same-span pass resolves them)")
    assert max(len(r.message) for r in doc.repairs) < 150


def test_corefud_repeats_on_one_node_are_reported_briefly(tmp_path):
    path = tmp_path / "repeats.conllu"
    entity = "".join(f"(e{i}--1)" for i in range(1, 1001))
    path.write_text("# global.Entity = eid-etype-head-other\n# newdoc id = d\n# sent_id = 1\n"
                    "# text = John saw\n"
                    f"1\tJohn\tJohn\tPROPN\t_\t_\t0\troot\t_\tEntity={entity}\n"
                    "2\tsaw\tsee\tVERB\t_\t_\t1\tdep\t_\t_\n\n")
    (doc,) = read(path, lenient=True)
    same = [r for r in doc.repairs if r.check == "corefud.same-span-entity-mentions"]
    assert len(same) == 999
    assert same[-1].message == ("'e1000' and 'e1', 'e2', 'e3' and 996 more have a mention on "
                                "the same nodes; kept both")


def test_jsonlines_repeats_are_reported_briefly(tmp_path):
    path = tmp_path / "repeats.jsonlines"
    record = {"doc_key": "d", "sentences": [["John", "saw"]],
              "clusters": [[[0, 0]] for _ in range(500)]}
    path.write_text(json.dumps(record) + "\n")
    (doc,) = read(path, lenient=True)
    messages = [r.message for r in doc.repairs]
    assert len(messages) == 499 and max(map(len, messages)) < 200
    assert "cluster 499 and of cluster 0, 1, 2 and 496 more" in messages[-1]


def _nested(tmp_path, n: int):
    cells = [f"({i}" for i in range(n)]
    cells[-1] = f"({n - 1})|" + "|".join(f"{i})" for i in range(n - 2, -1, -1))
    path = tmp_path / "nested.conll"
    path.write_text("#begin document (d); part 000\n" + "".join(
        f"d\t0\t{i}\tw{i}\t{cell}\n" for i, cell in enumerate(cells)) + "\n#end document\n")
    return path


def test_mentions_covering_too_many_positions_are_refused_with_a_location(tmp_path):
    path = _nested(tmp_path, 3000)  # 3000 mentions nested: 4.5 million token positions
    with pytest.raises(FormatError) as caught:
        list(read(path))
    assert caught.value.check == "document.too-large" and caught.value.line == 1
    assert "cover more than 4,000,000 token positions" in str(caught.value)
    found = validate(path)
    assert [f.check for f in found] == ["document.too-large"] and found[0].line == 1


def test_nesting_below_the_limit_is_read(tmp_path):
    (doc,) = read(_nested(tmp_path, 500))
    assert len(doc.mentions) == 500
