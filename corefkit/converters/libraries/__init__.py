"""The outputs of NLP libraries: one package per library, each a format of the registry.

Systems that read raw text tokenize it their own way and say where their mentions are in their
own tokens or characters. Each reader here reads a library's output as the library writes it —
its tokens, its text where it gives one, its offsets checked against that text — into documents
that bring their own text (``FormatSpec.own_text``): ``corefkit score`` aligns them to the
key's tokens (:mod:`corefkit.alignment`) and pairs them with the key's documents by content.

* :mod:`.fastcoref` — fastcoref's ``predict(output_file=...)`` jsonlines: ``text`` and
  ``clusters`` of character offsets, end exclusive (reader and writer);
* :mod:`.maverick` — Maverick's ``predict()`` dictionaries as jsonlines: ``tokens`` and
  ``clusters_token_offsets``, end inclusive, ``clusters_char_offsets`` (reader and writer);
* :mod:`.spacy` — spaCy's coreference span groups (``doc.spans["coref_clusters_N"]``) as
  ``Doc.to_json()`` writes them, one document a line (reader and writer);
* :mod:`.stanza` — Stanza's CoNLL-U with ``coref_chains=`` in MISC (``stanza``) and its
  ``Document.to_dict()`` JSON (``stanza-json``) (readers);
* :mod:`.corenlp` — Stanford CoreNLP's XML ``<coreference>`` (``corenlp``) and JSON
  ``corefs`` (``corenlp-json``) (readers).

:mod:`.common` holds what they share: whole-file and line-by-line JSON, located errors,
mentions added once, and documents built from a text and character offsets.
"""
