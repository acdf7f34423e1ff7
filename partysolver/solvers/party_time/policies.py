"""The opponents' documented policy, and the simulation policies.

**Greedy** (avoid losing a strip now) ranks the nine card types from public information alone
(the bottle, the player's own tokens and the board) and plays the best-ranked card in hand:

1. a *safe number card* (one that does not cross the star, returning the fewest tokens that
   make it safe): fewest tokens returned first, then the best square to stop on (by what it
   does to the player's tokens: a token gained before nothing before a token returned, a dark
   green square that would make a fourth token, losing them all, last; a red square with no
   token to return is nothing), then the longest move (the bottle ends nearer the
   star, for the next player; the small cards stay in hand);
2. otherwise a *special card*, saved until now: the black square, then the star card, then the
   question mark, then the R card;
3. otherwise a number card that crosses: no token returned, the best square to stop on, then
   the highest card (the small, precise cards stay in hand).

A revealed number card is carried out with the fewest tokens that make it safe, or none when
no number of tokens can.  Because the ranking depends only on public information, an
opponent's play is the best-ranked type among three cards dealt from the unseen cards, whose
probability the hint computes in closed form (:func:`opponent_plays`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from functools import lru_cache
from math import comb

from ...models.party_time.game import CARDS, HAND_SIZE, Card, Counts, Play, Rules
from ...models.party_time.state import (
    CARRY_OUT,
    PLAY,
    PartyTimeState,
    move_bottle,
    square_effect,
)
from ...models.protocol import State

SPECIAL_RANK = {Card.BLACK: 4, Card.STAR: 3, Card.QUESTION: 2, Card.R: 1}
"""Greedy's order of the special cards (higher first)."""

Choice = tuple[int, int]
"""A card type and the tokens returned with it."""


def number_choice(rules: Rules, bottle: int, tokens: int, card: int) -> tuple[int, bool]:
    """Greedy's tokens for number ``card``: the fewest that keep it from crossing, if it can
    afford them; else none.  Also whether the card is then safe."""
    value = card + 1
    needed = max(0, value - (rules.length - bottle))
    if needed <= min(tokens, value):
        return needed, True
    return 0, False


def _score(rules: Rules, bottle: int, tokens: int, card: int) -> tuple[tuple[int, ...], int]:
    """Greedy's preference for ``card`` (higher is better) and the tokens it returns."""
    if card > Card.FIVE:
        return (1, SPECIAL_RANK[Card(card)]), 0
    returned, safe = number_choice(rules, bottle, tokens, card)
    steps = card + 1 - returned
    gain = 0
    if steps:
        stop, _ = move_bottle(rules.length, bottle, steps)
        gain = square_effect(rules.square(stop), tokens - returned)
    if safe:
        return (2, -returned, gain, steps), returned
    return (0, gain, card), returned


@lru_cache(maxsize=4096)
def greedy_order(rules: Rules, bottle: int, tokens: int) -> tuple[Choice, ...]:
    """Every card type with greedy's tokens, best first, for a player holding ``tokens``."""
    scored = [(_score(rules, bottle, tokens, card), card) for card in range(len(CARDS))]
    scored.sort(key=lambda item: item[0][0], reverse=True)
    return tuple((card, returned) for (_, returned), card in scored)


def greedy_choice(rules: Rules, bottle: int, tokens: int, hand: Counts) -> Choice:
    """The card greedy plays from ``hand`` (and the tokens it returns)."""
    for card, returned in greedy_order(rules, bottle, tokens):
        if hand[card]:
            return card, returned
    raise ValueError("an empty hand")


def opponent_plays(order: tuple[Choice, ...], unseen: Counts, hand_size: int = HAND_SIZE
                   ) -> list[tuple[int, int, float]]:
    """The distribution of greedy's play from ``hand_size`` cards dealt from ``unseen``.

    The best-ranked type present is played: with ``A_j`` the unseen cards of the ``j`` best
    types, P(the ``j``-th type is played) = (C(N - A_{j-1}, h) - C(N - A_j, h)) / C(N, h).
    Returns (card, tokens, probability) for every play of positive probability.
    """
    total = sum(unseen)
    hands = comb(total, hand_size)
    plays = []
    without = hands  # hands holding none of the types ranked so far
    covered = 0
    for card, returned in order:
        here = unseen[card]
        if not here:
            continue
        covered += here
        rest = comb(total - covered, hand_size)
        if without > rest:
            plays.append((card, returned, (without - rest) / hands))
        without = rest
        if not without:
            break
    return plays


# -- habits: the hint's order among equally safe plays ---------------------------------------------

SPECIAL_WORTH = 1.5
"""What keeping a special card for later is worth, in tokens, in :func:`habit_key`."""


@lru_cache(maxsize=65536)
def habit_key(rules: Rules, bottle: int, tokens: int, card: int, returned: int
              ) -> tuple[float, ...]:
    """The habits (smaller first): how the player plays in the hint's playouts, and the hint's
    order among equally safe plays after their long run (or alone, without playouts).

    What a play leaves for later matters more than greedy's order (fewest tokens returned,
    best square, longest move) gives it: tokens above all.  Played alone against greedy
    opponents these habits lose fewer strips than greedy (``benchmarks/party_time.py``,
    part 2).  So:

    1. plays that keep the bottle from crossing the star, by the tokens the player holds
       afterwards (after the square's effect: a fourth token loses them all), then the
       highest number card (the big cards are the hardest to play safely later), then the
       longest move.  A special card counts as safe and as leaving ``tokens`` −
       :data:`SPECIAL_WORTH` tokens: it is played rather than a safe number card only when
       that card would cost two tokens or more;
    2. then plays that cross: by the tokens held afterwards, then the highest card.

    Among special cards: the black square, the star, the question mark, the R card.
    """
    if card > Card.FIVE:
        return 0.0, -(tokens - SPECIAL_WORTH), 0.0, 0.0, -SPECIAL_RANK[Card(card)]
    steps = card + 1 - returned
    held = tokens - returned
    if steps:
        stop, crossed = move_bottle(rules.length, bottle, steps)
        held += square_effect(rules.square(stop), held)
    else:
        crossed = False
    return float(crossed), float(-held), float(-card), float(-steps), 0.0


def habit_choice(rules: Rules, bottle: int, tokens: int, plays: list[Play]) -> Play:
    """The first of ``plays`` in :func:`habit_key`'s order (the engine's order among equals)."""
    return min(plays, key=lambda play: habit_key(rules, bottle, tokens, int(play.card),
                                                   play.tokens))


# -- simulation policies -------------------------------------------------------------------------


class GreedyPolicy:
    """Avoid losing a strip now (see the module's documentation for the full order)."""

    name = "greedy"

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        assert isinstance(state, PartyTimeState)
        me = state.turn
        tokens = state.tokens[me]
        if state.phase == CARRY_OUT:
            returned, _ = number_choice(state.rules, state.bottle, tokens, state.revealed)
            return Play(Card(state.revealed), returned)
        assert state.phase == PLAY
        card, returned = greedy_choice(state.rules, state.bottle, tokens, state.hands[me])
        return Play(Card(card), returned)


class HabitPolicy:
    """Plays the first legal play in :func:`habit_key`'s order, with no search: the hint's last
    tie-break alone (a benchmark baseline, and the player's policy in the hint's playouts)."""

    name = "habits"

    def __call__(self, state: State, rng: random.Random) -> Hashable:
        assert isinstance(state, PartyTimeState)
        return habit_choice(state.rules, state.bottle, state.tokens[state.turn],
                            state.legal_actions())
