"""CRAC LLM-track linear text checks: the reader's repairs and rejections.

Every repair of malformed LLM output (:mod:`corefkit.converters.text2text.tags` and the reader)
is a level-1 error, refused unless ``--lenient``: strict reading refuses all, the LLM track's
participants read with ``--lenient`` (``--profile crac-llm``) and see each repair with its
line, column and word. Irregular spacing is only reported.
"""

from __future__ import annotations

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import ERROR, WARNING, Check, register

FORMAT = "text2text"


def _reader(check: str, level: int, severity: str, explanation: str) -> Check:
    return Check("text2text." + check, level, severity, explanation, FORMAT, "reader")


register(
    _reader("no-words", 1, ERROR, "a line with tags but no word (a document is a line of words)"),
    _reader("unclosed-mention", 1, ERROR,
            "an opener [ID never closed; --lenient reads it as a one-word mention (text2text-"
            "coref drops it)"),
    _reader("cut-mention", 1, ERROR,
            "an opener still open when the line ends, in its last 50 words and inside no mention "
            "opened before it: the answer was cut off inside it; --lenient drops it (its end "
            "is unknown)"),
    _reader("unopened-mention", 1, ERROR,
            "a closer ID] with no open mention of ID; --lenient reads it as a one-word mention"),
    _reader("unknown-tag", 1, ERROR,
            "a tag that is none of [ID, ID], [ID] (such as [e, or an item that is neither word "
            "nor tag); --lenient drops it"),
    _reader("bad-bracket", 1, ERROR,
            "a tag with brackets other than [ ] ((e3), {e3}, <e3>, [e3)); --lenient reads them "
            "as square"),
    _reader("id-case", 1, ERROR, "an entity id in upper case (E3); --lenient reads e3"),
    _reader("double-pipe", 1, ERROR, "a word with '||' before its tags; --lenient reads one"),
    _reader("detached-tag", 1, ERROR,
            "a tag standing apart from its word ([e3 The Carriage e3], w |[e3, w|[e1, e2]); "
            "--lenient gives an opener to the next word, a closer to the previous one"),
    _reader("glued-tag", 1, ERROR,
            "a tag glued to its word without '|' (Death[e2]); --lenient splits it off"),
    _reader("empty-tag", 1, ERROR, "an empty tag (w|, w|[e3,); --lenient drops it"),
    _reader("duplicate-tag", 1, ERROR, "the same tag twice on a word; --lenient keeps one"),
    _reader("duplicate-mention", 1, ERROR,
            "the same mention (entity and words) given twice; --lenient keeps one"),
    _reader("markdown-fence", 1, ERROR,
            "a Markdown code fence line (```) around the documents; --lenient skips it"),
    _reader("whitespace", 2, WARNING,
            "words separated by something else than one space (tabs, double or non-breaking "
            "spaces); read as one space"),
)

PLUGIN = FormatPlugin(FORMAT)
