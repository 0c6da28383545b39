"""The differential harness behind ``benchmarks/differential.py``.

* :mod:`.perturb`: system errors made on a copy of a real document (the response);
* :mod:`.peers`: the peer scorers, their modes, how to run and read them, and the
  corefkit call that means the same thing;
* :mod:`.run`: one key/response pair scored by both sides, its differences;
* :mod:`.table`: the summary printed at the end.
"""
