"""Scoring: alignment, partitions, metric families and report objects."""
