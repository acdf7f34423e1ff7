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

    @property
    def notice(self) -> str:
        """The one line told before it compiles (:func:`compile_notice`)."""
        return compile_notice(self.what, self.seconds)


MEEPLE_PARTY_TURN = Kernel(
    "meeple-party-turn", "partysolver.solvers.meeple_party.kernel", ("walk",),
    "the Meeple Party turn search", 75)
"""The compiled Meeple Party turn search (measured: 75 to 79 s, import and one search
included).  ``end_value`` (for the tests) is left out: no search compiles it, so counting it
kept the kernel "not ready" after every real run."""
TEA_PARTY_SEARCH = Kernel(
    "tea-party-search", "partysolver.solvers.tea_party.kernel",
    ("_search", "_rehash", "_playouts"), "the Tea Party search", 8)
"""The compiled two-monster Tea Party search and playouts (measured: 7.5 s, since the kernel
runs without reference counting; 14 before)."""
PARTY_TIME_PLAYOUTS = Kernel(
    "party-time-playouts", "partysolver.solvers.party_time.playouts", ("_long_run",),
    "the Party-Time playouts", 12)
"""The Party-Time paired playouts the hint runs (measured: 11.5 s)."""
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
