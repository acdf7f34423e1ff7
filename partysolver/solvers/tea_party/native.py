"""The compiled Tea Party playouts, loaded without numba (issue 30: a second from a fresh
process).

MCTS's leaf estimate for two monsters is :func:`.kernel._playouts`.  Loading it through numba
costs a new process some 0.4 s of CPU before the first playout (numpy and numba's imports,
numba's set-up at the first call), about a third of the opening's hint.  So, once the kernel is
compiled, :func:`build` compiles its playouts once more behind a C signature (a
``numba.cfunc`` around :func:`.kernel._playouts` taking pointers: some 0.7 s of CPU, the
kernel itself from numba's cache) and writes the machine code numba made beside numba's
cache (``partysolver-native.tea-party-playouts.o``), with a description.  A later process loads
it with llvmlite's just-in-time linker alone and calls it through ctypes (:func:`load`): the
same machine code, the same answers, some 0.01 s once numpy and llvmlite are imported.  How,
and what makes an object stale or sends back to numba, is
:mod:`partysolver.solvers.native`'s, shared with the Meeple Party kernel; what is the
playouts' own is here: their signature and arrays, and the rows of those arrays in the
description.

The playouts draw from numba's own random generator (``np.random`` in the kernel: numba's C
helpers, in its ``_helperlib`` extension): :func:`load` has that extension loaded by itself,
without the ``numba`` package, and gives the code its helpers at the addresses numba would, so
the same seed gives the same playouts (``tests/tea_party/test_tea_party_native.py``).

Only the playouts are loaded so: the exact search (``_search``), which a hint needs only on a
position of at most 18 heroes loose, still loads through numba when one needs it.
"""

from __future__ import annotations

import ctypes
import sys
from functools import cache
from pathlib import Path
from typing import Any

from ..compiled import TEA_PARTY_SEARCH, ready
from ..native import NATIVE, NativeFailure, ObjectFile, build_here
from .playouts import LEAF_PLAYOUTS, PLAYOUT_GREEDY, KernelPlayouts

__all__ = ["NATIVE", "NativeFailure", "NativePlayouts", "artifact", "available", "build",
           "build_in_background", "compiled_playouts", "load", "loaded", "playouts", "running",
           "warm_up"]

NAME = "tea-party-playouts"
"""The object's name beside numba's cache."""

OBJECT = ObjectFile(TEA_PARTY_SEARCH, NAME, NAME, "partysolver.solvers.tea_party.native",
                    __file__, helpers=True)
"""The playouts' object file beside numba's cache (they need numba's C helpers)."""


def artifact(where: Path | None = None) -> tuple[Path, Path]:
    """The object file and its description (JSON)."""
    return OBJECT.artifact(where)


def available(where: Path | None = None) -> bool:
    """Whether an object for this source and these versions is there (read without
    importing llvmlite; :func:`load` checks the processor and may still say no)."""
    return OBJECT.available(where)


def loaded() -> bool:
    """Whether this process has loaded the playouts from their object."""
    return OBJECT.loaded


def running() -> bool:
    """Whether this process runs the compiled playouts from their object, for a kernel that
    is ready (compiled for this source): what a hint's JSON reports as ``compiled``."""
    return OBJECT.loaded and ready(TEA_PARTY_SEARCH)


# -- writing -----------------------------------------------------------------------------------


def build(where: Path | None = None, again: bool = False) -> bool:
    """Compile the playouts behind a C signature (numba; the kernel from its cache, or
    compiled first) and write their machine code and description, unless they are there for
    this source and processor (``again``: anyway).  Whether they are there now."""
    return OBJECT.build(_entry, where, again, written=load.cache_clear)


def _entry() -> tuple[Any, dict[str, Any]]:
    """:func:`.kernel._playouts` behind its C signature, and the rows of its arrays."""
    from numba import carray, cfunc, types

    from . import kernel

    most = kernel._MAX_CHILDREN
    pointer = types.CPointer
    signature = types.float64(
        pointer(types.int64), types.int64, types.int64, pointer(types.int64),
        pointer(types.float64), pointer(types.int8), pointer(types.int64),
        pointer(types.float64), types.float64)
    playouts = kernel._playouts

    def entry(root: Any, n: int, seed: int, children: Any, weights: Any, flips: Any,
              zones: Any, probs: Any, greedy: float) -> float:
        return playouts(carray(root, (7,)), n, seed, carray(children, (1, most, 7)),
                        carray(weights, (1, most)), carray(flips, (1, most)),
                        carray(zones, (2, most)), carray(probs, (2, most)), greedy)

    return cfunc(signature, cache=False)(entry), {"children": most}


def warm_up() -> None:
    """What the background compile runs: the kernel through numba (:func:`.kernel.warm_up`),
    then the playouts' object."""
    from .kernel import warm_up as compile_kernel

    compile_kernel()
    build()


def build_in_background() -> bool:
    """Start :func:`build` in a detached low-priority process (``python -m
    partysolver.solvers.tea_party.native``), once (a lock beside the object); for a numba
    cache from before this module.  Whether it started one."""
    return OBJECT.build_in_background()


# -- loading -----------------------------------------------------------------------------------


class NativePlayouts(KernelPlayouts):
    """:class:`.playouts.KernelPlayouts` run from the loaded machine code."""

    def __init__(self, n: int, greedy: float, call: Any, children: int) -> None:
        super().__init__(n, greedy, children)
        self._call = call
        self._status = (ctypes.c_double(), ctypes.c_void_p())
        self._pointers = tuple(array.ctypes.data for array in self.work)

    def _seat(self, root: Any, seed: int) -> float:
        result, error = self._status
        status = self._call(ctypes.byref(result), ctypes.byref(error), root.ctypes.data,
                            self.n, seed, *self._pointers, self.greedy)
        if status:
            raise NativeFailure(f"the compiled Tea Party playouts failed (status {status}): "
                                "PARTYSOLVER_NATIVE=0 runs them through numba")
        return float(result.value)


@cache
def load(where: Path | None = None) -> tuple[Any, int] | None:
    """The playouts' entry point from the object file and the rows of its arrays, or ``None``
    (no object, a stale one, another processor or environment, a symbol missing)."""
    return OBJECT.load(where, _playouts)


def _playouts(address: int, description: dict[str, Any]) -> tuple[Any, int]:
    """The loaded entry point called as numba's C wrapper calls it (the result's and the
    exception's pointers, then the root, ``n``, the seed, the five work arrays and
    ``greedy``), the GIL held as numba holds it, and the rows of its arrays."""
    word, number = ctypes.c_void_p, ctypes.c_int64
    call = ctypes.PYFUNCTYPE(ctypes.c_int32, word, word, word, number, number, word, word,
                             word, word, word, ctypes.c_double)(address)
    return call, int(description["children"])


def playouts(n: int, greedy: float) -> NativePlayouts | None:
    """The loaded playouts, or ``None`` where :func:`load` says no."""
    found = load()
    return None if found is None else NativePlayouts(n, greedy, *found)


def compiled_playouts() -> KernelPlayouts:
    """MCTS's leaf estimate for two monsters: the mean of ``LEAF_PLAYOUTS`` playouts run by
    the compiled kernel (some hundred times faster than one through the rules engine), a
    ``PLAYOUT_GREEDY`` share of their decisions played as greedy plays them: loaded without
    numba where their object is there (:func:`playouts`), else through numba."""
    found = playouts(LEAF_PLAYOUTS, PLAYOUT_GREEDY)
    if found is not None:
        return found
    from .kernel import Playouts

    return Playouts(LEAF_PLAYOUTS, PLAYOUT_GREEDY)


if __name__ == "__main__":
    sys.exit(build_here(OBJECT, build, sys.argv))
