"""Lithuanian LCC annotator JSON: ``spec``, ``reader``, ``writer``, ``checks``; ``layers`` holds
what the reader and the writer share."""
