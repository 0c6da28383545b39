"""Folder expansion: recursive, the same for every format and command, every file accounted for.

The real tree ``../shared/corpora`` is the reference: each corpus folder's files per format are
counted here from the corpus READMEs and the file names, and every file below a folder is
either read or skipped with a reason. Generated folders test the safety rules: no link
followed out of the folder or into a loop, nothing but regular files opened.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from corefkit.converters import folders
from corefkit.converters.registry import expand, expand_paths
from corefkit.errors import CorefkitError
from tests.conftest import SHARED

CORPORA = SHARED / "corpora"

# files read per format in each corpus folder (README counts: GUM 46 documents in four
# exports, LitBank 10, LCC 30, CODI-CRAC 3 files, corefud-zeros 3 treebanks, MMAX2 13
# projects, jsonlines/README.md's seven samples; webanno-tsv/gum the 46 GUM sources;
# inception/README.md: coref.tsv and the suite's 4 TSV + 4 XMI pairs, Text_1804.xmi and the
# three annotators' Cato-*.xmi.gz; llm-text2text/README.md: gold 30 .txt + 30 .seq.txt + 6
# .zero.txt + 6 .seq.zero.txt and 30 + 6 .json, blind 30 + 6 .json, 7 kinds of responses, 6
# cleaned runs, one multi-document text; system-outputs: Stanza's CoNLL-U, CoreNLP's XML and
# JSON, fastcoref's two jsonlines)
READ = {
    "codi-crac22": {"ua-exploded": 3},
    "corefud-zeros": {"corefud": 3},
    "gum": {"conll2012": 92, "corefud": 92},
    "inception": {"webanno-tsv": 5, "uima-cas": 8},
    "jsonlines": {"conll2012": 1, "gap": 2, "jsonlines": 8},
    "lcc": {"lcc": 30},
    "litbank": {"conll2012": 10},
    "litbank-brat": {"brat": 10},
    "llm-text2text": {"text2text": 411, "text2text-json": 72},
    "mmax2": {"mmax2": 13},
    "system-outputs": {"corenlp": 1, "corenlp-json": 1, "jsonlines": 2, "stanza": 1},
    "webanno-tsv": {"webanno-tsv": 46},
}
# what is skipped, per reason, in the same folders
SKIPPED = {
    "codi-crac22": {folders.DOCUMENTATION: 1},
    # each treebank's README, source README and licence; its .doclist.txt and .convert.json
    "corefud-zeros": {folders.DOCUMENTATION: 7, folders.UNKNOWN: 6},
    "gum": {folders.DOCUMENTATION: 2},
    # the five UIMA type systems are part of the CAS files beside them; the gzipped CoNLL
    "inception": {folders.DOCUMENTATION: 2, folders.COMPRESSED: 3, folders.PART: 5},
    "jsonlines": {folders.DOCUMENTATION: 10},
    "lcc": {folders.DOCUMENTATION: 1},
    "litbank": {folders.DOCUMENTATION: 2},
    # each .txt is the text of the .ann of the same name
    "litbank-brat": {folders.DOCUMENTATION: 1, folders.PART: 10},
    # a .txt is text2text only when its content shows tags (without --from): the 36 blind
    # texts, 16 damaged answers whose head has none, doclist.txt and multidoc/newline.txt; the
    # 7 report.json; 271 .entity.tsv tables
    "llm-text2text": {folders.DOCUMENTATION: 1, folders.UNKNOWN: 61, folders.AMBIGUOUS: 271},
    # every project's base data, markables, DTDs, schemes, styles and common paths
    "mmax2": {folders.DOCUMENTATION: 3, folders.PART: 85},
    "system-outputs": {folders.DOCUMENTATION: 11, folders.UNKNOWN: 6},
    # counts.tsv, a table of the README's counts
    "webanno-tsv": {folders.DOCUMENTATION: 1, folders.AMBIGUOUS: 1},
}


def _files_below(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if p.is_file())


def test_every_corpus_folder_is_listed():
    assert sorted(p.name for p in CORPORA.iterdir() if p.is_dir()) == sorted(READ)


@pytest.mark.parametrize("name", sorted(READ))
def test_each_corpus_folder_reads_what_it_holds(name):
    folder = CORPORA / name
    if not READ[name]:
        with pytest.raises(CorefkitError, match="holds no files of a known format"):
            expand(folder)
        return
    found = expand(folder)
    assert dict(found.counts()) == READ[name]
    assert dict(Counter(s.reason for s in found.skipped)) == SKIPPED[name]
    # every file below the folder is either read or skipped, once
    assert sorted([f for f, _ in found.files] + [s.path for s in found.skipped]) == \
        _files_below(folder)


def test_the_whole_tree_reads_every_corpus():
    found = expand(CORPORA)
    total: Counter[str] = Counter()
    for counts in READ.values():
        total.update(counts)
    assert found.counts() == total
    assert sum(found.counts().values()) == 267 + 13 + 483 + 46 + 2
    skipped: Counter[str] = Counter()
    for counts in SKIPPED.values():
        skipped.update(counts)
    assert Counter(s.reason for s in found.skipped) == skipped
    assert len(found.files) + len(found.skipped) == len(_files_below(CORPORA))


def test_file_names_agree_with_the_formats_read():
    found = expand(CORPORA / "gum")
    for file, fmt in found.files:
        assert fmt == {".conll": "conll2012", ".conllu": "corefud"}[os.path.splitext(file)[1]]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "corefkit", *args], capture_output=True,
                          text=True, timeout=600)


def test_validate_a_folder_of_subfolders_reads_them_all():
    # before: "the directory holds no files of a known format" (exit 2)
    done = _run("validate", "--level", "1", str(CORPORA / "gum"))
    assert done.returncode == 0, done.stderr
    assert "corefkit validate: 184 files, 184 documents" in done.stdout
    assert "read 184 files (92 conll2012, 92 corefud); skipped 2 files" in done.stdout
    assert "skipped 2, documentation or licence: LICENSE.txt, README.md" in done.stdout


def test_validate_the_whole_tree_says_what_it_read_and_skipped():
    # before: 23 "files" (brat and MMAX2 only), nothing said of the rest
    done = _run("validate", "--level", "1", "--include-only", "file.*", str(CORPORA))
    assert "Traceback" not in done.stderr
    assert "corefkit validate: 811 files" in done.stdout
    assert ("read 811 files (10 brat, 103 conll2012, 95 corefud, 1 corenlp, 1 corenlp-json, "
            "2 gap, 10 jsonlines, 30 lcc, 13 mmax2, 1 stanza, 411 text2text, 72 text2text-json, "
            "3 ua-exploded, 8 uima-cas, 51 webanno-tsv); skipped 490 files") in done.stdout
    # the CAS files of inception/ are read with a type system of another name: each says so
    assert "8 errors" in done.stdout and done.stdout.count("cas.no-typesystem") == 9
    for reason in (folders.DOCUMENTATION, folders.PART, folders.COMPRESSED, folders.UNKNOWN,
                   folders.AMBIGUOUS):
        assert f", {reason}" in done.stdout


# ---------------------------------------------------------------------------- generated
CONLL = ("#begin document (d); part 000\n"
         "d\t0\t0\tJohn\t(0)\n"
         "d\t0\t1\tsaw\t-\n"
         "d\t0\t2\thim\t(0)\n"
         "\n#end document\n")


def _tree(root: Path) -> Path:
    corpus = root / "corpus"
    (corpus / "a" / "b").mkdir(parents=True)
    (corpus / "top.conll").write_text(CONLL.replace("(d)", "(top)"))
    (corpus / "a" / "b" / "deep.conll").write_text(CONLL.replace("(d)", "(deep)"))
    (corpus / "README").write_text("about this corpus\n")
    (corpus / "a" / "notes.txt").write_text("not a corpus file\n")
    (corpus / "a" / "table.tsv").write_text("x\ty\n")
    (corpus / ".hidden.conll").write_text(CONLL)
    return corpus


def test_expansion_is_recursive_and_explains_each_skip(tmp_path):
    corpus = _tree(tmp_path)
    found = expand(corpus)
    assert found.files == [(str(corpus / "a" / "b" / "deep.conll"), "conll2012"),
                           (str(corpus / "top.conll"), "conll2012")]
    reasons = {os.path.relpath(s.path, corpus): s.reason for s in found.skipped}
    assert reasons == {".hidden.conll": folders.HIDDEN, "README": folders.DOCUMENTATION,
                       "a/notes.txt": folders.UNKNOWN, "a/table.tsv": folders.AMBIGUOUS}


def test_from_reads_the_named_format_and_skips_the_others(tmp_path):
    corpus = _tree(tmp_path)
    (corpus / "a" / "other.conllu").write_text(
        "# newdoc id = x\n# sent_id = 1\n# text = Hi\n"
        "1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\tEntity=(e1)\n\n")
    found = expand(corpus, "conll2012")
    assert [os.path.basename(f) for f, _ in found.files] == ["deep.conll", "top.conll"]
    other = [s for s in found.skipped if s.path.endswith("other.conllu")]
    assert other == [folders.Skipped(str(corpus / "a" / "other.conllu"), folders.OTHER_FORMAT,
                                     "corefud")]


INCEPTION = CORPORA / "inception"
GAP = CORPORA / "jsonlines" / "gap"


def test_a_tsv_is_read_as_the_format_its_content_shows(tmp_path):
    # WebAnno TSV and GAP share *.tsv: the header decides, a table of neither is skipped
    corpus = tmp_path / "tsv"
    corpus.mkdir()
    shutil.copy(INCEPTION / "tsv3" / "coref.tsv", corpus / "coref.tsv")
    gap = sorted(GAP.glob("*.tsv"))[0]
    shutil.copy(gap, corpus / "gap.tsv")
    (corpus / "table.tsv").write_text("a\tb\n1\t2\n")
    found = expand(corpus)
    assert found.files == [(str(corpus / "coref.tsv"), "webanno-tsv"),
                           (str(corpus / "gap.tsv"), "gap")]
    assert found.skipped == [folders.Skipped(str(corpus / "table.tsv"), folders.AMBIGUOUS,
                                             ".tsv")]
    only = expand(corpus, "webanno-tsv")
    assert only.files == [(str(corpus / "coref.tsv"), "webanno-tsv")]
    assert [(os.path.basename(s.path), s.reason) for s in only.skipped] == [
        ("gap.tsv", folders.OTHER_FORMAT), ("table.tsv", folders.AMBIGUOUS)]


def test_a_type_system_is_part_of_its_cas_files(tmp_path):
    # INCEpTION exports each document's XMI beside the TypeSystem.xml it is read with
    corpus = tmp_path / "export"
    corpus.mkdir()
    source = INCEPTION / "xmi-webanno-creta"
    shutil.copy(source / "Text_1804.xmi", corpus / "Text_1804.xmi")
    shutil.copy(source / "dkpro-coref.xml", corpus / "TypeSystem.xml")
    (corpus / "notes.xml").write_text("<notes>not a type system</notes>\n")
    found = expand(corpus)
    assert found.files == [(str(corpus / "Text_1804.xmi"), "uima-cas")]
    assert found.skipped == [
        folders.Skipped(str(corpus / "TypeSystem.xml"), folders.PART, "uima-cas"),
        folders.Skipped(str(corpus / "notes.xml"), folders.UNKNOWN, ".xml")]
    assert "skipped 1, part of a multi-file document" in "\n".join(found.summary())


def test_inception_folder_by_format():
    tsv = expand(INCEPTION, "webanno-tsv")
    assert tsv.counts() == Counter({"webanno-tsv": 5})
    cas = expand(INCEPTION, "uima-cas")
    assert cas.counts() == Counter({"uima-cas": 8})  # 4 suite XMI, Text_1804, 3 Cato-*.xmi.gz
    assert sorted(s.path for s in cas.skipped if s.reason == folders.PART) == sorted(
        str(p) for p in INCEPTION.rglob("*.xml"))


def test_llm_answers_are_text2text_by_their_tags_or_when_named():
    llm = CORPORA / "llm-text2text"
    # seven kinds of simulated answers, 186 .txt: without --from, 16 damaged ones whose
    # head shows no tag are no known format; named, every one is read
    answers = expand(llm / "responses")
    assert answers.counts() == Counter({"text2text": 170})
    named = expand(llm / "responses", "text2text")
    assert named.counts() == Counter({"text2text": 186})
    assert Counter(s.reason for s in named.skipped) == Counter({folders.UNKNOWN: 7})  # reports
    # the blind inputs: 36 untagged .txt (read when named) and 36 JSON with null clusters
    blind = expand(llm / "blind", "text2text")
    assert blind.counts() == Counter({"text2text": 36})
    assert {s.detail for s in blind.skipped} == {"text2text-json"}
    assert expand(llm / "blind").counts() == Counter({"text2text-json": 36})


def test_no_link_is_followed_out_of_the_folder(tmp_path):
    corpus = _tree(tmp_path)
    outside = tmp_path / "private"
    outside.mkdir()
    (outside / "secret.conll").write_text(CONLL.replace("(d)", "(secret)"))
    (corpus / "leak.conll").symlink_to(outside / "secret.conll")
    (corpus / "leakdir").symlink_to(outside)
    (corpus / "a" / "inside.conll").symlink_to(corpus / "top.conll")
    found = expand(corpus)
    read = [os.path.relpath(f, corpus) for f, _ in found.files]
    assert read == ["a/b/deep.conll", "a/inside.conll", "top.conll"]
    reasons = {os.path.relpath(s.path, corpus): s.reason for s in found.skipped}
    assert reasons["leak.conll"] == folders.LINK_OUT
    assert reasons["leakdir"] == folders.LINK_OUT
    assert not any("secret" in f for f, _ in found.files)


def test_links_never_loop(tmp_path):
    corpus = _tree(tmp_path)
    (corpus / "a" / "b" / "up").symlink_to(corpus)          # a cycle back to the root
    (corpus / "a" / "self").symlink_to(corpus / "a")         # a cycle to its own folder
    (corpus / "a" / "loop").symlink_to(corpus / "a" / "loop")  # a link to itself
    (corpus / "gone.conll").symlink_to(corpus / "missing.conll")
    found = expand(corpus)
    assert len(found.files) == 2
    reasons = {os.path.relpath(s.path, corpus): s.reason for s in found.skipped}
    assert reasons["a/b/up"] == folders.LINK_FOLDER
    assert reasons["a/self"] == folders.LINK_FOLDER
    assert reasons["a/loop"] == folders.LINK_BROKEN
    assert reasons["gone.conll"] == folders.LINK_BROKEN


def test_a_pipe_in_a_folder_is_never_opened(tmp_path):
    corpus = _tree(tmp_path)
    os.mkfifo(corpus / "a" / "pipe.conll")  # opening it for reading would block forever
    done = _run("stats", str(corpus))
    assert done.returncode == 0, done.stderr
    assert "not a regular file (pipe, socket or device): a/pipe.conll" in done.stderr


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_an_unreadable_folder_is_an_error_and_a_finding(tmp_path):
    corpus = _tree(tmp_path)
    locked = corpus / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        with pytest.raises(CorefkitError, match="cannot be read"):
            expand_paths(corpus)
        done = _run("validate", str(corpus))
        assert done.returncode == 1 and "file.unreadable" in done.stdout
    finally:
        locked.chmod(0o755)


def test_a_folder_that_cannot_be_listed_is_never_skipped_silently(tmp_path, monkeypatch):
    # the same as above for a user who can read everything: the listing fails as it would
    corpus = _tree(tmp_path)
    locked = corpus / "locked"
    locked.mkdir()
    scandir = os.scandir

    def refusing(path="."):
        if os.fspath(path) == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    with pytest.raises(CorefkitError, match="locked: cannot be read \\(Permission denied\\)"):
        expand_paths(corpus)
    from corefkit.validation import validate

    result = validate(corpus, jobs=1)
    assert [(f.check, f.file) for f in result if f.check == "file.unreadable"] == [
        ("file.unreadable", str(locked))]
    assert result.documents == 2


def test_a_folder_of_nothing_known_says_what_it_holds(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "README.md").write_text("x")
    (folder / "data.gz").write_bytes(b"\x1f\x8b")
    done = _run("validate", str(folder))
    assert done.returncode == 1  # a path naming nothing to read: bad input, as in every command
    assert "holds no files of a known format" in done.stderr
    assert "documentation or licence: README.md" in done.stderr
    assert "compressed (decompress it to read it): data.gz" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------------------- every command
@pytest.fixture()
def nested_pair(tmp_path):
    """A key folder and a response folder whose documents lie in subfolders, with a README."""
    sources = sorted((CORPORA / "gum" / "dep").glob("GUM_bio_*.conllu"))
    key, response = tmp_path / "key", tmp_path / "response"
    for side in (key, response):
        (side / "bio" / "more").mkdir(parents=True)
        shutil.copy(sources[0], side / "bio" / sources[0].name)
        shutil.copy(sources[1], side / "bio" / "more" / sources[1].name)
        (side / "README.md").write_text("two GUM documents\n")
    return key, response


NOTE = "read 2 files (2 corefud); skipped 1 file"


@pytest.mark.parametrize("command", ["score", "analyze", "stats", "convert", "normalize",
                                     "report", "validate"])
def test_every_command_reads_folders_the_same_way(command, nested_pair, tmp_path):
    key, response = nested_pair
    out = tmp_path / "out"
    args = {
        "score": ["score", str(key), str(response)],
        "analyze": ["analyze", str(key), str(response)],
        "stats": ["stats", str(key)],
        "convert": ["convert", str(key), str(out), "--to", "conll2012"],
        "normalize": ["normalize", str(key), str(out), "--pass", "remove-singletons"],
        "report": ["report", str(key), str(response), "-o", str(tmp_path / "r.html")],
        "validate": ["validate", "--level", "1", str(key)],
    }[command]
    done = _run(*args)
    assert done.returncode == 0, done.stderr
    said = done.stdout if command == "validate" else done.stderr
    assert NOTE in said and "documentation or licence: README.md" in said
    if command in ("convert", "normalize"):  # the subfolders are kept in the target
        written = sorted(os.path.relpath(p, out) for p in map(str, out.rglob("*.*")))
        assert len(written) == 2 and written[1].startswith(os.path.join("bio", "more", ""))
    if command == "score":
        assert "100.00" in done.stdout


def test_quiet_convert_says_nothing_of_the_folder(nested_pair, tmp_path):
    key, _ = nested_pair
    done = _run("convert", "-q", str(key), str(tmp_path / "out"), "--to", "conll2012")
    assert done.returncode == 0 and done.stderr == ""
