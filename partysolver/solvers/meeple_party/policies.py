"""Meeple Party simulation: the hint policy, new games, and the figures of a finished party.

* ``hint``: every decision of the turn is the turn hint's first step
  (:func:`~.turn.best_action`: exact; in simulations under a budget per decision,
  :data:`SIMULATION_NODES` by default, with the best-first fallback of
  :func:`~.turn.anytime_action` when a decision does not fit); the clock's decisions between
  turns (Lay One Down, a guest at a Door, a clock welcome, a surprise's choices) are the
  :func:`clock_choice` look-ahead.
* ``random``: uniformly random among the legal actions (refreshes included).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from ...models.meeple_party import new_game
from ...models.meeple_party.game import MAX_STRESS
from ...models.meeple_party.state import MeeplePartyState
from ...models.protocol import Action
from ..simulate import RandomPolicy
from .evaluate import Evaluator, rank_key
from .turn import TurnSearch, anytime_action, best_action, searchable

CATEGORIES = ("total perfection", "legendary", "awesome", "great")
"""Score categories of a won party by the highest stress of any roommate (0 to 3)."""

HOT_TUB_SCORES = ((0, "There was a Hot Tub?"), (6, "Relaxing Spa Day!"),
                  (15, "That Hot Tub was HOT!"), (25, "Most Awesome Hot Tub!"),
                  (31, "HOT TUB of the GODS!"))


def category(state: MeeplePartyState) -> str:
    """The rulebook's score category of a finished party."""
    if state.setup.variant == "hot-tub":
        n = state.hot_tub_count()
        return [name for low, name in HOT_TUB_SCORES if n >= low][-1]
    if state.outcome != "won":
        return "lost" if state.outcome == "lost" else state.outcome or "unfinished"
    return CATEGORIES[max(state.stress)]


def clock_choice(state: MeeplePartyState) -> Action:
    """Between turns (the clock's icon), the choice that leaves the best position for the next
    player: their disasters and photos as the turn hint values them, before anyone moves."""
    n = state.num_players
    best: tuple[tuple[float, ...], Action] | None = None
    for action, child in state.children():
        ahead = child._with(active=(state.active + 1) % n)
        value = Evaluator(ahead).plain(child.board, child.stress)
        key = rank_key(value)
        if best is None or key > best[0]:
            best = (key, action)
    assert best is not None
    return best[1]


SIMULATION_NODES = 300
"""The hint policy's default budget in simulations: end positions (and searched positions)
per decision.  Most decisions fit and are exact; a crowded welcome is searched best-first."""


@dataclass
class HintPolicy:
    """Plays the turn hint (see the module docstring); picklable for worker processes.

    ``max_nodes`` ``None``: the exact hint at every decision; a number: the exact hint when the
    decision fits in that many nodes, else :func:`~.turn.anytime_action` (counted in
    ``cut``)."""

    max_nodes: int | None = None
    name: str = "hint"
    cut: int = 0
    search: TurnSearch | None = field(default=None, repr=False, compare=False)

    def __call__(self, state: Any, rng: random.Random) -> Action:
        if not searchable(state):
            self.search = None
            return clock_choice(state)
        if self.max_nodes is None:
            return best_action(state)
        action, exact, self.search = anytime_action(state, self.max_nodes, self.search)
        self.cut += not exact
        return action

    def __getstate__(self) -> dict[str, Any]:
        return {"max_nodes": self.max_nodes, "name": self.name, "cut": 0, "search": None}


def make_policy(name: str, max_nodes: int | None = SIMULATION_NODES) -> Any:
    if name == "random":
        return RandomPolicy()
    if name == "hint":
        return HintPolicy(max_nodes)
    raise ValueError(f"unknown policy {name!r}")


@dataclass(frozen=True)
class NewParty:
    """Deals new parties with fixed settings (a picklable game factory for the simulator)."""

    players: int = 3
    house: str | None = None
    difficulty: str = "standard"
    length: str = "casual"
    variant: str = "party"
    start: int = 12

    def __call__(self, rng: random.Random) -> MeeplePartyState:
        return new_game(self.players, rng, house=self.house, difficulty=self.difficulty,
                        length=self.length, variant=self.variant, start=self.start)


@dataclass(frozen=True)
class FromPosition:
    """Every simulated game starts from the same position (its chance nodes differ)."""

    state: MeeplePartyState

    def __call__(self, rng: random.Random) -> MeeplePartyState:
        return self.state


FIGURE_BOUNDS = {"photos": (0.0, math.inf), "turns": (0.0, math.inf),
                 "max_stress": (0.0, float(MAX_STRESS)), "mean_stress": (0.0, float(MAX_STRESS)),
                 "hot_tub": (0.0, math.inf)}
"""The values each figure of :func:`party_figures` can take (the others lie within [0, 1])."""


def party_figures(state: MeeplePartyState) -> dict[str, float]:
    """The figures of a finished party, averaged by the simulator."""
    figures = {"won": float(state.outcome == "won"), "photos": float(state.taken),
               "turns": float(state.turn), "max_stress": float(max(state.stress)),
               "mean_stress": sum(state.stress) / len(state.stress),
               "stressed_out": float(min(state.stress) >= MAX_STRESS)}
    if state.setup.variant == "hot-tub":
        figures["hot_tub"] = float(state.hot_tub_count())
    else:
        for i, name in enumerate(CATEGORIES):
            figures[f"category_{name.replace(' ', '_')}"] = float(
                state.outcome == "won" and max(state.stress) == i)
    return figures
