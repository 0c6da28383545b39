"""LCC JSON (``*.nkas.json``, the Lithuanian coreference annotator's format): the reader.

Specification: ``formats/lcc.md``. A file is one JSON object: the raw text (``content``) and
annotation layers whose own ``content`` is a JSON document serialised into a string. Tokens,
sentences and paragraphs come from the ``lex`` layer (character spans), morphology candidates
from ``morphology``, named entities from ``ner``; coreference is the list of typed links of a
``manualCoreferences`` layer (version 1 = gold, version 2 = the annotator's output). Each link
has a referring expression (``Referant``), its antecedent span(s) (``Mentions``) and a
4-letter type code (class, subclass, direction, antecedents; :mod:`corefkit.model.typed_links`).

Reading (lcc.md §4): spans are snapped to tokens (the original character spans stay on the
mention, ``attrs["_lcc_spans"]``); entities are the components of the single-antecedent links;
a link with several antecedents makes the referring expression's entity an accommodated set
of the antecedents' entities; ``a-`` links (clausal antecedent) form the discourse-deixis
layer; every link is kept, with its type code, in ``doc.attrs["anaphoric_links"]`` (mention
ids, so that copies and passes keep it valid) because the type-aware evaluation scores links,
not only clusters. Decision taken where lcc.md and issue 6 differ: the first morphological
analysis of an ambiguous word gives the token's lemma and XPOS (issue 6: "first analysis as
the default tag"); all candidates stay in ``token.attrs["lcc_msd"]``. The reader keeps the
JSON object and a signature of its coreference on the document (``layers.STATE``) so that the
writer can write an unchanged document back byte for byte.
"""

from __future__ import annotations

import bisect
import json
import os
import re
from collections.abc import Iterator
from typing import Any, BinaryIO, TypeGuard, cast

from corefkit.converters.jsontext import Path, locate, parse, show_path
from corefkit.converters.lcc.layers import (
    COREF_LAYER,
    META_KEYS,
    STATE,
    coreference_signature,
    layer_name,
    parse_layer,
)
from corefkit.converters.lcc.spec import BOM
from corefkit.errors import FormatError, Repair
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity, Mention, Token
from corefkit.model.typed_links import LINKS, TYPE_RE, UNKNOWN_TYPE


def read_stream(
    stream: BinaryIO,
    file: str,
    *,
    layer: str | None = None,
    adverbial_as_identity: bool = False,
    lenient: bool = False,
) -> Iterator[Document]:
    """The document of an LCC file.

    ``layer`` selects the coreference layer (``manualCoreferences@1``, the gold annotation, by
    default; ``@2`` is the annotator's output). ``adverbial_as_identity`` reads ``a-`` links
    as identity links instead of discourse deixis. ``lenient`` skips a layer whose content is
    not JSON and tokenises on whitespace when there is no ``lex`` layer, with a warning,
    instead of rejecting the file.
    """
    wanted = parse_layer(layer)
    text = _decode(stream.read(), file)
    obj = parse(text, file=file, check="lcc.invalid-json", hint="an LCC file is one JSON object")
    reader = _Reader(file, text, obj, wanted, adverbial_as_identity, lenient)
    try:
        doc = reader.read()
    except FormatError as exc:
        if reader.doc is not None:  # what was repaired before: the validator reports it too
            exc.repairs = list(reader.doc.repairs)  # type: ignore[attr-defined]
        raise
    yield doc


def _decode(data: bytes, file: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        column = len(data[line_start:exc.start].decode("utf-8", errors="replace")) + 1
        raise FormatError(f"invalid UTF-8 (byte offset {exc.start}); convert the file to UTF-8",
                          file=file, line=line, column=column, check="text.invalid-utf8") from None
    return text[1:] if text.startswith(BOM) else text


def _is_span(value: Any) -> TypeGuard[list[int]]:
    return (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            and value[1] >= 0)


class _Reader:
    """Builds one document from the parsed JSON object."""

    def __init__(self, file: str, text: str, obj: Any, wanted: tuple[str, int],
                 adverbial_as_identity: bool, lenient: bool) -> None:
        self.file = file
        self.text = text
        self.obj = obj
        self.wanted = wanted
        self.adverbial_as_identity = adverbial_as_identity
        self.lenient = lenient
        self.doc: Document | None = None
        self.layer_lines: dict[int, int] = {}

    # ------------------------------------------------------------------ helpers
    def error(self, message: str, check: str, path: Path = (), inner: str | None = None
              ) -> FormatError:
        """An error at the value of the file's JSON ``path`` (its line and column, and the path
        in the message); ``inner`` is a path inside that value when it is a layer's content
        (a JSON document serialised into a string)."""
        where = show_path(path) + (f" → {inner}" if inner else "")
        found = locate(self.text, path) or (1, 1)
        return FormatError(f"{where}: {message}", file=self.file, line=found[0],
                           column=found[1], check=check)

    def layer_path(self, index: int) -> list[str | int]:
        return ["annotationLayers", index, "content"]

    def repair(self, check: str, message: str, line: int | None = None, action: str = "kept") -> None:
        assert self.doc is not None
        self.doc.repairs.append(Repair(check, message, self.file, line, None, self.doc.id, action))

    # ------------------------------------------------------------------ document
    def read(self) -> Document:
        obj = self.obj
        if not isinstance(obj, dict):
            raise self.error(f"the file holds a JSON {type(obj).__name__}, expected an object "
                             "with 'content' and 'annotationLayers'", "lcc.not-object")
        content = obj.get("content")
        if not isinstance(content, str):
            raise self.error("the document object has no 'content' string (the raw text); "
                             "is this an LCC file?", "lcc.no-content",
                             ["content"] if "content" in obj else [])
        raw_id = obj.get("id")
        doc_id = str(raw_id) if isinstance(raw_id, (int, str)) and not isinstance(raw_id, bool) \
            and str(raw_id) else _file_stem(self.file)
        doc = self.doc = Document(doc_id, None, file=self.file)
        doc.line = 1
        if doc_id != str(raw_id):
            self.repair("lcc.no-id", f"the document has no 'id'; named it {doc_id!r} after the file")
        for key in META_KEYS:
            value = obj.get(key)
            if value is None or value == "" or value == []:
                continue
            doc.meta[key] = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if any(ord(c) > 0xFFFF for c in content):
            self.repair("lcc.offset-unit-unverified",
                        "the text has characters outside the Basic Multilingual Plane; offsets "
                        "were counted in code points, which may differ from the annotator's units")
        layers = self._layers(obj.get("annotationLayers"))
        # the sample has lex v1, morphology v4 and ner v10; another version is read the same way
        self._text_layer(content, layers.get(("lex", 1)) or _any_version(layers, "lex"))
        self._morphology(layers.get(("morphology", 4)) or _any_version(layers, "morphology"))
        self._ner(layers.get(("ner", 10)) or _any_version(layers, "ner"))
        if any(kind == "manualLex" for kind, _ in layers):
            self.repair("lcc.manual-lex-ignored",
                        "the manualLex layer does not match the text (its spans cut words); "
                        "tokens come from the lex layer")
        count = obj.get("lexemeCount")
        if isinstance(count, int) and count != len(doc.tokens):
            self.repair("lcc.lexeme-count",
                        f"lexemeCount is {count} but the lex layer has {len(doc.tokens)} tokens; "
                        "used the lex layer")
        found = layers.get(self.wanted)
        if found is None:
            present = sorted(f"{COREF_LAYER}@{v}" for k, v in layers if k == COREF_LAYER)
            raise self.error(
                f"no {layer_name(self.wanted)} layer; the file has "
                f"{', '.join(present) if present else 'no coreference layer'} "
                "(choose one with --layer)", "lcc.missing-layer", ["annotationLayers"])
        index, coref = found
        self._coreference(coref, index)
        doc.attrs[STATE] = {
            "json": obj,
            "layer": list(self.wanted),
            "signature": coreference_signature(doc),
        }
        return doc

    # ------------------------------------------------------------------ layers
    def _layers(self, value: Any) -> dict[tuple[str, int], tuple[int, Any]]:
        """(type, version) → (position, decoded content) for every usable layer."""
        if not isinstance(value, list):
            raise self.error("'annotationLayers' must be a list of layer objects",
                             "lcc.bad-layers", ["annotationLayers"] if value is not None else [])
        self.layer_lines = self._content_lines(value)
        found: dict[tuple[str, int], tuple[int, Any]] = {}
        for index, layer in enumerate(value):
            line = self.layer_lines.get(index)
            if not isinstance(layer, dict) or not isinstance(layer.get("type"), str):
                raise self.error(f"layer {index + 1} is not an object with a 'type'",
                                 "lcc.bad-layer", ["annotationLayers", index])
            kind = layer["type"]
            version: Any = layer.get("version")
            if isinstance(version, str) and version.isdecimal():
                version = int(version)
            elif isinstance(version, (list, dict)):
                raise self.error(f"layer {index + 1} ({kind}) has a 'version' that is a JSON "
                                 f"{_json_type(version)}, expected a number", "lcc.bad-layer",
                                 ["annotationLayers", index, "version"])
            raw = layer.get("content")
            name = f"{kind} v{version}"
            if not isinstance(raw, str):
                self._bad_layer(name, index, "its 'content' is not a string (it must hold a JSON "
                                             "document serialised into a string)")
                continue
            try:
                decoded = json.loads(raw)
            except json.JSONDecodeError as exc:
                self._bad_layer(name, index, f"its content is not valid JSON ({exc.msg} at "
                                             f"character {exc.pos + 1} of the layer's content)")
                continue
            except RecursionError:
                self._bad_layer(name, index, "its content nests arrays and objects too deeply "
                                             "for the JSON parser")
                continue
            except ValueError:  # an integer longer than Python converts
                self._bad_layer(name, index, "its content holds a number too long to read")
                continue
            if isinstance(decoded, dict) and set(decoded) == {"error"}:
                detail = json.dumps(decoded["error"], ensure_ascii=False)
                self.repair("lcc.layer-error", f"layer {name} holds an error object instead of "
                                               f"data ({detail}); treated as absent", line,
                            action="dropped")
                continue
            key = (kind, version)
            if key in found:
                self.repair("lcc.duplicate-layer", f"a second {name} layer; used the first", line,
                            action="dropped")
                continue
            found[key] = (index, decoded)
        return found

    def _bad_layer(self, name: str, index: int, why: str) -> None:
        if not self.lenient:
            raise self.error(f"layer {name}: {why}; fix the layer, or read with the lenient "
                             "option to skip it", "lcc.layer-invalid-json",
                             self.layer_path(index))
        self.repair("lcc.layer-invalid-json", f"layer {name}: {why}; skipped",
                    self.layer_lines.get(index), action="dropped")

    def _content_lines(self, layers: list[Any]) -> dict[int, int]:
        """The line where each layer's ``content`` value starts, where the file has one."""
        found = {}
        for index, layer in enumerate(layers):
            if isinstance(layer, dict) and "content" in layer:
                place = locate(self.text, self.layer_path(index))
                if place is not None:
                    found[index] = place[0]
        return found

    # ------------------------------------------------------------------ text
    def _text_layer(self, content: str, lex_found: tuple[int, Any] | None) -> None:
        doc = self.doc
        assert doc is not None
        if lex_found is None:
            if not self.lenient:
                raise self.error("no lex layer (tokens and sentences); read with the lenient "
                                 "option to tokenise on whitespace", "lcc.no-lex",
                                 ["annotationLayers"])
            self.repair("lcc.no-lex", "no lex layer; tokenised on whitespace, one sentence per line")
            seg = [[m.start(), m.end() - m.start()] for m in re.finditer(r"\S+", content)]
            sentences = [[m.start(), m.end() - m.start()] for m in re.finditer(r"[^\n]*\S[^\n]*", content)]
            paragraphs = sentences
            line = None
        else:
            index, lex = lex_found
            line = self.layer_lines.get(index)
            path = self.layer_path(index)
            if not isinstance(lex, dict) or not isinstance(lex.get("seg"), list):
                raise self.error("the lex layer has no 'seg' list of token spans", "lcc.bad-lex",
                                 path, "seg")
            seg, sentences, paragraphs = lex["seg"], lex.get("s") or [], lex.get("p") or []
            for name, value in (("s", sentences), ("p", paragraphs)):
                if not isinstance(value, list):
                    raise self.error(f"the lex layer's {name!r} is a JSON "
                                     f"{_json_type(value)}, expected a list of spans",
                                     "lcc.bad-lex", path, name)
        for name, spans in (("seg", seg), ("s", sentences), ("p", paragraphs)):
            for i, span in enumerate(spans):
                if not _is_span(span) or span[0] < 0 or span[0] + span[1] > len(content):
                    raise self.error(f"lex {name}[{i}] is {_brief(span)}; expected [offset, "
                                     f"length] inside the text ({len(content)} characters)",
                                     "lcc.bad-lex", self.layer_path(lex_found[0]) if lex_found
                                     else ["content"], f"{name}[{i}]" if lex_found else None)
        order = sorted(range(len(seg)), key=lambda i: (seg[i][0], seg[i][1]))
        if order != list(range(len(seg))):
            self.repair("lcc.unsorted-tokens", "the lex tokens are not in text order; sorted them", line)
        self.token_order = order  # file position of each token, for the morphology layer
        spans = [seg[i] for i in order]
        sentences, paragraphs = sorted(sentences), sorted(paragraphs)
        starts = [s[0] for s in sentences] if sentences else [0]
        ends = [s[0] + s[1] for s in sentences] if sentences else [len(content)]
        paragraph_starts = [p[0] for p in paragraphs]
        groups: list[list[int]] = []
        group_sentence = -1
        outside = 0
        for t, (start, length) in enumerate(spans):
            s = max(bisect.bisect_right(starts, start) - 1, 0)
            if not (starts[s] <= start and start + length <= ends[s]):
                outside += 1
            if s != group_sentence:
                groups.append([])
                group_sentence = s
            groups[-1].append(t)
        if outside:
            self.repair("lcc.token-outside-sentence",
                        f"{outside} tokens are not inside a sentence span of lex.s; each was put "
                        "in the sentence where it starts", line)
        for group in groups:
            tokens = []
            for t in group:
                start, length = spans[t]
                tokens.append(Token(content[start:start + length], -1, -1, {"lcc_offset": [start, length]}))
            for a, b in zip(tokens, tokens[1:]):
                if a.attrs["lcc_offset"][0] + a.attrs["lcc_offset"][1] == b.attrs["lcc_offset"][0]:
                    a.misc = "SpaceAfter=No"
            first = spans[group[0]][0]
            paragraph = max(bisect.bisect_right(paragraph_starts, first) - 1, 0)
            doc.add_sentence(tokens, attrs={"lcc_paragraph": paragraph})
        self.token_starts = [s[0] for s in spans]
        self.token_ends = [s[0] + s[1] for s in spans]
        self.content = content

    def _morphology(self, found: tuple[int, Any] | None) -> None:
        if found is None:
            return
        doc = self.doc
        assert doc is not None
        index, morphology = found
        line = self.layer_lines.get(index)
        msd = morphology.get("msd") if isinstance(morphology, dict) else None
        if not isinstance(msd, list) or len(msd) != len(doc.tokens):
            got = len(msd) if isinstance(msd, list) else "no"
            self.repair("lcc.morphology-misaligned",
                        f"the morphology layer has {got} entries for {len(doc.tokens)} tokens; "
                        "morphology not read", line, action="dropped")
            return
        stems = morphology.get("stem")
        if not isinstance(stems, list) or len(stems) != len(msd):
            stems = None
        for position, file_index in enumerate(self.token_order):
            token = doc.tokens[position]
            candidates = msd[file_index]
            if not isinstance(candidates, list):
                continue
            pairs = [list(c) for c in candidates if isinstance(c, list) and len(c) == 2]
            token.attrs["lcc_msd"] = pairs
            if pairs:
                token.lemma, token.xpos = str(pairs[0][0]), str(pairs[0][1])
            if stems is not None:
                token.attrs["lcc_stem"] = stems[file_index]

    def _ner(self, found: tuple[int, Any] | None) -> None:
        """Named-entity class per token (``attrs["ner"]``); the layer itself stays opaque."""
        if found is None:
            return
        doc = self.doc
        assert doc is not None
        _, ner = found
        entities = ner.get("ne") if isinstance(ner, dict) else None
        if not isinstance(entities, dict):
            return
        position_of = {file_index: position for position, file_index in enumerate(self.token_order)}
        for category, items in entities.items():
            for item in items if isinstance(items, list) else []:
                ref = item.get("ref") if isinstance(item, dict) else None
                if not _is_span(ref):
                    continue
                for file_index in range(ref[0], ref[0] + ref[1]):
                    position = position_of.get(file_index)
                    if position is not None:
                        doc.tokens[position].attrs.setdefault("ner", category)

    # ------------------------------------------------------------------ coreference
    def _coreference(self, coref: Any, index: int) -> None:
        doc = self.doc
        assert doc is not None
        line = self.layer_lines.get(index)
        name = layer_name(self.wanted)
        links = coref.get("coreferences") if isinstance(coref, dict) else None
        if not isinstance(links, list):
            raise self.error(f"the {name} layer has no 'coreferences' list",
                             "lcc.bad-coreferences", self.layer_path(index), "coreferences")
        mentions: dict[tuple[str, tuple[int, ...]], Mention] = {}
        types: dict[Mention, list[str]] = {}
        records: list[dict[str, Any]] = []
        seen: set[str] = set()
        snapped_reported: set[tuple[int, int]] = set()
        for number, link in enumerate(links, 1):
            where = f"{name} link {number}"
            antecedents, code = self._link_parts(link, where, line,
                                                 (self.layer_path(index), number - 1))
            raw_key = json.dumps([link["Referant"], antecedents, code])
            if raw_key in seen:
                self.repair("lcc.duplicate-link", f"{where} repeats an earlier link "
                                                  f"({self._quote(link['Referant'])}); read once", line,
                            action="dropped")
                continue
            seen.add(raw_key)
            spans = [link["Referant"], *antecedents]
            snapped = [self._snap(span, where, line, snapped_reported) for span in spans]
            if any(s is None for s in snapped):
                continue
            dd = code.startswith("a") and not self.adverbial_as_identity
            layer = DISCOURSE_DEIXIS if dd else IDENTITY
            found = self._link_mentions(spans, cast("list[tuple[int, ...]]", snapped), layer, line,
                                        mentions)
            anaphor, targets = found[0], []
            for target in found[1:]:
                if target is anaphor:
                    self.repair("lcc.self-link", f"{where}: the referring expression "
                                                 f"{self._quote(link['Referant'])} is its own antecedent; "
                                                 "that pair was skipped", line, action="dropped")
                elif target not in targets:
                    targets.append(target)
            self._check_type(code, link, where, line)
            types.setdefault(anaphor, []).append(code)
            if len(code) == 4 and code[3] == "a":
                anaphor.attrs["ambiguous"] = True
            if code.startswith("e"):
                anaphor.attrs["ellipsis_anchor"] = True
            if not antecedents:
                self.repair("lcc.no-antecedent", f"{where}: the referring expression "
                                                 f"{self._quote(link['Referant'])} has no antecedent; "
                                                 "it is kept as a mention of its own entity", line)
            records.append({"anaphor": anaphor.id, "antecedents": [m.id for m in targets],
                            "type": code, "layer": layer, "index": number - 1})
        for mention, codes in types.items():
            # one string even for the referring expression of several links ("ghps,gtis"):
            # attribute values travel through other formats as strings (lcc.md §4 says a
            # list; a list does not survive CorefUD or MMAX2 attributes)
            mention.attrs["lcc_type"] = ",".join(codes)
        for mention in mentions.values():
            if len(mention.attrs["_lcc_spans"]) == 1 and mention.attrs["_lcc_spans"][0] == self._token_span(mention):
                del mention.attrs["_lcc_spans"]  # on the token grid: nothing to remember
        self._entities(records, line)
        doc.attrs[LINKS] = records

    def _link_parts(self, link: Any, where: str, line: int | None,
                    at: tuple[list[str | int], int]) -> tuple[list[Any], str]:
        """A link's antecedent spans and type code; rejects a link without valid spans (``at``:
        the layer's path and the link's index, for the message)."""
        layer, number = at
        if not isinstance(link, dict) or not _is_span(link.get("Referant")):
            got = link.get("Referant") if isinstance(link, dict) else link
            raise self.error(f"{where}: 'Referant' is {_brief(got)}; every link needs the "
                             "referring expression's span as [offset, length]", "lcc.bad-link",
                             layer, f"coreferences[{number}].Referant")
        antecedents = link.get("Mentions", [])
        if not isinstance(antecedents, list) or not all(_is_span(m) for m in antecedents):
            raise self.error(f"{where}: 'Mentions' is {_brief(antecedents)}; expected a list of "
                             "[offset, length] spans", "lcc.bad-link", layer,
                             f"coreferences[{number}].Mentions")
        code = link.get("Type")
        if not isinstance(code, str) or not TYPE_RE.match(code):
            self.repair("lcc.bad-type", f"{where}: type {code!r} is not a 4-letter LCC type "
                                        "code; kept as given" if isinstance(code, str) else
                        f"{where}: no type code; used {UNKNOWN_TYPE}", line)
            code = code if isinstance(code, str) else UNKNOWN_TYPE
        return antecedents, code

    def _link_mentions(self, spans: list[list[int]], snapped: list[tuple[int, ...]], layer: str,
                       line: int | None,
                       mentions: dict[tuple[str, tuple[int, ...]], Mention]) -> list[Mention]:
        """The mentions of a link's spans (one per layer and tokens, created when first seen)."""
        doc = self.doc
        assert doc is not None
        found = []
        for span, tokens in zip(spans, snapped):
            key = (layer, tokens)
            mention = mentions.get(key)
            if mention is None:
                mention = doc.add_mention(tokens, layer=layer, line=line, attrs={"_lcc_spans": []})
                mentions[key] = mention
            if span not in mention.attrs["_lcc_spans"]:
                mention.attrs["_lcc_spans"].append(list(span))
            found.append(mention)
        return found

    def _quote(self, span: list[int]) -> str:
        return repr(self.content[span[0]:span[0] + span[1]])

    def _token_span(self, mention: Mention) -> list[int]:
        start = self.token_starts[mention.start]
        return [start, self.token_ends[mention.end] - start]

    def _snap(self, span: list[int], where: str, line: int | None,
              reported: set[tuple[int, int]]) -> tuple[int, ...] | None:
        """The tokens a character span covers (lcc.md §2), or None when it covers none."""
        content = self.content
        start, end = span[0], span[0] + span[1]
        if start < 0 or end > len(content) or start >= end:
            self.repair("lcc.span-outside-text",
                        f"{where}: span {span} is outside the text ({len(content)} characters) or "
                        "empty; the link was dropped", line, action="dropped")
            return None
        a, b = start, end
        while a < b and content[a].isspace():
            a += 1
        while b > a and content[b - 1].isspace():
            b -= 1
        first = bisect.bisect_right(self.token_ends, a)
        last = bisect.bisect_left(self.token_starts, b) - 1
        if a >= b or first > last:
            self.repair("lcc.span-outside-text",
                        f"{where}: span {span} ({content[start:end]!r}) covers no token; the link "
                        "was dropped", line, action="dropped")
            return None
        new_start, new_end = self.token_starts[first], self.token_ends[last]
        if (new_start, new_end) != (start, end) and (start, end) not in reported:
            reported.add((start, end))
            self.repair("lcc.snapped-span",
                        f"{where}: span {content[start:end]!r} does not fall on token boundaries; "
                        f"read as the tokens {content[new_start:new_end]!r} (the character span "
                        "is kept on the mention)", line)
        return tuple(range(first, last + 1))

    def _check_type(self, code: str, link: dict, where: str, line: int | None) -> None:
        if not TYPE_RE.match(code):
            return
        n = len(link.get("Mentions", []))
        if code[3] == "g" and n == 1:
            self.repair("lcc.group-one-antecedent",
                        f"{where}: group type {code} with one antecedent; read as identity", line)
        elif code[3] in "sa" and n > 1:
            self.repair("lcc.type-count-mismatch",
                        f"{where}: type {code} says one antecedent but the link has {n}; read as a "
                        "group reference", line)
        starts = [m[0] for m in link.get("Mentions", [])]
        referant = link["Referant"][0]
        if starts and ((code[2] == "a" and not all(s < referant for s in starts))
                       or (code[2] == "p" and not all(s > referant for s in starts))):
            actual = "after" if code[2] == "a" else "before"
            self.repair("lcc.direction-mismatch",
                        f"{where}: type {code} is {'anaphoric' if code[2] == 'a' else 'cataphoric'} "
                        f"but the referring expression {self._quote(link['Referant'])} does not "
                        f"come {actual} its antecedent; type kept", line)

    def _entities(self, records: list[dict[str, Any]], line: int | None) -> None:
        """Union-find over single-antecedent links; group links become accommodated sets."""
        doc = self.doc
        assert doc is not None
        by_id = {m.id: m for m in doc.mentions}
        parent: dict[int, int] = {m.id: m.id for m in doc.mentions}

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for record in records:
            dd = record["layer"] == DISCOURSE_DEIXIS
            if dd or len(record["antecedents"]) == 1:
                for other in record["antecedents"]:
                    ra, rb = find(record["anaphor"]), find(other)
                    if ra != rb:
                        parent[max(ra, rb)] = min(ra, rb)
        entities: dict[int, Entity] = {}
        for mention in sorted(doc.mentions, key=lambda m: (m.start, -m.end, m.id)):
            root = find(mention.id)
            entity = entities.get(root)
            if entity is None:
                entity = entities[root] = doc.new_entity(layer=mention.layer)
            doc.set_entity(mention, entity)
        for record in records:
            if record["layer"] != IDENTITY or len(record["antecedents"]) < 2:
                continue
            anaphor = by_id[record["anaphor"]]
            set_entity = doc.entity_of(anaphor)
            assert set_entity is not None
            for other in record["antecedents"]:
                antecedent = by_id[other]
                member = doc.entity_of(antecedent)
                assert member is not None
                if member is set_entity:
                    self.repair("lcc.group-contains-itself",
                                f"{layer_name(self.wanted)} link {record['index'] + 1}: antecedent "
                                f"{doc.text(antecedent)!r} is in the referring expression's own chain; "
                                "not recorded as a member of its set", line, action="dropped")
                    continue
                doc.add_to_set(member, set_entity, evidence=(anaphor, antecedent))
        for cycle in doc.split_antecedent_cycles():
            member, set_entity = cycle[-1], cycle[0]
            doc.remove_from_set(member, set_entity)
            self.repair("split.cycle", f"group links make a set contain itself (entities "
                                       f"{', '.join(str(e.id) for e in cycle)}); dropped one membership",
                        line, action="dropped")


def _any_version(layers: dict[tuple[str, int], tuple[int, Any]], kind: str) -> tuple[int, Any] | None:
    """The first layer of a type in file order, whatever its version."""
    for (k, _), found in layers.items():
        if k == kind:
            return found
    return None


def _brief(value: Any, limit: int = 60) -> str:
    """A value quoted in a message, cut to ``limit`` characters (a refused file's content is
    not echoed whole)."""
    try:
        text = repr(value)
    except RecursionError:
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _json_type(value: Any) -> str:
    """The JSON name of a decoded value's type (for messages)."""
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


def _file_stem(file: str) -> str:
    base = os.path.basename(file)
    for suffix in (".nkas.json", ".json"):
        if base.lower().endswith(suffix):
            return base[: -len(suffix)] or base
    return base
