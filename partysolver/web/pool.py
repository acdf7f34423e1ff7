"""A bounded pool of worker processes for solver work, with a hard time limit per job and
cancellation.

Each worker is a long-lived process (started from a forkserver that has imported the app layer
once, so a replacement starts in a fraction of a second) serving one job at a time over a
pipe.  A job that runs past its deadline, or whose client went away, is stopped by *killing its
worker*: a solver deep in a search (numba, CP-SAT) cannot be interrupted politely, and a killed
process gives back every byte and every core at once.  The slot then gets a fresh worker.

Admission is bounded: at most ``workers`` jobs run and ``queue`` wait; a job beyond that, or
one that waits longer than its own time limit for a worker, is refused with :class:`Busy` (the
web layer answers 503 with ``Retry-After``).  Nothing here knows about HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from . import jobs

GRACE = 5.0
"""Seconds a job may run past its time limit (the solver's own budget) before it is killed:
loading, writing the report and the solver's last iteration take a moment."""


class Busy(Exception):
    """The pool is full (or no worker came free in time): try again after ``retry_after``."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TimedOut(Exception):
    """A job ran past its hard deadline and its worker was killed."""


class Cancelled(Exception):
    """A job was cancelled (its client went away) and its worker was killed."""


class WorkerDied(Exception):
    """A worker process ended without answering (out of memory, a crash in native code)."""


def _serve(conn: Connection) -> None:
    """The worker's loop: one job in, one answer out, until the pipe closes."""
    while True:
        try:
            kind, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(jobs.run_job(kind, args))


@dataclass(eq=False)
class Worker:
    """One worker process and the server's end of its pipe."""

    process: multiprocessing.process.BaseProcess
    conn: Connection
    jobs_done: int = 0

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.conn.close()


@dataclass
class Stats:
    """What the pool has done since it started (served at ``/api/status``)."""

    started: int = 0
    finished: int = 0
    refused: int = 0
    timed_out: int = 0
    cancelled: int = 0
    died: int = 0
    restarts: int = 0
    waiting: int = 0
    running: int = 0
    recent: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items() if key != "recent"} | {
            "recent": list(self.recent)}


class WorkerPool:
    """``workers`` worker processes; at most ``queue`` jobs (default: four per worker) wait for
    one."""

    def __init__(self, workers: int = 2, queue: int | None = None,
                 start_method: str = "forkserver", grace: float = GRACE) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = workers
        self.grace = grace
        self.queue = 4 * workers if queue is None else queue
        self.context: Any = multiprocessing.get_context(start_method)
        if start_method == "forkserver":
            self.context.set_forkserver_preload(["partysolver.web.preload"])
        self.stats = Stats()
        self._idle: asyncio.Queue[Worker] | None = None
        self._threads = ThreadPoolExecutor(max_workers=workers + 2,
                                           thread_name_prefix="partysolver-pool")
        self._all: set[Worker] = set()
        self._lock = threading.Lock()
        self._closed = False

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start every worker (in threads: starting a process blocks)."""
        self._idle = asyncio.Queue()
        loop = asyncio.get_running_loop()
        started = await asyncio.gather(*(loop.run_in_executor(self._threads, self._spawn)
                                         for _ in range(self.size)))
        for worker in started:
            self._idle.put_nowait(worker)

    def _spawn(self) -> Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(target=_serve, args=(theirs,), daemon=True,
                                       name="partysolver-worker")
        process.start()
        theirs.close()
        worker = Worker(process, ours)
        with self._lock:
            self._all.add(worker)
        return worker

    async def close(self) -> None:
        self._closed = True
        with self._lock:
            workers = list(self._all)
            self._all.clear()
        for worker in workers:
            worker.kill()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        with self._lock:
            return sorted(w.pid for w in self._all if w.pid is not None)

    def status(self) -> dict[str, Any]:
        idle = self._idle.qsize() if self._idle is not None else 0
        return {"workers": self.size, "queue": self.queue, "idle": idle,
                "pids": self.pids()} | self.stats.as_json()

    # -- running a job --------------------------------------------------------------------------

    async def run(self, kind: str, args: dict[str, Any], limit: float,
                  on_start: Callable[[], None] | None = None) -> Any:
        """The answer of job ``kind`` (see :mod:`jobs`), run within ``limit`` seconds plus
        :data:`GRACE`; cancelling the awaiting task kills the job's worker."""
        assert self._idle is not None, "start the pool first"
        if self.stats.running + self.stats.waiting >= self.size + self.queue:
            self.stats.refused += 1
            raise Busy(f"all {self.size} workers are busy and {self.queue} jobs wait; "
                       "try again shortly", self._retry_after())
        self.stats.waiting += 1
        try:
            worker = await asyncio.wait_for(self._idle.get(), timeout=limit)
        except TimeoutError:
            self.stats.refused += 1
            raise Busy(f"no worker came free within {limit:g} s; try again shortly",
                       self._retry_after()) from None
        finally:
            self.stats.waiting -= 1
        self.stats.running += 1
        self.stats.started += 1
        began = time.monotonic()
        outcome = "finished"
        try:
            if on_start is not None:
                on_start()
            return await self._exchange(worker, kind, args, limit)
        except TimedOut:
            outcome = "timed out"
            self.stats.timed_out += 1
            raise
        except asyncio.CancelledError:
            outcome = "cancelled"
            self.stats.cancelled += 1
            raise
        except WorkerDied:
            outcome = "died"
            self.stats.died += 1
            raise
        finally:
            self.stats.running -= 1
            self._remember(kind, outcome, time.monotonic() - began, worker.pid)
            if outcome == "finished":
                self.stats.finished += 1
                worker.jobs_done += 1
                self._idle.put_nowait(worker)
            else:
                self._replace(worker)

    async def _exchange(self, worker: Worker, kind: str, args: dict[str, Any],
                        limit: float) -> Any:
        loop = asyncio.get_running_loop()

        def talk() -> tuple[bool, Any]:
            # A killed worker ends the blocked recv with EOFError: caught here, so that an
            # abandoned thread never leaves an unretrieved exception behind.
            try:
                worker.conn.send((kind, args))
                return True, worker.conn.recv()
            except (EOFError, OSError) as error:
                return False, error

        future = loop.run_in_executor(self._threads, talk)
        try:
            answered, answer = await asyncio.wait_for(future, timeout=limit + self.grace)
        except TimeoutError:
            raise TimedOut(f"the job passed its time limit ({limit:g} s) and was stopped"
                           ) from None
        if not answered:
            with contextlib.suppress(Exception):
                worker.process.join(1)
            raise WorkerDied(f"the worker stopped without an answer (exit code "
                             f"{worker.process.exitcode})")
        return answer

    def _replace(self, worker: Worker) -> None:
        """Kill ``worker`` (its job is abandoned) and start another in its slot."""
        worker.kill()
        with self._lock:
            self._all.discard(worker)
        if self._closed:
            return
        self.stats.restarts += 1
        loop = asyncio.get_running_loop()
        idle = self._idle
        assert idle is not None

        def started(future: asyncio.Future[Worker]) -> None:
            if future.exception() is None and not self._closed:
                idle.put_nowait(future.result())

        future = loop.run_in_executor(self._threads, self._spawn)
        future.add_done_callback(started)

    def _retry_after(self) -> int:
        return max(1, min(10, self.stats.running + self.stats.waiting))

    def _remember(self, kind: str, outcome: str, seconds: float, pid: int | None) -> None:
        self.stats.recent.append({"job": kind, "outcome": outcome,
                                  "seconds": round(seconds, 3), "pid": pid})
        del self.stats.recent[:-20]


def default_workers() -> int:
    """One worker per core, at most four (each holds its own solver caches)."""
    return max(1, min(4, os.cpu_count() or 1))
