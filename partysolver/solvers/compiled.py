"""Compiled kernels (numba) and their first run.

A function decorated ``@njit(cache=True)`` is compiled to machine code the first time it is
called and the code is kept in numba's cache (``__pycache__`` beside its module, or the folder
``NUMBA_CACHE_DIR`` names); later runs load it (a second or two) instead of compiling it again
(ten seconds or more of CPU for a search kernel).  :func:`needs_compile` tells, without
compiling or loading anything, whether calling a kernel now will compile it, and
:func:`before_compiling` turns that into a notice for the user
(:func:`partysolver.solvers.notices.notice`) just before the wait.

Whether the cache holds a kernel is read from its index file: numba's index for the function,
written by this numba version for the current source of its module.  (The index belongs to
numba's caching machinery, which is not a public interface: when it cannot be read,
:func:`ready` says it does not know and no notice is given.  ``tests/test_compiled.py`` checks
the answer against a real compile.)  A cache copied from a machine with another processor
holds no code for this one: numba compiles again, without a notice.
"""

from __future__ import annotations

from typing import Any

from .notices import notice


def ready(kernel: Any) -> bool | None:
    """Whether calling ``kernel`` (a numba dispatcher) now runs without compiling it: it was
    compiled or loaded in this process, or numba's cache holds it for its current source.
    ``None`` when that cannot be told (caching off, or numba's cache laid out otherwise)."""
    if getattr(kernel, "signatures", None):
        return True
    try:
        index = kernel._cache._cache_file._load_index()
    except Exception:  # no cache (cache=False), or a numba whose cache reads differently
        return None
    return bool(index)


def needs_compile(*kernels: Any) -> bool:
    """Whether calling one of ``kernels`` now will compile it (known to; see :func:`ready`)."""
    return any(ready(kernel) is False for kernel in kernels)


def before_compiling(what: str, seconds: float, *kernels: Any) -> bool:
    """Tell the user that ``what`` is about to be compiled, when one of ``kernels`` will be:
    ``compiling WHAT, first run only (about SECONDS s on an idle machine)``.  ``seconds`` is
    the CPU time the compile takes, measured once (the wall-clock time on an idle machine; a
    busy one takes longer).  Returns whether it told."""
    if not needs_compile(*kernels):
        return False
    notice(compile_notice(what, seconds))
    return True


def compile_notice(what: str, seconds: float) -> str:
    """The one line that says ``what`` is about to be compiled (every kernel says it so, and
    the same words twice are told once)."""
    return f"compiling {what}, first run only (about {seconds:g} s on an idle machine)"
