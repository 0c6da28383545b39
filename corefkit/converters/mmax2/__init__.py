"""MMAX2 stand-off XML projects: ``spec``, ``reader``, ``writer``, ``checks``; shared by both
sides ``levelmap`` (level maps) and ``layout`` (scheme types, span strings); the reader's
``project``, ``markables`` and ``mentions``; the writer's ``output``."""
