"""A response that only re-tokenizes the key scores exactly as the key against itself.

Real GUM documents are re-tokenized several ways — tokens split at random characters, runs of
tokens merged, both, whitespace removed entirely, empty nodes left out — with every mention
carried to the response tokens that hold its characters; scored with ``align=True`` they give
the very counts (exact fractions) of the key scored against itself, in the CorefUD scorer's
exact and head modes. Merges that put punctuation or a function word at a mention's edge are
ambiguous (the default ``trim`` policy leaves such tokens out): they are made only with
``merged="keep"``, which takes the response's characters literally.
"""

from __future__ import annotations

import random

import pytest

from corefkit import read, score
from corefkit.alignment import AlignmentPolicy, align
from corefkit.alignment.project import TRIM_END, TRIM_START
from corefkit.model import Document
from tests.conftest import SHARED

GUM = SHARED / "corpora" / "gum" / "dep"
DOCUMENTS = ["GENTLE_poetry_death", "GUM_interview_brotherhood", "GUM_news_afghan",
             "GUM_academic_art", "GENTLE_proof_square"]
MODES = [("exact", False), ("head", True)]


def _edges(doc: Document) -> tuple[set[int], set[int]]:
    starts, ends = set(), set()
    for m in doc.mentions:
        for a, b in m.parts():
            starts.add(a)
            ends.add(b)
    return starts, ends


def retokenized(key: Document, seed: int, *, split: float, merge: float,
                trimmable_edges: bool, keep_empty: bool) -> Document:
    """``key``'s text in other tokens: each token split at a random character with
    probability ``split``, adjacent tokens merged with probability ``merge`` where no mention
    boundary lies between them; mentions follow their characters."""
    rng = random.Random(seed)
    tokens = key.tokens
    starts, ends = _edges(key)
    pieces: list[list[str]] = []          # per key token, its pieces
    for token in tokens:
        form = token.form
        if len(form) > 1 and not token.is_empty and rng.random() < split:
            cut = rng.randrange(1, len(form))
            pieces.append([form[:cut], form[cut:]])
        else:
            pieces.append([form])
    # response tokens: (text, key tokens it holds)
    response: list[tuple[str, list[int], bool]] = []
    for index, token in enumerate(tokens):
        if token.is_empty and not keep_empty:
            continue
        for n, piece in enumerate(pieces[index]):
            glue = (n == 0 and response and not token.is_empty and not response[-1][2]
                    and index - 1 not in ends and index not in starts
                    and rng.random() < merge
                    and (trimmable_edges or not _ambiguous(tokens, response[-1][1], index,
                                                           starts, ends)))
            if glue:
                text, held, empty = response[-1]
                response[-1] = (text + piece, held + [index], empty)
            else:
                response.append((piece, [index], token.is_empty))
    doc = Document(key.id, key.part)
    sentence, by_key = [], {}
    from corefkit.model import Token
    for position, (text, held, empty) in enumerate(response):
        sentence.append(Token(text, is_empty=empty, id=f"0.{position}" if empty else None))
        for k in held:
            by_key.setdefault(k, []).append(position)
    doc.add_sentence(sentence)
    entities = {e: doc.new_entity() for e in key.entities}
    for m in key.mentions:
        positions = sorted({p for t in m.tokens for p in by_key.get(t, [])})
        if positions:
            entity = key.entity_of(m)
            doc.add_span(positions[0], positions[-1],
                         entities[entity] if entity is not None else None)
    doc.source_format = "jsonlines"
    return doc


def _ambiguous(tokens, before: list[int], index: int, starts: set[int], ends: set[int]) -> bool:
    """Whether merging key tokens ``before`` with ``index`` puts a trimmable token at the edge
    of a mention that starts or ends on the merged token."""
    held = [*before, index]
    first, last = held[0], held[-1]
    if any(t in starts for t in held) and tokens[first].upos in TRIM_START | TRIM_END:
        return True
    if any(t in ends for t in held) and tokens[last].upos in TRIM_START | TRIM_END:
        return True
    return tokens[first].upos in TRIM_START or tokens[last].upos in TRIM_END


def _counts(report) -> dict:
    return {n: (m.counts.recall_num, m.counts.recall_den, m.counts.precision_num,
                m.counts.precision_den) if m.counts is not None and hasattr(m.counts, "recall_num")
            else (m.f1,) for n, m in report.metrics.items()}


@pytest.mark.parametrize("name", DOCUMENTS)
@pytest.mark.parametrize("way", ["split", "merge", "both", "whitespace", "no-empty-nodes"])
def test_retokenized_key_scores_as_the_key(name, way):
    key = next(read(GUM / f"{name}.conllu"))
    settings = {"split": dict(split=0.3, merge=0.0), "merge": dict(split=0.0, merge=0.4),
                "both": dict(split=0.3, merge=0.3),
                "whitespace": dict(split=0.0, merge=1.0),
                "no-empty-nodes": dict(split=0.2, merge=0.2)}[way]
    literal = way == "whitespace"
    response = retokenized(key, hash((name, way)) & 0xFFFF, trimmable_edges=literal,
                           keep_empty=way != "no-empty-nodes", **settings)
    policy = AlignmentPolicy(merged="keep") if literal else True
    aligned = align(key, response, AlignmentPolicy(merged="keep") if literal else None)
    assert aligned.report.mode == "characters"
    assert aligned.report.mentions_unaligned == aligned.report.mentions_expanded == 0
    for match, remove in MODES:
        itself = score([key], [key], "all", match=match, remove_singletons=remove)
        realigned = score([key], [response], "all", match=match, remove_singletons=remove,
                          align=policy)
        assert _counts(realigned) == _counts(itself), (match, remove)


def test_without_align_a_retokenized_response_is_refused():
    from corefkit.errors import FormatError

    key = next(read(GUM / "GENTLE_poetry_death.conllu"))
    response = retokenized(key, 1, split=0.3, merge=0.0, trimmable_edges=False,
                           keep_empty=True)
    with pytest.raises(FormatError, match="words differ") as caught:  # issue 22: pair.tokens
        score([key], [response], "muc", align=False)
    assert caught.value.check == "pair.tokens" and "--align" in caught.value.message


def test_aligned_runs_give_the_same_counts_in_processes(tmp_path):
    from corefkit.converters.registry import write

    keys = [next(read(GUM / f"{n}.conllu")) for n in DOCUMENTS[:2]]
    responses = [retokenized(k, 3, split=0.3, merge=0.2, trimmable_edges=False,
                             keep_empty=True) for k in keys]
    write(responses, tmp_path / "response.jsonlines", format="jsonlines")
    write(keys, tmp_path / "key.conllu", format="corefud")
    runs = [score(tmp_path / "key.conllu", tmp_path / "response.jsonlines", "muc,bcub,conll",
                  align=True, engine=engine, jobs=jobs)
            for engine, jobs in (("serial", 1), ("processes", 2))]
    assert _counts(runs[0]) == _counts(runs[1])
    assert runs[0].metrics["conll"].f1 == 1
    assert [d.to_json() for d in runs[0].alignment.documents] == \
        [d.to_json() for d in runs[1].alignment.documents]
