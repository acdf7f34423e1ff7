"""Epic Monster Tea Party solvers: hints, exact solving and the simulation policies.

* :func:`hint` ranks every option for the hero in hand by the chooser's probability of winning:
  exact (expectimax with a table, compiled for two monsters) when the search fits its node
  budget, otherwise MCTS with per-move 95% intervals.  It says which method it used.
* :func:`solve` gives the exact value of a position (each monster's win probability) and the
  best line, or ``unknown`` at the budget.
* :class:`GreedyPolicy` is the documented one-step heuristic; :class:`HintPolicy` plays the hint.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..models.protocol import CHANCE, TERMINAL
from ..models.tea_party.game import POINTS, Cup, Draw, Hero, Squish
from ..models.tea_party.state import (
    CHOOSE,
    DRAW,
    RANGER,
    THROW_UP,
    TeaPartyState,
    count,
    points,
    size,
    unpack,
)
from .budget import Budget, BudgetExhausted, MoveValue, SearchResult
from .expectimax import Expectimax, expectimax
from .mcts import Evaluator, mcts, playout

if TYPE_CHECKING:  # the compiled search imports numba: only when a search needs it
    from .tea_party_compiled import CompiledExpectimax

DEFAULT_EXACT_NODES = 300_000
"""Nodes the exact search may use before a hint falls back to MCTS (three or four monsters:
the generic search expands some 25,000 nodes a second)."""
DEFAULT_EXACT_NODES_TWO = 3_000_000
"""The same for two monsters, whose compiled search expands some 700,000 nodes a second."""

DEFAULT_MCTS_ITERATIONS = 10_000

DEFAULT_SOLVE_NODES = 10_000_000
"""Nodes an exact ``solve`` may use by default, three or four monsters (the table holds about
as many entries, some 300 bytes each)."""
DEFAULT_SOLVE_NODES_TWO = 20_000_000
"""The same for two monsters (the compiled search's table: 43 to 85 bytes an entry)."""


def exact_nodes_default(state: TeaPartyState) -> int:
    """A hint's default exact-search budget for this many monsters."""
    return DEFAULT_EXACT_NODES_TWO if state.num_players == 2 else DEFAULT_EXACT_NODES


def solve_nodes_default(state: TeaPartyState) -> int:
    """``solve``'s default node budget for this many monsters."""
    return DEFAULT_SOLVE_NODES_TWO if state.num_players == 2 else DEFAULT_SOLVE_NODES

ENDGAME_LOOSE = 5
"""MCTS leaves with at most this many heroes outside the stomachs are valued exactly..."""
ENDGAME_NODES = 4_000
"""...when that takes at most this many nodes (else by a random playout)."""

CUP_RISK = 0.75
"""Greedy's weight of a point in a teacup relative to one in the stomach (cups can be stolen,
poured or swapped; stomachs only lose heroes to throw-ups)."""


# -- reasons ----------------------------------------------------------------------------------


def consequence(state: TeaPartyState, move: Hashable, then: str = "") -> str:
    """What ``move`` does, in game terms (without its value); ``then`` is the chooser's next
    decision in the best line, when the move leads straight to one."""
    text = _effect(state, move)
    if then:
        return f"{text.removesuffix(', then cup or use it')}; then {then}"
    return text


def _effect(state: TeaPartyState, move: Hashable) -> str:
    me = state.player
    held = Hero(state.held)
    if isinstance(move, Cup):
        if held == Hero.RANGER:
            return "a Ranger cannot be squished: it must go in your teacup"
        cup = points(state.cups[me]) + held.points
        return f"+{held.points} points in your teacup ({cup} there, not yet safe)"
    assert isinstance(move, Squish)
    ability = move.ability
    if not state.has_effect(move):
        return f"nothing changes: the {held.label} is just discarded"
    if ability == Hero.FIGHTER:
        cup = state.cups[me]
        text = f"{points(cup)} points go safely into your stomach"
        if count(cup, RANGER):
            text += "; the Ranger makes you throw up 2 heroes at random"
        return text
    if ability == Hero.CLERIC:
        return f"draw again from the {state.bag_size()} heroes in the bag"
    assert move.target is not None
    name = state.name(move.target)
    if ability == Hero.ROGUE:
        assert move.take is not None
        return f"takes {move.take.points} points from {name}, then cup or use it"
    if ability == Hero.WIZARD:
        cup = state.cups[move.target]
        whose = "your" if move.target == me else f"{name}'s"
        rangers = count(cup, RANGER)
        extra = f" ({rangers} Ranger{'s' if rangers > 1 else ''} back into the bag)" \
            if rangers else ""
        amount = points(cup)
        return (f"the {amount} point{'s' if amount != 1 else ''} in {whose} teacup "
                f"return{'s' if amount == 1 else ''} to the bag{extra}")
    mine, theirs = points(state.cups[me]), points(state.cups[move.target])
    return f"your teacup ({mine} points) for {name}'s ({theirs} points)"


# -- hints ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankedMove:
    move: Hashable
    text: str
    reason: str
    value: MoveValue


@dataclass(frozen=True, slots=True)
class Hint:
    """The options for the hero in hand, best first, and how they were valued."""

    state: TeaPartyState
    result: SearchResult
    moves: tuple[RankedMove, ...]

    @property
    def exact(self) -> bool:
        return self.result.status == "optimal"


def _exact(state: TeaPartyState, budget: Budget, line: bool = False) -> SearchResult:
    """Two monsters: the compiled search; more: the generic one (plain expectimax with its
    table: pruning windows cut almost nothing in this game)."""
    if state.num_players != 2:
        return expectimax(state, budget, line=line, kind=Expectimax)
    from .tea_party_compiled import CompiledExpectimax  # numba: only for two monsters

    return expectimax(state, budget, line=line, kind=CompiledExpectimax)


class EndgameEvaluator:
    """MCTS leaf values: exact when few heroes are still loose (bag, teacups, hand), else the
    returns of a random playout (cut after ``playout_decisions`` decisions, if given, and
    scored by :func:`material_shares`).  The exact searches share one table, so every endgame
    position is solved at most once per hint."""

    def __init__(self, max_loose: int = ENDGAME_LOOSE, nodes: int = ENDGAME_NODES,
                 playout_decisions: int | None = None) -> None:
        self.max_loose = max_loose
        self.nodes = nodes
        self.playout_decisions = playout_decisions
        self.table: dict[Hashable, Any] = {}
        self.compiled: CompiledExpectimax | None = None
        self.solved = 0

    def _search(self, state: TeaPartyState) -> Expectimax:
        budget = Budget(nodes=self.nodes)
        if state.num_players != 2:
            return Expectimax(budget, table=self.table)
        if self.compiled is None:
            from .tea_party_compiled import CompiledExpectimax

            self.compiled = CompiledExpectimax(budget)
        else:
            self.compiled.meter = budget.start()
        return self.compiled

    def __call__(self, state: TeaPartyState, rng: random.Random) -> tuple[float, ...]:
        if loose_heroes(state) <= self.max_loose:
            search = self._search(state)
            try:
                values = search.value(state)
            except BudgetExhausted:
                pass
            else:
                self.solved += 1
                return values
        return playout(state, rng, decisions=self.playout_decisions,
                       cutoff=lambda cut, _: material_shares(cut))


MATERIAL_SCALE = 6.0
"""Points of material difference that make a 73%-27% favourite (logistic scale)."""


def material_shares(state: TeaPartyState) -> tuple[float, ...]:
    """A guess at each monster's win share from material alone: a softmax of
    :func:`material` over ``MATERIAL_SCALE``."""
    weights = [math.exp(material(state, seat) / MATERIAL_SCALE)
               for seat in range(state.num_players)]
    total = sum(weights)
    return tuple(w / total for w in weights)


EXACT_LOOSE = 18
"""Positions with more heroes loose than this are never tried exactly (they cannot fit)."""


def search(state: TeaPartyState, budget: Budget, rng: random.Random,
           exact_nodes: int | None = None,
           mcts_iterations: int = DEFAULT_MCTS_ITERATIONS,
           exact_loose: int = EXACT_LOOSE, evaluator: Evaluator | None = None) -> SearchResult:
    """Exact when it fits ``exact_nodes`` (default :func:`exact_nodes_default`) and half the
    time, else MCTS with the budget's iterations (or ``mcts_iterations``) and the time left,
    its leaves valued exactly once the game is small (:class:`EndgameEvaluator`).  An
    estimate's ``method`` says why the exact search did not answer."""
    start = time.perf_counter()
    if exact_nodes is None:
        exact_nodes = exact_nodes_default(state)
    loose = loose_heroes(state)
    if loose <= exact_loose:
        half = None if budget.time is None else budget.time / 2
        result = _exact(state, Budget(time=half, nodes=exact_nodes), line=True)
        if result.status == "optimal":
            return result
        why = (f"the exact search ran out of nodes ({exact_nodes:,}, --exact-nodes)"
               if result.usage.get("nodes", 0) >= exact_nodes
               else "the exact search ran out of its half of the time limit")
    else:
        why = (f"the exact search was not tried: {loose} heroes are loose, and it is tried "
               f"up to {exact_loose}")
    left = None if budget.time is None else max(budget.time - (time.perf_counter() - start),
                                                1e-9)
    iterations = budget.iterations or (None if budget.time is not None else mcts_iterations)
    result = mcts(state, Budget(time=left, iterations=iterations), rng,
                  evaluator=evaluator or EndgameEvaluator())
    return replace(result, method=f"{result.method} ({why})")


def loose_heroes(state: TeaPartyState) -> int:
    """Heroes still outside the stomachs: in the bag, the teacups and the hand."""
    return size(state.bag + sum(state.cups)) + (state.held >= 0)


def hint(state: TeaPartyState, budget: Budget, rng: random.Random,
         exact_nodes: int | None = None) -> Hint:
    """Every option for the hero in hand, ranked by the chooser's chance to win."""
    if state.phase != CHOOSE:
        raise ValueError("a hint needs a hero in hand")
    result = search(state, budget, rng, exact_nodes)
    follow = follow_up(state, result.line)
    ranked = tuple(_ranked(state, m, follow if i == 0 else "")
                   for i, m in enumerate(result.moves))
    return Hint(state, result, ranked)


def _ranked(state: TeaPartyState, value: MoveValue, then: str = "") -> RankedMove:
    return RankedMove(value.action, state.describe_action(value.action),
                      consequence(state, value.action, then), value)


def follow_up(state: TeaPartyState, line: tuple[Hashable, ...]) -> str:
    """The chooser's next decision in the best line, when the move leads straight to one (a
    Rogue's steal): what to do with the stolen hero."""
    if len(line) < 2:
        return ""
    after = state.apply(line[0])
    if after.current_player() != state.player:
        return ""
    return after.describe_action(line[1])


@dataclass(frozen=True, slots=True)
class DrawHint:
    """At the start of a turn: each possible draw, its probability and the best answer."""

    hero: Hero
    probability: float
    hint: Hint


def draw_hints(state: TeaPartyState, budget: Budget, rng: random.Random,
               exact_nodes: int | None = None) -> list[DrawHint]:
    """A hint for every hero the active monster may draw, most likely first."""
    if state.phase != DRAW:
        raise ValueError("draw hints need a position before the draw")
    outcomes = sorted(state.chance_outcomes(), key=lambda item: -item[1])
    nodes = exact_nodes_default(state) if exact_nodes is None else exact_nodes
    share = budget.scaled(1 / len(outcomes))
    hints = []
    for draw, probability in outcomes:
        assert isinstance(draw, Draw)
        hints.append(DrawHint(draw.hero, float(probability),
                              hint(state.apply(draw), share, rng, nodes // len(outcomes))))
    return hints


# -- solving ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Solution:
    state: TeaPartyState
    result: SearchResult
    line: tuple[str, ...]


def solve(state: TeaPartyState, budget: Budget) -> Solution:
    """The exact value of ``state`` and its best line (likeliest outcome at chance nodes)."""
    result = _exact(state, budget, line=True)
    return Solution(state, result, describe_line(state, result.line))


def describe_line(state: TeaPartyState, line: tuple[Hashable, ...]) -> tuple[str, ...]:
    steps = []
    for action in line:
        player = state.current_player()
        if player == CHANCE:
            steps.append(f"(likeliest) {state.describe_action(action)}")
        else:
            steps.append(f"{state.name(player)}: {state.describe_action(action)}")
        state = state.apply(action)
    if state.current_player() == TERMINAL:
        scores = ", ".join(f"{state.name(i)} {p}" for i, p in enumerate(state.scores()))
        steps.append(f"final stomachs: {scores}")
    return tuple(steps)


# -- policies for simulation ------------------------------------------------------------------


def material(state: TeaPartyState, seat: int) -> float:
    """Stomach points plus teacup points at ``CUP_RISK``; a pending throw-up at its expectation."""
    stomach = state.stomachs[seat]
    value = points(stomach) + CUP_RISK * points(state.cups[seat])
    if state.phase == THROW_UP and state.thrower == seat:
        total = size(stomach)
        if total:
            value -= min(2, total) * points(stomach) / total
    return value


def greedy_value(state: TeaPartyState, seat: int) -> float:
    """Greedy's evaluation: my material minus the best opponent's; the draw after a Cleric is
    valued as the average hero of the bag put in my teacup."""
    mine = material(state, seat)
    if state.phase == DRAW and state.player == seat and state.bag:
        bag = unpack(state.bag)
        mine += CUP_RISK * sum(n * p for n, p in zip(bag, POINTS, strict=True)) / sum(bag)
    best_other = max(material(state, other) for other in range(state.num_players)
                     if other != seat)
    return mine - best_other


class GreedyPolicy:
    """One-step greedy: the option with the best :func:`greedy_value` (first of equals)."""

    name = "greedy"

    def __call__(self, state: TeaPartyState, rng: random.Random) -> Hashable:
        me = state.player
        best, best_value = None, -1e9
        for move in state.legal_actions():
            value = greedy_value(state.apply(move), me)
            if value > best_value + 1e-9:
                best, best_value = move, value
        return best


class HintPolicy:
    """Plays the hint with a simulation budget: exact within ``exact_nodes`` once at most
    ``exact_loose`` heroes are loose, else MCTS with ``iterations``, exact endgames, and
    playouts cut after ``playout_decisions`` decisions and scored by material."""

    name = "hint"

    def __init__(self, exact_nodes: int = 20_000, iterations: int = 100,
                 exact_loose: int = 8, playout_decisions: int | None = 12) -> None:
        self.exact_nodes = exact_nodes
        self.iterations = iterations
        self.exact_loose = exact_loose
        self.playout_decisions = playout_decisions

    def __call__(self, state: TeaPartyState, rng: random.Random) -> Hashable:
        moves = state.legal_actions()
        if len(moves) == 1:
            return moves[0]
        result = search(state, Budget(iterations=self.iterations), rng, self.exact_nodes,
                        exact_loose=self.exact_loose,
                        evaluator=EndgameEvaluator(playout_decisions=self.playout_decisions))
        assert result.best is not None
        return result.best.action


class NewGame:
    """A fresh game for the given monsters (a picklable factory, for simulations in worker
    processes)."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def __call__(self, rng: random.Random) -> TeaPartyState:
        return TeaPartyState.new_game(self.players)
