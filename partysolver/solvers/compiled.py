"""Every compiled kernel (numba) of the project, and whether one is ready to run.

A function decorated ``@njit(cache=True)`` is compiled to machine code the first time it is
called and the code is kept in numba's cache (``__pycache__`` beside its module, or the folder
``NUMBA_CACHE_DIR`` names); later runs load it (a second or so) instead of compiling it again
(ten seconds or more of CPU for a search kernel).  This module declares each such kernel once
(:data:`KERNELS`: its module, the entry points its callers run, what the user is told and how
long it compiles), and :func:`ready` is the one answer to "will running it now compile it?",
asked without importing numba or the kernel.  :func:`before_compiling` turns that answer into a
notice for the user (:func:`partysolver.solvers.notices.notice`) just before the wait.

A kernel is ready when its entry points have run in this process (each numba dispatcher lists
the ``signatures`` it has compiled or loaded, a public attribute), or when this project's own
*marker* says they ran in an earlier process against the same source: a small JSON file written
beside numba's cache (the same folder, so that clearing the cache clears it) once the entry
points have run, holding the source's path, modification time and size (the stamp numba's own
cache is checked against), the numba version and the Python version.  Nothing of numba's cache
machinery, which is not a public interface, is read.  A marker that cannot be written (a
read-only folder) leaves the kernel "not ready": the user is told it compiles when it may only
load.  A cache copied from a machine with another processor holds no code for this one: numba
compiles again, without a notice.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.metadata
import importlib.util
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .notices import notice


@dataclass(frozen=True, slots=True)
class Kernel:
    """A module of compiled functions, as its callers run it."""

    key: str
    """The kernel's name in markers and tests (unique)."""
    module: str
    """The module that holds the compiled functions (importing it imports numba)."""
    entry_points: tuple[str, ...]
    """The compiled functions the callers run (each compiles, with what it calls, on its first
    call): the kernel is ready when every one of them is."""
    what: str
    """What the compile notice names: ``compiling WHAT, first run only (...)``."""
    seconds: float
    """CPU seconds the first run's compile takes, measured once (the notice states it)."""
    warm: str = ""
    """``module:function`` that compiles (or loads) the kernel when called with no argument:
    what :func:`compile_in_background` runs in its own process (empty: none)."""

    @property
    def notice(self) -> str:
        """The one line told before it compiles (:func:`compile_notice`)."""
        return compile_notice(self.what, self.seconds)


MEEPLE_PARTY_TURN = Kernel(
    "meeple-party-turn", "partysolver.solvers.meeple_party.kernel", ("walk",),
    "the Meeple Party turn search", 75, "partysolver.solvers.meeple_party.turn:warm_up")
"""The compiled Meeple Party turn search (measured: 75 to 79 s, import and one search
included).  ``end_value`` (for the tests) is left out: no search compiles it, so counting it
kept the kernel "not ready" after every real run."""
TEA_PARTY_SEARCH = Kernel(
    "tea-party-search", "partysolver.solvers.tea_party.kernel",
    ("_search", "_rehash", "_playouts"), "the Tea Party search", 8,
    "partysolver.solvers.tea_party.native:warm_up")
"""The compiled two-monster Tea Party search and playouts (measured: 7.5 s, since the kernel
runs without reference counting; 14 before).  Its warm-up also writes the playouts' object,
loaded without numba (``tea_party/native.py``: some 0.8 s more)."""
PARTY_TIME_PLAYOUTS = Kernel(
    "party-time-playouts", "partysolver.solvers.party_time.playouts", ("_long_run",),
    "the Party-Time playouts", 9, "partysolver.solvers.party_time.playouts:warm_kernel")
"""The Party-Time paired playouts the hint runs (measured: 8.1 to 8.8 s of CPU in the background
compiles of issue 30, 11.5 s before); until they are ready a hint runs them interpreted
(``party_time/interpreted.py``) and starts this compile."""
PARTY_TIME_GAMES = Kernel(
    "party-time-games", "partysolver.solvers.party_time.playouts", ("_games",),
    "the Party-Time playouts", 12)
"""The Party-Time whole games from the set-up (the benchmarks' baseline)."""

KERNELS = (MEEPLE_PARTY_TURN, TEA_PARTY_SEARCH, PARTY_TIME_PLAYOUTS, PARTY_TIME_GAMES)
"""Every compiled kernel of the project (``tests/test_compiled.py`` checks that every module
with a ``cache=True`` function is one of theirs)."""


def ready(kernel: Kernel) -> bool:
    """Whether running ``kernel``'s entry points now runs without compiling them: they ran in
    this process (:func:`loaded`), or the project's marker says they ran against this source
    with this numba and Python (see the module docstring).  Imports neither numba nor the
    kernel.  Once loaded, it writes the marker if it is missing or stale."""
    if loaded(kernel):
        _mark(kernel)
        return True
    stamp = _stamp(kernel)
    if stamp is None:
        return False
    try:
        return bool(json.loads(_marker(kernel).read_text()) == stamp)
    except (OSError, ValueError):
        return False


def loaded(kernel: Kernel) -> bool:
    """Whether every entry point of ``kernel`` has run in this process (compiled or loaded
    from numba's cache): the dispatchers' ``signatures`` are not empty.  Without importing
    the kernel."""
    module = sys.modules.get(kernel.module)
    if module is None:
        return False
    return all(bool(getattr(getattr(module, name, None), "signatures", None))
               for name in kernel.entry_points)


def needs_compile(*kernels: Kernel) -> bool:
    """Whether running one of ``kernels`` now will compile it (:func:`ready`)."""
    return any(not ready(kernel) for kernel in kernels)


def before_compiling(*kernels: Kernel) -> bool:
    """Tell the user that a kernel is about to be compiled, when one of ``kernels`` will be
    (its :attr:`Kernel.notice`).  Returns whether it told."""
    for kernel in kernels:
        if not ready(kernel):
            notice(kernel.notice)
            return True
    return False


INTERPRETED = "PARTYSOLVER_INTERPRETED"
"""An environment variable: set (to anything but ``0`` or nothing), the searches that have an
interpreted path take it, and no compile is started (tests compare the two paths with it)."""


def forced_interpreted() -> bool:
    """Whether :data:`INTERPRETED` asks for the interpreted searches."""
    return os.environ.get(INTERPRETED, "") not in ("", "0")


def compile_in_background(kernel: Kernel) -> bool:
    """Start compiling ``kernel`` in a detached process of its own (``python -m
    partysolver.solvers.compiled KEY``, at low priority), so that a search with an interpreted
    path answers now and a later one finds it ready; tell the user once (:func:`notice`).
    Nothing is started when it is ready, when another process compiles it already (a lock file
    beside the marker, given up when its process is gone or after an hour), when
    :data:`INTERPRETED` is set or the kernel says no way to warm it.  Whether it started one."""
    if not kernel.warm or forced_interpreted() or ready(kernel):
        return False
    lock = _lock(kernel)
    if not _take(lock):
        return False
    try:
        log = lock.with_suffix(".log").open("wb")
        import subprocess

        subprocess.Popen([sys.executable, "-m", __name__, json.dumps(_declared(kernel)),
                          str(lock)],
                         stdin=subprocess.DEVNULL, stdout=log, stderr=log, close_fds=True,
                         start_new_session=True)
        log.close()
    except OSError:
        lock.unlink(missing_ok=True)
        return False
    notice(f"compiling {kernel.what} in the background, first run only (about "
           f"{kernel.seconds:g} s of CPU on an idle machine); until it is ready the answers "
           "are the interpreted search's (the same ranking)")
    return True


def compiling(kernel: Kernel) -> bool:
    """Whether a process compiles ``kernel`` now (its lock file is held)."""
    lock = _lock(kernel)
    return lock.exists() and not _stale(lock)


def _lock(kernel: Kernel) -> Path:
    return _marker(kernel).with_name(f"partysolver-compiling.{kernel.key}.lock")


LOCK_HOURS = 1.0
"""A compile's lock older than this is given up (its process was killed, or hangs)."""


def _stale(lock: Path) -> bool:
    import time

    try:
        pid = int(lock.read_text().split()[0])
        age = time.time() - lock.stat().st_mtime
    except (OSError, ValueError, IndexError):
        return True
    if age > LOCK_HOURS * 3600:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass
    return False


def _take(lock: Path) -> bool:
    """Create ``lock`` (holding this process's id, the child's once it runs), unless another
    process holds it; a stale lock is taken over."""
    for _ in range(2):
        try:
            lock.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if not _stale(lock):
                return False
            lock.unlink(missing_ok=True)
            continue
        except OSError:
            return False
        with os.fdopen(handle, "w") as out:
            out.write(f"{os.getpid()}\n")
        return True
    return False


def _declared(kernel: Kernel) -> dict[str, object]:
    return {"key": kernel.key, "module": kernel.module, "entry_points": kernel.entry_points,
            "what": kernel.what, "seconds": kernel.seconds, "warm": kernel.warm}


def _compile_here(declared: str, lock: Path | None) -> int:
    """The background process: compile the kernel ``declared`` (its fields as JSON) by its
    :attr:`Kernel.warm`, holding ``lock`` (freed at the end, whatever happens), and mark it
    ready."""
    import importlib
    import time

    if lock is not None:
        lock.write_text(f"{os.getpid()}\n")
    try:
        with contextlib.suppress(OSError):
            os.nice(10)  # the user's commands first
        fields = json.loads(declared)
        kernel = Kernel(**fields | {"entry_points": tuple(fields["entry_points"])})
        start = time.process_time()
        module, name = kernel.warm.split(":")
        getattr(importlib.import_module(module), name)()
        _mark(kernel)
        print(f"{kernel.what} compiled ({time.process_time() - start:.1f} s of CPU)")
        return 0
    finally:
        if lock is not None:
            lock.unlink(missing_ok=True)


def compile_notice(what: str, seconds: float) -> str:
    """The one line that says ``what`` is about to be compiled (every kernel says it so, and
    the same words twice are told once).  ``seconds`` is the CPU time the compile takes,
    measured once (the wall-clock time on an idle machine; a busy one takes longer)."""
    return f"compiling {what}, first run only (about {seconds:g} s on an idle machine)"


# -- the marker -----------------------------------------------------------------------------------


def _source(kernel: Kernel) -> Path | None:
    """The kernel's source file, found without importing it."""
    try:
        spec = importlib.util.find_spec(kernel.module)
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin)


def _marker(kernel: Kernel) -> Path:
    """Where the marker lives: with numba's cache (``NUMBA_CACHE_DIR``, else ``__pycache__``
    beside the source)."""
    folder = os.environ.get("NUMBA_CACHE_DIR")
    if not folder:
        source = _source(kernel)
        folder = str(source.parent / "__pycache__") if source is not None else "."
    return Path(folder) / f"partysolver-ready.{kernel.key}.json"


def _stamp(kernel: Kernel) -> dict[str, object] | None:
    """What the marker must hold for ``kernel`` to be ready: its source's path, modification
    time and size, the numba version and the Python version."""
    source = _source(kernel)
    if source is None:
        return None
    try:
        stat = source.stat()
        numba = importlib.metadata.version("numba")
    except (OSError, importlib.metadata.PackageNotFoundError):
        return None
    return {"source": str(source.resolve()), "mtime": stat.st_mtime, "size": stat.st_size,
            "numba": numba, "python": list(sys.version_info[:2]),
            "entry_points": list(kernel.entry_points)}


def _mark(kernel: Kernel) -> None:
    """Write ``kernel``'s marker, if it is missing or stale (atomically: another process may
    write it too); a folder that cannot be written leaves it unwritten."""
    stamp = _stamp(kernel)
    if stamp is None:
        return
    path = _marker(kernel)
    try:
        if json.loads(path.read_text()) == stamp:
            return
    except (OSError, ValueError):
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(stamp))
        os.replace(partial, path)
    except OSError:
        pass


def _mark_loaded() -> None:
    """At exit: mark every kernel that ran in this process (a caller need not)."""
    for kernel in KERNELS:
        if loaded(kernel):
            _mark(kernel)


atexit.register(_mark_loaded)


def compile_all() -> int:
    """Compile every kernel that says how (:attr:`Kernel.warm`) and is not ready, one after
    another, each under its lock; a kernel another process compiles is waited for, not compiled
    twice (``python -m partysolver.solvers.compiled --all``, what ``make run`` leaves running
    after its answer)."""
    import time

    for kernel in KERNELS:
        if not kernel.warm or ready(kernel):
            continue
        lock = _lock(kernel)
        while not _take(lock):
            time.sleep(1.0)
            if ready(kernel):
                break
        else:
            _compile_here(json.dumps(_declared(kernel)), lock)
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--all"]:
        sys.exit(compile_all())
    sys.exit(_compile_here(sys.argv[1], Path(sys.argv[2]) if len(sys.argv) > 2 else None))
