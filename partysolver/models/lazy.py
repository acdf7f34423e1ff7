"""Package attributes that load on first use (PEP 562).

A game's package names its whole rules engine (``from partysolver.models.tea_party import
TeaPartyState``), but importing the package for what the game is (``INFO``, in ``game.py``)
must not import the engine: ``partysolver --help`` and ``partysolver games`` would wait for
modules they never use.  So each package imports ``game.py`` and declares where its other
names live; a name's module is imported the first time the name is asked for::

    from .game import INFO

    if TYPE_CHECKING:                       # what type checkers (and readers) see
        from .state import TeaPartyState

    __getattr__ = LazyNames(__name__, {"state": ("TeaPartyState",)})

``tests/test_startup.py`` checks that every name a package's ``TYPE_CHECKING`` block imports
is declared, from the same module.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any


class LazyNames:
    """A package's ``__getattr__``: each name of ``names`` (module -> names) is taken from
    that submodule on first use and kept as an ordinary attribute afterwards.  A module named
    as one of its own names (``"data": ("data",)``) is the submodule itself."""

    def __init__(self, package: str, names: Mapping[str, Sequence[str]]) -> None:
        self.package = package
        self.modules = {name: module for module, found in names.items() for name in found}

    def __call__(self, name: str) -> Any:
        module = self.modules.get(name)
        if module is None:
            raise AttributeError(f"module {self.package!r} has no attribute {name!r}")
        loaded = importlib.import_module(f"{self.package}.{module}")
        value = loaded if name == module else getattr(loaded, name)
        setattr(sys.modules[self.package], name, value)
        return value

    def names(self) -> list[str]:
        """Every name the package declares lazily."""
        return sorted(self.modules)
