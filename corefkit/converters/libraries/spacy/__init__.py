"""spaCy coreference span groups (coref_clusters_N) as Doc.to_json() writes them."""
