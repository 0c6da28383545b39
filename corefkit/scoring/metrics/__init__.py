"""Coreference metrics: functions of aligned partitions, their split-antecedent versions, the
metrics that read mention labels, and the registry that says what each metric is."""
