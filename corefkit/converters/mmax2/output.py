"""MMAX2 output: the directory of projects being written and the files its projects share.

Every project of one output directory shares one ``common_paths.xml``, one scheme per level
(declaring every attribute written on it, with its type), customizations, a display style
and the DTDs; ``finish`` writes them once every document has been written, and gives every
project a (possibly empty) file for every level listed. The ``common_paths.xml`` carries a
mark, so that an output corefkit wrote can be recognised and replaced.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import quote

from corefkit.converters.mmax2.layout import POINTER_TYPE, SET_TYPE
from corefkit.model import Document

WRITER_MARK = "<!-- written by corefkit -->"
OWN_ENTRIES = frozenset({"common_paths.xml", "Basedata", "Markables", "Schemes",
                         "Customizations", "Styles"})
PROJECT_NAME_RE = re.compile(r"[^\w.-]")

_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;",
                          "\n": "&#10;", "\r": "&#13;", "\t": "&#9;"})
_INVALID_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
SPECIAL_RE = re.compile('[&<>"\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]')


def escape(text: str) -> str:
    """Text for an XML attribute value or element content (characters XML 1.0 cannot hold
    become U+FFFD)."""
    if SPECIAL_RE.search(text) is None:  # nearly always: one regex scan, no copy
        return text
    if _INVALID_XML_RE.search(text):
        text = _INVALID_XML_RE.sub("\ufffd", text)
    return text.translate(_ESCAPES)


def namespace(level: str) -> str:
    """The XML namespace of a level's markables, as MMAX2 names it; a level name that cannot
    be part of a URI (spaces, other scripts, a stray BOM) is percent-encoded, since XML
    parsers refuse an ``xmlns`` that is no valid URI."""
    return "www.eml.org/NameSpaces/" + quote(level, safe="")


@dataclass
class SchemeEntry:
    type: str
    values: set[str]
    targets: set[str]


class OutputDirectory:
    """Accumulates projects in one directory; the shared files are written by ``finish``."""

    def __init__(self, directory: str, coref_level: str, sentence_level: str) -> None:
        self.dir = directory
        self.coref_level = coref_level
        self.sentence_level = sentence_level
        self.bases: set[str] = set()
        self.files: dict[str, set[str]] = {}               # level -> bases that have its file
        self.level_order: list[str] = [self.coref_level, self.sentence_level]
        self.schemes: dict[str, dict[str, SchemeEntry]] = {}
        for sub in ("Basedata", "Markables", "Schemes", "Customizations", "Styles"):
            os.makedirs(os.path.join(directory, sub), exist_ok=True)

    def declare(self, level: str, name: str, kind: str, value: str | None = None,
                target: str | None = None) -> None:
        entry = self.schemes.setdefault(level, {}).get(name)
        if entry is None:
            entry = SchemeEntry(kind, set(), set())
            self.schemes[level][name] = entry
        elif kind != "plain" and entry.type == "plain":
            entry.type = kind
        if value is not None and entry.type == "plain":
            entry.values.add(value)
        if target is not None:
            entry.targets.add(target)

    def project_name(self, doc: Document) -> str:
        name = doc.id
        _, part = doc.pair_key()
        if part != "0":
            name = f"{name}_part_{part}"
        safe = PROJECT_NAME_RE.sub("_", name).lstrip(".") or "document"
        unique = safe
        k = 2
        while unique.lower() in self.bases:
            unique = f"{safe}-{k}"
            k += 1
        self.bases.add(unique.lower())
        return unique

    def write_file(self, relative: str, text: str) -> None:
        with open(os.path.join(self.dir, relative), "w", encoding="utf-8", newline="\n") as out:
            out.write(text)

    def markables_head(self, level: str) -> str:
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<!DOCTYPE markables SYSTEM "markables.dtd">\n'
                f'<markables xmlns="{escape(namespace(level))}">')

    def used(self, level: str, base: str) -> None:
        self.files.setdefault(level, set()).add(base)
        if level not in self.level_order:
            self.level_order.append(level)

    # ------------------------------------------------------------------ shared files
    def finish(self) -> None:
        levels = [lv for lv in self.level_order if lv in self.files or
                  lv in (self.coref_level, self.sentence_level)]
        # every project must have a file for every level listed in common_paths.xml
        for level in levels:
            have = self.files.get(level, set())
            for base in sorted(self.all_bases - have):
                self.write_file(os.path.join("Markables", f"{base}_{level}_level.xml"),
                                '<?xml version="1.0" encoding="UTF-8"?>\n'
                                '<!DOCTYPE markables SYSTEM "markables.dtd">\n'
                                f'<markables xmlns="{escape(namespace(level))}">\n'
                                "</markables>\n")
        level_lines = []
        for level in levels:
            startup = ' at_startup="visible"' if level == self.sentence_level else ""
            level_lines.append(
                f'<level name="{escape(level)}" schemefile="{escape(level)}_scheme.xml" '
                f'customization_file="{escape(level)}_customization.xml"{startup}>'
                f"$_{escape(level)}_level.xml</level>")
        self.write_file("common_paths.xml",
                        '<?xml version="1.0" encoding="UTF-8"?>\n'
                        f"{WRITER_MARK}\n"
                        "<common_paths>\n"
                        "<basedata_path>Basedata/</basedata_path>\n"
                        "<scheme_path>Schemes/</scheme_path>\n"
                        "<style_path>Styles/</style_path>\n"
                        "<customization_path>Customizations/</customization_path>\n"
                        "<markable_path>Markables/</markable_path>\n"
                        "<views>\n<stylesheet>default_style.xsl</stylesheet>\n</views>\n"
                        "<annotations>\n" + "\n".join(level_lines) + "\n</annotations>\n"
                        "</common_paths>\n")
        for level in levels:
            self.write_file(os.path.join("Schemes", f"{level}_scheme.xml"), self.scheme(level))
            self.write_file(os.path.join("Customizations", f"{level}_customization.xml"),
                            '<?xml version="1.0" encoding="UTF-8"?>\n<customization>\n'
                            "</customization>\n")
        self.write_file(os.path.join("Basedata", "words.dtd"),
                        "<!ELEMENT words (word*)>\n<!ELEMENT word (#PCDATA)>\n"
                        "<!ATTLIST word id ID #REQUIRED>\n")
        self.write_file(os.path.join("Markables", "markables.dtd"),
                        "<!ELEMENT markables (markable*)>\n<!ELEMENT markable EMPTY>\n"
                        "<!ATTLIST markable id ID #REQUIRED>\n")
        self.write_file(os.path.join("Styles", "default_style.xsl"), self.stylesheet(levels))

    @property
    def all_bases(self) -> set[str]:
        return {b for bases in self.files.values() for b in bases}

    def scheme(self, level: str) -> str:
        """A scheme declaring every attribute written on the level, with its type."""
        lines = ['<?xml version="1.0" encoding="UTF-8"?>', "<annotationscheme>"]
        for name, entry in sorted(self.schemes.get(level, {}).items()):
            aid = f"attribute_{escape(name)}"
            if entry.type == SET_TYPE:
                lines.append(f'<attribute id="{aid}" name="{escape(name)}" type="markable_set" '
                             'color="green" width="2" style="lcurve">')
                lines.append(f'  <value id="{aid}_value" name="{escape(name)}"/>')
            elif entry.type == POINTER_TYPE:
                lines.append(f'<attribute id="{aid}" name="{escape(name)}" '
                             'type="markable_pointer" color="blue" width="1" style="lcurve">')
                lines.append(f'  <value id="{aid}_not_set" name="not_set"/>')
                lines.append(f'  <value id="{aid}_set" name="set"/>')
            else:
                values = sorted(entry.values)
                simple = 0 < len(values) <= 100 and all(
                    v and not any(c.isspace() for c in v) and len(v) <= 64 for v in values)
                if simple:
                    lines.append(f'<attribute id="{aid}" name="{escape(name)}" '
                                 'type="nominal_list">')
                    for k, value in enumerate(values, 1):
                        lines.append(f'  <value id="{aid}_{k}" name="{escape(value)}"/>')
                else:
                    lines.append(f'<attribute id="{aid}" name="{escape(name)}" type="freetext">')
                    lines.append(f'  <value id="{aid}_text" name="{escape(name)}"/>')
            lines.append("</attribute>")
        lines.append("</annotationscheme>\n")
        return "\n".join(lines)

    def stylesheet(self, levels: list[str]) -> str:
        """A display style: words separated by spaces, brackets around mention markables,
        a line break after each sentence."""
        shown = [lv for lv in levels if lv != self.sentence_level]
        spaces = "".join(f'\n  xmlns:l{i}="{escape(namespace(lv))}"'
                         for i, lv in enumerate([self.sentence_level, *shown]))
        rules = []
        for i, _ in enumerate(shown, 1):
            rules.append(
                f'<xsl:template match="l{i}:markable" mode="opening">\n'
                "<xsl:value-of select=\"mmax:addLeftMarkableHandle(@mmax_level, @id, '[')\"/>\n"
                "</xsl:template>\n"
                f'<xsl:template match="l{i}:markable" mode="closing">\n'
                "<xsl:value-of select=\"mmax:addRightMarkableHandle(@mmax_level, @id, ']')\"/>\n"
                "</xsl:template>")
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"\n'
            '  xmlns:mmax="org.eml.MMAX2.discourse.MMAX2DiscourseLoader"'
            f"{spaces}>\n"
            '<xsl:output method="text" indent="no" omit-xml-declaration="yes"/>\n'
            '<xsl:strip-space elements="*"/>\n'
            '<xsl:template match="words">\n<xsl:apply-templates/>\n</xsl:template>\n'
            '<xsl:template match="word">\n'
            '<xsl:value-of select="mmax:registerDiscourseElement(@id)"/>\n'
            '<xsl:apply-templates select="mmax:getStartedMarkables(@id)" mode="opening"/>\n'
            '<xsl:value-of select="mmax:setDiscourseElementStart()"/>\n'
            "<xsl:apply-templates/>\n"
            '<xsl:value-of select="mmax:setDiscourseElementEnd()"/>\n'
            '<xsl:apply-templates select="mmax:getEndedMarkables(@id)" mode="closing"/>\n'
            "<xsl:text> </xsl:text>\n"
            "</xsl:template>\n"
            + "\n".join(rules) + "\n"
            '<xsl:template match="l0:markable" mode="opening"/>\n'
            '<xsl:template match="l0:markable" mode="closing">\n'
            "<xsl:text>\n</xsl:text>\n</xsl:template>\n"
            "</xsl:stylesheet>\n"
        )
