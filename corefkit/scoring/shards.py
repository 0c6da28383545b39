"""One key file and one response file scored by several processes: shards of documents.

When a key and its response are one CoNLL-2012 file each, listing the same documents in the
same order (what a system writes), the files are cut at document boundaries into ``jobs``
byte ranges of about equal size, the same documents on both sides; each worker reads and scores
its range of both files and returns its totals. Finding the boundaries is a scan for
``#begin document`` lines (``bytes.find``, no decoding), so no process parses a document it
does not score. Anything else — other formats, other orders, unnamed documents — returns no
shards, and the caller falls back to one reader process per side.
"""

from __future__ import annotations

import mmap
import os
from dataclasses import dataclass

from corefkit.converters.conll2012.reader import BEGIN_RE, parse_begin

BEGIN = b"#"
LINE_ENDS = (ord("\n"), ord("\r"))


@dataclass(frozen=True)
class FileRange:
    """Bytes ``start`` to ``stop`` of a file (whole lines; the worker that reads the range
    counts the lines before it, in parallel with the others)."""

    path: str
    format: str
    start: int
    stop: int


def document_starts(path: str) -> list[tuple[int, tuple[str, str | None]]] | None:
    """(byte offset, (name, part)) of every ``#begin document`` line, or None when a document
    has no name (its name would depend on the documents before it)."""
    found = []
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size == 0:
            return None
        with mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            # "#" is rare in CoNLL-2012 text, so looking for it alone (memchr) and then for a
            # line start before it is much faster than looking for "\n#" (every line end)
            start = data.find(BEGIN)
            while start >= 0:
                if start == 0 or data[start - 1] in LINE_ENDS:
                    end = data.find(b"\n", start)
                    text = data[start:end if end >= 0 else len(data)].decode("utf-8", "replace")
                    begin = BEGIN_RE.match(text.rstrip("\r"))
                    if begin is not None:
                        name, part = parse_begin(begin.group(1))
                        if not name:
                            return None
                        found.append((start, (name, part)))
                start = data.find(BEGIN, start + 1)
    return found


def document_shards(key: str, response: str, jobs: int
                    ) -> list[tuple[FileRange, FileRange]] | None:
    """``jobs`` pairs of ranges of a CoNLL-2012 key and response holding the same documents,
    or None."""
    if jobs < 2:
        return None
    keys, responses = document_starts(key), document_starts(response)
    if not keys or not responses or [k[1] for k in keys] != [r[1] for r in responses]:
        return None
    size = os.path.getsize(key)
    cuts = [0]
    for n, (offset, _) in enumerate(keys):  # the first document at or past each share
        if n > cuts[-1] and offset >= size * len(cuts) / jobs:
            cuts.append(n)
        if len(cuts) == jobs:
            break
    if len(cuts) < 2:
        return None

    def ranges(path: str, starts: list[tuple[int, tuple[str, str | None]]]) -> list[FileRange]:
        offsets = [0] + [starts[c][0] for c in cuts[1:]]
        stops = offsets[1:] + [os.path.getsize(path)]
        return [FileRange(path, "conll2012", start, stop) for start, stop in zip(offsets, stops)]

    return list(zip(ranges(key, keys), ranges(response, responses)))
