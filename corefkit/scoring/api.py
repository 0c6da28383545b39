"""``score``: the public entry point, a thin layer over :class:`ScoreConfig` and the engine.

Reading, pairing and counting live in :mod:`corefkit.scoring.engine` (serial) and
:mod:`corefkit.scoring.parallel` (processes, Dask); this module resolves the arguments into a
:class:`~corefkit.scoring.config.ScoreConfig`, runs the chosen engine and builds the report.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from corefkit.errors import CorefkitError, FormatError, Repair, UsageError
from corefkit.model import Document
from corefkit.scoring.config import ScoreConfig
from corefkit.scoring.engine import Pairing, Totals, is_paths, pairing_notes, source_name
from corefkit.scoring.metrics import registry
from corefkit.scoring.report import DocumentResult, MetricResult, ScoreReport

if TYPE_CHECKING:
    from corefkit.alignment import AlignmentPolicy


# check ids (registered in corefkit.validation.pair, which validate --pair reports)
DOCUMENTS = "pair.documents"
EMPTY_KEY = "pair.empty-key"
EMPTY_RESPONSE = "pair.empty-response"


def parse_metrics(metrics: str | Sequence[str] | None, semantics: str = "reference") -> list[str]:
    """Metric names in report order (``all`` and None: the semantics' default list)."""
    return registry.parse_metrics(metrics, semantics)


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
    jobs: int | None = None,
    engine: str = "auto",
    scheduler: str | None = None,
    align: Any = None,
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

    ``jobs`` runs documents in that many processes (default: the machine's cores when the
    input is large enough to pay for them; 1: this process only); ``engine="dask"`` runs them
    on a Dask cluster (``scheduler``: its address; default a local cluster). Every engine
    gives the same exact counts (:mod:`corefkit.scoring.parallel`).

    ``align`` re-expresses every response document on its key document's tokens before
    scoring (:mod:`corefkit.alignment`): same text, other tokenization, by characters
    (exactly); other text (LLM output), by words. ``True`` or ``"expand"``: a mention boundary
    inside a key token takes the whole token; ``"unaligned"``: such a mention is counted as
    spurious; an :class:`~corefkit.alignment.AlignmentPolicy` also says what a mention edge on a
    response token joining several key tokens keeps (``merged``: ``trim`` or ``keep``);
    ``False``: off (a token mismatch is an error); None (default): on for response
    formats that bring their own text (``text2text``), else off, unless the profile says.
    Response documents without names of their own (``text2text``) are paired with the key's by
    their text. ``report.alignment`` holds the alignment report, per document.
    """

    from corefkit.converters.registry import route_read_options

    _refuse_missing(key, response)
    key_format_name, key = _key_format(key, key_format or format)
    # mentions are paired by word position: every pair's words are compared (scoring/tokens.py)
    # unless the run aligns the response to the key (--align, or a response format that
    # brings its own text)
    response_format_name, response = _key_format(response, response_format or format)
    policy, by_content, lenient = alignment_settings(align, profile, response_format_name,
                                                     lenient)
    key_shared, response_shared = route_read_options(
        read_options or {}, [(key, key_format or format), (response, response_format or format)])
    config = ScoreConfig.build(
        detected_format=key_format_name, metrics=metrics, profile=profile, semantics=semantics,
        remove_singletons=remove_singletons, match=match, zero_match=zero_match,
        keep_zeros=keep_zeros, remove_split_antecedents=remove_split_antecedents,
        only_split_antecedents=only_split_antecedents, discourse_deixis=discourse_deixis,
        lea_split_importance=lea_split_importance, explain=explain,
        dominant_options=dominant_options, metric_options=metric_options,
        passes=tuple(passes), per_document=per_document, format=format, key_format=key_format,
        response_format=response_format,
        key_read_options={**key_shared, **(key_read_options or {})},
        response_read_options={**response_shared, **(response_read_options or {})},
        lenient=lenient, jobs=jobs, engine=engine, scheduler=scheduler, align=policy,
        pair_by_content=by_content)
    from corefkit.scoring.parallel import run

    totals, pairing, repairs, strategy = run(config, key, response, progress)
    if totals.documents == 0:
        raise FormatError(f"the key {source_name(key)} holds no document",
                          check="file.no-documents")
    counts = totals.finished(strategy)
    empty = nothing_to_score(counts["mentions"], pairing, totals.documents, config, key,
                             response)
    return _report(config, strategy, counts, totals, pairing, [*repairs, *empty], key, response,
                   read_options, key_read_options, response_read_options)


def nothing_to_score(identification: Any, pairing: Pairing, documents: int, config: ScoreConfig,
                     key: Any, response: Any) -> list[Repair]:
    """Why every number of a run is 0, when it is: a key without mentions or without any
    document the response holds is refused (unless lenient: a warning), a response without
    mentions is a warning (a system may predict nothing)."""
    found: list[Repair] = []

    def problem(check: str, message: str, source: Any) -> None:
        if config.lenient or check == EMPTY_RESPONSE:
            found.append(Repair(check, f"{message}; scored anyway, every number is 0",
                                source_name(source), None, None, None, "scored"))
        else:
            raise FormatError(f"{message}; pass --lenient to score it anyway",
                              file=source_name(source), check=check)

    if len(pairing.missing) == documents:
        names = ", ".join(repr(d.name) for d in pairing.missing[:3])
        more = f" and {documents - 3} more" if documents > 3 else ""
        problem(DOCUMENTS, f"no key document is in the response (key documents {names}{more}; "
                f"response documents: {_names(pairing.extra)}): documents are paired by "
                "name and part", response)
    elif identification.recall_den == 0:
        problem(EMPTY_KEY, "the key holds no mention to score (every recall is 0/0): a file "
                "without coreference annotation (a blind input?), another layer, or only "
                "singletons that were removed", key)
    elif identification.precision_den == 0:
        problem(EMPTY_RESPONSE, "the response holds no mention (every precision is 0/0): the "
                "system predicted nothing, or its clusters were not read", response)
    return found


def _names(documents: list[Any]) -> str:
    shown = ", ".join(repr(d.name) for d in documents[:3])
    return (shown + (f" and {len(documents) - 3} more" if len(documents) > 3 else "")) or "none"


def alignment_settings(align: Any, profile: str | None, response_format: str | None,
                       lenient: bool) -> tuple[AlignmentPolicy | None, bool, bool]:
    """(alignment policy or None, pair by content, lenient) of a run: ``align`` as given, else
    the profile's, else on for a response format that brings its own text; a profile may
    make reading lenient (the LLM track's answers need repairs)."""
    settings: dict[str, Any] = {}
    if profile is not None:
        from corefkit.scoring.profiles import profile_settings

        settings = profile_settings(profile)
    spec = None
    if response_format is not None:
        from corefkit.converters.registry import get

        spec = get(response_format)
    if align is None:
        align = settings.get("align", spec is not None and spec.own_text)
    policy = alignment_policy(align)
    by_content = bool(spec is not None and spec.pairs_by_content and policy is not None)
    return policy, by_content, lenient or bool(settings.get("lenient"))


def alignment_policy(align: Any) -> AlignmentPolicy | None:
    """``align`` as :func:`score` takes it — False/None (off), True (the default policy), a
    boundary policy (``"expand"``, ``"unaligned"``), a mapping of policy fields or an
    :class:`~corefkit.alignment.AlignmentPolicy` — as a policy, or None when off."""
    from corefkit.alignment import AlignmentPolicy

    if align is None or align is False:
        return None
    if align is True:
        return AlignmentPolicy()
    if isinstance(align, AlignmentPolicy):
        return align
    if isinstance(align, str):
        return AlignmentPolicy(boundary=align)
    if isinstance(align, dict):
        return AlignmentPolicy(**align)
    raise UsageError(f"align must be True, False, a boundary policy or an AlignmentPolicy, "
                     f"not {align!r}")


def _report(config: ScoreConfig, strategy: Any, counts: dict[str, Any], totals: Totals,
            pairing: Any, repairs: list[Any], key: Any, response: Any, read_options: Any,
            key_read_options: Any, response_read_options: Any) -> ScoreReport:
    from corefkit._version import __version__

    warnings = [*strategy.warnings(), *repairs, *totals.notes, *pairing_notes(pairing)]
    for name in config.computed():  # families that explain what they could not score
        notes = getattr(counts.get(name), "notes", None)
        if callable(notes):
            warnings.extend(notes())
    warnings.extend(_empty_sides(counts.get("mentions"), totals.documents))
    options: dict[str, Any] = {"metrics": list(config.metrics), "match": "exact",
                               "remove_singletons": config.remove_singletons,
                               "passes": list(config.passes)}
    options.update(strategy.options(), semantics=strategy.label)
    alignment = None
    if config.align is not None:
        from corefkit.alignment import AlignmentSummary

        options["align"] = {"boundary": config.align.boundary, "merged": config.align.merged}
        alignment = AlignmentSummary(str(config.align), totals.alignments)
    if key_read_options or response_read_options:
        options.update(key_read_options=dict(key_read_options or {}),
                       response_read_options=dict(response_read_options or {}))
    labelled = config.labelled()
    if labelled:  # what the label-reading metrics ran with (e.g. lmuc's weights), as text
        given = config.metric_options
        options["metric_options"] = {
            m.name: {k: v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
                     for k, v in {**m.options, **given.get(m.name, {})}.items()
                     if not callable(v) and not isinstance(v, dict)}
            for m in labelled}
    per_document = None
    if config.per_document:
        per_document = [DocumentResult(d.name, results(d.counts, config.metrics))
                        for d in totals.per_document]
    return ScoreReport(
        key=source_name(key), response=source_name(response), options=options,
        documents=totals.documents, metrics=results(counts, config.metrics),
        identification=counts["mentions"], per_document=per_document, warnings=warnings,
        repeated_response_mentions=totals.response_repeats,
        repeated_key_mentions=totals.key_repeats, version=__version__,
        explanations=totals.explanations if config.settings.get("explain") else None,
        alignment=alignment)


def _refuse_missing(*sources: Any) -> None:
    """One error naming every input path that cannot be read (key and response alike):
    missing, a symbolic-link loop, not a regular file or folder, ...
    (:func:`corefkit.converters.paths.input_kind`)."""
    from corefkit.converters.paths import InputError, input_kind

    problems = []
    for source in sources:
        if not is_paths(source):
            continue
        for item in (source if isinstance(source, (list, tuple)) else [source]):
            try:
                input_kind(item)
            except InputError as exc:
                problems.append(str(exc))
    if problems:
        raise InputError("; ".join(problems))


def results(counts: dict[str, Any], names: Sequence[str]) -> dict[str, MetricResult]:
    """The report's metric results: counts, or a derived metric's F1 (``conll``)."""
    out = {}
    for name in names:
        spec = registry.get(name)
        if spec.family == registry.DERIVED:
            out[name] = MetricResult(name, f1_only=spec.compute(counts))
        else:
            out[name] = MetricResult(name, counts[name])
    return out


def _key_format(key: Any, format: str | None) -> tuple[str | None, Any]:
    """The format of the key (``conll2012``, ``corefud``, ``ua-exploded``, ...) as far as it
    can be told before reading, and the key source to use (a peeked iterator is put back)."""

    def of_document(doc: Any) -> str | None:
        return getattr(doc, "source_format", None)

    if isinstance(key, Document):
        return of_document(key), key
    if is_paths(key):
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


def _empty_sides(mentions: Any, documents: int) -> list[Any]:
    """Why every score is 0: a side without a single mention (an empty or cut response, a
    response file whose clusters were lost) is said, never left to a silent 0.00 (issue 22)."""
    from corefkit.errors import Repair

    if mentions is None or not documents:
        return []
    found = []
    for side, total in (("key", mentions.recall_den), ("response", mentions.precision_den)):
        if not total:
            found.append(Repair("score.no-mentions",
                                f"the {side} holds no mention in any of its {documents} "
                                f"document(s) (after the settings' passes): every score is 0"))
    return found
