"""What a long wait is, told while it lasts: notices and the best answer so far.

A search that is about to make the user wait in silence (compiling a kernel on its first run,
a long exact search) says so with :func:`notice` ("compiling the Tea Party search, first run
only ..."); a search that improves an answer as it goes reports its latest state with
:func:`status` ("best 31 points, bound 34, 12 s").  Neither knows who listens: a front end
installs its listener for the duration of a command with :func:`listening` (the command line
prints a notice as one line on stderr and shows the status beside its elapsed time on a
terminal); without one, both do nothing, so library use and tests stay quiet.

The listener lives in a context variable, as :func:`partysolver.app.text.width` does: each
thread (and each worker process) starts without one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Listener:
    """Where notices and status lines go (each notice once)."""

    notice: Callable[[str], None]
    status: Callable[[str], None] | None = None
    told: set[str] = field(default_factory=set)


_LISTENER: ContextVar[Listener | None] = ContextVar("partysolver_listener", default=None)


@contextmanager
def listening(notice: Callable[[str], None],
              status: Callable[[str], None] | None = None) -> Iterator[Listener]:
    """Send the notices (and status lines) of whatever runs inside to these callbacks."""
    listener = Listener(notice, status)
    token = _LISTENER.set(listener)
    try:
        yield listener
    finally:
        _LISTENER.reset(token)


def notice(text: str) -> None:
    """Tell the user why the answer will take a while (one line, no newline); the same text
    again is not repeated."""
    listener = _LISTENER.get()
    if listener is not None and text not in listener.told:
        listener.told.add(text)
        listener.notice(text)


def counting(total: int, noun: str) -> Callable[[int], None]:
    """A ``progress(k)`` callback (``k`` more done, as :func:`~.simulate.simulate` calls it)
    that reports ``DONE of TOTAL NOUN`` as the status."""
    done = 0

    def progress(more: int) -> None:
        nonlocal done
        done += more
        status(f"{done} of {total} {noun}")

    return progress


def status(text: str) -> None:
    """The search's latest state (the best answer so far): each replaces the one before."""
    listener = _LISTENER.get()
    if listener is not None and listener.status is not None:
        listener.status(text)


def status_reporter() -> Callable[[str], None]:
    """:func:`status` bound to this thread's listener, for a search that reports from threads
    of its own (CP-SAT's workers start without the caller's context)."""
    listener = _LISTENER.get()
    if listener is None or listener.status is None:
        return lambda text: None
    return listener.status
