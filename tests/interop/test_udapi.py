"""corefkit ↔ udapi: what corefkit reads from every GUM file equals what udapi reads, and a
corefkit document handed to udapi comes back unchanged."""

from __future__ import annotations

import functools
import logging
import subprocess
import sys
from pathlib import Path

import pytest

import corefkit
from corefkit.converters.corefud.misc import COREF_KEYS
from corefkit.model import Document
from tests.conftest import CONFORMANCE, CORPORA, ROOT

udapi_document = pytest.importorskip("udapi.core.document")
from corefkit.interop.udapi import from_udapi, to_udapi  # noqa: E402

DEP = sorted((CORPORA / "gum" / "dep").glob("*.conllu"))


@pytest.fixture(autouse=True)
def quiet_udapi():
    logging.disable(logging.WARNING)  # udapi warns about GUM's head-less declaration
    yield
    logging.disable(logging.NOTSET)


@functools.lru_cache(maxsize=None)
def udapi_reads(path: Path) -> list[Document]:
    """What udapi reads from a file, as corefkit documents (udapi is slow: read once)."""
    return from_udapi(udapi_document.Document(str(path)))


def misc_without_coreference(misc: str | None) -> str:
    items = [i for i in (misc or "_").split("|")
             if i != "_" and i.partition("=")[0] not in COREF_KEYS]
    return "|".join(items) or "_"


def content(doc: Document) -> dict:
    chain = {e: tuple(sorted(m.tokens for m in doc.mentions_of(e))) for e in doc.entities}
    return {
        "id": doc.id,
        "meta": dict(doc.meta),
        "tokens": [(t.id, t.form, t.lemma, t.upos, t.xpos, t.feats,
                    "_" if t.is_empty else t.head, "_" if t.is_empty else t.deprel, t.deps,
                    misc_without_coreference(t.misc), t.is_empty, t.attrs.get("conllu_mwt"))
                   for t in doc.tokens],
        "sentences": [(s.start, s.stop, s.sent_id) for s in doc.sentences],
        "mentions": sorted((m.tokens, m.min_tokens,
                            sorted((k, str(v)) for k, v in m.attrs.items() if not k.startswith("_")))
                           for m in doc.mentions),
        "partition": sorted(chain.values()),
        "entities": sorted((chain[e], e.attrs.get("etype"), e.attrs.get("identity"))
                           for e in doc.entities),
        "sets": sorted((chain[s.member], chain[s.set_entity]) for s in doc.memberships()),
        "bridging": sorted((b.anaphor.tokens, chain[b.anchor], b.relation or "")
                           for b in doc.bridging()),
    }


def heads_agree(mine: Document, theirs: Document) -> None:
    """corefkit leaves GUM's missing heads empty; udapi takes the first word (flagged derived)."""
    by_tokens = {m.tokens: m for m in theirs.mentions}
    for m in mine.mentions:
        other = by_tokens[m.tokens]
        if m.head is None:
            assert other.head == m.tokens[0] and other.head_derived
        else:
            assert other.head == m.head


@pytest.mark.parametrize("path", DEP, ids=lambda p: p.stem)
def test_corefkit_reads_what_udapi_reads(path: Path):
    mine = list(corefkit.read(path))
    theirs = udapi_reads(path)
    assert len(mine) == len(theirs) == 1
    assert content(mine[0]) == content(theirs[0])
    heads_agree(mine[0], theirs[0])


@pytest.mark.parametrize("path", DEP, ids=lambda p: p.stem)
def test_to_udapi_gives_what_udapi_reads_from_the_file(path: Path):
    mine = list(corefkit.read(path))
    handed_over = from_udapi(to_udapi(mine))
    from_file = udapi_reads(path)
    assert [content(d) for d in handed_over] == [content(d) for d in from_file]


def test_udapi_blocks_run_on_documents_from_another_format():
    """A CoNLL-2012 document (no trees, no heads) becomes a valid udapi document in the
    CorefUD profile; udapi's own coreference API sees the same chains."""
    key = CONFORMANCE / "data/reference-coreference-scorers/DataFiles/TC-A.key"
    (doc,) = corefkit.read(key)
    udoc = to_udapi(doc, profile="corefud")
    assert udoc.meta["global.Entity"] == "eid-etype-head-other"
    chains = sorted(sorted(len(m.words) for m in e.mentions) for e in udoc.coref_entities)
    assert chains == sorted(sorted(len(m.tokens) for m in doc.mentions_of(e))
                            for e in doc.entities)
    (back,) = from_udapi(udoc, name="TC-A")
    assert content(back)["partition"] == content(doc)["partition"]


def test_corefkit_does_not_import_udapi_at_module_load():
    code = ("import sys, corefkit, corefkit.interop.udapi, corefkit.converters.corefud.reader, "
            "corefkit.converters.corefud.writer; "
            "import corefkit.scoring.api, corefkit.cli.main; "
            "print('udapi' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
