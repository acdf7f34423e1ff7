"""Units of work, run in this process, in local worker processes or on a Dask cluster, with a
journal that lets a killed run resume.  Front-end neutral: the command line builds a
:class:`RunPlan` and draws the progress it is told about.

    result = run(task, units=1000, seed=7, plan=RunPlan(LocalProcesses(2), Path("out.jsonl")))

``task(seed, index)`` is one unit (a picklable callable returning JSON data); see
:mod:`.core` for the contract, :mod:`.driver` for the run, :mod:`.journal` for the file,
:mod:`.local` and :mod:`.cluster` for the executors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from .cluster import DaskCluster
from .core import (
    Chunks,
    Executor,
    Outcome,
    Progress,
    RunPlan,
    RunResult,
    Task,
    run_chunk,
)
from .driver import run
from .journal import Journal
from .local import InProcess, LocalProcesses


def executor_for(workers: int = 1, scheduler: str | None = None,
                 local_cluster: bool = False) -> Executor:
    """The executor a front end's options name: a Dask scheduler's address, a local Dask
    cluster of ``workers`` processes, ``workers`` local processes, or (one worker) this
    process."""
    if scheduler:
        return DaskCluster(scheduler)
    if local_cluster:
        return DaskCluster(None, workers)
    return LocalProcesses(workers) if workers > 1 else InProcess()


def runs_elsewhere(workers: int | RunPlan) -> bool:
    """Whether units run outside this process (worker processes or a Dask cluster), as
    :func:`~partysolver.solvers.simulate.simulate`'s ``workers`` says."""
    if isinstance(workers, RunPlan):
        return workers.executor is not None and not isinstance(workers.executor, InProcess)
    return workers > 1


def counted_plan(workers: int | RunPlan, progress: Callable[[int], None] | None) -> RunPlan:
    """The plan ``workers`` names (a plan, or a number of local processes), telling
    ``progress`` 0 now (the units begin: a front end may show its bar from here) and 1 after
    each finished unit, besides the plan's own listener."""
    plan = workers if isinstance(workers, RunPlan) else RunPlan(executor_for(workers))
    if progress is None:
        return plan
    progress(0)
    told = plan.on_outcome

    def on_outcome(outcome: Outcome) -> None:
        progress(1)
        if told:
            told(outcome)

    return replace(plan, on_outcome=on_outcome)


__all__ = ["Chunks", "DaskCluster", "Executor", "InProcess", "Journal", "LocalProcesses",
           "Outcome", "Progress", "RunPlan", "RunResult", "Task", "counted_plan", "executor_for", "run",
           "run_chunk", "runs_elsewhere"]
