"""Exact two-player Epic Monster Tea Party search in plain Python over packed integers.

The compiled search (:mod:`.kernel`) is the fastest once numba has compiled it, but
compiling takes some ten seconds on the first run.  This search is the same algorithm,
interpreted: it needs no compilation, and answers the small positions (a few tens of thousands
of states) before the compiled one would have finished compiling.  Like the compiled search it

* stores every state with the monster to act in seat 0 (with two monsters the rules are the
  same from either seat): the other seat's value is one minus its own;
* values the end of the game in closed form (both drink, a throw-up after a Ranger);
* keys its table by the rules engine's canonical form (:meth:`TeaPartyState.key`, restated for
  seat 0 to act), stops at a certain win (``settled_returns``) and stops a decision at an
  option that wins for certain.

``tests/tea_party/test_tea_party_lean.py`` holds it equal to the generic search over the rules
engine and to the compiled one.
"""

from __future__ import annotations

from functools import cache

from ...models.protocol import State
from ...models.tea_party.state import (
    CHOOSE,
    DRAW,
    KING,
    ONE,
    OVER,
    QUEEN,
    RANGER,
    RANGERS,
    THROW_UP,
    TOUCHES_CUPS,
    TeaPartyState,
    by_rank,
    count,
    points,
    present,
    size,
    standing,
    without_best,
)
from ..budget import Budget
from ..expectimax import Expectimax, Values

FIGHTER, CLERIC, ROGUE, WIZARD, BARD = 0, 1, 2, 3, 5
_TOUCHING_HELD = frozenset((ROGUE, WIZARD, BARD, KING, QUEEN))
_COPIES = (FIGHTER, CLERIC, ROGUE, WIZARD, BARD)
_FINAL = 4
"""The key tag of an end of the game (no phase uses it)."""


@cache
def throw_ups(stomach: int) -> tuple[tuple[int, float], ...]:
    """The stomach after a throw-up of two heroes drawn blindly, with its probability
    (everything goes when it holds two heroes or fewer)."""
    total = size(stomach)
    if total <= 2:
        return ((0, 1.0),)
    pairs = total * (total - 1)
    found = []
    heroes = present(stomach)
    for i, a in enumerate(heroes):
        na = count(stomach, a)
        if na >= 2:
            found.append((stomach - 2 * ONE[a], na * (na - 1) / pairs))
        for b in heroes[i + 1:]:
            found.append((stomach - ONE[a] - ONE[b], 2 * na * count(stomach, b) / pairs))
    return tuple(found)


@cache
def _drunk(cup: int, stomach: int) -> tuple[tuple[int, float], ...]:
    """The standings of a stomach after drinking ``cup`` (and throwing up after a Ranger)."""
    if cup & RANGERS:
        return tuple((standing(zone), p) for zone, p in throw_ups(stomach + cup))
    return ((standing(stomach + cup), 1.0),)


def final_value(c0: int, c1: int, s0: int, s1: int) -> float:
    """Seat 0's value at the end of the game: both drink, throw-ups follow Rangers."""
    value = 0.0
    theirs = _drunk(c1, s1)
    for mine, p in _drunk(c0, s0):
        for other, q in theirs:
            value += p * q * (1.0 if mine > other else 0.5 if mine == other else 0.0)
    return value


def settled(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int) -> float:
    """Seat 0's value when the winner is already certain, else -1."""
    loose = bag + c0 + c1 + (ONE[held] if held >= 0 else 0)
    p0, p1 = points(s0), points(s1)
    if min(p0, p1) + points(loose) > max(p0, p1):
        return -1.0
    leader, other = (s0, s1) if p0 >= p1 else (s1, s0)
    throw = count(loose, RANGER) + (phase == THROW_UP)
    if standing(without_best(leader, 2 * throw)) > standing(other + loose):
        return 1.0 if p0 >= p1 else 0.0
    return -1.0


_rank = cache(by_rank)
""":func:`by_rank`, remembered (the same stomachs come back again and again)."""
_LOW28 = (1 << 28) - 1


def key(phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
        ) -> tuple[int, ...]:
    """The rules engine's canonical key (``TeaPartyState._canonical``), seat 0 to act."""
    if held == QUEEN:
        held = KING
    # Queens counted as Kings (merge_royals, inlined: this is the hot path).
    bag = (bag & _LOW28) + ((bag >> 28) << 24)
    c0 = (c0 & _LOW28) + ((c0 >> 28) << 24)
    c1 = (c1 & _LOW28) + ((c1 >> 28) << 24)
    loose = (bag | c0 | c1) & RANGERS or held == RANGER or phase == THROW_UP
    if bag & TOUCHES_CUPS or held in _TOUCHING_HELD:
        if loose:
            return (0, phase, held, bag, c0, c1, _rank(s0), _rank(s1))
        return (1, phase, held, bag, c0, c1, standing(s1) - standing(s0))
    if loose:
        return (2, phase, held, bag, _rank(s0 + c0), _rank(s1 + c1),
                bool(c0 & RANGERS), bool(c1 & RANGERS))
    return (3, phase, held, bag, standing(s1 + c1) - standing(s0 + c0))


class LeanExpectimax(Expectimax):
    """Exact two-player search in plain Python, with the interface of :class:`Expectimax`;
    ``table`` may be a dict shared between searches of one game (it only holds finished
    values)."""

    method = "exact expectimax, interpreted"

    def __init__(self, budget: Budget, transpositions: bool = True,
                 table: dict[tuple[int, ...], float] | None = None) -> None:
        super().__init__(budget, transpositions=False)
        self.transpositions = transpositions
        self.lean_table: dict[tuple[int, ...], float] = {} if table is None else table

    @classmethod
    def check(cls, state: State) -> None:
        if not isinstance(state, TeaPartyState) or state.num_players != 2:
            raise ValueError("the interpreted two-monster search solves Epic Monster Tea "
                             "Party for two monsters only")

    def size(self) -> int:
        return len(self.lean_table) if self.transpositions else 0

    def value(self, state: State) -> Values:
        self.check(state)
        assert isinstance(state, TeaPartyState)
        if state.phase == OVER or (state.phase == THROW_UP and state.final):
            small = Expectimax(Budget())  # the end-of-game drinking, mid-way
            values = small.value(state)
            self.meter.nodes += small.meter.nodes
            return values
        cups, stomachs = state.cups, state.stomachs
        if state.player == 1:
            cups, stomachs = cups[::-1], stomachs[::-1]
        seat = self._value(state.phase, state.held, state.bag, cups[0], cups[1], stomachs[0],
                           stomachs[1])
        return (1.0 - seat, seat) if state.player == 1 else (seat, 1.0 - seat)

    def _value(self, phase: int, held: int, bag: int, c0: int, c1: int, s0: int, s1: int
               ) -> float:
        """Seat 0's value, seat 0 to act (draw, throw-up during its turn, or choice)."""
        table = self.lean_table if self.transpositions else None
        k = key(phase, held, bag, c0, c1, s0, s1)
        if table is not None:
            found = table.get(k)
            if found is not None:
                self.hits += 1
                return found
        self.meter.node()
        value = settled(phase, held, bag, c0, c1, s0, s1)
        if value >= 0.0:
            pass
        elif phase == DRAW:
            total = size(bag)
            value = 0.0
            for hero in present(bag):
                value += count(bag, hero) / total * self._value(
                    CHOOSE, hero, bag - ONE[hero], c0, c1, s0, s1)
        elif phase == THROW_UP:  # seat 0 drank a Ranger during its turn
            value = 0.0
            for stomach, p in throw_ups(s0):
                value += p * self._end(bag, c0, c1, stomach, s1)
        else:
            value = self._choose(held, bag, c0, c1, s0, s1)
        if table is not None:
            table[k] = value
        return value

    def _choose(self, held: int, bag: int, c0: int, c1: int, s0: int, s1: int) -> float:
        """The best option for the hero in hand (the rules engine's options, equal results
        merged: ``idle`` is the squish that changes nothing)."""
        best = self._end(bag, c0 + ONE[held], c1, s0, s1)  # cup it
        if held == RANGER:
            return best
        idle = False
        for ability in _COPIES if held >= KING else (held,):
            if best >= 1.0:
                return best
            if ability == FIGHTER:
                if c0 == 0:
                    idle = True
                elif c0 & RANGERS:
                    best = max(best, self._value(THROW_UP, -1, bag, 0, c1, s0 + c0, s1))
                else:
                    best = max(best, self._end(bag, 0, c1, s0 + c0, s1))
            elif ability == CLERIC:
                if bag:
                    best = max(best, self._value(DRAW, -1, bag, c0, c1, s0, s1))
                else:
                    idle = True
            elif ability == ROGUE:
                idle = idle or c1 == 0
                for hero in present(c1):
                    best = max(best, self._value(CHOOSE, hero, bag, c0, c1 - ONE[hero], s0, s1))
            elif ability == WIZARD:
                idle = idle or c0 == 0 or c1 == 0
                if c0:
                    best = max(best, self._end(bag + c0, 0, c1, s0, s1))
                if c1:
                    best = max(best, self._end(bag + c1, c0, 0, s0, s1))
            elif c0 == c1:  # Bard
                idle = True
            else:
                best = max(best, self._end(bag, c1, c0, s0, s1))
        if idle and best < 1.0:
            best = max(best, self._end(bag, c0, c1, s0, s1))
        return best

    def _end(self, bag: int, c0: int, c1: int, s0: int, s1: int) -> float:
        """Seat 0's value once its turn is over: the other monster's draw, or the end."""
        if bag:
            return 1.0 - self._value(DRAW, -1, bag, c1, c0, s1, s0)
        table = self.lean_table if self.transpositions else None
        k = (_FINAL, _rank(s0 + c0), _rank(s1 + c1), bool(c0 & RANGERS),
             bool(c1 & RANGERS))
        if table is not None:
            found = table.get(k)
            if found is not None:
                self.hits += 1
                return found
        self.meter.node()
        value = final_value(c0, c1, s0, s1)
        if table is not None:
            table[k] = value
        return value
