"""dkpro-cassis, the UIMA CAS library for Python, imported on demand.

corefkit reads and writes UIMA CAS (XMI, and CAS JSON where cassis reads it) through
dkpro-cassis (``dkpro/dkpro-cassis``, Apache-2.0), an optional extra: ``pip install
corefkit[cas]``. Nothing here imports it at module import time.

A CAS is read with a type system: the file's own (INCEpTION and WebAnno export
``TypeSystem.xml`` beside the XMI), one or more files merged. cassis' bundled DKPro Core type
system is never guessed in its place: it lacks ``DocumentMetaData``, which every WebAnno and
INCEpTION XMI carries. Types that an XMI uses and its type system does not define are named
before loading (:func:`undefined_types`) so that a reader can say which they are.
"""

from __future__ import annotations

import gzip
import io
import os
import re
import warnings
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from corefkit.errors import CorefkitError, FormatError

INSTALL = "pip install corefkit[cas]"
TYPESYSTEM_NAMES = ("TypeSystem.xml", "typesystem.xml", "Typesystem.xml")
NAMESPACE_RE = re.compile(rb'xmlns:([A-Za-z0-9_.-]+)="http:///([^"]*)\.ecore"')
ELEMENT_RE = re.compile(rb"<([A-Za-z0-9_.-]+):([A-Za-z0-9_]+)[\s/>]")
BUILT_IN = {"uima.cas.NULL", "uima.cas.Sofa", "uima.cas.View", "uima.cas.TOP"}


def require() -> ModuleType:
    """The cassis module, or a clear error saying how to install it."""
    try:
        import cassis
    except ImportError:
        raise CorefkitError("reading or writing UIMA CAS needs dkpro-cassis, which is not "
                            f"installed; install it with: {INSTALL}") from None
    return cassis


def read_bytes(path: str) -> bytes:
    """A file's bytes (``.gz`` files decompressed), read through
    :func:`corefkit.converters.paths.open_input`: a named pipe, a device or, inside a task's
    submission, a link or a path out of its folder is an ``InputError``, never read."""
    from corefkit.converters.paths import open_input

    try:
        with open_input(path) as handle:
            data = handle.read()
    except OSError as exc:
        raise CorefkitError(f"{path}: cannot read ({exc.strerror})") from None
    if path.lower().endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise CorefkitError(f"{path}: not a readable gzip file ({exc})") from None
    return data


def typesystem_beside(path: str) -> str | None:
    """The type system file INCEpTION exports beside a CAS file, if there is one."""
    folder = os.path.dirname(os.path.abspath(path))
    for name in TYPESYSTEM_NAMES:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate) and not os.path.islink(candidate):
            return candidate
    return None


def load_typesystems(paths: Sequence[str]) -> Any:
    """One type system from one or more files (merged in order)."""
    cassis = require()
    merged = None
    for path in paths:
        try:
            with warnings.catch_warnings():  # cassis renames a feature 'type' to 'type_'
                warnings.simplefilter("ignore")
                ts = cassis.load_typesystem(io.BytesIO(read_bytes(path)))
        except CorefkitError:
            raise
        except Exception as exc:  # cassis raises plain exceptions on malformed files
            line, column = xml_error_place(exc)
            raise FormatError(f"not a UIMA type system ({_short(exc)})", file=path, line=line,
                              column=column, check="cas.unreadable-typesystem") from None
        merged = ts if merged is None else cassis.merge_typesystems(merged, ts)
    return merged


def undefined_types(xmi: bytes, typesystem: Any) -> list[str]:
    """The types an XMI document uses that ``typesystem`` does not define."""
    namespaces = {prefix.decode("ascii", "replace"):
                  uri.decode("utf-8", "replace").replace("/", ".")
                  for prefix, uri in NAMESPACE_RE.findall(xmi)}
    found: set[str] = set()
    for prefix, local in ELEMENT_RE.findall(xmi):
        package = namespaces.get(prefix.decode("ascii", "replace"))
        if package is None:
            continue
        name = f"{package}.{local.decode('ascii', 'replace')}"
        if name not in BUILT_IN and not typesystem.contains_type(name):
            found.add(name)
    return sorted(found)


def load_cas(data: bytes, typesystem: Any, *, json: bool, lenient: bool) -> Any:
    """A CAS from XMI or CAS JSON bytes; in lenient mode annotations of types the type system
    lacks are skipped (the caller reports them: cassis' own warnings are silenced)."""
    cassis = require()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if json:
            return cassis.load_cas_from_json(io.BytesIO(data), typesystem=typesystem)
        return cassis.load_cas_from_xmi(io.BytesIO(data), typesystem=typesystem, lenient=lenient)


def xml_error_place(exc: BaseException) -> tuple[int | None, int | None]:
    """The 1-based line and column an XML parser's exception names, if any (lxml: position,
    expat: lineno and offset)."""
    position = getattr(exc, "position", None)
    if isinstance(position, tuple) and len(position) == 2 and isinstance(position[0], int) \
            and position[0] > 0:
        return position[0], position[1] + 1 if isinstance(position[1], int) else None
    line = getattr(exc, "lineno", None)
    if isinstance(line, int) and line > 0:
        offset = getattr(exc, "offset", None)
        return line, offset if isinstance(offset, int) and offset > 0 else None
    return None, None


def _short(exc: Exception) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:200]
