"""The built-in metrics, registered in the order reports list them.

Partition metrics name their functions (:mod:`corefkit.scoring.metrics.standard`) and their
split-antecedent generalizations (:mod:`corefkit.scoring.metrics.split`, Paun et al. 2023);
metrics that read mention labels or typed links register themselves when their module is
imported, which happens only when a run asks for them.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from corefkit.scoring.metrics import split, standard
from corefkit.scoring.metrics.registry import (
    ALIGNMENT,
    BUILTIN,
    COVAL,
    DERIVED,
    PARTITION,
    SCORCH,
    SEMANTICS,
    MetricSpec,
    register_metric,
    register_on_demand,
)


def _bridging_counts() -> Any:
    from corefkit.scoring.semantics.ua import BridgingCounts

    return BridgingCounts()


def _blanc_counts() -> Any:
    return standard.BlancCounts()


# what coval's and scorch's command lines print (scoring/semantics/coval.py, scorch.py)
WITH_COVAL = (*SEMANTICS, COVAL)
WITH_SCORCH = (*SEMANTICS, SCORCH)
WITH_BOTH = (*SEMANTICS, COVAL, SCORCH)

for _spec in (
    MetricSpec("mentions", "mention identification (extents found)", PARTITION,
               standard.mentions, semantics=WITH_BOTH, default=WITH_BOTH,
               split_invariant=True),
    MetricSpec("muc", "MUC (Vilain et al. 1995)", PARTITION, standard.muc,
               semantics=WITH_BOTH, default=WITH_BOTH,
               split=partial(split.generalized, "muc"), reference_block=True),
    MetricSpec("bcub", "B³ (Bagga & Baldwin 1998)", PARTITION, standard.bcub,
               semantics=WITH_BOTH, default=WITH_BOTH,
               split=partial(split.generalized, "bcub"), reference_block=True),
    MetricSpec("ceafm", "mention-based CEAF (Luo 2005)", PARTITION, standard.ceafm,
               semantics=WITH_SCORCH, default=WITH_SCORCH,
               split=partial(split.generalized, "ceafm"), reference_block=True),
    MetricSpec("ceafe", "entity-based CEAF (Luo 2005)", PARTITION, standard.ceafe,
               semantics=WITH_BOTH, default=WITH_BOTH,
               split=partial(split.generalized, "ceafe"), reference_block=True),
    MetricSpec("blanc", "BLANC (Recasens & Hovy 2011; Luo et al. 2014)", PARTITION,
               standard.blanc, semantics=WITH_SCORCH, default=WITH_SCORCH,
               split=split.generalized_blanc, reference_block=True, empty=_blanc_counts),
    MetricSpec("lea", "LEA (Moosavi & Strube 2016)", PARTITION, standard.lea,
               semantics=WITH_COVAL, default=WITH_COVAL,
               split=partial(split.generalized, "lea"), reference_block=True),
    MetricSpec("conll", "CoNLL-2012 score: mean F1 of MUC, B³ and CEAFe", DERIVED,
               standard.conll, semantics=WITH_BOTH, default=WITH_BOTH,
               components=standard.CONLL_COMPONENTS),
    MetricSpec("mor", "mention overlap ratio (CorefUD scorer)", ALIGNMENT,
               semantics=("corefud",), default=("corefud",)),
    MetricSpec("zero", "anaphor-decomposable score of zero anaphors (CorefUD scorer)",
               ALIGNMENT, semantics=("corefud",), default=("corefud",)),
    MetricSpec("non_referring", "non-referring markables (UA scorer)", ALIGNMENT,
               semantics=("ua",), default=("ua",)),
    MetricSpec("bridging", "bridging recognition and resolution (UA scorer)", ALIGNMENT,
               semantics=("ua",), default=("ua",), empty=lambda: _bridging_counts()),
):
    register_metric(_spec)
    BUILTIN.append(_spec.name)

for _name, _module in (
    ("by_type", "corefkit.scoring.metrics.by_type"),       # Porada et al. 2024
    ("lmuc", "corefkit.scoring.metrics.linguistic"),       # Chen & Ng 2013
    ("lbcub", "corefkit.scoring.metrics.linguistic"),
    ("lceafm", "corefkit.scoring.metrics.linguistic"),
    ("lceafe", "corefkit.scoring.metrics.linguistic"),
    ("dominant", "corefkit.scoring.metrics.dominant"),     # Žitkus et al. 2023
    ("strata", "corefkit.scoring.metrics.strata"),         # long-range entities (CRAC 2026)
):
    register_on_demand(_name, _module)
