"""Conversions of the real corpora checked by content: header lines, document names and parts,
comment lines — what a re-read hides (issue 13: bugs 2 to 5 each passed a re-read test).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import corefkit
from corefkit.model import Document
from corefkit.validation import validate

CORPORA = Path(__file__).resolve().parents[3] / "shared" / "corpora"
LITBANK = sorted((CORPORA / "litbank").glob("*.conll"))
CODI = sorted((CORPORA / "codi-crac22").glob("*.CONLLUA"))
SUFFIX = {"conll2012": ".conll", "corefud": ".conllu", "ua-exploded": ".CONLLUA", "mmax2": ""}
SENTENCE_COMMENT_RE = re.compile(r"^#\s*(sent_id|text|speaker|turn_id)\b")


def through(docs: list[Document], fmt: str, tmp_path: Path, back: str) -> list[Document]:
    """``docs`` written in ``fmt`` and read back, then written in ``back`` and read again."""
    middle = tmp_path / f"middle{SUFFIX[fmt]}"
    corefkit.write(docs, str(middle), fmt)
    again = list(corefkit.read(str(middle), format=fmt))
    final = tmp_path / f"final{SUFFIX[back]}"
    corefkit.write(again, str(final), back)
    return list(corefkit.read(str(final), format=back))


def begin_lines(path: Path) -> list[str]:
    return [line.rstrip("\n") for line in path.open(encoding="utf-8")
            if line.startswith("#begin") or line.startswith("# begin")]


@pytest.mark.parametrize("path", LITBANK, ids=[p.stem for p in LITBANK])
def test_the_conll2012_writer_keeps_the_header_text(path: Path, tmp_path: Path) -> None:
    """Bug 5: 'part 0' was written 'part 000', and the reference scorer, which pairs documents
    by the header text, paired nothing."""
    out = tmp_path / "out.conll"
    corefkit.write(list(corefkit.read(str(path))), str(out), "conll2012")
    assert begin_lines(out) == begin_lines(path) == [begin_lines(path)[0]]
    assert begin_lines(path)[0].endswith("; part 0")


def two_parts() -> list[Document]:
    """A LitBank document as an OntoNotes document of two parts (000 and 001)."""
    (doc,) = corefkit.read(str(LITBANK[0]))
    first, second = doc.copy(), doc.copy()
    first.part, second.part = "000", "001"
    return [first, second]


@pytest.mark.parametrize("fmt", ["corefud", "ua-exploded", "mmax2"])
def test_parts_survive_a_format_without_parts(fmt: str, tmp_path: Path) -> None:
    """Bug 4: the parts of one CoNLL-2012 document became duplicate '# newdoc id's, and back in
    CoNLL-2012 every part was 'part 000'."""
    docs = two_parts()
    back = through(docs, fmt, tmp_path, "conll2012")
    assert [(d.id, d.part) for d in back] == [(d.id, d.part) for d in docs]
    assert begin_lines(tmp_path / "final.conll") == [
        f"#begin document ({docs[0].id}); part 000", f"#begin document ({docs[0].id}); part 001"]
    if fmt != "mmax2":
        newdocs = [line for line in (tmp_path / f"middle{SUFFIX[fmt]}").open(encoding="utf-8")
                   if line.startswith("# newdoc")]
        assert len(newdocs) == len(set(newdocs)) == 2


@pytest.mark.parametrize("path", CODI, ids=[p.stem for p in CODI])
def test_ua_to_corefud_writes_each_sentence_comment_once(path: Path, tmp_path: Path) -> None:
    """Bug 3: UA exploded -> CorefUD wrote '# sent_id', '# text' and '# speaker' twice per
    sentence (842 sent_id lines for 421 sentences), and decoding doubled them again."""
    def comments(file: Path, speakers: bool = True) -> Counter[str]:
        return Counter(line.rstrip("\n") for line in file.open(encoding="utf-8")
                       if SENTENCE_COMMENT_RE.match(line) and (speakers or "speaker" not in line))

    out = tmp_path / "out.conllu"
    corefkit.write(list(corefkit.read(str(path))), str(out), "corefud")
    assert comments(out, speakers=False) == comments(path, speakers=False)
    # CorefUD states every sentence's speaker (UA only where it changes): once per sentence
    sentences = out.read_text(encoding="utf-8").split("\n\n")
    assert max(s.count("# speaker =") for s in sentences) == 1
    back = tmp_path / "back.CONLLUA"
    corefkit.write(list(corefkit.read(str(out))), str(back), "ua-exploded")
    assert comments(back) == comments(path)
    result = validate(out)
    assert not {f.check for f in result} & {"corefud.non-unique-sent-id",
                                             "corefud.multiple-sent-id"}


@pytest.mark.parametrize("fmt", ["conll2012", "corefud", "ua-exploded", "mmax2"])
def test_document_names_survive_every_format(fmt: str, tmp_path: Path) -> None:
    """Bug 2: MMAX2 wrote 'news/mary' as project 'news_mary' and read it back under that name,
    so the converted response no longer paired with its key."""
    docs = list(corefkit.read(str(CODI[1])))[:3]  # names like 'Persuasion_train/20180723-...'
    assert all("/" in d.id for d in docs)
    back = through(docs, fmt, tmp_path, "ua-exploded")
    assert sorted(d.pair_key() for d in back) == sorted(d.pair_key() for d in docs)
