"""Import paths that moved in 0.2 and keep working for one release, with a DeprecationWarning.

No file stays at an old path: an old name is served by a finder on ``sys.meta_path`` (installed
by ``corefkit/__init__.py``) that imports the new module and warns. An old module whose
content moved to one module is that module itself (``corefkit.task is
corefkit.evaluation.task``); one whose names went to several modules is a small module that
looks each name up where it went.
"""

from __future__ import annotations

import importlib
import sys
import types
import warnings
from importlib.machinery import ModuleSpec
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # pragma: no cover
    from collections.abc import Sequence
    from importlib.abc import Loader

# old module -> (new module, {name: the module it moved to instead})
MOVED: dict[str, tuple[str, dict[str, str]]] = {
    "corefkit.scoring.errors": ("corefkit.diagnosis.categories", {}),
    "corefkit.scoring.error_analysis": ("corefkit.diagnosis.engine", {}),
    "corefkit.scoring.error_report": ("corefkit.diagnosis.report", {}),
    "corefkit.scoring.compare": ("corefkit.evaluation.compare", {
        name: "corefkit.evaluation.significance" for name in (
            "TOLERANCE", "CHUNK", "Statistic", "statistic", "exact_score", "permutation_test",
            "bootstrap_weights", "percentile_interval")}),
    "corefkit.scoring.gap": ("corefkit.evaluation.gap", {}),
    "corefkit.task": ("corefkit.evaluation.task", {}),
    "corefkit.task.spec": ("corefkit.evaluation.task.spec", {}),
    "corefkit.task.runner": ("corefkit.evaluation.task.runner", {}),
    "corefkit.task.leaderboard": ("corefkit.evaluation.task.leaderboard", {}),
    "corefkit.validation.checks": ("corefkit.checks.registry", {
        # the lookups that load every check first, as the old module's did
        name: "corefkit.validation.catalog" for name in ("get_check", "all_checks",
                                                         "expand_patterns")}),
    "corefkit.validation.model": ("corefkit.checks.model", {}),
    "corefkit.validation.plugins": ("corefkit.checks.plugins", {
        "plugin_for": "corefkit.converters.registry",
        "load_all": "corefkit.validation.catalog",
        "sent_id_incidents": "corefkit.converters.conllu_comments"}),
}


def _warn(old: str, new: str) -> None:
    # The warning names the line that imports the old path: the first frame outside this
    # module, counted as warnings.warn counts (it skips the import system's frames itself).
    level = 1
    frame = sys._getframe(0).f_back
    while frame is not None:
        name = frame.f_code.co_filename
        if not ("importlib" in name and "_bootstrap" in name):
            level += 1
            if name != __file__:
                break
        frame = frame.f_back
    warnings.warn(f"{old} is deprecated and goes away in the next release; import {new}",
                  DeprecationWarning, stacklevel=level)


class _Moved(types.ModuleType):
    """An old module whose names went to several modules."""

    def __init__(self, name: str, new: str, elsewhere: dict[str, str]) -> None:
        super().__init__(name, f"Deprecated: the names of {name} are in {new}.")
        self._new = new
        self._elsewhere = elsewhere

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        home = self._elsewhere.get(attribute, self._new)
        return getattr(importlib.import_module(home), attribute)

    def __dir__(self) -> list[str]:
        return sorted({*dir(importlib.import_module(self._new)), *self._elsewhere})


class _Loader:  # the loader protocol (importlib.abc would import tempfile, shutil, ...)
    def __init__(self, old: str) -> None:
        self.old = old

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        new, elsewhere = MOVED[self.old]
        _warn(self.old, new)
        if elsewhere:
            return _Moved(self.old, new, elsewhere)
        module = importlib.import_module(new)
        self.real_spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # the import system gave the module this alias' spec: it keeps its own
        real = getattr(self, "real_spec", None)
        if real is not None:
            module.__spec__ = real


class _Finder:  # the meta path finder protocol
    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> ModuleSpec | None:
        if fullname not in MOVED:
            return None
        new, elsewhere = MOVED[fullname]
        is_package = not elsewhere and any(old.startswith(fullname + ".") for old in MOVED)
        return ModuleSpec(fullname, cast("Loader", _Loader(fullname)), is_package=is_package)


def install() -> None:
    """Serve the old paths (once per interpreter)."""
    if not any(isinstance(finder, _Finder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
