"""The metric registry: what each metric is, where it is defined and how a run asks for it.

Adding a metric over partitions is one function ``(key, response, table) -> counts`` (additive
counts: anything with ``+`` and ``recall``/``precision``/``f1``) and one :func:`register_metric`
call; the engine, the CLI's ``--metrics``, the JSON/CSV/table renderings and the UA semantics
all read this registry.

Families:

* ``partition`` — a function of the key and response partitions of an aligned document
  (MUC, B³, CEAF, BLANC, LEA, mention identification). In UA runs that score split antecedents
  a partition metric needs its generalization (Paun et al. 2023): ``split`` names it, or
  ``split_invariant`` says the sets do not change it; any other is refused in such runs.
* ``alignment`` — counts that a semantics' alignment produces itself (CorefUD's ``mor`` and
  ``zero``; the UA scorer's ``non_referring`` and ``bridging``); ``semantics`` says whose.
* ``labelled`` — reads mention labels (types, predicates): registered by its module
  (:mod:`corefkit.scoring.metrics.labelled`), imported when asked for.
* ``links`` — scores typed anaphoric links rather than partitions (``dominant``).
* ``derived`` — computed from other metrics' totals (``conll``: the mean F1 of its components).

The registry never imports a metric module: :mod:`corefkit.scoring.metrics.builtin` registers
the built-in metrics (and names the modules of those loaded on demand) when imported, and the
package (:mod:`corefkit.scoring.metrics`) imports it before any of its modules can be used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from corefkit.errors import UsageError

PARTITION, ALIGNMENT, LABELLED, LINKS, DERIVED = "partition", "alignment", "labelled", "links", \
    "derived"
SEMANTICS = ("reference", "corefud", "ua")
# coval and scorch (--semantics coval|scorch) define the metrics their command lines print
COVAL, SCORCH = "coval", "scorch"
LABELS = {"reference": "reference", "corefud": "CorefUD", "ua": "UA", COVAL: "coval",
          SCORCH: "scorch"}
HINTS = {"reference": "pass --semantics reference",
         "corefud": "give a CoNLL-U key, --match or --semantics corefud",
         "ua": "give a CoNLL-UA key, a UA profile or --semantics ua",
         COVAL: "pass --semantics coval", SCORCH: "pass --semantics scorch"}


def _not_defined(*args: Any, **kwargs: Any) -> Any:
    raise TypeError("this metric's family does not define this function")


@dataclass(frozen=True)
class MetricSpec:
    """One metric as the registry knows it."""

    name: str
    description: str
    family: str
    compute: Callable[..., Any] = _not_defined  # partition: (key, response, table) -> counts
    semantics: tuple[str, ...] = SEMANTICS      # the semantics it is defined in
    default: tuple[str, ...] = ()               # the semantics whose 'all' includes it
    split: Callable[..., Any] | None = None     # UA generalization (ClusterPair, beta) -> counts
    split_invariant: bool = False               # split antecedents do not change it
    components: tuple[str, ...] = ()            # derived: the metrics it is computed from
    reference_block: bool = False               # scorer.pl prints a TOTALS block for it
    labelled: Any = None                        # labelled: its LabelledMetric (labeler, compute)
    # links: configure(options) -> config; annotate(doc, config) -> links;
    # compute(key links, response links | None, config) -> counts
    configure: Callable[..., Any] = _not_defined
    annotate: Callable[..., Any] = _not_defined
    empty: Callable[..., Any] | None = None     # the counts of no document (default: Counts())

    def scores_splits(self) -> bool:
        """Can a UA run that scores split antecedents report this metric?"""
        if self.family == PARTITION:
            return self.split is not None or self.split_invariant
        if self.family == DERIVED:
            return all(get(c).scores_splits() for c in self.components)
        return self.family == ALIGNMENT and "ua" in self.semantics


REGISTRY: dict[str, MetricSpec] = {}
# metrics whose module registers them when imported: name -> module
ON_DEMAND: dict[str, str] = {}
# the built-in metrics in report order (corefkit.scoring.metrics.builtin)
BUILTIN: list[str] = []


def register_metric(spec: MetricSpec) -> MetricSpec:
    """Add a metric (a later registration of the same name replaces it)."""
    REGISTRY[spec.name] = spec
    return spec


def unregister_metric(name: str) -> None:
    REGISTRY.pop(name, None)


def register_on_demand(name: str, module: str) -> None:
    """Say that importing ``module`` registers the metric ``name``."""
    ON_DEMAND[name] = module


def _load(name: str) -> None:
    module = ON_DEMAND.get(name)
    if module is not None and name not in REGISTRY:
        importlib.import_module(module)


def get(name: str) -> MetricSpec:
    _load(name)
    spec = REGISTRY.get(name)
    if spec is None:
        raise UsageError(f"unknown metric {name!r}; known metrics: {', '.join(known())}")
    return spec


def known() -> list[str]:
    return list(dict.fromkeys([*REGISTRY, *ON_DEMAND]))


def default_metrics(semantics: str) -> list[str]:
    """What ``all`` means in a semantics, in report order."""
    return [n for n in BUILTIN if semantics in REGISTRY[n].default]


def parse_metrics(metrics: str | Sequence[str] | None, semantics: str) -> list[str]:
    """The metric names a run reports, in registry order.

    ``None`` and ``all`` mean the semantics' default list; ``all`` may be combined with
    metrics outside it (``all,dominant``, ``all,by_type``). A derived metric pulls in its
    components as far as the report needs them (they are computed, see :func:`needed`). A
    metric not defined in the semantics is a usage error that says where it is defined.
    """
    if metrics is None:
        return default_metrics(semantics)
    names = [m.strip().lower() for m in (metrics.split(",") if isinstance(metrics, str)
                                         else metrics)]
    names = [n for n in names if n]
    if not names:
        raise UsageError("no metric given")
    unknown = [n for n in names if n != "all" and n not in known()]
    if unknown:
        raise UsageError(f"unknown metric {', '.join(unknown)}; known metrics: "
                         f"{', '.join(known())}")
    chosen = set(default_metrics(semantics)) if "all" in names else set()
    chosen |= {n for n in names if n != "all"}
    for name in ordered(chosen):
        home = get(name).semantics
        if semantics not in home and len(home) == 1:
            own = [n for n in BUILTIN if REGISTRY[n].semantics == home]
            raise UsageError(f"the metrics {' and '.join(own)} are defined for "
                             f"{LABELS[home[0]]} scoring: {HINTS[home[0]]}")
        if semantics not in home:
            raise UsageError(f"the metric {name} is not defined for {LABELS[semantics]} scoring")
    return ordered(chosen)


def ordered(names: Iterable[str]) -> list[str]:
    """Report order: the built-in metrics, then those loaded on demand (as declared), then
    metrics registered by users (as registered)."""
    on_demand = list(ON_DEMAND)
    users = [n for n in REGISTRY if n not in BUILTIN and n not in ON_DEMAND]

    def rank(name: str) -> tuple[int, int]:
        if name in BUILTIN:
            return (0, BUILTIN.index(name))
        if name in ON_DEMAND:
            return (1, on_demand.index(name))
        return (2, users.index(name) if name in users else len(users))

    return sorted(set(names), key=rank)


def needed(names: Sequence[str]) -> list[str]:
    """The metrics a run computes: those named, the components of derived ones, and mention
    identification (every report and the reference scorer's text state it)."""
    wanted = {"mentions", *names}
    for name in names:
        wanted |= set(get(name).components)
    return ordered(wanted)


def partition_metrics(names: Sequence[str]) -> list[MetricSpec]:
    return [s for s in (get(n) for n in names) if s.family == PARTITION]

