"""Epic Monster Tea Party hints.

* :func:`hint` ranks every option for the hero in hand by the chooser's probability of winning:
  exact (expectimax with a table, compiled for two monsters; :mod:`.exact`) when the search
  fits its node budget, otherwise MCTS, its values marked as estimates.  It says which method
  it used, and why the exact search did not answer.
* :func:`draw_hints` does it for every hero the monster may draw.
* :class:`HintPolicy` plays the hint in simulations.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Literal

from ...models.tea_party.game import Cup, Draw, Hero, Squish
from ...models.tea_party.state import CHOOSE, DRAW, RANGER, TeaPartyState, count, points
from ...models.words import plural
from ..budget import Budget, MoveValue, SearchResult
from ..mcts import Evaluator, mcts
from . import exact, native
from .bounds import Bounds
from .bounds import for_hint as prove_bounds
from .budgets import (
    BOUNDS_NODES,
    BOUNDS_SHARE,
    COMPILE_WORTH,
    DEFAULT_MCTS_ITERATIONS,
    EXACT_LOOSE,
    EXACT_SHARE,
    WRITE_RESERVE,
    exact_nodes_default,
    loose_heroes,
    subtree_nodes_default,
)
from .exact import ExactSubtrees, Notice, Tables
from .native import compiled_playouts
from .playouts import LeafEstimate


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
        return f"+{plural(held.points, 'point')} in your teacup ({cup} there, not yet safe)"
    assert isinstance(move, Squish)
    ability = move.ability
    if not state.has_effect(move):
        return f"nothing changes: the {held.label} is just discarded"
    if ability == Hero.FIGHTER:
        cup = state.cups[me]
        gone = points(cup)
        text = f"{plural(gone, 'point')} go{'es' if gone == 1 else ''} safely into your stomach"
        if count(cup, RANGER):
            text += "; the Ranger makes you throw up 2 heroes at random"
        return text
    if ability == Hero.CLERIC:
        return f"draw again from the {state.bag_size()} heroes in the bag"
    assert move.target is not None
    name = state.name(move.target)
    if ability == Hero.ROGUE:
        assert move.take is not None
        return f"takes {plural(move.take.points, 'point')} from {name}, then cup or use it"
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
    return f"your teacup ({plural(mine, 'point')}) for {name}'s ({plural(theirs, 'point')})"


@dataclass(frozen=True, slots=True)
class RankedMove:
    move: Hashable
    text: str
    reason: str
    value: MoveValue


HintStatus = Literal["exact", "estimate", "unknown"]


EXACT_VALUES = "exact win probabilities (expectimax over every draw and throw-up)"


ESTIMATED_VALUES = (
    "estimated win probabilities (MCTS: each option's backed-up value; 'exact' marks an "
    "option whose whole subtree the search solved); no interval: a visit count does not "
    "measure how far the search's estimate is from the exact value (docs/solvers.md gives the "
    "measured error); 'visits' counts the simulations through each option")


@dataclass(frozen=True, slots=True)
class Hint:
    """The options for the hero in hand, best first, and how they were valued."""

    state: TeaPartyState
    result: SearchResult
    moves: tuple[RankedMove, ...]

    @property
    def exact(self) -> bool:
        return self.result.status == "optimal"

    @property
    def status(self) -> HintStatus:
        """``exact`` (every value proved), ``estimate`` (MCTS) or ``unknown`` (nothing
        searched)."""
        if self.exact:
            return "exact"
        return "estimate" if self.moves and self.moves[0].value.visits > 0 else "unknown"

    @property
    def values_are(self) -> str:
        """What the moves' values are, in words (for the report)."""
        return EXACT_VALUES if self.exact else ESTIMATED_VALUES

    interval: str | None = None
    """What the moves' intervals are intervals of: none is given (see ``values_are``)."""

    bounds: Bounds | None = None
    """Proven bounds on every option's exact value (``hint(bounds=True)``, two monsters)."""

    def proven(self, move: Hashable) -> tuple[float, float] | None:
        """The proven interval of ``move``'s exact value, if bounds were asked for."""
        return None if self.bounds is None else self.bounds.interval(move)

    @property
    def proved_best(self) -> Hashable | None:
        """The option proved best (its low at least every other option's high), if any."""
        if self.bounds is None:
            return None
        best = self.bounds.proved_best
        return None if best is None else self.bounds.actions[best]


EXPLORATION = 0.5
"""MCTS's UCB1 constant here (lower than the generic default: leaves are means of playouts
or exact values)."""


def _compile_first(state: TeaPartyState) -> bool:
    """Whether a time-limited hint on ``state`` would have to compile the two-monster search
    first (some ten seconds, past any short limit): then the compile starts in a process of
    its own (:func:`partysolver.solvers.compiled.compile_in_background`, once) and this hint
    answers with the interpreted search; a later one finds the compiled search ready."""
    if state.num_players != 2 or not exact.needs_compile():
        return False
    from ..compiled import TEA_PARTY_SEARCH, compile_in_background

    compile_in_background(TEA_PARTY_SEARCH)
    return True


def _native_first() -> bool:
    """Whether a hint without a time limit starts with the playouts loaded without numba
    (:mod:`.native`, issue 30), the exact search left to load when a subtree needs it (the
    opening's hint never does): not if this process has numba's already, nor when the kernel
    is not compiled.  Where it is compiled but the playouts' object is missing (a cache from
    before), the object's build starts in the background."""
    if exact.loaded() or exact.needs_compile():
        return False  # (a kernel to compile: announced and done first, as before)
    if native.load() is not None:
        return True
    if not native.available():
        native.build_in_background()
    return False


def search(state: TeaPartyState, budget: Budget, rng: random.Random,
           exact_nodes: int | None = None,
           mcts_iterations: int = DEFAULT_MCTS_ITERATIONS,
           exact_loose: int = EXACT_LOOSE, evaluator: Evaluator | None = None,
           notice: Notice | None = None, portion: float = 1.0) -> SearchResult:
    """Exact when it fits ``exact_nodes`` (default :func:`exact_nodes_default`) and
    ``EXACT_SHARE`` of the time, else MCTS with the budget's iterations (or
    ``mcts_iterations``) and the time left, its subtrees valued exactly where a small search
    finishes (:class:`.exact.ExactSubtrees`), its other leaves by ``evaluator`` (default
    :class:`.playouts.LeafEstimate`; two monsters: the compiled playouts, loaded without numba
    where they can be, :func:`_native_first`).  Compiling or loading the compiled search is
    not charged to the time limit (``notice`` is told before a compile); under
    ``COMPILE_WORTH`` seconds it is used
    only if this process has loaded it already (loading it from numba's cache takes about a
    second, seconds on a busy machine: past a short deadline).  An estimate's ``method`` says
    why the exact search did not answer.  Without a time limit, MCTS's subtree searches share a node budget
    (:func:`.budgets.subtree_nodes_default`), and ``portion`` scales that and the default
    iterations (a draw's hint is one of several)."""
    if exact_nodes is None:
        exact_nodes = exact_nodes_default(state)
    limit = budget.time
    compile_ok = limit is None or (limit >= COMPILE_WORTH and not _compile_first(state))
    spent = 0.0
    tables = Tables(limit, root=state)
    loose = loose_heroes(state)
    if loose <= exact_loose:
        share = None if limit is None else limit * EXACT_SHARE
        result = exact.exact_search(state, Budget(time=share, nodes=exact_nodes), line=True,
                                    notice=notice, compile=compile_ok, tables=tables)
        if result.status == "optimal":
            return result
        spent = result.usage.get("seconds", 0.0)
        why = (f"the exact search ran out of nodes ({exact_nodes:,}, --exact-nodes)"
               if result.usage.get("nodes", 0) >= exact_nodes
               else "the exact search ran out of its share of the time limit")
    else:
        why = (f"the exact search was not tried: {loose} heroes are loose, and it is tried "
               f"up to {exact_loose}")
    compiled = state.num_players == 2 and (compile_ok or (exact.loaded()
                                                        and not exact.needs_compile()))
    if compiled and not (limit is None and evaluator is None and _native_first()):
        exact.load_compiled(notice)
    if evaluator is None:  # the playouts loaded without numba already: no load to wait for
        fast = compiled or (state.num_players == 2 and native.running())
        evaluator = compiled_playouts() if fast else LeafEstimate()
    subtrees = ExactSubtrees(state.num_players, compiled, tables, None if limit is not None
                             else int(portion * subtree_nodes_default(state, compiled)),
                             notice)
    left = None if limit is None else max(limit - spent, 0.0)
    iterations = budget.iterations or (None if limit is not None
                                       else max(1, int(portion * mcts_iterations)))
    result = mcts(state, Budget(time=left, iterations=iterations), rng, evaluator=evaluator,
                  exploration=EXPLORATION, solver=subtrees)
    return replace(result, method=f"{result.method} ({why})")


def hint(state: TeaPartyState, budget: Budget, rng: random.Random,
         exact_nodes: int | None = None, notice: Notice | None = None, portion: float = 1.0,
         bounds: bool = False) -> Hint:
    """Every option for the hero in hand, ranked by the chooser's chance to win; ``notice``
    is told one line before the compiled search compiles, ``portion`` scales the default
    budgets (see :func:`search`).  With ``bounds`` (two monsters), every option also gets a
    proven interval for its exact value (:mod:`.bounds`): the search above has
    ``1 - BOUNDS_SHARE`` of the time limit, the bounds search what is left (without a time
    limit, ``portion`` of ``BOUNDS_NODES`` nodes); an exact hint's intervals are its values."""
    if state.phase != CHOOSE:
        raise ValueError("a hint needs a hero in hand")
    if bounds and state.num_players != 2:
        raise ValueError("proven bounds are for two monsters")
    started = time.perf_counter()
    first = budget if not bounds or budget.time is None else \
        replace(budget, time=budget.time * (1 - BOUNDS_SHARE))
    result = search(state, first, rng, exact_nodes, notice=notice, portion=portion)
    follow = follow_up(state, result.line)
    ranked = tuple(_ranked(state, m, follow if i == 0 else "")
                   for i, m in enumerate(result.moves))
    proven = None
    if bounds:
        left = None if budget.time is None else \
            max(budget.time - (time.perf_counter() - started) - WRITE_RESERVE, 0.0)
        nodes = None if left is not None else max(1, int(portion * BOUNDS_NODES))
        proven = prove_bounds(state, result, left, nodes, exact.loaded())
    return Hint(state, result, ranked, bounds=proven)


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
               exact_nodes: int | None = None, notice: Notice | None = None,
               bounds: bool = False) -> list[DrawHint]:
    """A hint for every hero the active monster may draw, most likely first.  Each draw gets
    its share of the budget; under a time limit, of the time still left (a draw's hint that
    ran over its share is taken out of the later draws', so the whole ends near the limit)."""
    if state.phase != DRAW:
        raise ValueError("draw hints need a position before the draw")
    outcomes = sorted(state.chance_outcomes(), key=lambda item: -item[1])
    nodes = exact_nodes_default(state) if exact_nodes is None else exact_nodes
    fraction = 1 / len(outcomes)
    hints = []
    for (draw, probability), share in zip(outcomes, budget.shares(
            len(outcomes), budget.scaled(fraction)), strict=True):
        assert isinstance(draw, Draw)
        hints.append(DrawHint(draw.hero, float(probability),
                              hint(state.apply(draw), share, rng, nodes // len(outcomes),
                                   notice, portion=fraction, bounds=bounds)))
    return hints


class HintPolicy:
    """Plays the hint with a simulation budget: exact within ``exact_nodes`` once at most
    ``exact_loose`` heroes are loose, else MCTS with ``iterations``, exact subtrees, and
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
                        evaluator=LeafEstimate(self.playout_decisions))
        assert result.best is not None
        return result.best.action
