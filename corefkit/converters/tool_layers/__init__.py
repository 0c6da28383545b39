"""Coreference in annotation-tool layers, shared by WebAnno TSV 3 and UIMA CAS.

INCEpTION and WebAnno store coreference in two shapes, whatever the file format: a *chain
layer* (DKPro Core's ``CoreferenceChain``/``CoreferenceLink``: each chain a linked list of
links, each link a span with ``referenceType`` and ``referenceRelation``), or a *span layer
with a relation layer* over it (GUM's ``webanno.custom.Referent`` + ``webanno.custom.Coref``:
spans are mentions, relations between them say coreference, bridging, ...). A reader turns its
file into the records of :mod:`.records`; :mod:`.schemes` says which layer and feature mean
what; :mod:`.build` makes the document's mentions, entities, bridging and split antecedents;
:mod:`.extract` gives a writer the records of a document again.
"""
