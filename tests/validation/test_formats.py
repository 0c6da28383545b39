"""CorefUD, CoNLL-UA, LCC, MMAX2, brat, GAP, WebAnno TSV, UIMA CAS, text2text and the NLP
libraries' outputs: every check id has a fixture that triggers it alone.

Fixtures are named after their check (``corefud/bad-columns.conllu`` triggers
``corefud.bad-columns``); ``valid*`` fixtures trigger nothing. They are written by the
``make_fixtures.py`` script of each folder. A few incidents always come with a second one,
listed in ``TOGETHER`` with the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from corefkit.validation import all_checks, validate
from tests.validation.helpers import VALIDATION
from tests.validation.test_conll2012 import INVALID as CONLL_FIXTURES
from tests.validation.test_model import BUILDERS

FOLDERS = {"corefud": ("corefud", ".conllu"), "ua": ("ua", ".conllua"),
           "lcc": ("lcc", ".nkas.json"), "mmax2": ("mmax2", ""),
           "jsonlines": ("jsonlines", ".jsonl"), "brat": ("brat", ".ann"),
           "gap": ("gap", ".tsv"), "webanno-tsv": ("webanno-tsv", ".tsv"),
           "uima-cas": ("cas", ""),
           "text2text": ("text2text", ".t2t"),
           "text2text-json": ("text2text-json", ".t2t.json"),
           "fastcoref": ("fastcoref", ".jsonl"), "maverick": ("maverick", ".jsonl"),
           "spacy": ("spacy", ".jsonl"), "stanza": ("stanza", ".conllu"),
           "stanza-json": ("stanza-json", ".json"), "corenlp": ("corenlp", ".xml"),
           "corenlp-json": ("corenlp-json", ".json")}
# folders whose files are read as a named format (their broken files show no format of their
# own; fastcoref and Maverick files are detected as jsonlines)
FORMAT_OF = {folder: folder for folder in ("fastcoref", "maverick", "spacy", "stanza",
                                           "stanza-json", "corenlp", "corenlp-json")}
# fixture -> check, where the name alone does not say it
SPECIAL = {"lcc/zero-no-empty-node.nkas.json": "zero.no-empty-node",
           "mmax2/crossing": "mention.crossing-same-entity"}
# fixture -> reader options it needs
OPTIONS = {"mmax2/nonref-pointer": {"level_map": str(VALIDATION / "mmax2/pointer-identity-map.json")}}
OPTIONS.update({f"brat/{name}.ann": {"brat_tokens": str(VALIDATION / "brat/companion.conll")}
                for name in ("companion-mismatch", "no-companion-document", "snapped-span",
                             "valid-companion")})
# incidents that cannot occur alone
TOGETHER = {
    # a statement on a node without Entity is, by definition, on a node where no mention starts
    "corefud/bridge-without-entity.conllu": {"corefud.misplaced-bridge-statement"},
    "corefud/splitante-without-entity.conllu": {"corefud.misplaced-splitante-statement"},
    # an empty XPOS is an empty column; an unknown DEPS head id is no id (both UD tests fire)
    "corefud/empty-string-in-xpos.conllu": {"corefud.empty-column"},
    "corefud/invalid-ehead.conllu": {"corefud.unknown-ehead"},
    # text the FORMs do not spell is left over at the end (the UD validator reports both)
    "corefud/text-form-mismatch.conllu": {"corefud.text-extra-chars"},
    "corefud/empty-text.conllu": {"corefud.text-form-mismatch"},
    # a sentence whose one line is invalid has no token line (the UD validator: empty-sentence)
    "corefud/invalid-line.conllu": {"corefud.empty-sentence"},
    # a line without the IDENTITY column is a line with fewer fields than declared
    "ua/missing-identity.conllua": {"ua.missing-columns"},
    # a line cut off is a line with fewer fields than declared
    "ua/truncated.conllua": {"ua.missing-columns"},
    # a pointer can only point to a skipped markable if some markable was bad
    "mmax2/pointer-to-skipped": {"mmax2.bad-span"},
}
# reader ids a validation run cannot reach, with the reason
UNREACHABLE = {
    "mmax2.no-project": "validate expands directories itself: a folder without a project is a "
                        "usage error before any reader runs",
    "brat.no-annotations": "the same for a folder without an .ann file",
    "cas.no-files": "the same for a folder without an .xmi file",
    "webanno-tsv.no-header": "an empty file is recognised as no format; read as WebAnno TSV "
                             "(--from) it is this check (tests/converters/test_webanno_tsv.py)",
}


def fixtures() -> list[tuple[str, str | None]]:
    found = []
    for folder, (prefix, suffix) in FOLDERS.items():
        for path in sorted((VALIDATION / folder).iterdir()):
            if path.name.startswith(("make_", "__")) or path.suffix == ".json" and suffix == "":
                continue
            if suffix and not path.name.endswith(suffix):
                continue
            if not suffix and not path.is_dir():
                continue
            key = f"{folder}/{path.name}"
            stem = path.name[: len(path.name) - len(suffix)] if suffix else path.name
            check = None if stem.startswith("valid") else SPECIAL.get(key, f"{prefix}.{stem}")
            found.append((key, check))
    return found


FIXTURES = fixtures()


def run(key: str):
    path = VALIDATION / key
    if path.is_dir() and key.startswith("mmax2/") and not any(path.glob("*.mmax")):
        path = path / "project"  # the project sits below its common_files folder
    return validate(path, format=FORMAT_OF.get(key.split("/")[0]), read_options=OPTIONS.get(key))


@pytest.mark.parametrize(("key", "check"), FIXTURES, ids=[k for k, _ in FIXTURES])
def test_fixture(key, check):
    result = run(key)
    found = {f.check for f in result}
    if check is None:
        assert found == set() and result.documents >= 1
    else:
        assert found == {check} | TOGETHER.get(key, set())


@pytest.mark.parametrize(("options", "check"), [
    ({"level_map": str(VALIDATION / "mmax2/bad-map.json")}, "mmax2.bad-map"),
    ({"common_paths": str(VALIDATION / "mmax2/valid/common_paths.xml")}, "mmax2.common-paths-local"),
])
def test_mmax2_checks_of_reader_options(options, check):
    assert {f.check for f in validate(VALIDATION / "mmax2/valid-bridging", read_options=options)} \
        == {check}


def test_every_check_has_a_fixture():
    covered = {c for _, c in FIXTURES if c} | set(CONLL_FIXTURES.values()) | set(BUILDERS)
    covered |= {"mmax2.bad-map", "mmax2.common-paths-local"}
    # the tool formats' writer repairs (tests/converters/test_webanno_tsv.py)
    covered |= {"webanno-tsv.form-changed", "cas.form-changed"}
    # the library writers' repairs (tests/converters/test_libraries.py)
    # (the library writers report changed forms and sentence breaks as losses, not repairs)
    covered |= {c for extra in TOGETHER.values() for c in extra}
    covered |= {"file.unreadable"}  # tests/validation/test_engine.py
    covered |= {"document.too-large"}  # tests/converters/test_same_span.py
    covered |= {c.id for c in all_checks() if c.origin == "pair"}  # tests/validation/test_pair.py
    missing = sorted(c.id for c in all_checks() if c.id not in covered and c.id not in UNREACHABLE)
    assert missing == []


def test_fixture_names_are_registered_checks():
    ids = {c.id for c in all_checks()}
    assert {c for _, c in FIXTURES if c} <= ids


def test_rejections_give_their_line():
    [finding] = validate(VALIDATION / "corefud/unbalanced-close.conllu")
    assert (finding.line, finding.severity) == (6, "error")
    [finding] = validate(VALIDATION / "ua/unclosed.conllua")
    assert finding.line is not None and finding.severity == "error"
    [finding] = validate(VALIDATION / "mmax2/bad-span")
    assert finding.file.endswith("bad-span_coref_level.xml") and finding.line == 7


def test_mmax2_mention_findings_point_into_the_markable_file():
    [finding] = validate(VALIDATION / "mmax2/crossing")
    assert finding.file.endswith(str(Path("Markables") / "crossing_coref_level.xml"))
    assert finding.line == 4 and finding.sentence == "1"


def test_corefud_findings_point_at_the_node():
    [finding] = validate(VALIDATION / "corefud/bracket-order.conllu")
    assert (finding.line, finding.sentence) == (7, "d-1")
    assert finding.message == ("Entity=e1)(e2-person-1): expected one-node chunks before "
                               "closers when nothing opens here")
    [finding] = validate(VALIDATION / "corefud/split-antecedent-mismatch.conllu")
    assert finding.line == 8
    assert finding.message == ("SplitAnte of set 'e3' lists 'e1', 'e4' here but 'e1', 'e2' at "
                               "'her'")
