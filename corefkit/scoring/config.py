"""``ScoreConfig``: everything a scoring run needs, resolved once and frozen.

It is built from keyword arguments (:func:`corefkit.score`), the command line or a profile by
:meth:`ScoreConfig.build`, which decides the semantics, the metric list and the singleton rule
exactly once; workers in other processes or on a Dask cluster receive the same value and
rebuild what cannot travel (the semantics strategy, the labeler) from it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from corefkit.errors import UsageError
from corefkit.scoring import semantics as semantics_module
from corefkit.scoring.align import Labeler
from corefkit.scoring.metrics import registry

if TYPE_CHECKING:
    from corefkit.alignment import AlignmentPolicy

ENGINES = ("auto", "serial", "processes", "dask")


@dataclass(frozen=True)
class ScoreConfig:
    """A resolved scoring run (picklable)."""

    metrics: tuple[str, ...]                 # reported, in registry order
    semantics: str                           # reference, corefud or ua
    settings: dict[str, Any] = field(default_factory=dict)   # the semantics' own settings
    passes: tuple[str, ...] = ()
    remove_singletons: bool = False          # as resolved (profile, semantics)
    per_document: bool = False
    metric_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    format: str | None = None
    key_format: str | None = None
    response_format: str | None = None
    read_options: dict[str, Any] = field(default_factory=dict)
    key_read_options: dict[str, Any] = field(default_factory=dict)
    response_read_options: dict[str, Any] = field(default_factory=dict)
    lenient: bool = False
    jobs: int | None = None                  # None: chosen from the input size
    engine: str = "auto"
    scheduler: str | None = None             # a Dask scheduler address (engine "dask")
    # what to do when a key document and its response hold different words and the run does
    # not align: refuse, lenient (score by position, warned), or a registered policy
    # (scoring/tokens.py)
    tokens: str = "refuse"
    # responses re-expressed on the key's tokens before scoring (corefkit.alignment), with
    # this policy; None: off (then the token policy applies)
    align: AlignmentPolicy | None = None
    # response documents without names of their own are paired with the key's by their text
    pair_by_content: bool = False

    # ------------------------------------------------------------------ building
    @classmethod
    def build(cls, *, detected_format: str | None, metrics: str | Sequence[str] | None = None,
              profile: str | None = None, semantics: str | None = None,
              remove_singletons: bool | None = None, match: str | None = None,
              zero_match: str | None = None, keep_zeros: bool | None = None,
              remove_split_antecedents: bool = False, only_split_antecedents: bool = False,
              discourse_deixis: bool = False, lea_split_importance: Any = None,
              explain: bool = False, dominant_options: dict[str, Any] | None = None,
              metric_options: dict[str, dict[str, Any]] | None = None,
              **rest: Any) -> ScoreConfig:
        """Resolve a run: the semantics (explicit, profile, options, the key's format as
        ``detected_format``), the metric
        list (what the profile's official scorer prints when none is asked for) and the
        semantics' settings; ``rest`` are the other fields as they are."""
        if engine := rest.get("engine"):
            if engine not in ENGINES:
                raise UsageError(f"unknown engine {engine!r}; expected one of "
                                 f"{', '.join(ENGINES)}")
        if profile is not None and metrics is None:
            from corefkit.scoring.profiles import profile_settings

            metrics = profile_settings(profile).get("metrics", metrics)
        settings: dict[str, Any] = {
            "match": match, "zero_match": zero_match, "keep_zeros": keep_zeros,
            "remove_singletons": remove_singletons, "profile": profile,
            "remove_split_antecedents": remove_split_antecedents,
            "only_split_antecedents": only_split_antecedents,
            "discourse_deixis": discourse_deixis, "lea_split_importance": lea_split_importance,
            "explain": explain}
        chosen = semantics_module.choose(semantics, profile, detected_format, settings)
        names = registry.parse_metrics(metrics, chosen)
        strategy = semantics_module.make(chosen, settings, names)
        removes = bool(strategy.remove_singletons)
        if chosen == "ua":
            removes = removes and not getattr(strategy, "keep_splits", False)
            if getattr(strategy, "keep_splits", False):
                refused = [n for n in names if not registry.get(n).scores_splits()]
                if refused:
                    raise UsageError(
                        f"{', '.join(refused)} cannot score split antecedents (no generalization "
                        "of Paun et al. 2023 is defined for it); pass --remove-split-antecedents "
                        "to score them as ordinary entities")
        rest.setdefault("tokens", "lenient" if rest.get("lenient") else "refuse")
        options = dict(metric_options or {})
        if dominant_options is not None and "dominant" in names:
            options["dominant"] = dict(dominant_options)
        return cls(tuple(names), chosen, settings, remove_singletons=removes,
                   metric_options=options, **rest)

    # ------------------------------------------------------------------ what a run derives
    def strategy(self) -> semantics_module.Semantics:
        """The semantics strategy (a new one: it may collect explanations)."""
        return semantics_module.make(self.semantics, self.settings, self.metrics)

    def all_passes(self) -> list[str]:
        """The passes run on both sides: the user's, and the reference semantics' singleton
        removal (the CorefUD and UA semantics remove singletons while reducing)."""
        extra = ["remove-singletons"] if self.remove_singletons and self.semantics == "reference" \
            else []
        return [*self.passes, *extra]

    def computed(self) -> list[str]:
        """The metrics computed: those reported and what they need."""
        return registry.needed(self.metrics)

    def labelled(self) -> list[Any]:
        """The LabelledMetric of each label-reading metric asked for."""
        return [registry.get(n).labelled for n in self.metrics
                if registry.get(n).family == registry.LABELLED]

    def labeler(self) -> Labeler | None:
        from corefkit.scoring.metrics.labelled import combined_labeler

        return combined_labeler(self.labelled(), self.metric_options)

    def links(self) -> list[tuple[str, Any, Any]]:
        """(name, spec, config) of each links metric asked for (``dominant``)."""
        found = []
        for name in self.metrics:
            spec = registry.get(name)
            if spec.family == registry.LINKS:
                found.append((name, spec, spec.configure(self.metric_options.get(name))))
        return found

    def side_format(self, side: str) -> str | None:
        return (self.key_format if side == "key" else self.response_format) or self.format
