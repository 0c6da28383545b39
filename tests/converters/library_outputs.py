"""Documents written as NLP libraries write their output, over raw text in other tokens.

A key document's words are laid out as running text (no space before closing punctuation,
none after opening brackets, one space elsewhere) and tokenized again as a library would
(``\\w+`` runs and single other characters, cut where a mention starts or ends); each identity
mention keeps exactly its characters. :func:`write` gives that text and those tokens the shape
of each library's output file: fastcoref and Maverick jsonlines, spaCy's ``Doc.to_json()``,
Stanza's CoNLL-U and JSON, CoreNLP's XML and JSON. Used by the property test: reading such a
file and scoring it (aligned) against the key gives what the key gives against itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from corefkit.model import IDENTITY, Document

TOKEN_RE = re.compile(r"\w+|[^\w\s]")
CLOSING = set(".,;:!?)]}%'\"”’")
OPENING = set("([{“‘$")


@dataclass
class Layout:
    text: str
    tokens: list[tuple[int, int]]             # response tokens, characters
    sentences: list[tuple[int, int]]          # response token ranges (end exclusive)
    clusters: list[list[tuple[int, int]]]     # response token spans (inclusive), per entity


def layout(key: Document) -> Layout:
    words = [t for t in key.tokens if not t.is_empty]
    pieces, spans, position = [], {}, 0
    previous = ""
    for token in words:
        form = token.form
        glue = not pieces or form[:1] in CLOSING and len(form) <= 2 or previous[-1:] in OPENING
        if not glue:
            pieces.append(" ")
            position += 1
        spans[token.index] = (position, position + len(form))
        pieces.append(form)
        position += len(form)
        previous = form
    text = "".join(pieces)
    chars = []
    for entity in key.entities_in(IDENTITY):
        cluster = []
        for m in key.mentions_of(entity):
            visible = [t for t in m.tokens if t in spans]
            if visible:
                cluster.append((spans[visible[0]][0], spans[visible[-1]][1]))
        if cluster:
            chars.append(cluster)
    cuts = sorted({c for cluster in chars for span in cluster for c in span})
    tokens = []
    for match in TOKEN_RE.finditer(text):
        start, end = match.span()
        for cut in cuts:
            if start < cut < end:
                tokens.append((start, cut))
                start = cut
        tokens.append((start, end))
    starts = {s: i for i, (s, _) in enumerate(tokens)}
    ends = {e: i for i, (_, e) in enumerate(tokens)}
    clusters = [[(starts[s], ends[e]) for s, e in cluster] for cluster in chars]
    sentence_of_char = {}
    for sentence in key.sentences:
        indices = [i for i in sentence.token_indices() if i in spans]
        if indices:
            sentence_of_char[spans[indices[0]][0]] = sentence.index
    sentences, first = [], 0
    for i, (s, _) in enumerate(tokens):
        if i and s in sentence_of_char:
            sentences.append((first, i))
            first = i
    sentences.append((first, len(tokens)))
    return Layout(text, tokens, sentences, clusters)


def _forms(lay: Layout) -> list[str]:
    return [lay.text[s:e] for s, e in lay.tokens]


def fastcoref(lay: Layout) -> str:
    clusters = [[[lay.tokens[a][0], lay.tokens[b][1]] for a, b in c] for c in lay.clusters]
    return json.dumps({"text": lay.text, "clusters": clusters,
                       "clusters_strings": [[lay.text[s:e] for s, e in c] for c in clusters]})


def maverick(lay: Layout) -> str:
    forms = _forms(lay)
    chars = [[[lay.tokens[a][0], lay.tokens[b][1] - 1] for a, b in c] for c in lay.clusters]
    return json.dumps({
        "tokens": forms,
        "clusters_token_offsets": [[[a, b] for a, b in c] for c in lay.clusters],
        "clusters_char_offsets": chars,
        "clusters_token_text": [[" ".join(forms[a:b + 1]) for a, b in c] for c in lay.clusters],
        "clusters_char_text": [[lay.text[s:e + 1] for s, e in c] for c in chars],
        "text": lay.text})


def spacy(lay: Layout) -> str:
    return json.dumps({
        "text": lay.text,
        "sents": [{"start": lay.tokens[a][0], "end": lay.tokens[b - 1][1]}
                  for a, b in lay.sentences],
        "tokens": [{"id": i, "start": s, "end": e} for i, (s, e) in enumerate(lay.tokens)],
        "spans": {f"coref_clusters_{n}": [{"start": lay.tokens[a][0], "end": lay.tokens[b][1],
                                           "label": "", "kb_id": ""} for a, b in c]
                  for n, c in enumerate(lay.clusters, 1)}})


def _attachments(lay: Layout) -> dict[int, list[tuple[str, int]]]:
    """Stanza's attachments per token: (position, chain) — the representative is the longest
    mention, ties to the earliest."""
    found: dict[int, list[tuple[str, int]]] = {}
    for n, cluster in enumerate(lay.clusters):
        best = max(range(len(cluster)), key=lambda k: (cluster[k][1] - cluster[k][0], -k))
        for k, (a, b) in enumerate(cluster):
            repr_ = "repr-" if k == best else ""
            for i in range(a, b + 1):
                position = "unit" if a == b else "start" if i == a else "end" if i == b \
                    else "middle"
                found.setdefault(i, []).append((f"{position}-{repr_}id{n}", n))
    return found


def stanza(lay: Layout) -> str:
    found = _attachments(lay)
    lines = []
    for number, (a, b) in enumerate(lay.sentences):
        lines.append(f"# text = {lay.text[lay.tokens[a][0]:lay.tokens[b - 1][1]]}")
        lines.append(f"# sent_id = {number}")
        for i in range(a, b):
            s, e = lay.tokens[i]
            misc = f"start_char={s}|end_char={e}"
            if i in found:
                misc += "|coref_chains=" + ",".join(x for x, _ in found[i])
            lines.append("\t".join([str(i - a + 1), lay.text[s:e], "_", "_", "_", "_",
                                    str(i - a), "_", "_", misc]))
        lines.append("")
    return "\n".join(lines) + "\n"


def stanza_json(lay: Layout) -> str:
    found = _attachments(lay)
    texts = {}
    for n, cluster in enumerate(lay.clusters):
        best = max(range(len(cluster)), key=lambda k: (cluster[k][1] - cluster[k][0], -k))
        a, b = cluster[best]
        texts[n] = lay.text[lay.tokens[a][0]:lay.tokens[b][1]]
    sentences = []
    for a, b in lay.sentences:
        words = []
        for i in range(a, b):
            s, e = lay.tokens[i]
            word = {"id": i - a + 1, "text": lay.text[s:e], "start_char": s, "end_char": e}
            chains = []
            for spelled, n in found.get(i, []):
                entry = {"index": n, "representative_text": texts[n]}
                position = spelled.split("-")[0]
                if position in ("unit", "start"):
                    entry["is_start"] = True
                if position in ("unit", "end"):
                    entry["is_end"] = True
                if "-repr-" in spelled:
                    entry["is_representative"] = True
                chains.append(entry)
            if chains:
                word["coref_chains"] = chains
            words.append(word)
        sentences.append(words)
    return json.dumps(sentences, indent=1)


def _sentence_spans(lay: Layout) -> list[tuple[int, int, int, int]]:
    """Each mention as (chain, sentence 1-based, start 1-based, end exclusive)."""
    sentence_of = {}
    for number, (a, b) in enumerate(lay.sentences, 1):
        for i in range(a, b):
            sentence_of[i] = (number, a)
    found = []
    for n, cluster in enumerate(lay.clusters, 1):
        for a, b in cluster:
            number, first = sentence_of[a]
            found.append((n, number, a - first + 1, b - first + 2))
    return found


def corenlp_xml(lay: Layout) -> str:
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<root>", "  <document>",
           "    <sentences>"]
    for number, (a, b) in enumerate(lay.sentences, 1):
        out.append(f'      <sentence id="{number}">')
        out.append("        <tokens>")
        for i in range(a, b):
            s, e = lay.tokens[i]
            out.append(f'          <token id="{i - a + 1}"><word>{escape(lay.text[s:e])}</word>'
                       f"<CharacterOffsetBegin>{s}</CharacterOffsetBegin>"
                       f"<CharacterOffsetEnd>{e}</CharacterOffsetEnd></token>")
        out.append("        </tokens>")
        out.append("      </sentence>")
    out.append("    </sentences>")
    out.append("    <coreference>")
    chains: dict[int, list[tuple[int, int, int]]] = {}
    for n, number, start, end in _sentence_spans(lay):
        chains.setdefault(n, []).append((number, start, end))
    for n, mentions in chains.items():
        if len(mentions) < 2:
            continue  # CoreNLP's XML leaves one-mention chains out
        out.append("      <coreference>")
        for number, start, end in mentions:
            out.append(f"        <mention><sentence>{number}</sentence><start>{start}</start>"
                       f"<end>{end}</end><head>{end - 1}</head></mention>")
        out.append("      </coreference>")
    out += ["    </coreference>", "  </document>", "</root>"]
    return "\n".join(out) + "\n"


def corenlp_json(lay: Layout) -> str:
    sentences = []
    for index, (a, b) in enumerate(lay.sentences):
        tokens = []
        for i in range(a, b):
            s, e = lay.tokens[i]
            before = lay.text[lay.tokens[i - 1][1]:s] if i else lay.text[:s]
            after = lay.text[e:lay.tokens[i + 1][0]] if i + 1 < len(lay.tokens) \
                else lay.text[e:]
            tokens.append({"index": i - a + 1, "word": lay.text[s:e],
                           "originalText": lay.text[s:e], "characterOffsetBegin": s,
                           "characterOffsetEnd": e, "before": before, "after": after})
        sentences.append({"index": index, "tokens": tokens})
    corefs: dict[str, list[dict[str, object]]] = {}
    forms = _forms(lay)
    for n, number, start, end in _sentence_spans(lay):
        first = lay.sentences[number - 1][0]
        corefs.setdefault(str(n), []).append({
            "id": len(corefs), "text": " ".join(forms[first + start - 1:first + end - 1]),
            "startIndex": start, "endIndex": end, "headIndex": end - 1, "sentNum": number})
    return json.dumps({"docId": "x", "sentences": sentences, "corefs": corefs})


SHAPES = {"fastcoref": (fastcoref, ".jsonl"), "maverick": (maverick, ".jsonl"),
          "spacy": (spacy, ".jsonl"), "stanza": (stanza, ".conllu"),
          "stanza-json": (stanza_json, ".json"), "corenlp": (corenlp_xml, ".xml"),
          "corenlp-json": (corenlp_json, ".json")}


def write(key: Document, fmt: str, folder: Path) -> Path:
    """The key written as library ``fmt``'s output (one document), in ``folder``."""
    make, suffix = SHAPES[fmt]
    text = make(layout(key))
    if suffix == ".jsonl":
        text += "\n"
    path = folder / f"{key.id}{suffix}"
    path.write_text(text, encoding="utf-8")
    return path
