"""``corefkit.convert``: a file, folder or glob in one format to a file or folder in another.

What the ``convert`` and ``normalize`` commands do, as a function. The source decides the
shape of the target:

* one file (or ``-``) → one file, or a file of the same name inside an existing folder (or a
  target ending in ``/``, created);
* a folder or a glob → a folder, created when missing, one output file per input file (never a
  single concatenated file, never over an existing file);
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
    """
    from corefkit.converters.registry import expand_paths, get

    source, target = os.fspath(source), os.fspath(target)
    inputs = expand_paths(source, input_format)
    if output_format is not None:
        output_format = get(output_format).name
    plan = _plan(source, target, inputs, input_format, output_format, same_format)
    read_options, write_options = _route(options or {}, inputs, plan, read_options or {},
                                         write_options or {})
    from corefkit.parallel import map_outcomes, workers_for

    result = ConvertResult(ConversionReport())
    workers = 1 if transform is not None else workers_for(
        jobs, [j.source for j in plan if j.source != "-"])
    work = functools.partial(_convert_one, passes=tuple(passes), read_options=read_options,
                             write_options=write_options, lenient=lenient,
                             fail_on_loss=fail_on_loss, transform=transform)
    error: BaseException | None = None
    for _, done, failed in map_outcomes(work, plan, workers):
        if done is not None:
            result.report.merge(done.report)
            result.warnings.extend(done.warnings)
            result.written.extend(done.written)
        elif error is None:
            error = failed
    if error is not None:
        if len(plan) > 1 and result.written and isinstance(error, (CorefkitError,
                                                                    KeyboardInterrupt)):
            _say_what_is_complete(error, plan, result.written)
        raise error
    return result


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
                   fail_on_loss=fail_on_loss, **write_options)
    result.report.merge(report)
    result.warnings.extend(report.repairs)
    if job.target != "-":
        result.written.append(job.target)


def _plan(source: str, target: str, inputs: list[tuple[str, str]], input_format: str | None,
          output_format: str | None, same_format: bool) -> list[_Job]:
    from corefkit.converters.registry import get

    formats = {fmt for _, fmt in inputs}
    # a folder or a glob; a folder that is one MMAX2 project is one source, like a file
    many = source != "-" and not os.path.isfile(source) and not (
        os.path.isdir(source) and len(inputs) == 1 and get(inputs[0][1]).reads_paths)
    folder = target != "-" and (os.path.isdir(target) or target.endswith(("/", os.sep)))
    named = None if target == "-" or folder else _format_of_name(target)
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
    _make_folder(target)
    jobs = []
    for file, fmt in inputs:
        out = to or fmt
        jobs.append(_Job(file, fmt, output_path(file, target, out), out))
    return jobs


def _format_of_name(target: str) -> str | None:
    """The format whose files are named like ``target`` (``acl.conll``), else None."""
    from corefkit.converters.registry import output_format as format_of_name

    try:
        return format_of_name(target, None).name
    except UsageError:
        return None


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


def _make_folder(folder: str) -> None:
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise CorefkitError(f"cannot create the folder {folder}: {exc.strerror}") from None


def _say_what_is_complete(exc: BaseException, jobs: list[_Job], written: list[str]) -> None:
    """Add to the error which output files are complete and which were not written."""
    missing = [j.target for j in jobs if j.target not in written]
    note = (f"{len(written)} of {counted(len(jobs), 'file')} "
            f"{'was' if len(written) == 1 else 'were'} written completely "
            f"({os.path.dirname(written[0]) or '.'}); not written: {', '.join(missing[:3])}"
            + (f" and {len(missing) - 3} more" if len(missing) > 3 else ""))
    if isinstance(exc, CorefkitError):
        if hasattr(exc, "message"):
            exc.message = f"{exc.message}; {note}"
        else:
            exc.args = (f"{exc}; {note}",)
    else:
        exc.args = (note,)
