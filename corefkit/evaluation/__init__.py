"""Many systems and many datasets: comparisons, significance, and the evaluations that have
their own protocol.

:mod:`~corefkit.evaluation.compare` (``corefkit compare``: scores of systems on datasets,
generalization gaps, Porada et al. 2024), :mod:`~corefkit.evaluation.significance` (paired
permutation tests and bootstrap intervals over documents), :mod:`~corefkit.evaluation.task`
(shared tasks: task files, leaderboards) and :mod:`~corefkit.evaluation.gap` (the GAP
benchmark's official scorecard, Webster et al. 2018). Everything here builds on the exact
counts of :mod:`corefkit.scoring`.
"""
