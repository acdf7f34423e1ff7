"""One budget object for every search, and the result types that carry a status.

A :class:`Budget` limits time, nodes and/or iterations; a search starts a :class:`Meter` from it
and asks ``meter.exhausted()`` as it goes.  A search that runs out returns its best answer so
far with the status ``unknown`` (or ``feasible``), never a false claim of optimality.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Literal

Status = Literal["optimal", "feasible", "infeasible", "unknown"]
Verdict = Literal["solvable", "unsolvable", "unknown"]


@dataclass(frozen=True, slots=True)
class Budget:
    """Limits on a search; ``None`` means no limit of that kind."""

    time: float | None = None
    """Seconds of wall-clock time."""
    nodes: int | None = None
    """States expanded."""
    iterations: int | None = None
    """Iterations of an anytime search (MCTS simulations, samples)."""

    def start(self) -> Meter:
        return Meter(self)

    def scaled(self, share: float) -> Budget:
        """A budget with ``share`` of each limit (for a search made of several searches)."""
        return Budget(
            None if self.time is None else self.time * share,
            None if self.nodes is None else max(1, int(self.nodes * share)),
            None if self.iterations is None else max(1, int(self.iterations * share)),
        )

    def shares(self, parts: int, each: Budget | None = None) -> Iterator[Budget]:
        """The budgets of ``parts`` searches run one after another within this one: ``each``
        (default this budget) for every part, its time, under a time limit, what is still
        left over the parts not yet run, read as each part starts (a part that ran over its
        share is taken out of the later ones', so the whole ends near the limit; a part met
        with none left gets 0 s)."""
        each = self if each is None else each
        started = time.perf_counter()
        for k in range(parts):
            if self.time is None:
                yield each
            else:
                left = max(self.time - (time.perf_counter() - started), 0.0)
                yield replace(each, time=left / (parts - k))

    def __str__(self) -> str:
        parts = [f"{self.time:g} s" if self.time is not None else "",
                 f"{self.nodes:,} nodes" if self.nodes is not None else "",
                 f"{self.iterations:,} iterations" if self.iterations is not None else ""]
        return ", ".join(p for p in parts if p) or "unlimited"


class BudgetExhausted(Exception):
    """Raised inside a search when its budget runs out; the search catches it."""


class Meter:
    """The running account of a budget: nodes, iterations and elapsed time."""

    __slots__ = ("budget", "nodes", "iterations", "started", "_deadline", "_next_clock")

    CLOCK_EVERY = 64
    """Nodes between two reads of the clock: reading it costs about 0.05 us, a node of the
    interpreted searches 10-50 us, so a search overruns its time by at most a few milliseconds
    (512 before 3 December 2026: 10-25 ms past a short limit)."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.iterations = 0
        self.started = time.perf_counter()
        self._deadline = math.inf if budget.time is None else self.started + budget.time
        # a timed search reads the clock at its first node: one given no time left stops
        # there (before, it expanded CLOCK_EVERY nodes first: 0.02 s for a Meeple Party turn)
        self._next_clock = 1 if budget.time is not None else self.CLOCK_EVERY

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def node(self) -> None:
        """Count one expanded node; raise :class:`BudgetExhausted` when the budget has none
        left (so a search stopped by nodes reports exactly its budget)."""
        limit = self.budget.nodes
        if limit is not None and self.nodes >= limit:
            raise BudgetExhausted
        self.nodes += 1
        if self.nodes >= self._next_clock:
            self._next_clock = self.nodes + self.CLOCK_EVERY
            if time.perf_counter() > self._deadline:
                raise BudgetExhausted

    def exclude(self, seconds: float) -> None:
        """Leave ``seconds`` spent outside the search (loading or compiling code, work that
        runs outside the budget) uncharged: the clock and the deadline move on by as much."""
        self.started += seconds
        self._deadline += seconds

    def out_of_time(self) -> bool:
        """Whether the budget's time is spent (its nodes and iterations not looked at): for
        work a search does between its nodes, such as valuing the options it ranks."""
        return time.perf_counter() > self._deadline

    def exhausted(self) -> bool:
        """Whether an anytime search should stop before its next iteration."""
        limit = self.budget.iterations
        if limit is not None and self.iterations >= limit:
            return True
        if self.budget.nodes is not None and self.nodes >= self.budget.nodes:
            return True
        return self.out_of_time()

    def usage(self) -> dict[str, Any]:
        return {"seconds": round(self.elapsed, 4), "nodes": self.nodes,
                "iterations": self.iterations}


@dataclass(frozen=True, slots=True)
class Interval:
    """A 95% confidence interval."""

    low: float
    high: float

    def __str__(self) -> str:
        return f"[{self.low:.3f}, {self.high:.3f}]"

    def within(self, low: float, high: float) -> Interval:
        """The part of this interval inside the values the quantity can take (it covers a
        quantity in [low, high] whenever the whole interval does)."""
        return Interval(max(self.low, low), min(self.high, high))


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One root action of a search, with its value for the player who chooses it."""

    action: Hashable
    value: float
    """The chooser's value (win probability) after this action."""
    values: tuple[float, ...]
    """Every player's value after this action."""
    exact: bool
    visits: int = 0
    interval: Interval | None = None


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The answer of a search: a status, the root's values and the ranked root actions."""

    status: Status
    method: str
    values: tuple[float, ...] | None
    """Every player's value of the root (win probability); ``None`` when unknown."""
    moves: tuple[MoveValue, ...] = ()
    """Root actions, best first for the player to act."""
    line: tuple[Hashable, ...] = ()
    """The principal line: best actions, and the most likely chance outcome at chance nodes."""
    usage: dict[str, Any] = field(default_factory=dict)
    bounds: tuple[tuple[float, float], ...] | None = None
    """When unknown: every player's proven interval for the root's value, if the search could
    tell how far it got (:meth:`.expectimax.Expectimax.cut_bounds`)."""

    @property
    def best(self) -> MoveValue | None:
        return self.moves[0] if self.moves else None


def rank_moves(moves: list[MoveValue]) -> tuple[MoveValue, ...]:
    """Best first by value; a stable sort keeps the game's action order among equal values."""
    return tuple(sorted(moves, key=lambda m: -m.value))
