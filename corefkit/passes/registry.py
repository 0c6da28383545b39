"""The registry of normalization passes and the ``NAME:opt=val,...`` syntax of the CLI.

A pass is a pure function ``Document -> Document`` with a name, a one-line description and
typed options. Passes never do I/O and never print; what they change they record in the
returned document's ``repairs``.

The built-in passes register themselves when their modules are imported, and the package
(:mod:`corefkit.passes`) imports them all before any of its modules can be used, so the
registry is complete whichever module a caller imports; it never imports a pass itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from corefkit.errors import UsageError
from corefkit.model import Document

PassFunction = Callable[..., Document]


@dataclass(frozen=True)
class PassSpec:
    name: str
    description: str
    function: PassFunction
    options: dict[str, type] = field(default_factory=dict)

    def __call__(self, doc: Document, **options: Any) -> Document:
        return self.function(doc, **options)


PASSES: dict[str, PassSpec] = {}


def register_pass(name: str, description: str, **options: type) -> Callable[[PassFunction], PassFunction]:
    """Decorator: register ``function(doc, **options) -> Document`` as pass ``name``."""

    def decorate(function: PassFunction) -> PassFunction:
        PASSES[name] = PassSpec(name, description, function, dict(options))
        return function

    return decorate


def get_pass(name: str) -> PassSpec:
    spec = PASSES.get(name)
    if spec is None:
        known = ", ".join(sorted(PASSES))
        raise UsageError(f"unknown pass {name!r}; known passes: {known}")
    return spec


def all_passes() -> list[PassSpec]:
    return sorted(PASSES.values(), key=lambda p: p.name)


def _convert(spec: PassSpec, key: str, text: str) -> Any:
    kind = spec.options.get(key)
    if kind is None:
        can = ", ".join(sorted(spec.options)) or "none"
        raise UsageError(f"pass {spec.name} has no option {key!r} (options: {can})")
    if kind is bool:
        lowered = text.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise UsageError(f"pass {spec.name}: option {key} expects true or false, got {text!r}")
    try:
        return kind(text)
    except ValueError:
        raise UsageError(
            f"pass {spec.name}: option {key} expects {kind.__name__}, got {text!r}") from None


def parse_pass(text: str) -> tuple[PassSpec, dict[str, Any]]:
    """``name`` or ``name:opt=val,opt=val`` → (pass, typed options)."""
    name, _, rest = text.partition(":")
    spec = get_pass(name.strip())
    options: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise UsageError(f"pass option {item!r} must look like name=value")
        options[key.strip()] = _convert(spec, key.strip(), value.strip())
    return spec, options


def apply_passes(documents: Iterable[Document], passes: Iterable[str]) -> Iterator[Document]:
    """Apply the passes, in order, to every document."""
    parsed = [parse_pass(p) for p in passes]
    for doc in documents:
        for spec, options in parsed:
            doc = spec(doc, **options)
        yield doc

