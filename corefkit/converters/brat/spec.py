"""brat standoff: what the registry and the command line know.

A document is an ``X.ann`` file and the ``X.txt`` beside it; a directory stands for every
pair under it. The reader takes the coreference encoding of LitBank's brat release (every
mention twice: a type line and an entity-label line; chains by the whole label string) and
brat's equivalence lines; the writer writes LitBank's encoding into a folder of pairs with an
``annotation.conf``. See :mod:`corefkit.converters.brat.reader`.
"""

from __future__ import annotations

import os
import re

from corefkit.converters.base import FormatSpec, Option
from corefkit.converters.forms import BRAT

# the first annotation line of an .ann file: a text-bound annotation (T), a relation (R), an
# equivalence (*), an attribute (A/M), a normalisation (N) or a note (#)
FIRST_LINE_RE = re.compile(
    r"\A(?:\ufeff)?(?:T\S*\t\S+ \d+ \d+(?:;\d+ \d+)*\t|R\S*\t\S+ \S+:\S+ \S+:\S+"
    r"|\*\t\S+ T\S* T|[AM]\S*\t\S+ [TERN]\S*|N\S*\t\S+ \S+ \S+:|#\S*\t\S+ \S+\t)")


def sniff(head: str) -> bool:
    """An ``.ann`` file: its first line is a brat annotation line."""
    return FIRST_LINE_RE.match(head) is not None


def part_of(path: str, head: str) -> bool:
    """The ``X.txt`` of an ``X.ann`` beside it: the text of a brat document."""
    stem, extension = os.path.splitext(path)
    return extension.lower() == ".txt" and any(
        os.path.isfile(stem + ann) for ann in (".ann", ".ANN", ".Ann"))


SPEC = FormatSpec(
    name="brat",
    aliases=("brat-standoff", "ann"),
    description="brat standoff (.ann + .txt beside it; LitBank's type and entity-label layers, "
                "cop/appos relations, equivalence lines); writes a folder of pairs with an "
                "annotation.conf",
    patterns=("*.ann",),
    capabilities=frozenset({"tokens", "crossing_mentions", "mentions_over_lost_tokens",
                            "sentences", "names", "singletons", "discontinuous",
                            "crossing_same_entity", "cross_sentence", "mention_attributes"}),
    partial=(("tokens", "words without white space: the reader splits the text at white "
                        "space"),
             ("sentences", "one a line: a sentence without visible words is none"),
             ("names", "as file names: characters other than letters, digits, '.', '_' and "
                       "'-' become '_'"),
             ("mention_attributes", "the mention and entity type only, as the type layer")),
    forms=BRAT,
    package="corefkit.converters.brat",
    sniff=sniff,
    sniff_priority=40,
    read_options=(
        Option("brat_tokens", "brat input: take tokens and sentences from this file or folder "
                              "(CoNLL-2012 or any format corefkit reads; documents matched by "
                              "name) instead of splitting the .txt.",
               kind="path", flag="--brat-tokens", metavar="FILE|DIR"),
    ),
    stream=False,
    part_of=part_of,
    reads_paths=True,
    writes_directory=True,
)
