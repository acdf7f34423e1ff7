"""The engine that runs units anywhere: :func:`run`.

:func:`run` hands the units to an executor in chunks (a chunk is a few indices, sized so that
one takes a fraction of a second: cheap units do not pay the per-task overhead one by one),
writes each finished unit to the journal, tells the listeners, and returns the outcomes in
index order, so a run's figures do not depend on where or in which order its units finished.
It sits above the modules it uses (:mod:`.core`, :mod:`.journal`, :mod:`.local`), none of
which imports it.
"""

from __future__ import annotations

import time

from .core import Chunks, Outcome, Progress, RunPlan, RunResult, Task
from .journal import Journal
from .local import InProcess


def run(task: Task, units: int, seed: int = 0, plan: RunPlan | None = None) -> RunResult:
    """Run units ``0 .. units-1`` of ``task`` as ``plan`` says; every unit exactly once (units
    finished in a resumed journal are not run again)."""
    plan = plan or RunPlan()
    executor = plan.executor or InProcess()
    if units < 0:
        raise ValueError("a run has no negative number of units")
    started = time.perf_counter()
    found: dict[int, Outcome] = {}
    journal = None
    if plan.journal is not None:
        journal = Journal.open(plan.journal, {**plan.parameters, "units": units,
                                              "seed": seed}, plan.resume)
        found = {o.index: o for o in journal.finished}
    resumed = len(found)
    if plan.on_outcome:
        for index in sorted(found):
            plan.on_outcome(found[index])
    chunks = Chunks([i for i in range(units) if i not in found], executor.chunk_seconds)
    failed = 0

    def tell() -> None:
        if plan.on_progress:
            plan.on_progress(Progress(units, len(found), failed, resumed,
                                      time.perf_counter() - started))

    try:
        tell()
        if chunks:
            for batch in executor.map(task, seed, chunks):
                chunks.observe(batch)
                for outcome in batch:
                    if journal:
                        journal.write(outcome)
                    found[outcome.index] = outcome
                    failed += not outcome.ok
                    if plan.on_outcome:
                        plan.on_outcome(outcome)
                tell()
    finally:
        if journal:
            journal.close()
    missing = [i for i in range(units) if i not in found]
    if missing:
        raise RuntimeError(f"the executor lost units {missing[:10]} (a bug in partysolver)")
    return RunResult(tuple(found[i] for i in range(units)), resumed)
