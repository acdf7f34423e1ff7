"""Random deals decided with perfect information: can this party be won at all?

A *deal* is a new party (:func:`~partysolver.models.meeple_party.new_game`) for a player
count, difficulty and length, with the bag and every deck put in a fixed order, all drawn
from one integer, the deal's seed: a perfect-information scenario (``ordered``), which the
scenario search (:mod:`.scenario`) decides:

* ``won``: a line that wins, each of its steps legal in the deal;
* ``lost`` ("cannot be won"): the search was exhausted without a win; the most photos any
  line takes, and the number of positions searched (the proof is the exhausted search);
* ``undecided``: the node budget ran out first (never a false "cannot be won").

Beside the verdict, the same deal is played by a policy (the hint's, by default) that does not
know the order: each of its decisions sees the party as an ordinary one (the bag's counts,
the decks as sets), while chance follows the deal's order.  The gap between the two says how
much of the game is information and how much is play.

An ordered bag takes a meeple put back at its bottom (the scenarios' convention), so
perfect information here means knowing that order too.

Deal ``index`` of a run seeded ``seed`` has the seed :func:`deal_seed` ``(seed, index)``;
:class:`DecideDeals` is the run's unit of work (picklable: it travels to worker processes
and Dask workers), a unit's result JSON data.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass, replace
from typing import Any

from ...models.meeple_party import new_game
from ...models.meeple_party.state import OVER, MeeplePartyState
from ...models.protocol import CHANCE, Action
from ..budget import Budget, BudgetExhausted
from ..simulate import game_seed
from .scenario import ScenarioSearch

DEAL_NODES = 3000
"""The default budget of one deal's search: positions of the scenario search (a count, not
a time: a deal's verdict is the same on every machine and under any load)."""

VERDICTS = ("won", "lost", "undecided")
"""A deal's verdict: won, cannot be won (``lost``), or undecided at the budget."""


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` (from 0) of a run seeded ``seed`` (what ``--deal`` takes)."""
    return game_seed(seed, index)


def deal(players: int, difficulty: str, length: str, seed: int, house: str | None = None,
         target: int = 0, turn_limit: int | None = None) -> MeeplePartyState:
    """The deal of ``seed``: a new party whose bag and decks are then shuffled into a fixed
    order, everything drawn from ``random.Random(seed)``.  ``target`` (photos to win) and
    ``turn_limit`` shrink the party (tiny deals for tests)."""
    rng = random.Random(seed)
    kwargs: dict[str, Any] = {} if turn_limit is None else {"turn_limit": turn_limit}
    state = new_game(players, rng, house=house, difficulty=difficulty, length=length, **kwargs)
    setup = replace(state.setup, ordered=True, target=target, _compiled={})
    bag = [kind for kind, n in enumerate(state.bag) for _ in range(n)]
    rng.shuffle(bag)
    decks = {}
    for name in ("photo_deck", "disaster_deck", "surprise_deck"):
        cards = list(getattr(state, name))
        rng.shuffle(cards)
        decks[name] = tuple(cards)
    return state._with(setup=setup, bag=tuple(bag), **decks)


class Blind:
    """An ordered party seen without its order: the same position with the bag as counts and
    the decks as sets (what a player at the table knows).  One per game, so that every view
    shares one setup (a policy's search from earlier in the turn stays usable)."""

    def __init__(self, setup: Any) -> None:
        self.setup = replace(setup, ordered=False, _compiled={})

    def __call__(self, state: MeeplePartyState) -> MeeplePartyState:
        return state._with(setup=self.setup, bag=state.bag_counts(),
                           photo_deck=tuple(sorted(state.photo_deck)),
                           disaster_deck=tuple(sorted(state.disaster_deck)),
                           surprise_deck=tuple(sorted(state.surprise_deck)))


def play_blind(state: MeeplePartyState, policy: Any, rng: random.Random
               ) -> tuple[MeeplePartyState, int]:
    """Play the ordered party ``state`` to its end: chance as the deal's order says, every
    decision by ``policy`` on the position seen without the order.  The final state (ordered)
    and the number of decisions."""
    blind = Blind(state.setup)
    decisions = 0
    while state.phase != OVER:
        if state.current_player() == CHANCE:
            action: Hashable = state.chance_outcomes()[0][0]
        else:
            action = policy(blind(state), rng)
            decisions += 1
        state = state.apply(action)
    return state, decisions


@dataclass(frozen=True)
class Decided:
    """One deal's verdict."""

    verdict: str
    """One of :data:`VERDICTS`."""
    photos: int
    """The most photos a line takes (the target when won; the best found when undecided)."""
    target: int
    positions: int
    """Positions the search expanded (the exhausted search's size when lost)."""
    line: list[tuple[MeeplePartyState, Action]]
    """The winning line (or the best line found), every step with the position before it."""
    departures: dict[int, Action]
    """In a won line, the steps (by index) where the line plays another move than the one
    tried first there (the turn hint's): that one was searched to the end and cannot win."""


def decide(state: MeeplePartyState, nodes: int | None = DEAL_NODES) -> Decided:
    """Decide the ordered party ``state`` within ``nodes`` positions (``None``: no budget)."""
    search = ScenarioSearch(state, Budget(nodes=nodes))
    try:
        won = search.run()
        exhausted = True
    except BudgetExhausted:
        won, exhausted = search.won is not None, False
    positions = search.meter.nodes
    target = state.setup.photos_to_win
    if won and search.won is not None:
        line = search.won
        departures = {}
        for i, (before, action) in enumerate(line):
            first = search.first.get(before.key())
            if first is not None and first != action:
                departures[i] = first
        return Decided("won", target, target, positions, line, departures)
    verdict = "lost" if exhausted else "undecided"
    return Decided(verdict, search.best_photos, target, positions, search.best_line, {})


@dataclass(frozen=True)
class DecideDeals:
    """The unit of a run of deals: ``DecideDeals(...)(seed, index)`` decides deal ``index`` of
    the run seeded ``seed`` and plays it with the policy; the result as JSON data:
    ``{"deal": SEED, "verdict", "photos", "target", "positions", "game": GameRecord}``
    (``game``: the policy's play, a simulation's game record)."""

    players: int
    difficulty: str
    length: str
    house: str | None
    policy: Any
    nodes: int | None = DEAL_NODES

    def __call__(self, seed: int, index: int) -> dict[str, Any]:
        return self.one(deal_seed(seed, index))

    def deal(self, seed: int) -> MeeplePartyState:
        return deal(self.players, self.difficulty, self.length, seed, self.house)

    def one(self, seed: int, found: Decided | None = None) -> dict[str, Any]:
        """Deal ``seed`` decided (or its verdict ``found`` already) and played."""
        from ..simulate import GameRecord
        from .policies import party_figures

        state = self.deal(seed)
        decided = found or decide(state, self.nodes)
        final, decisions = play_blind(state, self.policy, random.Random(seed * 64 + 2))
        record = GameRecord(tuple(final.returns()), (0,) * self.players,
                            party_figures(final), decisions)
        return {"deal": seed, "verdict": decided.verdict, "photos": decided.photos,
                "target": decided.target, "positions": decided.positions,
                "game": record.as_json()}


__all__ = ["DEAL_NODES", "VERDICTS", "Blind", "DecideDeals", "Decided", "deal", "deal_seed",
           "decide", "play_blind"]
