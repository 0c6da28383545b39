"""The format registry: names, capabilities, detection, and the read/write entry points.

Each format is a module with ``sniff(head) -> bool``, ``read_stream(stream, file, **options)``
(an iterator of documents) and ``write_stream(documents, out, report, **options)``. The
registry imports a module only when its format is used, expands directories and globs,
detects formats (formats/README.md, "Detecting the format"), checks options, records loss
reports and makes every write atomic.

A format whose documents are several files (MMAX2 projects) sets ``reads_paths`` and/or
``writes_directory``: its module then provides ``read_path(path, file, **options)`` (``path``
is a project file; a directory stands for every project under it) and
``write_path(documents, directory, report, **options)``, which fills a temporary directory
that is renamed into place when the whole write succeeded.
"""

from __future__ import annotations

import fnmatch
import glob
import importlib
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from corefkit.converters.io import (
    atomic_directory_output,
    atomic_text_output,
    display_name,
    open_binary,
    without_gc_pauses,
)
from corefkit.converters.loss import (
    DISCONTINUOUS_MODES,
    ConversionReport,
    approximate_discontinuous,
    discontinuous_action,
    find_losses,
)
from corefkit.errors import CorefkitError, FormatError, LossError, UsageError
from corefkit.model import Document

SNIFF_BYTES = 64 * 1024


@dataclass(frozen=True)
class FormatSpec:
    """What the registry knows about a format without importing its module."""

    name: str
    aliases: tuple[str, ...]
    description: str
    patterns: tuple[str, ...]          # file-name patterns (fnmatch, case-insensitive)
    capabilities: frozenset[str]
    module: str
    read_options: frozenset[str]
    write_options: frozenset[str]
    sniff_priority: int                 # lower is tried first
    stream: bool = True                 # a single text stream: "-" works for it
    reads_paths: bool = False           # read_path(project file) instead of read_stream
    writes_directory: bool = False      # write_path(directory) instead of write_stream
    # capabilities held only in part: feature -> what of it the writer cannot write (its
    # module's partial_losses() reports the cases a document has)
    partial: tuple[tuple[str, str], ...] = ()

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)


FORMATS: dict[str, FormatSpec] = {}
ALIASES: dict[str, str] = {}


def register(spec: FormatSpec) -> None:
    FORMATS[spec.name] = spec
    for alias in (spec.name, *spec.aliases):
        ALIASES[alias.lower()] = spec.name


register(FormatSpec(
    name="conll2012",
    aliases=("conll", "conll-2012"),
    description="CoNLL-2012 / OntoNotes coreference column (LitBank, GUM and OntoGUM dialects)",
    patterns=("*.conll", "*_conll", "*.key", "*.response", "*.gold_conll", "*.v4_*conll"),
    capabilities=frozenset({"singletons", "cross_sentence", "parts"}),
    module="corefkit.converters.conll2012",
    read_options=frozenset({"parse_gum_ids"}),
    write_options=frozenset({"layout", "keep_ids", "discontinuous"}),
    sniff_priority=50,
))

register(FormatSpec(
    name="lcc",
    aliases=("nkas", "lcc-json"),
    description="Lithuanian coreference annotator JSON (*.nkas.json): character offsets, typed "
                "links, group links; --layer manualCoreferences@1 (gold, default) or @2",
    patterns=("*.nkas.json",),
    capabilities=frozenset({"singletons", "crossing_same_entity", "cross_sentence",
                            "split_antecedents", "discourse_deixis", "mention_attributes",
                            "metadata"}),
    partial=(("singletons", "only with a type code or as a group member"),
             ("split_antecedents", "sets of two or more members with mentions"),
             ("discourse_deixis", "chains of two or more mentions"),
             ("mention_attributes", "the type code only"),
             ("metadata", "LCC's document fields only")),
    module="corefkit.converters.lcc",
    read_options=frozenset({"layer", "adverbial_as_identity", "lenient"}),
    write_options=frozenset({"layer", "ranking"}),
    sniff_priority=10,
))

register(FormatSpec(
    name="corefud",
    aliases=("ua-compact", "conllu", "conll-u"),
    description="CoNLL-U with Entity/SplitAnte/Bridge in MISC (CorefUD 1.x; UA compact as in GUM)",
    patterns=("*.conllu",),
    capabilities=frozenset({"singletons", "discontinuous", "zeros", "empty_nodes",
                            "cross_sentence", "heads", "min_spans", "split_antecedents",
                            "bridging", "mention_attributes", "entity_attributes", "metadata",
                            "speakers", "parts"}),
    partial=(("heads", "with a declaration that has a head field"),
             ("min_spans", "with a declaration that has a minspan field"),
             ("cross_sentence", "in the ua-compact profile only"),
             ("split_antecedents", "sets of two or more members"),
             ("bridging", "the anchor entity, not the anchor mention; relations as [a-z]+ in "
                          "the corefud profile")),
    module="corefkit.converters.corefud",
    read_options=frozenset({"entity_fields"}),
    write_options=frozenset({"profile", "keep_min"}),
    sniff_priority=40,
))

register(FormatSpec(
    name="ua-exploded",
    aliases=("ua", "conllua", "conll-ua"),
    description="CoNLL-UA exploded: CoNLL-U Plus with IDENTITY / BRIDGING / DISCOURSE_DEIXIS "
                "columns (Universal Anaphora, CODI-CRAC); --allow-zeros, --allow-id-closers "
                "(UA scorer 2.0 extensions), --align-spaces",
    patterns=("*.CONLLUA", "*.conllua", "*.ua"),
    capabilities=frozenset({"singletons", "discontinuous", "zeros", "empty_nodes",
                            "crossing_same_entity", "cross_sentence", "heads", "min_spans",
                            "split_antecedents",
                            "bridging", "discourse_deixis", "non_referring", "unlinked_mentions",
                            "mention_attributes", "speakers", "parts"}),
    partial=(("zeros", "with --allow-zeros (UA scorer 2.0 ids)"),
             ("crossing_same_entity", "with --allow-id-closers (UA scorer 2.0)"),
             ("heads", "as Min, where the markable has no min span"),
             ("min_spans", "one range: gapped min spans become their hull"),
             ("unlinked_mentions", "as bridging anaphors or NOM_SEM markables"),
             ("bridging", "one anchor per markable")),
    module="corefkit.converters.ua_exploded",
    read_options=frozenset(),
    write_options=frozenset({"allow_zeros", "allow_id_closers", "align_spaces"}),
    sniff_priority=30,  # before corefud (a UA file's token lines can look like CoNLL-U)
))

register(FormatSpec(
    name="mmax2",
    aliases=("mmax",),
    description="MMAX2 stand-off XML projects (*.mmax + Basedata/, Markables/, Schemes/); "
                "coreference levels and attributes from a level map (--mmax-map)",
    patterns=("*.mmax",),
    capabilities=frozenset({"singletons", "discontinuous", "crossing_same_entity",
                            "cross_sentence", "min_spans", "split_antecedents", "bridging",
                            "discourse_deixis", "non_referring", "mention_attributes",
                            "opaque_levels", "parts"}),
    partial=(("bridging", "as far as the level map names them"),
             ("split_antecedents", "as far as the level map names them"),
             ("non_referring", "as far as the level map names them"),
             ("discourse_deixis", "as far as the level map names them"),
             ("min_spans", "as far as the level map names them")),
    module="corefkit.converters.mmax2",
    read_options=frozenset({"level_map", "common_paths", "lenient"}),
    write_options=frozenset({"level_map", "heads"}),
    sniff_priority=20,
    stream=False,
    reads_paths=True,
    writes_directory=True,
))


def get(name: str) -> FormatSpec:
    """The format called ``name`` (or one of its aliases)."""
    key = ALIASES.get(name.lower())
    if key is None:
        known = ", ".join(sorted(FORMATS))
        raise UsageError(f"unknown format {name!r}; known formats: {known}")
    return FORMATS[key]


def formats() -> list[FormatSpec]:
    return sorted(FORMATS.values(), key=lambda s: s.name)


# ---------------------------------------------------------------------------- detection
def _matches_patterns(spec: FormatSpec, path: str) -> bool:
    base = os.path.basename(path).lower()
    return any(fnmatch.fnmatch(base, p.lower()) for p in spec.patterns)


def sniff_text(head: str) -> str | None:
    """The format whose detector recognises ``head`` (the first 64 KB), or None."""
    from corefkit.converters.sniffing import DETECTORS

    for spec in sorted(FORMATS.values(), key=lambda s: s.sniff_priority):
        detect = DETECTORS.get(spec.name)
        if (detect or spec.load().sniff)(head):  # a registered format without a detector here
            return spec.name
    return None


def guess_format(path: str) -> str:
    """Detect a file's format from its content, else from its name."""
    if os.fspath(path) == "-":
        raise UsageError("cannot detect the format of standard input; pass --from")
    with open_binary(path) as handle:
        head = handle.read(SNIFF_BYTES).decode("utf-8", errors="replace")
    found = sniff_text(head)
    if found:
        return found
    for spec in FORMATS.values():
        if _matches_patterns(spec, path):
            return spec.name
    raise CorefkitError(f"{path}: cannot recognise the format; pass --from")


def expand_paths(path: str | os.PathLike[str], format: str | None = None) -> list[tuple[str, str]]:
    """(file, format) pairs for a file, a directory (its files, sorted) or a glob pattern.

    In a directory, formats that read paths contribute every project file under it (at any
    depth: an MMAX2 corpus keeps one project per folder); the other formats its own files.
    """
    text = os.fspath(path)
    if text == "-":
        if format is None:
            raise UsageError("reading standard input needs the format: pass --from")
        spec = get(format)
        if not spec.stream:
            raise UsageError(f"format {spec.name} is not a single stream and cannot be read from '-'")
        return [(text, spec.name)]
    if os.path.isdir(text):
        wanted = get(format) if format is not None else None
        found = _projects_under(text, wanted)
        projects = {file for file, _ in found}
        for name in sorted(os.listdir(text)):
            full = os.path.join(text, name)
            if name.startswith(".") or not os.path.isfile(full) or full in projects:
                continue
            if wanted is not None:
                if not wanted.reads_paths and _matches_patterns(wanted, full):
                    found.append((full, wanted.name))
                continue
            try:
                found.append((full, guess_format(full)))
            except CorefkitError:
                continue  # not a file of any known format (README, LICENSE, ...)
        if not found:
            what = f"{get(format).name} files" if format else "files of a known format"
            raise CorefkitError(f"{text}: the directory holds no {what}")
        return sorted(found)
    if not os.path.exists(text) and any(ch in text for ch in "*?["):
        matches = sorted(p for p in glob.glob(text) if os.path.isfile(p))
        if not matches:
            raise CorefkitError(f"{text}: the pattern matches no file")
        return [(p, get(format).name if format else guess_format(p)) for p in matches]
    if not os.path.exists(text):
        raise CorefkitError(f"{text}: no such file or directory")
    return [(text, get(format).name if format else guess_format(text))]


def _projects_under(directory: str, wanted: FormatSpec | None) -> list[tuple[str, str]]:
    """(project file, format) for every file of a path-reading format under ``directory``."""
    specs = [s for s in FORMATS.values() if s.reads_paths and (wanted is None or s is wanted)]
    found = []
    if not specs:
        return found
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            full = os.path.join(root, name)
            for spec in specs:
                if not name.startswith(".") and _matches_patterns(spec, full):
                    found.append((full, spec.name))
                    break
    return found


def _check_options(spec: FormatSpec, options: dict[str, Any], allowed: frozenset[str],
                   what: str) -> None:
    unknown = sorted(set(options) - allowed)
    if unknown:
        can = ", ".join(sorted(allowed)) or "none"
        raise UsageError(
            f"the {spec.name} {what} has no option {', '.join(unknown)} (options: {can})"
        )


# ---------------------------------------------------------------------------- reading
def read(path: Any, format: str | None = None, *, lenient: bool = False,
         **options: Any) -> Iterator[Document]:
    """Documents from a file, directory, glob or ``-``, one at a time (streaming).

    Strict by default: a repair of malformed input (a reader check that is refused, see
    :attr:`corefkit.validation.checks.Check.refused`) or a file without documents is a
    :class:`FormatError` naming file and line; ``lenient`` keeps the repairs (each is in the
    document's ``repairs``).
    """
    if isinstance(path, (list, tuple)):
        for item in path:
            yield from read(item, format=format, lenient=lenient, **options)
        return
    for file, fmt in expand_paths(path, format):
        spec = get(fmt)
        _check_options(spec, options, spec.read_options, "reader")
        module = spec.load()
        own = {"lenient": lenient} if "lenient" in spec.read_options else {}
        if spec.reads_paths:
            docs = module.read_path(file, display_name(file), **options, **own)
            yield from _strict(without_gc_pauses(docs), file, lenient)
            continue
        with open_binary(file) as handle:
            docs = module.read_stream(handle, display_name(file), **options, **own)
            yield from _strict(without_gc_pauses(docs), file, lenient)


def _strict(docs: Iterator[Document], file: str, lenient: bool) -> Iterator[Document]:
    """``docs``, refusing malformed input unless ``lenient``."""
    if lenient:
        yield from docs
        return
    from corefkit.validation.checks import get_check  # the checks say what is malformed

    count = 0
    for doc in docs:
        for repair in doc.repairs:
            check = get_check(repair.check)
            if check is not None and check.refused:
                raise FormatError(f"{repair.message}; fix the input, or pass --lenient to "
                                  "repair it", file=repair.file or doc.file, line=repair.line,
                                  column=repair.column, check=repair.check)
        count += 1
        yield doc
    if count == 0:
        raise FormatError("the file holds no document; is it empty or in another format? "
                          "(pass --lenient to read it as none)", file=display_name(file),
                          line=1, check="file.no-documents")


# ---------------------------------------------------------------------------- writing
def output_format(path: str, format: str | None) -> FormatSpec:
    if format is not None:
        return get(format)
    if os.fspath(path) != "-":
        for spec in FORMATS.values():
            # a directory format's pattern names its project files, not the output directory
            if not spec.writes_directory and _matches_patterns(spec, path):
                return spec
    raise UsageError(f"cannot tell the output format of {display_name(path)}; pass --to")


def write(
    documents: Iterable[Document],
    path: Any,
    format: str | None = None,
    *,
    fail_on_loss: bool = False,
    **options: Any,
) -> ConversionReport:
    """Write documents to ``path`` atomically; returns what was repaired and lost.

    With ``fail_on_loss`` a :class:`LossError` is raised at the first document that has
    something the format cannot hold, and no output file is created.
    """
    spec = output_format(path, format)
    mode = options.get("discontinuous", "drop")
    if mode not in DISCONTINUOUS_MODES:
        raise UsageError(f"unknown --discontinuous mode {mode!r}; expected one of "
                         f"{', '.join(DISCONTINUOUS_MODES)}")
    # Discontinuous mentions in a format that cannot hold them: a writer that chooses its
    # mentions with loss.writable_tokens takes the option itself; any other gets documents
    # whose discontinuous mentions are already dropped or approximated. The option means
    # nothing to a format that holds them.
    fallback = None
    if "discontinuous" in spec.capabilities:
        options.pop("discontinuous", None)
    elif "discontinuous" not in spec.write_options:
        fallback = options.pop("discontinuous", "drop")
    _check_options(spec, options, spec.write_options, "writer")
    module = spec.load()
    report = ConversionReport()

    def checked(docs: Iterable[Document]) -> Iterator[Document]:
        for doc in docs:
            actions = module.loss_actions(**options)
            if fallback is not None and fallback != "drop":
                actions = {**actions, "discontinuous": discontinuous_action(fallback)}
            losses = find_losses(doc, spec.capabilities, actions)
            partial = getattr(module, "partial_losses", None)  # features a format holds in part
            if partial is not None:
                losses += partial(doc, **options)
            if losses and fail_on_loss:
                detail = "; ".join(str(r) for r in losses)
                raise LossError(f"writing {doc.name} as {spec.name} would lose: {detail}")
            report.losses.extend(losses)
            report.documents += 1
            yield approximate_discontinuous(doc, fallback) if fallback is not None else doc

    if spec.writes_directory:
        if os.fspath(path) == "-":
            raise UsageError(f"format {spec.name} writes a directory; give a directory, not '-'")
        replaceable = getattr(module, "replaceable_output", None)
        with atomic_directory_output(path, replaceable=replaceable) as directory:
            module.write_path(checked(documents), directory, report, **options)
        return report
    with atomic_text_output(path) as out:
        module.write_stream(checked(documents), out, report, **options)
    return report
