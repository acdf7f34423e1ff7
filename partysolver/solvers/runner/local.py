"""Executors on this machine: in this process, or in a pool of local worker processes."""

from __future__ import annotations

import os
import pickle
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from .core import Chunks, Outcome, Task, run_chunk

ATTEMPTS = 3
"""How often a chunk is sent again after its worker died, before its units are failed."""


@dataclass(frozen=True, slots=True)
class InProcess:
    """Every unit in this process, one after the other."""

    chunk_seconds: float = 0.25

    def map(self, task: Task, seed: int, chunks: Chunks) -> Iterator[list[Outcome]]:
        while chunk := chunks.next(1):
            yield run_chunk(task, seed, chunk)


def check_picklable(task: Task) -> None:
    """A task that cannot reach a worker is refused before any unit runs."""
    try:
        pickle.dumps(task)
    except Exception as error:
        raise TypeError(f"the units' task cannot be sent to worker processes ({error}); "
                        "use a module-level function or class") from None


def _watch_parent(parent: int) -> None:
    """In a worker process: exit when the driver is gone (killed, say), instead of waiting
    forever for chunks that will never come."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="partysolver-parent-watch", daemon=True).start()


@dataclass(frozen=True, slots=True)
class LocalProcesses:
    """Units in ``workers`` local processes (two chunks in flight a worker).  A worker that
    dies (killed, out of memory) breaks the pool: a new pool takes over and the chunks in
    flight are sent again, each up to :data:`ATTEMPTS` times."""

    workers: int = 2
    chunk_seconds: float = 0.25

    def _pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.workers, initializer=_watch_parent,
                                   initargs=(os.getpid(),))

    def map(self, task: Task, seed: int, chunks: Chunks) -> Iterator[list[Outcome]]:
        check_picklable(task)
        attempts: dict[tuple[int, ...], int] = {}
        inflight: dict[Future[list[Outcome]], list[int]] = {}
        pool = self._pool()
        try:
            while True:
                while len(inflight) < 2 * self.workers and (chunk := chunks.next(self.workers)):
                    inflight[pool.submit(run_chunk, task, seed, chunk)] = chunk
                if not inflight:
                    break
                finished, _ = wait(inflight, return_when=FIRST_COMPLETED)
                lost: list[list[int]] = []
                for future in finished:
                    chunk = inflight.pop(future)
                    try:
                        outcomes = future.result()
                    except BrokenProcessPool:
                        lost.append(chunk)
                        continue
                    except Exception as error:  # the chunk could not be sent or returned
                        outcomes = _failed(chunk, seed, f"{type(error).__name__}: {error}")
                    yield outcomes
                if lost:
                    # Every chunk still in flight went down with the pool.
                    lost += inflight.values()
                    inflight.clear()
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = self._pool()
                    for chunk in lost:
                        key = tuple(chunk)
                        attempts[key] = attempts.get(key, 0) + 1
                        if attempts[key] >= ATTEMPTS:
                            yield _failed(chunk, seed, f"its worker process died {ATTEMPTS} "
                                          "times (killed, or out of memory?)")
                        else:
                            inflight[pool.submit(run_chunk, task, seed, chunk)] = chunk
        except BaseException:  # interrupted: leave the running chunks, do not wait for them
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()


def _failed(chunk: list[int], seed: int, error: str) -> list[Outcome]:
    return [Outcome(index, seed, error=error) for index in chunk]
