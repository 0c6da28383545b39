"""Conversion between corefkit :class:`~corefkit.model.Document` objects and the ``conllu``
package's ``TokenList`` objects (one per sentence), for pipelines that hold ``conllu`` objects.

``conllu`` is imported inside the functions below, never when this module is imported, and a
:class:`~corefkit.errors.UsageError` says so when it is not installed.

Both directions go through corefkit's own CorefUD codec, so the bridge and the CorefUD files
agree by construction; nothing here encodes or decodes ``Entity``, ``SplitAnte`` or ``Bridge``:

* :func:`to_tokenlists` writes the documents with corefkit's CorefUD writer and parses that text
  with ``conllu.parse_incr``: the TokenLists are what ``conllu`` gives for the CoNLL-U file corefkit
  would write (sentence comments as ``metadata``: ``newdoc id`` and ``global.Entity`` on a
  document's first sentence, ``sent_id``, ``text``; ids as ``int``, ``(4, '-', 5)`` for
  multiword ranges, ``(3, '.', 1)`` for empty nodes; coreference in ``misc``). Two parsing
  details differ from ``conllu``'s defaults so that nothing is lost: a FEATS or MISC value that
  contains ``=`` is kept whole (``conllu`` cuts it at the second ``=``), and a comment without
  ``=`` is kept as a key whose value is ``None`` (``conllu`` keeps only ``newdoc`` and
  ``newpar`` so). ``TokenList.serialize()`` then gives corefkit's CoNLL-U text back, line for
  line; what ``conllu``'s model cannot hold is normalised by its serializer (blanks at the end of
  a comment, ``#key=value`` spacing, a comment key repeated in one sentence).
* :func:`from_tokenlists` serializes the TokenLists with ``TokenList.serialize()`` and reads the
  text with corefkit's CorefUD reader, so documents (split at ``# newdoc``), mentions, heads,
  zeros, split antecedents and bridging come out exactly as from a file, as strictly
  (malformed input is a :class:`~corefkit.errors.FormatError` unless ``lenient``) and one
  document at a time (TokenLists are serialized as the reader asks for them).

Speed (issue 13: read CoNLL-U through ``conllu`` only if that keeps >= 8 MB/s on GUM). It does
not, so corefkit's own reader stays the file reader and this bridge is for users who already
hold ``conllu`` objects. GUM's ``dep/`` sample (46 files, 4.4 MB), best of 3 runs in CPU seconds
of one process, as ``benchmarks/read_bench.py`` measures, three runs on a shared 2-core machine:
``corefkit.read`` 11.9-13.8 MB/s; ``conllu.parse_incr`` alone (TokenLists, no coreference)
5.3-5.5 MB/s; ``from_tokenlists(conllu.parse_incr(file))`` 3.7-4.2 MB/s; ``from_tokenlists`` of
TokenLists already parsed 8.0-9.2 MB/s; ``to_tokenlists`` of documents already read 3.8-4.3 MB/s
(MB of CoNLL-U written). The command, from the repository root::

    .venv/bin/python - <<'EOF'
    import sys; sys.path[:0] = ["benchmarks"]
    import conllu, corefkit, read_bench as b
    from corefkit.interop.conllu import from_tokenlists, to_tokenlists
    files = sorted(b.SOURCE.glob("*.conllu")); mb = sum(f.stat().st_size for f in files) / 1e6
    docs = [d for f in files for d in corefkit.read(f)]
    held = [list(conllu.parse_incr(f.open(encoding="utf-8"))) for f in files]
    runs = {"corefkit.read": lambda fs: [list(corefkit.read(f)) for f in fs],
            "conllu.parse_incr": lambda fs: [list(conllu.parse_incr(f.open(encoding="utf-8")))
                                             for f in fs],
            "from_tokenlists": lambda fs: [list(from_tokenlists(conllu.parse_incr(
                f.open(encoding="utf-8")))) for f in fs],
            "from_tokenlists, TokenLists held": lambda fs: [list(from_tokenlists(t))
                                                            for t in held],
            "to_tokenlists": lambda fs: [to_tokenlists(d) for d in docs]}
    for name, run in runs.items():
        print(f"{name}: {mb / b.best_cpu(run, files)[0]:.1f} MB/s")
    EOF
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from corefkit.converters.loss import ConversionReport
from corefkit.converters.registry import get
from corefkit.errors import UsageError
from corefkit.model import Document

if TYPE_CHECKING:  # pragma: no cover
    from conllu.models import TokenList

__all__ = ["from_tokenlists", "to_tokenlists"]


def _conllu() -> ModuleType:
    """The ``conllu`` package, or a usage error saying how to install it."""
    try:
        import conllu
    except ImportError:
        raise UsageError("the conllu package is not installed; install it with "
                         "'pip install conllu' (corefkit declares conllu>=4.5)") from None
    return conllu


# ---------------------------------------------------------------------------- to conllu
def _dict_value(value: str) -> dict[str, str | None] | None:
    """FEATS or MISC as ``conllu`` parses them, but with a value that contains ``=`` kept
    whole (``Key=a=b`` → ``{"Key": "a=b"}``)."""
    if not value or value == "_":
        return None
    parsed: dict[str, str | None] = {}
    for item in value.split("|"):
        key, equals, rest = item.partition("=")
        if not key or key == "_":
            continue
        parsed[key] = (None if not rest or rest == "_" else rest) if equals else ""
    return parsed


_FIELD_PARSERS: dict[str, Callable[[list[str], int], Any]] = {
    "feats": lambda fields, i: _dict_value(fields[i]),
    "misc": lambda fields, i: _dict_value(fields[i]),
}
# every comment is kept: "# key = value" as conllu keeps it, "# text without a value" as
# {"text without a value": None} (conllu's default keeps only newdoc and newpar that way)
_METADATA_PARSERS: dict[str, Callable[[str, str | None], Any]] = {
    "__fallback__": lambda key, value: (key, value),
}


def _conllu_text(documents: Document | Iterable[Document], *, profile: str = "auto",
                 keep_min: bool = False, report: ConversionReport | None = None) -> str:
    """The documents as CoNLL-U text, written by corefkit's CorefUD writer."""
    from corefkit.converters.forms import CONLLU, check_forms

    # a form CoNLL-U cannot hold is refused, naming the token, as corefkit.write refuses it
    docs = [check_forms(d, CONLLU, "corefud")[0]
            for d in ([documents] if isinstance(documents, Document) else documents)]
    out = io.StringIO()
    writer = get("corefud").writer()
    writer.write_stream(docs, out, report if report is not None else ConversionReport(),
                        profile=profile, keep_min=keep_min)
    return out.getvalue()


def to_tokenlists(doc: Document | Iterable[Document], *, profile: str = "auto",
                  keep_min: bool = False,
                  report: ConversionReport | None = None) -> list[TokenList]:
    """One ``conllu.TokenList`` per sentence of ``doc`` (a document or several: entity ids are
    then unique across them, as in one file), as ``conllu`` parses the CoNLL-U text that
    corefkit's CorefUD writer writes for it.

    ``profile`` and ``keep_min`` are the CorefUD writer's options: ``auto`` keeps each
    document's declaration (GUM's ``GRP-…`` for GUM data), ``corefud`` writes
    ``eid-etype-head-other`` with heads. ``report``, if given, receives the writer's repairs.
    """
    conllu = _conllu()
    text = _conllu_text(doc, profile=profile, keep_min=keep_min, report=report)
    return list(conllu.parse_incr(io.StringIO(text), field_parsers=_FIELD_PARSERS,
                                  metadata_parsers=_METADATA_PARSERS))


# ---------------------------------------------------------------------------- from conllu
class _SerializedTokenLists(io.RawIOBase):
    """A binary stream of the UTF-8 CoNLL-U text of TokenLists, serialized as it is read."""

    def __init__(self, tokenlists: Iterator[Any]) -> None:
        super().__init__()
        self._tokenlists = tokenlists
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        wanted = len(view)
        pieces = [self._pending]
        have = len(self._pending)
        while have < wanted:
            tokenlist = next(self._tokenlists, None)
            if tokenlist is None:
                break
            data = tokenlist.serialize().encode("utf-8")
            pieces.append(data)
            have += len(data)
        data = b"".join(pieces)
        count = min(wanted, len(data))
        view[:count] = data[:count]
        self._pending = data[count:]
        return count


def from_tokenlists(tokenlists: Iterable[TokenList], name: str = "<conllu>", *,
                    entity_fields: str | None = None,
                    lenient: bool = False) -> Iterator[Document]:
    """corefkit documents for ``conllu`` TokenLists (one per sentence; ``conllu.parse`` or
    ``parse_incr`` output, or built by hand), one at a time.

    The TokenLists are serialized with ``TokenList.serialize()`` and read by corefkit's CorefUD
    reader, exactly as from a file called ``name``: documents are split at ``# newdoc`` (a
    ``"newdoc id"`` metadata key), a document without an id is named after ``name``,
    the ``global.Entity`` metadata of the first sentence declares the ``Entity`` fields
    (``entity_fields`` is the declaration to assume when there is none, as the reader option).
    Malformed input is a :class:`~corefkit.errors.FormatError` (its line is a line of the
    serialized text) unless ``lenient``, which keeps the repairs in ``doc.repairs``, as
    ``corefkit.read`` does. No TokenList gives no document.
    """
    _conllu()
    return _read(iter(tokenlists), name, entity_fields, lenient)


def _read(items: Iterator[Any], name: str, entity_fields: str | None,
          lenient: bool) -> Iterator[Document]:
    # the registry's strictness, as for files: the same checks are refused
    from corefkit.converters.io import without_gc_pauses
    from corefkit.converters.registry import _strict

    first = next(items, None)
    if first is None:
        return

    def chained() -> Iterator[Any]:
        yield first
        yield from items

    reader = get("corefud").reader()
    stream = io.BufferedReader(_SerializedTokenLists(chained()), buffer_size=1 << 16)
    docs = reader.read_stream(stream, name, entity_fields=entity_fields)
    yield from _strict(without_gc_pauses(docs), name, lenient, "corefud")
