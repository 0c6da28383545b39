#!/usr/bin/env python3
"""The mutation sweep of issue 22: real files of every format, broken in every systematic way,
through every command, each run classified.

Samples are real files from ``../shared/corpora`` (the fuzz tests' valid prefixes of CoNLL-2012,
CorefUD, CoNLL-UA, LCC and MMAX2 files, plus jsonlines, brat and GAP files). Mutation *kinds*
are generated systematically per format at four levels:

* **byte**: the file cut at a quarter, half, three quarters and its last byte; each of seven
  invalid UTF-8 sequences; a BOM; CRLF, CR and one CRLF line; a NUL, a vertical tab; the file
  emptied or made blank;
* **line**: a line deleted, duplicated, swapped (next, far), wrapped, joined to the next; each
  kind of structural line (``#begin document``, ``# newdoc``, ``# sent_id``, ...) deleted; a
  sentence deleted, duplicated, swapped; the file twice (and twice cut);
* **column**: each column of a token line deleted, doubled, emptied, set to ``_``, to a
  number or to garbage; TABs to spaces (one line, all) and back;
* **structure**: each piece of the format's annotation syntax (brackets, ids, ``Entity=``,
  JSON values, XML attribute values, offsets) deleted, doubled, replaced or preceded by each
  piece of a per-format list of breakers.

Each mutated input goes to a fresh worker process (``RLIMIT_AS`` 1 GB, a timeout per command)
that runs ``validate``, ``convert``, ``score`` (the original as key), ``stats``,
``normalize`` (``merge-same-span``), ``analyze`` and ``report`` in turn, and classifies
each run:

* **rejected, located**: exit 1 or 2 with ``FILE:LINE:`` (or, for a whole-file problem
  such as an unknown format, the file) — ``validate`` exits 1 with located ERROR findings;
* **rejected, unlocated**: exit 1 or 2 without a line (reported, not a failure of this sweep:
  the LCC JSON messages are issue 22's "LCC JSON locations" item);
* **warned**: exit 0 with a warning or a loss report;
* **silent harmless**: exit 0, nothing said, and nothing inconsistent: the output equals the
  unmutated run's, or the mutation made another valid annotation that every check agrees on;
* **silent defect**: exit 0, nothing said, but the input was not what the result says —
  ``validate`` refuses the input (a finding strict reading refuses, see
  ``tests/fuzz/test_reader_fuzz.py``), ``validate`` finds nothing in what ``convert``
  refuses, ``convert``/``normalize`` wrote an annotation that reads back different from
  the input, ``score`` of a response equal to the key is not 100, a score or count over no
  mention or no document, ``stats`` counts what lenient reading does not find;
* **internal error**: exit 3 or a traceback; **hang**: past the timeout; **over 1 GB**: a
  ``MemoryError`` under the limit, or the worker killed.

    python benchmarks/mutation_sweep.py                 # every kind, every format (long)
    python benchmarks/mutation_sweep.py --format lcc --limit 20 --details

The exit code is 1 when a run falls in the last four classes. The test suite runs a bounded
sample (``tests/fuzz/test_mutation_sweep.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import tests.fuzz.test_reader_fuzz as fuzz  # noqa: E402

CORPORA = ROOT.parent / "shared" / "corpora"
MEMORY = 1 << 30
TIMEOUT = 120.0
COMMANDS = ("validate", "convert", "score", "stats", "normalize", "analyze", "report")
CLASSES = ("rejected, located", "rejected, unlocated", "warned", "silent harmless",
           "silent defect", "internal error", "hang", "over 1 GB")
FAILURES = CLASSES[4:]
# the format each converts to: one that holds what the sample has, else the loss is reported
CONVERT_TO = {"conll2012": ".conllu", "corefud": ".conll", "ua-exploded": ".conllu",
              "lcc": ".conllu", "mmax2": ".conllu", "jsonlines": ".conll", "brat": ".conll",
              "gap": ".jsonlines", "webanno-tsv": ".conllu", "uima-cas": ".conllu",
              "text2text": ".conllu", "text2text-json": ".conllu",
              **{fmt: ".conllu" for fmt in ("fastcoref", "maverick", "spacy", "stanza",
                                            "stanza-json", "corenlp", "corenlp-json")}}


# ============================================================================ samples
def samples() -> dict[str, fuzz.Sample]:
    """The fuzz tests' samples and one real file each of jsonlines, brat and GAP."""
    found = dict(fuzz.samples())
    jsonl = CORPORA / "jsonlines"
    gap = (jsonl / "gap/gap-development.tsv").read_bytes().split(b"\n")
    brat = CORPORA / "litbank-brat"
    extra = [
        fuzz.Sample("spanbert", "jsonlines",
                    (("trial.jsonlines", (jsonl / "spanbert-minimized/trial.jsonlines")
                      .read_bytes()),), "trial.jsonlines"),
        fuzz.Sample("preco", "jsonlines",
                    (("preco.jsonl", (jsonl / "preco/preco.first2docs.jsonl").read_bytes()),),
                    "preco.jsonl"),
        fuzz.Sample("gap", "gap", (("gap.tsv", b"\n".join(gap[:9]) + b"\n"),), "gap.tsv"),
        fuzz.Sample("litbank-brat", "brat",
                    (("masque.ann", (brat / "1064_the_masque_of_the_red_death_brat.ann")
                      .read_bytes()),
                     ("masque.txt", (brat / "1064_the_masque_of_the_red_death_brat.txt")
                      .read_bytes())), "masque.ann"),
    ]
    tsv, llm = CORPORA / "webanno-tsv/gum", CORPORA / "llm-text2text/gold"
    suite = CORPORA / "inception/tsv3-suite"
    extra += [
        fuzz.Sample("gum-tsv", "webanno-tsv", (("poetry.tsv", (tsv / "GENTLE_poetry_death.tsv")
                                                 .read_bytes()),), "poetry.tsv"),
        fuzz.Sample("tsv3-stacked", "webanno-tsv",
                    (("stacked.tsv", (suite / "testStackedChain/reference.tsv").read_bytes()),),
                    "stacked.tsv"),
        _cas_sample(found["gum-poetry"]),
        fuzz.Sample("llm-poetry", "text2text",
                    (("poetry.t2t.txt", (llm / "GENTLE_poetry_death.seq.txt").read_bytes()),),
                    "poetry.t2t.txt"),
        fuzz.Sample("llm-proof", "text2text",
                    (("proof.t2t.txt", (llm / "GENTLE_proof_five.seq.txt").read_bytes()),),
                    "proof.t2t.txt"),
        fuzz.Sample("llm-poetry-json", "text2text-json",
                    (("poetry.t2t.json", (llm / "GENTLE_poetry_death.json").read_bytes()),),
                    "poetry.t2t.json"),
    ]
    found.update({s.name: s for s in extra})
    found.update({s.name: s for s in _library_samples(found["gum-poetry"])})
    return found


def _library_samples(poetry: fuzz.Sample) -> list[fuzz.Sample]:
    """Real outputs of NLP libraries where public ones exist (fastcoref, Stanza, CoreNLP),
    else their documented output (spaCy, Stanza's JSON), and Maverick's written by corefkit
    from a real CorefUD sample (no file of it exists)."""
    import corefkit

    outputs, examples = CORPORA / "system-outputs", ROOT / "examples" / "libraries"

    def one(name: str, fmt: str, path: Path, as_name: str) -> fuzz.Sample:
        return fuzz.Sample(name, fmt, ((as_name, path.read_bytes()),), as_name)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fuzz._write(folder / "source", dict(poetry.files))
        corefkit.write(corefkit.read(folder / "source" / poetry.main, "corefud"),
                       folder / "poetry.maverick.jsonl", "maverick")
        maverick = (folder / "poetry.maverick.jsonl").read_bytes()
    return [
        one("fastcoref-out", "fastcoref", outputs / "fastcoref/out_test.jsonlines",
            "out.fastcoref.jsonl"),
        fuzz.Sample("poetry-maverick", "maverick", (("poetry.maverick.jsonl", maverick),),
                    "poetry.maverick.jsonl"),
        one("spacy-experimental", "spacy", examples / "spacy/spacy-experimental.jsonl",
            "exp.spacy.jsonl"),
        one("stanza-example", "stanza", outputs / "stanza/coref_doc_example.tabs.conllu",
            "stanza.conllu"),
        one("stanza-documented", "stanza-json", examples / "stanza/documented.json",
            "stanza.json"),
        one("corenlp-xml", "corenlp", outputs / "corenlp/input.txt.xml", "input.txt.xml"),
        one("corenlp-headlines", "corenlp-json", outputs / "corenlp/corenlp-parser_headlines.json",
            "headlines.json"),
    ]


def _cas_sample(source: fuzz.Sample) -> fuzz.Sample:
    """A UIMA CAS export (one XMI and its TypeSystem.xml, INCEpTION's layout) of a real
    CorefUD sample, written by corefkit's XMI writer: the corpora's XMI files need type
    systems under other names (their README), which a mutated folder would not keep."""
    import corefkit

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        fuzz._write(folder / "source", dict(source.files))
        corefkit.write(corefkit.read(folder / "source" / source.main, "corefud"),
                       folder / "cas", "uima-cas")
        files = {p.name: p.read_bytes() for p in sorted((folder / "cas").iterdir())}
    main = next(name for name in files if name.endswith(".xmi"))
    files[main] = files[main].replace(b"><", b">\n<")  # one element a line: lines to break
    return fuzz.Sample("gum-poetry-cas", "uima-cas", tuple(sorted(files.items())), main)


def sample_names(fmt: str) -> list[str]:
    return {"jsonlines": ["spanbert", "preco"], "gap": ["gap"],
            "brat": ["litbank-brat"], "webanno-tsv": ["gum-tsv", "tsv3-stacked"],
            "uima-cas": ["gum-poetry-cas"], "text2text": ["llm-poetry", "llm-proof"],
            "text2text-json": ["llm-poetry-json"], "fastcoref": ["fastcoref-out"],
            "maverick": ["poetry-maverick"], "spacy": ["spacy-experimental"],
            "stanza": ["stanza-example"], "stanza-json": ["stanza-documented"],
            "corenlp": ["corenlp-xml"], "corenlp-json": ["corenlp-headlines"]}.get(fmt) \
        or fuzz.sample_names(fmt)


FORMATS = ("conll2012", "corefud", "ua-exploded", "lcc", "mmax2", "jsonlines", "brat", "gap",
           "webanno-tsv", "uima-cas", "text2text", "text2text-json",
           # what NLP libraries write
           "fastcoref", "maverick", "spacy", "stanza", "stanza-json", "corenlp", "corenlp-json")
# the JSON formats: every value set to each breaker, deleted, doubled or moved
JSON_FORMATS = ("lcc", "jsonlines", "text2text-json", "fastcoref", "maverick", "spacy",
                "stanza-json", "corenlp-json")


# ============================================================================ mutation kinds
@dataclass(frozen=True)
class Kind:
    """One way to break a file: ``apply(files, sample, rng)`` changes the files in place."""

    name: str
    level: str
    apply: Callable[[dict[str, bytes], fuzz.Sample, random.Random], None]


def _op(name: str, piece: str = "", n2: int | None = None, at: float | None = None
        ) -> Callable[[dict[str, bytes], fuzz.Sample, random.Random], None]:
    """A kind made of one operation of the fuzz tests (``tests/fuzz/test_reader_fuzz.py:
    apply``): its positions drawn from the sweep's random generator, or at a fraction."""
    def apply(files: dict[str, bytes], sample: fuzz.Sample, rng: random.Random) -> None:
        main = files.get(sample.main, b"")
        n1 = int(at * len(main)) if at is not None else rng.randrange(10**6)
        second = n2 if n2 is not None else rng.randrange(10**6)
        # which file of a project (MMAX2: the .mmax, words, markables, schemes): drawn last,
        # so that a one-file sample's positions do not depend on it
        fuzz.apply(files, sample, (name, rng.randrange(10**6), n1, second, piece))
    return apply


def _main_bytes(change: Callable[[bytes, random.Random], bytes]
                ) -> Callable[[dict[str, bytes], fuzz.Sample, random.Random], None]:
    def apply(files: dict[str, bytes], sample: fuzz.Sample, rng: random.Random) -> None:
        files[sample.main] = change(files[sample.main], rng)
    return apply


def _insert(piece: bytes) -> Callable[[bytes, random.Random], bytes]:
    def change(data: bytes, rng: random.Random) -> bytes:
        at = rng.randrange(len(data) + 1)
        return data[:at] + piece + data[at:]
    return change


def _blank_line(data: bytes, rng: random.Random) -> bytes:
    lines = data.splitlines(keepends=True)
    at = rng.randrange(len(lines) + 1)
    return b"".join(lines[:at] + [b"\n"] + lines[at:])


def byte_kinds() -> list[Kind]:
    kinds = [Kind(f"byte: cut at {int(100 * f)}%", "byte", _op("truncate", at=f))
             for f in (0.25, 0.5, 0.75)]
    kinds.append(Kind("byte: last byte cut", "byte",
                      _main_bytes(lambda d, r: d[:-1])))
    kinds += [Kind(f"byte: invalid UTF-8 {seq!r}", "byte", _op("bytes", n2=n))
              for n, seq in enumerate(fuzz.INVALID_UTF8)]
    kinds += [Kind("byte: BOM", "byte", _op("bom")),
              Kind("byte: CRLF line ends", "byte", _op("crlf", n2=0)),
              Kind("byte: one CRLF line", "byte", _op("crlf", n2=1)),
              Kind("byte: CR line ends", "byte", _op("crlf", n2=2)),
              Kind("byte: NUL inserted", "byte", _main_bytes(_insert(b"\x00"))),
              Kind("byte: vertical tab inserted", "byte", _main_bytes(_insert(b"\x0b"))),
              Kind("byte: emptied", "byte", _main_bytes(lambda d, r: b"")),
              Kind("byte: blank lines only", "byte", _main_bytes(lambda d, r: b"\n\n\n"))]
    return kinds


def line_kinds(fmt: str) -> list[Kind]:
    kinds = [Kind("line: deleted", "line", _op("del-line")),
             Kind("line: first deleted", "line", _main_bytes(
                 lambda d, r: b"".join(d.splitlines(keepends=True)[1:]))),
             Kind("line: last deleted", "line", _main_bytes(
                 lambda d, r: b"".join(d.splitlines(keepends=True)[:-1]))),
             Kind("line: duplicated", "line", _op("dup-line")),
             Kind("line: swapped with the next", "line", _op("swap-lines", n2=1)),
             Kind("line: swapped with a far one", "line", _op("swap-lines", n2=0)),
             Kind("line: wrapped", "line", _op("split-line")),
             Kind("line: joined to the next", "line", _op("join-lines")),
             Kind("line: blank line inserted", "line", _main_bytes(_blank_line)),
             Kind("line: the file twice", "line", _op("concat", at=0.0)),
             Kind("line: the file and half of it", "line", _op("concat", at=0.5))]
    if fmt in ("conll2012", "corefud", "ua-exploded", "brat", "gap", "jsonlines",
               "webanno-tsv", "stanza"):
        kinds += [Kind("line: sentence deleted", "line", _op("del-block")),
                  Kind("line: sentence duplicated", "line", _op("dup-block")),
                  Kind("line: sentences swapped", "line", _op("swap-blocks"))]
    for number, alternative in enumerate(STRUCTURE.get(fmt, ())):
        kinds.append(Kind(f"line: '{alternative}' line deleted", "line",
                          _delete_matching(alternative, number)))
    return kinds


STRUCTURE = {
    "conll2012": ["#begin document", "#end document", "blank"],
    "corefud": ["# newdoc", "# global.Entity", "# sent_id", "# text", "blank"],
    "ua-exploded": ["# newdoc", "# global.columns", "# sent_id", "blank"],
    "lcc": ['"annotationLayers"', '"content"', '"type"'],
    "mmax2": ["<words>", "<markables", "<basedata_path", "<markable_path", "<level"],
    "jsonlines": ["{"],
    "brat": ["T", "R", "*"],
    "gap": ["ID\t"],
    "webanno-tsv": ["#FORMAT", "#T_", "#Sentence.id", "#Text", "blank"],
    "uima-cas": ["<cas:Sofa", "<cas:View", "<type:DocumentMetaData", "<type0:Sentence",
                 "<type0:Token", "<type1:CoreferenceChain", "<type1:CoreferenceLink"],
    "text2text": [],
    "text2text-json": ['"doc_id"', '"tokens"', '"clusters_token_offsets"',
                       '"clusters_text_mentions"'],
    "fastcoref": ["{"], "maverick": ["{"], "spacy": ["{"],
    "stanza": ["# sent_id", "# text", "blank"],
    "stanza-json": ['"coref_chains"', '"text"', '"id"'],
    "corenlp": ["<coreference", "<mention", "<token", "<sentence"],
    "corenlp-json": ['"corefs"', '"tokens"', '"sentences"'],
}


def _delete_matching(prefix: str, number: int
                     ) -> Callable[[dict[str, bytes], fuzz.Sample, random.Random], None]:
    def apply(files: dict[str, bytes], sample: fuzz.Sample, rng: random.Random) -> None:
        names = (sample.mutable or [sample.main]) if len(sample.files) > 1 else [sample.main]
        for name in names:
            lines = files[name].splitlines(keepends=True)
            marked = [i for i, line in enumerate(lines)
                      if (not line.strip() if prefix == "blank"
                          else line.lstrip().startswith(prefix.encode()))]
            if marked:
                del lines[rng.choice(marked)]
                files[name] = b"".join(lines)
                return
    return apply


COLUMNS = {"conll2012": 5, "corefud": 10, "ua-exploded": 12, "brat": 3, "gap": 11,
           "webanno-tsv": 5, "stanza": 10}
COLUMN_PIECES = ["", "_", "-1", "99999", "x y", "(", "\u00a0"]


def column_kinds(fmt: str) -> list[Kind]:
    if fmt not in COLUMNS:
        return []
    kinds = []
    for column in range(COLUMNS[fmt]):
        kinds.append(Kind(f"column {column + 1}: deleted", "column",
                          _op("del-field", n2=column)))
        kinds.append(Kind(f"column {column + 1}: doubled", "column", _column_double(column)))
        piece = COLUMN_PIECES[column % len(COLUMN_PIECES)]
        kinds.append(Kind(f"column {column + 1}: set to {piece!r}", "column",
                          _op("set-field", piece, n2=column)))
    kinds += [Kind("column: TABs to spaces (one line)", "column", _op("tabs", n2=2)),
              Kind("column: TABs to spaces (all)", "column", _op("tabs", n2=0)),
              Kind("column: spaces to TABs (all)", "column", _op("tabs", n2=1))]
    return kinds


def _column_double(column: int) -> Callable[[dict[str, bytes], fuzz.Sample, random.Random],
                                            None]:
    def apply(files: dict[str, bytes], sample: fuzz.Sample, rng: random.Random) -> None:
        lines = files[sample.main].splitlines(keepends=True)
        rows = fuzz._token_lines(lines)
        if not rows:
            return
        i = rng.choice(rows)
        body, end = fuzz._split_line(lines[i])
        fields = fuzz._fields(body)
        k = 2 * (column % ((len(fields) + 1) // 2))
        sep = b"\t" if b"\t" in body else b"  "
        fields[k:k] = [fields[k], sep]
        lines[i] = b"".join(fields) + end
        files[sample.main] = b"".join(lines)
    return apply


PIECES = {**fuzz.PIECES,
          "jsonlines": ["null", "true", "-1", "0", "1", "10000000", "1.5", '"x"', '""', "[]",
                        "{}", "[0]", "[0, 1]", "[-5, 3]", "[[0, 1]]", "[[[0, 0], [0, 0]]]",
                        '{"x": 1}', "1e400", "[1.5, 2]", '"0"', "[3, -2]"],
          "brat": ["T1", "T99", "R1", "*", "Coref", "0", "-1", "99999", "1 2", "5 3", ";", "\t",
                   "PROP_PER", "x-1", ":", "Arg1:T1", "#1", " ", ""],
          "gap": ["TRUE", "FALSE", "true", "", "-1", "0", "99999", "x", "He", "\t", "A", "_"],
          "webanno-tsv": ["[", "]", "[1]", "[99]", "|", "*", "_", "->", "1-1", "1-99", "99-1",
                          "\\", "\t", "0-0", "5-2", "*->1-1", "#", "", "-1", "1.1"],
          "text2text": ["[", "]", "|", ",", "[e1", "e1]", "[e1]", "[e99", "e99]", "e", "[]",
                        "|[e1", "[e1,e1]", "##", "x", "", " ", "\t", "[e0]", "[e-1"],
          "uima-cas": ["", "0", "-1", "99999", "x", "1 2", "5", "Coref", "\u00b2", "<",
                       "&", '"'],
          "text2text-json": ["null", "true", "-1", "0", "1", "10000000", "1.5", '"x"', '""',
                             "[]", "{}", "[0]", "[0, 1]", "[-5, 3]", "[[0, 1]]",
                             "[[[0, 0], [0, 0]]]", '{"x": 1}', "1e400", "[1.5, 2]", '"0"',
                             "[3, -2]"],
          "stanza": ["", "start-id0", "end-id99", "unit-id0", "middle-id0", "start-repr-id1",
                     "x", ",", "|", "=", "start-id-1", "end-id0,end-id0", "coref_chains="],
          "corenlp": ["", "0", "-1", "99999", "x", "1 2", "<", "&amp;", "</mention>",
                      "<mention>"]}
for _fmt in ("fastcoref", "maverick", "spacy", "stanza-json", "corenlp-json"):
    PIECES[_fmt] = PIECES["jsonlines"]
SYNTAX = {**fuzz.SYNTAX,
          "brat": rb"\bT\d+|\bR\d+|\d+|;|[A-Z]+_[A-Z]+|\S+-\d+|Arg\d:",
          "gap": rb"TRUE|FALSE|\d+",
          "webanno-tsv": rb"\[\d+\]|\d+-\d+(?:\.\d+)?|->|\||\*|_|\\",
          "text2text": rb"\[e\d+|e\d+\]|\||,|\[|\]",
          "uima-cas": rb'\b(?:xmi:id|sofa|begin|end|first|next|members)="[^"]*"|/>|<[\w:]+',
          "stanza": rb"coref_chains=|(?:start|end|middle|unit)-(?:repr-)?id\d+|,|\|",
          "corenlp": rb"(?:(?<=<start>)|(?<=<end>)|(?<=<head>)|(?<=<sentence>))\d+|"
                     rb"<mention\b|</mention>|<coreference>|</coreference>|\bid=\"\d+\""}


def structure_kinds(fmt: str) -> list[Kind]:
    """The annotation syntax: each match deleted or doubled; each breaker put in place of
    one, or before one (JSON: every value set to each breaker, deleted or doubled; XML: every
    attribute value set to each breaker)."""
    if fmt in JSON_FORMATS:
        kinds = [Kind(f"structure: JSON value set to {p}", "structure", _json(p, 0))
                 for p in PIECES[fmt]]
        kinds += [Kind("structure: JSON member deleted", "structure", _json("0", 1)),
                  Kind("structure: JSON list item doubled", "structure", _json("0", 2)),
                  Kind("structure: JSON number moved far", "structure", _json("0", 3))]
        if fmt == "lcc":
            kinds.append(Kind("structure: layer content cut", "structure", _op("json-cut")))
        return kinds
    if fmt in ("mmax2", "uima-cas"):
        kinds = [Kind(f"structure: attribute value set to {p!r}", "structure",
                      _op("value", p)) for p in PIECES[fmt]]
        if fmt == "uima-cas":  # the CAS's references and offsets, elements and ends
            return kinds + [Kind("structure: markup deleted", "structure", _annot(fmt, 0, "")),
                            Kind("structure: markup doubled", "structure", _annot(fmt, 2, ""))]
        return kinds + [Kind("structure: markup deleted", "structure", _op("annot", n2=0)),
                        Kind("structure: markup doubled", "structure", _op("annot", n2=2))]
    kinds = [Kind("structure: annotation piece deleted", "structure", _annot(fmt, 0, "")),
             Kind("structure: annotation piece doubled", "structure", _annot(fmt, 2, ""))]
    for piece in PIECES[fmt]:
        kinds.append(Kind(f"structure: annotation piece replaced by {piece!r}", "structure",
                          _annot(fmt, 1, piece)))
        kinds.append(Kind(f"structure: {piece!r} inserted before a piece", "structure",
                          _annot(fmt, 3, piece)))
    return kinds


def _annot(fmt: str, action: int, piece: str
           ) -> Callable[[dict[str, bytes], fuzz.Sample, random.Random], None]:
    def apply(files: dict[str, bytes], sample: fuzz.Sample, rng: random.Random) -> None:
        if fmt in fuzz.SYNTAX:
            fuzz.apply(files, sample, ("annot", 0, rng.randrange(10**6), action, piece))
            return
        lines = files[sample.main].splitlines(keepends=True)
        places = [(i, m.start(), m.end()) for i, line in enumerate(lines)
                  for m in re.finditer(SYNTAX[fmt], line)]
        if fmt == "gap":
            places = [p for p in places if p[0] > 0]  # the header is structure, not a value
        if not places:
            return
        i, a, b = rng.choice(places)
        line, text = lines[i], piece.encode()
        lines[i] = (line[:a] + line[b:], line[:a] + text + line[b:],
                    line[:b] + line[a:b] + line[b:], line[:a] + text + line[a:])[action]
        files[sample.main] = b"".join(lines)
    return apply


def _json(piece: str, action: int) -> Callable[[dict[str, bytes], fuzz.Sample, random.Random],
                                               None]:
    """A JSON value of the file (LCC), or of one line (jsonlines), changed."""
    def apply(files: dict[str, bytes], sample: fuzz.Sample, rng: random.Random) -> None:
        n1 = rng.randrange(10**6)
        if sample.format in ("lcc", "text2text-json", "stanza-json", "corenlp-json"):  # one value
            files[sample.main] = fuzz._mutate_json(files[sample.main], "json", n1, action, piece)
            return
        lines = files[sample.main].splitlines(keepends=True)
        i = rng.randrange(len(lines))
        changed = fuzz._mutate_json(lines[i], "json", n1, action, piece)
        if changed != lines[i]:  # one line per record: keep it on one line
            changed = json.dumps(json.loads(changed), ensure_ascii=False).encode() + b"\n"
        lines[i] = changed
        files[sample.main] = b"".join(lines)
    return apply


def kinds(fmt: str) -> list[Kind]:
    return [*byte_kinds(), *line_kinds(fmt), *column_kinds(fmt), *structure_kinds(fmt)]


@dataclass(frozen=True)
class Case:
    """A mutated input: a kind applied to a sample."""

    format: str
    sample: str
    kind: Kind
    seed: int


def cases(formats: list[str], limit: int | None = None, seed: int = 2026) -> Iterator[Case]:
    """Every kind of every format, each on one sample of the format (in turn), ``limit`` per
    format spread evenly over the kinds."""
    for fmt in formats:
        found = kinds(fmt)
        names = sample_names(fmt)
        chosen = range(len(found))
        if limit is not None and limit < len(found):
            chosen = sorted({round(i * (len(found) - 1) / max(limit - 1, 1))
                             for i in range(limit)})
        for n in chosen:
            yield Case(fmt, names[n % len(names)], found[n], seed + n)


def named_cases(wanted: list[tuple[str, str]], seed: int = 2026) -> list[Case]:
    """The cases of the given (format, kind name) pairs, as :func:`cases` makes them."""
    found = []
    for fmt, name in wanted:
        every = kinds(fmt)
        n = next(i for i, kind in enumerate(every) if kind.name == name)
        names = sample_names(fmt)
        found.append(Case(fmt, names[n % len(names)], every[n], seed + n))
    return found


def mutate(case: Case, all_samples: dict[str, fuzz.Sample]) -> dict[str, bytes] | None:
    """The files of a case, or None when the mutation found nothing to change."""
    sample = all_samples[case.sample]
    files = dict(sample.files)
    case.kind.apply(files, sample, random.Random(case.seed))
    return None if files == dict(sample.files) else files


# ============================================================================ the worker
WORKER = r'''
import contextlib, io, json, os, signal, sys
from corefkit.cli.main import main

class Hang(BaseException):
    pass

def alarm(*_):
    raise Hang()

signal.signal(signal.SIGALRM, alarm)

def run(args):
    out, err = io.StringIO(), io.StringIO()
    signal.alarm(int(job["timeout"]))
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(args)
    except Hang:
        return {"code": None, "out": out.getvalue()[-20000:], "err": "hang"}
    except MemoryError:
        return {"code": None, "out": "", "err": "MemoryError"}
    finally:
        signal.alarm(0)
    return {"code": code, "out": out.getvalue()[-200000:], "err": err.getvalue()[-20000:]}

def digest(path, fmt):
    """What lenient reading finds: documents, words per sentence, entities as sets of spans."""
    from corefkit.converters.registry import read
    try:
        docs = list(read(path, format=fmt, lenient=True))
    except BaseException as exc:
        return {"error": type(exc).__name__}
    found = []
    for doc in docs:
        words = [[doc.tokens[i].form for i in s.token_indices() if not doc.tokens[i].is_empty]
                 for s in doc.sentences]
        entities = sorted(sorted(repr(m.tokens) for m in doc.mentions_of(e))
                          for e in doc.entities if not e.pseudo)
        found.append({"name": doc.name, "words": sum(map(len, words)),
                      "text": " ".join(w for s in words for w in s),
                      "entities": entities, "mentions": len(doc.mentions)})
    return {"documents": found}

for line in sys.stdin:  # one job per line, one line of results per job
    job = json.loads(line)
    os.chdir(job["dir"])
    results = {}
    for name, args in job["commands"]:
        results[name] = run(args)
    for name, (path, fmt) in job["digests"].items():
        if os.path.exists(path):
            signal.alarm(int(job["timeout"]))
            try:
                results["digest:" + name] = digest(path, fmt)
            except BaseException as exc:
                results["digest:" + name] = {"error": type(exc).__name__}
            finally:
                signal.alarm(0)
    sys.stdout.write(json.dumps(results) + "\n")
    sys.stdout.flush()
'''


def _limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    os.nice(5)


class Worker:
    """A process that runs the jobs it is given, one at a time, under the memory limit; it is
    replaced after :data:`JOBS_PER_WORKER` jobs, a hang, a memory error or its death, so that
    one input never affects the next."""

    JOBS_PER_WORKER = 20

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.jobs = 0

    def _start(self) -> subprocess.Popen[str]:
        if self.process is None or self.process.poll() is not None \
                or self.jobs >= self.JOBS_PER_WORKER:
            self.stop()
            self.process = subprocess.Popen(
                [sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True, preexec_fn=_limit, cwd=ROOT,
                env={**os.environ, "PYTHONPATH": str(ROOT), "COREFKIT_DEBUG": ""})
            self.jobs = 0
        return self.process

    def stop(self) -> None:
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
            self.process = None

    def run(self, job: dict, timeout: float) -> dict:
        """The results of one job (every command; a hang or death is every command's)."""
        import selectors

        process = self._start()
        self.jobs += 1
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(json.dumps(job) + "\n")
            process.stdin.flush()
        except BrokenPipeError:
            return self._failed(job, "worker died")
        selector = selectors.DefaultSelector()
        selector.register(process.stdout, selectors.EVENT_READ)
        ready = selector.select(timeout * (len(job["commands"]) + 3))
        selector.close()
        if not ready:
            return self._failed(job, "hang")
        line = process.stdout.readline()
        if not line:
            return self._failed(job, "worker died")
        results = json.loads(line)
        if any(r.get("err") in ("hang", "MemoryError") for r in results.values()
               if isinstance(r, dict)):
            self.stop()
        return results

    def _failed(self, job: dict, why: str) -> dict:
        error = ""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            assert self.process.stderr is not None
            error = self.process.stderr.read()[-2000:]
        self.stop()
        reason = "hang" if why == "hang" else (
            "MemoryError" if "MemoryError" in error or "Cannot allocate" in error
            else f"{why}: {error[-300:]}")
        return {name: {"code": None, "out": "", "err": reason} for name, _ in job["commands"]}


def commands(fmt: str, path: Path, original: Path, scratch: Path) -> list[tuple[str, list[str]]]:
    f = ["--from", fmt]
    out = scratch / "out"
    return [
        ("validate", ["validate", str(path), "--format", "json", "--jobs", "1", *f]),
        ("convert", ["convert", str(path), str(out) + CONVERT_TO[fmt], *f]),
        ("score", ["score", str(original), str(path), "-f", "json", *f]),
        ("stats", ["stats", str(path), "-f", "json", "--jobs", "1", *f]),
        ("normalize", ["normalize", str(path), _normalized(scratch, fmt, path),
                       "--pass", "merge-same-span", *f]),
        ("analyze", ["analyze", str(original), str(path), *f]),
        ("report", ["report", str(original), str(path), "-o", str(scratch / "r.html"),
                    "--permutations", "20", "--bootstrap", "20", "--seed", "1", *f]),
    ]


def _normalized(scratch: Path, fmt: str, path: Path) -> str:
    """Where ``normalize`` writes: a folder for the formats that write one."""
    if fmt in ("mmax2", "brat", "uima-cas"):
        return str(scratch / "norm-project")
    return str(scratch / "norm") + "".join(path.suffixes)


# ============================================================================ classification
LOCATED = re.compile(r"corefkit: error: (?P<file>.+?):(?P<line>\d+):")
WHOLE_FILE = re.compile(r"cannot recognise the format|holds no document|no such file|"
                        r"is not valid UTF-8|cannot read|is empty")


@dataclass
class Run:
    command: str
    outcome: str
    detail: str = ""


@dataclass
class Tally:
    """Runs per command and class, with the details of the ones worth reading."""

    counts: Counter = field(default_factory=Counter)
    notes: list[tuple[str, str, str, str, str]] = field(default_factory=list)

    def add(self, case: Case, run: Run) -> None:
        self.counts[run.command, run.outcome] += 1
        if run.outcome in FAILURES or run.outcome == "rejected, unlocated":
            self.notes.append((case.format, case.sample, case.kind.name, run.command,
                               f"{run.outcome}: {run.detail}"))

    def table(self) -> str:
        short = ("located", "unlocated", "warned", "harmless", "DEFECT", "internal", "hang",
                 ">1GB")
        head = f"{'command':<10}" + "".join(f"{c:>10}" for c in short)
        lines = [head, "-" * len(head)]
        for command in (*COMMANDS, "total"):
            row = [self.total(c, command) for c in CLASSES]
            lines.append(f"{command:<10}" + "".join(f"{n:>10}" for n in row))
        lines.append("columns: " + " | ".join(CLASSES))
        return "\n".join(lines)

    def total(self, outcome: str, command: str = "total") -> int:
        return sum(n for (cmd, cls), n in self.counts.items()
                   if cls == outcome and command in ("total", cmd))


def _warned(result: dict) -> bool:
    return bool(re.search(r"warning|not carried over|repaired|dropped", result["err"])) \
        or _aligned_with_changes(result)


def _aligned_with_changes(result: dict) -> bool:
    """A score whose report says the response was aligned to the key's words and what
    differed (formats that bring their own text, such as an LLM's answer)."""
    try:
        totals = json.loads(result["out"]).get("alignment", {}).get("totals", {})
    except (ValueError, AttributeError):
        return False
    return any(totals.get(k) for k in ("words_replaced", "words_inserted", "words_deleted",
                                       "tokens_split", "tokens_merged", "mentions_unaligned"))


def _findings(result: dict) -> list[dict]:
    found = []
    for line in result["out"].splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and "check" in value:
            found.append(value)
    return found


def classify(case: Case, results: dict, baseline: dict, fmt: str) -> list[Run]:
    """The class of every command's run on one mutated input."""
    runs = []
    validate = results["validate"]
    findings = _findings(validate)
    refusals = sorted({f["check"] for f in findings if fuzz.refused(f)})
    digest = results.get("digest:input", {})
    original = baseline.get("digest:input", {})
    for command in COMMANDS:
        result = results[command]
        if baseline[command]["code"] != 0:  # not applicable to this format
            continue
        runs.append(Run(command, *_outcome(command, result, results, refusals, digest,
                                           original, findings, baseline)))
    return runs


def _outcome(command: str, result: dict, results: dict, refusals: list[str], digest: dict,
             original: dict, findings: list[dict], baseline: dict) -> tuple[str, str]:
    err, code = result["err"], result["code"]
    if err == "hang":
        return "hang", ""
    if "MemoryError" in err:
        return "over 1 GB", err[-300:]
    if code is None or code == 3 or "Traceback" in err or "internal error" in err:
        return "internal error", err.strip().splitlines()[-1][:300] if err.strip() else ""
    if command == "validate":
        errors = [f for f in findings if f["severity"] == "error"]
        if code == 1:
            unlocated = [f for f in errors if not f.get("line") and not f["check"].startswith(
                ("file.", "text.invalid-utf8"))]
            return ("rejected, unlocated", f"{unlocated[0]['check']}: {unlocated[0]['message']}"
                    [:300]) if unlocated and len(unlocated) == len(errors) else \
                ("rejected, located", "")
        if code == 2:
            return _rejection(err)
        if results["convert"]["code"] == 1 and not any(f["severity"] == "error"
                                                       for f in findings):
            return "silent defect", ("convert refuses the input, validate finds no error: "
                                     + results["convert"]["err"].strip()[:300])
        return ("warned", "") if findings else ("silent harmless", "")
    if code in (1, 2):
        return _rejection(err)
    if _warned(result):
        return "warned", ""
    if refusals:
        return "silent defect", f"validate refuses it ({', '.join(refusals[:3])}), {command} " \
                                "exits 0 and says nothing"
    problem = _inconsistency(command, result, results, digest, original, baseline)
    if problem:
        return "silent defect", problem
    return "silent harmless", ""


def _rejection(err: str) -> tuple[str, str]:
    line = next((x for x in err.splitlines() if x.startswith("corefkit: error:")), err.strip())
    if LOCATED.search(line) or WHOLE_FILE.search(line):
        return "rejected, located", ""
    return "rejected, unlocated", line[:300]


def _inconsistency(command: str, result: dict, results: dict, digest: dict,
                   original: dict, baseline: dict) -> str:
    """What is wrong with a silent run, or ''."""
    docs = digest.get("documents")
    if docs is None:
        return ""  # lenient reading failed: nothing to compare with
    if command in ("convert", "normalize"):
        written = results.get(f"digest:{command}", {})
        if "documents" in written and _model(written) != _model(digest):
            return (f"{command} wrote an annotation that reads back different from its input "
                    f"({_difference(digest, written)}), without a word")
    if command in ("score", "analyze", "report") and "documents" in original:
        words = _words_differ(original, digest)
        if words:
            return f"the response's words differ from the key's ({words}), {command} " \
                   "compared them without a word"
    if command == "score":
        try:
            metrics = json.loads(result["out"])["metrics"]
        except (ValueError, KeyError):
            return ""
        if not any(d["mentions"] for d in docs):
            return "score over a response without any mention, without a word"
        if _model(digest) == _model(original):  # as the original scored against itself
            try:
                expected = json.loads(baseline["score"]["out"])["metrics"]
            except (ValueError, KeyError):
                expected = {}
            low = [m for m, v in metrics.items() if isinstance(v, dict) and m in expected
                   and v.get("f1") != expected[m].get("f1")]
            if low:
                return (f"the response equals the key but {low[0]} is {metrics[low[0]]['f1']}, "
                        f"not {expected[low[0]]['f1']}")
    if command == "stats":
        try:
            counts = json.loads(result["out"])
        except ValueError:
            return ""
        words = sum(d["words"] for d in docs)
        if counts.get("documents") != len(docs) or counts.get("tokens", words) < words:
            return (f"stats counts {counts.get('documents')} documents and "
                    f"{counts.get('tokens')} tokens, lenient reading {len(docs)} and {words}")
    return ""


def _words_differ(key: dict, response: dict) -> str:
    """Where the words of the documents differ (in order), or ''."""
    keys, responses = key["documents"], response["documents"]
    if len(keys) != len(responses):
        return f"{len(keys)} documents in the key, {len(responses)} in the response"
    by_name = {d.get("name"): d for d in responses}
    if len(by_name) == len(responses) and all(d.get("name") in by_name for d in keys):
        responses = [by_name[d.get("name")] for d in keys]  # paired by name, as scoring pairs
    for n, (a, b) in enumerate(zip(keys, responses)):
        if a["text"] != b["text"]:
            return _difference({"documents": [a]}, {"documents": [b]}).replace(
                "document 1", f"document {a.get('name', n + 1)!r}").replace(
                "read back", "in the response")
    return ""


def _model(digest: dict) -> list:
    return [(d["text"], d["entities"]) for d in digest.get("documents", [])]


def _difference(a: dict, b: dict) -> str:
    da, db = a["documents"], b["documents"]
    if len(da) != len(db):
        return f"{len(da)} documents, {len(db)} read back"
    for n, (x, y) in enumerate(zip(da, db)):
        if x["text"] != y["text"]:
            words_a, words_b = x["text"].split(" "), y["text"].split(" ")
            at = next((i for i, (p, q) in enumerate(zip(words_a, words_b)) if p != q),
                      min(len(words_a), len(words_b)))
            return (f"document {n + 1}: word {at + 1} is "
                    f"{(words_a[at:at + 1] or ['(none)'])[0]!r}, read back "
                    f"{(words_b[at:at + 1] or ['(none)'])[0]!r}")
        if x["entities"] != y["entities"]:
            return (f"document {n + 1}: {len(x['entities'])} entities, "
                    f"{len(y['entities'])} read back")
    return "documents differ"


# ============================================================================ the sweep
def sweep(selected: list[Case], timeout: float = TIMEOUT, progress: bool = False) -> Tally:
    all_samples = samples()
    tally = Tally()
    baselines: dict[str, dict] = {}
    worker = Worker()
    with tempfile.TemporaryDirectory(prefix="corefkit-sweep-") as scratch:
        root = Path(scratch)
        try:
            for n, case in enumerate(selected, 1):
                sample = all_samples[case.sample]
                if case.sample not in baselines:
                    baselines[case.sample] = _run_case(worker, root / f"base-{case.sample}",
                                                       sample, dict(sample.files), timeout)
                files = mutate(case, all_samples)
                if files is None:
                    continue
                results = _run_case(worker, root / f"case-{n}", sample, files, timeout)
                for run in classify(case, results, baselines[case.sample], case.format):
                    tally.add(case, run)
                if progress:
                    print(f"[{n}/{len(selected)}] {case.format} {case.kind.name}",
                          file=sys.stderr, flush=True)
        finally:
            worker.stop()
    return tally


def _run_case(worker: Worker, folder: Path, sample: fuzz.Sample, files: dict[str, bytes],
              timeout: float) -> dict:
    data, original, scratch = folder / "data", folder / "original", folder / "scratch"
    fuzz._write(data, files)
    fuzz._write(original, dict(sample.files))
    scratch.mkdir(parents=True)
    path, key = data / sample.main, original / sample.main
    fmt = sample.format
    job = {"dir": str(folder), "timeout": timeout,
           "commands": commands(fmt, path, key, scratch),
           "digests": {"input": [str(path), fmt],
                       "convert": [str(scratch / "out") + CONVERT_TO[fmt], None],
                       "normalize": [_normalized(scratch, fmt, path), fmt]}}
    results = worker.run(job, timeout)
    shutil.rmtree(folder, ignore_errors=True)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--format", action="append", choices=FORMATS)
    parser.add_argument("--limit", type=int, default=None, help="kinds per format")
    parser.add_argument("--timeout", type=float, default=TIMEOUT)
    parser.add_argument("--details", action="store_true",
                        help="list every run outside the first four classes")
    parser.add_argument("--list-kinds", action="store_true")
    args = parser.parse_args()
    formats = args.format or list(FORMATS)
    if args.list_kinds:
        for fmt in formats:
            for kind in kinds(fmt):
                print(f"{fmt}\t{kind.level}\t{kind.name}")
        return 0
    selected = list(cases(formats, args.limit))
    total_kinds = sum(len(kinds(f)) for f in formats)
    print(f"{len(selected)} mutated inputs, {total_kinds} mutation kinds over "
          f"{len(formats)} formats, {len(COMMANDS)} commands each", flush=True)
    tally = sweep(selected, args.timeout, progress=True)
    print(tally.table())
    print(f"{sum(tally.counts.values())} runs")
    if args.details or any(tally.counts[c, cls] for c in COMMANDS for cls in FAILURES):
        for note in tally.notes:
            print("\t".join(note))
    return 1 if any(tally.counts[c, cls] for c in COMMANDS for cls in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
