"""``simulate``, written once for every game: a game's commands give two hooks, the plan of
the games (:meth:`SimulatingCommands.plan_simulation`: how a new game is made, the policies,
what each finished game records, what to compile first) and the report of their figures
(:meth:`SimulatingCommands.simulation_report`); the rest is the same for all: the table's size
and the policies named by default, compiling the policies' kernels here before the games go to
workers, playing the games (:func:`partysolver.solvers.simulate.simulate`, in this process, in
worker processes or on a cluster) and writing them down as records when asked
(:mod:`.simulated`).

Light on purpose: a game's module imports it when it loads, before any verb runs (start-up).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .base import GameCommands, Options, Report

if TYPE_CHECKING:
    from ..solvers.simulate import SimulationResult


@dataclass(frozen=True)
class Plan:
    """What a simulation plays, decided by the game before any game is played (bad options
    are refused here)."""

    new_game: Callable[[random.Random], Any]
    """A fresh game, a picklable factory (the games may run in other processes)."""
    policies: Sequence[Any]
    """One policy per name given, in the same order."""
    stats: Callable[[Any], dict[str, float]] | None = None
    """The figures each finished game records (final scores, strips lost...)."""
    compile: Callable[[Callable[[str], None]], object] | None = None
    """What the policies run that numba compiles on a first run, to compile here before the
    games go to workers (told through the notice it is given); ``None``: nothing to compile."""
    context: Any = None
    """Whatever else the game's report needs of the plan (its rules, its table, a budget)."""


@dataclass(frozen=True)
class Run:
    """A finished simulation, as the game's report reads it."""

    result: SimulationResult
    plan: Plan
    players: int
    names: tuple[str, ...]
    """The policies' names, in the order given (the default when none was)."""
    games: int
    options: Options

    @property
    def rotate(self) -> bool:
        return bool(self.options.extra.get("rotate", False))

    def seat_policies(self) -> list[str]:
        """The policy of each seat when seats do not rotate: the names in turn."""
        return [self.names[seat % len(self.names)] for seat in range(self.players)]


class SimulatingCommands(GameCommands):
    """The commands of a game that offers ``simulate``: :meth:`simulate` once, for every game,
    on the game's two hooks."""

    default_policies: ClassVar[tuple[str, ...]] = ("greedy",)
    """The policies played when none is named (seat by seat, in turn)."""

    def plan_simulation(self, players: int, names: tuple[str, ...], options: Options) -> Plan:
        """The plan of ``players``-player games with the policies ``names``; bad input is
        refused here, before any game."""
        raise self.unsupported("simulate")

    def simulation_report(self, run: Run) -> Report:
        """The report of the finished simulation ``run`` (its data in the JSON contract)."""
        raise self.unsupported("simulate")

    def simulate(self, players: int | None, games: int, policies: tuple[str, ...],
                 options: Options, progress: Any) -> Report:
        from ..solvers.simulate import simulate
        from . import simulated

        key = self.info.key
        n = players or self.players
        names = policies or self.default_policies
        plan = self.plan_simulation(n, names, options)
        if plan.compile is not None:
            simulated.compile_first(options, plan.compile)
        result = simulate(plan.new_game, list(plan.policies), games, seed=options.rng_seed,
                          rotate=options.extra.get("rotate", False), stats=plan.stats,
                          workers=options.extra.get("workers", 1), progress=progress,
                          notation=simulated.notation(key, options))
        report = self.simulation_report(Run(result, plan, n, names, games, options))
        return simulated.noted(key, report, result, options)
