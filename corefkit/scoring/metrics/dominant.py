"""Metric family ``dominant``: the type-aware evaluation of Žitkus, Butkienė & Butleris (2023).

Unlike the partition metrics, this one scores *annotations*: a referring expression with its
type code and the dominant mention of its entity (§4.2-4.3). A key annotation and a response
annotation of the same referring expression are

* TP  — same dominant mention, same type;
* WT  — same dominant mention, wrong type;
* WL  — wrong dominant mention (link), same type;
* WTL — both wrong;

a key annotation without a response counterpart is an FN, a response annotation without a key
counterpart an FP. Pairs are counted in the coreference class (first letter of the type code)
and under the full type code of the key annotation; FPs under the response's. With the
coefficients k1..k4 (default 1, 0.75, 0.5, 0.25), per class c:

    (37) P_c = (k1·TP + k2·WT + k3·WL + k4·WTL) / (TP + WT + WL + WTL + FP)
    (38) R_c = (k1·TP + k2·WT + k3·WL + k4·WTL) / (TP + WT + WL + WTL + FN)
    (39) F_c = 2·P_c·R_c / (P_c + R_c)

macro (40)-(42): P and R averaged over the m classes attempted (classes with at least one
response annotation), F their harmonic mean; micro (43)-(45): numerators and denominators
summed over all classes; scheme coverage (46)-(48): P_c and R_c summed over the classes of the
annotation scheme and divided by its n classes (LCC: 5), so that a class the system never
attempts counts as 0.

Where annotations come from: the typed links a reader keeps (``doc.attrs["anaphoric_links"]``,
LCC), one annotation per link; for a document converted from LCC into a format that keeps
mention attributes, one per type code in ``mention.attrs["lcc_type"]`` (the referring
expressions of the links); for formats without type codes, every mention of an entity except
its dominant mention, untyped. Dominant mentions
are the ones marked by the ``dominant-mentions`` pass, else chosen with ``ranking``. The
dominant mention of an accommodated set without an eligible mention of its own (``they``) is
the set of its members' dominant mentions; of a discourse-deixis chain, its earliest
antecedent segment.

If any annotation of the run lacks a type code, the **type-free** variant is reported: types
are not compared, so WT counts as TP and WTL as WL (the report says which variant it is).
Counts are additive over documents; every value is an exact fraction.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from corefkit.converters.jsontext import parse
from corefkit.errors import FormatError, Repair, UsageError, counted
from corefkit.model import DISCOURSE_DEIXIS, IDENTITY, Document, Entity
from corefkit.model.typed_links import LINKS, links
from corefkit.model.typed_links import type_codes as _codes
from corefkit.schemas import DIRECTORY
from corefkit.scoring.align import match_key
from corefkit.scoring.metrics.registry import LINKS as LINKS_FAMILY
from corefkit.scoring.metrics.registry import MetricSpec, register_metric
from corefkit.scoring.metrics.standard import harmonic, ratio

SCHEMES_DIR = DIRECTORY
DEFAULT_COEFFICIENTS = (Fraction(1), Fraction(3, 4), Fraction(1, 2), Fraction(1, 4))
OUTCOMES = ("tp", "wt", "wl", "wtl", "fn", "fp")
NO_CLASS = "-"
NO_TYPE = "----"
TYPE_AWARE = "type-aware"
TYPE_FREE = "type-free"


# ============================================================================ configuration
@dataclass(frozen=True)
class DominantConfig:
    """Coefficients k1..k4, the annotation scheme's classes and the dominant-mention ranking."""

    coefficients: tuple[Fraction, Fraction, Fraction, Fraction] = DEFAULT_COEFFICIENTS
    scheme: str = "lcc"
    scheme_classes: tuple[str, ...] = ("p", "g", "d", "a", "e")
    ranking: str = "auto"


def load_scheme(name: str) -> tuple[str, ...]:
    """The class letters of a type-code scheme: ``lcc`` or a JSON file with ``classes``."""
    path = SCHEMES_DIR / f"{name}-type-scheme.json"
    if not path.is_file():
        path = Path(name)
    try:
        data = parse(path.read_text(encoding="utf-8"), file=str(path), check="dominant.scheme",
                     hint="a type-code scheme file")
    except FileNotFoundError:
        raise UsageError(f"unknown type-code scheme {name!r}; use lcc or a JSON file with "
                         "'classes'") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read the scheme file {path}: {exc}") from None
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    classes = data.get("classes") if isinstance(data, dict) else None
    if not isinstance(classes, (dict, list)) or not classes:
        raise UsageError(f"{path}: a scheme file needs a non-empty 'classes' object or list")
    return tuple(str(c) for c in classes)


def parse_coefficients(value: str | Iterable[Any] | None) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """``"1,0.75,0.5,0.25"`` or four numbers → exact fractions (k1..k4)."""
    if value is None:
        return DEFAULT_COEFFICIENTS
    items = value.split(",") if isinstance(value, str) else list(value)
    try:
        numbers = tuple(Fraction(str(v).strip()) for v in items)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"coefficients must be four numbers k1,k2,k3,k4, got {value!r}") from None
    if len(numbers) != 4 or any(n < 0 for n in numbers):
        raise UsageError(f"coefficients must be four non-negative numbers k1,k2,k3,k4, got {value!r}")
    return numbers


def dominant_config(coefficients: Any = None, scheme: str = "lcc", ranking: str = "auto") -> DominantConfig:
    return DominantConfig(parse_coefficients(coefficients), scheme, load_scheme(scheme), ranking)


# ============================================================================ annotations
@dataclass(frozen=True)
class Annotation:
    """A referring expression, its type code (None: the format has none) and its entity's
    dominant mention (a match key, or a frozenset of them for a set)."""

    anaphor: Hashable
    type: str | None
    target: Hashable

    @property
    def coreference_class(self) -> str:
        return self.type[0] if self.type and self.type[0] != "-" else NO_CLASS


def document_annotations(doc: Document, ranking: str = "auto") -> list[Annotation]:
    """The annotations of a document, in document order (see the module docstring)."""
    from corefkit.passes.dominant import FALLBACK, dominant_mentions, position

    dominant = dominant_mentions(doc, ranking)
    sets = doc.accommodated_sets()
    # a DD chain's target is its earliest antecedent segment: anything but its anaphors
    dd_anaphors = {anaphor for anaphor, _, _, layer in links(doc) if layer == DISCOURSE_DEIXIS}
    dd_anaphors |= {m for m in doc.mentions if m.layer == DISCOURSE_DEIXIS
                    and any(c.startswith("a") for c in _codes(m))}

    def target(entity: Entity, seen: frozenset[Entity] = frozenset()) -> Hashable:
        if entity.layer == DISCOURSE_DEIXIS:
            chain = doc.mentions_of(entity)
            segments = [m for m in chain if m not in dd_anaphors] or chain
            return ("segment", match_key(segments[0]))
        mention, rank = dominant.get(entity, (None, FALLBACK))
        if entity in sets and rank == FALLBACK and entity not in seen:
            return ("set", frozenset(target(member, seen | {entity}) for member in sets[entity]))
        if mention is None:
            mention = min(doc.mentions_of(entity), key=position)
        return ("mention", match_key(mention))

    found: list[tuple[tuple[int, int, int], Annotation]] = []
    if LINKS in doc.attrs:
        for anaphor, _, code, _ in links(doc):
            entity = doc.entity_of(anaphor)
            if entity is not None:
                found.append((position(anaphor), Annotation(match_key(anaphor), code, target(entity))))
    elif any("lcc_type" in m.attrs for m in doc.mentions):
        # converted from LCC (e.g. through CorefUD): the typed mentions are the referring
        # expressions of the links, one annotation per type code, as if read from LCC
        for mention in doc.mentions:
            entity = doc.entity_of(mention)
            if entity is None or entity.pseudo:
                continue
            for code in _codes(mention):
                found.append((position(mention), Annotation(match_key(mention), code, target(entity))))
    else:
        for entity in doc.entities:
            if entity.pseudo or entity.layer not in (IDENTITY, DISCOURSE_DEIXIS):
                continue
            chain = doc.mentions_of(entity)
            if entity.layer == IDENTITY:
                head, rank = dominant.get(entity, (None, FALLBACK))
                own_target = not (entity in sets and rank == FALLBACK)
                anaphors = [m for m in chain if not (own_target and m is head)]
                if len(chain) < 2 and entity not in sets:
                    continue  # a singleton refers back to nothing
            else:
                anaphors = chain[1:]
            goal = target(entity)
            for mention in anaphors:
                found.append((position(mention), Annotation(match_key(mention), None, goal)))
    found.sort(key=lambda x: x[0])
    return [a for _, a in found]




# ============================================================================ counts
@dataclass(frozen=True)
class ClassCounts:
    """TP, WT, WL, WTL, FN, FP of one class or type; ``+`` adds documents."""

    tp: int = 0
    wt: int = 0
    wl: int = 0
    wtl: int = 0
    fn: int = 0
    fp: int = 0

    def __add__(self, other: ClassCounts) -> ClassCounts:
        return ClassCounts(*(getattr(self, o) + getattr(other, o) for o in OUTCOMES))

    def numerator(self, k: tuple[Fraction, ...]) -> Fraction:
        """k1·TP + k2·WT + k3·WL + k4·WTL, the numerator of (37) and (38)."""
        return k[0] * self.tp + k[1] * self.wt + k[2] * self.wl + k[3] * self.wtl

    @property
    def precision_den(self) -> int:
        return self.tp + self.wt + self.wl + self.wtl + self.fp

    @property
    def recall_den(self) -> int:
        return self.tp + self.wt + self.wl + self.wtl + self.fn

    @property
    def attempted(self) -> bool:
        """The system produced annotations of this class (it counts in the macro average)."""
        return self.precision_den > 0

    def precision(self, k: tuple[Fraction, ...]) -> Fraction:  # (37)
        return ratio(self.numerator(k), self.precision_den)

    def recall(self, k: tuple[Fraction, ...]) -> Fraction:  # (38)
        return ratio(self.numerator(k), self.recall_den)

    def f1(self, k: tuple[Fraction, ...]) -> Fraction:  # (39)
        return harmonic(self.precision(k), self.recall(k))


@dataclass(frozen=True)
class Tally:
    """Counts per coreference class and per full type code."""

    classes: dict[str, ClassCounts] = field(default_factory=dict)
    types: dict[str, ClassCounts] = field(default_factory=dict)

    def __add__(self, other: Tally) -> Tally:
        return Tally(_merge(self.classes, other.classes), _merge(self.types, other.types))


def _merge(a: dict[str, ClassCounts], b: dict[str, ClassCounts]) -> dict[str, ClassCounts]:
    merged = dict(a)
    for key, counts in b.items():
        merged[key] = merged[key] + counts if key in merged else counts
    return merged


def classify(key: list[Annotation], response: list[Annotation], *, compare_types: bool) -> Tally:
    """Count TP/WT/WL/WTL/FN/FP for one document (pairs by referring expression).

    Several annotations of one referring expression (it is the anaphor of several links) are
    paired best first: TP pairs, then WT, WL and WTL; what is left is FN or FP.
    """
    by_anaphor: dict[Hashable, tuple[list[Annotation], list[Annotation]]] = {}
    for a in key:
        by_anaphor.setdefault(a.anaphor, ([], []))[0].append(a)
    for a in response:
        by_anaphor.setdefault(a.anaphor, ([], []))[1].append(a)
    classes: dict[str, list[int]] = {}
    types: dict[str, list[int]] = {}

    def count(annotation: Annotation, outcome: str) -> None:
        i = OUTCOMES.index(outcome)
        classes.setdefault(annotation.coreference_class, [0] * 6)[i] += 1
        types.setdefault(annotation.type or NO_TYPE, [0] * 6)[i] += 1

    for gold, system in by_anaphor.values():
        gold, system = list(gold), list(system)
        for outcome, same_target, same_type in (("tp", True, True), ("wt", True, False),
                                                ("wl", False, True), ("wtl", False, False)):
            for g in list(gold):
                for s in system:
                    types_agree = g.type == s.type if compare_types else True
                    if (g.target == s.target) is same_target and types_agree is same_type:
                        count(g, outcome)
                        gold.remove(g)
                        system.remove(s)
                        break
        for g in gold:
            count(g, "fn")
        for s in system:
            count(s, "fp")
    return Tally({c: ClassCounts(*v) for c, v in classes.items()},
                 {t: ClassCounts(*v) for t, v in types.items()})


@dataclass(frozen=True)
class DominantCounts:
    """The additive counts of a document or corpus, in both variants, with the configuration.

    ``typed`` compares type codes, ``untyped`` does not; ``untyped_annotations`` counts the
    annotations without a type code: when it is not 0 the type-free variant is the result.
    """

    config: DominantConfig = field(default_factory=DominantConfig)
    typed: Tally = field(default_factory=Tally)
    untyped: Tally = field(default_factory=Tally)
    untyped_annotations: int = 0
    annotations: int = 0

    def __add__(self, other: DominantCounts) -> DominantCounts:
        if other.config != self.config:
            raise ValueError("cannot add dominant counts made with different configurations")
        return DominantCounts(self.config, self.typed + other.typed, self.untyped + other.untyped,
                              self.untyped_annotations + other.untyped_annotations,
                              self.annotations + other.annotations)

    def notes(self) -> list[Repair]:
        """The warning that the type-free variant was scored (annotations without codes)."""
        if self.variant != TYPE_FREE:
            return []
        return [Repair("dominant.type-free", f"dominant: "
                       f"{counted(self.untyped_annotations, 'annotation')} "
                       f"{'has' if self.untyped_annotations == 1 else 'have'} no type code; scored type-free (WT counted as TP, WTL as WL)",
                       action="scored")]

    # ------------------------------------------------------------------ results
    @property
    def variant(self) -> str:
        return TYPE_FREE if self.untyped_annotations else TYPE_AWARE

    @property
    def tally(self) -> Tally:
        return self.untyped if self.untyped_annotations else self.typed

    def class_order(self) -> list[str]:
        scheme = list(self.config.scheme_classes)
        return scheme + sorted(c for c in self.tally.classes if c not in scheme)

    def micro(self) -> tuple[Fraction, Fraction, Fraction]:
        """(43)-(45): one numerator over the summed denominators of every class."""
        k = self.config.coefficients
        rows = list(self.tally.classes.values())
        num = sum((c.numerator(k) for c in rows), Fraction(0))
        p = ratio(num, sum(c.precision_den for c in rows))
        r = ratio(num, sum(c.recall_den for c in rows))
        return p, r, harmonic(p, r)

    def attempted(self) -> list[str]:
        return [c for c in self.class_order() if c in self.tally.classes and self.tally.classes[c].attempted]

    def macro(self) -> tuple[Fraction, Fraction, Fraction]:
        """(40)-(42): class precision and recall averaged over the m classes attempted."""
        k = self.config.coefficients
        attempted = [self.tally.classes[c] for c in self.attempted()]
        if not attempted:
            return Fraction(0), Fraction(0), Fraction(0)
        p = sum((c.precision(k) for c in attempted), Fraction(0)) / len(attempted)
        r = sum((c.recall(k) for c in attempted), Fraction(0)) / len(attempted)
        return p, r, harmonic(p, r)

    def scheme(self) -> tuple[Fraction, Fraction, Fraction]:
        """(46)-(48): class precision and recall summed over the scheme's classes, divided by
        its n classes: classes not attempted add 0."""
        k = self.config.coefficients
        n = len(self.config.scheme_classes)
        rows = [self.tally.classes.get(c, ClassCounts()) for c in self.config.scheme_classes]
        p = sum((c.precision(k) for c in rows), Fraction(0)) / n
        r = sum((c.recall(k) for c in rows), Fraction(0)) / n
        return p, r, harmonic(p, r)

    # The generic report shows one triple per metric: the micro values.
    @property
    def precision(self) -> Fraction:
        return self.micro()[0]

    @property
    def recall(self) -> Fraction:
        return self.micro()[1]

    @property
    def f1(self) -> Fraction:
        return self.micro()[2]

    def to_json(self) -> dict[str, Any]:
        """``metrics.dominant`` of the JSON report."""
        k = self.config.coefficients
        tally = self.tally

        def row(counts: ClassCounts) -> dict[str, Any]:
            out: dict[str, Any] = {o: getattr(counts, o) for o in OUTCOMES}
            out.update(precision=float(counts.precision(k)), recall=float(counts.recall(k)),
                       f1=float(counts.f1(k)))
            return out

        def triple(values: tuple[Fraction, Fraction, Fraction]) -> dict[str, float]:
            return {"precision": float(values[0]), "recall": float(values[1]), "f1": float(values[2])}

        micro, macro, scheme = self.micro(), self.macro(), self.scheme()
        return {
            "variant": self.variant,
            "precision": float(micro[0]), "recall": float(micro[1]), "f1": float(micro[2]),
            "classes": {c: row(tally.classes.get(c, ClassCounts())) for c in self.class_order()},
            "types": {t: row(tally.types[t]) for t in sorted(tally.types)},
            "micro": triple(micro),
            "macro": {**triple(macro), "classes": self.attempted()},
            "scheme": {**triple(scheme), "classes": len(self.config.scheme_classes)},
            "coefficients": {f"k{i + 1}": float(v) for i, v in enumerate(k)},
            "scheme_name": self.config.scheme,
            "scheme_classes": len(self.config.scheme_classes),
            "ranking": self.config.ranking,
            "annotations": self.annotations,
            "annotations_without_type": self.untyped_annotations,
            "exact": {
                name: {"precision": _text(v[0]), "recall": _text(v[1]), "f1": _text(v[2])}
                for name, v in (("micro", micro), ("macro", macro), ("scheme", scheme))
            },
        }

    def table_lines(self) -> list[str]:
        """Per-class rows and the three averages, for the table report."""
        k = self.config.coefficients
        ks = ", ".join(_short(v) for v in k)
        lines = ["", f"dominant ({self.variant}; k = {ks}; scheme {self.config.scheme}, "
                     f"{len(self.config.scheme_classes)} classes; ranking {self.config.ranking})"]
        header = (f"{'class':<8} {'TP':>5} {'WT':>5} {'WL':>5} {'WTL':>5} {'FN':>5} {'FP':>5} "
                  f"{'recall':>8} {'precision':>10} {'F1':>8}")
        lines += [header, "-" * len(header)]
        for c in self.class_order():
            counts = self.tally.classes.get(c, ClassCounts())
            lines.append(f"{c:<8} {counts.tp:>5} {counts.wt:>5} {counts.wl:>5} {counts.wtl:>5} "
                         f"{counts.fn:>5} {counts.fp:>5} {_pc(counts.recall(k)):>8} "
                         f"{_pc(counts.precision(k)):>10} {_pc(counts.f1(k)):>8}")
        for name, (p, r, f) in (("micro", self.micro()), ("macro", self.macro()),
                                ("scheme", self.scheme())):
            lines.append(f"{name:<8} {'':>41} {_pc(r):>8} {_pc(p):>10} {_pc(f):>8}")
        return lines


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def _short(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _pc(value: Fraction) -> str:
    return f"{float(value) * 100:.2f}"


def document_counts(key: list[Annotation], response: list[Annotation] | None,
                    config: DominantConfig) -> DominantCounts:
    """Both variants' counts for one document (``response=None``: the response lacks it)."""
    response = response or []
    untyped = sum(1 for a in (*key, *response) if not a.type or a.type == NO_TYPE)
    return DominantCounts(
        config,
        classify(key, response, compare_types=True),
        classify(key, response, compare_types=False),
        untyped,
        len(key) + len(response),
    )


def _configure(options: dict[str, Any] | None) -> DominantConfig:
    return dominant_config(**(options or {}))


def _annotate(doc: Document, config: DominantConfig) -> list[Annotation]:
    return document_annotations(doc, config.ranking)


register_metric(MetricSpec(
    "dominant", "type-aware dominant-mention evaluation (Žitkus et al. 2023)", LINKS_FAMILY,
    compute=document_counts, configure=_configure, annotate=_annotate,
    empty=lambda config: DominantCounts(config)))
