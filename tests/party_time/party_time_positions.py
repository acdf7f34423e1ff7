"""Positions of greedy play for the Party-Time tests."""

from __future__ import annotations

import random

from partysolver.models.documents import Fields
from partysolver.models.party_time import GAME, HOUSE_RULES, Rules
from partysolver.models.party_time.position import load_rules
from partysolver.models.party_time.state import PartyTimeState
from partysolver.models.protocol import CHANCE, sample_chance
from partysolver.solvers.party_time.policies import GreedyPolicy


def decisions(players: int, count: int, seed: int, deck: dict[str, int] | None = None,
              rules: Rules = HOUSE_RULES) -> list[PartyTimeState]:
    """States of greedy play where the player to act has two plays or more (under ``rules``,
    with ``deck`` instead of its deck if given)."""
    rng = random.Random(seed)
    if deck is not None:
        rules = load_rules(Fields({"deck": deck}, "test"), rules)
    greedy = GreedyPolicy()
    found: list[PartyTimeState] = []
    while len(found) < count:
        state = GAME.initial_state(players, rng, rules)
        stop = rng.randrange(1, 40)
        for _ in range(stop):
            if state.is_terminal():
                break
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
            else:
                state = state.apply(greedy(state, rng))
        if not state.is_terminal() and state.current_player() != CHANCE \
                and len(state.legal_actions()) > 1:
            found.append(state)
    return found


def carry_out_states(rules: Rules, players: int, count: int, seed: int
                     ) -> list[PartyTimeState]:
    """States of greedy play in which the player hit by a question mark chooses the tokens to
    return with the revealed card."""
    rng = random.Random(seed)
    greedy = GreedyPolicy()
    found: list[PartyTimeState] = []
    while len(found) < count:
        state = GAME.initial_state(players, rng, rules)
        while not state.is_terminal() and len(found) < count:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if len(state.legal_actions()) > 1 and state.revealed >= 0:
                found.append(state)
            state = state.apply(greedy(state, rng))
    return found
