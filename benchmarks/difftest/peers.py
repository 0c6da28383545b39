"""The peer scorers: their modes, how to run one and read its numbers, and the corefkit
call that means the same thing.

A peer's result is ``{metric: values}`` where values are ``(R, P, F1)`` floats, except for
the reference scorer, whose printed counts ``(R num, R den, P num, P den)`` are compared (and
BLANC's two parts as ``blanc.coref`` / ``blanc.noncoref``). ``precision`` says how far apart
two equal numbers may print: the full-precision drivers of ``../shared/conformance/real/
tools`` give doubles (1e-9), coval prints two decimals (half the last digit).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[3] / "shared"
TOOLS = SHARED / "conformance" / "real" / "tools"
UA_METRICS = ("muc", "bcub", "ceafe", "ceafm", "blanc", "lea")
COVAL_METRICS = ("mentions", "muc", "bcub", "ceafe", "lea")


@dataclass(frozen=True)
class Mode:
    """One setting a peer and corefkit share: the peer's options and corefkit's keywords."""

    name: str
    options: tuple[str, ...]
    corefkit: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Peer:
    name: str
    format: str            # the file format both sides read
    modes: tuple[Mode, ...]
    tolerance: float       # |corefkit − peer| allowed (see the module docstring)
    expected: str = ""     # a documented deviation that explains differences, if any


def _ua_modes() -> tuple[Mode, ...]:
    plain = list(UA_METRICS)
    return (
        Mode("default", (), {"metrics": plain}),
        Mode("remove_split_antecedent", ("remove_split_antecedent",),
             {"metrics": plain, "remove_split_antecedents": True}),
        Mode("only_split_antecedent", ("only_split_antecedent",),
             {"metrics": plain, "only_split_antecedents": True}),
        Mode("keep_non_referring", ("keep_non_referring",),
             {"metrics": plain + ["non_referring"]}),
        Mode("keep_bridging", ("keep_bridging",), {"metrics": plain + ["bridging"]}),
        Mode("evaluate_discourse_deixis", ("evaluate_discourse_deixis",),
             {"metrics": plain, "discourse_deixis": True}),
        Mode("remove_singletons+remove_split_antecedent",
             ("remove_singletons", "remove_split_antecedent"),
             {"metrics": plain, "remove_singletons": True, "remove_split_antecedents": True}),
    )


def _corefud_modes() -> tuple[Mode, ...]:
    modes = []
    for match, flag in (("exact", "exact"), ("partial", "partial"), ("head", "head")):
        for singletons in (True, False):
            for zeros in ("linear", "dependent"):
                options = ("-a", flag, "-z", zeros) + (("-s",) if singletons else ())
                name = f"{match}{'+singletons' if singletons else ''}+{zeros}"
                modes.append(Mode(name, options, {"match": match, "zero_match": zeros,
                                                  "remove_singletons": not singletons}))
    return tuple(modes)


REFERENCE_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
PEERS = {
    "ua": Peer("ua", "ua-exploded", _ua_modes(), 1e-9),
    "corefud": Peer("corefud", "corefud", _corefud_modes(), 1e-9),
    "reference": Peer("reference", "conll2012",
                      (Mode("all", (), {"metrics": list(REFERENCE_METRICS)}),), 1e-9),
    "coval": Peer("coval", "conll2012", (
        Mode("default", (), {"metrics": list(COVAL_METRICS), "semantics": "coval"}),
        Mode("remove_singletons", ("remove_singletons",),
             {"metrics": list(COVAL_METRICS), "semantics": "coval", "remove_singletons": True})),
        0.005 + 1e-9,
        "compared with corefkit's --semantics coval (coval's repeated-mention rule, its "
        "reader's entity order and mention identity); coval prints two decimals"),
    "scorch": Peer("scorch", "conll2012",
                   (Mode("cli", (), {"metrics": ["muc", "bcub", "ceafm", "ceafe", "blanc"],
                                     "semantics": "scorch"}),),
                   1e-9,
                   "compared with corefkit's --semantics scorch (its command line: response "
                   "mentions the key lacks become key singletons, documents averaged by their "
                   "mention counts)"),
}


# ============================================================================ running
def run(peer: Peer, mode: Mode, key: Path, response: Path, peers_dir: Path,
        timeout: float) -> dict[str, tuple[float, ...]]:
    """The peer's numbers for one pair in one mode (raises on a crash or a timeout)."""
    return RUNNERS[peer.name](mode, key, response, peers_dir, timeout)


def _run(command: list[str], timeout: float, cwd: Path | None = None) -> str:
    env = {**os.environ, "PERL_HASH_SEED": "0", "PERL_PERTURB_KEYS": "0"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:3])}... exited {done.returncode}: "
                           f"{done.stderr.strip()[-300:]}")
    return done.stdout


def _fullprec(driver: str, venv: str, mode: Mode, key: Path, response: Path, peers_dir: Path,
              timeout: float) -> dict[str, tuple[float, ...]]:
    out = _run([str(peers_dir / venv / "venv/bin/python"), str(TOOLS / driver),
                str(peers_dir / venv / "src"), str(key), str(response), *mode.options], timeout)
    found: dict[str, tuple[float, ...]] = {}
    for record in json.loads(out)["metrics"]:
        if record["kind"] == "coref":
            found[record["metric"]] = tuple(record["rpf"])
        elif record["kind"] == "non_referring":
            found["non_referring"] = tuple(record["rpf"])
        elif record["kind"] == "bridging":
            for part, rpf in zip(("recognition", "mention", "entity"), record["rpf"]):
                found[f"bridging.{part}"] = tuple(rpf)
    return found


def _ua(mode: Mode, key: Path, response: Path, peers_dir: Path,
        timeout: float) -> dict[str, tuple[float, ...]]:
    return _fullprec("ua1_fullprec.py", "ua-scorer", mode, key, response, peers_dir, timeout)


def _corefud(mode: Mode, key: Path, response: Path, peers_dir: Path,
             timeout: float) -> dict[str, tuple[float, ...]]:
    return _fullprec("corefud_fullprec.py", "corefud-scorer", mode, key, response, peers_dir,
                     timeout)


COUNTS = re.compile(r"Recall: \(([\d.e+-]+) / ([\d.e+-]+)\).*?Precision: \(([\d.e+-]+) / "
                    r"([\d.e+-]+)\)")


def _reference(mode: Mode, key: Path, response: Path, peers_dir: Path,
               timeout: float) -> dict[str, tuple[float, ...]]:
    found: dict[str, tuple[float, ...]] = {}
    for metric in REFERENCE_METRICS:
        wrapper = "reference-lea-score" if metric == "lea" else "reference-score"
        out = _run([str(peers_dir / "bin" / wrapper), str(key), str(response), metric, "none"],
                   timeout)
        totals = out[out.index("====== TOTALS"):]
        if metric == "blanc":
            for part, label in (("coref", "\nCoreference links:"),
                                ("noncoref", "\nNon-coreference links:")):
                line = totals[totals.index(label):].split("\n")[1]
                found[f"blanc.{part}"] = tuple(float(x) for x in COUNTS.search(line).groups())
        else:
            line = next(x for x in totals.split("\n") if x.startswith("Coreference:"))
            found[metric] = tuple(float(x) for x in COUNTS.search(line).groups())
    return found


def _coval(mode: Mode, key: Path, response: Path, peers_dir: Path,
           timeout: float) -> dict[str, tuple[float, ...]]:
    out = _run([str(peers_dir / "bin/coval-score"), str(key), str(response), *mode.options],
               timeout)
    found = {}
    for name, r, p, f in re.findall(r"^(mentions|muc|bcub|ceafe|lea)\s+Recall: ([\d.]+)\s+Precision: "
                                    r"([\d.]+)\s+F1: ([\d.]+)", out, re.M):
        found[name] = (float(r) / 100, float(p) / 100, float(f) / 100)
    return found


SCORCH = {"MUC": "muc", "B³": "bcub", "CEAF_m": "ceafm", "CEAF_e": "ceafe", "BLANC": "blanc"}


def _scorch(mode: Mode, key: Path, response: Path, peers_dir: Path,
            timeout: float) -> dict[str, tuple[float, ...]]:
    out = _run([str(peers_dir / "bin/scorch-score"), str(key), str(response)], timeout)
    found = {}
    for name, r, p, f in re.findall(r"^(\S+):\tR=([\d.e-]+)\tP=([\d.e-]+)\tF₁=([\d.e-]+)", out,
                                    re.M):
        if name in SCORCH:
            found[SCORCH[name]] = (float(r), float(p), float(f))
    return found


RUNNERS = {"ua": _ua, "corefud": _corefud, "reference": _reference, "coval": _coval,
           "scorch": _scorch}


# ============================================================================ corefkit's side
def corefkit_values(peer: Peer, mode: Mode, key: Path, response: Path, lenient: bool = False
                    ) -> dict[str, tuple[float, ...]]:
    """corefkit's numbers for the same pair and mode, shaped like the peer's (``lenient``:
    read what strict reading refuses, each repair reported)."""
    import corefkit

    options = dict(mode.corefkit)
    metrics = options.pop("metrics", None)
    if peer.name in ("reference", "scorch"):
        options.setdefault("semantics", "reference")
    if peer.name == "corefud":
        metrics = ["muc", "bcub", "ceafe", "ceafm", "blanc", "lea", "mor", "zero"]
    report = corefkit.score(key, response, metrics, format=peer.format, lenient=lenient, jobs=1,
                            **options)
    found: dict[str, tuple[float, ...]] = {}
    for name, result in report.metrics.items():
        counts = result.counts
        if name == "bridging":
            for part in ("recognition", "mention", "entity"):
                c = getattr(counts, part)
                found[f"bridging.{part}"] = (float(c.recall), float(c.precision), float(c.f1))
        elif peer.name == "reference" and name == "blanc":
            for part in ("coref", "noncoref"):
                found[f"blanc.{part}"] = _counts(getattr(counts, part))
        elif peer.name == "reference":
            found[name] = _counts(counts)
        elif counts is not None:
            found[name] = (float(result.recall), float(result.precision), float(result.f1))
    return found


def _counts(c: Any) -> tuple[float, ...]:
    return tuple(float(Fraction(x)) for x in (c.recall_num, c.recall_den, c.precision_num,
                                              c.precision_den))
