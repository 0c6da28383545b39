#!/usr/bin/env python3
"""Time the in-memory API as a training loop uses it: ``Scorer.update`` per document, then
``compute()``.

10,000 documents of 100 key mentions each (``(start, end)`` spans over about 1,000 tokens,
entities of 1–10 mentions, sizes drawn uniformly) and a system response per document
perturbed with a fixed seed as a system errs: 10% of mentions missed, 5% with a boundary off by
one, 15% of entities split in two, 5% merged into another, 10 invented mentions (half
singletons, half attached to an entity). Like a system's, a response never repeats a span.

Prints the wall seconds of the update loop, of ``compute()``, their sum and the process's CPU
seconds for both (a loaded machine stretches the wall time), all metrics (mentions,
MUC, B³, CEAFm, CEAFe, BLANC, LEA, CoNLL). Imports (corefkit, NumPy, SciPy's assignment
solver, used by CEAF for tangled entities) are done before timing and printed apart: a
training loop pays them once. Run: ``python benchmarks/clusters_bench.py [DOCUMENTS]``
(from the project's virtualenv); ``--check`` also writes the documents to CoNLL-2012 files,
scores them with ``corefkit.score`` and compares every value exactly with ``score_clusters`` on
the chains read back from those files.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

Span = tuple[int, int]


def make_document(rng: random.Random, mentions: int = 100,
                  tokens: int = 1000) -> tuple[list[list[Span]], list[list[Span]]]:
    """A key document and a perturbed response (see the module docstring)."""
    spans: set[Span] = set()
    while len(spans) < mentions:
        start = rng.randrange(tokens)
        spans.add((start, min(tokens - 1, start + rng.choice((0, 0, 1, 1, 2, 3, 5)))))
    order = sorted(spans)
    rng.shuffle(order)
    key: list[list[Span]] = []
    while order:
        size = min(rng.randint(1, 10), len(order))
        key.append(sorted(order[:size]))
        del order[:size]
    used: set[Span] = set()
    response: list[list[Span]] = []
    for cluster in key:
        out = []
        for start, end in cluster:
            roll = rng.random()
            if roll < 0.10:
                continue
            if roll < 0.15:
                start, end = ((start, min(tokens - 1, end + 1)) if rng.random() < 0.5
                              else (max(0, start - 1), end))
            if (start, end) not in used:
                used.add((start, end))
                out.append((start, end))
        if len(out) > 1 and rng.random() < 0.15:
            cut = rng.randrange(1, len(out))
            response += [out[:cut], out[cut:]]
        elif out:
            response.append(out)
    for _ in range(len(response) // 20):  # merges
        if len(response) > 2:
            donor = response.pop(rng.randrange(len(response)))
            response[rng.randrange(len(response))].extend(donor)
    for _ in range(10):
        start = rng.randrange(tokens)
        span = (start, min(tokens - 1, start + rng.randrange(3)))
        if span in used:
            continue
        used.add(span)
        if rng.random() < 0.5 and response:
            response[rng.randrange(len(response))].append(span)
        else:
            response.append([span])
    rng.shuffle(response)
    return key, response


def main() -> None:
    count = int(next((a for a in sys.argv[1:] if a.isdigit()), 10_000))
    start = time.perf_counter()
    import scipy.optimize  # noqa: F401  (CEAF's solver for tangled entities)

    import corefkit

    imports = time.perf_counter() - start
    rng = random.Random(15)
    documents = [make_document(rng) for _ in range(count)]
    mentions = sum(len(c) for k, _ in documents for c in k)
    response_mentions = sum(len(c) for _, r in documents for c in r)

    scorer = corefkit.Scorer()
    cpu = time.process_time()
    start = time.perf_counter()
    for key, response in documents:
        scorer.update(key, response)
    updated = time.perf_counter()
    report = scorer.compute()
    done = time.perf_counter()
    cpu = time.process_time() - cpu
    print(f"{count} documents, {mentions} key and {response_mentions} response mentions")
    print(f"imports {imports:.2f} s (once per process, not timed below)")
    print(f"update {updated - start:.2f} s, compute {done - updated:.2f} s, "
          f"total {done - start:.2f} s (CPU {cpu:.2f} s)")
    for name, value in report.as_dict().items():
        print(f"  {name:20} {value:.6f}")
    if "--check" in sys.argv:
        check(documents)


def check(documents: list[tuple[list[list[Span]], list[list[Span]]]]) -> None:
    """The same documents through CoNLL-2012 files and ``corefkit.score``, against
    ``score_clusters`` on the clusters read back from those files (CoNLL brackets cannot
    tell crossing spans of one entity from nested ones, so the files may differ from the
    generated clusters there): every value equal, exactly."""
    import tempfile

    import corefkit
    from corefkit.model import IDENTITY

    with tempfile.TemporaryDirectory() as folder:
        paths = []
        for side, index in (("key", 0), ("response", 1)):
            path = Path(folder) / f"{side}.conll"
            with path.open("w") as out:
                for n, pair in enumerate(documents):
                    out.write(conll_document(f"doc{n}", pair[index]))
            paths.append(path)
        start = time.perf_counter()
        files = corefkit.score(paths[0], paths[1], "all", lenient=True)  # repeated spans
        print(f"file route {time.perf_counter() - start:.2f} s")
        sides = [[[[(m.start, m.end) for m in doc.mentions_of(e)]
                   for e in doc.entities_in(IDENTITY)] for doc in corefkit.read(path)]
                 for path in paths]
    mine = corefkit.score_clusters(sides[0], sides[1], "all", documents=True)
    for name, result in files.metrics.items():
        assert (result.recall, result.precision, result.f1) == (
            mine.metrics[name].recall, mine.metrics[name].precision, mine.metrics[name].f1), name
    print("file route: every value equal")


def conll_document(name: str, clusters: list[list[Span]], tokens: int = 1000) -> str:
    cells: list[list[str]] = [[] for _ in range(tokens)]
    for entity, cluster in enumerate(clusters):
        for start, end in cluster:
            if start == end:
                cells[start].append(f"({entity})")
            else:
                cells[start].append(f"({entity}")
                cells[end].append(f"{entity})")
    lines = [f"#begin document ({name}); part 000"]
    lines += [f"{name}\t0\t{i}\tw{i}\t{'|'.join(c) or '-'}" for i, c in enumerate(cells)]
    return "\n".join(lines) + "\n\n#end document\n"


if __name__ == "__main__":
    main()
