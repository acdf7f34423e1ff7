"""Exact expectimax for n-player games with chance, with a transposition table.

Each player maximises its own value (its probability of winning, ties shared); chance nodes
average over their exact outcome probabilities.  Equal values (within ``EPSILON``) keep the game's
action order, so the choice at every node is deterministic and the same with or without the
transposition table.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Sequence
from typing import Any

from ..models.protocol import CHANCE, TERMINAL, State
from .budget import (
    Budget,
    BudgetExhausted,
    Meter,
    MoveValue,
    SearchResult,
    Status,
    rank_moves,
)

EPSILON = 1e-12
"""Values closer than this are equal (floating-point sums in different orders)."""

Values = tuple[float, ...]


def require_chance_protocol(state: Any, method: str) -> None:
    """Check up front that ``state`` has what a search needs."""
    missing = [name for name in ("current_player", "legal_actions", "apply", "chance_outcomes",
                                 "returns", "key")
               if not callable(getattr(state, name, None))]
    if missing:
        raise ValueError(f"{method} needs a state with {', '.join(missing)}")


class Expectimax:
    """One exact search: its table, its meter and its counts."""

    method = "exact expectimax"

    def __init__(self, budget: Budget, transpositions: bool = True,
                 table: dict[Hashable, Any] | None = None) -> None:
        """``table``: a transposition table to share between searches of one game (it only
        ever holds finished values, so a search cut short by its budget leaves it valid)."""
        self.meter: Meter = budget.start()
        self.table: dict[Hashable, Values] | None = None
        if transpositions:
            self.table = {} if table is None else table
        self.hits = 0

    @classmethod
    def check(cls, state: State) -> None:
        """Raise :class:`ValueError` if this search cannot solve ``state``'s game (this one
        solves any game with the chance protocol)."""

    def value(self, state: State) -> Values:
        """Every player's exact value of ``state``; raises :class:`BudgetExhausted`."""
        table = self.table
        if table is not None:
            key = state.key()
            found = table.get(key)
            if found is not None:
                self.hits += 1
                return found
        self.meter.node()
        player = state.current_player()
        settled = self.settled(state)
        if settled is not None:
            result = settled
        elif player == TERMINAL:
            result = tuple(state.returns())
        elif player == CHANCE:
            # Chance node: the probability-weighted average of the outcomes.
            totals = [0.0] * state.num_players
            for outcome, probability in state.chance_outcomes():
                weight = float(probability)
                for i, v in enumerate(self.value(state.apply(outcome))):
                    totals[i] += weight * v
            result = tuple(totals)
        else:
            # Decision node: the mover takes its best value; the first of equals wins.
            best: Values | None = None
            for action in state.legal_actions():
                values = self.value(state.apply(action))
                if best is None or values[player] > best[player] + EPSILON:
                    best = values
            assert best is not None, "a decision node without legal actions"
            result = best
        if table is not None:
            table[key] = result
        return result

    def size(self) -> int:
        return len(self.table or ())

    def cut_bounds(self) -> tuple[tuple[float, float], ...] | None:
        """Every player's proven interval for the value of the state the last :meth:`value`
        was searching when it ran out of budget, or ``None``: this search cannot tell (a
        recursive one unwinds its stack as it stops)."""
        return None

    @staticmethod
    def settled(state: State) -> Values | None:
        """The returns of a state that knows its outcome is certain (optional protocol)."""
        try:
            return state.settled_returns()  # type: ignore[attr-defined]
        except AttributeError:
            return None

    def best_action(self, state: State) -> Hashable:
        player = state.current_player()
        best_action, best = None, None
        for action in state.legal_actions():
            values = self.value(state.apply(action))
            if best is None or values[player] > best[player] + EPSILON:
                best_action, best = action, values
        return best_action

    def principal_line(self, state: State, limit: int = 200) -> tuple[Hashable, ...]:
        """Best actions, following the most likely outcome at chance nodes."""
        line: list[Hashable] = []
        while len(line) < limit:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                action = max(state.chance_outcomes(), key=lambda item: item[1])[0]
            else:
                action = self.best_action(state)
            line.append(action)
            state = state.apply(action)
        return tuple(line)


class PrunedExpectimax(Expectimax):
    """Exact search of a two-player game whose returns always sum to 1 (win shares).

    Player 0 maximises ``v``, its value, and player 1 minimises it (its own value is
    ``1 - v``).  Decision nodes use alpha-beta; chance nodes use Ballard's Star1 pruning: after
    each outcome, the window left for the next one is what could still move the average into
    ``(alpha, beta)`` given that every value lies in [0, 1].  The table stores a lower and an
    upper bound per state.  A search with the full window [0, 1] is exact.
    """

    method = "exact expectimax with alpha-beta/Star1 pruning"

    def __init__(self, budget: Budget, transpositions: bool = True,
                 table: dict[Hashable, Any] | None = None) -> None:
        super().__init__(budget, transpositions, table)
        self.bounds: dict[Hashable, tuple[float, float]] | None = self.table  # type: ignore[assignment]
        self.table = None

    @classmethod
    def check(cls, state: State) -> None:
        if state.num_players != 2:
            raise ValueError("pruned expectimax needs a two-player game whose returns sum to 1")

    def size(self) -> int:
        return len(self.bounds or ())

    def value(self, state: State) -> Values:
        v = self.window(state, 0.0, 1.0)
        return (v, 1.0 - v)

    def window(self, state: State, alpha: float, beta: float) -> float:
        """Player 0's value if it lies strictly inside (alpha, beta); otherwise a bound on the
        side it fell (``<= alpha`` is an upper bound, ``>= beta`` a lower bound).  The ends 0
        and 1 are the natural limits, so a result at 0 with ``alpha == 0`` is exact."""
        assert alpha < beta, f"empty search window ({alpha}, {beta})"
        bounds = self.bounds
        if bounds is not None:
            key = state.key()
            entry = bounds.get(key)
            if entry is not None:
                low, high = entry
                if low >= beta or low == high:
                    self.hits += 1
                    return low
                if high <= alpha:
                    self.hits += 1
                    return high
        self.meter.node()
        player = state.current_player()
        settled = self.settled(state)
        if settled is not None or player == TERMINAL:
            v = (settled or state.returns())[0]
            if bounds is not None:
                bounds[key] = (v, v)
            return v
        if player == CHANCE:
            v = self._chance(state, alpha, beta)
        else:
            v = self._decision(state, player, alpha, beta)
        if bounds is not None:
            low, high = bounds.get(key, (0.0, 1.0))
            if alpha > 0.0 and v <= alpha:
                high = min(high, v)
            elif beta < 1.0 and v >= beta:
                low = max(low, v)
            else:
                low = high = v
            bounds[key] = (low, high)
        return v

    def _decision(self, state: State, player: int, alpha: float, beta: float) -> float:
        # Alpha-beta, fail-soft: player 0 raises alpha, player 1 lowers beta.
        maximising = player == 0
        best = -1.0 if maximising else 2.0
        for action in state.legal_actions():
            v = self.window(state.apply(action), alpha, beta)
            if maximising:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _chance(self, state: State, alpha: float, beta: float) -> float:
        # Star1: ``known`` is the weighted sum of the outcomes searched, ``rest`` the
        # probability still unsearched.  Each outcome's window [low, high] is what its value
        # must beat for the average to land in (alpha, beta) whatever the rest turns out to be
        # (all 0s or all 1s).  A window outside [0, 1] is a cutoff without searching; a result
        # outside the window proves one.
        known, rest = 0.0, 1.0
        for outcome, probability in state.chance_outcomes():
            weight = float(probability)
            rest = max(rest - weight, 0.0)
            low = (alpha - known - rest) / weight
            high = (beta - known) / weight
            if low >= 1.0:
                return min(alpha, known + weight + rest)  # fail low: even a 1 stays below
            if high <= 0.0:
                return max(beta, known)  # fail high: the unsearched outcomes only add
            low, high = max(low, 0.0), min(high, 1.0)
            if low >= high:  # a window lost to rounding: search this outcome exactly
                low, high = 0.0, 1.0
            v = self.window(state.apply(outcome), low, high)
            known += weight * v
            if low > 0.0 and v <= low:
                return min(alpha, known + rest)  # fail low: an upper bound
            if high < 1.0 and v >= high:
                return max(beta, known)  # fail high: a lower bound
        return known


def expectimax(state: State, budget: Budget | None = None, transpositions: bool = True,
               line: bool = True, pruning: bool = False,
               kind: type[Expectimax] | None = None) -> SearchResult:
    """Solve ``state`` exactly: its value, every root action's value, and the best line.

    ``pruning`` (two players whose returns sum to 1 only) is short for ``kind=``
    :class:`PrunedExpectimax`; every root action is still searched with the full window, so all
    their values are exact.  ``kind`` gives another search with the interface of
    :class:`Expectimax` (a game's own compiled search, say); its :meth:`Expectimax.check`
    refuses a game it cannot solve.  Out of budget, the result is ``unknown`` and lists only the root
    actions already solved, with every player's proven interval when the search can tell
    (:meth:`Expectimax.cut_bounds`; two players only).
    """
    require_chance_protocol(state, "expectimax")
    if kind is None:
        kind = PrunedExpectimax if pruning else Expectimax
    kind.check(state)
    search = kind(budget or Budget(), transpositions)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, 20_000))
    moves: list[MoveValue] = []
    actions: Sequence[Hashable] = ()
    valued = False  # the root's values are known (only the best line is left)
    bounds = None
    try:
        player = state.current_player()
        if player >= 0:
            search.meter.node()
            root = None
            actions = state.legal_actions()
            for action in actions:
                values = search.value(state.apply(action))
                moves.append(MoveValue(action, values[player], values, exact=True))
                if root is None or values[player] > root[player] + EPSILON:
                    root = values
        else:
            root = search.value(state)
        valued = True
        principal = search.principal_line(state) if line else ()
        status: Status = "optimal"
    except BudgetExhausted:
        if not valued and state.num_players == 2:
            bounds = _root_bounds(search.cut_bounds(), player, moves, len(actions))
        root, principal, status = None, (), "unknown"
    finally:
        sys.setrecursionlimit(old_limit)
    usage = search.meter.usage() | {"table_hits": search.hits, "table_size": search.size()}
    return SearchResult(status, search.method, root, rank_moves(moves), principal, usage,
                        bounds)


def _root_bounds(cut: tuple[tuple[float, float], ...] | None, player: int,
                 moves: list[MoveValue], actions: int) -> tuple[tuple[float, float], ...] | None:
    """Both players' proven intervals for the root of a two-player search cut short (whose
    values add up to 1, as Tea Party's win shares do), from
    the interval of the state it was searching (``cut``): the root itself, or at a decision
    the action after the ``moves`` solved (their values exact, the actions after it at most
    1)."""
    if player < 0 or cut is None:
        return cut
    low, high = cut[player]
    best = max((m.value for m in moves), default=0.0)
    low, high = max(best, low), 1.0 if len(moves) + 1 < actions else max(best, high)
    mine = (low, high)
    return (mine, (1.0 - high, 1.0 - low)) if player == 0 else ((1.0 - high, 1.0 - low), mine)
