"""A Monte Carlo estimate of the hint's values, played out on the rules engine itself.

It is the hint's test oracle: it shares nothing with :mod:`.belief` but the opponents' policy.
Each playout deals the unseen cards from the view once at random (:meth:`PartyTimeView.sample`),
plays the move on the engine, and plays on until ``me``'s next turn begins, every opponent
greedy on the hand the engine holds for it, the draws and reveals coming from the engine's
pile (the hint's one-deal model: see :mod:`.belief`).  The figures: the mean strips lost per
seat until then (the play that begins my next turn not included), the rate of playouts in
which ``me`` lost a strip on the others' cards, and the mean strips that play cost me (a hand
with no safe card, or a card a question mark made me carry out), each with its 95% interval.

Beyond the horizon, playouts to the end of the game on the engine: :func:`habits_to_end` is
the plain-Python oracle (and benchmark baseline) of the compiled long run (:mod:`.playouts`),
and :func:`compare_long_run` pairs two plays, everyone greedy after them (benchmark part 3).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ...models.party_time.game import Card, Play
from ...models.party_time.state import (
    CARRY_OUT,
    OVER,
    PLAY,
    REVEAL,
    PartyTimeState,
    PartyTimeView,
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
    """Strips each seat lost from the play until my next turn begins."""
    intervals: tuple[Interval, ...]
    lose_rate: float
    """The share of playouts in which ``me`` lost a strip on the others' cards before their
    next turn."""
    lose_interval: Interval
    next_play: float
    """The mean strips the play that begins my next turn cost me."""
    next_interval: Interval


@dataclass(frozen=True, slots=True)
class Playout:
    """One playout until my next turn."""

    losses: tuple[int, ...]
    hit: bool
    """Whether I lost a strip on the others' cards."""
    next_play: int


def playout(view: PartyTimeView, play: Play, rng: random.Random,
            my_choice: MyChoice | None = None) -> Playout:
    """One playout of ``play`` from one deal, until ``me``'s next turn begins."""
    me = view.player
    greedy = GreedyPolicy()
    state = view.sample(rng)
    start = state.strips
    state = state.apply(play)
    hit, next_play, carried = False, 0, 0
    while state.phase != OVER:
        player = state.current_player()
        if player == CHANCE:
            revealing = state.phase == REVEAL and state.turn == me
            before = state.strips[me]
            state = state.apply(sample_chance(state, rng))
            if revealing and state.phase != CARRY_OUT:
                carried = next_play = before - state.strips[me]  # carried out: my next turn
                break
            if state.strips[me] < before:
                hit = True
        elif player == me:
            if state.phase == PLAY:
                next_play = int(_stuck(state, me))  # my next turn: the horizon
                break
            before = state.strips[me]
            state = state.apply((my_choice or _keep_tokens)(state))
            carried = next_play = before - state.strips[me]
            break
        else:
            before = state.strips[me]
            state = state.apply(greedy(state, rng))
            hit = hit or state.strips[me] < before
    losses = [a - b for a, b in zip(start, state.strips, strict=True)]
    losses[me] -= carried  # that strip is the next turn's
    return Playout(tuple(losses), hit, next_play)


def _stuck(state: PartyTimeState, me: int) -> bool:
    reach = state.rules.length - state.bottle + state.tokens[me]
    return all(Card(card).is_number and Card(card).number > reach
               for card, count in enumerate(state.hands[me]) if count)


def _keep_tokens(state: PartyTimeState) -> Play:
    return Play(Card(state.revealed), 0)


def estimate(view: PartyTimeView, play: Play, samples: int, rng: random.Random,
             my_choice: MyChoice | None = None) -> Estimate:
    """The mean of ``samples`` playouts of ``play``, with 95% intervals."""
    n = view.num_players
    totals, squares = [0.0] * n, [0.0] * n
    lost = after = 0
    for _ in range(samples):
        result = playout(view, play, rng, my_choice)
        for seat, value in enumerate(result.losses):
            totals[seat] += value
            squares[seat] += value * value
        lost += result.hit
        after += result.next_play
    means = tuple(t / samples for t in totals)
    intervals = tuple(mean_interval(t, q, samples) for t, q in zip(totals, squares, strict=True))
    rate = lost / samples
    return Estimate(samples, means, intervals, rate, wilson_interval(rate, samples),
                    after / samples, wilson_interval(after / samples, samples))


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
