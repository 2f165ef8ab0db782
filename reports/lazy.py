"""A module imported on first use: ``pd = lazy("pandas")`` costs nothing until ``pd.DataFrame`` is read.

The efficiency report's engagements need no pandas; with the reports' modules importing it lazily, a
command starts its engagements ~0.3 s sooner and imports pandas while they run on other threads (see
``meanwhile`` in :func:`simcore.parallel.map_ordered`).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType


class LazyModule:
    """Stands for the module ``name``: the first attribute read imports it; every read is then served by
    the real module (``sys.modules``), so the proxy never holds a stale copy."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str):
        module = sys.modules.get(self._name)
        if module is None:
            module = importlib.import_module(self._name)
        return getattr(module, attr)

    def load(self) -> ModuleType:
        """Import the module now (e.g. while other threads work) and return it."""
        return importlib.import_module(self._name)

    def __repr__(self) -> str:
        state = "loaded" if self._name in sys.modules else "not loaded yet"
        return f"<lazy module {self._name!r} ({state})>"


def lazy(name: str) -> LazyModule:
    return LazyModule(name)
