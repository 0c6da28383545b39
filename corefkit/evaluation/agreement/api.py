"""``agree``: inter-annotator agreement on mentions and chains, as ``corefkit agree`` runs it.

Read the annotations and pair their documents (:mod:`.sources`), put each document's
annotations on common tokens (:mod:`.tokens`), then per pair of annotators: mention F1 under
exact, partial and head matching and the chain metrics, each annotator as key in turn
(:mod:`.scores`, through corefkit's scoring engine), Cohen's κ over tokens and Krippendorff's
α with the MASI distance over the mentions both marked (:mod:`.units`, :mod:`.coefficients`),
the disagreements with their places (:mod:`.disagreements`); for all annotators Fleiss' κ and
α; and, when asked, the adjudication draft (:mod:`.merge`) written by the normal writers.
"""

from __future__ import annotations

import itertools
import os
from fractions import Fraction
from collections.abc import Callable, Sequence
from typing import Any

from corefkit.errors import CorefkitError, UsageError
from corefkit.evaluation.agreement.coefficients import Alpha
from corefkit.evaluation.agreement.disagreements import (
    CATEGORIES,
    Disagreement,
    Matching,
    TypeCount,
    disagreements,
    match_mentions,
    type_counts,
)
from corefkit.evaluation.agreement.merge import MARK, MergeSummary, merge_document
from corefkit.evaluation.agreement.report import (
    AgreementReport,
    DocumentAgreement,
    PairAgreement,
    TypeAgreement,
)
from corefkit.evaluation.agreement.scores import CHAIN_METRICS, MATCHES, score_pair, with_heads
from corefkit.evaluation.agreement.sources import Inputs, collect
from corefkit.evaluation.agreement.tokens import TextNote, common_layer
from corefkit.evaluation.agreement.units import (
    Chains,
    chain_values,
    cohen_tokens,
    fleiss_tokens,
    masi_alpha,
)
from corefkit.model import Document

Pair = tuple[str, str]


class Study:
    """The annotations on common tokens, document by document, and what each pair found."""

    def __init__(self, inputs: Inputs, type_table: Any = None) -> None:
        from corefkit.analysis.mention_types import MentionTyper, load_type_table

        self.inputs = inputs
        self.labels = inputs.labels
        self.names: list[str] = []
        self.docs: list[dict[str, Document]] = []       # per document: label -> common doc
        self.text: list[list[TextNote]] = []
        table = load_type_table(type_table)
        for group in inputs.groups:
            common, notes = common_layer(group.name, group.part, group.labels, group.documents)
            docs = {label: with_heads(d) for label, d in zip(group.labels, common)}
            self.names.append(common[0].name)
            self.docs.append(docs)
            self.text.append(notes)
        self.matchings: dict[tuple[int, Pair], Matching] = {}
        self.typers = [{label: MentionTyper(d, table) for label, d in docs.items()}
                       for docs in self.docs]
        self.chains: list[dict[str, Chains]] = [
            {label: chain_values(d, n) for label, d in docs.items()}
            for n, docs in enumerate(self.docs)]

    def pairs(self) -> list[Pair]:
        return list(itertools.combinations(self.labels, 2))

    def documents_of(self, pair: Pair) -> list[int]:
        return [n for n, docs in enumerate(self.docs) if pair[0] in docs and pair[1] in docs]

    def matching(self, n: int, pair: Pair) -> Matching:
        key = (n, pair)
        if key not in self.matchings:
            docs = self.docs[n]
            self.matchings[key] = match_mentions(docs[pair[0]], docs[pair[1]])
        return self.matchings[key]


def agree(sources: Any, *, labels: Sequence[str] = (), layers: Sequence[str] = (),
          format: str | None = None, read_options: dict[str, Any] | None = None,
          lenient: bool = False, passes: Sequence[str] = (), curation: bool = False,
          match: str = "exact", remove_singletons: bool = False, type_table: Any = None,
          merge: str | None = None, output: str | os.PathLike[str] | None = None,
          output_format: str | None = None, write_options: dict[str, Any] | None = None,
          mark: str = MARK, fail_on_loss: bool = False,
          progress: Callable[[str], None] | None = None) -> AgreementReport:
    """Agreement between annotators; see :func:`corefkit.agree` (which adds the HTML view).
    ``report.annotations`` keeps each document's annotations on their common tokens."""
    if match not in MATCHES:
        raise UsageError(f"unknown mention matching {match!r}; expected one of "
                         f"{', '.join(MATCHES)}")
    if (merge is None) != (output is None):
        raise UsageError("an adjudication draft needs both --merge RULE and -o OUTPUT")
    if output is not None and os.path.exists(os.fspath(output)):
        raise UsageError(f"{os.fspath(output)} exists; the draft is never written over a file "
                         "or folder: give a new name")
    given = [sources] if isinstance(sources, (str, os.PathLike)) else list(sources)
    inputs = collect(given, labels=labels, layers=layers, format=format,
                     read_options=read_options, lenient=lenient, passes=passes,
                     curation=curation)
    study = Study(inputs, type_table)
    report = _measure(study, match, remove_singletons, progress)
    report.options.update(labels=list(inputs.labels), layers=list(layers), passes=list(passes),
                          remove_singletons=remove_singletons)
    warnings = [*inputs.notes, *(r for g in inputs.groups for d in g.documents
                                 for r in d.repairs)]
    report.warnings = _unique([*warnings, *report.warnings])
    if merge is not None:
        assert output is not None
        _draft(study, report, merge, output, output_format, write_options or {}, mark,
               fail_on_loss)
    report.annotations = study.docs
    return report


# ------------------------------------------------------------------------------ measuring
def _measure(study: Study, match: str, remove_singletons: bool,
             progress: Callable[[str], None] | None) -> AgreementReport:
    pairs: list[PairAgreement] = []
    per_document: dict[int, list[PairAgreement]] = {n: [] for n in range(len(study.docs))}
    found: list[Disagreement] = []
    mention_types: dict[str, dict[Pair, TypeCount]] = {}
    entity_types: dict[str, dict[Pair, TypeCount]] = {}
    warnings = []
    for pair in study.pairs():
        where = study.documents_of(pair)
        if not where:
            continue
        if progress is not None:
            progress(f"{pair[0]}–{pair[1]}")
        first = [study.docs[n][pair[0]] for n in where]
        second = [study.docs[n][pair[1]] for n in where]
        scores = score_pair(first, second, remove_singletons=remove_singletons)
        warnings += scores.warnings
        for n, a, b in zip(where, first, second):
            matching = study.matching(n, pair)
            found += disagreements(study.names[n], pair, a, b, matching)
            _add_types(study, n, pair, a, b, matching, mention_types, entity_types)
            own = scores.documents.get(study.names[n], {})
            per_document[n].append(PairAgreement(
                pair[0], pair[1], 1, {m: own[m]["mentions"] for m in MATCHES},
                {m: own[match][m] for m in CHAIN_METRICS}, cohen_tokens([a], [b]),
                masi_alpha([[study.chains[n][pair[0]], study.chains[n][pair[1]]]])))
        pairs.append(PairAgreement(
            pair[0], pair[1], len(where), {m: scores.total[m]["mentions"] for m in MATCHES},
            {m: scores.total[match][m] for m in CHAIN_METRICS}, cohen_tokens(first, second),
            masi_alpha([[study.chains[n][pair[0]], study.chains[n][pair[1]]] for n in where]),
            scores.counts))
    documents = []
    for n, name in enumerate(study.names):
        labels = list(study.docs[n])
        counts = {c: 0 for c in CATEGORIES}
        for d in found:
            if d.document == name:
                counts[d.category] += 1
        documents.append(DocumentAgreement(
            name, labels, per_document[n], fleiss_tokens([list(study.docs[n].values())]),
            masi_alpha([[study.chains[n][label] for label in labels]]), counts,
            study.text[n]))
    complete = [n for n, docs in enumerate(study.docs) if len(docs) == len(study.labels)]
    fleiss = fleiss_tokens([[study.docs[n][label] for label in study.labels]
                            for n in complete])
    alpha = masi_alpha([[study.chains[n][label] for label in study.labels] for n in complete]) \
        if complete else Alpha(None, 0, 0, Fraction(0), Fraction(0))
    types = [TypeAgreement("mention", t, [(a, b, c) for (a, b), c in per.items()])
             for t, per in mention_types.items()]
    types += [TypeAgreement("entity", t, [(a, b, c) for (a, b), c in per.items()])
              for t, per in sorted(entity_types.items())]
    return AgreementReport(study.labels, dict(study.inputs.sources), {"match": match}, pairs,
                           documents, fleiss, alpha, len(complete), _ordered(types), found,
                           [note for notes in study.text for note in notes],
                           warnings=_unique(warnings))


def _add_types(study: Study, n: int, pair: Pair, a: Document, b: Document, matching: Matching,
               mention_types: dict[str, dict[Pair, TypeCount]],
               entity_types: dict[str, dict[Pair, TypeCount]]) -> None:
    typers = study.typers[n]
    by_mention = type_counts(a, b, matching, [lambda m: typers[pair[0]](m).type,
                                              lambda m: typers[pair[1]](m).type])
    for name, count in by_mention.items():
        mention_types.setdefault(name, {}).setdefault(pair, TypeCount()).add(count)

    def etype(doc: Document) -> Callable[[Any], str | None]:
        def kind(m: Any) -> str | None:
            entity = doc.entity_of(m)
            value = entity.attrs.get("etype") if entity is not None else None
            return str(value) if value not in (None, "") else None
        return kind

    by_entity = type_counts(a, b, matching, [etype(a), etype(b)])
    for name, count in by_entity.items():
        entity_types.setdefault(name, {}).setdefault(pair, TypeCount()).add(count)


def _ordered(types: list[TypeAgreement]) -> list[TypeAgreement]:
    from corefkit.analysis.mention_types import TYPES

    rank = {t: n for n, t in enumerate(TYPES)}
    return sorted(types, key=lambda t: (t.kind != "mention", rank.get(t.type, len(rank)),
                                        t.type))


def _unique(records: Sequence[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for r in records:
        key = str(r)
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


# ------------------------------------------------------------------------------ the draft
def _draft(study: Study, report: AgreementReport, rule: str, output: str | os.PathLike[str],
           output_format: str | None, write_options: dict[str, Any], mark: str,
           fail_on_loss: bool) -> None:
    from corefkit.evaluation.agreement.merge import threshold

    threshold(rule, len(study.labels))  # an unknown rule is refused before anything is done
    summary = MergeSummary(rule, len(study.labels))
    drafts = []
    for docs in study.docs:
        labels = list(docs)
        drafts.append(merge_document([docs[label] for label in labels], labels, rule, summary,
                                     mark))
    report.merge = summary
    report.written, report.losses = write_drafts(drafts, output, output_format, write_options,
                                                 fail_on_loss)


def write_drafts(drafts: list[Document], output: str | os.PathLike[str],
                 output_format: str | None, options: dict[str, Any],
                 fail_on_loss: bool) -> tuple[list[str], list[str]]:
    """Write the drafts through the normal writers: a format that writes a folder gets
    ``output``; one document, or a file name whose extension is the format's, one file; else a
    folder ``output`` with one file per document. Returns (files written, losses)."""
    from corefkit.converters.registry import get, output_format as chosen_format, write

    path = os.fspath(output)
    fmt = output_format or _named_format(path) or drafts[0].source_format
    if fmt is None:
        raise UsageError("cannot tell the draft's format: give --to")
    spec = chosen_format(path, fmt)
    losses: list[str] = []
    if spec.writes_directory or len(drafts) == 1 or _named_format(path) is not None:
        report = write(drafts, path, spec.name, fail_on_loss=fail_on_loss, **options)
        return [path], [str(loss) for loss in report.losses]
    os.makedirs(path)
    suffix = _suffix(get(spec.name).patterns)
    written = []
    for doc in drafts:
        target = os.path.join(path, _file_name(doc.name) + suffix)
        if os.path.exists(target):
            raise CorefkitError(f"{target}: two documents would be written to this file")
        report = write([doc], target, spec.name, fail_on_loss=fail_on_loss, **options)
        losses += [str(loss) for loss in report.losses]
        written.append(target)
    return written, losses


def _named_format(path: str) -> str | None:
    from corefkit.converters.registry import formats

    name = os.path.basename(path.rstrip("/"))
    if "." not in name:
        return None
    for spec in formats():
        if any(_matches(name, pattern) for pattern in spec.patterns):
            return spec.name
    return None


def _matches(name: str, pattern: str) -> bool:
    import fnmatch

    return fnmatch.fnmatch(name, pattern)


def _suffix(patterns: Sequence[str]) -> str:
    for pattern in patterns:
        if pattern.startswith("*."):
            return pattern[1:]
    return ""


def _file_name(name: str) -> str:
    safe = "".join(c if c.isalnum() or c in "-_.," else "_" for c in name).strip(".")
    return safe or "document"
