"""brat input: the words of a companion file (``--brat-tokens FILE|DIR``).

A brat document has no tokens of its own; given a companion — a CoNLL-2012 file or folder,
or anything else corefkit reads — the words and sentences of its document of the same name
(``X.ann`` ↔ document ``X``) become the tokens, aligned to the ``.txt`` character by
character (:func:`corefkit.converters.offsets.align`). In a folder, files named ``X.*`` are
read first and the whole folder only when none holds the document; a file with a single
document serves whatever its name. Only words are taken (empty nodes are not in the text);
the companion's own annotation is not read into the brat document.
"""

from __future__ import annotations

import os

from corefkit.errors import CorefkitError, FormatError

Words = list[list[str]]

# companion path -> (signature, {document id: words}); small: a run reads one companion
_CACHE: dict[str, tuple[tuple[float, int], dict[str, Words]]] = {}
_CACHE_SIZE = 8


def _signature(path: str) -> tuple[float, int]:
    stat = os.stat(path)
    return (stat.st_mtime, stat.st_size)


def _documents(path: str) -> dict[str, Words]:
    """Document id -> words by sentence, of every document in a file or folder (cached)."""
    # imported here: the registry imports this package's spec
    from corefkit.converters.registry import read

    key = os.path.abspath(path)
    signature = _signature(key)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] == signature:
        return cached[1]
    found: dict[str, Words] = {}
    for doc in read(path, lenient=True):
        tokens = doc.tokens
        words = [[tokens[i].form for i in s.token_indices() if not tokens[i].is_empty]
                 for s in doc.sentences]
        found.setdefault(doc.id, [w for w in words if w])
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[key] = (signature, found)
    return found


def companion_words(source: str, doc_id: str, file: str) -> Words:
    """The words by sentence of document ``doc_id`` in the companion ``source``."""
    if not os.path.exists(source):
        raise FormatError(f"the token companion {source} does not exist", file=file,
                          check="brat.no-companion-document")
    candidates = [source]
    if os.path.isdir(source):
        named = [os.path.join(source, n) for n in sorted(os.listdir(source))
                 if n.startswith(doc_id + ".") and os.path.isfile(os.path.join(source, n))]
        candidates = named + [source]
    for candidate in candidates:
        try:
            documents = _documents(candidate)
        except CorefkitError as exc:
            if candidate is source:
                raise FormatError(f"cannot read the token companion: {exc}", file=file,
                                  check="brat.no-companion-document") from None
            continue
        if doc_id in documents:
            return documents[doc_id]
        if os.path.isfile(candidate) and len(documents) == 1:
            return next(iter(documents.values()))
    raise FormatError(f"the token companion {source} holds no document {doc_id!r}",
                      file=file, check="brat.no-companion-document")
