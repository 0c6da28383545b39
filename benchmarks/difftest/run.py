"""One differential pair: a real document as the key, a perturbed copy as the response, scored
by the peer and by corefkit in every mode they share.

CorefUD pairs (:func:`score_corefud_pair`) take the key's original bytes (a document cut from
a real file, never re-written) and make the response with udapi (:mod:`difftest.udperturb`),
written by udapi; the same response re-written by corefkit's writer is a second response. A
peer crash, a file corefkit refuses (scored again with ``lenient``) and a failure of udapi
are findings, counted beside the differing values. The other peers' pairs are a real
document and a perturbed copy, both written by corefkit in the peer's format.
"""

from __future__ import annotations

import random
import shutil
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from difftest.peers import PEERS, corefkit_values, run
from difftest.perturb import perturb

SHARED = Path(__file__).resolve().parents[3] / "shared"
CORPORA = SHARED / "corpora"
# The real documents each format's pairs are drawn from (AMI's single 3 MB document is left
# out: too slow for hundreds of peer runs; its content is in the real-data suites).
SOURCES = {
    "ua-exploded": [CORPORA / "codi-crac22" / "Persuasion_train.2022.first10docs.CONLLUA",
                    CORPORA / "codi-crac22" / "light_train.2022.first10docs.CONLLUA"],
    "corefud": sorted((CORPORA / "corefud-zeros").glob("*/*.conllu"))
    + sorted((CORPORA / "gum" / "dep").glob("*.conllu")),
    "conll2012": sorted((CORPORA / "litbank").glob("*.conll"))
    + [SHARED / "conformance" / "real" / "data" / "ontogum" / "key.conll"],
}
SUFFIX = {"ua-exploded": ".CONLLUA", "corefud": ".conllu", "conll2012": ".conll"}


@dataclass
class Difference:
    peer: str
    mode: str
    metric: str
    component: int
    peer_value: float
    corefkit_value: float | None


@dataclass
class PairResult:
    pair: str
    peer: str
    document: str
    kinds: Counter[str]
    compared: Counter[tuple[str, str]] = field(default_factory=Counter)  # (mode, metric)
    differences: list[Difference] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # peer crashes / timeouts
    kept: str | None = None
    refusals: list[str] = field(default_factory=list)  # inputs corefkit refused (strict)
    zero_bearing: bool = False  # the key or a response has zero mentions
    failed_modes: Counter[str] = field(default_factory=Counter)   # mode -> peer failures
    refused_modes: Counter[str] = field(default_factory=Counter)  # mode -> corefkit refusals

    def to_json(self) -> dict[str, Any]:
        return {"pair": self.pair, "peer": self.peer, "document": self.document,
                "kinds": dict(self.kinds),
                "compared": [[mode, metric, n] for (mode, metric), n in self.compared.items()],
                "differences": [vars(d) for d in self.differences], "failures": self.failures,
                "kept": self.kept, "refusals": self.refusals, "zero_bearing": self.zero_bearing,
                "failed_modes": dict(self.failed_modes),
                "refused_modes": dict(self.refused_modes)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PairResult:
        return cls(data["pair"], data["peer"], data["document"], Counter(data["kinds"]),
                   Counter({(mode, metric): n for mode, metric, n in data["compared"]}),
                   [Difference(**d) for d in data["differences"]], data["failures"],
                   data["kept"], data["refusals"], data["zero_bearing"],
                   Counter(data["failed_modes"]), Counter(data["refused_modes"]))


@cache
def _documents(fmt: str) -> list[tuple[str, Any]]:
    import corefkit

    found = []
    for path in SOURCES[fmt]:
        for doc in corefkit.read(path, format=fmt):
            found.append((path.name, doc))
    return found


def score_pair(job: dict[str, Any]) -> PairResult:
    """Make, score and compare one pair (run in a worker process)."""
    import corefkit

    peer = PEERS[job["peer"]]
    if peer.name == "corefud":
        from difftest.corefud_pair import score_corefud_pair

        return score_corefud_pair(job)
    rng = random.Random(job["seed"])
    source, key_doc = rng.choice(_documents(peer.format))
    response = key_doc.copy()
    kinds = perturb(response, peer.format, rng, rng.randint(1, job["strength"]))
    result = PairResult(job["pair"], peer.name, f"{source}:{key_doc.name}", kinds)
    with tempfile.TemporaryDirectory() as tmp:
        key_path = Path(tmp) / f"key{SUFFIX[peer.format]}"
        response_path = Path(tmp) / f"response{SUFFIX[peer.format]}"
        corefkit.write([key_doc], key_path, peer.format)
        corefkit.write([response], response_path, peer.format)
        for mode in peer.modes:
            _compare_mode(result, peer, mode, key_path, response_path, job)
        if (result.differences or result.failures) and job.get("keep"):
            keep = Path(job["keep"]) / job["pair"]
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(key_path, keep / key_path.name)
            shutil.copy(response_path, keep / response_path.name)
            result.kept = str(keep)
    return result


def _compare_mode(result: PairResult, peer: Any, mode: Any, key: Path, response: Path,
                  job: dict[str, Any]) -> None:
    try:
        theirs = run(peer, mode, key, response, Path(job["peers_dir"]), job["timeout"])
    except Exception as error:  # a peer crash or loop is the peer's failure, not a difference
        result.failures.append(f"{mode.name}: {type(error).__name__}: {error}"[:300])
        return
    try:
        mine = corefkit_values(peer, mode, key, response)
    except Exception as error:
        result.failures.append(f"{mode.name}: corefkit {type(error).__name__}: {error}"[:300])
        return
    for metric, values in theirs.items():
        result.compared[(mode.name, metric)] += len(values)
        ours = mine.get(metric)
        for n, value in enumerate(values):
            got = None if ours is None else ours[n]
            if got is None or abs(got - value) > peer.tolerance * max(1.0, abs(value)):
                result.differences.append(Difference(peer.name, mode.name, metric, n, value, got))
