"""The oracle and baseline of the hint's search: every individual deal, on the rules engine.

:func:`enumerate_moves` values every play of a view's player the plain way, sharing nothing
with :mod:`.belief` but the opponents' policy:

* every way to deal the individual unseen cards into the other hands (each combination of
  individual cards in turn, not card types), the rest making the pile;
* the game played forward on the rules engine (``models/party_time/state.py``), every
  individual card the pile can give (drawn or turned over) a branch of its own, the engine
  rebuilding the pile from the played cards when it runs out;
* every opponent greedy on the hand the engine holds for it;
* my own choices (the tokens with a card a question mark makes me carry out, my next turns at
  depth 2 or more) the best on average over every deal consistent with what I have seen: the
  plays, the cards turned over and the cards I drew;
* no counting by type, no transposition table; probabilities as exact fractions (or floats).

The values are those of :class:`~.belief.DealSearch` (same model, same horizon, same figures):
every seat's expected strips lost until the horizon, the chance that I lose a strip between
this turn and my next, and my expected loss on the horizon's play.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

from ...models.party_time.game import CARDS, DRAWS, REVEALS, Counts, Play, counts_of
from ...models.party_time.state import (
    CARRY_OUT,
    DRAW,
    PLAY,
    REVEAL,
    PartyTimeState,
    PartyTimeView,
)
from .belief import MAX_CHAIN
from .policies import GreedyPolicy

Weight = Any
"""A probability: a :class:`~fractions.Fraction`, or a float."""

Totals = tuple[list[Weight], Weight, Weight]
"""Probability-weighted sums over paths: strips lost per seat, the mass of paths on which I
lose a strip between this turn and my next, and my loss on the horizon's play."""


def individual(counts: Counts) -> list[int]:
    """The cards one by one (their types, one entry per card)."""
    return [card for card, n in enumerate(counts) for _ in range(n)]


def every_deal(view: PartyTimeView) -> list[PartyTimeState]:
    """The full state of every deal of ``view``'s unseen individual cards over the other hands
    (at their sizes) and the pile: one state per combination of individual cards."""
    me = view.player
    cards = individual(view.unseen())
    seats = [seat for seat in range(view.num_players) if seat != me]
    found: list[PartyTimeState] = []

    def deal(index: int, left: tuple[int, ...], hands: dict[int, Counts]) -> None:
        if index == len(seats):
            pile = counts_of([cards[i] for i in left])
            held = tuple(view.hand if seat == me else hands[seat]
                         for seat in range(view.num_players))
            found.append(PartyTimeState(view.rules, view.names, view.phase, view.turn,
                                        view.refill, view.revealed, view.direction,
                                        view.bottle, view.tokens, view.strips, held, pile,
                                        view.played))
            return
        seat = seats[index]
        for chosen in combinations(left, view.hand_size(seat)):
            rest = tuple(i for i in left if i not in chosen)
            deal(index + 1, rest, {**hands, seat: counts_of([cards[i] for i in chosen])})

    deal(0, tuple(range(len(cards))), {})
    return found


def enumerate_moves(view: PartyTimeView, depth: int = 1, exact: bool = True
                    ) -> list[tuple[Play, tuple[tuple[Weight, ...], Weight, Weight]]]:
    """Every play of ``view``'s player (the engine's order) with its value: (expected strips
    lost per seat until the horizon, the chance of a loss between this turn and the next,
    the expected loss on the horizon's play)."""
    view.require_turn()
    states = every_deal(view)
    one: Weight = Fraction(1) if exact else 1.0
    particles = [(state, one / len(states)) for state in states]
    walk = _Walk(view.player, view.num_players, depth, exact)
    found = []
    for play in view.legal_actions():
        losses, unsafe, after = walk.act(particles, play, 0, 0, False, root=True)
        found.append((play, (tuple(losses), unsafe, after)))
    return found


class _Walk:
    """The recursion over groups of engine states that share what ``me`` has seen."""

    def __init__(self, me: int, players: int, depth: int, exact: bool) -> None:
        self.me = me
        self.n = players
        self.depth = depth
        self.exact = exact
        self.greedy = GreedyPolicy()
        self.zero: Weight = Fraction(0) if exact else 0.0

    def totals(self) -> Totals:
        return [self.zero] * self.n, self.zero, self.zero

    def walk(self, particles: list[tuple[PartyTimeState, Weight]], segment: int, chain: int,
             hit: bool) -> Totals:
        """Every path from ``particles`` (states that agree on all ``me`` has seen) to the
        horizon: ``hit`` tells whether I lost a strip between turns already."""
        first = particles[0][0]
        if first.is_terminal():
            return self.totals()
        if first.phase in (DRAW, REVEAL):
            return self.chance(particles, segment, chain, hit)
        if first.turn != self.me:
            groups: dict[Any, list[tuple[PartyTimeState, PartyTimeState, Weight]]] = {}
            for state, weight in particles:
                play = self.greedy(state, None)  # type: ignore[arg-type]
                groups.setdefault(play, []).append((state, state.apply(play), weight))
            total = self.totals()
            for moves in groups.values():
                total = _add(total, self.then(moves, segment, chain, hit, own=False))
            return total
        # my choice: the best on average over every deal I cannot tell apart
        best: Totals | None = None
        best_key: tuple[Any, ...] | None = None
        for play in first.legal_actions():
            value = self.act(particles, play, segment, chain, hit, root=False)
            losses, _, after = value
            kept = first.apply(play).tokens[self.me]
            key = (losses[self.me] + after, -kept, -(sum(losses) - losses[self.me]))
            if best_key is None or _less(key, best_key, self.exact):
                best, best_key = value, key
        assert best is not None
        return best

    def act(self, particles: list[tuple[PartyTimeState, Weight]], play: Play, segment: int,
            chain: int, hit: bool, root: bool) -> Totals:
        """My ``play`` in every state of ``particles``.  Carrying out a revealed card is one of
        my turns (it ends a stretch of the horizon) unless it is the root's own action."""
        carry_out = particles[0][0].phase == CARRY_OUT and not root
        moves = [(state, state.apply(play), weight) for state, weight in particles]
        return self.then(moves, segment, chain, hit, own=True, carry_out=carry_out)

    def chance(self, particles: list[tuple[PartyTimeState, Weight]], segment: int, chain: int,
               hit: bool) -> Totals:
        """Every individual card the pile can give, each a branch of its own; I see it when it
        is turned over or when I draw it."""
        first = particles[0][0]
        reveal = first.phase == REVEAL
        mine = first.turn == self.me
        groups: dict[Any, list[tuple[PartyTimeState, PartyTimeState, Weight]]] = {}
        for state, weight in particles:
            cards = individual(state.pile)
            share = weight / len(cards)
            for card in cards:
                child = state.apply(REVEALS[card] if reveal else DRAWS[card])
                sight = card if reveal or state.refill == self.me else None
                groups.setdefault(sight, []).append((state, child, share))
        total = self.totals()
        for moves in groups.values():
            if reveal:
                carried = moves[0][1].phase != CARRY_OUT  # carried out at once: no choice
                part = self.then(moves, segment, chain, hit, own=mine and carried,
                                 carry_out=mine and carried)
            else:
                part = self.then(moves, segment, 0, hit, own=False)
            total = _add(total, part)
        return total

    def then(self, moves: list[tuple[PartyTimeState, PartyTimeState, Weight]], segment: int,
             chain: int, hit: bool, own: bool, carry_out: bool = False) -> Totals:
        """Count what ``moves`` (before, after, probability) cost, then go on."""
        losses, unsafe, after = self.totals()
        before, child, _ = moves[0]
        loser = next((seat for seat in range(self.n)
                      if child.strips[seat] < before.strips[seat]), -1)
        mass = sum(weight for _, _, weight in moves)
        if carry_out:
            segment += 1
            if segment >= self.depth:  # my turn at the horizon: its loss is its play's
                if loser == self.me:
                    return losses, unsafe, mass
                if loser >= 0:
                    losses[loser] += mass
                return losses, unsafe, after
        if loser >= 0:
            losses[loser] += mass
            if loser == self.me and not own and segment == 0 and not hit:
                unsafe += mass
                hit = True
        if child.is_terminal():
            return losses, unsafe, after
        if child.phase == REVEAL:
            chain += 1
            if chain > MAX_CHAIN:
                return losses, unsafe, after
        if child.phase == PLAY and child.turn == self.me and not own and \
                before.phase == DRAW:
            segment += 1
            if segment >= self.depth:  # the horizon: my hand, with what I drew
                stuck = sum(weight for _, state, weight in moves if _stuck(state, self.me))
                return losses, unsafe, stuck
        rest = self.walk([(state, weight) for _, state, weight in moves], segment, chain, hit)
        return _add((losses, unsafe, after), rest)


def _stuck(state: PartyTimeState, me: int) -> bool:
    """Whether every card of ``me``'s hand crosses the star, whatever the tokens returned."""
    reach = state.rules.length - state.bottle + state.tokens[me]
    return all(card.is_number and card.number > reach
               for card in CARDS if state.hands[me][card])


def _add(a: Totals, b: Totals) -> Totals:
    return [x + y for x, y in zip(a[0], b[0], strict=True)], a[1] + b[1], a[2] + b[2]


def _less(key: tuple[Any, ...], best: tuple[Any, ...], exact: bool) -> bool:
    tolerance = 0 if exact else 1e-12
    for a, b in zip(key, best, strict=True):
        if a < b - tolerance:
            return True
        if a > b + tolerance:
            return False
    return False
