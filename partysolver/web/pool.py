"""A bounded pool of worker processes for solver work, with a hard time limit per job and
cancellation.

Each worker is a long-lived process (started from a forkserver that has imported the app layer
once, so a replacement starts in a fraction of a second) serving one job at a time over a
pipe.  A job that runs past its deadline, or whose client went away, is stopped by *killing its
worker*: a solver deep in a search (numba, CP-SAT) cannot be interrupted politely, and a killed
process gives back every byte and every core at once.  The slot then gets a fresh worker.

Admission tells the truth (issue 29, item 2): the pool measures how long each kind of job
takes (:meth:`WorkerPool.expected`) and so knows how long a job arriving now would wait for a
worker (:meth:`WorkerPool.expected_wait`: the jobs running end, the jobs waiting take their
turns).  A job whose wait fits its time limit waits its turn; one whose wait does not, or that
finds ``queue`` jobs waiting already, is refused at once with :class:`Busy` and the expected
wait as its ``retry_after`` (the web layer answers 503 with ``Retry-After``).  A job that
waits past its time limit all the same (the estimate was short) is refused then.  Nothing here
knows about HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from . import jobs

DEFAULT_SECONDS = 1.0
"""What a job of a kind never measured is expected to take (its time limit when shorter)."""

QUEUE_PER_WORKER = 16
"""The most jobs that wait, per worker: a bound on the server's memory.  What a request waits
is bounded by its time limit (a wait longer than that is refused at once), so the queue may be
long where the jobs are short."""

LEARNING = 0.3
"""The weight of a job's latest duration in its kind's expected duration (a moving average)."""

CALIBRATION = 0.1
"""How far one job's end moves the correction of the expected waits towards what the real
waits of the refusals it settles were (their median, against the waits told)."""

GRACE = 5.0
"""Seconds a job may run past its time limit (the solver's own budget) before it is killed:
loading, writing the report and the solver's last iteration take a moment."""


class Busy(Exception):
    """The pool is full (or no worker came free in time): try again after ``retry_after``."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Stopping(Busy):
    """The server is stopping (Ctrl+C): a job running is stopped, and no other starts."""

    def __init__(self) -> None:
        super().__init__("the server is stopping: its jobs were stopped; try again once it "
                         "is back", 10)


class TimedOut(Exception):
    """A job ran past its hard deadline and its worker was killed."""


class Cancelled(Exception):
    """A job was cancelled (its client went away) and its worker was killed."""


class WorkerDied(Exception):
    """A worker process ended without answering (out of memory, a crash in native code)."""


def _serve(conn: Connection) -> None:
    """The worker's loop: one job in, one answer out, until the pipe closes.

    A worker ignores SIGINT: Ctrl+C in a terminal signals the whole process group, and the
    server alone decides what happens to a worker (:meth:`WorkerPool.close` ends each one), so
    a worker never dies in the middle of a job with a ``KeyboardInterrupt`` traceback (one
    forked by the forkserver ignores it from its start, see :meth:`WorkerPool.start`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            kind, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(jobs.run_job(kind, args))


def _start_forkserver() -> None:
    """Start the forkserver (once per process) with SIGINT ignored, which it and every worker
    it forks inherit: a Ctrl+C while it imports the app layer (seconds, before it ignores
    SIGINT itself) would end it with a traceback, and the pool's start with it.  The server's
    main thread ignores Ctrl+C only while the process starts (a fork and an exec: a Ctrl+C
    in those milliseconds is lost; blocking it instead does not last, the exec's fork
    unblocks every signal)."""
    from multiprocessing import forkserver

    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()  # a test client's thread: no signal to guard against
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


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
    refusals: list[dict[str, Any]] = field(default_factory=list)
    """The last refusals for the wait, each with the wait it told (``retry_after``, whole
    seconds; ``expected``, the estimate), the real one (``waited``: until as many jobs had left a
    worker as were ahead of it) and when it was (``at``, ``time.monotonic()``)."""

    def as_json(self) -> dict[str, Any]:
        return {key: value for key, value in self.__dict__.items()
                if key not in ("recent", "refusals")} | {
            "recent": list(self.recent), "refusals": list(self.refusals)}


class WorkerPool:
    """``workers`` worker processes; at most ``queue`` jobs (default: :data:`QUEUE_PER_WORKER`
    per worker) wait for one."""

    def __init__(self, workers: int = 2, queue: int | None = None,
                 start_method: str = "forkserver", grace: float = GRACE) -> None:
        if workers < 1:
            raise ValueError("a pool needs at least one worker")
        self.size = workers
        self.grace = grace
        self.queue = QUEUE_PER_WORKER * workers if queue is None else queue
        self.context: Any = multiprocessing.get_context(start_method)
        self.forkserver = start_method == "forkserver"
        if self.forkserver:
            self.context.set_forkserver_preload(["partysolver.web.preload"])
        self.stats = Stats()
        self._idle: asyncio.Queue[Worker] | None = None
        self._threads = ThreadPoolExecutor(max_workers=workers + 2,
                                           thread_name_prefix="partysolver-pool")
        self._all: set[Worker] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._seconds: dict[str, float] = {}  # the expected duration of each kind of job
        self._queued: list[float] = []  # the expected durations of the jobs waiting, in order
        self._running: dict[int, tuple[float, float, float]] = {}  # began, expected, deadline
        self._ends = 0  # jobs that have left a worker
        self._told: list[tuple[float, int, int, float]] = []  # when, retry after, ends due, wait
        self._calibration = 1.0  # the real waits over the ones expected

    # -- life cycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start every worker (in threads: starting a process blocks)."""
        self._idle = asyncio.Queue()
        self._stopping = asyncio.Event()
        loop = self._loop = asyncio.get_running_loop()
        if self.forkserver:
            _start_forkserver()
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

    def stop_soon(self) -> None:
        """Stop every job now and start no other (safe from a signal handler or another
        thread): the server calls it on Ctrl+C, so that a running job answers at once
        (:class:`Stopping`, 503) instead of holding the shutdown until its time limit."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop)

    def _stop(self) -> None:
        self._closed = True
        if self._stopping is not None:
            self._stopping.set()
        with self._lock:
            workers = list(self._all)
        for worker in workers:  # a job's blocked exchange then ends (see _exchange)
            worker.kill()

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
                "pids": self.pids(), "calibration": round(self._calibration, 3)
                } | self.stats.as_json()

    # -- running a job --------------------------------------------------------------------------

    async def run(self, kind: str, args: dict[str, Any], limit: float,
                  on_start: Callable[[], None] | None = None) -> Any:
        """The answer of job ``kind`` (see :mod:`jobs`), run within ``limit`` seconds plus
        :data:`GRACE`; cancelling the awaiting task kills the job's worker."""
        assert self._idle is not None, "start the pool first"
        if self._closed:
            raise Stopping()
        wait = self.expected_wait()
        if self.stats.running + self.stats.waiting >= self.size + self.queue:
            raise self._refuse(f"all {self.size} workers are busy and {self.queue} jobs wait; "
                               f"the wait is about {wait:.1f} s", wait)
        if wait > limit:
            raise self._refuse(f"the wait for a worker is about {wait:.1f} s, longer than the "
                               f"request's time limit ({limit:g} s)", wait)
        expected = self.expected(kind, args, limit)
        self.stats.waiting += 1
        self._queued.append(expected)
        try:
            worker = await self._next_worker(limit)
        finally:
            self.stats.waiting -= 1
            self._queued.remove(expected)
        self.stats.running += 1
        self.stats.started += 1
        began = time.monotonic()
        self._running[id(worker)] = (began, expected, began + limit + self.grace)
        outcome = "finished"
        try:
            if on_start is not None:
                on_start()
            return await self._exchange(worker, kind, args, limit)
        except Stopping:
            outcome = "stopped"
            raise
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
            self._running.pop(id(worker), None)
            self._ended(kind, args, outcome, time.monotonic() - began, limit)
            self._remember(kind, outcome, time.monotonic() - began, worker.pid)
            if outcome == "finished":
                self.stats.finished += 1
                worker.jobs_done += 1
                self._idle.put_nowait(worker)
            else:
                self._replace(worker)

    async def _next_worker(self, limit: float) -> Worker:
        """The next idle worker, within ``limit`` seconds (else :class:`Busy`), unless the
        pool stops first (:class:`Stopping`)."""
        assert self._idle is not None and self._stopping is not None
        taken = asyncio.ensure_future(self._idle.get())
        stopped = asyncio.ensure_future(self._stopping.wait())
        try:
            await asyncio.wait({taken, stopped}, timeout=limit,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
            if not taken.done():
                taken.cancel()
        if taken.done() and not taken.cancelled():
            return taken.result()
        if self._closed:
            raise Stopping()
        raise self._refuse(f"no worker came free within {limit:g} s (the wait was longer "
                           "than expected)", self.expected_wait())

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
            if self._closed:
                raise Stopping()
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

    # -- the expected wait -----------------------------------------------------------------------

    @staticmethod
    def kind_of(kind: str, args: dict[str, Any]) -> str:
        """The kind of a job whose durations are alike: its job, game and verb."""
        return f"{kind} {args.get('game', '')} {args.get('verb', '')}".strip()

    def expected(self, kind: str, args: dict[str, Any], limit: float) -> float:
        """The seconds a job is expected to take: its kind's measured durations (a moving
        average), else their mean over every kind, else :data:`DEFAULT_SECONDS`; never more
        than its time limit and the grace (it is stopped then)."""
        known = self._seconds.get(self.kind_of(kind, args))
        if known is None:
            known = (sum(self._seconds.values()) / len(self._seconds) if self._seconds
                     else DEFAULT_SECONDS)
        return min(known, limit + self.grace)

    def expected_wait(self) -> float:
        """The seconds a job arriving now would wait for a worker: the workers come free as
        the jobs running end (each as its kind is expected to, and no later than its
        deadline), and take the jobs waiting in their order, each for its expected time; times
        how far off the waits told before were (a moving average, learnt in :meth:`_ended`)."""
        now = time.monotonic()
        free = []
        for began, expected, deadline in self._running.values():
            left = expected - (now - began)
            if left <= 0:  # past its expected time: it ends soon, or at its deadline
                left = min(expected, deadline - now) / 2
            free.append(max(0.0, min(left, deadline - now)))
        free += [0.0] * max(0, self.size - len(free))
        free.sort()
        for expected in self._queued:
            first = free.pop(0)
            free.append(first + expected)
            free.sort()
        return (free[0] if free else 0.0) * self._calibration

    def _refuse(self, why: str, wait: float) -> Busy:
        """A refusal (503) with ``Retry-After`` from the expected ``wait``; the real wait is
        measured for :attr:`Stats.refusals` (until as many jobs have left a worker as wait,
        plus one, once every worker is busy)."""
        self.stats.refused += 1
        retry = max(1, math.floor(wait + 0.5))  # whole seconds, as the header has them
        idle = self.size - self.stats.running
        due = self._ends + self.stats.waiting + 1 - max(0, idle)
        self._told.append((time.monotonic(), retry, due, wait))
        del self._told[:-100]
        return Busy(f"{why}; try again in {retry} s", retry)

    def _ended(self, kind: str, args: dict[str, Any], outcome: str, seconds: float,
               limit: float) -> None:
        """A job left its worker: learn its duration (a finished job's, or a stopped one's
        time limit and grace) and settle the refusals waiting for it."""
        if outcome in ("finished", "timed out"):
            name = self.kind_of(kind, args)
            seconds = seconds if outcome == "finished" else limit + self.grace
            known = self._seconds.get(name)
            self._seconds[name] = seconds if known is None else (
                LEARNING * seconds + (1 - LEARNING) * known)
        self._ends += 1
        now = time.monotonic()
        ratios = []
        for told in [t for t in self._told if t[2] <= self._ends]:
            self._told.remove(told)
            if told[3] > 0:
                ratios.append(min(4.0, max(0.25, (now - told[0]) / told[3])))
            self.stats.refusals.append({"at": round(told[0], 3), "retry_after": told[1],
                                        "expected": round(told[3], 3),
                                        "waited": round(now - told[0], 3)})
        del self.stats.refusals[:-200]
        if ratios:  # how far off the waits told were: a step towards it, once per job's end
            ratio = sorted(ratios)[len(ratios) // 2]
            self._calibration = min(4.0, max(0.25, self._calibration * (
                1 + CALIBRATION * (ratio - 1))))

    def _remember(self, kind: str, outcome: str, seconds: float, pid: int | None) -> None:
        self.stats.recent.append({"job": kind, "outcome": outcome,
                                  "seconds": round(seconds, 3), "pid": pid})
        del self.stats.recent[:-20]


def default_workers() -> int:
    """One worker per core, at most four (each holds its own solver caches)."""
    return max(1, min(4, os.cpu_count() or 1))
