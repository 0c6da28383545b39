#!/usr/bin/env python3
"""Differential test of ``corefkit analyze`` against the Berkeley Coreference Analyser.

The analyser (Kummerfeld & Klein 2013; jkkummerfeld/berkeley-coreference-analyser, Python 3
port, commit d845001) needs gold CoNLL-2012 files with parse bits for its heads, so the pair is
its own sample: the four WSJ documents of ``data/gold/`` (``*.v2_gold_conll``) as key, and as
responses the Stanford system output it ships (``data/homogenised/stanford.homogenised.out``)
plus responses perturbed from the key, one kind of error per file and all kinds at once:

* ``drop-mention``  mentions left out (missing mentions);
* ``drop-entity``   entities left out (missing entities);
* ``extra-mention`` a word outside every key mention added to an entity (extra mentions);
* ``extra-entity``  two such words as a new entity (extra entities);
* ``split``         entities cut in two (divided entities);
* ``merge``         two entities joined (conflated entities);
* ``span``          a mention's first word left out (span errors);
* ``mixed``         all of the above.

Each response is classified by the analyser (``classify_coreference_errors.py PREFIX GOLD
RESPONSE T``: response singletons removed, its default) and by corefkit
(``--remove-singletons``; the key has no singletons) with both anchor rules, and the counts of
the analyser's seven error types are printed side by side. ``docs/deviations.md`` §7 says
why they differ where they do.

    cd /work && git clone <the analyser> berkeley-analyser   # any Python 3 runs it
    .venv/bin/python benchmarks/analyze_differential.py --analyser /work/berkeley-analyser \\
        --python /work/berkeley-venv/bin/python

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

import corefkit
from corefkit.model import IDENTITY, Document

NAMES = {  # the analyser's summary lines -> corefkit categories (zeros: none in WSJ)
    "Span Error": ("span_error",),
    "Conflated Entities": ("conflated_entities",),
    "Extra Mention": ("extra_mention", "extra_zero"),
    "Extra Entity": ("extra_entity",),
    "Divided Entity": ("divided_entity",),
    "Missing Mention": ("missing_mention", "missing_zero"),
    "Missing Entity": ("missing_entity",),
}
KINDS = ("drop-mention", "drop-entity", "extra-mention", "extra-entity", "split", "merge",
         "span", "mixed")

Chains = list[list[tuple[int, int]]]  # entities as (first, last) token spans


def chains(doc: Document) -> Chains:
    return [sorted((m.start, m.end) for m in doc.mentions_of(e))
            for e in doc.entities_in(IDENTITY)]


def free_words(doc: Document, taken: Chains) -> list[int]:
    """Words inside no mention (an extra mention there has a head no key mention has)."""
    inside = {t for chain in taken for a, b in chain for t in range(a, b + 1)}
    return [t.index for t in doc.tokens if t.index not in inside and t.form.isalpha()]


def perturb(doc: Document, kind: str, rng: random.Random) -> Chains:
    out = [list(c) for c in chains(doc)]
    kinds = KINDS[:-1] if kind == "mixed" else (kind,)
    for k in kinds:
        n = max(1, len(out) // 6)
        if k == "drop-mention":
            for _ in range(n):
                chain = rng.choice([c for c in out if len(c) > 2] or out)
                chain.remove(rng.choice(chain))
        elif k == "drop-entity":
            for _ in range(n):
                out.remove(rng.choice(out))
        elif k in ("extra-mention", "extra-entity"):
            free = free_words(doc, out)
            rng.shuffle(free)
            for _ in range(n):
                if k == "extra-mention" and free:
                    rng.choice(out).append((free.pop(),) * 2)
                elif len(free) >= 2:
                    out.append([(free.pop(),) * 2, (free.pop(),) * 2])
        elif k == "split":
            for _ in range(n):
                chain = rng.choice([c for c in out if len(c) > 3] or out)
                if len(chain) > 1:
                    cut = len(chain) // 2
                    out.remove(chain)
                    out += [chain[:cut], chain[cut:]]
        elif k == "merge":
            for _ in range(n):
                if len(out) > 2:
                    a, b = rng.sample(out, 2)
                    out.remove(b)
                    a.extend(b)
        elif k == "span":
            for chain in rng.sample(out, min(n, len(out))):
                longer = [i for i, (a, b) in enumerate(chain) if b > a]
                if longer:
                    i = rng.choice(longer)
                    chain[i] = (chain[i][0] + 1, chain[i][1])
    return [sorted(set(c)) for c in out if c]


def write_response(docs: list[Document], clusters: list[Chains], path: Path) -> None:
    """The analyser's system format: document, part, word number, word, coreference."""
    lines = []
    for doc, chain_list in zip(docs, clusters):
        cells: dict[int, list[str]] = {}
        for n, chain in enumerate(chain_list):
            for a, b in chain:
                if a == b:
                    cells.setdefault(a, []).append(f"({n})")
                else:
                    cells.setdefault(a, []).append(f"({n}")
                    cells.setdefault(b, []).append(f"{n})")
        lines.append(f"#begin document ({doc.id}); part {doc.part or '000'}")
        for sentence in doc.sentences:
            for i in sentence.token_indices():
                cell = "|".join(cells.get(i, [])) or "-"
                lines.append(f"{doc.id}\t{int(doc.part or 0)}\t{i - sentence.start}\t"
                             f"{doc.tokens[i].form}\t{cell}")
            lines.append("")
        lines.append("#end document")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def analyser_counts(args: argparse.Namespace, gold: Path, response: Path, out: Path
                    ) -> dict[str, int]:
    prefix = out / response.stem
    subprocess.run([args.python, "classify_coreference_errors.py", str(prefix), str(gold),
                    str(response), "T"], cwd=args.analyser, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    text = Path(f"{prefix}.summary").read_text(encoding="utf-8")
    errors = text.split("Errors:", 1)[1]
    return {name: int(n) for n, name in re.findall(r"^\s*(\d+)\s+(.+?)\s*$", errors, re.MULTILINE)}


def corefkit_counts(gold: list[Path], response: Path, anchors: str) -> dict[str, int]:
    report = corefkit.analyze([str(p) for p in gold], str(response), remove_singletons=True,
                              anchors=anchors)
    return {name: sum(report.counts[c] for c in cats) for name, cats in NAMES.items()}


Span = tuple[int, int, int]  # (sentence, first word, word after the last), as the analyser


def analyser_spans(args: argparse.Namespace, gold: Path, response: Path, out: Path
                   ) -> set[tuple[str, Span, Span]]:
    """(document, response span, key span) of every Span Error of the analyser, one run per
    document (its properties file does not name documents)."""
    found = set()
    blocks = re.findall(r"#begin document \((.*?)\).*?#end document",
                        response.read_text(encoding="utf-8"), re.DOTALL)
    text = response.read_text(encoding="utf-8")
    for n, name in enumerate(blocks):
        start = text.index(f"#begin document ({name})")
        end = text.index("#end document", start) + len("#end document")
        one = out / f"{response.stem}.doc{n}.conll"
        one.write_text(text[start:end] + "\n", encoding="utf-8")
        analyser_counts(args, gold, one, out)
        for line in Path(out / f"{one.stem}.classified.properties").read_text().splitlines():
            if line.startswith("['span error'"):
                a, b = re.findall(r"\((\d+), (\d+), (\d+)\)", line)[:2]
                found.add((name, tuple(map(int, a)), tuple(map(int, b))))
    return found  # type: ignore[return-value]


def corefkit_spans(gold: list[Path], response: Path) -> dict[tuple[str, Span, Span], str]:
    """The same for corefkit, with the words of both spans."""
    report = corefkit.analyze([str(p) for p in gold], str(response), remove_singletons=True,
                              anchors="analyser")
    docs = {d.id: d for p in gold for d in corefkit.read(p)}
    found = {}
    for e in report.errors:
        if e.category == "span_error":
            doc = docs[e.document.split(";")[0]]
            spans = []
            for m in e.mentions:
                assert m.sentence is not None
                first = doc.sentences[m.sentence].start
                spans.append((m.sentence, m.tokens[0] - first, m.tokens[-1] - first + 1))
            found[(doc.id, spans[0], spans[1])] = \
                f"{e.mentions[0].text!r} -> {e.mentions[1].text!r}"
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--analyser", type=Path, default=Path("/work/berkeley-analyser"))
    parser.add_argument("--python", default=sys.executable,
                        help="the Python that runs the analyser (a separate venv)")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    gold_dir = args.analyser / "data/gold"
    gold = sorted(gold_dir.rglob("*gold_conll"))
    docs = [d for p in gold for d in corefkit.read(p)]
    rng = random.Random(args.seed)
    rows = []
    docs_by_id = {d.id: d for d in docs}
    kept: list[tuple[str, Path]] = []
    keep = Path(tempfile.mkdtemp())
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        responses = [("stanford", args.analyser / "data/homogenised/stanford.homogenised.out")]
        for kind in KINDS:
            path = out / f"{kind}.conll"
            write_response(docs, [perturb(d, kind, rng) for d in docs], path)
            responses.append((kind, path))
        for name, path in responses:
            theirs = analyser_counts(args, gold_dir, path, out)
            agreed = corefkit_counts(gold, path, "agreed")
            same = corefkit_counts(gold, path, "analyser")
            rows.append((name, theirs, same, agreed))
            if name in ("stanford", "span", "mixed"):
                kept.append((name, Path(keep / path.name)))
                kept[-1][1].write_bytes(path.read_bytes())
    print("counts: Berkeley analyser / corefkit --anchors analyser / corefkit (default)\n")
    header = f"{'response':<14}" + "".join(f"{n:>20}" for n in NAMES)
    print(header)
    print("-" * len(header))
    for name, theirs, same, agreed in rows:
        cells = [f"{theirs.get(n, 0)}/{same[n]}/{agreed[n]}" for n in NAMES]
        print(f"{name:<14}" + "".join(f"{c:>20}" for c in cells))
    equal = sum(theirs.get(n, 0) == same[n] for _, theirs, same, _ in rows for n in NAMES)
    print(f"\n{equal} of {len(rows) * len(NAMES)} counts equal with --anchors analyser")
    print("\nspan errors only one tool finds (response span -> key span):")
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in kept:
            theirs_spans = analyser_spans(args, gold_dir, path, Path(tmp))
            ours = corefkit_spans(gold, path)
            for item in sorted(set(ours) - theirs_spans):
                print(f"  {name:<9} corefkit only  {item[0]}  {ours[item]}")
            for item in sorted(theirs_spans - set(ours)):
                first = docs_by_id[item[0]].sentences[item[1][0]].start
                forms = [t.form for t in docs_by_id[item[0]].tokens]
                print(f"  {name:<9} analyser only  {item[0]}  "
                      f"{' '.join(forms[first + item[1][1]:first + item[1][2]])!r} -> "
                      f"{' '.join(forms[first + item[2][1]:first + item[2][2]])!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
