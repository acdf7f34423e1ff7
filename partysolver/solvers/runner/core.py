"""Units of work, their outcomes, and the engine that runs them anywhere.

A *unit* is one call ``task(seed, index)`` of a picklable *task*: one game of ``simulate``, one
file of a batch ``verify``, one puzzle of ``generate``.  Everything a unit draws at random
comes from ``(seed, index)``, so a unit gives the same result wherever and whenever it runs;
its result is JSON data (what a journal line holds, what travels back from a worker).

This module holds what every other module of the runner shares (the task contract, outcomes,
chunks, the executor protocol, the plan and the result) and imports none of them;
:func:`.driver.run` drives a run over an executor and a journal.
"""

from __future__ import annotations

import json
import os
import socket
import time
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ...models.errors import InputError


class Task(Protocol):
    """One kind of unit: ``task(seed, index)`` returns the unit's result as JSON data.  A task
    is pickled to reach worker processes, so it is a module-level function or an object of a
    module-level class holding its parameters."""

    def __call__(self, seed: int, index: int) -> Any: ...


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished unit: its ``result`` (JSON data), or the ``error`` it raised."""

    index: int
    seed: int
    result: Any = None
    error: str | None = None
    """``"ValueError: ..."`` (``"bad input: ..."`` for an :class:`InputError`), when it raised."""
    trace: str = ""
    """The traceback, when it raised."""
    seconds: float = 0.0
    """Time the unit took where it ran (not journaled)."""
    worker: str = ""
    """``host:pid`` of the process that ran it (not journaled)."""

    @property
    def ok(self) -> bool:
        return self.error is None

    def as_json(self) -> dict[str, Any]:
        """The unit's journal line."""
        if self.ok:
            return {"index": self.index, "seed": self.seed, "result": self.result}
        return {"index": self.index, "seed": self.seed, "error": self.error, "trace": self.trace}

    def describe(self, noun: str = "unit") -> str:
        """``unit 17 (seed 3) failed: ValueError: ...``"""
        return f"{noun} {self.index} (seed {self.seed}) failed: {self.error}"


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a run stands, as its listener sees it after each finished chunk."""

    total: int
    """Units in the run."""
    done: int
    """Units finished, failed ones and ones resumed from the journal included."""
    failed: int
    resumed: int
    """Units found finished in the journal when the run started."""
    elapsed: float
    """Seconds since this run (this session of it) started."""

    @property
    def rate(self) -> float:
        """Units a second finished by this session (resumed ones left out)."""
        ran = self.done - self.resumed
        return ran / self.elapsed if ran and self.elapsed > 0 else 0.0

    @property
    def seconds_left(self) -> float | None:
        """An estimate at the rate so far; ``None`` before any unit finished."""
        return (self.total - self.done) / self.rate if self.rate else None


def run_chunk(task: Task, seed: int, indices: Sequence[int]) -> list[Outcome]:
    """Run the units ``indices`` of ``task`` one after the other, where this is called (a worker
    process, a Dask worker, the driver).  A unit that raises becomes a failed outcome and the
    chunk goes on.  Results pass through JSON here, so a result is the same whether it comes
    back from a worker or from a journal line."""
    worker = f"{socket.gethostname()}:{os.getpid()}"
    outcomes = []
    for index in indices:
        started = time.perf_counter()
        try:
            result = json.loads(json.dumps(task(seed, index)))
        except Exception as error:
            message = (error.line() if isinstance(error, InputError)
                       else f"{type(error).__name__}: {error}")
            outcomes.append(Outcome(index, seed, error=message, trace=traceback.format_exc(),
                                    seconds=time.perf_counter() - started, worker=worker))
        else:
            outcomes.append(Outcome(index, seed, result, seconds=time.perf_counter() - started,
                                    worker=worker))
    return outcomes


class Chunks:
    """The units still to run, handed out in chunks sized from the time units take so far:
    about ``target`` seconds a chunk, small enough that every worker gets several chunks
    (the last ones finish together); one unit a chunk until a unit has finished, and at most
    twice the largest chunk so far (the first units may not be typical)."""

    def __init__(self, pending: Sequence[int], target: float = 0.25) -> None:
        self.pending = deque(pending)
        self.target = target
        self._seconds = 0.0
        self._count = 0
        self._largest = 1

    def __len__(self) -> int:
        return len(self.pending)

    def observe(self, outcomes: Sequence[Outcome]) -> None:
        self._seconds += sum(o.seconds for o in outcomes)
        self._count += len(outcomes)

    def size(self, workers: int) -> int:
        if not self._count:
            return 1
        mean = max(self._seconds / self._count, 1e-6)
        fair = max(1, len(self.pending) // (4 * max(1, workers)))
        return max(1, min(int(self.target / mean), fair, 2 * self._largest, 1000))

    def next(self, workers: int) -> list[int]:
        """The next chunk for one of ``workers`` parallel workers (empty: none left)."""
        size = min(self.size(workers), len(self.pending))
        self._largest = max(self._largest, size)
        return [self.pending.popleft() for _ in range(size)]


class Executor(Protocol):
    """Where units run.  ``map`` keeps its workers busy with chunks from ``chunks.next`` until
    it returns an empty chunk, and yields each finished chunk's outcomes as it finishes.  A
    chunk lost with its worker is run again elsewhere; one that cannot be run comes back as
    failed outcomes.  ``chunk_seconds`` is the time a chunk should take: longer where sending
    one costs more."""

    @property
    def chunk_seconds(self) -> float: ...

    def map(self, task: Task, seed: int, chunks: Chunks) -> Iterator[list[Outcome]]: ...


Listener = Callable[[Outcome], None]
ProgressListener = Callable[[Progress], None]


@dataclass(frozen=True)
class RunPlan:
    """How to run units: where (``executor``; default in this process), what to journal
    (``journal``: a JSON-lines file of the finished units, continued with ``resume``; the
    run's ``parameters`` go in its header, and resuming with other parameters is refused),
    and whom to tell (``on_outcome`` for every finished unit, those resumed from the journal
    first, in index order; ``on_progress`` at the start and after each chunk)."""

    executor: Executor | None = None
    journal: Path | None = None
    resume: bool = False
    parameters: Mapping[str, Any] = field(default_factory=dict)
    on_outcome: Listener | None = None
    on_progress: ProgressListener | None = None


@dataclass(frozen=True)
class RunResult:
    """Every unit's outcome in index order (a unit that failed, then succeeded on a resumed
    run, appears once, as its success)."""

    outcomes: tuple[Outcome, ...]
    resumed: int = 0
    """Units taken from the journal, not run again."""

    @property
    def results(self) -> list[Any]:
        """The successful units' results, in index order."""
        return [o.result for o in self.outcomes if o.ok]

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.ok]
