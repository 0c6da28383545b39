"""``corefkit.convert``: a file, folder or glob in one format to a file or folder in another.

What the ``convert`` and ``normalize`` commands do, as a function. The source decides the
shape of the target:

* one file (or ``-``) → one file, or a file of the same name inside an existing folder (or a
  target ending in ``/``, created);
* a folder or a glob → a folder, created when missing, one output file per input file (never a
  single concatenated file, never over an existing file); the files below a folder's
  subfolders go to the same subfolders of the target;
* formats that write a folder themselves (MMAX2) take the target folder as a whole.

Each output file is written atomically (:mod:`corefkit.converters.io`), so a file that exists
after an interrupted folder run is complete; the error then says which files were written.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from corefkit.converters.loss import ConversionReport
from corefkit.errors import CorefkitError, Repair, UsageError, counted
from corefkit.model import Document

# name endings to strip before adding the target format's extension (longest first)
_KNOWN_ENDINGS = (".nkas.json", ".conllua", ".conllu", ".conll", ".key", ".response")


@dataclass
class ConvertResult:
    """What a conversion did: the merged report, the files written, the readers' repairs."""

    report: ConversionReport
    written: list[str] = field(default_factory=list)
    warnings: list[Repair] = field(default_factory=list)


@dataclass(frozen=True)
class _Job:
    source: str
    input_format: str | None
    target: str
    output_format: str | None
    derived: bool = False  # the target's name was made here, from the input's
    replace: bool = True   # the target may be replaced (a derived name: only --overwrite)


def convert(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    *,
    input_format: str | None = None,
    output_format: str | None = None,
    passes: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    read_options: dict[str, Any] | None = None,
    write_options: dict[str, Any] | None = None,
    lenient: bool = False,
    fail_on_loss: bool = False,
    same_format: bool = False,
    transform: Callable[[Iterable[Document]], Iterable[Document]] | None = None,
    jobs: int | None = None,
    overwrite: bool = False,
) -> ConvertResult:
    """Convert ``source`` (file, folder, glob or ``-``) to ``target`` (file, folder or ``-``).

    ``same_format`` writes in the input format when neither ``output_format`` nor the target's
    name says another (``normalize``). ``passes`` are normalization pass specs applied to every
    document; ``fail_on_loss`` refuses to write what the target cannot hold; malformed input is
    refused unless ``lenient`` (then each repair is in ``warnings``).

    ``options`` are reader and writer options by name, as the command line gives them
    (``layer``, ``level_map``, ``layout``, ...): each goes to the input formats whose reader
    declares it and to the output format if its writer does, and one that neither declares is
    a :class:`UsageError`. ``read_options`` and ``write_options`` go to one side only.

    A folder or glob is converted file by file in ``jobs`` processes (default: the machine's
    cores when there is enough input); ``transform`` (a callable) keeps the work here.

    Nothing is replaced unasked: before anything is written, a run is refused
    (:class:`UsageError`) when two inputs would be written to one output file, when an
    output file whose name is made from an input's (in a target folder) exists, or when
    the target is an input itself; ``overwrite`` allows the last two. A target file named
    as such is replaced (keeping its rights).
    """
    from corefkit.converters.registry import expand_paths, get

    source, target = os.fspath(source), os.fspath(target)
    inputs = expand_paths(source, input_format)
    if output_format is not None:
        output_format = get(output_format).name
    plan = _plan(source, target, inputs, input_format, output_format, same_format, overwrite)
    refuse_unsafe_targets(plan, overwrite)
    for folder in sorted({os.path.dirname(j.target) for j in plan if j.derived}):
        _make_folder(folder)  # a target folder, created when missing (after the checks)
    read_options, write_options = _route(options or {}, inputs, plan, read_options or {},
                                         write_options or {})
    from corefkit.parallel import workers_for

    workers = 1 if transform is not None else workers_for(
        jobs, [j.source for j in plan if j.source != "-"])
    work = functools.partial(_convert_one, passes=tuple(passes), read_options=read_options,
                             write_options=write_options, lenient=lenient,
                             fail_on_loss=fail_on_loss, transform=transform)
    return _carry_out(plan, work, workers)


def _carry_out(plan: list[_Job], work: Callable[[_Job], ConvertResult], workers: int
               ) -> ConvertResult:
    """Every job of the plan, in ``workers`` processes: the merged result; or the first error,
    saying which files were written completely (Ctrl-C: :class:`Interrupted`)."""
    from corefkit.parallel import map_outcomes

    before = {job.target: _identity(job.target) for job in plan if job.target != "-"}
    result = ConvertResult(ConversionReport())
    error: BaseException | None = None
    outcomes = map_outcomes(work, plan, workers)
    try:
        for _, done, failed in outcomes:
            if done is not None:
                result.report.merge(done.report)
                result.warnings.extend(done.warnings)
                result.written.extend(done.written)
            elif error is None:
                error = failed
    except KeyboardInterrupt as exc:  # between two outcomes: the workers are stopped
        error = exc
    finally:
        outcomes.close()  # the workers are gone before the files are looked at
    if error is None:
        return result
    # what exists now and did not before was written whole by this run (atomically)
    complete = [t for t, was in before.items() if _identity(t) not in (None, was)]
    if isinstance(error, KeyboardInterrupt):
        raise Interrupted(_interrupted_note(plan, complete)) from None
    if len(plan) > 1 and complete and isinstance(error, CorefkitError):
        _say_what_is_complete(error, plan, complete)
    raise error


def _convert_one(job: _Job, *, passes: Sequence[str], read_options: dict[str, Any],
                 write_options: dict[str, Any], lenient: bool, fail_on_loss: bool,
                 transform: Callable[[Iterable[Document]], Iterable[Document]] | None
                 ) -> ConvertResult:
    """One file's conversion (in this process or a worker): its own result."""
    result = ConvertResult(ConversionReport())
    _run(job, passes, read_options, write_options, lenient, fail_on_loss, transform, result)
    return result


def _route(options: dict[str, Any], inputs: list[tuple[str, str]], jobs: list[_Job],
           read_options: dict[str, Any], write_options: dict[str, Any]
           ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split options given by name between the readers and the writer that declare them."""
    from corefkit.converters.registry import (
        declared,
        formats_declaring,
        get,
        option_flag,
        output_format,
    )

    if not options:
        return read_options, write_options
    readers = {get(fmt) for _, fmt in inputs}
    writers = {output_format(job.target, job.output_format) for job in jobs}
    reads, writes = dict(read_options), dict(write_options)
    for name, value in options.items():
        by_reader = any(o.name == name for spec in readers for o in declared(spec, "read"))
        by_writer = any(o.name == name for spec in writers for o in declared(spec, "write"))
        if by_reader:
            reads[name] = value
        if by_writer:
            writes[name] = value
        if not (by_reader or by_writer):
            reading, writing = formats_declaring(name, "read"), formats_declaring(name, "write")
            owners = [f"{fmt} input or output" if fmt in writing else f"{fmt} input"
                      for fmt in reading]
            owners += [f"{fmt} output" for fmt in writing if fmt not in reading]
            here = (f"the input is {', '.join(sorted(s.name for s in readers))} and the output "
                    f"{', '.join(sorted(s.name for s in writers))}")
            raise UsageError(f"{option_flag(name)} applies to {' and '.join(owners)} only; "
                             f"here {here}")
    return reads, writes


def _run(job: _Job, passes: Sequence[str], read_options: dict[str, Any],
         write_options: dict[str, Any], lenient: bool, fail_on_loss: bool,
         transform: Callable[[Iterable[Document]], Iterable[Document]] | None,
         result: ConvertResult) -> None:
    from corefkit.converters.registry import get, own_options, read, write
    from corefkit.passes import apply_passes

    if job.input_format is not None:  # a file of a folder: the options of its own format
        read_options = own_options(get(job.input_format), read_options, "read")

    def documents() -> Iterator[Document]:
        docs: Iterable[Document] = apply_passes(
            read(job.source, format=job.input_format, lenient=lenient, checks=True,
                 **read_options),
            list(passes))
        if transform is not None:
            docs = transform(docs)
        for doc in docs:
            result.warnings.extend(doc.repairs)
            yield doc

    report = write(documents(), job.target, format=job.output_format,
                   fail_on_loss=fail_on_loss, replace=job.replace, **write_options)
    result.report.merge(report)
    result.warnings.extend(report.repairs)
    if job.target != "-":
        result.written.append(job.target)


def _plan(source: str, target: str, inputs: list[tuple[str, str]], input_format: str | None,
          output_format: str | None, same_format: bool, overwrite: bool = False) -> list[_Job]:
    from corefkit.converters.registry import get

    formats = {fmt for _, fmt in inputs}
    # a folder or a glob; a folder that is one MMAX2 project is one source, like a file
    many = source != "-" and not os.path.isfile(source) and not (
        os.path.isdir(source) and len(inputs) == 1 and get(inputs[0][1]).reads_paths)
    folder = target != "-" and (os.path.isdir(target) or target.endswith(("/", os.sep)))
    named = None if target == "-" or folder else _format_of_name(target, formats)
    to = output_format or named
    if to is None and (same_format or folder or many) and len(formats) == 1:
        to = next(iter(formats))
    if to is not None and get(to).writes_directory:  # the format writes one folder itself
        if target == "-":
            raise UsageError(f"format {get(to).name} writes a directory; give a directory, not '-'")
        return [_Job(source, input_format, target, to)]
    if target == "-" or not (many or folder):
        return [_Job(source, input_format, target, to)]  # one file, or one stream
    if many and not folder:
        if os.path.exists(target):
            raise UsageError(f"{target} is a file, but the source {source} is a folder or glob: "
                             "its files are written one per input file into a folder; give a "
                             "folder (it is created when missing)")
        if named is not None:
            raise UsageError(f"the source {source} is a folder or glob, so the target is a folder "
                             f"(one output file per input file), but {target} is a file name; "
                             "give a folder, or '-' for one stream of every document")
    jobs = []
    for file, fmt in inputs:
        out = to or fmt
        # a file below a subfolder of the source goes to the same subfolder of the target
        # (folders are read recursively: gum/dep/X.conllu and gum/coref/X.conllu stay apart)
        below = os.path.relpath(os.path.dirname(file), source) if os.path.isdir(source) else "."
        place = target if below == os.curdir else os.path.join(target, below)  # made later
        jobs.append(_Job(file, fmt, output_path(file, place, out), out, derived=True,
                         replace=overwrite))
    return jobs


def _format_of_name(target: str, inputs: set[str] | None = None) -> str | None:
    """The format whose files are named like ``target`` (``acl.conll``), else None. A name
    several formats use (``.tsv``: GAP and WebAnno TSV) names the input's format when that is
    one of them (``normalize x.tsv y.tsv`` keeps WebAnno TSV), else the first registered."""
    from corefkit.converters.registry import formats_of_name

    found = formats_of_name(target)
    if len(found) > 1 and inputs is not None and len(inputs) == 1:
        (only,) = inputs
        if any(spec.name == only for spec in found):
            return only
    return found[0].name if found else None


def output_path(source: str, folder: str, fmt: str) -> str:
    """The file in ``folder`` that ``source`` converts to: its name with ``fmt``'s extension."""
    from corefkit.converters.registry import get

    extension = get(fmt).patterns[0].lstrip("*")
    stem = os.path.basename(os.path.normpath(source))
    for ending in _KNOWN_ENDINGS:
        if stem.lower().endswith(ending) and len(stem) > len(ending):
            stem = stem[: -len(ending)]
            break
    else:
        stem = os.path.splitext(stem)[0]
    return os.path.join(folder, stem + extension)


def refuse_unsafe_targets(plan: list[_Job], overwrite: bool) -> None:
    """Refuse, before anything is written, a plan that would lose a file: two inputs written
    to one output, an existing file whose name corefkit made (``overwrite`` allows it), an
    input written over itself (``overwrite`` allows it)."""
    by_target: dict[str, list[_Job]] = {}
    for job in plan:
        if job.target != "-":
            by_target.setdefault(os.path.normcase(os.path.abspath(job.target)), []).append(job)
    for jobs in by_target.values():
        if len(jobs) > 1:
            names = [j.source for j in jobs]
            listed = ", ".join(names[:-1]) + f" and {names[-1]}"
            every = "both" if len(names) == 2 else "all"
            raise UsageError(f"{listed} would {every} be written to {jobs[0].target}; convert them "
                             "into separate folders, or rename one")
    if overwrite:
        return
    for job in plan:
        if job.target == "-" or job.source == "-" or not os.path.lexists(job.target):
            continue
        if _same_file(job.source, job.target):
            raise UsageError(f"{job.target}: is the input itself; converting it in place would "
                             "replace it (and drop what the output cannot hold): give another "
                             "target, or pass --overwrite")
    existing = [j.target for j in plan if j.derived and os.path.lexists(j.target)]
    if existing:
        more = f" (and {len(existing) - 1} more outputs)" if len(existing) > 1 else ""
        raise UsageError(f"{existing[0]}: exists{more}; corefkit does not replace files in a "
                         "target folder: give a new or empty folder, or pass --overwrite")


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _identity(path: str) -> tuple[int, int, int] | None:
    """What tells a file apart from the one that had its name before (None: no file)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino, info.st_mtime_ns


def _make_folder(folder: str) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise CorefkitError(f"cannot create the folder {folder}: {exc.strerror}") from None


def _say_what_is_complete(exc: CorefkitError, jobs: list[_Job], written: list[str]) -> None:
    """Add to the error which output files are complete and which were not written."""
    missing = [j.target for j in jobs if j.target not in written]
    note = (f"{len(written)} of {counted(len(jobs), 'file')} "
            f"{'was' if len(written) == 1 else 'were'} written completely "
            f"({os.path.dirname(written[0]) or '.'}); not written: {', '.join(missing[:3])}"
            + (f" and {len(missing) - 3} more" if len(missing) > 3 else ""))
    if hasattr(exc, "message"):
        exc.message = f"{exc.message}; {note}"
    else:
        exc.args = (f"{exc}; {note}",)


SHOWN = 20  # files named in an interrupted run's note


class Interrupted(KeyboardInterrupt):
    """A conversion stopped by Ctrl-C; the message says which files were finished."""


def _interrupted_note(jobs: list[_Job], complete: list[str]) -> str:
    """Which output files an interrupted run finished (each complete) and that the rest were
    not written."""
    total = len([j for j in jobs if j.target != "-"])
    if not complete:
        return f"no file was written (of {total})" if total > 1 else "nothing was written"
    named = ", ".join(complete[:SHOWN]) + (
        f" and {len(complete) - SHOWN} more" if len(complete) > SHOWN else "")
    rest = total - len(complete)
    return (f"{len(complete)} of {total} files were written completely: {named}; "
            + (f"the other {rest} were not written" if rest else "none was left unwritten"))
