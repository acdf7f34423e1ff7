"""Epic Monster Tea Party's evaluation by material and the simulation policies that need no
search: :class:`GreedyPolicy`, the documented one-step heuristic, and :class:`NewGame`, the
factory of fresh games.  The policy that plays the hint is :class:`.hint.HintPolicy`."""

from __future__ import annotations

import random
from collections.abc import Hashable

from ...models.tea_party.game import POINTS
from ...models.tea_party.state import DRAW, THROW_UP, TeaPartyState, points, size, unpack

CUP_RISK = 0.75
"""Greedy's weight of a point in a teacup relative to one in the stomach (cups can be stolen,
poured or swapped; stomachs only lose heroes to throw-ups)."""


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


class NewGame:
    """A fresh game for the given monsters (a picklable factory, for simulations in worker
    processes)."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def __call__(self, rng: random.Random) -> TeaPartyState:
        return TeaPartyState.new_game(self.players)
