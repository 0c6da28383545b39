"""No input, however broken, gives a traceback: only CorefkitError subclasses, or findings.

Hypothesis feeds every reader truncated real files, byte-level and token-level mutations of
them, binary garbage, files of another format, empty files and huge lines. Reading must end
in documents or a ``CorefkitError``; validating must end in findings, never an exception.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corefkit.converters.paths import InputError
from corefkit.converters.registry import read
from corefkit.errors import CorefkitError
from corefkit.validation import validate
from tests.conftest import CONFORMANCE, CORPORA
from tests.validation.helpers import VALIDATION

LIBRARIES = Path(__file__).resolve().parents[2] / "examples" / "libraries"

EXAMPLES = int(os.environ.get("COREFKIT_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# small real samples per stream format, and the pieces of syntax worth splicing in
SAMPLES = {
    "conll2012": [VALIDATION / "conll2012" / "valid-ontonotes.conll",
                  VALIDATION / "conll2012" / "valid-gum-layout.conll",
                  CONFORMANCE / "data/reference-coreference-scorers/DataFiles/TC-C.key"],
    "corefud": [VALIDATION / "pair" / "key.conllu",
                CONFORMANCE / "data/corefud-scorer/tests-corefud/partial-corefud-match/"
                              "noncontig_mentions/TC-NCMB.key",
                CONFORMANCE / "data/corefud-scorer/tests-corefud/zeros/TC-ZA.key"],
    "ua-exploded": [CONFORMANCE / "data/universal-anaphora-scorer/plural-tests/TC-PA.key",
                    CONFORMANCE / "data/corefud-scorer/tests-ua/discontinuous-craft/TC-O.key",
                    CONFORMANCE / "data/corefud-scorer/tests-ua/zeros/TC-ZA.key"],
    "lcc": [CORPORA / "lcc" / "116363.nkas.json", CORPORA / "lcc" / "116367.nkas.json"],
    "webanno-tsv": [CORPORA / "inception" / "tsv3-suite" / "testStackedChain" / "reference.tsv",
                    CORPORA / "inception" / "tsv3-suite" / "testSubtokenChain" / "reference.tsv",
                    Path(__file__).resolve().parents[1] / "fixtures" / "webanno" / "gum-small.tsv"],
    # the NLP libraries' outputs
    "fastcoref": [CORPORA / "system-outputs" / "fastcoref" / "out_test.jsonlines",
                  VALIDATION / "fastcoref" / "valid.jsonl"],
    "maverick": [VALIDATION / "maverick" / "valid.jsonl"],
    "spacy": [LIBRARIES / "spacy" / "spacy-experimental.jsonl", VALIDATION / "spacy" / "valid.jsonl"],
    "stanza": [CORPORA / "system-outputs" / "stanza" / "coref_doc_example.tabs.conllu",
               VALIDATION / "stanza" / "valid.conllu"],
    "stanza-json": [VALIDATION / "stanza-json" / "valid.json"],
    "corenlp": [CORPORA / "system-outputs" / "corenlp" / "input.txt.xml",
                VALIDATION / "corenlp" / "valid.xml"],
    "corenlp-json": [CORPORA / "system-outputs" / "corenlp" / "corenlp-parser_headlines.json",
                     VALIDATION / "corenlp-json" / "valid.json"],
}
# characters that str.isdigit() accepts but int() refuses, and other Unicode traps
UNICODE = ["\u00b2", "\u0663", "\u00a0", "\u2028", "\u0085", "\ufeff", "\U0001f600", "\x00"]
PIECES = {
    "conll2012": ["(", ")", "|", "(1", "1)", "(1)", "(2+3)", "\t", " ", "\n", "-", "_",
                  "#begin document (x); part 0\n", "#end document\n", "# x\n", "\n\n", "((",
                  "part", ";", "\r", "\ufeff"],
    "corefud": ["(", ")", "Entity=", "SplitAnte=", "Bridge=", "<", ":", ",", "-", "[1/2]",
                "[2/2]", "[1/1]", "\t", "|", "=", "\n", "# newdoc id = d\n",
                "# global.Entity = eid-etype-head-other\n", "# global.Entity = GRP\n", "1-2",
                "5.1", ".", "0", "e1", "99", "\n\n"],
    "ua-exploded": ["(", ")", "|", "EntityID=", "MarkableID=markable_", "Min=", "ElementOf=",
                    "-Pseudo", "MentionAnchor=", "Rel=", "@", "markable_1)", "\t", "   ", "\n",
                    "# newdoc id = x\n", "# global.columns = ID FORM IDENTITY\n", "0", "1.1",
                    "=", ",", "_", "-DD"],
    "lcc": ['"', "[", "]", "{", "}", ",", ":", "-1", "0", "99999", "null", "true", '"x"',
            '\\"', "\\\\", '[0, 1]', '[]', '{}', '"Mentions"', '"Referant"', '"content"',
            '"Type"', '"gtis"', '"ppag"', '"e-as"'],
    "webanno-tsv": ["\t", "|", "_", "*", "[1]", "[0_1]", "[2_3]", "->", "->1-1", "*->1-2", "\\",
                    "\\|", "#Text=x\n", "\n\n", "1-1", "1-1.1", "0-4", "3-2", "#T_SP=a|b\n",
                    "#T_CH=x|referenceType|referenceRelation\n", "#T_RL=r|v|BT_a\n",
                    "#FORMAT=WebAnno TSV 3.3\n", "#Sentence.id=", "-", ".", "\r"],
}
_JSON = ['"', "[", "]", "{", "}", ",", ":", "-1", "0", "99999", "null", "true", "[0, 1]",
         "[[0, 1]]", "[]", "{}", "1.5", '"x"', "\n"]
PIECES.update({
    "fastcoref": [*_JSON, '"text"', '"clusters"', '"clusters_strings"', '"doc_key"'],
    "maverick": [*_JSON, '"tokens"', '"clusters_token_offsets"', '"clusters_char_offsets"',
                 '"clusters_token_text"', '"clusters_char_text"', '"text"'],
    "spacy": [*_JSON, '"text"', '"tokens"', '"sents"', '"spans"', '"start"', '"end"',
              '"coref_clusters_1"', '"coref_head_clusters_1"', '"head"'],
    "stanza": ["\t", "|", "=", ",", "\n", "\n\n", "coref_chains=", "unit-id0", "start-repr-id0",
               "middle-id1", "end-id0", "ner=", "start_char=", "end_char=", "1-2", "5.1",
               "# text = x\n", "# newdoc id = d\n", "_", "-"],
    "stanza-json": [*_JSON, '"id"', '"text"', '"start_char"', '"end_char"', '"coref_chains"',
                    '"index"', '"is_start"', '"is_end"', '"representative_text"', "[1, 2]"],
    "corenlp": ["<", ">", "</", "<mention>", "</mention>", "<start>", "<end>", "<head>",
                "<sentence>", "<text>", "<token>", "<word>", "<CharacterOffsetBegin>", "&amp;",
                "&x;", "<!DOCTYPE r [<!ENTITY x 'y'>]>", "0", "99", "-1"],
    "corenlp-json": [*_JSON, '"sentences"', '"tokens"', '"word"', '"corefs"', '"sentNum"',
                     '"startIndex"', '"endIndex"', '"headIndex"', '"characterOffsetBegin"',
                     '"before"', '"after"', '"originalText"'],
})


for _pieces in PIECES.values():
    _pieces.extend(UNICODE)


def _write(data: bytes, suffix: str) -> Path:
    handle = tempfile.NamedTemporaryFile("wb", suffix=suffix, delete=False)
    with handle:
        handle.write(data)
    return Path(handle.name)


def survives(path: Path, fmt: str, **options) -> None:
    """Reading gives documents or a CorefkitError; validating gives findings."""
    try:
        for _ in read(path, format=fmt, **options):
            pass
    except CorefkitError:
        pass
    result = validate(path, format=fmt, read_options=options or None)
    assert all(f.check and f.message and f.file for f in result)
    if fmt != "mmax2":  # a stream's errors are located on a line (MMAX2: on a file)
        assert all(f.line is not None for f in result if f.severity == "error")


def check_bytes(data: bytes, fmt: str) -> None:
    path = _write(data, ".nkas.json" if fmt == "lcc" else ".txt")
    try:
        survives(path, fmt)
    finally:
        path.unlink()


@st.composite
def mutated(draw, fmt: str) -> bytes:
    """A real sample, cut, with pieces of syntax spliced in and bytes flipped."""
    data = draw(st.sampled_from(SAMPLES[fmt])).read_bytes()
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["piece", "byte", "delete"]))
        if action == "piece":
            data = data[:at] + draw(st.sampled_from(PIECES[fmt])).encode() + data[at:]
        elif action == "byte":
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        else:
            data = data[:at] + data[at + draw(st.integers(1, 40)):]
    return data


STREAM_FORMATS = sorted(SAMPLES)


@pytest.mark.parametrize("fmt", STREAM_FORMATS)
@FUZZ
@given(data=st.data())
def test_mutated_real_files(fmt, data):
    check_bytes(data.draw(mutated(fmt)), fmt)


@pytest.mark.parametrize("fmt", STREAM_FORMATS)
@FUZZ
@given(garbage=st.binary(max_size=2000))
def test_binary_garbage(fmt, garbage):
    check_bytes(garbage, fmt)


@pytest.mark.parametrize("fmt", STREAM_FORMATS)
@FUZZ
@given(text=st.text(max_size=500))
def test_arbitrary_text(fmt, text):
    check_bytes(text.encode("utf-8"), fmt)


@pytest.mark.parametrize("fmt", STREAM_FORMATS)
def test_wrong_format_empty_file_and_huge_line(fmt):
    for other, samples in SAMPLES.items():
        for sample in samples:
            if other != fmt:
                survives(sample, fmt)
    check_bytes(b"", fmt)
    huge = b"x" * 3_000_000
    check_bytes(huge, fmt)
    check_bytes(SAMPLES[fmt][0].read_bytes() + huge + b"\n", fmt)
    check_bytes(huge.join(PIECES[fmt][i].encode() for i in range(3)), fmt)


@pytest.mark.parametrize("fmt", STREAM_FORMATS)
def test_every_truncation_of_a_sample(fmt):
    data = SAMPLES[fmt][-1].read_bytes()
    step = max(1, len(data) // 300)
    for cut in range(0, len(data), step):
        check_bytes(data[:cut], fmt)


# ---------------------------------------------------------------------------- MMAX2 projects
PROJECT = VALIDATION / "mmax2" / "valid"
PROJECT_FILES = ["valid.mmax", "common_paths.xml", "Basedata/valid_words.xml",
                 "Markables/valid_coref_level.xml", "Markables/valid_sentence_level.xml",
                 "Schemes/coref_scheme.xml"]
XML_PIECES = ["<", ">", "/>", "</markable>", '"', "=", "..", ",", "word_", "word_99",
              "markable_1", "set_1", "empty", "&", "&amp;", "<!DOCTYPE x SYSTEM 'x.dtd'>",
              '<markable id="m" span="word_1..word_0"/>', '<word id="word_1">x</word>',
              "\\", "$", "../", "\ufeff", "\x00"]


@st.composite
def mutated_xml(draw) -> tuple[str, bytes]:
    name = draw(st.sampled_from(PROJECT_FILES))
    data = (PROJECT / name).read_bytes()
    if draw(st.booleans()):
        data = data[: draw(st.integers(0, len(data)))]
    for _ in range(draw(st.integers(0, 5))):
        at = draw(st.integers(0, len(data)))
        if draw(st.booleans()):
            data = data[:at] + draw(st.sampled_from(XML_PIECES)).encode() + data[at:]
        else:
            data = data[:at] + draw(st.binary(max_size=3)) + data[at + 1:]
    return name, data


def check_project(name: str, data: bytes | None) -> None:
    root = Path(tempfile.mkdtemp())
    try:
        project = root / "p"
        shutil.copytree(PROJECT, project)
        target = project / name
        if data is None:
            target.unlink()
            if name == "valid.mmax":  # no project at all: an input error (exit 1, issue 22)
                with pytest.raises(InputError):
                    validate(target, format="mmax2")
                return
        else:
            target.write_bytes(data)
        survives(project / "valid.mmax", "mmax2")
        survives(project / "valid.mmax", "mmax2", lenient=False)
    finally:
        shutil.rmtree(root)


@FUZZ
@given(change=mutated_xml())
def test_mutated_mmax2_projects(change):
    check_project(*change)


@FUZZ
@given(name=st.sampled_from(PROJECT_FILES), garbage=st.binary(max_size=500))
def test_mmax2_files_replaced_by_garbage(name, garbage):
    check_project(name, garbage)


@pytest.mark.parametrize("name", PROJECT_FILES)
def test_mmax2_missing_empty_and_huge_files(name):
    check_project(name, None)
    check_project(name, b"")
    check_project(name, (PROJECT / name).read_bytes().replace(b"Anna", b"A" * 2_000_000, 1))


def test_mmax2_reader_on_other_formats():
    for samples in SAMPLES.values():
        survives(samples[0], "mmax2")
