"""brat standoff (``.ann`` + ``.txt``): ``spec``, ``reader``, ``writer``, ``checks``."""
