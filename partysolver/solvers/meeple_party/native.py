"""The compiled Meeple Party turn search, loaded without numba (issue 30: a second from a fresh
process).

Loading the kernel through numba costs every new process about 0.35 s of CPU before its first
search (measured 2 December 2026).  So, once the kernel is compiled, its one entry point is
compiled once more behind a C signature (:func:`build`, a ``numba.cfunc`` around
:func:`.kernel.walk` taking pointers and lengths: about 3 s of CPU, the kernel itself coming
from numba's cache) and the machine code numba produced for it is written beside numba's cache
(``partysolver-native.meeple-party-turn.o`` and its description, :func:`artifact`).  A later
process loads it with llvmlite alone (0.04 s with its import) and calls it through ctypes
(:func:`load`): the same machine code, the same answers, without importing numba.  How, and
what makes an object stale, is :mod:`partysolver.solvers.native`'s, shared with the Tea Party
playouts; what is this kernel's own is here: its entry point's signature and arguments, the
array checks before a call, and the kernel's constants in the description (the layout of its
arrays, which the Python side reads: ``compiled.Kernel`` uses the loaded object as the module).

The object is written by the background compile (:func:`.turn.warm_up`, after numba compiled
the kernel) and, where numba's cache is warm but the object is missing (a cache from before),
by a detached low-priority process the first hint starts (:func:`build_in_background`, ``python
-m partysolver.solvers.meeple_party.native``).
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from ..compiled import MEEPLE_PARTY_TURN
from ..native import NATIVE, NativeFailure, ObjectFile, build_here

__all__ = ["NATIVE", "NativeFailure", "NativeKernel", "artifact", "available", "build",
           "build_in_background", "load", "loaded"]

NAME = "walk"
"""The kernel's entry point behind the C signature."""

_ARGS = ("T", "W", "F", "board", "stress")
"""The entry point's array arguments, in order (each passed as a pointer and a length)."""

OBJECT = ObjectFile(MEEPLE_PARTY_TURN, MEEPLE_PARTY_TURN.key, NAME,
                    "partysolver.solvers.meeple_party.native", __file__)
"""The entry point's object file beside numba's cache."""


def artifact(where: Path | None = None) -> tuple[Path, Path]:
    """The object file and its description (JSON)."""
    return OBJECT.artifact(where)


def available(where: Path | None = None) -> bool:
    """Whether an object for this source and these versions is there to load (read without
    importing llvmlite: :func:`load` checks the processor, and may still say no)."""
    return OBJECT.available(where)


def loaded() -> bool:
    """Whether this process has loaded the kernel from its object already."""
    return OBJECT.loaded


# -- writing -----------------------------------------------------------------------------------


def build(where: Path | None = None, again: bool = False) -> bool:
    """Compile the entry point behind its C signature (numba; the kernel itself from numba's
    cache, or compiled first) and write its machine code and description, unless they are
    there for this source and processor already (``again``: write them anyway).  Whether they
    are there now (not when the source cannot be stamped or the folder written)."""
    return OBJECT.build(_entry, where, again, written=load.cache_clear)


def _entry() -> tuple[Any, dict[str, Any]]:
    """:func:`.kernel.walk` behind its C signature, and the kernel's constants."""
    from numba import carray, cfunc, types

    from . import kernel

    pointer = types.CPointer
    signature = types.void(
        pointer(types.int64), types.int64, pointer(types.int64), types.int64,
        pointer(types.float64), types.int64, pointer(types.int64), types.int64,
        pointer(types.int64), types.int64, types.int64)
    walk = kernel.walk

    def entry(t: Any, tn: int, w: Any, wn: int, f: Any, fn: int, b: Any, bn: int, s: Any,
              sn: int, drawn: int) -> None:
        walk(carray(t, (tn,)), carray(w, (wn,)), carray(f, (fn,)), carray(b, (bn,)),
             carray(s, (sn,)), drawn)

    constants = {name: value for name, value in vars(kernel).items()
                 if name.isupper() and type(value) in (int, float)}
    return cfunc(signature, cache=False)(entry), {"constants": constants}


def build_in_background() -> bool:
    """Start :func:`build` in a detached low-priority process (``python -m
    partysolver.solvers.meeple_party.native``), once (a lock file beside the object, as a
    kernel's compile takes one); whether it started one.  For a numba cache from before this
    module: the hint that finds the kernel ready but no object to load."""
    return OBJECT.build_in_background()


# -- loading -----------------------------------------------------------------------------------


class NativeKernel:
    """The kernel module as :class:`.compiled.Kernel` uses it: the constants of
    :mod:`.kernel` and its entry point :func:`walk`, run from the loaded machine code.  Any
    other name (``end_value``, for the tests) comes from the numba module."""

    def __init__(self, constants: dict[str, int | float], call: Callable[..., int]) -> None:
        self.__dict__.update(constants)
        self._call = call
        self._result = ctypes.c_void_p()
        self._error = ctypes.c_void_p()

    def walk(self, T: Any, W: Any, F: Any, board: Any, stress: Any, drawn: int) -> None:
        """:func:`.kernel.walk` (the same machine code); the arrays must be one-dimensional
        and contiguous, of int64 but ``F`` (float64), as numba's signature has them."""
        args: list[Any] = [ctypes.byref(self._result), ctypes.byref(self._error)]
        for name, array in zip(_ARGS, (T, W, F, board, stress), strict=True):
            kind = "float64" if name == "F" else "int64"
            if array.dtype.name != kind or array.ndim != 1 or not array.flags.c_contiguous:
                raise TypeError(f"walk: {name} must be a contiguous 1-d {kind} array")
            args += (array.ctypes.data, array.shape[0])
        status = self._call(*args, int(drawn))
        if status:
            raise NativeFailure(f"the compiled Meeple Party kernel failed (status {status}): "
                                "PARTYSOLVER_INTERPRETED=1 answers with the interpreted search")

    def __getattr__(self, name: str) -> Any:
        from . import kernel

        return getattr(kernel, name)


@cache
def load(where: Path | None = None) -> NativeKernel | None:
    """The kernel from its object file, or ``None`` (no object, a stale one, another
    processor or environment, a symbol this process cannot give): then numba loads it."""
    return OBJECT.load(where, _kernel)


def _kernel(address: int, description: dict[str, Any]) -> NativeKernel:
    """The loaded entry point called as numba's C wrapper calls it (the result's and the
    exception's pointers, then a pointer and a length per array, then ``drawn``), the GIL
    held as numba holds it."""
    words = [ctypes.c_void_p, ctypes.c_void_p] \
        + [ctypes.c_void_p, ctypes.c_int64] * len(_ARGS) + [ctypes.c_int64]
    call = ctypes.PYFUNCTYPE(ctypes.c_int32, *words)(address)
    constants = {str(name): value for name, value in description["constants"].items()}
    return NativeKernel(constants, call)


if __name__ == "__main__":
    sys.exit(build_here(OBJECT, build, sys.argv))
