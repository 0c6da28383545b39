#!/usr/bin/env python3
"""Run the CorefUD scorer 1.2 in many modes on several responses, in one process.

Test tooling of the differential harness (not product code); run it with the peer's own venv:

    PEER/venv/bin/python corefud_modes.py PEER/src KEY RESPONSE... -- MODE_JSON

``MODE_JSON`` is a JSON list of option lists (``[["-a", "head", "-z", "dependent"], ...]``).
For every response and every mode it calls the peer's unmodified command line
(``corefud-scorer.py``'s ``main()`` with that ``sys.argv``) and records what its
``evaluate_documents`` returns, at full precision, as
``../shared/conformance/real/tools/corefud_fullprec.py`` does for one run. The only difference
is speed: a file is read by udapi once and handed to every later run (the scorer never changes
the documents it reads), which the harness checks against the one-run driver
(``--check-driver``). A run that raises is recorded as ``{"error": ...}``.

Prints one JSON object: ``{RESPONSE: {MODE_INDEX: {metric: [R, P, F1]} | {"error": text}}}``.
"""
import contextlib
import importlib.util
import io
import json
import logging
import os
import sys
import traceback

src = sys.argv[1]
split = sys.argv.index("--")
key, responses = sys.argv[2], sys.argv[3:split]
modes = json.loads(sys.argv[split + 1])
sys.path.insert(0, src)
logging.disable(logging.CRITICAL)

from scorer.corefud import reader as corefud_reader  # noqa: E402
from scorer.eval import evaluator  # noqa: E402

loaded = {}
original_load = corefud_reader.CorefUDReader.load_conllu


def cached_load(self, file_path):
    if file_path not in loaded:
        loaded[file_path] = original_load(self, file_path)
    return loaded[file_path]


corefud_reader.CorefUDReader.load_conllu = cached_load
records = []
original_evaluate = evaluator.evaluate_documents


def recording_evaluate(doc_infos, metric, *args, **kwargs):
    result = original_evaluate(doc_infos, metric, *args, **kwargs)
    records.append([float(x) for x in result])
    return result


evaluator.evaluate_documents = recording_evaluate
path = os.path.join(src, "corefud-scorer.py")
spec = importlib.util.spec_from_file_location("corefud_scorer_cli", path)
module = importlib.util.module_from_spec(spec)
with contextlib.redirect_stdout(io.StringIO()):
    spec.loader.exec_module(module)
out = {}
for response in responses:
    found = out.setdefault(response, {})
    for n, options in enumerate(modes):
        records.clear()
        printed = io.StringIO()
        sys.argv = [path, key, response, *options]
        try:
            with contextlib.redirect_stdout(printed):
                module.main()
        except BaseException as error:  # the peer's crash is a finding, recorded as such
            found[str(n)] = {"error": f"{type(error).__name__}: {error}"[:300],
                             "trace": traceback.format_exc()[-600:]}
            continue
        lines = printed.getvalue().split("\n")
        names = [line.strip() for i, line in enumerate(lines)
                 if i + 1 < len(lines) and lines[i + 1].startswith("Recall:")]
        found[str(n)] = dict(zip(names, records))
json.dump(out, sys.stdout)
