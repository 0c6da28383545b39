"""The format registry: names, capabilities, detection, and the read/write entry points.

Each format is a package ``corefkit/converters/<format>/`` (see :mod:`corefkit.converters.base`):
its ``spec.py`` is read here for every format (names, patterns, detection, options), its
reader and writer modules only when the format is used. The registry expands directories and
globs, detects formats (formats/README.md, "Detecting the format"), routes each reader and
writer option to the formats that declare it, refuses malformed input unless asked to be
lenient, records loss reports and makes every write atomic.

A format whose documents are several files (MMAX2 projects) sets ``reads_paths`` and/or
``writes_directory``: its reader then provides ``read_path(path, file, **options)`` (``path``
is a project file; a directory stands for every project under it) and its writer
``write_path(documents, directory, report, **options)``, which fills a temporary directory
that is renamed into place when the whole write succeeded.
"""

from __future__ import annotations

import fnmatch
import glob
import importlib
import io
import os
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from corefkit.checks.plugins import FormatPlugin
from corefkit.checks.registry import get_check
from corefkit.converters.base import DISCONTINUOUS, FORMS, FormatSpec, Option
from corefkit.converters.folders import Expansion, expand_folder
from corefkit.converters.io import (
    atomic_directory_output,
    atomic_text_output,
    display_name,
    locate_decode_error,
    open_binary,
    without_gc_pauses,
)
from corefkit.converters.loss import (
    DISCONTINUOUS_MODES,
    ConversionReport,
    LossRecord,
    approximate_discontinuous,
    cascade,
    conll_column_losses,
    discontinuous_action,
    find_losses,
)
from corefkit.converters.paths import (
    InputError,
    input_kind,
    is_regular_file,
    list_folder,
)
from corefkit.errors import CorefkitError, FormatError, LossError, UsageError
from corefkit.model import Document

SNIFF_BYTES = 64 * 1024

# the format packages under corefkit/converters, each with a spec.py
FORMAT_PACKAGES = ("conll2012", "lcc", "corefud", "ua_exploded", "mmax2", "brat", "gap",
                   "jsonlines", "webanno_tsv", "uima_cas", "text2text")
# the outputs of NLP libraries, one package each under corefkit/converters/libraries
LIBRARY_PACKAGES = ("fastcoref", "maverick", "spacy", "stanza", "corenlp")

FORMATS: dict[str, FormatSpec] = {}
ALIASES: dict[str, str] = {}


def register(spec: FormatSpec) -> None:
    FORMATS[spec.name] = spec
    for alias in (spec.name, *spec.aliases):
        ALIASES[alias.lower()] = spec.name


for _package in (*FORMAT_PACKAGES, *(f"libraries.{p}" for p in LIBRARY_PACKAGES)):
    _module = importlib.import_module(f"corefkit.converters.{_package}.spec")
    for _spec in getattr(_module, "SPECS", (_module.SPEC,)):  # a package may hold variants
        register(_spec)


def get(name: str) -> FormatSpec:
    """The format called ``name`` (or one of its aliases)."""
    key = ALIASES.get(name.lower())
    if key is None:
        known = ", ".join(sorted(FORMATS))
        raise UsageError(f"unknown format {name!r}; known formats: {known}")
    return FORMATS[key]


def formats() -> list[FormatSpec]:
    return sorted(FORMATS.values(), key=lambda s: s.name)


# ---------------------------------------------------------------------------- checks
_PLUGINS: dict[str, FormatPlugin] = {}
_CHECKS_LOADED = False


def load_format_checks() -> None:
    """Import every format's ``checks`` module: each registers its checks
    (:mod:`corefkit.checks.registry`) and exposes its validation ``PLUGIN``."""
    global _CHECKS_LOADED
    if _CHECKS_LOADED:
        return
    _CHECKS_LOADED = True
    for spec in formats():
        try:
            module = spec.checks()
        except ModuleNotFoundError as exc:  # a format without checks of its own
            if exc.name != spec.package + ".checks":
                raise
            continue
        _PLUGINS[spec.name] = module.PLUGIN


def plugin_for(format: str | None) -> FormatPlugin:
    """The validation plugin of a format; formats without one get the model checks only."""
    load_format_checks()
    if format is None:
        return FormatPlugin("")
    return _PLUGINS.get(format) or FormatPlugin(format)


# ---------------------------------------------------------------------------- detection
def _matches_patterns(spec: FormatSpec, path: str, named: bool = False) -> bool:
    """Whether a file name is one of the format's (``named``: the user named the format, so
    its ``named_patterns`` count too)."""
    base = os.path.basename(path).lower()
    patterns = (*spec.patterns, *spec.named_patterns) if named else spec.patterns
    return any(fnmatch.fnmatch(base, p.lower()) for p in patterns)


def sniff_text(head: str) -> str | None:
    """The format whose detector recognises ``head`` (the first 64 KB), or None."""
    for spec in sorted(FORMATS.values(), key=lambda s: s.sniff_priority):
        if spec.sniff(head):
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
    """(file, format) pairs for a file, a folder (every file below it, see
    :mod:`corefkit.converters.folders`) or a glob pattern.

    A file below a folder that cannot be read (or a folder that cannot be listed) is an error:
    reading the rest would give a number for part of the input without saying so.
    """
    expansion = expand(path, format)
    for skipped in expansion.unreadable():
        raise InputError(f"{skipped.path}: cannot be read ({skipped.detail}), so the folder "
                            f"{expansion.folder} cannot be read whole")
    return expansion.files


def expand(path: str | os.PathLike[str], format: str | None = None) -> Expansion:
    """What a path names: its files with their formats, and (for a folder) what it skips.

    A folder is walked recursively, the same way for every format and command
    (:func:`corefkit.converters.folders.expand_folder`); a folder with no file to read is an
    error that says what it holds instead.
    """
    text = os.fspath(path)
    kind = input_kind(text)
    if kind == "stdin":
        if format is None:
            raise UsageError("reading standard input needs the format: pass --from")
        spec = get(format)
        if not spec.stream:
            raise UsageError(f"format {spec.name} is not a single stream and cannot be read from '-'")
        return Expansion(text, [(text, spec.name)])
    if kind == "folder":
        list_folder(text)  # the folder itself cannot be listed: that error, not a summary
        wanted = get(format) if format is not None else None
        found = expand_folder(text, list(FORMATS.values()), wanted, sniff_text,
                              _matches_patterns)
        if not found.files and not found.unreadable():
            what = f"{wanted.name} files" if wanted is not None else "files of a known format"
            held = "; ".join(line.strip() for line in found.summary()[1:])
            raise InputError(f"{text}: the folder holds no {what}"
                                + (f" ({held})" if held else ""))
        return found
    if kind == "glob":
        matches = sorted(p for p in glob.glob(text) if is_regular_file(p))
        if not matches:
            raise InputError(f"{text}: the pattern matches no file")
        return Expansion(text, [(p, get(format).name if format else guess_format(p))
                                for p in matches])
    return Expansion(text, [(text, get(format).name if format else guess_format(text))])


# ---------------------------------------------------------------------------- options
def declared(spec: FormatSpec, side: str) -> tuple[Option, ...]:
    """The options of a format's reader (``side`` "read") or writer ("write").

    Every writer takes ``discontinuous``: the registry applies it for writers that do not choose
    their mentions themselves, and it means nothing to formats that hold discontinuous mentions.
    Writers whose word column cannot hold every form (``FormatSpec.forms``) take ``forms``.
    """
    if side == "read":
        return spec.read_options
    if not spec.writes:
        return ()
    found = spec.write_options
    if spec.write_option("discontinuous") is None:
        found = (*found, DISCONTINUOUS)
    if spec.forms is not None:
        found = (*found, FORMS)
    return found


def all_options(side: str) -> list[Option]:
    """Every reader (or writer) option of every format, once per name, in registry order."""
    seen: dict[str, Option] = {}
    for spec in FORMATS.values():
        for option in declared(spec, side):
            seen.setdefault(option.name, option)
    return list(seen.values())


def formats_declaring(name: str, side: str) -> list[str]:
    return [s.name for s in FORMATS.values() if any(o.name == name for o in declared(s, side))]


def option_flag(name: str) -> str:
    """How the command line spells a reader or writer option (``--mmax-map``)."""
    for side in ("read", "write"):
        for option in all_options(side):
            if option.name == name:
                return option.cli
    return "--" + name.replace("_", "-")


def refuse_undeclared(options: dict[str, Any], specs: Iterable[FormatSpec], side: str) -> None:
    """A usage error for an option that none of ``specs`` declares on ``side``."""
    specs = list(specs)
    for name in options:
        if any(o.name == name for spec in specs for o in declared(spec, side)):
            continue
        what = "input" if side == "read" else "output"
        owners = formats_declaring(name, side)
        have = ", ".join(sorted({s.name for s in specs})) or "none"
        if owners:
            raise UsageError(f"{option_flag(name)} applies to {' and '.join(owners)} {what} only; "
                             f"the {what} here is {have}")
        raise UsageError(f"no format's {'reader' if side == 'read' else 'writer'} has an option "
                         f"{name!r}")


def own_options(spec: FormatSpec, options: dict[str, Any], side: str) -> dict[str, Any]:
    """The part of ``options`` that ``spec`` declares on ``side``."""
    names = {o.name for o in declared(spec, side)}
    return {k: v for k, v in options.items() if k in names}


def route_read_options(options: dict[str, Any],
                       sources: list[tuple[Any, str | None]]) -> list[dict[str, Any]]:
    """Share reader ``options`` among several inputs (a key and a response): each input
    ``(path, format)`` gets the options its formats declare. An option that no input declares
    is a usage error; inputs that are documents in memory get none."""
    if not options:
        return [{} for _ in sources]
    specs: list[list[FormatSpec]] = []
    for source, format in sources:
        paths = isinstance(source, (str, os.PathLike)) or (
            isinstance(source, (list, tuple)) and all(isinstance(s, (str, os.PathLike))
                                                      for s in source))
        if not paths:
            specs.append([])
            continue
        items = source if isinstance(source, (list, tuple)) else [source]
        specs.append([get(fmt) for item in items for _, fmt in expand_paths(item, format)])
    refuse_undeclared(options, [s for group in specs for s in group], "read")
    return [{k: v for k, v in options.items()
             if any(o.name == k for spec in group for o in spec.read_options)}
            for group in specs]


# ---------------------------------------------------------------------------- reading
def read(path: Any, format: str | None = None, *, lenient: bool = False, checks: bool = False,
         **options: Any) -> Iterator[Document]:
    """Documents from a file, directory, glob or ``-``, one at a time (streaming).

    ``options`` are reader options; each goes to the formats that declare it, and one that no
    format of the input declares is a usage error. Strict by default: a repair of malformed
    input (:attr:`corefkit.checks.registry.Check.read_refused`) or a file without documents
    is a :class:`FormatError` naming file and line; ``lenient`` keeps the repairs (each is in
    the document's ``repairs``). ``checks`` reads as every command reads: every repair whose
    check is an error is refused (:attr:`~corefkit.checks.registry.Check.refused`), and the
    validator's checks run on each document and refuse their errors (lenient: warnings;
    :mod:`corefkit.converters.gate`).
    """
    if isinstance(path, (list, tuple)):
        for item in path:
            yield from read(item, format=format, lenient=lenient, checks=checks, **options)
        return
    files = expand_paths(path, format)
    refuse_undeclared(options, (get(fmt) for _, fmt in files), "read")
    for file, fmt in files:
        spec = get(fmt)
        own = own_options(spec, options, "read")
        if spec.lenient:
            own["lenient"] = lenient
        module = spec.reader()
        if spec.reads_paths:
            docs = module.read_path(file, display_name(file), **own)
            yield from _strict(without_gc_pauses(docs), file, lenient, spec.name, checks)
            continue
        with open_binary(file) as handle:
            docs = module.read_stream(handle, display_name(file), **own)
            yield from _strict(without_gc_pauses(docs), file, lenient, spec.name, checks)


def read_range(path: str, format: str, start: int, stop: int, first_line: int, *,
               lenient: bool = False, checks: bool = False,
               **options: Any) -> Iterator[Document]:
    """The documents in bytes ``start`` to ``stop`` of a file (whole documents, the first on
    line ``first_line``), read as :func:`read` reads the file; for formats whose reader takes
    ``first_line`` (:mod:`corefkit.scoring.shards` cuts files for worker processes)."""
    spec = get(format)
    own = own_options(spec, options, "read")
    if spec.lenient:
        own["lenient"] = lenient
    with open_binary(path) as handle:
        handle.seek(start)
        limited = io.BufferedReader(_Window(handle, stop - start))
        docs = spec.reader().read_stream(limited, display_name(path), first_line=first_line,
                                         **own)
        try:
            yield from _strict(without_gc_pauses(docs), path, lenient, spec.name, checks)
        except FormatError as error:
            if error.check != "text.invalid-utf8":
                raise
            # a window cannot seek back to find the bad byte: find it in the whole file
            with open_binary(path) as whole:
                raise locate_decode_error(whole, display_name(path)) from None


class _Window(io.RawIOBase):
    """At most ``size`` bytes of a binary stream, from where it stands."""

    def __init__(self, stream: BinaryIO, size: int) -> None:
        self.stream, self.left = stream, size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left <= 0:
            return 0
        data = self.stream.read(min(len(buffer), self.left))
        buffer[:len(data)] = data
        self.left -= len(data)
        return len(data)


def _strict(docs: Iterator[Document], file: str, lenient: bool,
            fmt: str | None = None, checks: bool = False) -> Iterator[Document]:
    """``docs`` (read as format ``fmt``), refusing malformed input unless ``lenient``; with
    ``checks``, through the validator's checks too (after the reader's own refusals)."""
    read = _refusing(docs, file, lenient, fmt, checks)
    if checks:
        from corefkit.converters.gate import gated

        load_format_checks()  # every check's severity, whether or not reading is lenient
        read = gated(read, display_name(file), plugin_for(fmt), lenient)
    yield from read


def _refusing(docs: Iterator[Document], file: str, lenient: bool,
              fmt: str | None, checks: bool) -> Iterator[Document]:
    if lenient:
        for doc in docs:
            doc.source_format = fmt
            yield doc
        return
    from corefkit.converters.gate import excluded

    load_format_checks()  # the readers' checks say what is malformed
    count = 0
    for doc in docs:
        doc.source_format = fmt
        for repair in doc.repairs:
            check = get_check(repair.check)
            if check is not None and (check.refused if checks else check.read_refused) \
                    and not excluded(check.id):
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
def formats_of_name(path: str) -> list[FormatSpec]:
    """The formats whose file names ``path`` has, in registry order (a directory format's
    pattern names its project files, not the output directory)."""
    if os.fspath(path) == "-":
        return []
    return [spec for spec in FORMATS.values()
            if not spec.writes_directory and _matches_patterns(spec, path)]


def output_format(path: str, format: str | None) -> FormatSpec:
    if format is not None:
        return get(format)
    found = formats_of_name(path)
    if found:
        return found[0]
    shown = "standard output" if os.fspath(path) == "-" else display_name(path)
    raise UsageError(f"cannot tell the output format of {shown}; pass --to")


def write(
    documents: Iterable[Document],
    path: Any,
    format: str | None = None,
    *,
    fail_on_loss: bool = False,
    replace: bool = True,
    **options: Any,
) -> ConversionReport:
    """Write documents to ``path`` atomically; returns what was repaired and lost.

    ``replace=False`` refuses to replace an existing ``path``
    (:class:`~corefkit.converters.atomic.OutputExists`), even one that appears meanwhile.

    With ``fail_on_loss`` a :class:`LossError` is raised at the first document that has
    something the format cannot hold, and no output file is created. A token form the format
    cannot hold is refused, naming the token, unless ``forms="replace"``
    (:mod:`corefkit.converters.forms`).
    """
    spec = output_format(path, format)
    if not spec.writes:
        writable = ", ".join(s.name for s in formats() if s.writes and s.writes_any_corpus)
        raise UsageError(f"corefkit reads {spec.name} but does not write it; write one of "
                         f"{writable}")
    mode = options.get("discontinuous", "drop")
    if mode not in DISCONTINUOUS_MODES:
        raise UsageError(f"unknown --discontinuous mode {mode!r}; expected one of "
                         f"{', '.join(DISCONTINUOUS_MODES)}")
    # Discontinuous mentions in a format that cannot hold them: a writer that chooses its
    # mentions with loss.writable_tokens takes the option itself; any other gets documents
    # whose discontinuous mentions are already dropped or approximated. The option means
    # nothing to a format that holds them.
    refuse_undeclared(options, [spec], "write")
    fallback = None
    if "discontinuous" in spec.capabilities:
        options.pop("discontinuous", None)
    elif spec.write_option("discontinuous") is None:
        fallback = options.pop("discontinuous", "drop")
    forms = options.pop("forms", "refuse")
    module = spec.writer()
    # what the writer holds with these options (a format may hold a feature only with one)
    holds = getattr(module, "capabilities", None)
    held = holds(spec.capabilities, **options) if holds is not None else spec.capabilities
    report = ConversionReport()

    def checked(docs: Iterable[Document]) -> Iterator[Document]:
        from corefkit.converters.forms import check_forms

        for doc in docs:
            losses: list[LossRecord] = []
            if spec.forms is not None:
                doc, losses = check_forms(doc, spec.forms, spec.name, forms,
                                          words_only="empty_nodes" not in held)
            actions = module.loss_actions(**options)
            if fallback is not None and fallback != "drop":
                actions = {**actions, "discontinuous": discontinuous_action(fallback)}
            losses += find_losses(doc, held, actions)
            partial = getattr(module, "partial_losses", None)  # features a format holds in part
            if partial is not None:
                losses += partial(doc, **options)
            losses = cascade(doc, losses)
            # CoNLL-2012 columns (POS, parse, senses, names, ...): what the writer keeps
            kept = getattr(module, "kept_conll_columns", None)
            losses += conll_column_losses(doc, kept(doc, **options) if kept else frozenset())
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
    with atomic_text_output(path, replace=replace) as out:
        module.write_stream(checked(documents), out, report, **options)
    return report
