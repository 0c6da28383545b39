"""Stanford CoreNLP's XML output: the reader.

``<root><document>`` holds ``<sentences>`` (each ``<sentence>``'s ``<tokens>``: ``<token>``
with ``<word>``, ``<CharacterOffsetBegin>``, ``<CharacterOffsetEnd>``) and ``<coreference>``,
one inner ``<coreference>`` a chain of ``<mention>``\\ s (``<sentence>``, ``<start>``,
``<end>`` exclusive, ``<head>``, 1-based; optional ``<text>``; ``representative="true"`` on one).
The XML writer leaves out one-mention chains. ``<docId>`` names the document, else the file.

The XML holds no text. With ``corenlp_text`` (the file CoreNLP read) each token's form is the
characters its offsets give, which must be its word (or what a Penn Treebank escape or quote
normalization stands for); without it, the forms are the words with the escapes undone, and the
offsets must only go forwards. A mention must lie in its sentence, its head in it, and its
``<text>`` be its words joined by spaces. Contradictions refuse the file, naming the document
and the line. The parser loads no DTD and expands no entity.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, BinaryIO

from lxml import etree

from corefkit.converters.io import open_binary
from corefkit.converters.libraries.common import Place, stem_of
from corefkit.converters.libraries.corenlp.mentions import (
    Mention,
    add_chains,
    same_characters,
    unescaped,
)
from corefkit.converters.offsets import CHARS, TEXT
from corefkit.errors import FormatError
from corefkit.model import Document, Token

BAD_XML = "corenlp.bad-xml"
BAD_SHAPE = "corenlp.bad-shape"
BAD_OFFSETS = "corenlp.bad-offsets"
MENTION_TEXT = "corenlp.mention-text"
OFFSET_TEXT = "corenlp.offset-text"
DUPLICATE = "corenlp.duplicate-mention"

_PARSER = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False,
                          huge_tree=True)


def read_stream(stream: BinaryIO, file: str, *, corenlp_text: str | None = None,
                ) -> Iterator[Document]:
    text = _text_file(corenlp_text) if corenlp_text is not None else None
    try:
        root = etree.fromstring(stream.read(), _PARSER)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (None, None)
        raise FormatError(f"not well-formed XML: {exc.msg}", file=file, line=line,
                          column=column, check=BAD_XML) from None
    document = root.find("document") if root.tag == "root" else None
    if document is None:
        raise FormatError(f"the root element is <{root.tag}>, not CoreNLP's <root> with a "
                          "<document>", file=file, line=root.sourceline, check=BAD_SHAPE)
    name = (document.findtext("docId") or "").strip() or stem_of(file)
    doc = Document(name, None, file=file)
    doc.line = document.sourceline
    place = Place(file, document.sourceline, name)
    words = _sentences(doc, place, document, text)
    mentions = []
    for k, chain in enumerate(document.findall("coreference/coreference"), 1):
        for mention in chain.findall("mention"):
            mentions.append(Mention(
                str(k), _number(place, mention, "sentence"), _number(place, mention, "start"),
                _number(place, mention, "end"),
                _number(place, mention, "head") if mention.find("head") is not None else None,
                mention.findtext("text"), f"line {mention.sourceline}"))
    add_chains(doc, place, mentions, words, None, BAD_OFFSETS, MENTION_TEXT, DUPLICATE)
    if text is not None:
        doc.attrs[TEXT] = text
    yield doc


def _text_file(path: str) -> str:
    with open_binary(path) as handle:
        raw = handle.read()
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError(f"the --corenlp-text file is not UTF-8 (byte {exc.start})",
                          file=path, line=raw[:exc.start].count(b"\n") + 1,
                          check="text.invalid-utf8") from None


def _number(place: Place, element: Any, tag: str) -> int:
    value = (element.findtext(tag) or "").strip()
    if not value.isdecimal():
        raise Place(place.file, element.sourceline, place.name).error(
            BAD_SHAPE, f"<{element.tag}> should have a number in <{tag}>, not {value!r}")
    return int(value)


def _sentences(doc: Document, place: Place, document: Any,
               text: str | None) -> list[list[str]]:
    """The document's sentences of tokens; CoreNLP's words per sentence."""
    words: list[list[str]] = []
    last = 0
    for sentence in document.findall("sentences/sentence"):
        tokens, row = [], []
        for token in sentence.findall("tokens/token"):
            at = Place(place.file, token.sourceline, place.name)
            word = token.findtext("word")
            if word is None:
                raise at.error(BAD_SHAPE, "a <token> without a <word>")
            begin, end = (token.findtext(t) for t in ("CharacterOffsetBegin",
                                                      "CharacterOffsetEnd"))
            form = unescaped(word)
            attrs = {}
            if begin is not None and end is not None:
                if not (begin.strip().isdecimal() and end.strip().isdecimal()):
                    raise at.error(OFFSET_TEXT, f"{word!r}: the character offsets {begin!r} "
                                   f"and {end!r} are not numbers")
                start, stop = int(begin), int(end)
                if not last <= start <= stop:
                    raise at.error(OFFSET_TEXT, f"{word!r} at characters {start}-{stop} does "
                                   f"not follow the previous token (which ends at {last})")
                last = stop
                if text is not None:
                    form = _checked(at, text, word, start, stop)
                attrs[CHARS] = (start, stop)
            elif text is not None:
                raise at.error(OFFSET_TEXT, f"{word!r} has no character offsets to find it in "
                               "the --corenlp-text file by")
            lemma, pos = token.findtext("lemma"), token.findtext("POS")
            tokens.append(Token(form, -1, -1, attrs, lemma=lemma, xpos=pos))
            row.append(word)
        doc.add_sentence(tokens)
        words.append(row)
    return words


def _checked(at: Place, text: str, word: str, start: int, stop: int) -> str:
    if stop > len(text):
        raise at.error(OFFSET_TEXT, f"{word!r} at characters {start}-{stop} lies beyond the "
                       f"end of the --corenlp-text file ({len(text)} characters)")
    chars = text[start:stop]
    if not same_characters(word, chars):
        raise at.error(OFFSET_TEXT, f"{word!r} at characters {start}-{stop}: the text there is "
                       f"{chars!r}; is --corenlp-text the file CoreNLP read?")
    return chars
