"""The compiled Tea Party playouts, loaded without numba (issue 30: a second from a fresh
process).

MCTS's leaf estimate for two monsters is :func:`.kernel._playouts`.  Loading it through numba
costs a new process some 0.4 s of CPU before the first playout (numpy and numba's imports,
numba's set-up at the first call), about a third of the opening's hint.  So, once the kernel is
compiled, :func:`build` compiles its playouts once more behind a C signature (a
``numba.cfunc`` around :func:`.kernel._playouts` taking pointers: some 0.7 s of CPU, the
kernel itself from numba's cache) and writes the machine code numba made beside numba's
cache, with a description.  A later process loads it with llvmlite's just-in-time linker
alone (what numba loads its own cache with) and calls it through ctypes (:func:`load`): the
same machine code, the same answers, some 0.01 s once numpy and llvmlite are imported.
The same approach as the Meeple Party kernel's (``meeple_party/native.py``), which see.

The playouts draw from numba's own random generator (``np.random`` in the kernel: numba's C
helpers, in its ``_helperlib`` extension): :func:`load` loads that extension by itself, without
the ``numba`` package, and gives the code its helpers at the addresses numba would, so the
same seed gives the same playouts (``tests/tea_party/test_tea_party_native.py``).

The description holds what the code was made for: the kernel's readiness stamp (its source,
the numba and Python versions: :func:`partysolver.solvers.compiled.ready`), this module's
size and time, the llvmlite version, the processor, the array sizes, the symbols the code
names, and a SHA-256 of the object.  Anything different, ``PARTYSOLVER_NATIVE=0``,
``PARTYSOLVER_INTERPRETED`` or a ``NUMBA_`` setting but ``NUMBA_CACHE_DIR``, a symbol this
process cannot give: :func:`load` answers ``None`` and numba loads the kernel as before.  A call
answering anything but numba's status 0 (the kernel raises nothing; an integer division by
zero would be one) raises :class:`NativeFailure` rather than answer.

Only the playouts are loaded so: the exact search (``_search``), which a hint needs only on a
position of at most 18 heroes loose, still loads through numba when one needs it.
"""

from __future__ import annotations

import builtins
import ctypes
import importlib.metadata
import importlib.util
import json
import os
import random
import sys
from functools import cache
from pathlib import Path
from typing import Any

from ...models.tea_party.state import OVER, THROW_UP, TeaPartyState
from .. import compiled
from ..compiled import TEA_PARTY_SEARCH

NAME = "tea-party-playouts"
"""The object's name beside numba's cache."""

NATIVE = "PARTYSOLVER_NATIVE"
"""An environment variable: ``0`` loads the playouts through numba, never from the object."""

_STAND_INS = ("numba_gil_ensure", "numba_gil_release", "numba_unpickle", "numba_do_raise",
              "numba_runtime_build_excinfo_struct", "NRT_Free", "NRT_MemInfo_call_dtor")
"""numba's helpers the object names on its error path only (the C wrapper's): where numba's
own are not at hand, stand-ins that are never called."""


class NativeFailure(RuntimeError):
    """The loaded playouts answered an error status (numba would have raised)."""


def folder() -> Path:
    """Beside numba's cache and the readiness marker."""
    return compiled._marker(TEA_PARTY_SEARCH).parent


def artifact(where: Path | None = None) -> tuple[Path, Path]:
    """The object file and its description (JSON)."""
    base = (where or folder()) / f"partysolver-native.{NAME}"
    return base.with_name(f"{base.name}.o"), base.with_name(f"{base.name}.json")


def stamp() -> dict[str, Any] | None:
    """What the description must hold to be loaded here (without importing numba)."""
    kernel = compiled._stamp(TEA_PARTY_SEARCH)
    if kernel is None:
        return None
    try:
        here = Path(__file__).stat()
        llvmlite = importlib.metadata.version("llvmlite")
    except (OSError, importlib.metadata.PackageNotFoundError):
        return None
    return {"kernel": kernel, "native": [here.st_mtime, here.st_size], "llvmlite": llvmlite,
            "name": NAME}


def usable_environment() -> bool:
    """Whether nothing asks for another path (the same rule as Meeple Party's)."""
    if compiled.forced_interpreted() or os.environ.get(NATIVE) == "0":
        return False
    return not any(name.startswith("NUMBA_") and name != "NUMBA_CACHE_DIR"
                   for name in os.environ)


def _processor() -> dict[str, str]:
    import llvmlite.binding as ll

    return {"cpu": ll.get_host_cpu_name(), "features": ll.get_host_cpu_features().flatten(),
            "triple": ll.get_process_triple()}


def _helpers() -> dict[str, int]:
    """numba's C helpers by the names its code gives them (``numba_`` and the helper's),
    from its ``_helperlib`` extension loaded on its own (importing it as ``numba._helperlib``
    would import numba)."""
    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("numba is not installed")
    base = Path(next(iter(spec.submodule_search_locations)))
    found = sorted(base.glob("_helperlib*.so")) + sorted(base.glob("_helperlib*.pyd"))
    if not found:
        raise ImportError("numba's _helperlib is missing")
    existing = sys.modules.get("numba._helperlib")
    if existing is None:
        library = importlib.util.spec_from_file_location("_helperlib", found[0])
        if library is None or library.loader is None:
            raise ImportError("numba's _helperlib cannot be loaded")
        existing = importlib.util.module_from_spec(library)
        library.loader.exec_module(existing)
    return {f"numba_{name}": int(address) for name, address in existing.c_helpers.items()}


# -- writing -----------------------------------------------------------------------------------


def build(where: Path | None = None, again: bool = False) -> bool:
    """Compile the playouts behind a C signature (numba; the kernel from its cache, or
    compiled first) and write their machine code and description, unless they are there for
    this source and processor (``again``: anyway).  Whether they are there now."""
    if not again and _description(where) is not None:
        return True
    expected = stamp()
    if expected is None:
        return False
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

    wrapper: Any = cfunc(signature, cache=False)(entry)
    try:  # numba's code library (what its cache writes), not a public interface: any change
        library = wrapper._library  # and the playouts stay numba's to load
        library._ensure_finalized()
        module = library._final_module
        code = library._codegen._tm.emit_object(module)
    except (AttributeError, RuntimeError):
        return False
    needed = sorted({f.name for f in module.functions
                     if f.is_declaration and not f.name.startswith("llvm.")}
                    | {g.name for g in module.global_variables if g.is_declaration})
    symbol = wrapper.native_name.removeprefix("cfunc.")
    if symbol == wrapper.native_name or module.get_function(symbol).is_declaration:
        return False
    description = {"stamp": expected, "processor": _processor(), "symbol": symbol,
                   "needs": needed, "children": most, "sha256": _digest(code)}
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


def warm_up() -> None:
    """What the background compile runs: the kernel through numba (:func:`.kernel.warm_up`),
    then the playouts' object."""
    from .kernel import warm_up as compile_kernel

    compile_kernel()
    build()


def build_in_background() -> bool:
    """Start :func:`build` in a detached low-priority process, once (a lock beside the
    object); for a numba cache from before this module.  Whether it started one."""
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


class NativePlayouts:
    """:class:`.kernel.Playouts` run from the loaded machine code: ``n`` playouts per call, a
    ``greedy`` share of their decisions played as greedy plays them; ``rng`` seeds them."""

    def __init__(self, n: int, greedy: float, call: Any, children: int) -> None:
        import numpy as np

        self.n = n
        self.greedy = greedy
        self._call = call
        self._status = (ctypes.c_double(), ctypes.c_void_p())
        self.work = (np.zeros((1, children, 7), dtype=np.int64), np.zeros((1, children)),
                     np.zeros((1, children), np.int8), np.zeros((2, children), np.int64),
                     np.zeros((2, children)))
        self._pointers = tuple(array.ctypes.data for array in self.work)

    def __call__(self, state: TeaPartyState, rng: random.Random) -> tuple[float, float]:
        import numpy as np

        if state.phase == OVER or (state.phase == THROW_UP and state.final):
            from ..budget import Budget
            from ..expectimax import Expectimax

            return tuple(Expectimax(Budget()).value(state))  # type: ignore[return-value]
        cups, stomachs = state.cups, state.stomachs
        if state.player == 1:
            cups, stomachs = cups[::-1], stomachs[::-1]
        root = np.array([state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0],
                         stomachs[1]], dtype=np.int64)
        result, error = self._status
        status = self._call(ctypes.byref(result), ctypes.byref(error), root.ctypes.data,
                            self.n, rng.getrandbits(31), *self._pointers, self.greedy)
        if status:
            raise NativeFailure(f"the compiled Tea Party playouts failed (status {status}): "
                                "PARTYSOLVER_NATIVE=0 runs them through numba")
        seat = result.value
        return (1.0 - seat, seat) if state.player == 1 else (seat, 1.0 - seat)


_KEEP: list[Any] = []
"""The stand-ins' callbacks and the engine, alive as long as the process."""
_loaded = False


@cache
def load(where: Path | None = None) -> tuple[Any, int] | None:
    """The playouts' entry point from the object file and the rows of its arrays, or ``None``
    (no object, a stale one, another processor or environment, a symbol missing)."""
    if not usable_environment():
        return None
    description = _description(where)
    if description is None:
        return None
    try:
        code = artifact(where)[0].read_bytes()
        if _digest(code) != description.get("sha256"):
            return None
        import llvmlite.binding as ll

        needs = [str(name) for name in description["needs"]]
        helpers = _helpers()
        ll.initialize_native_target()
        ll.initialize_native_asmprinter()
        machine = ll.Target.from_default_triple().create_target_machine(
            codemodel="jitdefault", jit=True)
        engine = ll.create_mcjit_compiler(ll.parse_assembly(""), machine)
        _provide(ll, needs, helpers)
        if any(not ll.address_of_symbol(name) for name in needs):
            return None  # the linker would stop the process on a missing symbol
        engine.add_object_file(ll.ObjectFileRef.from_data(code))
        engine.finalize_object()
        address = engine.get_function_address(str(description["symbol"]))
        if not address:
            return None
        _KEEP.append(engine)
        word, number = ctypes.c_void_p, ctypes.c_int64
        call = ctypes.PYFUNCTYPE(ctypes.c_int32, word, word, word, number, number, word, word,
                                 word, word, word, ctypes.c_double)(address)
        children = int(description["children"])
    except (ImportError, OSError, RuntimeError, KeyError, TypeError, ValueError):
        return None
    global _loaded
    _loaded = True
    return call, children


def playouts(n: int, greedy: float) -> NativePlayouts | None:
    """The loaded playouts, or ``None`` where :func:`load` says no."""
    found = load()
    return None if found is None else NativePlayouts(n, greedy, *found)


def available(where: Path | None = None) -> bool:
    """Whether an object for this source and these versions is there (read without
    importing llvmlite; :func:`load` checks the processor and may still say no)."""
    if not usable_environment():
        return False
    try:
        description = json.loads(artifact(where)[1].read_bytes())
    except (OSError, ValueError):
        return False
    return isinstance(description, dict) and description.get("stamp") == stamp()


def _description(where: Path | None = None) -> dict[str, Any] | None:
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


def _provide(ll: Any, needs: list[str], helpers: dict[str, int]) -> None:
    """Give the code the symbols numba would: Python's exception objects, numba's C helpers
    (its random generator among them), and stand-ins for its error path where numba has
    not given its own."""
    for name in needs:
        if name.startswith("PyExc_"):
            found = getattr(builtins, name[len("PyExc_"):], None)
            if isinstance(found, type) and issubclass(found, BaseException):
                ll.add_symbol(name, id(found))
        elif ll.address_of_symbol(name):
            continue
        elif name in helpers:
            ll.add_symbol(name, helpers[name])
        elif name in _STAND_INS:
            def stand_in(*_: Any) -> None:
                raise NativeFailure("numba's error path reached")

            callback = ctypes.CFUNCTYPE(ctypes.c_void_p)(stand_in)
            _KEEP.append(callback)
            ll.add_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value)


def loaded() -> bool:
    """Whether this process has loaded the playouts from their object."""
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
