"""Every command's ``--help``: a summary, then 2-4 examples that run, then options in groups.

The examples name the files a user has (``key.conll``, ``corpus/``); here they are run in a
sandbox where those names are the bundled examples and real corpora of ``../shared``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import click
import pytest

from corefkit.cli.help import FORMAT_GROUP, GROUPS, OTHER, Command
from corefkit.cli.main import COMMANDS, EXAMPLES, SUMMARIES, cli
from tests.conftest import CONFORMANCE, CORPORA, ROOT
from tests.docs.runner import Sandbox, corefkit

DEMO = ROOT / "examples" / "conll2012"
# a CorefUD key and two perturbed responses, a seventh of GUM's size: the first documents of
# the GUM conformance pair that pass validation on every side (the zero-bearing datasets of
# shared/ break UD level 2 rules, which every command refuses by default: issue 22), so that
# each example runs as a user runs it, without --lenient
GUM_PAIR = CONFORMANCE / "real" / "data" / "gum-corefud"
GUM_DOCUMENTS = 6
CODI = CONFORMANCE / "real" / "data" / "codi-crac22"
GAP = CORPORA / "jsonlines" / "gap" / "gap-validation.tsv"

# the file names of the examples -> what they are in the sandbox
FILES = {
    "key.conll": DEMO / "key.conll",
    "response.conll": DEMO / "response.conll",
    "keys/key.conll": DEMO / "key.conll",
    "responses/response.conll": DEMO / "response.conll",
    "corpus/key.conll": DEMO / "key.conll",
    "corpus/response.conll": DEMO / "response.conll",
    "key.CONLLUA": CODI / "AMI_dev_v2.2022.ES2004a.CONLLUA",
    "gap.tsv": GAP,
    "my-types.json": ROOT / "corefkit" / "schemas" / "mention-types.json",
}


def command(name: str) -> click.Command:
    found = cli.get_command(click.Context(cli), name)
    assert found is not None
    return found


def help_text(args: list[str]) -> str:
    code, out, err = corefkit([*args, "--help"])
    assert code == 0 and err == "", err
    return out


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    box = Sandbox.make(tmp_path_factory.mktemp("help"))
    for name, source in FILES.items():
        (box.folder / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, box.folder / name)
    _valid_gum_documents(box.folder)
    # a system's clusters over the GAP texts, and its prediction file
    for line in ("corefkit convert gap.tsv system.conll -q",
                 "corefkit convert system.conll predictions.tsv --gap-gold gap.tsv -q"):
        assert box.run(line)[0] == 0, line
    return box


def _documents(path: Path) -> list[tuple[str, str]]:
    """(id, text) of each document of a CoNLL-U file, split at its ``# newdoc`` lines."""
    parts = path.read_text(encoding="utf-8").split("# newdoc id = ")[1:]
    return [(part.split("\n", 1)[0].strip(), "# newdoc id = " + part) for part in parts]


def _valid_gum_documents(folder: Path) -> None:
    """key.conllu, response.conllu and other.conllu: the first GUM_DOCUMENTS documents of the
    GUM key and its mild and heavy responses that validate without an error on all sides."""
    from corefkit.validation import validate

    sides = {"key.conllu": "key.conllu", "response.conllu": "response-mild.conllu",
             "other.conllu": "response-heavy.conllu"}
    texts = {name: _documents(GUM_PAIR / source) for name, source in sides.items()}
    refused = {f.document for source in sides.values()
               for f in validate(GUM_PAIR / source) if f.is_error}
    chosen = [i for i, (doc, _) in enumerate(texts["key.conllu"]) if doc not in refused]
    chosen = chosen[:GUM_DOCUMENTS]
    assert len(chosen) == GUM_DOCUMENTS
    for name, documents in texts.items():
        assert [documents[i][0] for i in chosen] == [texts["key.conllu"][i][0] for i in chosen]
        (folder / name).write_text("".join(documents[i][1] for i in chosen), encoding="utf-8")


def test_the_group_lists_every_command_without_importing_it():
    out = help_text([])
    assert out.index("Examples:") < out.index("Commands:")
    for name in COMMANDS:
        assert f"  {name} " in out
    assert list(SUMMARIES) == list(COMMANDS)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_summary_is_the_commands_first_line(name: str):
    found = command(name)
    assert isinstance(found, Command)
    assert found.summary_and_rest()[0] == SUMMARIES[name]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_help_starts_with_examples_and_groups_its_options(name: str):
    found = command(name)
    assert isinstance(found, Command)
    assert 2 <= len(found.examples) <= 4
    out = help_text([name])
    lines = out.splitlines()
    # usage, the summary, then the examples
    assert lines[0].startswith(f"Usage: corefkit {name}")
    at = lines.index("Examples:")
    assert " ".join(" ".join(lines[1:at]).split()) == SUMMARIES[name]
    assert lines[at + 1:at + 1 + len(found.examples)] == [f"  {e}" for e in found.examples]
    sections = [line[:-1] for line in lines if line.endswith("options:") and
                not line.startswith(" ")]
    assert sections and set(sections) <= set(GROUPS)
    assert sections == [title for title in GROUPS if title in sections]  # in GROUPS' order
    assert "Options:" not in lines and OTHER not in sections  # nothing ungrouped
    if any(p.name and p.name.startswith("format_") for p in found.params):
        assert sections[-1] == FORMAT_GROUP


def test_the_one_side_format_options_share_the_row_of_the_option():
    out = help_text(["score"])
    lines = out.splitlines()
    assert "  --layer, --key-layer, --response-layer LAYER" in lines
    assert "  --parse-gum-ids, --key-parse-gum-ids, --response-parse-gum-ids" in lines
    assert "--key-NAME and --response-NAME" in out
    # no one-side copy has a row of its own (before, each did: 165 lines for eleven formats)
    formats = out.split("Format options:", 1)[1]
    assert not [line for line in formats.splitlines()
                if line.startswith(("  --key-", "  --response-"))]
    assert out.split("Input options:", 1)[1].count("--key-layer") == 1


def test_the_one_side_format_options_still_work(sandbox: Sandbox):
    code, out, err = sandbox.run("corefkit score key.conll key.conll "
                                 "--key-parse-gum-ids -m muc -q")
    assert code == 0, err


EXAMPLE_RUNS = [(name, example) for name in COMMANDS for example in command(name).examples]
EXAMPLE_RUNS += [("(group)", example) for example in EXAMPLES]


@pytest.mark.parametrize(("name", "example"), EXAMPLE_RUNS,
                         ids=[f"{n}-{i}" for i, (n, _) in enumerate(EXAMPLE_RUNS)])
def test_every_example_runs(name: str, example: str, sandbox: Sandbox):
    code, out, err = sandbox.run(example)
    assert code == 0, f"{example}: {err}"


def test_the_groups_help_imports_no_command_and_no_format():
    """``corefkit --help`` lists the commands from SUMMARIES: no command module, and through
    the format options no format spec, is imported for it."""
    import subprocess
    import sys

    probe = ("import sys; from corefkit.cli.main import main; main(['--help']); "
             "print(sorted(m for m in sys.modules if m.startswith(('corefkit.cli.', "
             "'corefkit.converters'))))")
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           cwd=ROOT, check=True).stdout.splitlines()[-1]
    assert found == "['corefkit.cli.help', 'corefkit.cli.main']"
