"""Pig's searches: the exact two-player values by value iteration, policies, and playouts.

**Two players: value iteration** (Neller and Presser, "Optimal Play of the Dice Game Pig", The
UMAP Journal 25(1), 2004).  Let ``P(i, j, k)`` be the chance that the player about to decide
wins, with ``i`` banked, the opponent ``j`` banked and ``k`` the turn's total (``i + k`` below
the goal ``G``).  Then ``P = max(roll, hold)`` with

- ``roll = 1/6 (1 - P(j, i, 0)) + 1/6 sum over r = 2..6 of (1 if i + k + r >= G else
  P(i, j, k + r))`` (a 1 passes the die on with nothing banked; a face reaching the goal wins);
- ``hold = 1 - P(j, i + k, 0)`` (only for ``k > 0``: a turn starts with a roll).

The graph has cycles (a 1 hands the same scores to the opponent, who may pig out in turn), so
there is no order to compute it in one pass; value iteration repeats the equations until they
hold.  As Neller and Presser do, the states are taken by the sum of the scores ``i + j``, from
the highest down: a hold lands on a higher sum (already solved), a roll on the same scores with
a higher turn total (computed first, ``k`` downwards), and only a 1 stays on the same sum, so
each sum is iterated alone, every pair ``(i, j)`` with its mirror ``(j, i)``, until no value
changes by more than :data:`TOLERANCE` (the iteration is a contraction: each pass multiplies the
error by at most the chance of pigging out).  The loops are compiled with numba (cached beside
this module); the goal of 100 takes some 0.2 s, and the table is kept per goal in the process
and on disk (:func:`table_file`: a later process loads it in milliseconds, without importing
numba, which costs a new process some 0.4 s).

**More players: playouts.**  No exact method is offered (``solve`` says "not supported"): the
hint values each move by :data:`PLAYOUTS` playouts in which every player holds at 20 (or on
reaching the goal), with a 95% Wilson interval.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, cast

import numpy as np

from partysolver.models.protocol import TERMINAL
from partysolver.solvers.stats import wilson_interval

from .game import HOLD, ROLL, Move
from .state import PigState

TOLERANCE = 1e-15
"""Value iteration stops on a sum of scores once no value changed more than this in a pass."""

MAX_PASSES = 100_000
"""A bound on the passes per sum of scores (never reached: see ``tests/test_pig_plugin.py``)."""

PLAYOUTS = 2_000
"""Playouts per move of a hint for three players or more (fewer when the time limit ends it)."""

POLICY_PLAYOUTS = 200
"""Playouts per move of the ``hint`` policy at a table of three or more (a bot's move)."""

HOLD_AT = 20
"""The turn total at which the ``hold20`` policy (and the playouts) hold."""


# -- two players: the exact values ------------------------------------------------------------


def _iterate(goal: int, tolerance: float, max_passes: int) -> tuple[np.ndarray, int]:
    """``P[i, j, k]`` for every ``i + k < goal`` (see the module docstring) and the most passes
    any sum of scores took.  Interpreted here; :func:`values` compiles it."""
    table = np.zeros((goal, goal, goal))
    sixth = 1.0 / 6.0
    most = 0
    for total in range(2 * goal - 2, -1, -1):  # the sum of the two scores, highest first
        low, high = max(0, total - goal + 1), min(total, goal - 1)
        passes, change = 0, 1.0
        while change > tolerance and passes < max_passes:  # a pass over this sum's states
            passes += 1
            change = 0.0
            for i in range(low, high + 1):
                j = total - i
                pig_out = (1.0 - table[j, i, 0]) * sixth  # the mirror's value, this pass
                for k in range(goal - 1 - i, -1, -1):  # higher turn totals first
                    roll = pig_out
                    for face in range(2, 7):
                        roll += sixth if i + k + face >= goal else table[i, j, k + face] * sixth
                    value = roll
                    if k > 0:
                        hold = 1.0 - table[j, i + k, 0]  # a higher sum: solved already
                        value = max(roll, hold)
                    if k == 0:
                        change = max(change, abs(value - table[i, j, 0]))
                    table[i, j, k] = value
        most = max(most, passes)
    return table, most


@cache
def _compiled() -> Callable[[int, float, int], tuple[np.ndarray, int]]:
    import numba

    compiled: Callable[[int, float, int], tuple[np.ndarray, int]] = \
        numba.njit(cache=True)(_iterate)
    return compiled


@dataclass(frozen=True)
class Values:
    """The two-player table of one goal: ``table[i, j, k]`` is the chance that the player about
    to decide wins (``i`` banked, opponent ``j``, turn total ``k``)."""

    goal: int
    table: np.ndarray
    passes: int
    """The most passes value iteration took on one sum of scores."""
    seconds: float

    def decide(self, i: int, j: int, k: int) -> float:
        """``P(i, j, k)``: the mover's chance to win, deciding with ``i + k`` below the goal."""
        return float(self.table[i, j, k])

    def roll(self, i: int, j: int, k: int) -> float:
        """The mover's chance to win after rolling (and playing on best)."""
        goal, sixth = self.goal, 1.0 / 6.0
        value = (1.0 - self.table[j, i, 0]) * sixth
        for face in range(2, 7):
            value += sixth if i + k + face >= goal else self.table[i, j, k + face] * sixth
        return float(value)

    def hold(self, i: int, j: int, k: int) -> float:
        """The mover's chance to win after holding ``k`` (``k > 0``)."""
        return 1.0 if i + k >= self.goal else 1.0 - float(self.table[j, i + k, 0])

    def holds_at(self, i: int, j: int, k: int) -> int | None:
        """The lowest turn total from ``k`` on at which holding is best (``None``: rolling is
        best all the way to the goal)."""
        for total in range(max(k, 1), self.goal - i):
            if self.hold(i, j, total) >= self.roll(i, j, total):
                return total
        return None

    def best(self, i: int, j: int, k: int) -> Move:
        """The optimal move (rolling on a tie: no value is lost either way)."""
        return HOLD if k > 0 and self.hold(i, j, k) > self.roll(i, j, k) else ROLL


def table_file(goal: int) -> Path:
    """Where the table of ``goal`` is kept between runs: the user cache directory
    (``$XDG_CACHE_HOME``, else ``~/.cache``), named by the goal and a digest of this module's
    source, so that a changed iteration (or tolerance) never loads an old table."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    digest = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    return Path(root) / "partysolver" / f"pig-values-{goal}-{digest}.npz"


def _load(goal: int) -> tuple[np.ndarray, int] | None:
    """The kept table of ``goal`` and its passes, if a sound one is on disk."""
    path = table_file(goal)
    try:
        with np.load(path, allow_pickle=False) as kept:
            table, passes = kept["table"], int(kept["passes"])
    except (OSError, ValueError, KeyError):
        return None
    if table.shape != (goal, goal, goal) or table.dtype != np.float64 \
            or not np.all((table >= 0.0) & (table <= 1.0)):
        return None  # damaged: computed again (and written over)
    return table, passes


def _keep(goal: int, table: np.ndarray, passes: int) -> None:
    """Write the table of ``goal`` for later runs (whole or not at all; skipped when the cache
    cannot be written)."""
    path = table_file(goal)
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.tmp.npz")
        np.savez(partial, table=table, passes=np.int64(passes))
        os.replace(partial, path)


@cache
def values(goal: int, compiled: bool = True) -> Values:
    """The two-player values for ``goal``, computed once per process, kept on disk for the
    next (``compiled=False``: the interpreted loops, neither read nor written there)."""
    started = time.perf_counter()
    kept = _load(goal) if compiled else None
    if kept is None:
        solve = _compiled() if compiled else _iterate
        table, passes = solve(goal, TOLERANCE, MAX_PASSES)
        if compiled:
            _keep(goal, table, passes)
    else:
        table, passes = kept
    return Values(goal, table, passes, time.perf_counter() - started)


def scores_of(state: PigState) -> tuple[int, int, int]:
    """``(i, j, k)`` of a two-player position: the mover's score, the other's, the turn's."""
    assert state.num_players == 2
    me = state.player
    return state.scores[me], state.scores[1 - me], state.turn_total


def win_chances(state: PigState) -> tuple[float, float]:
    """Each seat's chance to win a two-player position with best play from both."""
    winner = state.winner()
    if winner is not None:
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)
    table = values(state.goal)
    i, j, k = scores_of(state)
    mine = table.roll(i, j, k) if state.rolling else table.decide(i, j, k)
    return (mine, 1.0 - mine) if state.player == 0 else (1.0 - mine, mine)


# -- policies (picklable: simulate runs them in worker processes) ------------------------------


class RandomPolicy:
    """Roll or hold at random."""

    name = "random"

    def __call__(self, state: PigState, rng: random.Random) -> Hashable:
        return rng.choice(list(state.legal_actions()))


class HoldAt:
    """Hold once the turn's total reaches ``at`` (or when holding wins the game)."""

    name = "hold20"

    def __init__(self, at: int = HOLD_AT) -> None:
        self.at = at

    def __call__(self, state: PigState, rng: random.Random) -> Hashable:
        return hold_at(state, self.at)


def hold_at(state: PigState, at: int = HOLD_AT) -> Move:
    total = state.turn_total
    if total > 0 and (total >= at or state.scores[state.player] + total >= state.goal):
        return HOLD
    return ROLL


class OptimalPolicy:
    """What the hint plays: the two-player optimal policy (the table of :func:`values`); at a
    table of three or more, the move with the better estimate by :data:`POLICY_PLAYOUTS`
    playouts a move (every player then holding at :data:`HOLD_AT`)."""

    name = "hint"

    def __call__(self, state: PigState, rng: random.Random) -> Hashable:
        if state.num_players == 2:
            return values(state.goal).best(*scores_of(state))
        found = estimate(state, rng, POLICY_PLAYOUTS)
        return max(found, key=lambda move: (found[move].value, str(move) == "roll"))


# -- more players: playouts --------------------------------------------------------------------


@dataclass(frozen=True)
class Estimate:
    """A move's chance to win by playouts: the mean and its 95% Wilson interval."""

    wins: float
    playouts: int

    @property
    def value(self) -> float:
        return self.wins / self.playouts

    @property
    def interval(self) -> tuple[float, float]:
        found = wilson_interval(self.value, self.playouts)
        return found.low, found.high


def playout(state: PigState, rng: random.Random) -> PigState:
    """``state`` played to the end with every player holding at :data:`HOLD_AT`."""
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return state
        action: Any = state.sample_outcome(rng) if state.rolling else hold_at(state)
        state = state.apply(action)


def estimate(state: PigState, rng: random.Random, playouts: int = PLAYOUTS,
             seconds: float | None = None) -> dict[Move, Estimate]:
    """Each legal move's chance to win for the mover, by playouts (a time limit may stop them
    early: every move then has the same number of playouts, at least one)."""
    moves = cast("list[Move]", list(state.legal_actions()))
    me = state.player
    wins = dict.fromkeys(moves, 0.0)
    deadline = None if seconds is None else time.perf_counter() + seconds
    done = 0
    while done < playouts:
        for move in moves:
            wins[move] += playout(state.apply(move), rng).returns()[me]
        done += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    return {move: Estimate(wins[move], done) for move in moves}
