#!/usr/bin/env python3
"""Adversarial scaling: no input of size n costs any command more than O(n log n) time or O(n)
memory (issue 22: one 300 KB CoNLL file with 40,000 mentions on one token took 18 s and 2.5 GB).

Each *shape* builds a key and a response of size n (about n mentions and n tokens) in
CoNLL-2012, CorefUD, WebAnno TSV and the LLM track's text2text (the last two written by
corefkit's writers): n mentions on one token (one entity, or n entities), n mentions nested
in each other, n crossing mentions, one entity of n mentions, two interleaved chains, n
singletons, sentences of 500 tokens, one sentence of n tokens (with a flat tree, and with a tree
n deep), n documents of one token. Each
*command* (score, validate, stats, convert to two formats, normalize with merge-same-span,
analyze, report, compare) runs on the shape at n and at 4n, and the growth is checked: CPU time
and peak memory above the cost of a tiny input of the same shape must grow at most about
n log n (time: ratio <= 4 * log(4n)/log(n) * slack) and n (memory: ratio <= 4 * slack); a
quadratic path gives 16.

    python benchmarks/scaling_edges.py                      # every shape and command, n=4000
    python benchmarks/scaling_edges.py --n 10000 --shape one-token-many --command score

Each run is a fresh process (CPU time of the process, peak resident memory from
``/proc/self/status`` VmHWM); the exit code is 1 when a ratio is exceeded. The test suite runs a
bounded version in process (``tests/test_scaling_edges.py``: tracemalloc peaks and CPU time,
small n, generous bounds).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# ---------------------------------------------------------------------------- shapes
# A document: its name, its sentence lengths, its mentions (entity, first token, last token;
# token indices over the whole document).
Mention = tuple[int, int, int]


@dataclass(frozen=True)
class Doc:
    name: str
    sentences: tuple[int, ...]
    mentions: tuple[Mention, ...]
    chain: bool = False  # CorefUD: each word depends on the one before (a tree n deep)


Shape = Callable[[int, int], list[Doc]]  # (n, variant: 0 key, 1 response) -> documents


def _sentences(tokens: int, length: int) -> tuple[int, ...]:
    full, rest = divmod(tokens, length)
    return (length,) * full + ((rest,) if rest else ())


def one_token_same(n: int, variant: int) -> list[Doc]:
    """n mentions of one entity on one token (n - 1 duplicates)."""
    return [Doc("d", (2,), tuple((0, 0, 0) for _ in range(n)))]


def one_token_many(n: int, variant: int) -> list[Doc]:
    """n mentions of n entities on one token (the response pairs them up)."""
    return [Doc("d", (2,), tuple((i if variant == 0 else i // 2, 0, 0) for i in range(n)))]


def nested(n: int, variant: int) -> list[Doc]:
    """n mentions nested in each other: mention i spans tokens i..n-1 of one sentence."""
    return [Doc("d", (n,), tuple((i if variant == 0 else i // 2, i, n - 1) for i in range(n)))]


def crossing(n: int, variant: int) -> list[Doc]:
    """n mentions each crossing n/2 others: mention i spans tokens i..i+n/2."""
    half = max(1, n // 2)
    return [Doc("d", (n + half,), tuple((i if variant == 0 else i // 2, i, i + half)
                                        for i in range(n)))]


def one_entity(n: int, variant: int) -> list[Doc]:
    """One entity of n one-token mentions (the response splits it in two)."""
    return [Doc("d", _sentences(n, 20), tuple((0 if variant == 0 else i % 2, i, i)
                                              for i in range(n)))]


def two_chains(n: int, variant: int) -> list[Doc]:
    """Two interleaved chains of n/2 mentions (the response: three chains)."""
    return [Doc("d", _sentences(n, 20), tuple((i % (2 + variant), i, i) for i in range(n)))]


def singletons(n: int, variant: int) -> list[Doc]:
    """n singleton entities (the response links neighbours in pairs)."""
    return [Doc("d", _sentences(n, 20), tuple((i if variant == 0 else i // 2, i, i)
                                              for i in range(n)))]


def long_sentences(n: int, variant: int) -> list[Doc]:
    """Sentences of 500 tokens, a two-token mention every other token, 100 entities."""
    return [Doc("d", _sentences(2 * n, 500),
                tuple(((i * 7 + variant) % 100, 2 * i, 2 * i + 1) for i in range(n)))]


def huge_sentence(n: int, variant: int) -> list[Doc]:
    """One sentence of n tokens, a mention on each, n/10 entities."""
    entities = max(1, n // 10)
    return [Doc("d", (n,), tuple(((i * 31 + variant) % entities, i, i) for i in range(n)))]


def deep_tree(n: int, variant: int) -> list[Doc]:
    """One sentence of n tokens whose dependency tree is a chain n deep (head finding and tree
    checks walk it), a mention on each token and a two-token one on every tenth."""
    mentions = [((i * 7 + variant) % 50, i, i) for i in range(n)]
    mentions += [(50 + i % 20, i, i + 1) for i in range(0, n - 1, 10)]
    return [Doc("d", (n,), tuple(mentions), chain=True)]


def tiny_documents(n: int, variant: int) -> list[Doc]:
    """n documents of one token and one mention."""
    return [Doc(f"d{i}", (1,), ((i, 0, 0),)) for i in range(n)]  # eids unique per file


SHAPES: dict[str, Shape] = {
    "one-token-same": one_token_same, "one-token-many": one_token_many, "nested": nested,
    "crossing": crossing, "one-entity": one_entity, "two-chains": two_chains,
    "singletons": singletons, "long-sentences": long_sentences,
    "huge-sentence": huge_sentence, "deep-tree": deep_tree, "tiny-documents": tiny_documents,
}


# ---------------------------------------------------------------------------- rendering
def _cells(doc: Doc, open_: Callable[[int], str], close: Callable[[int], str],
           single: Callable[[int], str], sep: str) -> list[str]:
    """The coreference cell of every token: closers (latest-starting first), openers
    (longest first), one-token mentions; CorefUD's cells have no separator, and a closer
    after an opener would be read as part of it."""
    tokens = sum(doc.sentences)
    opens: list[list[Mention]] = [[] for _ in range(tokens)]
    closes: list[list[Mention]] = [[] for _ in range(tokens)]
    singles: list[list[int]] = [[] for _ in range(tokens)]
    for mention in doc.mentions:
        entity, start, end = mention
        if start == end:
            singles[start].append(entity)
        else:
            opens[start].append(mention)
            closes[end].append(mention)
    cells = []
    for t in range(tokens):
        parts = [close(m[0]) for m in sorted(closes[t], key=lambda m: -m[1])]
        parts += [open_(m[0]) for m in sorted(opens[t], key=lambda m: -m[2])]
        parts += [single(e) for e in singles[t]]
        cells.append(sep.join(parts))
    return cells


def conll2012(docs: list[Doc]) -> str:
    out = []
    for doc in docs:
        cells = _cells(doc, lambda e: f"({e}", lambda e: f"{e})", lambda e: f"({e})", "|")
        out.append(f"#begin document ({doc.name}); part 000\n")
        t = 0
        for length in doc.sentences:
            for i in range(length):
                out.append(f"{doc.name}\t0\t{i}\tw{t}\t{cells[t] or '-'}\n")
                t += 1
            out.append("\n")
        out.append("#end document\n")
    return "".join(out)


def corefud(docs: list[Doc]) -> str:
    out = ["# global.Entity = eid-etype-head-other\n"]
    for doc in docs:
        cells = _cells(doc, lambda e: f"(e{e + 1}--1", lambda e: f"e{e + 1})",
                       lambda e: f"(e{e + 1}--1)", "")
        out.append(f"# newdoc id = {doc.name}\n")
        t = 0
        for s, length in enumerate(doc.sentences):
            forms = [f"w{t + i}" for i in range(length)]
            out.append(f"# sent_id = {doc.name}-{s + 1}\n# text = {' '.join(forms)}\n")
            for i in range(length):
                head, rel = ("0", "root") if i == 0 else (str(i) if doc.chain else "1", "dep")
                misc = f"Entity={cells[t]}" if cells[t] else "_"
                out.append(f"{i + 1}\t{forms[i]}\t{forms[i]}\tNOUN\t_\t_\t{head}\t{rel}\t_\t"
                           f"{misc}\n")
                t += 1
            out.append("\n")
    return "".join(out)


def text2text(docs: list[Doc]) -> str:
    """The LLM track's linear text: one document per line, ``word|tag,tag`` where the word
    opens (``[e1``), closes (``e1]``) or is (``[e1]``) a mention."""
    out = []
    for doc in docs:
        cells = _cells(doc, lambda e: f"[e{e + 1}", lambda e: f"e{e + 1}]",
                       lambda e: f"[e{e + 1}]", ",")
        out.append(" ".join(f"w{t}|{cell}" if cell else f"w{t}" for t, cell in enumerate(cells))
                   + "\n")
    return "".join(out)


FORMATS: dict[str, tuple[str, Callable[[list[Doc]], str]]] = {
    "conll2012": (".conll", conll2012), "corefud": (".conllu", corefud),
    "text2text": (".t2t.txt", text2text)}
# formats whose shapes corefkit's own writer makes from the CorefUD rendering (its cost is
# measured with them: a quadratic writer makes the inputs slow to build): the annotation
# tools' WebAnno TSV
WRITTEN: dict[str, str] = {"webanno-tsv": ".tsv"}
ALL_FORMATS = [*FORMATS, *WRITTEN]
ONE_DOCUMENT_PER_FILE = {"webanno-tsv"}  # no tiny-documents shape


def write_inputs(shape: str, n: int, fmt: str, folder: Path) -> tuple[Path, Path]:
    """The key and response files of a shape at size n in a format."""
    paths = []
    for variant, side in enumerate(("key", "response")):
        docs = SHAPES[shape](n, variant)
        if fmt in WRITTEN:
            path = folder / f"{shape}-{n}-{side}{WRITTEN[fmt]}"
            _written(docs, fmt, path)
        else:
            extension, render = FORMATS[fmt]
            path = folder / f"{shape}-{n}-{side}{extension}"
            path.write_text(render(docs), encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _written(docs: list[Doc], fmt: str, path: Path) -> None:
    """A shape written by corefkit's writer of ``fmt`` from its CorefUD rendering."""
    import corefkit

    source = path.with_name(path.name + ".source.conllu")
    source.write_text(corefud(docs), encoding="utf-8")
    corefkit.write(corefkit.read(source, "corefud", lenient=True), path, fmt)
    source.unlink()


# ---------------------------------------------------------------------------- commands
Command = Callable[[Path, Path, Path], list[str]]  # key, response, scratch folder -> argv

COMMANDS: dict[str, Command] = {
    "score": lambda k, r, o: ["score", str(k), str(r), "--lenient"],
    "validate": lambda k, r, o: ["validate", "--jobs", "1", str(k)],
    "stats": lambda k, r, o: ["stats", "--lenient", "--jobs", "1", str(k)],
    "convert-corefud": lambda k, r, o: ["convert", "--lenient", "-q", str(k),
                                        str(o / "out.conllu")],
    "convert-jsonlines": lambda k, r, o: ["convert", "--lenient", "-q", str(k),
                                          str(o / "out.jsonlines")],
    "normalize": lambda k, r, o: ["normalize", "--lenient", "-q", str(k), str(o / ("norm" + k.suffix)),
                                  "--pass", "merge-same-span"],
    "analyze": lambda k, r, o: ["analyze", "--lenient", str(k), str(r)],
    "report": lambda k, r, o: ["report", "--lenient", str(k), str(r), str(k), "--label",
                               "first-system", "--label", "second-system", "-o",
                               str(o / "report.html")],
    "compare": lambda k, r, o: ["compare", "--key", str(k), "--response", str(r),
                                "--label", "a@x", "--key", str(k), "--response", str(k),
                                "--label", "b@x", "--permutations", "20", "--bootstrap", "20",
                                "--seed", "1"],
}


# ---------------------------------------------------------------------------- measuring
CHILD = """
import json, os, resource, sys, time
sys.argv = ["corefkit"] + sys.argv[1:]
from corefkit.cli.main import main
devnull = open(os.devnull, "w")
sys.stdout = devnull
sys.stderr = devnull
start = resource.getrusage(resource.RUSAGE_SELF)
code = main(sys.argv[1:])
end = resource.getrusage(resource.RUSAGE_SELF)
with open("/proc/self/status") as status:
    peak = int(next(l.split()[1] for l in status if l.startswith("VmHWM")))
sys.__stdout__.write(json.dumps({"code": code, "cpu": end.ru_utime + end.ru_stime
                                 - start.ru_utime - start.ru_stime, "peak_kb": peak}))
"""


@dataclass(frozen=True)
class Cost:
    code: int
    cpu: float      # seconds
    peak_kb: int


def measure(argv: list[str], timeout: float = 900) -> Cost:
    """One command in a fresh process: its exit code, CPU time and peak resident memory."""
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode != 0 or not done.stdout:
        raise RuntimeError(f"{argv}: {done.stderr[-2000:]}")
    found = json.loads(done.stdout)
    return Cost(found["code"], found["cpu"], found["peak_kb"])


def measure_in_process(argv: list[str], memory: bool = True) -> Cost:
    """One command in this process: exit code, CPU time (of this process) and, with
    ``memory``, the peak of Python allocations (tracemalloc: deterministic, unlike resident
    memory; it slows the run down, so CPU time is measured without it when asked)."""
    import contextlib
    import io
    import time
    import tracemalloc

    from corefkit.cli.main import main as corefkit

    sink = io.StringIO()
    if memory:
        tracemalloc.start()
    start = time.process_time()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        code = corefkit(argv)
    cpu = time.process_time() - start
    peak = 0
    if memory:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return Cost(code, cpu, peak // 1024)


def size(shape: str, n: int) -> int:
    """What a shape of size n asks corefkit to hold: its tokens, mentions and the token
    positions the mentions cover. For most shapes this is about 2n to 3n; n mentions nested in
    each other, or each crossing n/2 others, cover about n²/2 positions, which the model holds
    (every mention keeps its tokens) up to the limit of ``corefkit/model/storage.py`` (past
    it the document is refused). Growth is judged against this size."""
    docs = SHAPES[shape](n, 0)
    return sum(sum(d.sentences) + len(d.mentions) + sum(e - s + 1 for _, s, e in d.mentions)
               for d in docs)


def time_bound(small: int, big: int, slack: float) -> float:
    """The largest CPU-time ratio between sizes ``small`` and ``big`` that s log s growth
    allows."""
    return big / small * math.log(big) / math.log(small) * slack


def memory_bound(small: int, big: int, slack: float) -> float:
    return big / small * slack


def ratio(big: float, small: float, base: float, floor: float) -> float:
    """Growth from n to 4n of what lies above the cost of a tiny input (``base``); a cost
    at n below ``floor`` counts as ``floor`` (too small to tell noise from growth)."""
    return max(big - base, 0.0) / max(small - base, floor)


@dataclass(frozen=True)
class Result:
    shape: str
    fmt: str
    command: str
    n: int
    small: Cost
    big: Cost
    base: Cost
    time_ratio: float
    memory_ratio: float
    ok: bool


def run_case(shape: str, fmt: str, command: str, n: int, folder: Path,
             slack: float = 1.6, floor_cpu: float = 0.15, floor_kb: int = 8 * 1024) -> Result:
    costs = []
    for length in (8, n, 4 * n):
        key, response = write_inputs(shape, length, fmt, folder)
        costs.append(measure(COMMANDS[command](key, response, folder)))
    base, small, big = costs
    time_growth = ratio(big.cpu, small.cpu, base.cpu, floor_cpu)
    memory_growth = ratio(big.peak_kb, small.peak_kb, base.peak_kb, floor_kb)
    sizes = size(shape, n), size(shape, 4 * n)
    ok = (time_growth <= time_bound(*sizes, slack) and memory_growth <= memory_bound(*sizes, slack)
          and big.code in (0, 1) and small.code in (0, 1))
    return Result(shape, fmt, command, n, small, big, base, time_growth, memory_growth, ok)


def cases(shapes: list[str], formats: list[str], commands: list[str]
          ) -> Iterator[tuple[str, str, str]]:
    for shape in shapes:
        for fmt in formats:
            if fmt in ONE_DOCUMENT_PER_FILE and len(SHAPES[shape](1, 0)) > 1:
                continue
            for command in commands:
                yield shape, fmt, command


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=4000, help="the smaller size (default 4000)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES))
    parser.add_argument("--format", action="append", choices=sorted(ALL_FORMATS))
    parser.add_argument("--command", action="append", choices=sorted(COMMANDS))
    parser.add_argument("--slack", type=float, default=1.6)
    args = parser.parse_args()
    failed = 0
    print(f"{'shape':<16}{'format':<13}{'command':<19}{'cpu n':>8}{'cpu 4n':>9}{'x':>6}"
          f"{'MB n':>8}{'MB 4n':>8}{'x':>6}  exit")
    with tempfile.TemporaryDirectory(prefix="corefkit-scaling-") as scratch:
        for shape, fmt, command in cases(args.shape or list(SHAPES), args.format or ALL_FORMATS,
                                         args.command or list(COMMANDS)):
            result = run_case(shape, fmt, command, args.n, Path(scratch), args.slack)
            failed += not result.ok
            print(f"{shape:<16}{fmt:<13}{command:<19}{result.small.cpu:8.2f}{result.big.cpu:9.2f}"
                  f"{result.time_ratio:6.1f}{result.small.peak_kb / 1024:8.0f}"
                  f"{result.big.peak_kb / 1024:8.0f}{result.memory_ratio:6.1f}  "
                  f"{result.small.code}/{result.big.code}{'' if result.ok else '  TOO STEEP'}",
                  flush=True)
    print(f"bounds: s log s (time) and s (memory) in the size s of each shape (positions "
          f"covered included), times {args.slack}; {failed} case(s) too steep")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
