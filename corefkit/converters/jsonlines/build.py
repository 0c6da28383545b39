"""What every jsonlines variant reader shares: one record becoming one :class:`Document`.

A :class:`Builder` holds the record, the document being built and where it came from (file
and line). It checks the shape of fields (a wrong one is a :class:`FormatError` naming the
document, the key and the position, with a check id), builds tokens and sentences, adds
clusters of spans (empty clusters dropped, repeated spans reported), and keeps the keys the
variant does not interpret as document metadata, so that nothing is dropped silently: string
values as they are, other values as JSON text (their keys are listed in
``doc.attrs["jsonlines_json_meta"]`` so that the writer gives back the JSON value).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from corefkit.converters.same_span import SpanOwners
from corefkit.errors import FormatError, Repair
from corefkit.model import Document, Entity, Sentence, Token

# speaker values that mean "no speaker" (OntoNotes '-', CoNLL-U '_')
NO_SPEAKER = ("-", "_", "")

BAD_FIELD = "jsonlines.bad-field"
BAD_SPAN = "jsonlines.bad-span"
LENGTH_MISMATCH = "jsonlines.length-mismatch"
MISSING_KEY = "jsonlines.missing-key"
EMPTY_CLUSTER = "jsonlines.empty-cluster"
DUPLICATE_MENTION = "jsonlines.duplicate-mention"
SAME_SPAN = "jsonlines.same-span-mentions"
MENTION_TEXT = "jsonlines.mention-text"
NULL_CLUSTERS = "jsonlines.null-clusters"
NO_CLUSTERS = "jsonlines.no-clusters"

# A mention value and where it is ("clusters[3][1]") -> (first, last) token, or None when
# the converter dropped it (and said so).
SpanReader = Callable[[Any, str], "tuple[int, int] | None"]


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def shown(value: Any, limit: int = 60) -> str:
    """A JSON value as a message quotes it (cut when long)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Builder:
    """Turns one record of a jsonlines file into a document."""

    def __init__(self, record: dict[str, Any], variant: str, file: str, line: int,
                 doc: Document) -> None:
        self.record = record
        self.variant = variant
        self.file = file
        self.line = line
        self.doc = doc
        doc.line = line
        doc.attrs["jsonlines_variant"] = variant
        doc.attrs["jsonlines_keys"] = list(record)
        self.spans = SpanOwners(quote=False)

    # ------------------------------------------------------------------ reporting
    def fail(self, check: str, message: str) -> FormatError:
        return FormatError(f"document {self.doc.name!r}: {message}", file=self.file,
                           line=self.line, check=check)

    def repair(self, check: str, message: str, action: str = "kept") -> None:
        self.doc.repairs.append(Repair(check, f"document {self.doc.name!r}: {message}",
                                       self.file, self.line, None, self.doc.name, action))

    # ------------------------------------------------------------------ fields
    def require(self, key: str) -> Any:
        if key not in self.record:
            raise self.fail(MISSING_KEY, f"the {self.variant} variant needs the key {key!r}; "
                            f"this record has {', '.join(repr(k) for k in self.record)}")
        return self.record[key]

    def clusters(self, key: str) -> Any:
        """The value of the clusters key ``key``. Without it the record would read as a
        document without coreference (every score 0): null, a missing key or another key
        named like clusters (renamed, misspelt) is a repair only ``--lenient`` accepts."""
        value = self.record.get(key)
        if value is not None:
            return value
        if key in self.record:
            self.repair(NULL_CLUSTERS, f"{key} is null; write [] for a document without "
                        "clusters; read as no clusters", action="read as empty")
            return []
        alike = self.cluster_like_keys()
        found = (f", but has {', '.join(map(repr, alike))}: rename it {key!r}" if alike
                 else " (write [] for a document without clusters)")
        self.repair(NO_CLUSTERS, f"the record has no {key!r}, where the {self.variant} "
                    f"variant keeps the clusters{found}; read as no clusters",
                    action="read as empty")
        return []

    def cluster_like_keys(self) -> list[str]:
        """The record's keys named like a clusters key (a renamed or misspelt one)."""
        return [k for k in self.record if "cluster" in k.lower() or "chain" in k.lower()]

    def list_of(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(BAD_FIELD, f"{where} should be a list, not {shown(value)}")
        return value

    def strings(self, value: Any, where: str) -> list[str]:
        items = self.list_of(value, where)
        for i, item in enumerate(items):
            if not isinstance(item, str):
                raise self.fail(BAD_FIELD, f"{where}[{i}] should be a string, not {shown(item)}")
        return items

    def ints(self, value: Any, where: str) -> list[int]:
        items = self.list_of(value, where)
        for i, item in enumerate(items):
            if not is_int(item):
                raise self.fail(BAD_FIELD, f"{where}[{i}] should be an integer, not "
                                f"{shown(item)}")
        return items

    def token_lists(self, key: str) -> list[list[str]]:
        """``sentences``: a list of lists of strings."""
        value = self.list_of(self.require(key), key)
        return [self.strings(sentence, f"{key}[{i}]") for i, sentence in enumerate(value)]

    def like_sentences(self, key: str, sentences: Sequence[Sequence[str]]) -> list[Any]:
        """A per-token field nested like ``sentences`` (e2e ``speakers``), flattened."""
        value = self.list_of(self.record[key], key)
        if len(value) != len(sentences):
            raise self.fail(LENGTH_MISMATCH, f"{key} has {len(value)} lists but sentences has "
                            f"{len(sentences)}")
        flat: list[Any] = []
        for i, (items, words) in enumerate(zip(value, sentences)):
            items = self.list_of(items, f"{key}[{i}]")
            if len(items) != len(words):
                raise self.fail(LENGTH_MISMATCH, f"{key}[{i}] has {len(items)} values but "
                                f"sentence {i} has {len(words)} tokens")
            flat.extend(items)
        return flat

    def per_word(self, key: str, count: int) -> list[Any]:
        """A flat per-word field (wl-coref ``sent_id``, ``speaker``...)."""
        value = self.list_of(self.record[key], key)
        if len(value) != count:
            raise self.fail(LENGTH_MISMATCH, f"{key} has {len(value)} values for {count} words")
        return value

    # ------------------------------------------------------------------ text layer
    def set_sentences(self, sentences: Iterable[Sequence[str]]) -> None:
        tokens: list[Token] = []
        spans: list[Sentence] = []
        for index, words in enumerate(sentences):
            start = len(tokens)
            tokens.extend([Token(word, start + i, index) for i, word in enumerate(words)])
            spans.append(Sentence(index, start, len(tokens)))
        self.doc.tokens = tokens
        self.doc.sentences = spans

    def set_speakers(self, speakers: Sequence[Any], key: str) -> None:
        """Per-token speakers; '-', '_' and '' mean none (the spelling is kept for writing)."""
        tokens = self.doc.tokens
        for i, (token, speaker) in enumerate(zip(tokens, speakers)):
            if not isinstance(speaker, str):
                raise self.fail(BAD_FIELD, f"the speaker of token {i} ({key}) should be a "
                                f"string, not {shown(speaker)}")
            if speaker in NO_SPEAKER:
                self.doc.attrs.setdefault("jsonlines_no_speaker", speaker)
            else:
                token.speaker = speaker
        for sentence in self.doc.sentences:
            found = {tokens[i].speaker for i in sentence.token_indices()}
            if len(found) == 1:
                sentence.speaker = found.pop()

    # ------------------------------------------------------------------ coreference
    def inclusive_span(self, value: Any, where: str) -> tuple[int, int]:
        """``[start, end]``, both included, over the document's tokens."""
        start, end = self.pair(value, where)
        self.within(start, end, where, value, self.doc.token_count)
        return start, end

    def exclusive_span(self, value: Any, where: str) -> tuple[int, int]:
        """``[start, end)`` over the document's tokens."""
        start, end = self.pair(value, where)
        if end <= start:
            raise self.fail(BAD_SPAN, f"{where} = {shown(value)} is empty: the end is exclusive "
                            "and must be after the start")
        self.within(start, end - 1, where, value, self.doc.token_count)
        return start, end - 1

    def pair(self, value: Any, where: str, size: int = 2) -> list[int]:
        if (not isinstance(value, list) or len(value) != size
                or not all(is_int(v) for v in value)):
            raise self.fail(BAD_SPAN, f"{where} should be {size} integers, not {shown(value)}")
        return value

    def within(self, start: int, end: int, where: str, value: Any, count: int,
               what: str = "the document") -> None:
        if start < 0 or end < start or end >= count:
            reason = ("starts before the first token" if start < 0 else
                      "ends before it starts" if end < start else
                      f"ends after the last token of {what} ({count} tokens)")
            raise self.fail(BAD_SPAN, f"{where} = {shown(value)} {reason}")

    def add_clusters(self, key: str, value: Any, read_span: SpanReader) -> None:
        """Every cluster of ``value`` as an entity; mentions through ``read_span``."""
        clusters = self.list_of(value, key)
        for k, cluster in enumerate(clusters):
            mentions = self.list_of(cluster, f"{key}[{k}]")
            if not mentions:
                self.repair(EMPTY_CLUSTER, f"{key}[{k}] is an empty cluster; dropped it",
                            action="dropped")
                continue
            entity = self.doc.new_entity(attrs={"original_id": str(k)})
            for j, mention in enumerate(mentions):
                where = f"{key}[{k}][{j}]"
                span = read_span(mention, where)
                if span is not None:
                    self.add_mention(span, entity, where)
            if self.doc.size(entity) == 0:
                self.doc.remove_entity(entity)

    def add_mention(self, span: tuple[int, int], entity: Entity, where: str,
                    head: int | None = None) -> None:
        cid = str(entity.attrs["original_id"])
        repeat = self.spans.add(span, cid)
        if repeat is not None and repeat.duplicate:
            self.repair(DUPLICATE_MENTION, f"{where}: tokens {span[0]}-{span[1]} are a "
                        f"mention of cluster {cid} already; kept one", action="dropped")
            return
        if repeat is not None:
            self.repair(SAME_SPAN, f"{where}: tokens {span[0]}-{span[1]} are a mention of "
                        f"cluster {cid} and of cluster {repeat.others}; kept both (the merge-same-span "
                        "pass resolves them)")
        self.doc.add_mention(range(span[0], span[1] + 1), entity, head=head, line=self.line)

    def check_texts(self, key: str, stated: Any, actual: list[list[str]]) -> None:
        """Mention strings a file states beside its clusters (fastcoref ``clusters_strings``,
        Maverick ``clusters_token_text``) against the text the offsets give: a warning at the
        first difference."""
        if not isinstance(stated, list):
            return
        for k, (said, found) in enumerate(zip(stated, actual)):
            if not isinstance(said, list):
                continue
            for j, (a, b) in enumerate(zip(said, found)):
                if a != b:
                    self.repair(MENTION_TEXT, f"{key}[{k}][{j}] says {a!r} but the offsets "
                                f"give {b!r}; the offsets were read")
                    return

    # ------------------------------------------------------------------ the rest
    def keep_extras(self, used: Iterable[str]) -> None:
        """Keys the variant does not interpret become document metadata."""
        done = set(used)
        json_keys = []
        for key, value in self.record.items():
            if key in done:
                continue
            if isinstance(value, str):
                self.doc.meta[key] = value
            else:
                self.doc.meta[key] = json.dumps(value, ensure_ascii=False)
                json_keys.append(key)
        if json_keys:
            self.doc.attrs["jsonlines_json_meta"] = json_keys
