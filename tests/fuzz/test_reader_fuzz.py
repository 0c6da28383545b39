"""Fuzz every reader through the command line with mutations of real files (issue 13).

Each example takes a valid prefix of a real corpus file (whole sentences of its first
document; LCC files whole; an MMAX2 project copied whole, or cut to its first words and the
markables within them), checked to read strictly without any error, and breaks it the way
files break in practice: a line deleted, duplicated, swapped, wrapped or joined to the next, a
sentence deleted, duplicated or moved, two copies of the file joined, the file cut at a byte,
a TAB field deleted, added or replaced by garbage, TABs turned into spaces, a bracket,
``Entity=``, ``SplitAnte=``, ``Bridge=``, ``ElementOf``, ``MarkableID`` or ``Min`` value
unbalanced or corrupted, ``#end document``, ``# newdoc``, ``# global.Entity`` or
``# global.columns`` dropped, JSON values of the wrong type, offsets outside the text, layers
deleted or duplicated, layer contents cut off, unclosed XML tags, dangling span and pointer
ids, a missing Basedata, markable, scheme or common paths file, invalid UTF-8, a BOM, CRLF or
CR line ends. An example is one to three such operations, plain tuples (see ``apply``) so
that a shrunk failure can be pasted into ``@example``. The commands run in-process
(``corefkit.cli.main.main``), on the file under a temporary folder.

Properties, for every mutated file FILE (``check``):

1. **No traceback.** ``convert``, ``validate`` and ``score`` exit 0, 1 (bad input) or 2
   (usage) and never print ``Traceback`` or ``internal error``.
2. **One located line.** A command that fails prints exactly one ``corefkit: error:`` line,
   and no other line that does not start with ``corefkit:``; it names the file (for MMAX2: a
   file of the project) and, for the line-based formats (CoNLL-2012, CoNLL-U, CoNLL-UA), a
   line: ``corefkit: error: FILE:LINE: ...``.
3. **Strict reading and ``validate`` agree** (issue 22: one list of checks with one severity
   drives every command). ``corefkit validate FILE`` reads leniently and reports every
   incident; a *refused finding* is any error finding: a *rejection* (the reader raised a
   ``FormatError`` and stopped; the message ends in "reading of this file stopped here ...")
   or a finding whose check's severity is error (``Check.refused``), reported by the reader
   or by the validator's own checks, which every command runs on what it reads
   (``corefkit/converters/gate.py``). Warnings are never refused. Then:

   * strict ``corefkit convert FILE OUT`` exits 1 **if and only if** ``validate`` has a
     refused finding, and its error line names the check of one of them (a reader that
     rejects a document leaves the repairs it made before on the error, ``exc.repairs``, and
     ``validate`` reports them: strict reading may have stopped at one of them);
   * ``corefkit convert FILE OUT --lenient`` exits 0 when no refused finding is a rejection:
     it repairs (or, for the validator's checks, reads as it stands) instead of refusing,
     with a warning; it exits 1 naming a rejected check otherwise, except for
     ``file.no-documents`` (written as an empty output).
4. **``score`` and ``stats`` agree.** ``corefkit score FILE FILE`` and ``corefkit stats FILE``
   exit 1 exactly when strict ``convert`` does, naming the same check.
5. **What ``convert`` writes reads back**: when strict ``convert`` exits 0 (the output in
   the input's format), ``validate`` finds no error in the output.

``COREFKIT_FUZZ_SCALE`` multiplies the number of examples (1800 in all: about 30 s of CPU,
30-80 s on a shared machine); ``benchmarks/fuzz_readers.py`` runs the same properties for
many more examples outside the test suite. The failures found are kept as explicit examples (``@example``) and plain tests,
each a bug fixed; those of the CorefUD validator's UD format checks (reported by ``validate``,
accepted by strict reading, until every command ran the validator's checks) are the tests at
the end.
"""

from __future__ import annotations

import contextlib
import functools
import io
import json
import os
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from corefkit import read
from corefkit.cli.main import main
from corefkit.validation.catalog import get_check
from corefkit.validation.engine import STOPPED
from tests.conftest import CORPORA

LINE_BASED = ("conll2012", "corefud", "ua-exploded")

# what strict reading said of each example, (format, check id or "read"), when a caller
# (benchmarks/fuzz_readers.py) sets it to a Counter
OUTCOMES: Counter | None = None
READ_BACK = True
SCALE = float(os.environ.get("COREFKIT_FUZZ_SCALE", "1"))


# ============================================================================ samples
@dataclass(frozen=True)
class Sample:
    """A valid prefix of a real file or project: its files (relative path -> bytes) and the
    file the commands are given."""

    name: str
    format: str
    files: tuple[tuple[str, bytes], ...]
    main: str

    @property
    def mutable(self) -> list[str]:
        """The files mutations touch: the annotation, never display configuration."""
        if len(self.files) == 1:
            return [self.files[0][0]]
        return [name for name, _ in self.files
                if (name.endswith((".mmax", ".xml")) and "with_errors" not in name)
                and ("/Basedata/" in f"/{name}" or "/Markables/" in f"/{name}"
                     or "/Schemes/" in f"/{name}" or "common_paths" in name
                     or name.endswith(".mmax"))]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines(keepends=True)


def _sentence_ends(lines: list[str]) -> list[int]:
    """Indexes of the blank lines that end sentences."""
    return [i for i, line in enumerate(lines) if not line.strip()]


def _cut_conll(path: Path) -> Callable[[int], str]:
    """The first document of a CoNLL-2012 file, cut after its k-th sentence and closed."""
    lines = _lines(path)
    end = next(i for i, line in enumerate(lines) if re.match(r"#\s*end document", line))
    closing = lines[end]
    lines = lines[:end]
    ends = _sentence_ends(lines)

    def cut(k: int) -> str:
        return "".join(lines[:ends[k - 1] + 1] if k <= len(ends) else lines) + closing
    return cut


def _cut_conllu(path: Path, *, tabs: bool = False) -> Callable[[int], str]:
    """The first document of a CoNLL-U (Plus) file, cut after its k-th sentence; ``tabs``
    turns runs of spaces between the fields of token lines into TABs (CoNLL-UA as its
    specification writes it)."""
    lines = _lines(path)
    newdocs = [i for i, line in enumerate(lines) if line.startswith("# newdoc")]
    if len(newdocs) > 1:
        lines = lines[:newdocs[1]]
    if tabs:
        lines = [line if line.startswith("#") or not line.strip()
                 else re.sub(" +", "\t", line.rstrip()) + "\n" for line in lines]
    ends = _sentence_ends(lines)

    def cut(k: int) -> str:
        return "".join(lines[:ends[k - 1] + 1] if k <= len(ends) else lines)
    return cut


def _sound(files: dict[str, bytes], main_file: str, fmt: str, *, spotless: bool) -> bool:
    """The files are read strictly, and (``spotless``) validate without any error."""
    from corefkit.converters.registry import read
    from corefkit.errors import CorefkitError
    from corefkit.validation import validate

    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp), files)
        try:
            for _ in read(Path(tmp) / main_file, format=fmt):
                pass
        except CorefkitError:
            return False
        return not spotless or validate(Path(tmp) / main_file, format=fmt).errors == 0


def _prefix(name: str, fmt: str, file: str, cut: Callable[[int], str], k: int) -> Sample:
    """The longest cut of at most k sentences without any error, else the longest that is
    read strictly (the validator may learn conventions that a real file breaks)."""
    for spotless in (True, False):
        for size in range(k, 0, -1):
            data = cut(size).encode("utf-8")
            if _sound({file: data}, file, fmt, spotless=spotless):
                return Sample(name, fmt, ((file, data),), file)
    raise AssertionError(f"no prefix of {name} is read strictly")


def _whole(name: str, fmt: str, path: Path, file: str) -> Sample:
    data = path.read_bytes()
    assert _sound({file: data}, file, fmt, spotless=False), name
    return Sample(name, fmt, ((file, data),), file)


def _project(name: str, root: Path, parts: Iterable[str], main_file: str,
             words: int | None = None) -> Sample:
    """An MMAX2 project (the files under ``parts`` of ``root``), with only its first
    ``words`` words and the markables within them when ``words`` is given."""
    files: dict[str, bytes] = {}
    for part in parts:
        for path in sorted((root / part).rglob("*")):
            if path.is_file() and path.suffix in (".xml", ".mmax", ".dtd"):
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    if words is not None:
        def within(line: str) -> bool:
            numbers = [int(n) for n in re.findall(r"word_(\d+)", line)]
            return all(n <= words for n in numbers)
        for file in list(files):
            if file.endswith("_words.xml") or "/Markables/" in file and file.endswith(".xml"):
                lines = files[file].decode("utf-8").splitlines(keepends=True)
                files[file] = "".join(line for line in lines if within(line)).encode("utf-8")
    assert _sound(files, main_file, "mmax2", spotless=False), name
    return Sample(name, "mmax2", tuple(sorted(files.items())), main_file)


@functools.cache
def samples() -> dict[str, Sample]:
    """The samples by name (built once; each is checked to read strictly)."""
    gum, ua = CORPORA / "gum", CORPORA / "codi-crac22"
    acl = CORPORA / "mmax2/acl-anthology"
    found = [
        _prefix("litbank", "conll2012", "persuasion.conll",
                _cut_conll(CORPORA / "litbank/105_persuasion_brat.conll"), 6),
        _prefix("ontogum", "conll2012", "anemia.conll",
                _cut_conll(gum / "coref-ontogum-conll/GENTLE_medical_anemia.conll"), 8),
        _prefix("gum-poetry", "corefud", "poetry.conllu",
                _cut_conllu(gum / "dep/GENTLE_poetry_death.conllu"), 8),
        _prefix("gum-asylum", "corefud", "asylum.conllu",
                _cut_conllu(gum / "dep/GUM_news_asylum.conllu"), 9),
        _prefix("ami", "ua-exploded", "ami.CONLLUA",
                _cut_conllu(ua / "AMI_dev_v2.2022.ES2004a.CONLLUA"), 14),
        _prefix("light-tabs", "ua-exploded", "light.conllua",
                _cut_conllu(ua / "light_train.2022.first10docs.CONLLUA", tabs=True), 8),
        _whole("lcc-116353", "lcc", CORPORA / "lcc/116353.nkas.json", "116353.nkas.json"),
        _whole("lcc-116364", "lcc", CORPORA / "lcc/116364.nkas.json", "116364.nkas.json"),
        _project("htc", CORPORA / "mmax2/htc", [""], "002_htc_abn.mmax"),
        _project("acl", acl, ["common_files", "P/P08-1085"], "P/P08-1085/P08-1085.mmax",
                 words=160),
    ]
    return {s.name: s for s in found}


def sample_names(fmt: str) -> list[str]:
    return {"conll2012": ["litbank", "ontogum"], "corefud": ["gum-poetry", "gum-asylum"],
            "ua-exploded": ["ami", "light-tabs"], "lcc": ["lcc-116353", "lcc-116364"],
            "mmax2": ["htc", "acl"]}[fmt]


def _write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


# ============================================================================ mutations
# An operation is (name, file, n1, n2, piece): ``file`` picks the file of a project, the
# numbers pick lines, fields, matches and actions (modulo what there is), ``piece`` is the
# text that goes in. Plain tuples, so that a shrunk failure can be pasted into @example.
Op = tuple[str, int, int, int, str]

INVALID_UTF8 = [b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\x80",
                b"\xf4\x90\x80\x80"]
UNICODE = ["\u00b2", "\u0663", "\u00a0", "\u2028", "\u0085", "\ufeff", "\x00", "\x0b"]
GARBAGE = ["", "_", "-", "x", "a b", "0", "-1", "1.1", "1-2", "99999", "(", ")", "|", "=",
           *UNICODE]
PIECES = {
    "conll2012": ["(", ")", "|", "(1", "1)", "(1)", "(99", "99)", "(0)(0)", "(1|1)", "((1",
                  "2+3", "(2+3)", "(1-x", "x)", *GARBAGE],
    "corefud": ["(", ")", "Entity=", "SplitAnte=", "Bridge=", "e1", "99", "<", ":", ",", "-",
                "[1/2]", "[2/2]", "(e1", "e1)", "(1-person", "1)", "(999)", "1<999", "0<0",
                "1<1", "Entity=(1)", "Bridge=9<1:part", "SplitAnte=1<1", "|Entity=)",
                "1-2", "5.1", "0.1", *GARBAGE],
    "ua-exploded": ["(", ")", "|", "EntityID=", "MarkableID=markable_1", "MarkableID=",
                    "Min=", "Min=9999", "Min=1,0", "ElementOf=", "ElementOf=99", "ElementOf=1",
                    "-Pseudo", "EntityID=1", "markable_99", "(EntityID=1|MarkableID=m9",
                    "markable_1)", "Rel=", "MentionAnchor=markable_9", "@", ",", "0", "1.1",
                    *GARBAGE],
    "lcc": ["null", "true", "-1", "0", "1", "10000000", "1.5", '"x"', '""', "[]", "{}", "[0]",
            "[0, 1]", "[-5, 3]", "[10000000, 2]", "[[0, 1]]", '{"x": 1}', "NaN", "Infinity",
            "1e400", "[1.5, 2]", '"0"', "[0, 0]", "[3, -2]", "[[1, 2], [1, 2]]"],
    "mmax2": ["<", ">", "/>", "</markable>", '"', "=", "..", ",", "word_0", "word_99999",
              "word_x", "markable_9999", "markable_1", "set_1", "empty", "&", "&amp;", "",
              "word_5..word_2", 'id="markable_1"', "<!DOCTYPE x SYSTEM 'x.dtd'>", "..word_3",
              "word_1..word_3,word_2", "word_1,,word_2", "word_1..word_2..word_3", "word_01",
              "Word_1", "word_1;word_2", "markable_1;markable_9999", "markable_1;markable_2",
              "word_\u0663", "set_9999", "\ufeff", "\x00"],
}
# the operations of each kind of file, repeated to weight them
OPS = {
    "lines": ["del-line", "dup-line", "swap-lines", "del-struct", "truncate", "del-field",
              "add-field", "set-field", "set-field", "annot", "annot", "annot", "annot",
              "annot", "bytes", "bom", "crlf", "split-line", "join-lines", "tabs",
              "del-block", "dup-block", "swap-blocks", "concat"],
    "json": ["json", "json", "json", "json", "json-cut", "truncate", "bytes", "bom", "crlf",
             "del-line", "dup-line"],
    "xml": ["del-file", "del-line", "del-line", "dup-line", "swap-lines", "del-struct",
            "annot", "annot", "value", "value", "value", "value", "value", "value", "truncate",
            "bytes", "bom", "crlf"],
}
KIND = {"conll2012": "lines", "corefud": "lines", "ua-exploded": "lines", "lcc": "json",
        "mmax2": "xml"}
STRUCTURE = {
    "conll2012": rb"^#\s*(begin|end) document|^\s*$",
    "corefud": rb"^# (newdoc|global\.Entity|sent_id|text)|^\s*$",
    "ua-exploded": rb"^# (newdoc|global\.columns|sent_id|setting)|^\s*$",
    "lcc": rb'"(content|annotationLayers|type|id)"',
    "mmax2": rb"<\?xml|<!DOCTYPE|<markables|</markables>|<words>|</words>|<annotations>|"
             rb"<level|<basedata_path|<markable_path|<scheme_path",
}
SYNTAX = {
    "conll2012": rb"\(|\)|\d+|\|",
    "corefud": rb"Entity=|SplitAnte=|Bridge=|\(|\)|[a-z]*\d+|<|:|,|-|\||=|\[\d/\d\]",
    "ua-exploded": rb"EntityID=|MarkableID=|ElementOf=|Min=|MentionAnchor=|EntityAnchor=|"
                   rb"Rel=|\(|\)|markable_\d+|\d+|-Pseudo|\||=|,",
    "mmax2": rb'word_\d+|markable_\d+|set_\d+|/>|</\w+>|\.\.|,|\bid="|span="|'
             rb'coref_class="|"|<\w+',
}
# an attribute value of an MMAX2 file (op "value" replaces it, keeping the XML well formed)
XML_VALUE = rb'\b[\w:]+="([^"<&]*)"'
XML_VALUE_RE = re.compile(XML_VALUE)


def _after_declaration(line: bytes) -> int:
    """Where a line's content starts after an XML declaration (``<?xml ...?>``) it opens with."""
    if not line.startswith(b"<?xml"):
        return 0
    end = line.find(b"?>")
    return len(line) if end < 0 else end + 2


def ops(fmt: str) -> st.SearchStrategy[list[Op]]:
    """One to three operations on a sample of format ``fmt``."""
    one = st.tuples(st.sampled_from(OPS[KIND[fmt]]), st.integers(0, 7), st.integers(0, 10**6),
                    st.integers(0, 10**6), st.sampled_from(PIECES[fmt]))
    return st.lists(one, min_size=1, max_size=3)


def _split_line(line: bytes) -> tuple[bytes, bytes]:
    body = line.rstrip(b"\r\n")
    return body, line[len(body):]


def _token_lines(lines: list[bytes]) -> list[int]:
    return [i for i, line in enumerate(lines)
            if line.strip() and not line.startswith(b"#")]


def _fields(body: bytes) -> list[bytes]:
    """Fields and separators, alternating: TAB-separated, else runs of spaces."""
    if b"\t" in body:
        parts = body.split(b"\t")
        out: list[bytes] = []
        for part in parts:
            out += [part, b"\t"]
        return out[:-1]
    return re.split(rb"( +)", body)


def _region(fmt: str, fields: list[bytes]) -> list[int]:
    """The positions (in ``_fields``) of the fields that hold the annotation."""
    values = list(range(0, len(fields), 2))
    if fmt == "conll2012":
        return values[-1:]
    if fmt == "corefud":
        return [v for n, v in enumerate(values) if n in (0, 9)]
    if fmt == "ua-exploded":
        return [v for n, v in enumerate(values) if n >= 10 or n == 0]
    return values


def apply(files: dict[str, bytes], sample: Sample, op: Op) -> None:
    """Apply one operation to ``files`` in place."""
    name, file_n, n1, n2, piece = op
    fmt = sample.format
    targets = [f for f in sample.mutable if f in files] or list(files)
    if name == "del-file":
        choices = [f for f in targets if f != sample.main]
        if choices:
            del files[choices[file_n % len(choices)]]
        return
    file = targets[file_n % len(targets)]
    data = files[file]
    text = piece.encode("utf-8")
    lines = data.splitlines(keepends=True)
    if name == "truncate":
        data = data[:n1 % (len(data) + 1)]
    elif name == "bytes":
        at = n1 % (len(data) + 1)
        data = data[:at] + INVALID_UTF8[n2 % len(INVALID_UTF8)] + data[at:]
    elif name == "bom":
        data = b"\xef\xbb\xbf" + data
    elif name == "crlf":
        if n2 % 3 == 0:
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
        elif n2 % 3 == 1 and lines:
            i = n1 % len(lines)
            body, end = _split_line(lines[i])
            lines[i] = body + b"\r\n" if end else body
            data = b"".join(lines)
        else:
            data = data.replace(b"\r\n", b"\n").replace(b"\n", b"\r")
    elif name in ("del-line", "dup-line", "swap-lines", "del-struct"):
        if not lines:
            return
        if name == "del-struct":
            marked = [i for i, line in enumerate(lines) if re.search(STRUCTURE[fmt], line)]
            if not marked:
                return
            del lines[marked[n1 % len(marked)]]
        else:
            i = n1 % len(lines)
            if name == "del-line":
                del lines[i]
            elif name == "dup-line":
                lines.insert(i, lines[i])
            else:
                j = (i + 1 + n2 % 5) % len(lines) if n2 % 2 else n2 % len(lines)
                lines[i], lines[j] = lines[j], lines[i]
        data = b"".join(lines)
    elif name == "concat":  # two files joined (cat a b > c), the second maybe cut
        data = data + data[:len(data) - n1 % (len(data) // 2 + 1)]
    elif name in ("split-line", "join-lines"):
        if not lines:
            return
        i = n1 % len(lines)
        body, end = _split_line(lines[i])
        if name == "split-line":  # a line wrapped by an editor
            at = n2 % (len(body) + 1)
            lines[i] = body[:at] + b"\n" + body[at:] + end
        else:  # a line end lost
            lines[i] = body
        data = b"".join(lines)
    elif name == "tabs":  # TABs turned into spaces (or spaces into TABs), in a line or all
        i = n1 % max(len(lines), 1)
        old, new = (b"\t", b" ") if n2 % 2 == 0 else (b" ", b"\t")
        if n2 % 4 < 2:
            data = data.replace(old, new)
        elif lines:
            lines[i] = lines[i].replace(old, new)
            data = b"".join(lines)
    elif name in ("del-block", "dup-block", "swap-blocks"):
        # whole sentences (the lines up to and with a blank line)
        blocks: list[list[bytes]] = [[]]
        for line in lines:
            blocks[-1].append(line)
            if not line.strip():
                blocks.append([])
        if len(blocks) < 2:
            return
        i = n1 % len(blocks)
        if name == "del-block":
            del blocks[i]
        elif name == "dup-block":
            blocks.insert(i, list(blocks[i]))
        else:
            j = n2 % len(blocks)
            blocks[i], blocks[j] = blocks[j], blocks[i]
        data = b"".join(line for block in blocks for line in block)
    elif name in ("del-field", "add-field", "set-field"):
        rows = _token_lines(lines)
        if not rows:
            return
        i = rows[n1 % len(rows)]
        body, end = _split_line(lines[i])
        fields = _fields(body)
        k = 2 * (n2 % ((len(fields) + 1) // 2))
        sep = b"\t" if b"\t" in body else b"  "
        if name == "del-field":
            fields[k:k + 2] = []
        elif name == "add-field":
            fields[k:k] = [text, sep]
        else:
            fields[k] = text
        lines[i] = b"".join(fields) + end
        data = b"".join(lines)
    elif name == "annot":
        places = []  # (line, start, end) of every syntax match in the annotation
        for i in _token_lines(lines) if fmt != "mmax2" else range(len(lines)):
            body, _ = _split_line(lines[i])
            fields = _fields(body) if fmt != "mmax2" else [body]
            offset = 0
            starts = []
            for part in fields:
                starts.append(offset)
                offset += len(part)
            for k in (_region(fmt, fields) if fmt != "mmax2" else [0]):
                for match in re.finditer(SYNTAX[fmt], fields[k]):
                    places.append((i, starts[k] + match.start(), starts[k] + match.end()))
        if not places:
            return
        i, a, b = places[n1 % len(places)]
        line = lines[i]
        action = n2 % 4
        if action == 0:
            line = line[:a] + line[b:]
        elif action == 1:
            line = line[:a] + text + line[b:]
        elif action == 2:
            line = line[:b] + line[a:b] + line[b:]
        else:
            line = line[:a] + text + line[a:]
        lines[i] = line
        data = b"".join(lines)
    elif name == "value":
        # every attribute value but the XML declaration's (a file may be one line after it)
        places = [(i, m.start(1), m.end(1)) for i, line in enumerate(lines)
                  for m in XML_VALUE_RE.finditer(line, _after_declaration(line))]
        if not places:
            return
        i, a, b = places[n1 % len(places)]
        value = re.sub(rb'[<&"]', b"", text)
        lines[i] = lines[i][:a] + value + lines[i][b:]
        data = b"".join(lines)
    elif name in ("json", "json-cut"):
        data = _mutate_json(data, name, n1, n2, piece)
    else:  # pragma: no cover
        raise AssertionError(name)
    files[file] = data


class _Embedded:
    """A layer's ``content``: JSON text inside the JSON document, parsed for mutation."""

    def __init__(self, value: object) -> None:
        self.value = value


def _mutate_json(data: bytes, name: str, n1: int, n2: int, piece: str) -> bytes:
    try:
        doc = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return data  # broken already: nothing to walk
    layers = doc.get("annotationLayers") if isinstance(doc, dict) else None
    embedded = []
    for layer in layers if isinstance(layers, list) else []:
        if isinstance(layer, dict) and isinstance(layer.get("content"), str):
            try:
                layer["content"] = _Embedded(json.loads(layer["content"]))
                embedded.append(layer)
            except ValueError:
                pass
    if name == "json-cut":
        if not embedded:
            return data
        layer = embedded[n1 % len(embedded)]
        text = json.dumps(layer["content"].value, ensure_ascii=False)
        layer["content"] = _Embedded(text[:n2 % (len(text) + 1)])
        layer["content"].raw = True  # type: ignore[attr-defined]
    else:
        paths = list(_json_paths(doc, ()))
        if not paths:
            return data
        path = paths[n1 % len(paths)]
        parent = _json_get(doc, path[:-1])
        key = path[-1]
        value = json.loads(piece)
        action = n2 % 4
        if action == 1 and isinstance(parent, (dict, list)):
            del parent[key]
        elif action == 2 and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif action == 3 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] = -parent[key] - 1 if n2 % 8 == 3 else parent[key] + 10**6
        else:
            parent[key] = value
    return json.dumps(doc, ensure_ascii=False, indent=4, default=_dump_embedded).encode("utf-8")


def _dump_embedded(value: object) -> str:
    assert isinstance(value, _Embedded)
    if getattr(value, "raw", False):
        return value.value  # type: ignore[return-value]
    return json.dumps(value.value, ensure_ascii=False)


def _json_paths(node: object, path: tuple) -> Iterable[tuple]:
    """Every path worth mutating: every layer, all of the coreference layers, the first and
    last items of the other long lists (tokens, morphology)."""
    if isinstance(node, _Embedded):
        yield from _json_paths(node.value, path + ("<json>",))
    elif isinstance(node, dict):
        for key, value in node.items():
            yield path + (key,)
            yield from _json_paths(value, path + (key,))
    elif isinstance(node, list):
        deep = "coreferences" in path or any(isinstance(item, dict) for item in node)
        picked = range(len(node)) if deep or len(node) <= 4 else [0, 1, 2, len(node) - 1]
        for i in picked:
            yield path + (i,)
            yield from _json_paths(node[i], path + (i,))


def _json_get(node: object, path: tuple) -> object:
    for step in path:
        node = node.value if step == "<json>" else node[step]  # type: ignore[index,union-attr]
    return node


def mutated(sample: Sample, operations: Iterable[Op]) -> dict[str, bytes]:
    files = dict(sample.files)
    for op in operations:
        apply(files, sample, op)
    return files


# ============================================================================ properties
@dataclass
class Outcome:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        """The lines of stderr as a terminal shows them (LF, CRLF or CR end a line)."""
        return [line for line in re.split(r"\r\n|\r|\n", self.err) if line]

    @property
    def errors(self) -> list[str]:
        return [line for line in self.lines if line.startswith("corefkit: error:")]

    @property
    def check(self) -> str | None:
        """The check id at the end of the error line, if any."""
        found = re.search(r"\(([a-z0-9]+\.[a-z0-9.-]+)\)$", self.errors[0]) if self.errors \
            else None
        return found.group(1) if found else None


def cli(*args: object) -> Outcome:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([str(a) for a in args])
    return Outcome(code, out.getvalue(), err.getvalue())


def refused(finding: dict) -> bool:
    """A finding that strict reading refuses (see the module docstring): every error."""
    if finding["severity"] != "error":
        return False
    if finding["message"].endswith(STOPPED):
        return True
    check = get_check(finding["check"])
    return check is None or check.refused


def rejection(finding: dict) -> bool:
    return finding["severity"] == "error" and (
        finding["message"].endswith(STOPPED) or finding["check"].startswith("file."))


def sane(outcome: Outcome, command: str, path: Path, root: Path, fmt: str) -> None:
    """Properties 1 and 2."""
    what = f"{command}: exit {outcome.code}\n{outcome.err[-3000:]}"
    assert outcome.code in (0, 1, 2), what
    assert "Traceback" not in outcome.err and "internal error" not in outcome.err, what
    if outcome.code == 0:
        assert not outcome.errors, what
        return
    if command == "validate" and outcome.code == 1:
        return  # validate exits 1 for findings, printed on stdout
    assert len(outcome.errors) == 1, what
    # the error line is the whole of it: no line of a message continued on the next
    assert all(line.startswith("corefkit:") for line in outcome.lines), what
    line = outcome.errors[0]
    if fmt == "mmax2":
        assert f"corefkit: error: {root}" in line, what
    else:
        assert line.startswith(f"corefkit: error: {path}:"), what
        if fmt in LINE_BASED and outcome.code == 1:
            assert re.match(rf"corefkit: error: {re.escape(str(path))}:\d+:", line), what


def check_files(files: dict[str, bytes], sample: Sample,
                ignored: frozenset[str] = frozenset()) -> None:
    """Write the files to a fresh folder and check every property (findings of the
    ``ignored`` checks left out)."""
    root = Path(tempfile.mkdtemp(prefix="corefkit-fuzz-"))
    try:
        _check(root, files, sample, ignored)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _target(root: Path, sample: Sample, name: str) -> list[str]:
    if sample.format == "mmax2":
        return [str(root / f"{name}-project"), "--to", "mmax2"]
    suffix = "".join(Path(sample.main).suffixes)
    return [str(root / f"{name}{suffix}")]


def _check(root: Path, files: dict[str, bytes], sample: Sample,
           ignored: frozenset[str]) -> None:
    data = root / "data"
    _write(data, files)
    path = data / sample.main
    fmt = sample.format

    strict = cli("convert", path, *_target(root, sample, "strict"))
    sane(strict, "convert", path, data, fmt)
    if OUTCOMES is not None:
        OUTCOMES[fmt, "read" if strict.code == 0 else strict.check or strict.errors[0][:60]] += 1

    validated = cli("validate", path, "--format", "json")
    sane(validated, "validate", path, data, fmt)
    findings = [json.loads(line) for line in validated.out.split("\n") if line.strip()]
    refusals = [f for f in findings if refused(f) and f["check"] not in ignored]
    shown = "\n".join(f"{f['check']} {f['severity']}: {f['message']}" for f in findings)[:3000]
    if strict.code == 0:
        assert not refusals, "convert read the file, but validate found:\n" + "\n".join(
            f"{f['check']} (level {f['level']}): {f['message']}" for f in refusals)
    else:
        assert refusals, f"convert refused the file:\n{strict.err}\nvalidate found:\n{shown}"
        assert strict.check is None or strict.check in {f["check"] for f in refusals}, (
            f"convert refused it for {strict.check}, validate found:\n{shown}")
    if strict.code == 0 and READ_BACK:
        output = _target(root, sample, "strict")[0]
        again = cli("validate", output, "--format", "json")
        sane(again, "validate", Path(output), root, fmt)
        written = [json.loads(line) for line in again.out.split("\n") if line.strip()]
        bad = [f"{f['check']}: {f['message']}" for f in written
               if refused(f) and f["check"] not in ignored]
        assert not bad, "convert wrote a file that strict reading refuses:\n" + "\n".join(bad)

    for command in (("score", path, path), ("stats", path)):
        ran = cli(*command)
        sane(ran, command[0], path, data, fmt)
        if command[0] == "score" and strict.code == 0 and ran.check == "pair.empty-key":
            # a file read without a mention (the mutation took its coreference away): scoring
            # refuses the empty key rather than print 0/0 — only when there is no mention
            assert not any(doc.mentions for doc in read(path)), ran.err
            continue
        assert ran.code == strict.code, (f"convert exit {strict.code}: {strict.err}\n"
                                         f"{command[0]} exit {ran.code}: {ran.err}")
        assert ran.check == strict.check, (strict.err, ran.err)

    if strict.code == 1:
        # --forms replace: what is read leniently may hold forms the target's writer refuses
        # (a FORM with white space at one end); that is the writer's refusal, not the reader's
        lenient = cli("convert", path, *_target(root, sample, "lenient"), "--lenient",
                      "--forms", "replace")
        sane(lenient, "convert --lenient", path, data, fmt)
        rejected = [f for f in refusals if rejection(f)]
        if not rejected:
            assert lenient.code == 0, (
                f"strict refused only repairs ({strict.err}); --lenient: {lenient.err}")
        elif all(f["check"] == "file.no-documents" for f in rejected):
            assert lenient.code == 0, lenient.err
        else:
            assert lenient.code == 1 and lenient.check in {f["check"] for f in rejected} | {
                None}, (lenient.err, shown)


def check(sample_name: str, operations: list[Op],
          ignored: frozenset[str] = frozenset()) -> None:
    """Every property for a sample after the operations (what the fuzz tests call)."""
    sample = samples()[sample_name]
    check_files(mutated(sample, operations), sample, ignored)


# ============================================================================ the tests
def fuzz(examples: int) -> settings:
    return settings(max_examples=max(1, int(examples * SCALE)), deadline=None,
                    derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def test_samples_are_sound():
    """Every sample is read strictly, and passes every property unmutated."""
    for name in samples():
        check(name, [])


def test_the_refusal_rule_of_the_docstring():
    """Every error is refused, whatever its level; no warning is (the rule is stated in the
    module docstring; this keeps it true)."""
    from corefkit.validation.catalog import all_checks

    assert all(c.refused == (c.severity == "error") for c in all_checks())


@fuzz(400)
@given(sample=st.sampled_from(sample_names("conll2012")), operations=ops("conll2012"))
def test_conll2012(sample, operations):
    check(sample, operations)


@fuzz(400)
@given(sample=st.sampled_from(sample_names("corefud")), operations=ops("corefud"))
def test_corefud(sample, operations):
    check(sample, operations)


@fuzz(400)
@given(sample=st.sampled_from(sample_names("ua-exploded")), operations=ops("ua-exploded"))
def test_ua_exploded(sample, operations):
    check(sample, operations)


# The failures hypothesis found, shrunk, kept as explicit examples (each was a bug, fixed):
@fuzz(350)
@given(sample=st.sampled_from(sample_names("lcc")), operations=ops("lcc"))
# a layer 'version' that is a list: TypeError (unhashable) instead of lcc.bad-layer
@example(sample="lcc-116364", operations=[("json", 0, 25, 0, "[-5, 3]")])
# the lex layer's 's' (sentences) not a list: TypeError instead of lcc.bad-lex
@example(sample="lcc-116353", operations=[("json", 0, 42, 0, "Infinity")])
# a layer that is not JSON, then a lex layer without 'seg': strict reading refused the first
# (lcc.layer-invalid-json), validate reported only the second, losing the repair
@example(sample="lcc-116353", operations=[("json", 0, 29, 0, "null"),
                                          ("json-cut", 0, 0, 0, "null")])
def test_lcc(sample, operations):
    check(sample, operations)


@fuzz(250)
@given(sample=st.sampled_from(sample_names("mmax2")), operations=ops("mmax2"))
# no <mmax_project> line: strict reading refused malformed XML, validate (which recovers the
# XML) reported only "not a project", losing the mmax2.xml-syntax repair
@example(sample="htc", operations=[("del-line", 0, 1, 0, "<")])
# a span over an unknown word: refused by strict reading, but mmax2.bad-span (level 2) was
# not a refused check, so validate found no refused error
@example(sample="htc", operations=[("value", 2, 2, 0, "word_99999")])
# a NUL in the project file: libxml2's message ends in a line break, the error took two lines
@example(sample="acl", operations=[("annot", 3, 5, 3, "\x00")])
# a level named U+FEFF: the writer's xmlns "www.eml.org/NameSpaces/\ufeff" is no valid URI,
# so convert wrote a project that strict reading refuses
@example(sample="htc", operations=[("value", 6, 3, 0, "\ufeff")])
def test_mmax2(sample, operations):
    check(sample, operations)


# ============================================================================ the bugs, plainly
# The same failures as the examples above, made by hand (independent of the mutation code).
def _lcc_edit(edit: Callable[[dict, dict[str, dict]], None]) -> dict[str, bytes]:
    """lcc-116353 with ``edit(document, {layer type: layer})`` applied."""
    sample = samples()["lcc-116353"]
    doc = json.loads(dict(sample.files)[sample.main])
    edit(doc, {layer["type"]: layer for layer in doc["annotationLayers"]})
    return {sample.main: json.dumps(doc, ensure_ascii=False, indent=4).encode("utf-8")}


def _lex(layers: dict[str, dict], key: str, value: object) -> None:
    content = json.loads(layers["lex"]["content"])
    content[key] = value
    layers["lex"]["content"] = json.dumps(content)


LCC_CASES = [
    # (what, edit, the check strict convert refuses it for, checks validate must report)
    ("version-list", lambda d, ls: ls["lex"].update(version=[1]), "lcc.bad-layer",
     {"lcc.bad-layer"}),
    ("sentences-number", lambda d, ls: _lex(ls, "s", 1.5), "lcc.bad-lex", {"lcc.bad-lex"}),
    ("paragraphs-number", lambda d, ls: _lex(ls, "p", 7), "lcc.bad-lex", {"lcc.bad-lex"}),
    ("repair-then-rejection",
     lambda d, ls: (ls["ner"].update(content="{not json"), _lex(ls, "seg", None)),
     "lcc.layer-invalid-json", {"lcc.layer-invalid-json", "lcc.bad-lex"}),
]


@pytest.mark.parametrize("case", LCC_CASES, ids=[c[0] for c in LCC_CASES])
def test_lcc_regressions(case):
    _, edit, refused_for, reported = case
    files = _lcc_edit(edit)
    check_files(files, samples()["lcc-116353"])
    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp), files)
        path = Path(tmp) / "116353.nkas.json"
        assert cli("convert", path, Path(tmp) / "out.nkas.json").check == refused_for
        found = {json.loads(line)["check"] for line in
                 cli("validate", path, "--format", "json").out.split("\n") if line.strip()}
        assert reported <= found


def _htc_edit(file: str, old: str, new: str) -> dict[str, bytes]:
    files = dict(samples()["htc"].files)
    text = files[file].decode("utf-8")
    assert old in text
    files[file] = text.replace(old, new, 1).encode("utf-8")
    return files


MMAX2_CASES = [
    # (what, file, old, new, the check strict convert refuses it for or None)
    ("no-project-element", "002_htc_abn.mmax", "<mmax_project>", "", "mmax2.xml-syntax"),
    ("span-over-unknown-word", "Markables/002_htc_abn_coref_level.xml", 'span="word_75"',
     'span="word_99999"', "mmax2.bad-span"),
    ("nul-in-project-file", "002_htc_abn.mmax", "<words>", "\x00<words>", "mmax2.xml-syntax"),
    ("level-name-not-a-uri", "common_paths.xml", 'name="sentences"', 'name="\ufeff"', None),
    ("level-name-with-space", "common_paths.xml", 'name="sentences"', 'name="my level"', None),
]


@pytest.mark.parametrize("case", MMAX2_CASES, ids=[c[0] for c in MMAX2_CASES])
def test_mmax2_regressions(case):
    _, file, old, new, refused_for = case
    files = _htc_edit(file, old, new)
    check_files(files, samples()["htc"])
    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp), files)
        converted = cli("convert", Path(tmp) / "002_htc_abn.mmax", Path(tmp) / "out",
                        "--to", "mmax2")
        assert converted.check == refused_for and len(converted.lines) >= 1


# ============================================================================ CorefUD
# Found by the fuzz test: the CorefUD validator's UD format checks are errors, but the reader
# does not see them, so strict reading accepted what validate refused. Every command now runs
# the validator's checks on what it reads: each is refused, with its id.
def _edit_field(sample_name: str, line: str, column: int, value: str) -> dict[str, bytes]:
    """The sample with field ``column`` of its first token line matching ``line`` set."""
    sample = samples()[sample_name]
    lines = dict(sample.files)[sample.main].decode("utf-8").split("\n")
    at = next(i for i, text in enumerate(lines) if re.match(line, text))
    fields = lines[at].split("\t")
    fields[column] = value
    lines[at] = "\t".join(fields)
    return {sample.main: "\n".join(lines).encode("utf-8")}


FORM, FEATS, MISC = 1, 5, 9
COREFUD_CASES = [
    # (check, sample, first line matching, column, value)
    ("corefud.invalid-whitespace", "gum-poetry", r"1\t", FEATS, "Number=Sing\u00a0"),
    ("corefud.leading-whitespace", "gum-poetry", r"1\t", FORM, " Because"),
    ("corefud.trailing-whitespace", "gum-poetry", r"1\t", FORM, "Because\u2028"),
    ("corefud.repeated-whitespace", "gum-poetry", r"2\t", MISC, "Gloss=a  b"),
    ("corefud.empty-column", "gum-poetry", r"2\t", MISC, ""),
    ("corefud.unicode-normalization", "gum-poetry", r"1\t", FORM, "Be\u0301cause"),
    ("corefud.invalid-utf", "gum-poetry", r"1\t", FORM, "Bec\ufffduse"),
    ("corefud.invalid-whitespace-mwt", "gum-asylum", r"\d+-\d+\t", FORM, "world 's"),
]


@pytest.mark.parametrize("case", COREFUD_CASES, ids=[c[0] for c in COREFUD_CASES])
def test_corefud_ud_format_checks_agree_with_strict_reading(case):
    check_id, sample_name, line, column, value = case
    files = _edit_field(sample_name, line, column, value)
    check_files(files, samples()[sample_name])
    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp), files)
        path = Path(tmp) / samples()[sample_name].main
        assert cli("stats", path).check == check_id


def test_the_corefud_cases_are_what_validate_reports():
    """Each case above gives its own check (so that each test is about its check)."""
    from corefkit.validation import validate

    for check_id, sample_name, line, column, value in COREFUD_CASES:
        files = _edit_field(sample_name, line, column, value)
        with tempfile.TemporaryDirectory() as tmp:
            _write(Path(tmp), files)
            found = {f.check for f in validate(Path(tmp) / samples()[sample_name].main)
                     if f.is_error}
        assert check_id in found, (check_id, found)
