"""What a word of the CRAC LLM-track formats can be (their :class:`FormRule`).

The linear text separates words by spaces and tags a word after ``|``; its reader takes a
word ``##FORM`` for an empty node, a word that is only tags (``e1]``, ``[e2``) for tags of its
neighbours, tags glued to a word (``Death[e2]``) for a tag, and a line that starts with
`````` for a Markdown fence. A form that would be read so cannot be written as it is. The JSON
variant holds each word as a JSON string, but its reader too takes ``##FORM`` for an empty node,
and the writer (as text2text-coref's) writes a space in a word as ``_``.
"""

from __future__ import annotations

import re

from corefkit.converters.forms import FormRule

# characters after which a word may be read as something else (a quick filter)
_MARKUP = re.compile(r"[\[\](){}<>]|\A#|\A`")


def linear_problem(form: str) -> str | None:
    """Why the linear-text reader would not read ``form`` back as one word (None: it would)."""
    if _MARKUP.search(form) is None:
        return None
    if form.startswith("##"):
        return "a word written '##…' is read as an empty node"
    if form.startswith("```"):
        return "a line starting with ``` is read as a Markdown fence"
    from corefkit.converters.text2text.tags import words_of

    problems: list = []
    words = words_of(form, problems)
    if problems or len(words) != 1 or words[0].tags or words[0].form != form:
        return "the text2text reader reads it as coreference tags"
    return None


def json_problem(form: str) -> str | None:
    return "a word written '##…' is read as an empty node" if form.startswith("##") else None


LINEAR = FormRule("\\s|\ufeff", "white space, U+FEFF or '|', which end a word (a byte-order mark "
                  "is not read as one) or start its tags",
                  shape=linear_problem)
JSON = FormRule(" ", "a space, which the text2text writer writes '_'", shape=json_problem)
