"""The compiled Meeple Party turn search, loaded without numba (issue 30: a second from a fresh
process).

Loading the kernel through numba costs every new process about 0.35 s of CPU before its first
search (measured 2 December 2026): importing numba (0.16 s), then, at the first call, numba
setting up its typing and target contexts (every registry of its own implementations, some
0.15 s, whatever the number of entry points) and unpacking the cached library (the bitcode it
keeps for inlining as well as the machine code).  None of that is needed to run code that is
already compiled.  So, once the kernel is compiled, its one entry point is compiled once more
behind a C signature (:func:`build`, a ``numba.cfunc`` around :func:`.kernel.walk` taking
pointers and lengths: about 3 s of CPU, the kernel itself coming from numba's cache) and the
machine code numba produced for it is written beside numba's cache, as an object file with a
description (:func:`artifact`).  A later process loads it with llvmlite alone (the same
just-in-time linker numba loads its cache with; 0.04 s with its import) and calls it through
ctypes (:func:`load`): the same machine code, the same answers, without importing numba.

The description holds what the code was made for: the kernel's source stamp (as the readiness
marker, :func:`partysolver.solvers.compiled.ready`), this module's, the numba, llvmlite and
Python versions, the processor's name and features, and the kernel's constants (the layout of
its arrays, which the Python side reads: ``compiled.Kernel`` uses this object as the module).
Anything different, any ``NUMBA_`` setting in the environment but ``NUMBA_CACHE_DIR`` (a user
asking numba for something else), or a symbol the code needs that this process cannot give,
and :func:`load` answers ``None``: the kernel loads through numba as before.

The function called is the one numba's C wrapper calls: it answers a status (0, or numba's
code for an exception: the kernel has no ``raise`` and no bounds checks, but an integer
division by zero would be one), and a call that does not answer 0 raises
:class:`NativeFailure` rather than answer.  The wrapper, left uncalled in the same object,
names numba's helpers for its error path: where numba is not loaded they are stand-ins that
are never called.  A process that has imported numba keeps numba's own helpers.

The object is written by the background compile (:func:`.turn.warm_up`, after numba compiled
the kernel) and, where numba's cache is warm but the object is missing (a cache from before),
by a detached low-priority process the first hint starts (:func:`build_in_background`).
"""

from __future__ import annotations

import builtins
import ctypes
import importlib.metadata
import json
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from .. import compiled
from ..compiled import MEEPLE_PARTY_TURN

NAME = "walk"
"""The kernel's entry point behind the C signature."""

_ARGS = ("T", "W", "F", "board", "stress")
"""The entry point's array arguments, in order (each passed as a pointer and a length)."""

_STAND_INS = ("numba_gil_ensure", "numba_gil_release", "numba_unpickle", "numba_do_raise",
              "numba_runtime_build_excinfo_struct", "NRT_Free", "NRT_MemInfo_call_dtor")
"""numba's helpers the object names (the C wrapper's error path, the reference counting of
arrays the kernel does not own): the code called never reaches them."""


class NativeFailure(RuntimeError):
    """The loaded kernel answered an error status (numba would have raised an exception)."""


def folder() -> Path:
    """Where the object and its description live: beside numba's cache and the readiness
    marker (``NUMBA_CACHE_DIR``, else the kernel's ``__pycache__``)."""
    return compiled._marker(MEEPLE_PARTY_TURN).parent


def artifact(where: Path | None = None) -> tuple[Path, Path]:
    """The object file and its description (JSON)."""
    base = (where or folder()) / f"partysolver-native.{MEEPLE_PARTY_TURN.key}"
    return base.with_name(f"{base.name}.o"), base.with_name(f"{base.name}.json")


def stamp() -> dict[str, Any] | None:
    """What the description must hold to be loaded here (without importing numba): the
    kernel's readiness stamp, this module's size and time, and the llvmlite version."""
    kernel = compiled._stamp(MEEPLE_PARTY_TURN)
    if kernel is None:
        return None
    try:
        here = Path(__file__).stat()
        llvmlite = importlib.metadata.version("llvmlite")
    except (OSError, importlib.metadata.PackageNotFoundError):
        return None
    return {"kernel": kernel, "native": [here.st_mtime, here.st_size], "llvmlite": llvmlite,
            "name": NAME}


NATIVE = "PARTYSOLVER_NATIVE"
"""An environment variable: ``0`` loads the kernel through numba, never from its object (the
tests compare the two; a user who suspects the object can do the same)."""


def usable_environment() -> bool:
    """Whether nothing asks for another path: no ``PARTYSOLVER_INTERPRETED``, no
    ``PARTYSOLVER_NATIVE=0``, and no numba setting but the cache's folder
    (``NUMBA_DISABLE_JIT``, ``NUMBA_BOUNDSCHECK``, ``NUMBA_CPU_NAME`` and the like go through
    numba)."""
    if compiled.forced_interpreted() or os.environ.get(NATIVE) == "0":
        return False
    return not any(name.startswith("NUMBA_") and name != "NUMBA_CACHE_DIR"
                   for name in os.environ)


def _processor() -> dict[str, str]:
    import llvmlite.binding as ll

    return {"cpu": ll.get_host_cpu_name(), "features": ll.get_host_cpu_features().flatten(),
            "triple": ll.get_process_triple()}


# -- writing -----------------------------------------------------------------------------------


def build(where: Path | None = None, again: bool = False) -> bool:
    """Compile the entry point behind its C signature (numba; the kernel itself from numba's
    cache, or compiled first) and write its machine code and description, unless they are
    there for this source and processor already (``again``: write them anyway).  Whether they
    are there now (not when the source cannot be stamped or the folder written)."""
    if not again and _description(where) is not None:
        return True
    expected = stamp()
    if expected is None:
        return False
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

    wrapper: Any = cfunc(signature, cache=False)(entry)
    try:  # numba's code library (what its cache writes), not a public interface: any change
        library = wrapper._library  # and the kernel stays numba's to load
        library._ensure_finalized()
        module = library._final_module
        code = library._codegen._tm.emit_object(module)
    except (AttributeError, RuntimeError):
        return False
    needed = sorted({f.name for f in module.functions
                     if f.is_declaration and not f.name.startswith("llvm.")}
                    | {g.name for g in module.global_variables if g.is_declaration})
    constants = {name: value for name, value in vars(kernel).items()
                 if name.isupper() and type(value) in (int, float)}
    symbol = wrapper.native_name.removeprefix("cfunc.")  # the function the wrapper calls
    if symbol == wrapper.native_name or module.get_function(symbol).is_declaration:
        return False
    description = {"stamp": expected, "processor": _processor(), "symbol": symbol,
                   "needs": needed, "constants": constants, "sha256": _digest(code)}
    obj, meta = artifact(where)
    try:
        obj.parent.mkdir(parents=True, exist_ok=True)
        for path, data in ((obj, code), (meta, json.dumps(description).encode())):
            partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            partial.write_bytes(data)
            os.replace(partial, path)
    except OSError:
        return False
    load.cache_clear()
    return True


def build_in_background() -> bool:
    """Start :func:`build` in a detached low-priority process (``python -m
    partysolver.solvers.meeple_party.native``), once (a lock file beside the object, as a
    kernel's compile takes one); whether it started one.  For a numba cache from before this
    module: the hint that finds the kernel ready but no object to load."""
    if not usable_environment():
        return False
    obj, _ = artifact()
    lock = obj.with_name(obj.name.replace(".o", ".lock"))
    if not compiled._take(lock):
        return False
    try:
        import subprocess

        with lock.with_name(lock.name.replace(".lock", ".log")).open("wb") as log:
            subprocess.Popen([sys.executable, "-m", __name__, str(lock)],
                             stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True,
                             start_new_session=True)
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    return True


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


_KEEP: list[Any] = []
"""The stand-ins' ctypes callbacks and the engines, alive as long as the process."""
_loaded = False


@cache
def load(where: Path | None = None) -> NativeKernel | None:
    """The kernel from its object file, or ``None`` (no object, a stale one, another
    processor or environment, a symbol this process cannot give): then numba loads it."""
    if not usable_environment():
        return None
    description = _description(where)
    if description is None:
        return None
    try:
        code = artifact(where)[0].read_bytes()
        if _digest(code) != description.get("sha256"):
            return None  # (written by another process between our two reads)
        import llvmlite.binding as ll

        ll.initialize_native_target()
        ll.initialize_native_asmprinter()
        machine = ll.Target.from_default_triple().create_target_machine(
            codemodel="jitdefault", jit=True)
        engine = ll.create_mcjit_compiler(ll.parse_assembly(""), machine)  # (the process's
        _provide(ll, [str(name) for name in description["needs"]])      # symbols: from here)
        if any(not ll.address_of_symbol(name) for name in description["needs"]):
            return None  # the linker would stop the process on a missing symbol
        engine.add_object_file(ll.ObjectFileRef.from_data(code))
        engine.finalize_object()
        address = engine.get_function_address(str(description["symbol"]))
        if not address:
            return None
        _KEEP.append(engine)
        words = [ctypes.c_void_p, ctypes.c_void_p] \
            + [ctypes.c_void_p, ctypes.c_int64] * len(_ARGS) + [ctypes.c_int64]
        call = ctypes.PYFUNCTYPE(ctypes.c_int32, *words)(address)  # the GIL held, as numba
        constants = {str(name): value for name, value in description["constants"].items()}
    except (ImportError, OSError, RuntimeError, KeyError, TypeError, ValueError):
        return None
    global _loaded
    _loaded = True
    return NativeKernel(constants, call)


def available(where: Path | None = None) -> bool:
    """Whether an object for this source and these versions is there to load (read without
    importing llvmlite: :func:`load` checks the processor, and may still say no)."""
    if not usable_environment():
        return False
    try:
        description = json.loads(artifact(where)[1].read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(description, dict) and description.get("stamp") == stamp()


def _description(where: Path | None = None) -> dict[str, Any] | None:
    """The object's description when it was made for this source, these versions and this
    processor (``None``: missing, unreadable or made for something else)."""
    try:
        description = json.loads(artifact(where)[1].read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(description, dict) or description.get("stamp") != stamp():
        return None
    try:
        if description.get("processor") != _processor():
            return None
    except ImportError:
        return None
    return description


def _digest(code: bytes) -> str:
    import hashlib

    return hashlib.sha256(code).hexdigest()


def _provide(ll: Any, needs: list[str]) -> None:
    """Give the code the symbols numba would: Python's exception objects by identity (as numba
    names them), and, where numba has not given its own, the helpers' stand-ins."""
    for name in needs:
        if name.startswith("PyExc_"):
            found = getattr(builtins, name[len("PyExc_"):], None)
            if isinstance(found, type) and issubclass(found, BaseException):
                ll.add_symbol(name, id(found))
        elif name in _STAND_INS and not ll.address_of_symbol(name):
            def stand_in(*_: Any) -> None:
                raise NativeFailure("numba's error path reached")

            callback = ctypes.CFUNCTYPE(ctypes.c_void_p)(stand_in)
            _KEEP.append(callback)
            ll.add_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value)


def loaded() -> bool:
    """Whether this process has loaded the kernel from its object already."""
    return _loaded


def _build_here(lock: Path | None) -> int:
    """The background process of :func:`build_in_background`."""
    import contextlib

    if lock is not None:
        lock.write_text(f"{os.getpid()}\n")
    try:
        with contextlib.suppress(OSError):
            os.nice(10)
        print("wrote" if build() else "could not write", artifact()[0])
        return 0
    finally:
        if lock is not None:
            lock.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(_build_here(Path(sys.argv[1]) if len(sys.argv) > 1 else None))
