"""brat standoff checks: the reader's repairs and rejections.

Everything the reader meets in an ``.ann``/``.txt`` pair — lines of no brat kind, ids used
twice, offsets off the text or not quoting it, spans over no character, labels and types
repeated on one span, relations naming no annotation, a token companion that does not fit —
is reported under these ids (``formats``: ``corefkit.converters.brat.reader``). Findings point
at the line of the ``.ann`` file (the ``.txt`` for a companion that does not fit).
"""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "brat"


def _reader(check: str, level: int, severity: str, explanation: str,
            malformed: bool | None = None) -> Check:
    return Check("brat." + check, level, severity, explanation, FORMAT, "reader", malformed)


register(
    # rejections and refused repairs: the pair cannot be read as it is
    _reader("missing-text", 1, ERROR, "an .ann file without its .txt beside it"),
    _reader("no-annotations", 1, ERROR, "a directory that holds no .ann file"),
    _reader("bad-line", 1, ERROR,
            "a line of no brat annotation kind, or a T line whose fragments end before they "
            "start (skipped when reading leniently)"),
    _reader("duplicate-id", 1, ERROR,
            "an annotation id used twice in one file (the second line is skipped when reading "
            "leniently)"),
    _reader("offset-outside-text", 1, ERROR,
            "a text-bound annotation that ends after the end of the text (offsets counted as "
            "bytes instead of code points, or the wrong .txt)"),
    _reader("text-mismatch", 1, ERROR,
            "a text-bound annotation whose text column is not the text at its offsets (offsets "
            "counted as bytes instead of code points, or an edited .txt)"),
    _reader("companion-mismatch", 1, ERROR,
            "the token companion (--brat-tokens) does not hold the words of the .txt, in order"),
    _reader("no-companion-document", 1, ERROR,
            "the token companion (--brat-tokens) holds no document of the .ann file's name"),
    # repairs
    _reader("unsupported-annotation", 2, WARNING,
            "an event (E line); corefkit reads no brat events and leaves the line out"),
    _reader("empty-span", 2, WARNING,
            "a text-bound annotation over no visible character (empty, or only whitespace); "
            "left out"),
    _reader("snapped-span", 2, WARNING,
            "a span that starts or ends inside a token of the companion; widened to whole tokens"),
    _reader("duplicate-label", 2, WARNING,
            "the same chain label twice on one span; one mention kept"),
    _reader("duplicate-type", 2, WARNING,
            "two type annotations on one span (LitBank annotates a span once in the type "
            "layer); the first type kept"),
    _reader("duplicate-relation", 2, WARNING,
            "the same relation twice between the same mentions under two ids; one kept"),
    _reader("same-span-labels", 3, ERROR,
            "one span carries two chain labels: a mention of two chains (a duplicate mention); "
            "the reference scorer refuses such repeats"),
    _reader("dangling-reference", 3, ERROR,
            "a relation, equivalence, attribute or note naming no text-bound annotation of the "
            "file (left out when reading leniently)", malformed=True),
)


PLUGIN = FormatPlugin(
    FORMAT,
    covered={
        # the reader sees every span's labels while grouping the T lines
        "mention.same-span": "brat.same-span-labels",
    },
)
