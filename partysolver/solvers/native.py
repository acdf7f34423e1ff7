"""A compiled kernel's entry point loaded without numba (issue 30: a second from a fresh
process), for every kernel that does so (``meeple_party/native.py``, ``tea_party/native.py``).

Loading a kernel through numba costs every new process some 0.35 s of CPU before its first
call (measured 2 December 2026): importing numba (0.16 s), then, at the first call, numba
setting up its typing and target contexts (every registry of its own implementations, some
0.15 s, whatever the number of entry points) and unpacking the cached library (the bitcode it
keeps for inlining as well as the machine code).  None of that is needed to run code that is
already compiled.  So, once a kernel is compiled, the entry point a game loads so is compiled
once more behind a C signature (a ``numba.cfunc`` taking pointers, declared by the game's
module; the kernel itself comes from numba's cache) and the machine code numba produced for it
is written beside numba's cache, as an object file with a description (:meth:`ObjectFile.build`,
:meth:`ObjectFile.artifact`).  A later process loads it with llvmlite alone (the same
just-in-time linker numba loads its cache with) and calls it through ctypes
(:meth:`ObjectFile.load`): the same machine code, the same answers, without importing numba.

The description holds what the code was made for: the kernel's readiness stamp (its source,
the numba and Python versions: :func:`partysolver.solvers.compiled.ready`), the size and time
of the game's module and of this one, the llvmlite version, the processor's name and features,
the symbols the code names, a SHA-256 of the object and what the game's module adds (the
kernel's constants, the size of its arrays).  Anything different, ``PARTYSOLVER_NATIVE=0``
(:data:`NATIVE`), ``PARTYSOLVER_INTERPRETED``, any ``NUMBA_`` setting in the environment but
``NUMBA_CACHE_DIR`` (a user asking numba for something else), or a symbol the code needs that
this process cannot give, and :meth:`ObjectFile.load` answers ``None``: the kernel loads
through numba as before.

The function called is the one numba's C wrapper calls: it answers a status (0, or numba's
code for an exception: the kernels have no ``raise`` and no bounds checks, but an integer
division by zero would be one), and a call that does not answer 0 raises
:class:`NativeFailure` rather than answer.  The wrapper, left uncalled in the same object,
names numba's helpers for its error path: where numba is not loaded they are stand-ins that
are never called.  A process that has imported numba keeps numba's own helpers.  Python's
exception objects are given by identity, as numba names them; a kernel that draws from
numba's random generator is given numba's C helpers from its ``_helperlib`` extension, loaded
by itself (:func:`numba_helpers`), at the addresses numba would.

The object is written by the kernel's background compile (after numba compiled the kernel)
and, where numba's cache is warm but the object is missing (a cache from before), by a
detached low-priority process the first hint starts (:meth:`ObjectFile.build_in_background`,
``python -m`` the game's module).  Only writing it uses numba's internals (its code library,
what its cache serializes); reading it uses only llvmlite's public interface.
"""

from __future__ import annotations

import builtins
import ctypes
import importlib.metadata
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from . import compiled

NATIVE = "PARTYSOLVER_NATIVE"
"""An environment variable: ``0`` loads the kernels through numba, never from their objects
(the tests compare the two; a user who suspects an object can do the same)."""

STAND_INS = ("numba_gil_ensure", "numba_gil_release", "numba_unpickle", "numba_do_raise",
             "numba_runtime_build_excinfo_struct", "NRT_Free", "NRT_MemInfo_call_dtor")
"""numba's helpers an object names on its error path only (the C wrapper's, the reference
counting of arrays the kernel does not own): the code called never reaches them."""

Made = TypeVar("Made")


class NativeFailure(RuntimeError):
    """A loaded entry point answered an error status (numba would have raised an exception)."""


def usable_environment() -> bool:
    """Whether nothing asks for another path: no ``PARTYSOLVER_INTERPRETED``, no
    ``PARTYSOLVER_NATIVE=0``, and no numba setting but the cache's folder
    (``NUMBA_DISABLE_JIT``, ``NUMBA_BOUNDSCHECK``, ``NUMBA_CPU_NAME`` and the like go through
    numba)."""
    if compiled.forced_interpreted() or os.environ.get(NATIVE) == "0":
        return False
    return not any(name.startswith("NUMBA_") and name != "NUMBA_CACHE_DIR"
                   for name in os.environ)


_KEEP: list[Any] = []
"""The stand-ins' ctypes callbacks and the engines, alive as long as the process."""


class ObjectFile:
    """One kernel's entry point as an object file beside numba's cache: where it lives, what
    its description must hold, writing it and loading it.  The game's module declares one and
    gives it what is its own: the ``numba.cfunc`` to compile and the ctypes call to make."""

    def __init__(self, kernel: compiled.Kernel, file: str, name: str, module: str,
                 source: str, helpers: bool = False) -> None:
        self.kernel = kernel
        """The kernel the entry point belongs to (its readiness stamp, its cache's folder)."""
        self.file = file
        """The object's name: ``partysolver-native.FILE.o`` and its ``.json`` description."""
        self.name = name
        """The entry point's name in the description."""
        self.module = module
        """The game's module (``python -m`` runs its background build)."""
        self.source = source
        """The game's module's file (its size and time are in the description)."""
        self.helpers = helpers
        """Whether the code draws from numba's random generator (its C helpers given)."""
        self.loaded = False
        """Whether this process has loaded the entry point from its object already."""

    def folder(self) -> Path:
        """Where the object and its description live: beside numba's cache and the readiness
        marker (``NUMBA_CACHE_DIR``, else the kernel's ``__pycache__``)."""
        return compiled._marker(self.kernel).parent

    def artifact(self, where: Path | None = None) -> tuple[Path, Path]:
        """The object file and its description (JSON)."""
        base = (where or self.folder()) / f"partysolver-native.{self.file}"
        return base.with_name(f"{base.name}.o"), base.with_name(f"{base.name}.json")

    def stamp(self) -> dict[str, Any] | None:
        """What the description must hold to be loaded here (without importing numba): the
        kernel's readiness stamp, the size and time of the game's module and of this one, and
        the llvmlite version."""
        kernel = compiled._stamp(self.kernel)
        if kernel is None:
            return None
        try:
            here = Path(self.source).stat()
            shared = Path(__file__).stat()
            llvmlite = importlib.metadata.version("llvmlite")
        except (OSError, importlib.metadata.PackageNotFoundError):
            return None
        return {"kernel": kernel, "native": [here.st_mtime, here.st_size],
                "loader": [shared.st_mtime, shared.st_size], "llvmlite": llvmlite,
                "name": self.name}

    def available(self, where: Path | None = None) -> bool:
        """Whether an object for this source and these versions is there to load (read
        without importing llvmlite: :meth:`load` checks the processor, and may still say
        no)."""
        if not usable_environment():
            return False
        try:
            description = json.loads(self.artifact(where)[1].read_bytes())
        except (OSError, ValueError):
            return False
        return isinstance(description, dict) and description.get("stamp") == self.stamp()

    def description(self, where: Path | None = None) -> dict[str, Any] | None:
        """The object's description when it was made for this source, these versions and
        this processor (``None``: missing, unreadable or made for something else)."""
        try:
            description = json.loads(self.artifact(where)[1].read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(description, dict) or description.get("stamp") != self.stamp():
            return None
        try:
            if description.get("processor") != _processor():
                return None
        except ImportError:
            return None
        return description

    # -- writing -------------------------------------------------------------------------------

    def build(self, compile_entry: Callable[[], tuple[Any, dict[str, Any]]],
              where: Path | None = None, again: bool = False,
              written: Callable[[], None] | None = None) -> bool:
        """Compile the entry point behind its C signature (``compile_entry``: the game's
        ``numba.cfunc`` and what its description adds; the kernel itself from numba's cache,
        or compiled first) and write its machine code and description, unless they are there
        for this source and processor already (``again``: write them anyway); ``written`` is
        called once they are.  Whether they are there now (not when the source cannot be
        stamped, numba's code library is not as expected or the folder cannot be written)."""
        if not again and self.description(where) is not None:
            return True
        expected = self.stamp()
        if expected is None:
            return False
        wrapper, own = compile_entry()
        try:  # numba's code library (what its cache writes), not a public interface: any
            library = wrapper._library  # change and the kernel stays numba's to load
            library._ensure_finalized()
            module = library._final_module
            code = library._codegen._tm.emit_object(module)
        except (AttributeError, RuntimeError):
            return False
        needed = sorted({f.name for f in module.functions
                         if f.is_declaration and not f.name.startswith("llvm.")}
                        | {g.name for g in module.global_variables if g.is_declaration})
        symbol = wrapper.native_name.removeprefix("cfunc.")  # the function the wrapper calls
        if symbol == wrapper.native_name or module.get_function(symbol).is_declaration:
            return False
        description = {"stamp": expected, "processor": _processor(), "symbol": symbol,
                       "needs": needed, **own, "sha256": _digest(code)}
        obj, meta = self.artifact(where)
        try:
            obj.parent.mkdir(parents=True, exist_ok=True)
            for path, data in ((obj, code), (meta, json.dumps(description).encode())):
                partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
                partial.write_bytes(data)
                os.replace(partial, path)
        except OSError:
            return False
        if written is not None:
            written()
        return True

    def build_in_background(self) -> bool:
        """Start the game's build in a detached low-priority process (``python -m`` the
        game's module, which calls :func:`build_here`), once (a lock file beside the object,
        as a kernel's compile takes one); whether it started one.  For a numba cache from
        before the object: the hint that finds the kernel ready but no object to load."""
        if not usable_environment():
            return False
        obj, _ = self.artifact()
        lock = obj.with_name(obj.name.replace(".o", ".lock"))
        if not compiled._take(lock):
            return False
        try:
            import subprocess

            with lock.with_name(lock.name.replace(".lock", ".log")).open("wb") as log:
                subprocess.Popen([sys.executable, "-m", self.module, str(lock)],
                                 stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                 close_fds=True, start_new_session=True)
        except OSError:
            lock.unlink(missing_ok=True)
            return False
        return True

    # -- loading -------------------------------------------------------------------------------

    def load(self, where: Path | None,
             make: Callable[[int, dict[str, Any]], Made]) -> Made | None:
        """The entry point from the object file, as ``make`` (the game's) makes it from the
        function's address and the description, or ``None`` (no object, a stale one, another
        processor or environment, a symbol this process cannot give): then numba loads the
        kernel."""
        if not usable_environment():
            return None
        description = self.description(where)
        if description is None:
            return None
        try:
            code = self.artifact(where)[0].read_bytes()
            if _digest(code) != description.get("sha256"):
                return None  # (written by another process between our two reads)
            import llvmlite.binding as ll

            needs = [str(name) for name in description["needs"]]
            helpers = numba_helpers() if self.helpers else {}
            ll.initialize_native_target()
            ll.initialize_native_asmprinter()
            machine = ll.Target.from_default_triple().create_target_machine(
                codemodel="jitdefault", jit=True)
            engine = ll.create_mcjit_compiler(ll.parse_assembly(""), machine)  # (the
            _provide(ll, needs, helpers)                          # process's symbols: here)
            if any(not ll.address_of_symbol(name) for name in needs):
                return None  # the linker would stop the process on a missing symbol
            engine.add_object_file(ll.ObjectFileRef.from_data(code))
            engine.finalize_object()
            address = engine.get_function_address(str(description["symbol"]))
            if not address:
                return None
            _KEEP.append(engine)
            made = make(address, description)
        except (ImportError, OSError, RuntimeError, KeyError, TypeError, ValueError):
            return None
        self.loaded = True
        return made


def build_here(obj: ObjectFile, build: Callable[[], bool], argv: list[str]) -> int:
    """The background process of :meth:`ObjectFile.build_in_background` (the game's module
    run with ``python -m``, ``argv`` its arguments: the lock, if any): ``build`` at low
    priority, holding the lock (freed at the end, whatever happens)."""
    import contextlib

    lock = Path(argv[1]) if len(argv) > 1 else None
    if lock is not None:
        lock.write_text(f"{os.getpid()}\n")
    try:
        with contextlib.suppress(OSError):
            os.nice(10)
        print("wrote" if build() else "could not write", obj.artifact()[0])
        return 0
    finally:
        if lock is not None:
            lock.unlink(missing_ok=True)


def _processor() -> dict[str, str]:
    import llvmlite.binding as ll

    return {"cpu": ll.get_host_cpu_name(), "features": ll.get_host_cpu_features().flatten(),
            "triple": ll.get_process_triple()}


def _digest(code: bytes) -> str:
    import hashlib

    return hashlib.sha256(code).hexdigest()


def numba_helpers() -> dict[str, int]:
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


def _provide(ll: Any, needs: list[str], helpers: dict[str, int]) -> None:
    """Give the code the symbols numba would: Python's exception objects by identity (as numba
    names them), and, where numba has not given its own, its C ``helpers`` (its random
    generator among them) and the error path's stand-ins."""
    for name in needs:
        if name.startswith("PyExc_"):
            found = getattr(builtins, name[len("PyExc_"):], None)
            if isinstance(found, type) and issubclass(found, BaseException):
                ll.add_symbol(name, id(found))
        elif ll.address_of_symbol(name):
            continue
        elif name in helpers:
            ll.add_symbol(name, helpers[name])
        elif name in STAND_INS:
            def stand_in(*_: Any) -> None:
                raise NativeFailure("numba's error path reached")

            callback = ctypes.CFUNCTYPE(ctypes.c_void_p)(stand_in)
            _KEEP.append(callback)
            ll.add_symbol(name, ctypes.cast(callback, ctypes.c_void_p).value)
