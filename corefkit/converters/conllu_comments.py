"""Comment lines that the CoNLL-U based formats (CorefUD, CoNLL-UA exploded) read and write alike.

Only patterns that accept exactly the same lines in both formats live here; the others stay
with their format (the empty-node id, for one: CorefUD refuses ``N.0``, UA takes it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from corefkit.checks.plugins import Incident
from corefkit.model import Document, Sentence

# "# newdoc" or "# newdoc id = X" (group 1: X). The word break after "newdoc" is implied by
# what must follow it (white space or the end of the line): "# newdocs" is no newdoc line.
NEWDOC_RE = re.compile(r"^#\s*newdoc\b(?:\s+id\s*=\s*(.*?))?\s*$")
# "# sent_id = X" and "# speaker = X"; group 1 is the value without surrounding white space
SENT_ID_RE = re.compile(r"^#\s*sent_id\s*=\s*(.*?)\s*$")
SPEAKER_RE = re.compile(r"^#\s*speaker\s*=\s*(.*?)\s*$")
TEXT_RE = re.compile(r"^#\s*text\s*=")
# "# meta::part = 001": the CoNLL-2012 part of a document, as document metadata (GUM's
# "# meta::" convention), so that parts survive CoNLL-2012 -> CoNLL-U -> CoNLL-2012
PART_META_RE = re.compile(r"^#\s*meta::part\s*=\s?(.*?)\s*$")


def _part_suffix(part: str | None) -> str:
    """``_001`` for a part other than 0: what tells the parts of one document apart."""
    if part is None or part == "" or (part.isdecimal() and int(part) == 0):
        return ""
    return f"_{part}"


def newdoc_id(doc: Document) -> str:
    """The ``# newdoc id`` of a document: its id, ``_PART`` appended for a CoNLL-2012 part other
    than 0 (as e2e-coref's doc_keys do), so that the parts of one document stay distinct."""
    return doc.id + _part_suffix(doc.part)


def part_lines(doc: Document) -> list[str]:
    """The ``# meta::part`` line of a document that has a part (none for other documents)."""
    return [] if doc.part is None else [f"# meta::part = {doc.part}"]


def restore_part(doc: Document, part: str) -> None:
    """Undo :func:`newdoc_id` for a document whose ``# meta::part`` line was read."""
    doc.part = part
    suffix = _part_suffix(part)
    if suffix and doc.id.endswith(suffix) and len(doc.id) > len(suffix):
        doc.id = doc.id[: -len(suffix)]


def comment_line(comment: str) -> str:
    """A comment as a line: comments kept without their ``#`` (other formats) get one."""
    return comment if comment.startswith("#") else f"# {comment}"


def sentence_comments(doc: Document, sentence: Sentence, running_speaker: str | None,
                      keep_repeated_speakers: bool = True) -> list[str]:
    """The comment lines written before a sentence: its own comments (document-level lines
    left out), each of ``sent_id``, ``text`` and ``speaker`` once — the source's line where it
    had one (the sent_id updated to the sentence's), else a new one. ``speaker`` is written
    when it differs from ``running_speaker`` (the last one written; None: always); a source
    line that repeats it is dropped unless ``keep_repeated_speakers``."""
    comments = [comment_line(c) for c in sentence.comments
                if not NEWDOC_RE.match(c) and not c.startswith("# global.")]
    if not keep_repeated_speakers and running_speaker is not None:
        comments = [c for c in comments
                    if not ((found := SPEAKER_RE.match(c)) and found.group(1) == running_speaker)]
    has_sent_id = False
    for i, comment in enumerate(comments):
        found = SENT_ID_RE.match(comment)
        if found:
            has_sent_id = True
            if sentence.sent_id is not None and found.group(1) != sentence.sent_id:
                comments[i] = f"# sent_id = {sentence.sent_id}"
    if not has_sent_id:
        sent_id = sentence.sent_id or f"{doc.id}-{sentence.index + 1}"
        at = next((i for i, c in enumerate(comments) if TEXT_RE.match(c)), len(comments))
        comments.insert(at, f"# sent_id = {sent_id}")
    if not any(TEXT_RE.match(c) for c in comments):
        at = next(i for i, c in enumerate(comments) if SENT_ID_RE.match(c)) + 1
        comments.insert(at, f"# text = {sentence_text(doc, sentence)}")
    if sentence.speaker is not None and sentence.speaker != running_speaker and \
            not any(SPEAKER_RE.match(c) for c in comments):
        at = next(i for i, c in enumerate(comments) if SENT_ID_RE.match(c))
        comments.insert(at, f"# speaker = {sentence.speaker}")
    return comments


def sentence_text(doc: Document, sentence: Sentence) -> str:
    """The value of a ``# text =`` line for a sentence that has none: its words (empty nodes
    left out), separated by a space unless MISC says ``SpaceAfter=No``."""
    pieces = []
    for index in range(sentence.start, sentence.stop):
        token = doc.tokens[index]
        if token.is_empty:
            continue
        pieces.append(token.form)
        if "SpaceAfter=No" not in (token.misc or "").split("|"):
            pieces.append(" ")
    return "".join(pieces).rstrip()


def sent_id_incidents(doc: Document, seen: dict[str, int | None], unique: str,
                      single: str) -> Iterator[Incident]:
    """The UD validator's sent_id tests for CoNLL-U based files: a sentence with two
    ``# sent_id`` lines (check ``single``), and a sent_id used before in the file (``unique``;
    ``seen`` maps the file's sent_ids so far to their lines and is updated)."""
    for sentence in doc.sentences:
        line = sentence.attrs.get("line")
        line = line if isinstance(line, int) else doc.line
        stated = [c for c in sentence.comments if SENT_ID_RE.match(c)]
        if len(stated) > 1:
            yield Incident(single, f"the sentence has {len(stated)} '# sent_id' lines; keep one",
                           line, sentence.sent_id)
        sid = sentence.sent_id
        if sid is None:
            continue
        if sid in seen:
            where = f" (line {seen[sid]})" if seen[sid] is not None else ""
            yield Incident(unique, f"sent_id {sid!r} is used by an earlier sentence{where}; "
                           "sent_ids must be unique in a file", line, sid)
        else:
            seen[sid] = line
