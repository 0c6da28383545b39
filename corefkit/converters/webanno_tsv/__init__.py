"""WebAnno TSV 3.x (INCEpTION, WebAnno): reader, writer and checks."""
