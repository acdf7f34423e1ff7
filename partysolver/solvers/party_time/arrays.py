"""The Party-Time playouts' inputs and results as arrays, shared by both ways to run them.

The paired playouts to the end of the game (see :mod:`.playouts`) run either compiled with
numba (:mod:`.playouts`, the first run compiles them) or interpreted over numpy arrays
(:mod:`.interpreted`, no compile).  Both read the same tables of the rules and the policies
(:func:`tables`), start from the same arrays (:func:`inputs`) and give a :class:`LongRun`.
This module imports numpy only, never numba.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

import numpy as np

from ...models.party_time.game import CARDS, GAIN, MAX_TOKENS, RETURN, Card, Play, Rules
from ...models.party_time.state import CARRY_OUT, PLAY, PartyTimeView, plays_for
from ..simulate import Figure
from ..stats import mean_interval
from .deals import Deals
from .policies import greedy_order, habit_key

PLAIN, GAIN_SQUARE, RETURN_SQUARE = 0, 1, 2
"""What a square does, in :attr:`Tables.squares`."""
TYPES = len(CARDS)
R, BLACK, STAR, QUESTION = int(Card.R), int(Card.BLACK), int(Card.STAR), int(Card.QUESTION)
MAX_PLAYS = 5 * (MAX_TOKENS + 1) + 4
"""A row of a policy table: every play of a player holding at most three tokens."""
MAX_CHAIN = 1000
"""A question-mark chain this long ends the playout (it cannot happen with a real deck)."""
SEED_MASK = 0x7FFFFFFF
"""Seeds reach the playouts as their low 31 bits (what ``np.random.seed`` used of them
anyway): any Python integer is a seed, even one past numba's 64-bit integers."""
BOTTLE, DIRECTION, REFILL = range(3)
"""The scalars of a playout (``s``): bottle, direction, the player whose hand refills (-1:
nobody)."""


@dataclass(frozen=True, slots=True)
class Tables:
    """The rules and both policies as arrays for the playouts."""

    squares: np.ndarray
    """``squares[bottle]``: plain, dark green or red, for bottle places 0..length."""
    greedy: np.ndarray
    """``greedy[bottle, tokens, i]`` = (card, tokens returned): greedy's i-th choice."""
    habits: np.ndarray
    """``habits[bottle, tokens, i]`` = (card, tokens returned): the habits' i-th play, padded
    with -1."""
    reverse: bool


@lru_cache(maxsize=16)
def tables(rules: Rules) -> Tables:
    length = rules.length
    symbols = {GAIN: GAIN_SQUARE, RETURN: RETURN_SQUARE}
    squares = np.array([symbols.get(rules.square(b), PLAIN) for b in range(length + 1)],
                       dtype=np.int64)
    greedy = np.full((length + 1, MAX_TOKENS + 1, TYPES, 2), -1, dtype=np.int64)
    habits = np.full((length + 1, MAX_TOKENS + 1, MAX_PLAYS, 2), -1, dtype=np.int64)
    for bottle in range(length + 1):
        for tokens in range(MAX_TOKENS + 1):
            greedy[bottle, tokens] = greedy_order(rules, bottle, tokens)
            plays = [(int(play.card), play.tokens) for card in range(TYPES)
                     for play in plays_for(card, tokens)]
            plays.sort(key=lambda p: habit_key(rules, bottle, tokens, p[0], p[1]))
            habits[bottle, tokens, :len(plays)] = plays
    return Tables(squares, greedy, habits, rules.r_card == "reverse")


@dataclass(frozen=True, slots=True)
class Inputs:
    """Everything the paired playouts of one view read, as the compiled kernel takes it (see
    ``playouts._long_run``, whose arguments these are, in order)."""

    squares: np.ndarray
    greedy: np.ndarray
    habits: np.ndarray
    reverse: bool
    scalars: np.ndarray
    tokens0: np.ndarray
    strips0: np.ndarray
    hand0: np.ndarray
    unseen: np.ndarray
    sizes: np.ndarray
    hands0: np.ndarray
    piles0: np.ndarray
    played0: np.ndarray
    me: int
    from_hand: bool
    plays: np.ndarray
    samples: int
    seed: int
    windows: np.ndarray
    """Written by the playouts: see :attr:`LongRun.windows`."""

    def arguments(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field.name) for field in fields(self))


def inputs(view: PartyTimeView, plays: list[Play] | tuple[Play, ...], samples: int,
           seed: int = 0, deals: Deals | None = None) -> Inputs:
    """The arrays the playouts of ``plays`` from ``view`` start from (see
    :func:`.playouts.long_run`); ``view``'s player must be the one to act."""
    me, n = view.player, view.num_players
    view.require_turn()
    t = tables(view.rules)
    refill = view.refill if view.phase == CARRY_OUT else -1
    scalars = np.array([view.bottle, view.direction, refill], dtype=np.int64)
    table = np.array([(int(play.card), play.tokens) for play in plays],
                     dtype=np.int64).reshape(len(plays), 2)
    used = deals.prefix(samples) if deals is not None else Deals((), ())
    hands = np.array(used.hands, dtype=np.int64).reshape(len(used), n, TYPES)
    piles = np.array(used.piles, dtype=np.int64).reshape(len(used), TYPES)
    sizes = np.array([0 if seat == me else view.hand_size(seat) for seat in range(n)],
                     dtype=np.int64)
    return Inputs(t.squares, t.greedy, t.habits, t.reverse, scalars,
                  np.array(view.tokens, dtype=np.int64), np.array(view.strips, dtype=np.int64),
                  np.array(view.hand, dtype=np.int64), np.array(view.unseen(), dtype=np.int64),
                  sizes, hands, piles, np.array(view.played, dtype=np.int64), me,
                  view.phase == PLAY, table, samples, seed & SEED_MASK,
                  np.zeros((len(plays), samples, n + 2), dtype=np.int64))


@dataclass(frozen=True, slots=True)
class LongRun:
    """Paired playouts of several plays to the end of the game."""

    plays: tuple[Play, ...]
    samples: int
    lost: np.ndarray
    """``lost[p, k]``: strips the player lost by the end of playout ``k`` of ``plays[p]``."""
    strips: int
    """The player's strips now: the most a playout can lose."""
    windows: np.ndarray
    """``windows[p, k]``: playout ``k`` of ``plays[p]`` from the play until my next turn
    begins: the strips each seat lost (``[:n]``; mine on the others' cards only), whether I
    lost one (``[n]``), and what the play that begins my next turn cost me (``[n + 1]``: a
    hand with no safe card, or a card a question mark made me carry out).  The play's own
    strip is not in it."""
    compiled: bool = True
    """Whether the compiled playouts ran them (else the interpreted ones: the same playouts,
    card for card)."""

    def mean(self, index: int) -> float:
        return float(self.lost[index].mean())

    def figure(self, index: int, count: int | None = None) -> Figure:
        """The mean of ``plays[index]`` over its first ``count`` playouts (all by default),
        with its 95% interval: the normal interval of the mean of the playouts (an interval of
        the long run under the playouts' own model: my habits and greedy opponents after the
        play), kept within 0 and the strips the player has; unbounded with fewer than two
        playouts."""
        used = self.samples if count is None else min(count, self.samples)
        row = self.lost[index, :used].astype(np.float64)
        spread = mean_interval(float(row.sum()), float((row * row).sum()), used)
        if used > 1:
            spread = spread.within(0.0, float(self.strips))
        return Figure(float(row.mean()), spread)
