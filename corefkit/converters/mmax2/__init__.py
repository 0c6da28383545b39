"""MMAX2 stand-off XML projects: ``spec``, ``reader``, ``writer``, ``checks``."""
