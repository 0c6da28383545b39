"""corefkit's import graph, read from the source with ``ast`` (nothing is imported).

The rule the test suite holds the package to (``tests/test_import_graph.py``):

* An **edge** A → B is every way module A can make B run: an ``import`` or ``from … import``
  anywhere in A — at module level, inside a function or a class, under
  ``if TYPE_CHECKING:`` — and ``importlib.import_module`` (or any string constant) naming a
  corefkit module in full (a registry that loads its members by name depends on them).
  Names computed at run time (``f"corefkit.converters.{name}.reader"``) are plugin lookups
  and not edges. ``from package import name`` is an edge to ``package.name`` when that is a
  module, else to ``package``.
* The graph of all these edges is acyclic: no module imports, however lazily, a module that
  imports it back. A lazy import is for speed (the CLI starts without numpy), never to hide a
  circle.
* Every edge points down the layer order of DESIGN.md (:data:`LAYERS`) or stays in its layer:
  a module imports modules of its own layer (its package, or a sibling package of the same
  layer: the converters apply passes, LCC's writer uses the dominant-mention pass) and of lower
  layers, never of a higher one. Within a layer the acyclic module graph is the rule.
* A string naming the module's own package (or a package above it) is not an edge:
  ``importlib.resources.files("corefkit.report")`` reads the folder of a package that is
  always imported before the module itself.
* No library module (outside ``corefkit.cli``) imports ``click``.

``python -m tests.import_graph [ROOT]`` prints the circles (strongly connected components)
and the layer violations of the checkout at ``ROOT`` (default: this one).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

# DESIGN.md, "Layout": model ← checks ← formats, passes, alignment, analysis ← validation,
# scoring ← diagnosis, evaluation ← report ← (the Python API) ← cli. `errors`, `schemas` and
# `_version` are the foundation every layer uses (the exception hierarchy, data tables, the
# version string); `parallel` (the process pool of convert, validate, stats and score) and
# `interop` (bridges to other libraries' models) sit with the formats they read; the Python API
# is `corefkit/__init__.py`, the functions behind it (`_api`) and the old import paths kept for
# one release (`_deprecated`).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("corefkit._version", "corefkit.errors", "corefkit.schemas"),
    ("corefkit.model",),
    ("corefkit.checks",),
    ("corefkit.converters", "corefkit.passes", "corefkit.alignment", "corefkit.analysis",
     "corefkit.interop", "corefkit.parallel"),
    ("corefkit.validation", "corefkit.scoring"),
    ("corefkit.diagnosis", "corefkit.evaluation"),
    ("corefkit.report",),
    ("corefkit", "corefkit._api", "corefkit._deprecated"),
    ("corefkit.cli", "corefkit.__main__"),
)


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    line: int
    how: str  # "module", "function", "type-checking", "by name"

    def __str__(self) -> str:
        return f"{self.source} -> {self.target} ({self.how} import, line {self.line})"


def modules(root: Path, package: str = "corefkit") -> dict[str, str]:
    """Module name -> source text of every module of ``package`` under ``root``."""
    found: dict[str, str] = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path.read_text(encoding="utf-8")
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.Module) -> Iterable[tuple[ast.AST, str]]:
    """Every import statement and module-naming string of ``tree``, with how it is reached."""

    def visit(node: ast.AST, how: str) -> Iterable[tuple[ast.AST, str]]:
        for child in ast.iter_child_nodes(node):
            inner = how
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = "function" if how == "module" else how
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                yield from visit_body(child.body, "type-checking")
                yield from visit_body(child.orelse, how)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, how
            elif isinstance(child, ast.Constant) and isinstance(child.value, str):
                yield child, "by name"
            yield from visit(child, inner)

    def visit_body(body: list[ast.stmt], how: str) -> Iterable[tuple[ast.AST, str]]:
        wrapper = ast.Module(body=body, type_ignores=[])
        yield from visit(wrapper, how)

    yield from visit(tree, "module")


def edges(sources: Mapping[str, str]) -> list[Edge]:
    """The import edges among the modules of ``sources`` (module name -> source text), one per
    (source, target, how it is reached), at its first line."""
    names = set(sources)

    def resolve(name: str) -> str | None:
        while name and name not in names:
            name = name.rpartition(".")[0]
        return name or None

    found: dict[tuple[str, str, str], Edge] = {}
    for module, text in sources.items():
        tree = ast.parse(text)
        is_package = any(n.startswith(module + ".") for n in names)
        for node, how in _imports(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = module if is_package else module.rpartition(".")[0]
                    for _ in range(node.level - 1):
                        anchor = anchor.rpartition(".")[0]
                    base = f"{anchor}.{base}" if base else anchor
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.append(full if full in names else base)
            elif isinstance(node, ast.Constant) and node.value in names \
                    and not module.startswith(f"{node.value}."):
                targets = [str(node.value)]
            for target in targets:
                resolved = resolve(target) if target.split(".")[0] in \
                    {n.split(".")[0] for n in names} else None
                if resolved is not None and resolved != module:
                    edge = Edge(module, resolved, getattr(node, "lineno", 0), how)
                    found.setdefault((module, resolved, how), edge)
    return list(found.values())


def circles(found: Iterable[Edge]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    graph: dict[str, set[str]] = {}
    for edge in found:
        graph.setdefault(edge.source, set()).add(edge.target)
        graph.setdefault(edge.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    components.append(sorted(component))
    return sorted(components)


def layer(module: str, layers: tuple[tuple[str, ...], ...] = LAYERS) -> tuple[int, str] | None:
    """The layer of ``module`` and the package that places it there (the longest prefix; the
    top-level package places itself only, so that a new subpackage must be given a layer)."""
    best: tuple[int, str] | None = None
    for rank, packages in enumerate(layers):
        for package in packages:
            if module == package or ("." in package and module.startswith(package + ".")):
                if best is None or len(package) > len(best[1]):
                    best = (rank, package)
    return best


def layer_violations(found: Iterable[Edge],
                     layers: tuple[tuple[str, ...], ...] = LAYERS) -> list[str]:
    """Edges that point up the layer order, and modules no layer places."""
    problems: list[str] = []
    for edge in found:
        source, target = layer(edge.source, layers), layer(edge.target, layers)
        if source is None or target is None:
            problems.append(f"{edge}: no layer places "
                            f"{edge.source if source is None else edge.target}")
        elif target[0] > source[0]:
            problems.append(f"{edge}: {target[1]} is in a higher layer than {source[1]}")
    return sorted(set(problems))


def click_importers(sources: Mapping[str, str], allowed: str = "corefkit.cli") -> list[str]:
    """Library modules (outside ``allowed``) that import click, at any level."""
    found = []
    for module, text in sources.items():
        if module == allowed or module.startswith(allowed + "."):
            continue
        for node in ast.walk(ast.parse(text)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level \
                else []
            if any(n == "click" or n.startswith("click.") for n in names):
                found.append(f"{module}: line {node.lineno} imports click")
    return found


def main(argv: list[str]) -> int:
    root = Path(argv[0]) if argv else Path(__file__).resolve().parents[1]
    sources = modules(root)
    found = edges(sources)
    components = circles(found)
    print(f"{len(sources)} modules, {len(found)} import edges, {len(components)} circles")
    for component in components:
        members = set(component)
        print(f"  circle of {len(component)}: {', '.join(component)}")
        for edge in found:
            if edge.source in members and edge.target in members:
                print(f"      {edge}")
    violations = layer_violations(found)
    print(f"{len(violations)} layer violations")
    for problem in violations:
        print(f"  {problem}")
    for problem in click_importers(sources):
        print(f"  {problem}")
    return 1 if components or violations else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
