"""CoNLL-UA exploded's columns and grammar, shared by the reader and the writer.

The default ``# global.columns``, the names of the bracket columns, the opener keys and their
spellings, and the patterns of ids, ``Min`` values, closers and values (formats/ua-exploded.md).
"""

from __future__ import annotations

import re

DEFAULT_COLUMNS = (
    "ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
    "IDENTITY", "BRIDGING", "DISCOURSE_DEIXIS", "REFERENCE", "NOM_SEM",
)
COLUMNS_LINE = "# global.columns = " + " ".join(DEFAULT_COLUMNS)

COLUMNS_RE = re.compile(r"^#\s*global\.columns\s*=\s*(.*?)\s*$")
SETTING_RE = re.compile(r"^#\s*setting\s*$")
EMPTY_ID_RE = re.compile(r"^([0-9]+)\.([0-9]+)$")
PSEUDO_RE = re.compile(r"^(.*?)[-_]pseudo$", re.IGNORECASE)
DD_SUFFIX_RE = re.compile(r"^(.*?)-dd$", re.IGNORECASE)
MIN_RE = re.compile(r"^\s*([0-9]+)(?:\s*[,-]\s*([0-9]+))?")  # only the first two numbers count
CLOSER_NAME_RE = re.compile(r"^[^()|=\s]*$")
ID_NUMBER_RE = re.compile(r"^([0-9]+)")
NOT_IN_VALUE_RE = re.compile(r"[()|=%@\s]")

# Known keys, by their spelling with case and underscores removed (ua-exploded §6: key
# spellings vary between files and the v1.1 text).
KEYS = {
    "entityid": "EntityID", "markableid": "MarkableID", "mentionid": "MarkableID",
    "min": "Min", "semtype": "SemType", "elementof": "ElementOf", "rel": "Rel",
    "mentionanchor": "MentionAnchor", "entityanchor": "EntityAnchor",
}
# NOM_SEM keys whose attribute name has a conventional spelling in the file.
NOM_SEM_SPELLING = {"entity_type": "Entity_Type", "genericity": "Genericity"}

IDENTITY_COLUMN = "IDENTITY"
DD_COLUMN = "DISCOURSE_DEIXIS"
BRIDGING_COLUMN = "BRIDGING"
NOM_SEM_COLUMN = "NOM_SEM"
