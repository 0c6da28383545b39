"""A response whose words differ from its key's is refused, in every format pair (issue 22).

Mentions are paired by word position: scored as if the words matched, one changed word gave
100.00, a deleted token a low score with a warning, a response of other documents 0.00, all
with exit 0. Every scoring command now refuses such a pair in one line naming the response
file and line, the document, the sentence and word, and both words (``pair.tokens``, the id of
``validate --pair``); ``--lenient`` scores by position with that line as a warning.

The documents are a real GUM document (CorefUD, with its syntax) written by corefkit in every
format it reads and writes; the response is the same document with one word changed.
"""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.cli.main import main
from corefkit.converters.registry import get
from corefkit.errors import FormatError
from corefkit.model import Document
from tests.conftest import CORPORA

SOURCE = CORPORA / "gum/dep/GENTLE_poetry_death.conllu"
LITBANK = CORPORA / "litbank/105_persuasion_brat.conll"
CHANGED = 25             # the token whose form the response changes ('slowly')
NEW_WORD = "Zyzzyva"
# the document's name in every format: text2text names a file's documents <stem>-<n>, WebAnno
# TSV a file's one document by its stem, so every side is called so and pairs by name
NAME = "GENTLE_poetry_death-1"
# every format corefkit reads and writes, as (name, how a file or folder of it is named)
FORMATS = {
    "conll2012": "doc.conll",
    "corefud": "doc.conllu",
    "ua-exploded": "doc.conllua",
    "jsonlines": "doc.jsonlines",
    "brat": "brat/",
    "mmax2": "mmax/",
    "lcc": "doc.nkas.json",
    "text2text": "GENTLE_poetry_death.t2t",
    "text2text-json": "doc.t2t.json",
    "webanno-tsv": f"{NAME}.tsv",
    "uima-cas": "xmi/",
}


def source() -> Document:
    doc = next(corefkit.read(SOURCE))
    doc.id = NAME
    return doc


def write(doc: Document, folder: Path, fmt: str) -> Path:
    """``doc`` written in ``fmt`` under ``folder``; the path to read it back (brat, MMAX2 and
    UIMA CAS write a folder: its ``.ann``, ``.mmax`` or ``.xmi`` file)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / FORMATS[fmt].rstrip("/")
    corefkit.write([doc], target, format=fmt)
    if fmt in ("brat", "mmax2", "uima-cas"):
        return next(p for p in target.iterdir() if p.suffix in (".ann", ".mmax", ".xmi"))
    return target


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path, str]]:
    """format -> (key file, response file with one word changed, the key's word there)."""
    root = tmp_path_factory.mktemp("formats")
    found = {}
    for fmt in FORMATS:
        key = write(source(), root / fmt / "key", fmt)
        changed = source()
        old = changed.tokens[CHANGED].form
        changed.tokens[CHANGED].form = NEW_WORD
        sentence = changed.sentences[changed.tokens[CHANGED].sentence]  # its '# text' too
        sentence.comments = [c.replace(old, NEW_WORD) for c in sentence.comments]
        response = write(changed, root / fmt / "response", fmt)
        found[fmt] = (key, response, old)
    return found


# formats that bring their own text (an LLM's answer): their responses are aligned to the key
# by default (corefkit.alignment); align=False gives the token policy back
OWN_TEXT = {name for name in FORMATS if get(name).own_text}


@pytest.mark.parametrize("response_format", list(FORMATS))
@pytest.mark.parametrize("key_format", list(FORMATS))
def test_every_format_pair_refuses_a_changed_word(files, key_format, response_format):
    key, _, old = files[key_format]
    _, response, _ = files[response_format]
    options = {"align": False} if response_format in OWN_TEXT else {}
    with pytest.raises(FormatError) as caught:
        corefkit.score(key, response, "muc", **options)
    error = caught.value
    assert error.check == "pair.tokens", str(error)
    assert error.file is not None and Path(error.file).name == response.name
    assert f"is {old!r} in the key but {NEW_WORD!r} in the response" in error.message
    assert f"document {NAME!r}" in error.message and "sentence " in error.message
    assert "--lenient" in error.message and "\n" not in str(error)
    # lenient: scored by position, with the same place as a warning
    report = corefkit.score(key, response, "muc", lenient=True, **options)
    warned = [w for w in report.warnings if w.check == "pair.tokens"]
    assert len(warned) == 1 and f"{NEW_WORD!r} in the response" in warned[0].message
    same = corefkit.score(key, key, "muc", **options)
    assert same.metrics["muc"].f1 == 1 and not [w for w in same.warnings
                                                if w.check == "pair.tokens"]
    if response_format in OWN_TEXT:  # by default aligned: scored, no token warning, and
        # the changed word costs nothing (as the unchanged response scores; what the format
        # cannot hold of the key is another matter)
        aligned = corefkit.score(key, response, "muc")
        assert aligned.alignment is not None
        assert not [w for w in aligned.warnings if w.check == "pair.tokens"]
        unchanged = corefkit.score(key, files[response_format][0], "muc")
        assert aligned.metrics["muc"].counts == unchanged.metrics["muc"].counts


def test_the_three_paths_of_a_changed_word(files, tmp_path, capsys):
    """Words that differ: refused by default; --lenient scores by position with a warning;
    --align re-expresses the response on the key's tokens (no pair.tokens at all)."""
    key, response, _ = files["conll2012"]
    args = ["score", str(key), str(response), "-m", "muc", "-f", "json"]
    assert main(args) == 1
    assert "(pair.tokens)" in capsys.readouterr().err
    assert main([*args, "--lenient"]) == 0
    out, err = capsys.readouterr()
    assert "pair.tokens" in err and json.loads(out)["metrics"]["muc"]["f1"] == 1
    assert main([*args, "--align"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert "pair.tokens" not in err and data["metrics"]["muc"]["f1"] == 1
    assert "alignment" in data and "align" in data["options"]


def test_the_message_names_response_line_sentence_and_word(files):
    key, response, old = files["conll2012"]
    with pytest.raises(FormatError) as caught:
        corefkit.score(key, response)
    error = caught.value
    lines = response.read_text(encoding="utf-8").split("\n")
    assert error.line is not None and f"\t{NEW_WORD}\t" in lines[error.line - 1]
    doc = source()
    sentence = doc.tokens[CHANGED].sentence
    word = CHANGED - doc.sentences[sentence].start + 1
    assert f"word {CHANGED + 1} is {old!r} in the key but {NEW_WORD!r} in the response " \
        f"(sentence {sentence + 1}, its word {word}; key {key}:{error.line})" \
        in error.message  # CoNLL-2012 has no sentence ids: numbered
    key, response, old = files["corefud"]  # CoNLL-U: the sentence's id too
    with pytest.raises(FormatError) as caught:
        corefkit.score(key, response)
    assert f"(sentence {sentence + 1} ({doc.sentences[sentence].sent_id}), its word {word}; " \
        in caught.value.message


@pytest.mark.parametrize("command", ["score", "compare", "analyze", "report", "task"])
def test_every_scoring_command_refuses_it_in_one_line(files, command, tmp_path, capsys):
    key, response, old = files["conll2012"]
    if command == "compare":
        args = ["compare", "--key", str(key), "--response", str(response), "--label", "a"]
    elif command == "report":
        args = ["report", str(key), str(response), "-o", str(tmp_path / "r.html")]
    elif command == "task":
        (tmp_path / "subs").mkdir()
        shutil.copy(response, tmp_path / "subs" / "sys.conll")
        (tmp_path / "task.toml").write_text(
            f'gold = "{key}"\n[ranking]\nprimary = "muc"\n[significance]\ntest = "none"\n'
            '[submissions]\nlayout = "file"\n')
        args = ["task", str(tmp_path / "task.toml"), str(tmp_path / "subs")]
    else:
        args = [command, str(key), str(response)]
    code = main(args)
    out, err = capsys.readouterr()
    if command == "task":  # a submission is rejected, the run goes on: its line names why
        assert code == 0 and "pair.tokens" in out and NEW_WORD in out, out
        return
    assert code == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "(pair.tokens)" in lines[0] and NEW_WORD in lines[0], err
    assert f"{response}:" in lines[0]
    code = main([*args, "--lenient"])
    out, err = capsys.readouterr()
    assert code == 0 and "pair.tokens" in err, err


def _conll_without_token(text: str, index: int) -> str:
    """The CoNLL-2012 text without its ``index``-th token line (its mentions' brackets moved
    to the next token, so that the file stays well formed)."""
    lines = text.split("\n")
    tokens = [i for i, line in enumerate(lines) if line and not line.startswith("#")]
    gone = tokens[index]
    cell = lines[gone].rsplit("\t", 1)[1]
    following = tokens[index + 1]
    head, last = lines[following].rsplit("\t", 1)
    if cell != "-":
        last = cell if last == "-" else cell + "|" + last
    lines[following] = f"{head}\t{last}"
    del lines[gone]
    return "\n".join(lines)


def test_a_deleted_token_is_refused_not_scored_low(tmp_path):
    response = tmp_path / "r.conll"
    response.write_text(_conll_without_token(LITBANK.read_text(encoding="utf-8"), 100),
                        encoding="utf-8")
    with pytest.raises(FormatError) as caught:
        corefkit.score(LITBANK, response)
    assert caught.value.check == "pair.tokens"
    assert "word 101 is " in caught.value.message
    report = corefkit.score(LITBANK, response, lenient=True)
    assert any(w.check == "pair.tokens" for w in report.warnings)


def test_a_response_of_other_documents_is_refused(tmp_path, capsys):
    """A glob that pairs nothing: every key document missing, 0.00 (exit 0) before."""
    keys, responses = tmp_path / "keys", tmp_path / "responses"
    keys.mkdir(), responses.mkdir()
    shutil.copy(LITBANK, keys / "a.conll")
    other = sorted((CORPORA / "litbank").glob("*.conll"))[1]
    shutil.copy(other, responses / "a.conll")
    code = main(["score", str(keys / "*.conll"), str(responses / "*.conll"), "-q"])
    err = capsys.readouterr().err
    assert code == 1 and "(pair.documents)" in err and "no key document is in the response" in err
    code = main(["score", str(keys / "*.conll"), str(responses / "*.conll"), "--lenient"])
    captured = capsys.readouterr()
    assert code == 0 and "pair.documents" in captured.err
    # the same document name over other text: the words say so
    renamed = responses / "a.conll"
    name = LITBANK.read_text(encoding="utf-8").split("\n", 1)[0]
    text = other.read_text(encoding="utf-8").split("\n", 1)[1]
    renamed.write_text(name + "\n" + text, encoding="utf-8")
    code = main(["score", str(keys / "a.conll"), str(renamed), "-q"])
    assert code == 1 and "(pair.tokens)" in capsys.readouterr().err


def test_the_api_refuses_and_lenient_warns(files):
    key, response, _ = files["jsonlines"]
    with pytest.raises(FormatError, match="pair.tokens"):
        corefkit.score(key, response)
    with pytest.raises(FormatError, match="pair.tokens"):
        corefkit.analyze(key, response)
    report = corefkit.score(key, response, lenient=True)
    assert report.metrics["muc"].f1 == Fraction(1)  # scored by position: the same mentions
    assert [w.check for w in report.warnings].count("pair.tokens") == 1


def test_validate_pair_names_the_same_difference(files, capsys):
    key, response, old = files["corefud"]
    code = main(["validate", "--pair", str(key), str(response)])
    out = capsys.readouterr().out
    assert code == 1 and "[ERROR] pair.tokens:" in out and NEW_WORD in out
