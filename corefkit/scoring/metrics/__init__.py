"""Coreference metrics: functions of aligned partitions, their split-antecedent versions, the
metrics that read mention labels, and the registry that says what each metric is.

Importing the package registers the built-in metrics: :mod:`~corefkit.scoring.metrics.builtin`
is the one place that fills :mod:`~corefkit.scoring.metrics.registry`, which imports no metric.
"""

from corefkit.scoring.metrics import builtin  # noqa: F401  (registers the built-in metrics)
