"""The functions of the public API, as :mod:`corefkit` exports them.

Each is a thin, typed front to the module that does the work, imported when the function is
first called, so that ``import corefkit`` loads neither NumPy, SciPy, networkx nor click.
Keyword parameters are those of the function behind it (a test compares the signatures), so
that every option of the command line is a typed keyword here. The examples run in the test
suite, from the project's root, on the bundled ``examples/`` data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import os
    from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
    from fractions import Fraction
    from typing import Any, TypeAlias, Union

    from corefkit.analysis.mention_types import TypeTable
    from corefkit.converters.convert import ConvertResult
    from corefkit.converters.loss import ConversionReport
    from corefkit.diagnosis.report import AnalysisReport
    from corefkit.evaluation.agreement.report import AgreementReport
    from corefkit.model import Document
    from corefkit.report.build import Report
    from corefkit.scoring.report import ScoreReport
    from corefkit.validation.engine import ValidationResult

    PathLike: TypeAlias = Union[str, "os.PathLike[str]"]
    # a file, folder, glob or "-" (standard input), a list of them, or documents in memory
    Source: TypeAlias = Union[PathLike, Sequence[PathLike], Iterable[Document]]
    # one mention-type table: a shipped table's name, a table file, or a loaded table
    TypeTableChoice: TypeAlias = Union[PathLike, TypeTable, None]
    # one document's clusters, each a list of hashable mentions such as (start, end) tuples
    Clusters: TypeAlias = Sequence[Sequence[Hashable]]


def read(path: PathLike | Sequence[PathLike], format: str | None = None, *,
         lenient: bool = False, checks: bool = False,
         **format_options: object) -> Iterator[Document]:
    """Read documents from a file, a folder, a glob or ``"-"`` (standard input), one at a time.

    ``format`` names the reader (``conll2012``, ``corefud``, ``ua-exploded``, ``mmax2``,
    ``lcc``, ``brat``, ``gap``, ``jsonlines``, ...); by default each file's format is detected
    from its name and content. Reading is strict: a malformed file raises
    :class:`~corefkit.errors.FormatError` naming file and line, unless ``lenient`` (then each
    repair is listed in the document's ``repairs``). ``format_options`` are the reader
    options its format declares (``corefkit convert --help`` lists them per format, e.g.
    ``parse_gum_ids=True`` for CoNLL-2012, ``layer="..."`` for LCC); one that no format of
    the input declares is a :class:`~corefkit.errors.UsageError`. ``checks=True`` reads as
    every corefkit command reads: whatever ``corefkit validate`` calls an error is refused
    (the reader's checks and the validator's model and format checks; with ``lenient``, each
    becomes a warning in ``repairs``).

    >>> docs = list(corefkit.read("examples/conll2012/key.conll"))
    >>> [doc.name for doc in docs]
    ['news/mary', 'news/committee']
    >>> len(docs[0].entities), len(docs[0].mentions)
    (4, 9)
    """
    from corefkit.converters.registry import read as _read

    return _read(path, format, lenient=lenient, checks=checks, **format_options)


def write(documents: Iterable[Document], path: PathLike, format: str | None = None, *,
          fail_on_loss: bool = False, replace: bool = True, **format_options: object
          ) -> ConversionReport:
    """Write documents to ``path`` (a file, a folder for formats of several files, or ``"-"``)
    atomically: a temporary file renamed into place, so a failure leaves no half-written
    output. The format is ``format`` or the one the file name says.

    Returns the :class:`~corefkit.converters.loss.ConversionReport`: what the format could
    not hold (``losses``, counted per feature) and what was repaired. With ``fail_on_loss`` a
    :class:`~corefkit.errors.LossError` is raised instead and nothing is written.
    ``replace=False`` refuses to replace an existing ``path``
    (:class:`~corefkit.converters.atomic.OutputExists`), even one that appears meanwhile.
    ``format_options`` are the writer options its format declares (``layout``,
    ``discontinuous``, ``profile``, ...).

    >>> import os, tempfile
    >>> docs = corefkit.read("examples/conll2012/key.conll")
    >>> written = corefkit.write(docs, os.path.join(tempfile.mkdtemp(), "key.conllu"))
    >>> written.documents, written.losses
    (2, [])
    """
    from corefkit.converters.registry import write as _write

    return _write(documents, path, format, fail_on_loss=fail_on_loss, replace=replace,
                  **format_options)


def convert(source: PathLike, target: PathLike, *, input_format: str | None = None,
            output_format: str | None = None, passes: Sequence[str] = (),
            options: dict[str, Any] | None = None, read_options: dict[str, Any] | None = None,
            write_options: dict[str, Any] | None = None, lenient: bool = False,
            fail_on_loss: bool = False, same_format: bool = False,
            transform: Callable[[Iterable[Document]], Iterable[Document]] | None = None,
            jobs: int | None = None, overwrite: bool = False) -> ConvertResult:
    """Convert a file, folder or glob to a file or folder, as ``corefkit convert`` does.

    Formats come from ``input_format`` / ``output_format`` or from the file names;
    ``same_format`` keeps the input's format (``corefkit normalize``). ``passes`` are
    normalization passes by name (``remove-singletons``, ``flatten-splits``, ...) applied to
    every document, or ``transform``, a function of the documents. ``options`` are reader and
    writer options by name (each goes to the side whose format declares it);
    ``read_options`` and ``write_options`` go to one side only. ``fail_on_loss`` refuses to
    write what the target cannot hold; ``lenient`` repairs malformed input (each repair in
    ``warnings``); ``jobs`` converts the files of a folder in that many processes.
    Nothing is replaced unasked: a file that exists in a target folder, or a target that is
    the input itself, is refused (:class:`~corefkit.errors.UsageError`) unless ``overwrite``;
    two inputs with one output name are always refused.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "key.jsonlines")
    >>> result = corefkit.convert("examples/conll2012/key.conll", target,
    ...                           passes=["remove-singletons"])
    >>> result.report.documents, [os.path.basename(w) for w in result.written]
    (2, ['key.jsonlines'])
    """
    from corefkit.converters.convert import convert as _convert

    return _convert(source, target, input_format=input_format, output_format=output_format,
                    passes=passes, options=options, read_options=read_options,
                    write_options=write_options, lenient=lenient, fail_on_loss=fail_on_loss,
                    same_format=same_format, transform=transform, jobs=jobs,
                    overwrite=overwrite)


def validate(paths: Source, format: str | None = None, level: int = 3,
             include_only: Iterable[str] = (), exclude: Iterable[str] = (),
             max_errors: int | None = None, *, read_options: dict[str, Any] | None = None,
             jobs: int | None = None) -> ValidationResult:
    """Check files, folders or globs (or documents), as ``corefkit validate`` does.

    ``level`` runs the checks of levels 1 (the file) to 3 (the annotation); ``include_only``
    and ``exclude`` take check ids or shell patterns (``conll.*``); ``max_errors`` stops
    after that many errors. Problems of the input never raise: they are the findings, a list
    of :class:`~corefkit.checks.registry.Finding` with ``files``, ``documents`` and
    ``summary()``.

    >>> findings = corefkit.validate("examples/conll2012/key.conll")
    >>> findings.summary()
    '1 file, 2 documents: 0 errors, 0 warnings'
    """
    from corefkit.validation.engine import validate as _validate

    return _validate(paths, format, level, include_only, exclude, max_errors,
                     read_options=read_options, jobs=jobs)


def score(key: Source, response: Source, metrics: str | Sequence[str] | None = None, *,
          format: str | None = None, key_format: str | None = None,
          response_format: str | None = None, remove_singletons: bool | None = None,
          passes: Sequence[str] = (), per_document: bool = False,
          read_options: dict[str, Any] | None = None,
          key_read_options: dict[str, Any] | None = None,
          response_read_options: dict[str, Any] | None = None,
          dominant_options: dict[str, Any] | None = None,
          metric_options: dict[str, dict[str, Any]] | None = None,
          progress: Callable[[int], None] | None = None, match: str | None = None,
          zero_match: str | None = None, keep_zeros: bool | None = None,
          profile: str | None = None, semantics: str | None = None,
          remove_split_antecedents: bool = False, only_split_antecedents: bool = False,
          discourse_deixis: bool = False,
          lea_split_importance: Fraction | float | str | None = None, explain: bool = False,
          lenient: bool = False, jobs: int | None = None, engine: str = "auto",
          scheduler: str | None = None, align: Any = None) -> ScoreReport:
    """Score a response against a key, as ``corefkit score`` does; the exact numbers.

    ``key`` and ``response`` are paths (file, folder, glob, ``"-"``), lists of paths, or
    documents; documents pair by name and part. ``metrics``: names or ``"all"`` (default:
    what the scorer whose rules apply prints). Whose rules apply (``semantics``): the
    reference scorer's for CoNLL-2012 and other keys, the CorefUD scorer's for CoNLL-U keys
    or when ``match`` (``exact``, ``partial``, ``head``), ``zero_match`` or ``keep_zeros`` is
    given, the Universal Anaphora scorer's for CoNLL-UA keys or with the split-antecedent
    options; ``profile`` names a shared task's official setting (``conll12``, ``crac``,
    ``codi-crac22-ar``, ...). ``passes`` normalize both sides first. ``jobs`` and ``engine``
    (``serial``, ``processes``, ``dask`` with ``scheduler``) say where documents are scored;
    every engine gives the same counts. ``align`` re-expresses each response on its key's
    tokens first (responses with their own text: other tokenizations, LLM output; see
    :mod:`corefkit.alignment`). See :func:`corefkit.scoring.api.score` for every option.

    Each metric of the :class:`~corefkit.scoring.report.ScoreReport` holds exact fractions:

    >>> report = corefkit.score("examples/conll2012/key.conll",
    ...                         "examples/conll2012/response.conll")
    >>> muc = report.metrics["muc"]
    >>> muc.recall, muc.precision
    (Fraction(5, 8), Fraction(5, 7))
    >>> report.metrics["conll"].f1
    Fraction(251551, 350028)
    """
    from corefkit.scoring.api import score as _score

    return _score(
        key, response, metrics, format=format, key_format=key_format,
        response_format=response_format, remove_singletons=remove_singletons, passes=passes,
        per_document=per_document, read_options=read_options,
        key_read_options=key_read_options, response_read_options=response_read_options,
        dominant_options=dominant_options, metric_options=metric_options, progress=progress,
        match=match, zero_match=zero_match, keep_zeros=keep_zeros, profile=profile,
        semantics=semantics, remove_split_antecedents=remove_split_antecedents,
        only_split_antecedents=only_split_antecedents, discourse_deixis=discourse_deixis,
        lea_split_importance=lea_split_importance, explain=explain, lenient=lenient,
        jobs=jobs, engine=engine, scheduler=scheduler, align=align)


def score_clusters(key: Clusters | Sequence[Clusters], response: Clusters | Sequence[Clusters],
                   metrics: str | Sequence[str] | None = None, *,
                   documents: bool | None = None,
                   remove_singletons: bool = False) -> ScoreReport:
    """Score predicted clusters against gold ones held in memory (a training loop's
    evaluation): the numbers of the reference scorer, as ``corefkit score`` gives them.

    Each side is one document — a list of clusters, a cluster a list of hashable mentions
    such as ``(start, end)`` tuples — or a list of documents (paired by position);
    ``documents`` says which when the shape does not (see
    :func:`corefkit.scoring.clusters.score_clusters`). :class:`corefkit.Scorer` adds
    documents one at a time instead.

    >>> gold = [[(0, 1), (4, 4)], [(7, 9), (12, 12)]]
    >>> predicted = [[(0, 1), (4, 4), (7, 9)]]
    >>> report = corefkit.score_clusters(gold, predicted)
    >>> report.metrics["muc"].recall, report.metrics["muc"].precision
    (Fraction(1, 2), Fraction(1, 2))
    """
    from corefkit.scoring.clusters import score_clusters as _score_clusters

    return _score_clusters(key, response, metrics, documents=documents,
                           remove_singletons=remove_singletons)


def analyze(key: Source, response: Source, *, format: str | None = None,
            key_format: str | None = None, response_format: str | None = None,
            semantics: str | None = None, profile: str | None = None, match: str | None = None,
            zero_match: str | None = None, keep_zeros: bool | None = None,
            remove_singletons: bool | None = None, remove_split_antecedents: bool = False,
            discourse_deixis: bool = False, passes: Sequence[str] = (),
            read_options: dict[str, Any] | None = None,
            key_read_options: dict[str, Any] | None = None,
            response_read_options: dict[str, Any] | None = None, lenient: bool = False,
            type_table: TypeTableChoice = None, anchors: str = "agreed",
            align: Any = None) -> AnalysisReport:
    """Categorise a response's errors against a key (Kummerfeld & Klein 2013), as
    ``corefkit analyze`` does: span errors, conflated and divided entities, extra and missing
    mentions and entities, each located in the documents, with what fixing each category
    would gain in MUC, B³, CEAFe and the CoNLL score.

    Key and response are read and aligned under the options of :func:`corefkit.score`.
    ``type_table`` names the mention-type table; ``anchors`` which part of an entity the
    others are split from and merged into (``agreed``, or ``analyser`` for the Berkeley
    Coreference Analyser's rule). Returns a :class:`~corefkit.diagnosis.report.AnalysisReport`.

    >>> analysis = corefkit.analyze("examples/conll2012/key.conll",
    ...                             "examples/conll2012/response.conll")
    >>> {category: n for category, n in analysis.counts.items() if n}
    {'conflated_entities': 2, 'divided_entity': 3, 'missing_mention': 1}
    """
    from corefkit.diagnosis.engine import analyze as _analyze

    return _analyze(
        key, response, format=format, key_format=key_format, response_format=response_format,
        semantics=semantics, profile=profile, match=match, zero_match=zero_match,
        keep_zeros=keep_zeros, remove_singletons=remove_singletons,
        remove_split_antecedents=remove_split_antecedents, discourse_deixis=discourse_deixis,
        passes=passes, read_options=read_options, key_read_options=key_read_options,
        response_read_options=response_read_options, lenient=lenient, type_table=type_table,
        anchors=anchors, align=align)


def report(key: Source, *responses: Source, output: PathLike | None = None,
           labels: Sequence[str | None] = (), title: str | None = None,
           metrics: str | Sequence[str] | None = None, permutations: int = 10_000,
           bootstrap: int = 10_000, seed: int = 0, alpha: float = 0.1,
           page_tokens: int = 1500, type_table: TypeTableChoice = None,
           anchors: str = "agreed", strata: str | None = None, format: str | None = None,
           key_format: str | None = None,
           response_format: str | None = None, read_options: dict[str, Any] | None = None,
           key_read_options: dict[str, Any] | None = None,
           response_read_options: dict[str, Any] | None = None, semantics: str | None = None,
           profile: str | None = None, match: str | None = None, zero_match: str | None = None,
           keep_zeros: bool | None = None, remove_singletons: bool | None = None,
           remove_split_antecedents: bool = False, discourse_deixis: bool = False,
           passes: Sequence[str] = (), lenient: bool = False, align: Any = None) -> Report:
    """A self-contained HTML report, as ``corefkit report`` writes it: ``responses`` against
    ``key`` side by side (scores, paired significance tests, error categories, a document
    browser), or the corpus ``key`` alone (statistics, a chain browser); written to
    ``output`` if given (atomically), else call ``write(path)`` on the result.

    ``labels`` name the responses (default: their file names); ``permutations``,
    ``bootstrap``, ``seed`` and ``alpha`` set the tests as in ``corefkit compare``;
    ``page_tokens`` is how much text the browser renders at once; ``strata``
    (``"entity-size,distance"``) adds the long-range section. The reading and scoring
    options are those of :func:`corefkit.score` and :func:`corefkit.analyze`.

    >>> import os, tempfile
    >>> page = os.path.join(tempfile.mkdtemp(), "report.html")
    >>> built = corefkit.report("examples/conll2012/key.conll",
    ...                         "examples/conll2012/response.conll", labels=["system"],
    ...                         permutations=100, bootstrap=100, output=page)
    >>> built.kind, [system.label for system in built.systems], os.path.exists(page)
    ('compare', ['system'], True)
    """
    from corefkit.report import report as _report

    return _report(
        key, *responses, output=output, labels=labels, title=title, metrics=metrics,
        permutations=permutations, bootstrap=bootstrap, seed=seed, alpha=alpha,
        page_tokens=page_tokens, type_table=type_table, anchors=anchors, strata=strata,
        format=format,
        key_format=key_format, response_format=response_format, read_options=read_options,
        key_read_options=key_read_options, response_read_options=response_read_options,
        semantics=semantics, profile=profile, match=match, zero_match=zero_match,
        keep_zeros=keep_zeros, remove_singletons=remove_singletons,
        remove_split_antecedents=remove_split_antecedents, discourse_deixis=discourse_deixis,
        passes=passes, lenient=lenient, align=align)


def agree(sources: Source | Sequence[Source], *, labels: Sequence[str] = (),
          layers: Sequence[str] = (), format: str | None = None,
          read_options: dict[str, Any] | None = None, lenient: bool = False,
          passes: Sequence[str] = (), curation: bool = False, match: str = "exact",
          remove_singletons: bool = False, type_table: TypeTableChoice = None,
          merge: str | None = None, output: PathLike | None = None,
          output_format: str | None = None, write_options: dict[str, Any] | None = None,
          mark: str = "disagreement", fail_on_loss: bool = False,
          html: PathLike | None = None, title: str | None = None, page_tokens: int = 1500,
          progress: Callable[[str], None] | None = None) -> AgreementReport:
    """Agreement between annotators on mentions and chains, as ``corefkit agree`` measures it.

    ``sources``: two or more annotations of the same documents (files, folders or globs of
    any format, or documents; one per annotator, named by ``labels`` or their file names),
    or one corpus with annotator ``layers`` (LCC: ``["manualCoreferences@1",
    "manualCoreferences@2"]``), or an INCEpTION project export (``annotation/<document>/
    <user>.tsv``; ``curation`` adds ``CURATION_USER`` as the annotator ``curation``).
    Documents are paired by name; annotations whose tokens differ are put on common tokens by
    their characters, never by position (:mod:`corefkit.evaluation.agreement.tokens`).

    Per pair of annotators, over the documents both annotated and per document: mention F1
    under exact, partial and head matching and the chain metrics MUC, B³, CEAFe, BLANC, LEA
    and CoNLL (chains matched by ``match``), each annotator as key in turn and averaged;
    Cohen's κ over tokens in or out of a mention; Krippendorff's α with the MASI distance over
    the chains of the mentions both marked. For all annotators Fleiss' κ and α; per mention
    type and entity type; every disagreement with its file locations. ``merge`` (``majority``,
    ``union``, ``intersection``) writes an adjudication draft to ``output`` (the input's format
    or ``output_format``) with every disagreement in the mention attribute ``mark``; ``html``
    writes the agreement view of the report. Every value is an exact fraction
    (``docs/reference/agreement.md`` defines them).

    >>> agreement = corefkit.agree(["examples/conll2012/key.conll",
    ...                             "examples/conll2012/response.conll"], labels=["ann", "bob"])
    >>> pair = agreement.pair("ann", "bob")
    >>> pair.mentions["exact"].f1, pair.chains["muc"].f1
    (Fraction(30, 31), Fraction(2, 3))
    >>> [d.category for d in agreement.disagreements][:3]
    ['merge', 'split', 'split']
    """
    from corefkit.report.agreement import agree as _agree

    return _agree(sources, labels=labels, layers=layers, format=format,
                  read_options=read_options, lenient=lenient, passes=passes, curation=curation,
                  match=match, remove_singletons=remove_singletons, type_table=type_table,
                  merge=merge, output=output, output_format=output_format,
                  write_options=write_options, mark=mark, fail_on_loss=fail_on_loss, html=html,
                  title=title, page_tokens=page_tokens, progress=progress)
