"""Agreement between annotators on mentions and chains: ``corefkit agree`` and
:func:`corefkit.agree`.

Modules, in the order a run uses them: :mod:`~.sources` (the annotations, read and paired by
document), :mod:`~.tokens` (each document's annotations on common tokens: never a positional
pairing of different tokenizations), :mod:`~.scores` (mention F1 and the chain metrics through
corefkit's scoring engine, each annotator as key in turn), :mod:`~.units` and
:mod:`~.coefficients` (Cohen's and Fleiss' κ on tokens, Krippendorff's α with the MASI
distance on chains, exact), :mod:`~.disagreements` (where annotators differ, with file
locations), :mod:`~.merge` (the adjudication draft), :mod:`~.report` (the
:class:`AgreementReport` and its renderings) and :mod:`~.api` (:func:`agree`).
``docs/reference/agreement.md`` defines every measure.
"""

from corefkit.evaluation.agreement.api import agree
from corefkit.evaluation.agreement.report import AgreementReport

__all__ = ["AgreementReport", "agree"]
