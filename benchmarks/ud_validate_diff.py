#!/usr/bin/env python3
"""Differential validation: corefkit's ``validate`` against the UD validator on mutated CorefUD files.

Each sample is a real CorefUD file of ../shared/corpora/gum (``dep/`` and
``coref-ontogum-conllu/``), cut to its first sentences most of the time, often rewritten in
CorefUD 1.x notation (``eid-etype-head-other-identity``, which the UD validator's coreference
tests read; GUM's own ``GRP-...`` declaration stops them at its first line) and mutated with
one to three of the errors the UD validator tests at levels 1-2 and with ``--coref``
(``difftest/udmutate.py``: ids, word intervals, empty nodes, columns, whitespace, HEAD and the
tree, DEPREL, DEPS, FEATS, MISC, sentence metadata, Entity / SplitAnte / Bridge). Every file
goes through ``udvalidate --lang en --level 2 --coref --max-err 0`` and through
``corefkit.validate``. The table gives, for each UD test id met: the files where UD reports it,
those where corefkit reports it as ``corefud.<id>``, those where corefkit reports it under
another id (the ids of ``UD_EQUIVALENTS`` in corefkit/converters/corefud/checks.py), and
those where corefkit misses it; then the corefkit errors on files where UD reports nothing
corresponding (neither the same id, nor an equivalent one, nor anything on the same line).

    .venv/bin/python benchmarks/ud_validate_diff.py --files 500 --seed 1
    .venv/bin/python benchmarks/ud_validate_diff.py --files 50 --keep-failures /tmp/udd -v

``--udvalidate`` names the validator's command (default: ``udvalidate`` on PATH, else
/work/udtools-venv/bin/udvalidate; ``pip install udtools`` in a separate virtualenv). Run it
with the project's virtualenv; it is not part of the test suite. ``--export DIR`` writes a
small sample (one excerpt per mutation kind and seed) with the UD ids found, as the fixtures
of tests/validation/test_ud_agreement.py.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:0] = [str(ROOT), str(HERE)]

from difftest.udmutate import MUTATIONS, mutate  # noqa: E402

from corefkit.converters.corefud.checks import UD_EQUIVALENTS  # noqa: E402
from corefkit.validation import validate  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "gum"
FOLDERS = ("dep", "coref-ontogum-conllu")
STOPPED = "reading of this file stopped here"
INCIDENT_RE = re.compile(r"^\[(?:File .*? )?Line (\d+) Sent [^\]]*\]: \[L(\d) (\w+) ([a-z0-9-]+)\]")


def find_udvalidate(given: str | None) -> str:
    for candidate in ([given] if given else []) + [shutil.which("udvalidate") or "",
                                                    "/work/udtools-venv/bin/udvalidate"]:
        if candidate and (os.path.isfile(candidate) or shutil.which(candidate)):
            return candidate
    raise SystemExit("udvalidate not found: pip install udtools into a virtualenv and pass "
                     "--udvalidate PATH")


def ud_version(command: str) -> str:
    python = Path(command).with_name("python")
    if python.exists():
        found = subprocess.run([str(python), "-c", "import importlib.metadata as m;"
                                "print(m.version('udtools'))"], capture_output=True, text=True)
        if found.returncode == 0:
            return "udtools " + found.stdout.strip()
    return "udtools (version unknown)"


def run_ud(command: str, path: Path, timeout: float) -> dict:
    """{"ids": {id: [lines]}, "types": {id: "error"|"warning"}, "levels": {id: n}} or crashed."""
    try:
        done = subprocess.run([command, "--lang", "en", "--level", "2", "--coref", "--max-err",
                               "0", str(path)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"crashed": "timeout"}
    ids: dict[str, list[int]] = defaultdict(list)
    types: dict[str, str] = {}
    levels: dict[str, int] = {}
    for line in (done.stdout + "\n" + done.stderr).splitlines():
        found = INCIDENT_RE.match(line)
        if found:
            number, level, klass, test = found.groups()
            ids[test].append(int(number))
            types[test] = "warning" if klass == "WARNING" else "error"
            levels[test] = int(level)
    if "Traceback" in done.stderr:
        return {"crashed": done.stderr.strip().splitlines()[-1][:200], "ids": dict(ids),
                "types": types, "levels": levels}
    return {"ids": dict(ids), "types": types, "levels": levels}


def run_corefkit(path: Path) -> tuple[list[tuple[str, str, int | None]], int | None]:
    """corefkit's findings (check, severity, line), and the line where it stopped reading."""
    found = validate(path, format="corefud")
    stopped = next((f.line or 0 for f in found if STOPPED in f.message), None)
    return [(f.check, f.severity, f.line) for f in found], stopped


def documented(test: str, lines: list[int], text: list[str]) -> bool:
    """A UD incident docs/deviations.md §8 explains: GUM's and OntoGUM's ``GRP`` declarations
    are the UA compact profile, which corefkit reads as such."""
    if test == "spurious-global-entity":
        return all(0 < n <= len(text) and "GRP" in text[n - 1] for n in lines)
    return False


def declaration_cascade(test: str, lines: list[int], text: list[str],
                        ck: list[tuple[str, str, int | None]]) -> str:
    """The corefkit errors that made the UD validator miss the file's global.Entity line.

    The validator reads a sentence's comments for coreference only if the sentence passed its
    level 1-2 tests; after an error in the sentence that declares global.Entity it reports
    entity-without-global-entity on every later Entity. Returns the corefkit ids in that
    sentence ("" when the incident is no such cascade).
    """
    if test != "entity-without-global-entity":
        return ""
    first = min(lines)
    declared = next((i for i in range(min(first, len(text)))
                     if text[i].lstrip("\ufeff").startswith("# global.Entity")), None)
    if declared is None:
        return ""
    end = next((i for i in range(declared, len(text)) if not text[i].strip()), len(text))
    causes = sorted({c for c, s, n in ck if s == "error" and n is not None
                     and declared < n <= end + 1})
    return ",".join(causes)


def classify(ud: dict, ck: list[tuple[str, str, int | None]], stopped: int | None = None,
             text: list[str] | None = None) -> tuple[dict[str, str], dict[str, str], set[str]]:
    """Per UD id: "same", "other", "documented", "unread" (corefkit refused the file before
    checking it: a level-1 rejection stops the reading of the document and the file) or
    "missed"; the other ids; corefkit-only errors."""
    ck_ids = {c for c, _, _ in ck}
    ck_lines: dict[int, set[str]] = defaultdict(set)
    for check, severity, line in ck:
        if severity == "error" and line is not None:
            ck_lines[line].add(check)
    verdict: dict[str, str] = {}
    others: dict[str, str] = {}
    for test, lines in ud.get("ids", {}).items():
        if "corefud." + test in ck_ids:
            verdict[test] = "same"
            continue
        aliases = [a for a in UD_EQUIVALENTS.get(test, ()) if a in ck_ids]
        if aliases:
            verdict[test] = "other"
            others[test] = ",".join(aliases)
        elif text is not None and (cause := declaration_cascade(test, lines, text, ck)):
            verdict[test] = "other"
            others[test] = "cascade of " + cause
        elif text is not None and documented(test, lines, text):
            verdict[test] = "documented"
        elif stopped is not None:
            verdict[test] = "unread"
            others[test] = f"corefkit stopped reading at line {stopped}"
        else:
            verdict[test] = "missed"
            near = sorted({c for n in lines for c in ck_lines.get(n, ())})
            others[test] = "corefkit on that line: " + (",".join(near) or "nothing")
    ud_ids = set(ud.get("ids", {}))
    explained = {"corefud." + u for u in ud_ids} | {a for u in ud_ids
                                                   for a in UD_EQUIVALENTS.get(u, ())}
    ud_lines = {n for lines in ud.get("ids", {}).values() for n in lines}
    only = {c for c, s, line in ck if s == "error" and c not in explained
            and not (line is not None and line in ud_lines)}
    return verdict, others, only


KEPT_COMMENTS = ("# newdoc", "# global.Entity", "# sent_id", "# text", "# newpar")
KEPT_MISC = ("Entity=", "SplitAnte=", "Bridge=", "SpaceAfter=")


def shorten(text: str) -> str:
    """A file with only the comments and MISC items the tests look at (small fixtures)."""
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#"):
            if line.startswith(KEPT_COMMENTS) and not line.startswith("# newpar_"):
                out.append(line)
            continue
        fields = line.rstrip("\n").split("\t")
        if len(fields) == 10:
            items = [i for i in fields[9].split("|") if i.startswith(KEPT_MISC)]
            fields[9] = "|".join(items) or "_"
            line = "\t".join(fields) + "\n"
        out.append(line)
    return "".join(out)


def sample(base: list[Path], index: int, seed: int, kinds: list[str] | None = None,
           kept: int | None = -1, attempts: int = 20,
           short: bool = False) -> tuple[str, list[str], str] | None:
    """A mutated file: its text, the mutations made and the source file. ``kept``: the
    sentences kept (-1: random, None: all); ``short`` drops GUM's long summary comments."""
    rng = random.Random(seed * 1_000_003 + index)
    for _ in range(attempts):
        path = rng.choice(base)
        text = path.read_text(encoding="utf-8")
        if short:
            text = shorten(text)
        if kept == -1:
            kept_now = None if rng.random() < 0.15 else rng.randint(6, 50)
        else:
            kept_now = kept
        made = mutate(text, rng, list(kinds) if kinds else None, sentences_kept=kept_now)
        if made is not None:
            return made[0], made[1], f"{path.parent.name}/{path.name}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=500, help="mutated files (default 500)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="udvalidate runs at once (default 1)")
    parser.add_argument("--udvalidate", default=None, help="the UD validator's command")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per udvalidate run")
    parser.add_argument("--kinds", default=None,
                        help=f"comma list of mutation kinds (default: all {len(MUTATIONS)})")
    parser.add_argument("--keep-failures", default=None, metavar="DIR",
                        help="copy every file where corefkit misses a UD id here")
    parser.add_argument("--json", default=None, metavar="FILE", help="also write the table")
    parser.add_argument("--export", default=None, metavar="DIR",
                        help="write the regression sample (see the module doc) and stop")
    parser.add_argument("--verbose", "-v", action="count", default=0,
                        help="list the misses and corefkit-only errors file by file (-vv: and "
                        "the unread ones)")
    args = parser.parse_args()
    command = find_udvalidate(args.udvalidate)
    base = sorted(p for folder in FOLDERS for p in (CORPUS / folder).glob("*.conllu"))
    if not base:
        raise SystemExit(f"no CorefUD files in {CORPUS}")
    kinds = [k.strip() for k in args.kinds.split(",")] if args.kinds else None
    if kinds and any(k not in MUTATIONS for k in kinds):
        parser.error(f"unknown kind; known: {', '.join(MUTATIONS)}")
    if args.export:
        return export(Path(args.export), base, command, args.seed, args.timeout)

    started = time.time()
    work = Path(tempfile.mkdtemp(prefix="ud-diff-"))
    files = []
    for index in range(args.files):
        made = sample(base, index, args.seed, [random.Random(index).choice(kinds)]
                      if kinds else None)
        if made is None:
            continue
        text, done, source = made
        path = work / f"{index:05d}.conllu"
        path.write_text(text, encoding="utf-8", newline="")
        files.append((path, done, source))
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        ud_results = list(pool.map(lambda f: run_ud(command, f[0], args.timeout), files))

    found = Counter()
    verdicts: dict[str, Counter] = defaultdict(Counter)
    types: dict[str, str] = {}
    levels: dict[str, int] = {}
    other_ids: dict[str, Counter] = defaultdict(Counter)
    only: Counter = Counter()
    crashed = 0
    misses: list[str] = []
    extras: list[str] = []
    for (path, done, source), ud in zip(files, ud_results):
        if "crashed" in ud:
            crashed += 1
            if args.verbose:
                print(f"udvalidate failed on {path.name} ({'+'.join(done)}): {ud['crashed']}")
            continue
        ck, stopped = run_corefkit(path)
        text = path.read_text(encoding="utf-8", errors="replace").split("\n")
        verdict, others, ck_only = classify(ud, ck, stopped, text)
        types.update(ud["types"])
        levels.update(ud["levels"])
        for test, v in verdict.items():
            found[test] += 1
            verdicts[test][v] += 1
            if v == "other":
                other_ids[test][others[test]] += 1
            if v in ("missed", "unread") and (v == "missed" or args.verbose > 1):
                misses.append(f"[{v}] {path.name} {'+'.join(done)} ({source}): {test} "
                              f"line {ud['ids'][test][0]}; {others[test]}")
                if args.keep_failures:
                    Path(args.keep_failures).mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, Path(args.keep_failures) / path.name)
        for check in ck_only:
            only[check] += 1
            extras.append(f"{path.name} {'+'.join(done)} ({source}): {check}")
    shutil.rmtree(work, ignore_errors=True)

    print(f"UD validator: {ud_version(command)} ({command} --lang en --level 2 --coref)")
    print(f"{len(files)} mutated files (seed {args.seed}), {crashed} where udvalidate failed, "
          f"{time.time() - started:.0f} s\n")
    rows = sorted(found, key=lambda t: (levels.get(t, 9), t))
    width = max([len(t) for t in rows] + [12])
    header = (f"{'UD test id':<{width}}  lvl  type     UD  same  other  doc'd  unread  missed"
              "  other ids")
    print(header)
    print("-" * len(header))
    for test in rows:
        v = verdicts[test]
        common = ", ".join(f"{k} ({n})" for k, n in other_ids[test].most_common(2))
        print(f"{test:<{width}}  L{levels.get(test, 0)}   {types.get(test, '?'):<7} "
              f"{found[test]:>4}  {v['same']:>4}  {v['other']:>5}  {v['documented']:>5}  "
              f"{v['unread']:>6}  {v['missed']:>6}  {common}")
    total = Counter()
    for v in verdicts.values():
        total.update(v)
    print(f"\n{len(rows)} UD test ids met; incidents (file x id): {sum(found.values())}, "
          f"same id {total['same']}, other id {total['other']}, documented "
          f"{total['documented']}, unread {total['unread']}, missed {total['missed']}")
    print("(unread: corefkit refused the file at an earlier level-1 error and checked no more of "
          "it; documented: docs/deviations.md §8)")
    missed_ids = [t for t in rows if verdicts[t]["missed"]]
    print("UD ids corefkit misses somewhere: " + (", ".join(missed_ids) or "none"))
    print("\ncorefkit errors UD does not report (file count):")
    for check, n in only.most_common():
        print(f"  {check:<44} {n}")
    if not only:
        print("  none")
    if args.verbose:
        print("\nmisses:")
        print("\n".join(f"  {m}" for m in misses) or "  none")
        print("\ncorefkit-only errors:")
        print("\n".join(f"  {m}" for m in extras) or "  none")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "validator": ud_version(command), "files": len(files), "seed": args.seed,
            "rows": {t: {"level": levels.get(t), "type": types.get(t), "ud": found[t],
                         **verdicts[t], "other_ids": dict(other_ids[t])} for t in rows},
            "corefkit_only": dict(only)}, indent=1))
    return 0


def export(folder: Path, base: list[Path], command: str, seed: int, timeout: float) -> int:
    """The regression sample: per mutation kind, a small file (the first 3 sentences of a
    file, its comments and MISC cut to what the tests read) and, per UD id found in it, how
    corefkit reports it: its verdict and the corefkit ids that match it (``via``), which the
    test requires again."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.conllu"):
        old.unlink()
    expected = {}
    for n, kind in enumerate(MUTATIONS):
        for copy in range(1):
            made = sample(base, n * 2 + copy, seed, [kind], kept=3, attempts=80, short=True)
            if made is None:
                continue
            text, done, source = made
            name = f"{n:02d}{'ab'[copy]}-{kind}.conllu"
            path = folder / name
            path.write_text(text, encoding="utf-8", newline="")
            ud = run_ud(command, path, timeout)
            if "crashed" in ud:
                path.unlink()
                continue
            ck, stopped = run_corefkit(path)
            lines = text.split("\n")
            verdict, others, _ = classify(ud, ck, stopped, lines)
            found = {c for c, _, _ in ck}
            rejection = next((c for c, _, n in ck if n == stopped), None) \
                if stopped is not None else None
            record = {}
            for test in sorted(ud["ids"]):
                v = verdict[test]
                via = ["corefud." + test] if v == "same" else \
                    [c for c in UD_EQUIVALENTS.get(test, ()) if c in found] or \
                    others.get(test, "").removeprefix("cascade of ").split(",") \
                    if v == "other" else [rejection] if v == "unread" and rejection else []
                record[test] = {"type": ud["types"][test], "verdict": v, "via": via}
            expected[name] = {"mutations": done, "source": source, "ud": record}
    (folder / "expected.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
    missed = sorted({t for r in expected.values() for t, x in r["ud"].items()
                     if x["verdict"] == "missed"})
    print(f"{len(expected)} files in {folder}; {ud_version(command)}; missed: "
          f"{', '.join(missed) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
