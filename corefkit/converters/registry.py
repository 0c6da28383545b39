"""The format registry: names, capabilities, detection, and the read/write entry points.

Each format is a module with ``sniff(head) -> bool``, ``read_stream(stream, file, **options)``
(an iterator of documents) and ``write_stream(documents, out, report, **options)``. The
registry imports a module only when its format is used, expands directories and globs,
detects formats (formats/README.md, "Detecting the format"), checks options, records loss
reports and makes every write atomic.
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
    atomic_text_output,
    display_name,
    open_binary,
    without_gc_pauses,
)
from corefkit.converters.loss import ConversionReport, find_losses
from corefkit.errors import CorefkitError, LossError, UsageError
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
    write_options=frozenset({"layout", "keep_ids"}),
    sniff_priority=50,
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
    for spec in sorted(FORMATS.values(), key=lambda s: s.sniff_priority):
        if spec.load().sniff(head):
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
    """(file, format) pairs for a file, a directory (its files, sorted) or a glob pattern."""
    text = os.fspath(path)
    if text == "-":
        if format is None:
            raise UsageError("reading standard input needs the format: pass --from")
        spec = get(format)
        if not spec.stream:
            raise UsageError(f"format {spec.name} is not a single stream and cannot be read from '-'")
        return [(text, spec.name)]
    if os.path.isdir(text):
        found = []
        for name in sorted(os.listdir(text)):
            full = os.path.join(text, name)
            if name.startswith(".") or not os.path.isfile(full):
                continue
            if format is not None:
                spec = get(format)
                if _matches_patterns(spec, full):
                    found.append((full, spec.name))
                continue
            try:
                found.append((full, guess_format(full)))
            except CorefkitError:
                continue  # not a file of any known format (README, LICENSE, ...)
        if not found:
            what = f"{get(format).name} files" if format else "files of a known format"
            raise CorefkitError(f"{text}: the directory holds no {what}")
        return found
    if not os.path.exists(text) and any(ch in text for ch in "*?["):
        matches = sorted(p for p in glob.glob(text) if os.path.isfile(p))
        if not matches:
            raise CorefkitError(f"{text}: the pattern matches no file")
        return [(p, get(format).name if format else guess_format(p)) for p in matches]
    if not os.path.exists(text):
        raise CorefkitError(f"{text}: no such file or directory")
    return [(text, get(format).name if format else guess_format(text))]


def _check_options(spec: FormatSpec, options: dict[str, Any], allowed: frozenset[str],
                   what: str) -> None:
    unknown = sorted(set(options) - allowed)
    if unknown:
        can = ", ".join(sorted(allowed)) or "none"
        raise UsageError(
            f"the {spec.name} {what} has no option {', '.join(unknown)} (options: {can})"
        )


# ---------------------------------------------------------------------------- reading
def read(path: Any, format: str | None = None, **options: Any) -> Iterator[Document]:
    """Documents from a file, directory, glob or ``-``, one at a time (streaming)."""
    if isinstance(path, (list, tuple)):
        for item in path:
            yield from read(item, format=format, **options)
        return
    for file, fmt in expand_paths(path, format):
        spec = get(fmt)
        _check_options(spec, options, spec.read_options, "reader")
        module = spec.load()
        with open_binary(file) as handle:
            yield from without_gc_pauses(module.read_stream(handle, display_name(file), **options))


# ---------------------------------------------------------------------------- writing
def output_format(path: str, format: str | None) -> FormatSpec:
    if format is not None:
        return get(format)
    if os.fspath(path) != "-":
        for spec in FORMATS.values():
            if _matches_patterns(spec, path):
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
    _check_options(spec, options, spec.write_options, "writer")
    module = spec.load()
    report = ConversionReport()

    def checked(docs: Iterable[Document]) -> Iterator[Document]:
        for doc in docs:
            losses = find_losses(doc, spec.capabilities, module.loss_actions(**options))
            if losses and fail_on_loss:
                detail = "; ".join(str(r) for r in losses)
                raise LossError(f"writing {doc.name} as {spec.name} would lose: {detail}")
            report.losses.extend(losses)
            report.documents += 1
            yield doc

    with atomic_text_output(path) as out:
        module.write_stream(checked(documents), out, report, **options)
    return report
