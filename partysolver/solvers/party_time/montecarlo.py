"""A Monte Carlo estimate of the hint's values, played out on the rules engine itself.

It is the hint's test oracle: it shares nothing with :mod:`.belief` but the opponents' policy.
Each playout deals the unseen cards from the view at random, plays the move on the engine, and
plays on until the horizon, dealing the cards ``me`` cannot see afresh before every opponent
decision (the hint's model: see :mod:`.belief`), the draws and reveals coming from the engine's
pile.  The mean strips lost per seat, and the rate of playouts in which ``me`` lost a strip, come
with 95% intervals.

Beyond the horizon, playouts to the end of the game on the engine: :func:`habits_to_end` is
the plain-Python oracle (and benchmark baseline) of the compiled long run (:mod:`.playouts`),
and :func:`compare_long_run` pairs two plays, everyone greedy after them (benchmark part 3).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ...models.party_time.game import CARDS, Card, Counts, Play
from ...models.party_time.state import (
    CARRY_OUT,
    OVER,
    PLAY,
    REVEAL,
    PartyTimeState,
    PartyTimeView,
    add_card,
    add_counts,
    deal,
    sub_counts,
)
from ...models.protocol import CHANCE, sample_chance
from ..budget import Interval
from ..simulate import Policy, play_game
from ..stats import mean_interval, wilson_interval
from .policies import GreedyPolicy, HabitPolicy

MyChoice = Callable[[PartyTimeState], Play]
"""How ``me`` carries out a revealed number card when there is a choice (playouts only reach
it when ``me`` holds tokens)."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """Playout means with 95% intervals."""

    samples: int
    losses: tuple[float, ...]
    intervals: tuple[Interval, ...]
    lose_rate: float
    """The share of playouts in which ``me`` lost a strip before their next action."""
    lose_interval: Interval


def redeal(state: PartyTimeState, me: int, known: Counts, rng: random.Random
           ) -> PartyTimeState:
    """Deal every card ``me`` cannot see at random: the other hands, the pile, and the cards in
    ``me``'s hand beyond ``known`` (drawn since the root, not looked at yet)."""
    pool = list(state.pile)
    for seat, hand in enumerate(state.hands):
        mine = known if seat == me else (0,) * len(CARDS)
        for card, count in enumerate(sub_counts(hand, mine)):
            pool[card] += count
    cards = [card for card, count in enumerate(pool) for _ in range(count)]
    rng.shuffle(cards)
    hands, pile = deal(cards, [sum(hand) - (sum(known) if seat == me else 0)
                               for seat, hand in enumerate(state.hands)])
    hands[me] = add_counts(hands[me], known)
    return PartyTimeState(state.rules, state.names, state.phase, state.turn, state.refill,
                          state.revealed, state.direction, state.bottle, state.tokens,
                          state.strips, tuple(hands), pile, state.played)


def playout(view: PartyTimeView, play: Play, rng: random.Random,
            my_choice: MyChoice | None = None) -> tuple[int, ...]:
    """Strips each seat loses in one playout of ``play``, until ``me`` next acts."""
    me = view.player
    greedy = GreedyPolicy()
    state = view.sample(rng)
    start = state.strips
    known = view.hand
    if state.phase == PLAY:
        known = add_card(known, play.card, -1)
    state = state.apply(play)
    while state.phase != OVER:
        player = state.current_player()
        if player == CHANCE:
            revealing = state.phase == REVEAL and state.turn == me
            state = state.apply(sample_chance(state, rng))
            if revealing and state.phase != CARRY_OUT:
                break  # I carried out the revealed card at once: my action is over
        elif player == me:
            if state.phase == PLAY:
                break  # my next turn: the horizon
            choose = my_choice or _keep_tokens
            state = state.apply(choose(state))
            break
        else:
            state = redeal(state, me, known, rng)
            state = state.apply(greedy(state, rng))
    return tuple(a - b for a, b in zip(start, state.strips, strict=True))


def _keep_tokens(state: PartyTimeState) -> Play:
    return Play(Card(state.revealed), 0)


def estimate(view: PartyTimeView, play: Play, samples: int, rng: random.Random,
             my_choice: MyChoice | None = None) -> Estimate:
    """The mean of ``samples`` playouts of ``play``, with 95% intervals."""
    n = view.num_players
    totals, squares = [0.0] * n, [0.0] * n
    lost = 0
    for _ in range(samples):
        losses = playout(view, play, rng, my_choice)
        for seat, value in enumerate(losses):
            totals[seat] += value
            squares[seat] += value * value
        lost += losses[view.player] > 0
    means = tuple(t / samples for t in totals)
    intervals = tuple(mean_interval(t, q, samples) for t, q in zip(totals, squares, strict=True))
    rate = lost / samples
    return Estimate(samples, means, intervals, rate, wilson_interval(rate, samples))


# -- the long run: which of two plays costs me fewer strips by the end of the game ----------------


@dataclass(frozen=True, slots=True)
class Comparison:
    """Paired playouts of two plays to the end of the game (everyone greedy after them)."""

    samples: int
    difference: float
    """Mean strips ``me`` loses by the end of the game after ``first``, less after ``second``
    (negative: ``first`` is better)."""
    interval: Interval


def play_to_end(state: PartyTimeState, me: int, rng: random.Random,
                policies: list[Policy] | None = None) -> int:
    """Strips ``me`` loses from ``state`` to the end of the game, every seat playing greedy (or
    ``policies[seat]``)."""
    players = policies or [GreedyPolicy()] * state.num_players
    final, _ = play_game(state, players, rng)
    assert isinstance(final, PartyTimeState)
    return state.strips[me] - final.strips[me]


def habits_to_end(view: PartyTimeView, play: Play, samples: int, rng: random.Random
                  ) -> list[int]:
    """Strips ``view``'s player loses by the end of the game after ``play``, in ``samples``
    playouts on the rules engine: the unseen cards dealt from the view, then the player
    playing the habits and everyone else greedy.  The plain-Python oracle (and benchmark
    baseline) of the compiled :func:`~.playouts.long_run`."""
    me = view.player
    policies: list[Policy] = [HabitPolicy() if seat == me else GreedyPolicy()
                              for seat in range(view.num_players)]
    lost = []
    for _ in range(samples):
        state = view.sample(rng)
        after = state.apply(play)
        lost.append(state.strips[me] - after.strips[me] + play_to_end(after, me, rng, policies))
    return lost


def compare_long_run(view: PartyTimeView, first: Play, second: Play, samples: int,
                     rng: random.Random) -> Comparison:
    """How many more strips ``first`` costs ``me`` than ``second`` by the end of the game.

    Each sample deals the unseen cards from the view once and plays both plays from that same
    deal with the same random stream afterwards (common random numbers), so the difference is
    far less noisy than two independent estimates.  After the play every seat, ``me`` too,
    plays greedy: this measures one departure from greedy, not a whole policy.
    """
    me = view.player
    total = square = 0.0
    for _ in range(samples):
        deal_seed = rng.getrandbits(64)
        lost = []
        for play in (first, second):
            stream = random.Random(deal_seed)
            state = view.sample(stream)
            after = state.apply(play)
            lost.append(state.strips[me] - after.strips[me] + play_to_end(after, me, stream))
        difference = lost[0] - lost[1]
        total += difference
        square += difference * difference
    return Comparison(samples, total / samples, mean_interval(total, square, samples))
