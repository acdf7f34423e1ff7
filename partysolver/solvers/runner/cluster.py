"""The Dask distributed executor: units on the workers of a Dask cluster.

Dask is imported only here, when a run asks for a cluster (the optional extra
``partysolver[cluster]``).  Each chunk is one Dask task, ``run_chunk(task, seed, indices)``:
the task object (pickled: the game's parameters and the policies, never the code, which the
workers import from their own partysolver) and a few integers travel to a worker, the units'
JSON results travel back.  The scheduler re-runs the tasks of a worker that dies on another
worker; a task whose workers died :data:`ALLOWED_FAILURES` times comes back as failed units.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...models.errors import InputError
from .core import Chunks, Outcome, Task, run_chunk
from .journal import package_version
from .local import check_picklable

CONNECT_SECONDS = 20.0
"""How long to try reaching the scheduler."""
WORKER_SECONDS = 60.0
"""How long to wait for the first worker to join it."""
ALLOWED_FAILURES = 3
"""Dask's default: workers that may die running one task before it is given up."""


@dataclass(frozen=True, slots=True)
class DaskCluster:
    """The workers of the Dask scheduler at ``address`` (``tcp://HOST:PORT``), or, with no
    address, a local cluster of ``workers`` processes (one thread each) started for the run."""

    address: str | None = None
    workers: int = 2
    chunk_seconds: float = 1.0
    """A Dask task costs milliseconds of scheduling and transport: chunks of a second."""

    @property
    def option(self) -> str:
        return "--scheduler" if self.address else "--cluster"

    def map(self, task: Task, seed: int, chunks: Chunks) -> Iterator[list[Outcome]]:
        check_picklable(task)
        distributed = _import(self.option)
        cluster = None
        if self.address is None:
            cluster = distributed.LocalCluster(n_workers=self.workers, threads_per_worker=1,
                                               processes=True, dashboard_address=None,
                                               silence_logs=logging.ERROR)
        try:
            client = self._connect(distributed, cluster)
            try:
                yield from _run(client, distributed, task, seed, chunks)
            finally:
                client.close()
        finally:
            if cluster is not None:
                cluster.close()

    def _connect(self, distributed: Any, cluster: Any) -> Any:
        try:
            client = distributed.Client(cluster or self.address, timeout=CONNECT_SECONDS,
                                        set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise InputError(self.option, None, "the address of a running Dask scheduler, "
                             f"tcp://HOST:PORT ({error})", self.address) from None
        try:
            client.wait_for_workers(1, timeout=WORKER_SECONDS)
            _check_versions(client, self.option)
        except TimeoutError:
            client.close()
            raise InputError(self.option, None, f"a scheduler with workers (none joined "
                             f"within {WORKER_SECONDS:g} s)", self.address) from None
        except BaseException:
            client.close()
            raise
        return client


def _import(option: str) -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError(option, None, "Dask distributed installed: pip install "
                         "'partysolver[cluster]'") from None
    return distributed


def _check_versions(client: Any, option: str) -> None:
    """Every worker must run this driver's partysolver: a unit's result depends on its code."""
    mine = package_version()
    try:
        found = client.run(package_version)
    except Exception as error:
        raise InputError(option, None, "workers that can import partysolver", str(error)) \
            from None
    other = {address: theirs for address, theirs in found.items() if theirs != mine}
    if other:
        shown = ", ".join(f"{address} has {theirs}" for address, theirs in sorted(other.items()))
        raise InputError(option, None, f"workers running partysolver {mine} like this driver",
                         shown)


def _run(client: Any, distributed: Any, task: Task, seed: int, chunks: Chunks
         ) -> Iterator[list[Outcome]]:
    """Keep two chunks in flight a worker thread (re-counted every few seconds, as workers come
    and go), and yield each chunk's outcomes as it finishes."""
    inflight: dict[Any, list[int]] = {}
    pending = distributed.as_completed(loop=client.loop)
    counted, threads = 0.0, 1

    def fill() -> None:
        nonlocal counted, threads
        if time.monotonic() - counted > 2.0:
            threads = max(1, sum(client.nthreads().values()))
            counted = time.monotonic()
        while len(inflight) < 2 * threads and (chunk := chunks.next(threads)):
            future = client.submit(run_chunk, task, seed, chunk, pure=False)
            inflight[future] = chunk
            pending.add(future)

    try:
        fill()
        for future in pending:
            chunk = inflight.pop(future)
            try:
                outcomes = future.result()
            except distributed.KilledWorker:
                outcomes = [Outcome(i, seed, error=f"its workers died {ALLOWED_FAILURES} times "
                                    "running it (killed, or out of memory?)") for i in chunk]
            except Exception as error:  # the chunk could not reach a worker or come back
                outcomes = [Outcome(i, seed, error=f"{type(error).__name__}: {error}")
                            for i in chunk]
            yield outcomes
            fill()
    finally:
        for future in inflight:
            future.cancel()
