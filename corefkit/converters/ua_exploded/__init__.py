"""CoNLL-UA exploded (Universal Anaphora): ``spec``, ``reader``, ``writer``, ``checks``; shared by
both sides ``columns`` (column names, keys, id and value grammar); the reader's ``markables``
(markables → model); the writer's ``plan`` (which markables, which ids)."""
