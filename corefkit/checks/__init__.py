"""The check registry every command shares: ids, levels, severities and explanations
(:mod:`~corefkit.checks.registry`), and the protocol by which a format's ``checks`` module
plugs its checks in (:mod:`~corefkit.checks.plugins`).

It sits below the converters and the validator: readers name their repairs and rejections by
these ids, strict reading refuses what the registry calls malformed, and ``corefkit validate``
reports the same ids. The registry holds what has been registered; the modules that define
checks register them when imported (each format's ``checks`` module, loaded by
:func:`corefkit.converters.registry.load_format_checks`, and the model, file and pair checks of
:mod:`corefkit.validation`, which that package imports).
"""
