"""stderr while a command works: notices, and on a terminal a line that says it is working.

A :class:`Screen` is the command's listener for :mod:`partysolver.solvers.notices`: a notice
is printed as one line on stderr (terminal or not: ``compiling the Tea Party search, first run
only ...``).  Inside :meth:`Screen.waiting`, when stderr is a terminal and the work takes
longer than a second, one line shows what runs and for how long, with the search's latest
status (its best answer so far) when it reports one; it is redrawn in place and cleared before
anything else is printed and when the work is done, so stdout (the answer) is never mixed
with it.  Off a terminal (a pipe, a file, a test) there is no such line.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

SPINNER = "|/-\\"


class Screen:
    """Notices, status and the working line of one command, on ``stream`` (stderr)."""

    def __init__(self, stream: TextIO | None = None, terminal: bool | None = None,
                 delay: float = 1.0, every: float = 0.1) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = _is_terminal(self.stream) if terminal is None else terminal
        self.delay = delay
        self.every = every
        self.latest = ""
        self._lock = threading.Lock()
        self._drawn = False

    def notice(self, text: str) -> None:
        with self._lock:
            self._clear()
            print(text, file=self.stream, flush=True)

    def status(self, text: str) -> None:
        self.latest = text

    @contextmanager
    def waiting(self, label: str) -> Iterator[None]:
        """While the block runs: after ``delay`` seconds, ``LABEL: 3 s | STATUS`` on a
        terminal, redrawn every ``every`` seconds; cleared at the end."""
        if not self.terminal:
            yield
            return
        done = threading.Event()
        start = time.monotonic()
        drawer = threading.Thread(target=self._draw_until, args=(label, start, done),
                                  daemon=True)
        drawer.start()
        try:
            yield
        finally:
            done.set()
            drawer.join()
            with self._lock:
                self._clear()
            self.latest = ""

    def line(self, label: str, seconds: float, turn: int) -> str:
        text = f"{SPINNER[turn % len(SPINNER)]} {label}: {seconds:.0f} s"
        return f"{text}  {self.latest}" if self.latest else text

    def _draw_until(self, label: str, start: float, done: threading.Event) -> None:
        if done.wait(self.delay):
            return
        turn = 0
        while not done.is_set():
            with self._lock:
                if not done.is_set():
                    print(f"\r{self.line(label, time.monotonic() - start, turn)}\x1b[K",
                          end="", file=self.stream, flush=True)
                    self._drawn = True
            turn += 1
            done.wait(self.every)

    def _clear(self) -> None:
        if self._drawn:
            print("\r\x1b[K", end="", file=self.stream, flush=True)
            self._drawn = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
