"""Error analysis: what kind of mistake each difference between a response and its key is
(Kummerfeld & Klein 2013), and what fixing each kind would gain.

:mod:`~corefkit.diagnosis.categories` (the transformations and categories on aligned
partitions), :mod:`~corefkit.diagnosis.engine` (``corefkit analyze``: documents read and aligned
as ``corefkit score`` does, errors located in the documents) and
:mod:`~corefkit.diagnosis.report` (the :class:`~corefkit.diagnosis.report.AnalysisReport` and its
renderings). :func:`corefkit.analyze` is the entry point.
"""
