"""Bots for simulated games: the hint policy, and a mixed one for making varied logs.

Both read only the acting player's view (:meth:`PoolPartyState.view`): the public events, their
own rules and their own hand.  The random bot is the generic
:class:`~partysolver.solvers.simulate.RandomPolicy` (uniform over the legal actions).
"""

from __future__ import annotations

import random
from collections.abc import Hashable

from ...models.pool_party_stars.game import Guess, Propose
from ...models.pool_party_stars.state import PoolPartyState
from ...models.protocol import State
from .hints import hint


class HintPolicy:
    """Plays the best-ranked option of :func:`~.hints.hint` (expected VIPs, then
    information; the first in the game's action order among equals)."""

    name = "hint"

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        assert isinstance(state, PoolPartyState)
        knowledge = state.view(state.current_player()).knowledge
        options = hint(knowledge).options
        return options[0].move if options else rng.choice(state.legal_actions())


class MixedPolicy:
    """Plays the hint with probability ``skill``; otherwise a random guess (with probability
    ``guesses``) or a random proposal.  Used to make varied game logs (puzzles, benchmarks)."""

    name = "mixed"

    def __init__(self, skill: float = 0.5, guesses: float = 0.25) -> None:
        self.skill = skill
        self.guesses = guesses

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        assert isinstance(state, PoolPartyState)
        if rng.random() < self.skill:
            return HintPolicy()(state, rng)
        actions = state.legal_actions()
        proposals = [a for a in actions if isinstance(a, Propose)]
        guesses = [a for a in actions if isinstance(a, Guess)]
        if proposals and (rng.random() < 1 - self.guesses or not guesses):
            return rng.choice(proposals)
        return rng.choice(guesses)
