"""The "jsonlines" family of neural coreference systems (one JSON object per line): ``spec``,
``reader``, ``writer``, ``checks``; ``build`` holds what the variant readers share, ``words``,
``subwords`` and ``characters`` read the word-level, subword-level ("minimized") and
character-offset variants, ``shapes`` builds the records the writer emits."""
