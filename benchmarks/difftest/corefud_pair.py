"""A CorefUD differential pair: the key's original bytes, a udapi-made response written by
udapi and re-written by corefkit, the CorefUD scorer 1.2 in every mode in one process
(:mod:`difftest.corefud_modes`), corefkit in the same modes; every value compared."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from difftest.peers import PEERS, corefkit_values
from difftest.run import SOURCES, Difference, PairResult
from difftest.udperturb import perturb

HERE = Path(__file__).resolve().parent
WRITERS = ("udapi", "corefkit")
# the share of pairs drawn from the zero-bearing datasets (the rest from GUM, whose keys have
# empty nodes but no zero mentions: responses add zeros there)
ZERO_SHARE = 0.85
WINDOW = 250  # words of a key at most (about: whole sentences)


@cache
def original_documents() -> tuple[tuple[str, str, bytes], ...]:
    """(file name, document id, the document's original bytes) of every CorefUD source file:
    a document runs from its ``# newdoc`` line to the next one, byte for byte."""
    found = []
    for path in SOURCES["corefud"]:
        data = path.read_bytes()
        starts = [0] if data.startswith(b"# newdoc") else []
        at = data.find(b"\n# newdoc")
        while at != -1:
            starts.append(at + 1)
            at = data.find(b"\n# newdoc", at + 1)
        for n, start in enumerate(starts):
            chunk = data[start:starts[n + 1] if n + 1 < len(starts) else len(data)]
            first = chunk.split(b"\n", 1)[0].decode("utf-8")
            found.append((path.parent.name + "/" + path.name,
                          first.partition("=")[2].strip() or f"doc{n}", chunk))
    return tuple(found)


def _choose(rng: random.Random) -> tuple[str, str, bytes]:
    documents = original_documents()
    zeros = [d for d in documents if not d[0].startswith("dep/")]
    gum = [d for d in documents if d[0].startswith("dep/")]
    pool = zeros if (rng.random() < ZERO_SHARE or not gum) else gum
    source, name, data = rng.choice(pool)
    return source, name, window(data, rng)


def window(data: bytes, rng: random.Random, words: int = WINDOW, tries: int = 20) -> bytes:
    """A run of whole sentences of about ``words`` words from a random sentence on, after the
    document's header lines (``# newdoc``, ``# global.Entity``): every line as it is in the
    file. The run ends where no mention is open, and every entity a ``Bridge`` or ``SplitAnte``
    in it names has a mention in it (a cut that keeps the reference and drops its entity is a
    malformed key, not a scorer difference); where ``tries`` random starts find no such run the
    whole document is taken. (The CorefUD scorer runs minutes on a 1,000-word document in
    twelve modes; a window keeps a pair to seconds.)"""
    blocks = data.split(b"\n\n")
    first = blocks[0].split(b"\n")
    header = [line for line in first if line.startswith((b"# newdoc", b"# global."))]
    blocks[0] = b"\n".join(line for line in first if line not in header)
    sentences = [b for b in blocks if b.strip()]
    sizes = [sum(1 for line in b.split(b"\n") if line[:1].isdigit()
                 and line.split(b"\t", 1)[0].isdigit()) for b in sentences]
    if sum(sizes) <= words:
        return data
    for _ in range(tries):
        chosen = _run_from(sentences, sizes, rng.randrange(len(sentences)), words)
        if chosen is not None and _references_resolve(chosen):
            return b"\n".join(header) + b"\n" + b"\n\n".join(chosen) + b"\n\n"
    return data


def _run_from(sentences: list[bytes], sizes: list[int], start: int, words: int
              ) -> list[bytes] | None:
    """Sentences from ``start`` on until ``words`` words are taken and no mention is open;
    None if a mention is still open at the end of the document."""
    chosen, total, depth = [], 0, 0
    for n in range(start, len(sentences)):
        chosen.append(sentences[n])
        total += sizes[n]
        for line in sentences[n].split(b"\n"):
            entity = _misc_item(line, b"Entity=")
            depth += entity.count(b"(") - entity.count(b")")
        if total >= words and depth == 0:
            return chosen
    return None if depth else chosen


def _misc_item(line: bytes, key: bytes) -> bytes:
    misc = line.rsplit(b"\t", 1)[-1] if line[:1].isdigit() else b""
    return next((part[len(key):] for part in misc.split(b"|") if part.startswith(key)), b"")


def _references_resolve(chosen: list[bytes]) -> bool:
    """Every entity id a Bridge or SplitAnte item names has a mention in ``chosen``."""
    present: set[bytes] = set()
    named: set[bytes] = set()
    for sentence in chosen:
        for line in sentence.split(b"\n"):
            present.update(re.findall(rb"\(([^()\-]+)", _misc_item(line, b"Entity=")))
            for key in (b"Bridge=", b"SplitAnte="):
                for link in _misc_item(line, key).split(b","):
                    named.update(x.split(b":")[0] for x in link.split(b"<") if x)
    return named <= present


def _has_zero(path: Path) -> bool:
    """True if the file has a mention on an empty node (an Entity bracket on an N.K line)."""
    for line in path.read_text(encoding="utf-8").split("\n"):
        head, _, rest = line.partition("\t")
        if "." in head and head[:1].isdigit() and "Entity=" in rest:
            return True
    return False


def score_corefud_pair(job: dict[str, Any]) -> PairResult:
    import udapi

    import corefkit
    from corefkit.errors import FormatError

    peer = PEERS["corefud"]
    rng = random.Random(job["seed"])
    source, name, key_bytes = _choose(rng)
    with tempfile.TemporaryDirectory() as tmp:
        key = Path(tmp) / "key.conllu"
        key.write_bytes(key_bytes)
        result = PairResult(job["pair"], peer.name, f"{source}:{name}", kinds=Counter())
        responses: dict[str, Path] = {}
        try:
            doc = udapi.Document(str(key))
            result.kinds = perturb(doc, rng, rng.randint(1, job["strength"]))
            responses["udapi"] = Path(tmp) / "response-udapi.conllu"
            doc.store_conllu(str(responses["udapi"]))
        except Exception as error:  # udapi cannot make or write this response: a finding
            result.failures.append(f"udapi: {type(error).__name__}: {error}"[:300])
        if "udapi" in responses:
            written = Path(tmp) / "response-corefkit.conllu"
            try:
                docs = _read(corefkit, FormatError, responses["udapi"], result, "corefkit-writer")
                corefkit.write(docs, written, "corefud")
                responses["corefkit"] = written
            except Exception as error:
                result.failures.append(f"corefkit writer: {type(error).__name__}: {error}"[:300])
        result.zero_bearing = _has_zero(key) or any(_has_zero(p) for p in responses.values())
        peer_values = _peer(responses, key, job, result)
        for writer, response in responses.items():
            for n, mode in enumerate(peer.modes):
                label = f"{writer}/{mode.name}"
                theirs = peer_values.get(str(response), {}).get(str(n))
                if theirs is None or "error" in theirs:
                    result.failures.append(f"{label}: peer {theirs.get('error') if theirs else 'no output'}")
                    result.failed_modes[label] += 1
                    continue
                mine = _corefkit(corefkit, FormatError, peer, mode, key, response, result, label)
                if mine is None:
                    continue
                for metric, values in theirs.items():
                    result.compared[(label, metric)] += len(values)
                    ours = mine.get(metric)
                    for k, value in enumerate(values):
                        got = None if ours is None else ours[k]
                        if got is None or abs(got - value) > peer.tolerance * max(1.0, abs(value)):
                            result.differences.append(Difference(peer.name, label, metric, k,
                                                                 value, got))
        if (result.differences or result.failures or result.refusals) and job.get("keep"):
            keep = Path(job["keep"]) / job["pair"]
            keep.mkdir(parents=True, exist_ok=True)
            for path in [key, *responses.values()]:
                shutil.copy(path, keep / path.name)
            result.kept = str(keep)
    return result


def _read(corefkit: Any, format_error: type, path: Path, result: PairResult, label: str) -> list:
    try:
        return list(corefkit.read(path, format="corefud"))
    except format_error as error:
        result.refusals.append(f"{label}: {error}"[:300])
        result.refused_modes[label] += 1
        return list(corefkit.read(path, format="corefud", lenient=True))


def _corefkit(corefkit: Any, format_error: type, peer: Any, mode: Any, key: Path, response: Path,
              result: PairResult, label: str) -> dict[str, tuple[float, ...]] | None:
    """corefkit's values; a refusal is counted, and the values of ``lenient`` compared."""
    try:
        return corefkit_values(peer, mode, key, response)
    except format_error as error:
        result.refusals.append(f"{label}: {error}"[:300])
        result.refused_modes[label] += 1
    try:
        return corefkit_values(peer, mode, key, response, lenient=True)
    except Exception as error:
        result.failures.append(f"{label}: corefkit lenient {type(error).__name__}: {error}"[:300])
        return None


def _peer(responses: dict[str, Path], key: Path, job: dict[str, Any],
          result: PairResult) -> dict[str, Any]:
    """The peer's values for every response and mode, from one process."""
    if not responses:
        return {}
    peers_dir = Path(job["peers_dir"])
    modes = [list(mode.options) for mode in PEERS["corefud"].modes]
    command = [str(peers_dir / "corefud-scorer/venv/bin/python"), str(HERE / "corefud_modes.py"),
               str(peers_dir / "corefud-scorer/src"), str(key),
               *[str(p) for p in responses.values()], "--", json.dumps(modes)]
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=job["timeout"] * len(modes))
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip()[-300:])
        out: dict[str, Any] = json.loads(done.stdout)
        return out
    except Exception as error:
        result.failures.append(f"peer driver: {type(error).__name__}: {error}"[:300])
        return {}
