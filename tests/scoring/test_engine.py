"""The scoring engine (issue 14): one pipeline, the same exact counts serially, in processes
and on a Dask cluster; the metric registry's contract; streaming pairing."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest

import corefkit
from corefkit.errors import UsageError
from corefkit.scoring.engine import Pairing, Reduced, pair_documents, score_document
from corefkit.scoring.config import ScoreConfig
from corefkit.scoring.metrics import registry
from tests.conftest import CONFORMANCE, CORPORA

REAL = CONFORMANCE / "real" / "data"
GUM = CORPORA / "gum" / "dep"
CODI = CORPORA / "codi-crac22"


def exact(report) -> dict[str, tuple[Fraction, Fraction, Fraction]]:
    return {name: (m.recall, m.precision, m.f1) if m.counts is not None else (None, None, m.f1)
            for name, m in report.metrics.items()}


def perturbed_copy(source: Path, target: Path) -> None:
    """A response: the key with every third mention dropped and two entities merged."""
    docs = list(corefkit.read(source))
    out = []
    for doc in docs:
        copy = doc.copy()
        for n, mention in enumerate(list(copy.mentions)):
            if n % 3 == 0 and copy.entity_of(mention) is not None \
                    and len(copy.mentions_of(copy.entity_of(mention))) > 1:
                copy.remove_mention(mention)
        out.append(copy)
    corefkit.write(out, target)


@pytest.fixture(scope="module")
def corpora(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Key and response folders of several files for each semantics."""
    root = tmp_path_factory.mktemp("engines")
    made = {}
    for name, files in (("corefud", sorted(GUM.glob("*.conllu"))[:6]),
                        ("ua", sorted(CODI.glob("*.CONLLUA"))),
                        ("reference", sorted((CORPORA / "litbank").glob("*.conll"))[:4])):
        keys, responses = root / name / "key", root / name / "response"
        keys.mkdir(parents=True)
        responses.mkdir(parents=True)
        for file in files:
            shutil.copy(file, keys / file.name)
            perturbed_copy(file, responses / file.name)
        made[name] = (keys, responses)
    return made


@pytest.mark.parametrize("semantics", ["reference", "corefud", "ua"])
def test_serial_processes_and_dask_give_the_same_exact_fractions(corpora, semantics):
    keys, responses = corpora[semantics]
    serial = corefkit.score(keys, responses, jobs=1)
    processes = corefkit.score(keys, responses, jobs=2)
    assert serial.options["semantics"].startswith({"reference": "reference", "corefud": "corefud",
                                                   "ua": "ua"}[semantics])
    assert exact(processes) == exact(serial)
    assert processes.documents == serial.documents
    pytest.importorskip("dask.distributed")
    dask = corefkit.score(keys, responses, engine="dask", jobs=2)
    assert exact(dask) == exact(serial) and dask.documents == serial.documents


def test_one_file_each_side_reads_in_two_processes(corpora):
    keys, responses = corpora["reference"]
    key = next(keys.iterdir())
    response = responses / key.name
    assert exact(corefkit.score(key, response, jobs=2)) == exact(corefkit.score(key, response,
                                                                                jobs=1))


def test_errors_from_worker_processes_are_the_same_one_line(tmp_path):
    key = CORPORA / "litbank" / "105_persuasion_brat.conll"
    broken = tmp_path / "broken.conll"
    broken.write_text(key.read_text().replace("#end document", ""))
    for jobs in (1, 2):
        with pytest.raises(corefkit.errors.FormatError, match="conll.missing-end|#end document"):
            corefkit.score(key, broken, jobs=jobs)


def test_score_document_is_pure_and_picklable():
    import pickle

    key = next(iter(corefkit.read(GUM / "GUM_letter_arendt.conllu")))
    config = ScoreConfig.build(detected_format="corefud", metrics="all")
    first = score_document(key, key, config)
    again = pickle.loads(pickle.dumps(score_document(key, key, pickle.loads(
        pickle.dumps(config)))))
    assert first.counts.keys() == again.counts.keys()
    assert all(first.counts[m].f1 == again.counts[m].f1 == 1 for m in ("muc", "bcub", "lea"))


@pytest.mark.parametrize("name", sorted(registry.known()))
def test_every_metric_has_its_ua_generalization_or_is_refused(name):
    spec = registry.get(name)
    key = CODI / "AMI_dev_v2.2022.ES2004a.CONLLUA"
    if spec.family == registry.ALIGNMENT and "ua" not in spec.semantics:
        return  # defined for another semantics (refused by its own rule)
    if spec.scores_splits():
        report = corefkit.score(key, key, metrics=name, semantics="ua")
        assert name in report.metrics
    else:
        with pytest.raises(UsageError, match="cannot score split antecedents"):
            corefkit.score(key, key, metrics=name, semantics="ua")
        # with split antecedents removed, the sets are gone and the metric is defined
        report = corefkit.score(key, key, metrics=name, semantics="ua",
                                remove_split_antecedents=True)
        assert name in report.metrics


def test_a_new_partition_metric_is_one_function_and_one_registration():
    from corefkit.scoring.metrics.standard import Counts

    def entities(key, response, table):  # count entities found with exactly the key's mentions
        exact_matches = sum(
            1 for k, r, n in zip(table.pair_key, table.pair_response, table.pair_common)
            if n == table.key_sizes[k] == table.response_sizes[r])
        return Counts(exact_matches, len(table.key_sizes), exact_matches,
                      len(table.response_sizes))

    registry.register_metric(registry.MetricSpec("exact_entities", "entities found exactly",
                                                 registry.PARTITION, entities))
    try:
        data = CONFORMANCE / "data/reference-coreference-scorers/DataFiles"
        report = corefkit.score(data / "TC-A.key", data / "TC-A.key", metrics="exact_entities")
        assert report.metrics["exact_entities"].f1 == 1
        assert "exact_entities" in report.to_json()["metrics"]
    finally:
        registry.unregister_metric("exact_entities")


def test_pairing_streams_documents_in_the_same_order():
    class Doc:
        def __init__(self, name: str) -> None:
            self.name, self.pair_key = name, (name, "0")

    read: list[str] = []

    def responses():
        for name in ("a", "b", "c", "d"):
            read.append(name)
            yield Reduced(Doc(name))

    pairing = Pairing()
    stream = pair_documents((Reduced(Doc(n)) for n in ("a", "b", "c")), responses(), pairing)
    key, answer = next(stream)
    assert (key.name, answer.name, read) == ("a", "a", ["a"])  # nothing read ahead
    rest = list(stream)
    assert [(k.name, a.name) for k, a in rest] == [("b", "b"), ("c", "c")]
    assert [d.name for d in pairing.extra] == ["d"]


def test_pairing_out_of_order_waits_in_an_index():
    class Doc:
        def __init__(self, name: str) -> None:
            self.name, self.pair_key = name, (name, "0")

    pairing = Pairing()
    pairs = list(pair_documents([Reduced(Doc(n)) for n in ("c", "a", "x")],
                                [Reduced(Doc(n)) for n in ("a", "b", "c")], pairing))
    assert [(k.name, a.name if a else None) for k, a in pairs] == [("c", "c"), ("a", "a"),
                                                                  ("x", None)]
    assert [d.name for d in pairing.extra] == ["b"] and [d.name for d in pairing.missing] == ["x"]


@pytest.mark.parametrize("keys,responses", [
    ("aXbXc", "aXbXc"), ("aXbXc", "XXabc"), ("XaXbc", "cbXaX"), ("XXX", "XX"), ("XX", "XXX"),
    ("aXXbX", "XbXXa")])
def test_pairing_pairs_the_nth_document_of_a_name_with_the_nth(keys, responses):
    """Names the pairing has fully paired are forgotten (memory bounded by the documents read
    ahead, not the corpus); repeated names still pair n-th with n-th, in and out of order."""
    class Doc:
        def __init__(self, name: str, n: int) -> None:
            self.name, self.pair_key, self.n = name, (name, "0"), n

    def numbered(names: str) -> list[Reduced]:
        seen: dict[str, int] = {}
        out = []
        for name in names:
            seen[name] = seen.get(name, 0) + 1
            out.append(Reduced(Doc(name, seen[name])))
        return out

    pairing = Pairing()
    pairs = list(pair_documents(numbered(keys), numbered(responses), pairing))
    for key, answer in pairs:
        if answer is not None:
            assert (key.doc.name, key.doc.n) == (answer.doc.name, answer.doc.n)
    paired = sum(1 for _, a in pairs if a is not None)
    common = sum(min(keys.count(c), responses.count(c)) for c in set(keys))
    assert paired == common
    assert len(pairing.missing) == len(keys) - common
    assert len(pairing.extra) == len(responses) - common


@pytest.fixture(scope="module")
def one_file_pair(corpora, tmp_path_factory) -> tuple[Path, Path]:
    """Four LitBank documents as one key file and their responses as one response file."""
    keys, responses = corpora["reference"]
    root = tmp_path_factory.mktemp("one-file")
    key, response = root / "key.conll", root / "response.conll"
    key.write_text("".join(p.read_text() for p in sorted(keys.iterdir())))
    response.write_text("".join(p.read_text() for p in sorted(responses.iterdir())))
    return key, response


def test_one_file_pair_is_scored_in_document_shards(one_file_pair):
    """--jobs 2 on one key file and one response file: each worker reads and scores a byte
    range of both files holding the same whole documents; the ranges tile the files and
    number their lines as the files do; the fractions equal the serial run's."""
    from corefkit.converters.io import line_at
    from corefkit.scoring.shards import document_shards

    key, response = one_file_pair
    shards = document_shards(str(key), str(response), 2)
    assert shards is not None and len(shards) == 2
    names = []
    for side, path in ((0, key), (1, response)):
        data = path.read_bytes()
        ranges = [shard[side] for shard in shards]
        assert ranges[0].start == 0 and ranges[-1].stop == len(data)
        assert all(a.stop == b.start for a, b in zip(ranges, ranges[1:]))
        for r in ranges[1:]:  # the worker counts the lines before its range
            assert data[r.start:].startswith(b"#begin document")
            assert line_at(str(path), r.start) == data[:r.start].count(b"\n") + 1
        names.append([data[r.start:data.index(b"\n", r.start)] for r in ranges])
    assert names[0] == names[1]
    assert exact(corefkit.score(key, response, jobs=2)) == exact(corefkit.score(key, response,
                                                                                jobs=1))


def test_documents_in_another_order_are_not_sharded_and_score_the_same(one_file_pair, tmp_path):
    from corefkit.scoring.shards import document_shards

    key, response = one_file_pair
    docs = response.read_text().split("#begin document")[1:]
    shuffled = tmp_path / "shuffled.conll"
    shuffled.write_text("".join("#begin document" + d for d in reversed(docs)))
    assert document_shards(str(key), str(shuffled), 2) is None
    assert exact(corefkit.score(key, shuffled, jobs=2)) == exact(corefkit.score(key, shuffled,
                                                                               jobs=1))


def test_an_error_in_a_later_shard_names_the_files_own_line(one_file_pair, tmp_path):
    key, response = one_file_pair
    lines = response.read_text().splitlines(keepends=True)
    last_begin = max(i for i, line in enumerate(lines) if line.startswith("#begin document"))
    target = next(i for i in range(last_begin + 1, len(lines)) if lines[i].strip())
    lines[target] = lines[target].rstrip("\n").rsplit("\t", 1)[0] + "\t(7(\n"
    broken = tmp_path / "broken.conll"
    broken.write_text("".join(lines))
    messages = []
    for jobs in (1, 2):
        with pytest.raises(corefkit.errors.FormatError) as error:
            corefkit.score(key, broken, jobs=jobs)
        messages.append(str(error.value))
    assert messages[0] == messages[1] and f":{target + 1}:" in messages[0]


def test_invalid_utf8_in_a_later_shard_is_found_in_the_whole_file(one_file_pair, tmp_path):
    key, response = one_file_pair
    data = response.read_bytes()
    last_begin = data.rindex(b"#begin document")
    cut = data.index(b"\n", data.index(b"\n", last_begin) + 1) - 2
    broken = tmp_path / "latin1.conll"
    broken.write_bytes(data[:cut] + b"\xe9" + data[cut + 1:])
    messages = []
    for jobs in (1, 2):
        with pytest.raises(corefkit.errors.FormatError, match="invalid UTF-8") as error:
            corefkit.score(key, broken, jobs=jobs)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_a_response_without_any_mention_is_said_not_a_silent_zero(tmp_path):
    # found by the mutation sweep (issue 22): a brat .ann of blank lines scored 0.00, exit 0,
    # without a word
    import shutil

    import corefkit
    from tests.conftest import SHARED

    brat = SHARED / "corpora" / "litbank-brat"
    stem = "1064_the_masque_of_the_red_death_brat"
    for side in ("key", "response"):
        (tmp_path / side).mkdir()
        for ext in (".ann", ".txt"):
            shutil.copy(brat / (stem + ext), tmp_path / side / (stem + ext))
    key, response = tmp_path / "key" / f"{stem}.ann", tmp_path / "response" / f"{stem}.ann"
    assert not [w for w in corefkit.score(key, key).warnings
                if getattr(w, "check", "") == "score.no-mentions"]
    response.write_text("\n\n\n")
    said = [str(w) for w in corefkit.score(key, response).warnings
            if getattr(w, "check", "") == "score.no-mentions"]
    assert said == ["warning: the response holds no mention in any of its 1 document(s) "
                    "(after the settings' passes): every score is 0 (score.no-mentions)"]
