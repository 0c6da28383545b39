"""``score``: read key and response, pair documents, align, run metrics, sum counts."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from corefkit.errors import FormatError, Repair, UsageError
from corefkit.model import Document
from corefkit.scoring.align import (
    DocumentMentions,
    align_exact,
    document_mentions,
    note,
)
from corefkit.scoring.metrics.labelled import LABELLED_METRICS, combined_labeler
from corefkit.scoring.metrics.standard import (
    CONLL_COMPONENTS,
    DEFAULT_METRICS,
    METRICS,
    BlancCounts,
    Counts,
    conll,
    reference_repeats,
)
from corefkit.scoring.partition import contingency
from corefkit.scoring.report import DocumentResult, MetricResult, ScoreReport

DOMINANT = "dominant"  # the type-aware family of corefkit.scoring.metrics.dominant
# metrics on mentions, defined by the CorefUD scorer (corefkit.scoring.semantics.corefud)
COREFUD_METRICS = ("mor", "zero")
# metrics of the UA scorer's extra layers (corefkit.scoring.semantics.ua)
UA_EXTRA_METRICS = ("non_referring", "bridging")


def parse_metrics(metrics: str | Sequence[str] | None) -> list[str]:
    """Metric names in the canonical order; ``conll`` pulls in the metrics it averages."""
    if metrics is None:
        return list(DEFAULT_METRICS)
    names = [m.strip().lower() for m in (metrics.split(",") if isinstance(metrics, str) else metrics)]
    names = [n for n in names if n]
    if "all" in names:  # "all" is the default list; "all,dominant" adds the typed family and
        # "all,by_type" a metric that reads mention labels
        labelled = load_labelled_metrics(names)
        return (list(DEFAULT_METRICS) + [n for n in names if n in labelled]
                + [DOMINANT] * (DOMINANT in names))
    labelled = load_labelled_metrics(names)
    known = set(METRICS) | {"conll", DOMINANT, *COREFUD_METRICS, *UA_EXTRA_METRICS, *labelled}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(
            f"unknown metric {', '.join(unknown)}; known metrics: {', '.join(DEFAULT_METRICS)}, "
            f"{', '.join([*COREFUD_METRICS, *UA_EXTRA_METRICS, *sorted(labelled), DOMINANT])}")
    if not names:
        raise UsageError("no metric given")
    # ``dominant`` scores typed links, not partitions: never part of the default list; nor are
    # the metrics that need mention labels
    return ([m for m in DEFAULT_METRICS if m in names] + [m for m in COREFUD_METRICS if m in names]
            + [m for m in UA_EXTRA_METRICS if m in names]
            + [m for m in names if m in labelled] + [DOMINANT] * (DOMINANT in names))


# The built-in metrics that read mention labels, and the module that registers each: imported
# only when one of them is asked for, so that a plain run does not compile them.
LABELLED_MODULES = {
    "by_type": "corefkit.scoring.metrics.by_type",        # Porada et al. 2024
    "lmuc": "corefkit.scoring.metrics.linguistic",        # Chen & Ng 2013
    "lbcub": "corefkit.scoring.metrics.linguistic",
    "lceafm": "corefkit.scoring.metrics.linguistic",
    "lceafe": "corefkit.scoring.metrics.linguistic",
}


def load_labelled_metrics(names: Sequence[str] | None = None) -> dict[str, Any]:
    """The metrics that read mention labels, by name; built-in ones are imported on demand
    (all of them when ``names`` is None), others are whatever has been registered."""
    import importlib

    wanted = LABELLED_MODULES if names is None else [n for n in names if n in LABELLED_MODULES]
    for module in {LABELLED_MODULES[n] for n in wanted}:
        importlib.import_module(module)
    return {**dict.fromkeys(LABELLED_MODULES), **LABELLED_METRICS}


def _key_format(key: Any, format: str | None) -> tuple[str | None, Any]:
    """The format of the key (``conll2012``, ``corefud``, ``ua-exploded``, ...) as far as it
    can be told before reading, and the key source to use (a peeked iterator is put back)."""
    import itertools

    def of_document(doc: Any) -> str | None:
        attrs = getattr(doc, "attrs", {})
        if attrs.get("conllu"):
            return "corefud"
        if "ua_columns" in attrs:
            return "ua-exploded"
        return None

    if isinstance(key, Document):
        return of_document(key), key
    if isinstance(key, (str, os.PathLike)) or (
            isinstance(key, (list, tuple)) and key and isinstance(key[0], (str, os.PathLike))):
        from corefkit.converters.registry import expand_paths, get

        if format is not None:
            return get(format).name, key
        first = key if isinstance(key, (str, os.PathLike)) else key[0]
        if os.fspath(first) == "-":
            return None, key
        try:
            return expand_paths(first)[0][1], key
        except Exception:  # reading reports the problem properly
            return None, key
    if isinstance(key, (list, tuple)):
        return (of_document(key[0]) if key else None), key
    items = iter(key)
    first = next(items, None)
    if first is None:
        return None, []
    return of_document(first), itertools.chain([first], items)


SEMANTICS = ("reference", "corefud", "ua")


def _choose_semantics(semantics: str | None, profile: str | None, key_format: str | None,
                      match: str | None, zero_match: str | None, keep_zeros: bool | None,
                      remove_split_antecedents: bool, only_split_antecedents: bool,
                      discourse_deixis: bool, lea_split_importance: Any) -> str:
    """Which scorer's semantics a run follows: explicit choice, else the profile's, else the
    UA-only options, else the key's format (CoNLL-U: scorer, CoNLL-UA: ua, other: reference);
    CorefUD-only options on a key of another format select scorer."""
    if semantics is not None:
        if semantics not in SEMANTICS:
            raise UsageError(f"unknown scoring semantics {semantics!r}; expected one of "
                             f"{', '.join(SEMANTICS)}")
        return semantics
    if profile is not None:
        from corefkit.scoring.semantics.corefud import load_profiles

        settings = load_profiles().get(profile)
        if settings is None:
            raise UsageError(f"unknown scoring profile {profile!r}; known profiles: "
                             f"{', '.join(sorted(load_profiles()))}")
        return settings.get("semantics", "corefud")
    if (remove_split_antecedents or only_split_antecedents or discourse_deixis
            or lea_split_importance is not None):
        return "ua"
    if key_format == "ua-exploded":
        return "ua"
    if key_format == "corefud" or any(v is not None for v in (match, zero_match, keep_zeros)):
        return "corefud"
    return "reference"


def _source_name(source: Any) -> str:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (list, tuple)) and all(isinstance(s, (str, os.PathLike)) for s in source):
        return " ".join(os.fspath(s) for s in source)
    return "<documents>"


def _documents(source: Any, format: str | None, read_options: dict[str, Any],
               lenient: bool = False) -> Iterable[Document]:
    if isinstance(source, Document):
        return [source]
    if isinstance(source, (str, os.PathLike)) or (
        isinstance(source, (list, tuple)) and source
        and all(isinstance(s, (str, os.PathLike)) for s in source)
    ):
        from corefkit.converters.registry import read

        return read(source, format=format, lenient=lenient, **read_options)
    return source


def score(
    key: Any,
    response: Any,
    metrics: str | Sequence[str] | None = None,
    *,
    format: str | None = None,
    key_format: str | None = None,
    response_format: str | None = None,
    remove_singletons: bool | None = None,
    passes: Sequence[str] = (),
    per_document: bool = False,
    read_options: dict[str, Any] | None = None,
    key_read_options: dict[str, Any] | None = None,
    response_read_options: dict[str, Any] | None = None,
    dominant_options: dict[str, Any] | None = None,
    metric_options: dict[str, dict[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
    match: str | None = None,
    zero_match: str | None = None,
    keep_zeros: bool | None = None,
    profile: str | None = None,
    semantics: str | None = None,
    remove_split_antecedents: bool = False,
    only_split_antecedents: bool = False,
    discourse_deixis: bool = False,
    lea_split_importance: Any = None,
    explain: bool = False,
    lenient: bool = False,
) -> ScoreReport:
    """Score ``response`` against ``key``.

    ``key`` and ``response`` are paths (file, directory, glob, ``-``), lists of paths, or
    iterables of :class:`Document`. Documents are paired by (id, part); key documents the
    response lacks count as entirely missed, response documents the key lacks are ignored,
    both with a warning. ``passes`` (names as for ``corefkit normalize``) are applied to both
    sides first; ``remove_singletons`` adds the ``remove-singletons`` pass.
    ``progress`` is called with the number of documents scored so far. Malformed input is
    refused (:func:`corefkit.read`) unless ``lenient``.
    ``key_read_options`` / ``response_read_options`` add reader options for one side (the
    same LCC file read as key with ``layer=manualCoreferences@1`` and as response with ``@2``);
    ``dominant_options`` (``coefficients``, ``scheme``, ``ranking``) configure the ``dominant``
    metric (:mod:`corefkit.scoring.metrics.dominant`).

    CoNLL-U keys, and any run given ``match``, ``zero_match``, ``keep_zeros`` or ``profile``,
    are scored with the CorefUD scorer 1.2's semantics (:mod:`corefkit.scoring.semantics.corefud`):
    mentions as node sets matched ``exact``, ``partial`` or by ``head``; zeros matched by
    position (``linear``) or by dependencies (``dependent``) or removed
    (``keep_zeros=False``); BLANC with the UA rule for absent link types; the metrics ``mor``
    and ``zero``; and key and response must hold the same documents, sentences and words.
    ``profile`` names settings in ``corefkit/schemas/profiles.json`` (``crac``); explicit
    values win over it. Other keys get the reference scorer's semantics.

    CoNLL-UA (exploded) keys, UA profiles (``codi-crac22-ar``, ...) and the split-antecedent
    and discourse-deixis options select the Universal Anaphora scorer's semantics
    (:mod:`corefkit.scoring.semantics.ua`): split antecedents scored by the generalized metrics of
    Paun et al. (2023) unless ``remove_split_antecedents``; ``only_split_antecedents``
    reports the split-antecedent alignment scores as the metrics; ``discourse_deixis``
    scores the DD layer; ``lea_split_importance`` is LEA's β; the metrics ``non_referring``
    and ``bridging``; ``explain`` records the set alignments and per-entity contributions in
    ``report.explanations``. ``semantics`` (``reference``, ``corefud``, ``ua``) chooses
    explicitly.
    """
    from corefkit import __version__
    from corefkit.passes import apply_passes

    if profile is not None and metrics is None:  # what the profile's official scorer prints
        from corefkit.scoring.semantics.corefud import load_profiles

        metrics = load_profiles().get(profile, {}).get("metrics", metrics)
    names = parse_metrics(metrics)
    key_format_name, key = _key_format(key, key_format or format)
    chosen = _choose_semantics(semantics, profile, key_format_name, match, zero_match, keep_zeros,
                               remove_split_antecedents, only_split_antecedents, discourse_deixis,
                               lea_split_importance)
    scorer: Any = None  # how a CorefUD or UA run reduces and aligns (None: the reference's)
    default_list = metrics is None or (isinstance(metrics, str) and metrics.strip().lower() == "all")
    if isinstance(metrics, (str, list, tuple)):  # "all" plus labelled metrics is the default too
        asked = [m.strip().lower() for m in (metrics.split(",") if isinstance(metrics, str)
                                             else metrics)]
        default_list = default_list or ("all" in asked and all(
            m in ("all", "") or m in LABELLED_METRICS for m in asked))
    if chosen == "corefud":
        from corefkit.scoring.semantics.corefud import CorefUDScoring

        if default_list:
            names = names[:len(DEFAULT_METRICS)] + list(COREFUD_METRICS) + names[len(DEFAULT_METRICS):]
        scorer = CorefUDScoring.resolve(
            match=match, zero_match=zero_match, keep_zeros=keep_zeros,
            remove_singletons=remove_singletons, profile=profile,
            metrics=[m for m in COREFUD_METRICS if m in names])
        remove_singletons = scorer.remove_singletons
    elif chosen == "ua":
        from corefkit.scoring.semantics.ua import UAScoring

        if default_list:
            names = names[:len(DEFAULT_METRICS)] + list(UA_EXTRA_METRICS) + names[len(DEFAULT_METRICS):]
        if zero_match not in (None, "linear"):
            raise UsageError("UA scoring matches zeros by position only (--zero-match linear)")
        scorer = UAScoring.resolve(
            match=match, keep_zeros=keep_zeros, remove_singletons=remove_singletons,
            remove_split_antecedents=remove_split_antecedents,
            only_split_antecedents=only_split_antecedents, discourse_deixis=discourse_deixis,
            lea_split_importance=lea_split_importance, profile=profile,
            metrics=[m for m in UA_EXTRA_METRICS if m in names], explain=explain)
        remove_singletons = scorer.remove_singletons and not scorer.keep_splits
    if chosen != "corefud" and any(m in names for m in COREFUD_METRICS):
        raise UsageError("the metrics mor and zero are defined for CorefUD scoring: give a CoNLL-U "
                         "key or --match")
    if chosen != "ua" and any(m in names for m in ("non_referring", "bridging")):
        raise UsageError("the metrics non_referring and bridging are defined for UA scoring: give "
                         "a CoNLL-UA key, a UA profile or --semantics ua")
    if chosen == "reference":
        remove_singletons = bool(remove_singletons)
    # mention identification is always counted: every report (and the reference scorer's
    # text) states it
    needed = [m for m in METRICS
              if m in names or m == "mentions" or (m in CONLL_COMPONENTS and "conll" in names)]
    all_passes = list(passes) + (["remove-singletons"] if remove_singletons and scorer is None
                                 else [])
    from corefkit.converters.registry import route_read_options

    key_shared, response_shared = route_read_options(
        read_options or {}, [(key, key_format or format), (response, response_format or format)])
    warnings: list[Repair] = list(getattr(scorer, "warnings", lambda: [])())

    dominant = None
    if DOMINANT in names:
        from corefkit.scoring.metrics.dominant import (
            TYPE_FREE,
            DominantCounts,
            document_counts,
            dominant_config,
        )
        from corefkit.scoring.metrics.dominant import (
            annotations as dominant_annotations,
        )

        dominant = dominant_config(**(dominant_options or {}))
    labelled = [LABELLED_METRICS[m] for m in names if m in LABELLED_METRICS]
    labelled_options = dict(metric_options or {})
    labeler = combined_labeler(labelled, labelled_options)

    def reduced(source: Any, fmt: str | None,
                side_options: dict[str, Any]) -> Iterable[tuple[DocumentMentions, Any]]:
        docs = _documents(source, fmt or format, side_options, lenient)
        for doc in apply_passes(docs, all_passes):
            warnings.extend(r for r in doc.repairs if not r.check.startswith("pass."))
            # the dominant family needs typed links and dominant mentions, not only chains
            links = dominant_annotations(doc, dominant.ranking) if dominant is not None else None
            reduced_doc = (scorer.reduce(doc, labeler) if scorer is not None
                           else document_mentions(doc, labeler))
            yield reduced_doc, links

    responses: dict[tuple[tuple[str, str], int], tuple[DocumentMentions, Any]] = {}
    seen: dict[tuple[str, str], int] = {}
    for dm, links in reduced(response, response_format,
                             {**response_shared, **(response_read_options or {})}):
        n = seen.get(dm.pair_key, 0)
        seen[dm.pair_key] = n + 1
        responses[(dm.pair_key, n)] = (dm, links)

    totals: dict[str, Counts | BlancCounts] = {}
    documents: list[DocumentResult] = []
    key_seen: dict[tuple[str, str], int] = {}
    response_repeats = key_repeats = count = 0
    for dm, key_links in reduced(key, key_format, {**key_shared, **(key_read_options or {})}):
        n = key_seen.get(dm.pair_key, 0)
        key_seen[dm.pair_key] = n + 1
        answer, answer_links = responses.pop((dm.pair_key, n), (None, None))
        if answer is None:
            if scorer is not None:
                raise FormatError(f"key and response are not aligned: document {dm.name!r} of the "
                                  "key is missing from the response", file=dm.file,
                                  check="score.misaligned")
            warnings.append(note("score.missing-document", dm.name,
                                 f"document {dm.name} is missing from the response; all its "
                                 "mentions count as missed"))
        extra: dict[str, Counts] = {}
        if scorer is not None:
            found = scorer.align(dm, answer)
            aligned, extra = found.aligned, found.extra
        else:
            aligned = align_exact(dm, answer)
        warnings.extend(aligned.notes)
        response_repeats += aligned.response_repeats
        key_repeats += aligned.key_repeats
        table = contingency(aligned.key, aligned.response)
        doc_counts = {m: METRICS[m](aligned.key, aligned.response, table)
                      for m in needed if m not in extra}
        reference_repeats(doc_counts, aligned.response, aligned.response_duplicates)
        doc_counts.update({m: c for m, c in extra.items() if m in needed or m in names})
        if scorer is not None:
            doc_counts = scorer.counts(doc_counts)
        if dominant is not None:
            doc_counts[DOMINANT] = document_counts(key_links, answer_links, dominant)
        for metric in labelled:
            doc_counts[metric.name] = metric.compute(
                aligned, table, {**metric.options, **labelled_options.get(metric.name, {})})
        for m, c in doc_counts.items():
            totals[m] = totals[m] + c if m in totals else c
        if per_document:
            documents.append(DocumentResult(dm.name, _results(doc_counts, names)))
        count += 1
        if progress is not None:
            progress(count)
    for (pair_key, _), (dm, _) in responses.items():
        if scorer is not None:
            raise FormatError(f"key and response are not aligned: document {dm.name!r} of the "
                              "response is not in the key", file=dm.file, check="score.misaligned")
        warnings.append(note("score.extra-document", dm.name,
                             f"document {dm.name} is only in the response; ignored"))
    if count == 0:
        raise FormatError(f"the key {_source_name(key)} holds no document", check="file.no-documents")
    for m in needed + [m for m in (*COREFUD_METRICS, *UA_EXTRA_METRICS) if m in names]:
        if m == "bridging":
            from corefkit.scoring.semantics.ua import BridgingCounts

            totals.setdefault(m, BridgingCounts())
        else:
            totals.setdefault(m, BlancCounts() if m == "blanc" else Counts())
    if scorer is not None:
        totals = scorer.counts(totals)
    for metric in labelled:  # e.g. by_type: types a file lacks the annotation for
        notes = getattr(totals.get(metric.name), "notes", None)
        if callable(notes):
            warnings.extend(notes())
    if dominant is not None:
        totals.setdefault(DOMINANT, DominantCounts(dominant))
        if totals[DOMINANT].variant == TYPE_FREE:
            warnings.append(Repair(
                "dominant.type-free", f"dominant: {totals[DOMINANT].untyped_annotations} "
                "annotations have no type code; scored type-free (WT counted as TP, WTL as WL)",
                action="scored"))
    options = {
        "metrics": names,
        "match": "exact",
        "remove_singletons": remove_singletons,
        "passes": list(passes),
    }
    if chosen == "ua":
        options.update(scorer.options(), semantics="ua-scorer")
    elif scorer is not None:
        options.update(scorer.options(), semantics="corefud-scorer-1.2")
    else:
        options["semantics"] = "reference-scorer-8.01"
    if key_read_options or response_read_options:
        options.update(key_read_options=dict(key_read_options or {}),
                       response_read_options=dict(response_read_options or {}))
    if labelled:  # what the label-reading metrics ran with (e.g. lmuc's weights), as text
        options["metric_options"] = {
            m.name: {k: v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
                     for k, v in {**m.options, **labelled_options.get(m.name, {})}.items()
                     if not callable(v) and not isinstance(v, dict)}
            for m in labelled}
    return ScoreReport(
        key=_source_name(key),
        response=_source_name(response),
        options=options,
        documents=count,
        metrics=_results(totals, names),
        identification=totals["mentions"],
        per_document=documents if per_document else None,
        warnings=warnings,
        repeated_response_mentions=response_repeats,
        repeated_key_mentions=key_repeats,
        version=__version__,
        explanations=getattr(scorer, "explanations", None),
    )


def _results(counts: dict[str, Counts | BlancCounts], names: list[str]) -> dict[str, MetricResult]:
    results = {}
    for name in names:
        if name == "conll":
            results[name] = MetricResult(name, f1_only=conll(counts))
        else:
            results[name] = MetricResult(name, counts[name])
    return results
